"""Shared-memory tensors as Triton's FMA dot path uses them: `ttg.local_alloc %t` (immutable, from a tensor),
`ttg.local_load` (into any distributed layout, e.g. a dot operand) and `ttg.local_dealloc`.

An immutable allocation's contents are its source tensor, so the lowering keeps the source's registers and
performs the data movement at each `local_load`, through the shared scratch buffer (`convert.rearrange`); no
long-lived buffer is needed. Mutable allocations (`local_alloc` without a source, `local_store`), views
(`memdesc_index`, `memdesc_trans`) and asynchronous copies, which pipelined TTGIR uses, are not supported.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttc.lowering.convert import rearrange
from ttc.lowering.linear_layout import LinearLayout
from ttc.lowering.registry import lowering


@dataclass
class SharedTensor:
    values: list
    layout: LinearLayout


@lowering("ttg.local_alloc")
def _local_alloc(ctx, op):
    if op.src is None:
        raise ctx.error(op, "mutable shared memory allocations are not supported (compile without software "
                            "pipelining: num_stages = 1)")
    ctx.set(op.result, SharedTensor(ctx.get(op.src), ctx.layout(op.src.type, op)))


@lowering("ttg.local_load")
def _local_load(ctx, op):
    buf = ctx.get(op.src)
    if not isinstance(buf, SharedTensor):
        raise ctx.error(op, "ttg.local_load is supported from ttg.local_alloc results only")
    dst = ctx.layout(op.result.type, op)
    ctx.set(op.result, rearrange(ctx, op, buf.values, buf.layout, dst, lambda c: c))


@lowering("ttg.local_dealloc")
def _local_dealloc(ctx, op):
    pass
