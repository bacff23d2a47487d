"""triton-test-loop-peeling: Triton's test pass over its loop-peeling utility, `peel_loop_epilogue` (here).

Every `scf.for` carrying the unit attribute `__test_peel_epilogue` (found in post-order before any is peeled,
so copies made by peeling are not peeled again) has its last iteration peeled:
- the loop's upper bound becomes `ub - step` (an `arith.subi` before the loop);
- after the loop, the last induction value `(ub - lb - 1) / step * step + lb` (signed division) and
  `lb < ub` (signed) are computed, and an `scf.if` on that condition runs a copy of the body with the last
  induction value for the induction variable and the loop's results for its iteration arguments, yielding
  what the body yields; its else branch yields the loop's results;
- every use of the loop's results outside the if takes the if's results.
All the new ops are located at the loop. (Triton's utility also takes a callback over the ops of the body and
of the peeled copy, for its pipeliner; nothing in ttc needs it yet.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, i1, i64
from xdsl.ir import Block, Operation, Region

from ttc.frontend.builder import op_class
from ttc.ir.format import build_op
from ttc.ir.inserter import Inserter
from ttc.ir.std import CMPI
from ttc.opt.passmanager import Pass


def peel_loop_epilogue(loop: scf.ForOp) -> scf.IfOp:
    """Peel the last iteration of `loop` into an `scf.if` after it (Triton's peelLoopEpilogue); returns the if."""
    loc = loop.location
    lb, ub, step = loop.lb, loop.ub, loop.step
    t = ub.type
    new_ub = Inserter(loop, loc).add(build_op(op_class("arith.subi"), [ub, step], [t]))
    after: list[Operation] = []  # the ops that go right after the loop, in order

    def add(op: Operation):
        op.location = loc
        after.append(op)
        return op.results[0]

    def _op(name, *operands, type_=t):
        return add(build_op(op_class(name), list(operands), [type_]))

    diff = _op("arith.subi", _op("arith.subi", ub, lb), add(arith.ConstantOp(IntegerAttr(1, t))))
    last_iv = _op("arith.addi", _op("arith.muli", _op("arith.divsi", diff, step), step), lb)
    cond = add(build_op(op_class("arith.cmpi"), [lb, ub], [i1], {"predicate": IntegerAttr(CMPI["slt"], i64)}))
    if_op = scf.IfOp.create(operands=[cond], result_types=[r.type for r in loop.results], regions=[Region(), Region()])
    if_op.location = loc
    after.append(if_op)
    loop.parent.insert_ops_after(after, loop)
    body = loop.body.block
    mapping = {body.args[0]: last_iv, **dict(zip(body.args[1:], loop.results))}
    then = Block()
    for op in body.ops:
        then.add_op(op.clone(mapping))
    if_op.true_region.add_block(then)
    y = scf.YieldOp(*loop.results)
    y.location = loc
    if_op.false_region.add_block(Block([y]))
    for old, new in zip(loop.results, if_op.results):
        for use in list(old.uses):
            if not if_op.is_ancestor(use.operation):
                use.operation.operands = [new if v is old else v for v in use.operation.operands]
    loop.operands = [lb, new_ub, step, *loop.iter_args]
    return if_op


@dataclass(frozen=True)
class TestLoopPeeling(Pass):
    """Peel the last iteration of every loop marked `__test_peel_epilogue`."""

    name = "triton-test-loop-peeling"
    display = "TestLoopPeelingPass"
    summary = "test the loop peeling pass"

    def apply(self, ctx, module) -> None:
        loops = [op for op in module.walk(region_first=True)
                 if isinstance(op, scf.ForOp) and "__test_peel_epilogue" in op.attributes]
        for loop in loops:
            peel_loop_epilogue(loop)
