"""Multi-buffered in-kernel tensor descriptors (Triton's lowerTMADescriptors, which its pipelineTMAStores runs on a
loop whose TMA stores use a descriptor made in the kernel).

A `tt.make_tensor_descriptor` in such a loop (at any depth) would rewrite its one CUtensorMap while TMA copies of
the previous iteration may still read it. Instead each gets `max_stage` 128-byte tensormaps in global scratch
(`ttg.global_scratch_alloc` before the loop; max stage 2, one more when the loop body holds a `warp_group_dot`),
and a loop-carried counter (0 first) picks the one to write: `tensormap_create` at `scratch + 128 * counter`, its
`tensormap_fenceproxy_acquire` and `reinterpret_tensor_descriptor` replace the op, then the counter steps modulo
the count. A counter stepped inside `scf.if`s (or nested `scf.for`s) is carried out of them as an extra result
(the other branch yields it unchanged; a nested loop carries it as an iteration argument, its body still reading
the counter from outside, as in Triton) up to the loop's yield. Other region ops in between: nothing is done.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, i32
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttc.ir import tma
from ttc.ir.inserter import Inserter, with_if_results, with_iter_args
from ttc.ir.tt import AddPtrOp
from ttc.ir.types import PointerType

TMA_SIZE_BYTES = 128


def is_host_side(desc: SSAValue) -> bool:
    """A descriptor passed as a kernel argument (Triton's isHostSideDescriptor)."""
    return isinstance(desc, BlockArgument) and desc.owner.parent_op() is not None and \
        desc.owner.parent_op().name == "tt.func"


def _enclosing_ops(op: Operation, loop: scf.ForOp) -> list[Operation] | None:
    """The region ops between `op` and `loop`, innermost first; None if one is neither scf.if nor scf.for."""
    out, p = [], op.parent_op()
    while p is not loop:
        if not isinstance(p, (scf.IfOp, scf.ForOp)):
            return None
        out.append(p)
        p = p.parent_op()
    return out


def sink_redefinition(counter: SSAValue, out: SSAValue, op: Operation, loop: scf.ForOp, schedule=None) -> SSAValue:
    """`out` (the counter's new value, defined beside `op`) carried out of the ops between `op` and `loop` (a
    rebuilt op keeps its place in `schedule`, a CoarseSchedule, if given)."""
    block = op.parent
    while block is not loop.body.block:
        old = block.parent_op()
        if isinstance(old, scf.ForOp):
            parent = with_iter_args(old, [counter], [out])  # as Triton: uses in the loop keep reading `counter`
        else:
            taken_then = block is old.true_region.blocks.first
            parent = with_if_results(old, [out if taken_then else counter], [counter if taken_then else out])
        if schedule is not None and old in schedule.at:
            schedule.at[parent] = schedule.at.pop(old)
        out = parent.results[-1]
        block = parent.parent
    return out


def multibuffer_descriptors(loop: scf.ForOp, max_stage: int = 2, schedule=None) -> scf.ForOp:
    """Rewrite the loop's `tt.make_tensor_descriptor`s into writes of `max_stage` (one more with a
    warp_group_dot) per-iteration tensormaps; returns the loop (a new op when counters were added). With a
    `schedule` (tritongpu-pipeline's lowering of a scheduled loop), the ops that replace a make of the loop body
    take its stage and cluster."""
    from ttc.passes.tma_lowering import lower_make_descriptor

    makes = [op for op in loop.walk() if op.name == "tt.make_tensor_descriptor"]
    if not makes or any(_enclosing_ops(op, loop) is None for op in makes):
        return loop
    max_stage += any(op.name == "ttng.warp_group_dot" for op in loop.body.block.ops)
    before = Inserter(loop, loop.location)
    allocs = [before.add(tma.GlobalScratchAllocOp.build(
        result_types=[PointerType(IntegerType(8))],
        properties={"nbytes": IntegerAttr(max_stage * TMA_SIZE_BYTES, i32),
                    "alignment": IntegerAttr(TMA_SIZE_BYTES, i32)}), op.location) for op in makes]
    zero, one = before.constant(0, i32), before.constant(1, i32)
    first = len(loop.iter_args)
    loop = with_iter_args(loop, [zero] * len(makes), [zero] * len(makes))  # yields set below
    count = Inserter(loop, loop.location).constant(max_stage, i32)
    for k, (op, alloc) in enumerate(zip(makes, allocs)):
        counter = loop.body.block.args[1 + first + k]
        body_ops = set(loop.body.block.ops)
        place = schedule.at.pop(op, None) if schedule is not None else None
        at = Inserter(op, op.location)
        offset = at.add(arith.MuliOp(at.constant(TMA_SIZE_BYTES, i32), counter))
        scratch = at.add(AddPtrOp.build(operands=[alloc, offset], result_types=[alloc.type]))
        anchor = op.next_op
        lower_make_descriptor(op, scratch)
        at = Inserter(anchor, anchor.location)
        step = at.add(arith.AddiOp(counter, one))
        wrap = at.add(arith.CmpiOp(step, count, "sge"))
        nxt = at.add(arith.SelectOp(wrap, zero, step))
        out = sink_redefinition(counter, nxt, nxt.owner, loop, schedule)
        if place is not None:
            for new in loop.body.block.ops:
                if new not in body_ops:
                    schedule.insert(new, *place)
        y = loop.body.block.last_op
        y.operands = [*y.operands[:first + k], out, *y.operands[first + k + 1:]]
    return loop
