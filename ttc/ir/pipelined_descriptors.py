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
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue

from ttc.ir import tma
from ttc.ir.inserter import Inserter
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


def _with_extra_result(if_op: scf.IfOp, taken: Block, out: SSAValue, other_value: SSAValue) -> scf.IfOp:
    """`if_op` with one more result: `out` from the branch `taken`, `other_value` from the other branch."""
    new = scf.IfOp.create(operands=[if_op.cond], result_types=[*[r.type for r in if_op.results], out.type],
                          regions=[Region(), Region()], attributes=dict(if_op.attributes),
                          properties=dict(if_op.properties))
    new.location = if_op.location
    if_op.parent.insert_op_before(new, if_op)
    if_op.true_region.move_blocks(new.true_region)
    if if_op.false_region.blocks:
        if_op.false_region.move_blocks(new.false_region)
    else:
        block = Block()
        y = scf.YieldOp()
        y.location = if_op.location
        block.add_op(y)
        new.false_region.add_block(block)
    for block in (new.true_region.block, new.false_region.block):
        y = block.last_op
        y.operands = [*y.operands, out if block is taken else other_value]
    for old, nr in zip(if_op.results, new.results):
        old.replace_all_uses_with(nr)
    if_op.detach()
    if_op.erase()
    return new


def _with_iter_arg(loop: scf.ForOp, init: SSAValue, out: SSAValue) -> scf.ForOp:
    new = scf.ForOp.create(operands=[loop.lb, loop.ub, loop.step, *loop.iter_args, init],
                           result_types=[*[r.type for r in loop.results], init.type], regions=[Region()],
                           attributes=dict(loop.attributes), properties=dict(loop.properties))
    new.location = loop.location
    loop.parent.insert_op_before(new, loop)
    loop.body.move_blocks(new.body)
    body = new.body.block
    body.insert_arg(init.type, len(body.args))  # as Triton: uses in the loop keep reading `init`
    body.last_op.operands = [*body.last_op.operands, out]
    for old, nr in zip(loop.results, new.results):
        old.replace_all_uses_with(nr)
    loop.detach()
    loop.erase()
    return new


def sink_redefinition(counter: SSAValue, out: SSAValue, op: Operation, loop: scf.ForOp) -> SSAValue:
    """`out` (the counter's new value, defined beside `op`) carried out of the ops between `op` and `loop`."""
    block = op.parent
    while block is not loop.body.block:
        parent = block.parent_op()
        if isinstance(parent, scf.ForOp):
            parent = _with_iter_arg(parent, counter, out)
            out = parent.results[-1]
        else:
            taken = block
            parent = _with_extra_result(parent, taken, out, counter)
            out = parent.results[-1]
        block = parent.parent
    return out


def multibuffer_descriptors(loop: scf.ForOp) -> scf.ForOp:
    """Rewrite the loop's `tt.make_tensor_descriptor`s into writes of per-iteration tensormaps; returns the loop
    (a new op when counters were added)."""
    from ttc.passes.pipeline import _add_iter_args
    from ttc.passes.tma_lowering import lower_make_descriptor

    makes = [op for op in loop.walk() if op.name == "tt.make_tensor_descriptor"]
    if not makes or any(_enclosing_ops(op, loop) is None for op in makes):
        return loop
    max_stage = 2 + any(op.name == "ttng.warp_group_dot" for op in loop.body.block.ops)
    before = Inserter(loop, loop.location)
    allocs = [before.add(tma.GlobalScratchAllocOp.build(
        result_types=[PointerType(IntegerType(8))],
        properties={"nbytes": IntegerAttr(max_stage * TMA_SIZE_BYTES, i32),
                    "alignment": IntegerAttr(TMA_SIZE_BYTES, i32)}), op.location) for op in makes]
    zero, one = before.constant(0, i32), before.constant(1, i32)
    first = len(loop.iter_args)
    loop = _add_iter_args(loop, [zero] * len(makes))
    count = Inserter(loop, loop.location).constant(max_stage, i32)
    for k, (op, alloc) in enumerate(zip(makes, allocs)):
        counter = loop.body.block.args[1 + first + k]
        at = Inserter(op, op.location)
        offset = at.add(arith.MuliOp(at.constant(TMA_SIZE_BYTES, i32), counter))
        scratch = at.add(AddPtrOp.build(operands=[alloc, offset], result_types=[alloc.type]))
        anchor = op.next_op
        lower_make_descriptor(op, scratch)
        at = Inserter(anchor, anchor.location)
        step = at.add(arith.AddiOp(counter, one))
        wrap = at.add(arith.CmpiOp(step, count, "sge"))
        nxt = at.add(arith.SelectOp(wrap, zero, step))
        out = sink_redefinition(counter, nxt, nxt.owner, loop)
        y = loop.body.block.last_op
        y.operands = [*y.operands[:first + k], out, *y.operands[first + k + 1:]]
    return loop
