"""`tt.histogram`: counts of each value in [0, bins) of an integer tensor, through shared memory.

The CTA zeroes `bins` 32-bit counters in shared memory, every element (one holder of each, masked) adds one to
its counter with a shared-memory atomic, and after a barrier each result register reads the counter of its bin.
Values outside [0, bins) are not counted.
"""

from __future__ import annotations

import llvmlite.ir as ir

from ttc.ir.types import shape_of
from ttc.lowering.registry import lowering
from ttc.lowering.types import i32


@lowering("tt.histogram")
def _histogram(ctx, op):
    b = ctx.b
    bins = shape_of(op.result.type)[0]
    src_ll = ctx.layout(op.src.type, op)
    out_ll = ctx.layout(op.result.type, op)
    vals = ctx.get(op.src)
    masks = ctx.get(op.mask) if op.mask is not None else None
    threads = ctx.num_warps * ctx.threads_per_warp
    ctx.use_scratch(bins * 4)
    tid = ctx.tid()
    ctx.barrier_before_scratch()
    for k in range(0, bins, threads):
        idx = b.add(tid, ir.Constant(i32, k))
        ctx.smem_store(idx, ir.Constant(i32, 0), pred=b.icmp_unsigned("<", idx, ir.Constant(i32, bins)))
    ctx.barrier()
    owner = ctx.owner_pred(src_ll)
    for r in src_ll.unique_regs:
        x = vals[r]
        x32 = b.trunc(x, i32) if x.type.width > 32 else (b.zext(x, i32) if x.type.width < 32 else x)
        in_range = b.icmp_unsigned("<", x, ir.Constant(x.type, bins))  # negative values are huge unsigned
        pred = in_range
        if owner is not None:
            pred = b.and_(pred, owner)
        if masks is not None:
            pred = b.and_(pred, masks[r] if isinstance(masks, list) else masks)
        with b.if_then(pred):
            ptr = ctx.smem_ptr(b.mul(x32, ir.Constant(i32, 4)))
            b.atomic_rmw("add", ptr, ir.Constant(i32, 1), "monotonic")
    ctx.barrier()
    t = ctx.type_of(op.result.type, op)
    out = []
    for c in ctx.coords(out_ll):
        v = ctx.smem_load(c[0], i32)
        out.append(v if t == i32 else (b.sext(v, t) if t.width > 32 else b.trunc(v, t)))
    ctx.set(op.result, out)
