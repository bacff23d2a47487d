"""Moving tensor elements between layouts: within each thread when possible, through shared memory otherwise.

`register_map` finds, for every register of the destination layout, the register of the source layout that holds
the element it needs *in the same thread*: possible when the two layouts give lanes and warps the same elements
(after mapping the destination's coordinates to the source's by a linear map: identity for `convert_layout`, a
permutation for `tt.trans`, a projection for `tt.broadcast`, ...). Otherwise `exchange` goes through shared memory:
every thread writes the elements it holds at their row-major index (rows padded by one bank, against bank
conflicts), a barrier, every thread reads the elements it needs. `ttg.convert_layout` is lowered here.
"""

from __future__ import annotations

import math
from typing import Callable

from ttc.lowering import indexing
from ttc.lowering.linear_layout import LinearLayout
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of


def register_map(src: LinearLayout, dst: LinearLayout, f: Callable[[tuple], tuple]) -> list[int] | None:
    """Per destination register, the source register (same thread) holding the element at `f(coords)`; None when
    the lanes and warps of the two layouts do not line up."""
    if len(src.lane) != len(dst.lane) or len(src.warp) != len(dst.warp):
        return None
    for bs, bd in zip(src.lane + src.warp, dst.lane + dst.warp):
        if f(bd) != bs:
            return None
    out = []
    for c in dst.reg_coords:
        r = src.first_reg.get(f(c))
        if r is None:
            return None
        out.append(r)
    return out


def exchange(ctx, op, values: list, src: LinearLayout, dst: LinearLayout, to_src: Callable | None = None) -> list:
    """Through shared memory: the source tensor's elements, rearranged into the destination layout. `to_src` maps
    destination coordinates (LLVM values) to source coordinates (identity by default)."""
    b = ctx.b
    t = values[0].type
    elem_bytes = max(1, bits_of(ctx.stored_type(t)) // 8)
    buffer = padded_shape(src.shape, elem_bytes)
    ctx.use_scratch(math.prod(buffer) * elem_bytes)
    ctx.barrier()
    coords = ctx.coords(src)
    for r in src.unique_regs:
        ctx.smem_store(indexing.linearize(b, coords[r], buffer), values[r])
    ctx.barrier()
    out = []
    for c in ctx.coords(dst):
        sc = to_src(c) if to_src is not None else c
        out.append(ctx.smem_load(indexing.linearize(b, sc, buffer), t))
    return out


def padded_shape(shape, elem_bytes: int) -> list[int]:
    """The shared-memory buffer of an exchange: the tensor row-major, each row padded by 4 bytes (one element
    when elements are wider) when a row spans whole rows of the 32 banks (128 bytes), so that threads walking
    down a column (a transpose) hit different banks instead of one."""
    shape = list(shape)
    if len(shape) > 1 and (shape[-1] * elem_bytes) % 128 == 0:
        shape[-1] += max(1, 4 // elem_bytes)
    return shape


def rearrange(ctx, op, values: list, src: LinearLayout, dst: LinearLayout, f: Callable[[tuple], tuple],
              to_src: Callable | None = None) -> list:
    """Registers of `dst` from those of `src`: by register renaming when possible, else through shared memory.
    `f` maps destination coordinates (ints) to source coordinates; `to_src` is the same map on LLVM values."""
    m = register_map(src, dst, f)
    if m is not None:
        return [values[r] for r in m]
    return exchange(ctx, op, values, src, dst, to_src)


@lowering("ttg.convert_layout")
def _convert_layout(ctx, op):
    src = ctx.layout(op.src.type, op)
    dst = ctx.layout(op.result.type, op)
    ctx.set(op.result, rearrange(ctx, op, ctx.get(op.src), src, dst, lambda c: c))
