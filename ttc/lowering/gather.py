"""`tt.gather`: result[i] = src[i with i[axis] replaced by index[i]], through shared memory.

Every source element is written once (by one of the threads holding it) to a row-major array in the scratch
area; after a barrier each result register reads the element its index names. This works for any source and
index layouts. (Triton lowers gathers whose layouts keep each column along the axis inside a warp, the
`efficient_layout` ones, with warp shuffles instead; the results are the same.) An index outside the axis
reads an unspecified element (the load address is clamped into the array).
"""

from __future__ import annotations

import math

import llvmlite.ir as ir

from ttc.ir.types import shape_of
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of, i32


def _linear(b, coords, strides):
    acc = None
    for c, s in zip(coords, strides):
        term = c if s == 1 else b.mul(c, ir.Constant(i32, s))
        acc = term if acc is None else b.add(acc, term)
    return acc


def _index_i32(b, v):
    w = v.type.width
    if w > 32:
        return b.trunc(v, i32)
    if w < 32:
        return b.zext(v, i32)  # narrow indices are read unsigned, as the result must lie in [0, size)
    return v


@lowering("tt.gather")
def _gather(ctx, op):
    b = ctx.b
    axis = op.axis.value.data
    src_shape = shape_of(op.src.type)
    strides = [math.prod(src_shape[d + 1:]) for d in range(len(src_shape))]
    src_ll = ctx.layout(op.src.type, op)
    out_ll = ctx.layout(op.result.type, op)
    vals = ctx.get(op.src)
    idx = ctx.get(op.indices)
    elem_t = ctx.type_of(op.result.type, op)
    slot = bits_of(ctx.stored_type(elem_t)) // 8
    ctx.use_scratch(math.prod(src_shape) * slot)
    ctx.barrier()
    owner = ctx.owner_pred(src_ll)
    src_coords = ctx.coords(src_ll)
    for r in src_ll.unique_regs:
        ctx.smem_store(_linear(b, src_coords[r], strides), vals[r], elem_bytes=slot, pred=owner)
    ctx.barrier()
    last = ir.Constant(i32, src_shape[axis] - 1)
    out = []
    for r, c in enumerate(ctx.coords(out_ll)):
        k = _index_i32(b, idx[r] if isinstance(idx, list) else idx)
        k = b.select(b.icmp_unsigned(">", k, last), last, k)
        coords = list(c)
        coords[axis] = k
        out.append(ctx.smem_load(_linear(b, coords, strides), elem_t, elem_bytes=slot))
    ctx.set(op.result, out)
