"""Asynchronous copies from global to shared memory (sm_80's `cp.async`), as software-pipelined TTGIR uses them:
`ttg.async_copy_global_to_local`, `ttg.async_commit_group`, `ttg.async_wait`.

A copy issues one `cp.async.{cg,ca}.shared.global [dst], [src], N[, src_size]` per group of registers holding
consecutive addresses in both memories: N = 16 (`.cg`, bypassing L1), 8 or 4 bytes, the widest that the axis
analysis proves for the pointers (global_memory.vector_width), that the mask is uniform over, and that the
buffer keeps contiguous (its swizzle unit). A masked-off group copies nothing and zero-fills (src_size 0), whatever
`other` is, as Triton's lowering does: for a non-zero `other` Triton's pipeliner puts `arith.select(mask, loaded,
other)` after the `ttg.local_load` (the fused-softmax tutorial's `-inf` row load). Where the layout replicates
elements across threads (a slice of an mma layout), only one thread of each set of holders copies (Triton's
redundant-thread predicate from the layout's free lane and warp bits). Copies join a group at
`async_commit_group`; `async_wait {num}` waits until at most `num`
groups are in flight (`cp.async.wait_group`), then a barrier makes every thread's copies visible to all. Tokens
carry no data (an i32 zero).
"""

from __future__ import annotations

import llvmlite.ir as ir

from ttc.analysis.axis_info import mask_width
from ttc.ir.types import elt
from ttc.lowering import nvvm
from ttc.lowering.convert import IROps
from ttc.lowering.exchange_plan import vector_width as buffer_vector_width
from ttc.lowering.global_memory import vector_width
from ttc.lowering.local_memory import buffer_address, register_addresses, whole_buffer
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of, i32, llvm_type

NO_TOKEN = ir.Constant(i32, 0)


@lowering("ttg.async_copy_global_to_local")
def _async_copy(ctx, op):
    buf = whole_buffer(ctx, op, op.result)
    ll = ctx.layout(op.src.type, op)
    t = llvm_type(elt(op.src.type).pointee)
    bits = bits_of(t)
    lay = buf.layout
    vec, order0 = vector_width(ctx, op.src, ll, bits)
    vec = mask_width(ctx.axis, op.mask, order0, vec)
    # an unswizzled buffer (maxPhase 1, whatever its vec) keeps whole rows together, 16-byte aligned ones too
    run = lay.row_elems if lay.max_phase == 1 and lay.row_elems * bits % 128 == 0 else lay.unit
    vec = min(vec, buffer_vector_width(ll, lay.inner, min(run, 128 // bits))) if order0 == lay.inner else 1
    nbytes = vec * bits // 8
    if nbytes not in (4, 8, 16):
        raise ctx.error(op, f"cp.async copies 4, 8 or 16 bytes; these pointers and this buffer allow {nbytes} per "
                            "access (Triton only pipelines loads of 4 bytes or more)")
    b = ctx.b
    ptrs = ctx.get(op.src)
    masks = ctx.get(op.mask) if op.mask is not None else None
    ops = IROps(b)
    ctx.buffer_access(write=True, asynchronous=True, values=[op.result])
    cache = ".cg" if nbytes == 16 else ".ca"
    starts = [r for r in ll.unique_regs if r % vec == 0]
    # one thread-dependent base address and constant offsets where the buffer's offsets are linear
    regs = register_addresses(ctx, ll, buf, starts, ops)
    coords = ctx.coords(ll) if regs is None else None
    # threads holding a copy of another thread's elements (a replicated layout: a slice of an mma layout) copy
    # nothing: one thread per element issues it (Triton's redundant-thread predicate)
    owner = ctx.owner_pred(ll)
    for r in starts:
        dst = regs[r] if regs is not None else buffer_address(ctx, buf, coords[r], ops)
        args, cons, text = [dst, ptrs[r]], "r,l", f"cp.async{cache}.shared.global [$0], [$1], {nbytes}"
        if masks is not None:
            args.append(b.select(masks[r], ir.Constant(i32, nbytes), ir.Constant(i32, 0)))
            cons, text = cons + ",r", text + ", $2"
        if owner is not None:
            text = f"@${len(args)} " + text
            args.append(owner)
            cons += ",b"
        nvvm.asm(b, text + ";", cons, ir.VoidType(), args)
    ctx.set(op.token, NO_TOKEN)


@lowering("ttg.async_commit_group")
def _commit(ctx, op):
    nvvm.asm(ctx.b, "cp.async.commit_group;", "", ir.VoidType(), [])
    ctx.set(op.asyncToken, NO_TOKEN)


@lowering("ttg.async_wait")
def _wait(ctx, op):
    nvvm.asm(ctx.b, f"cp.async.wait_group {op.num.value.data};", "", ir.VoidType(), [])
    ctx.barrier()
    ctx.set(op.retToken, NO_TOKEN)
