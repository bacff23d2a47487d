"""tritongpu-combine-tensor-select-and-if: fold an `arith.select` into an `scf.if` on the same condition
(Triton's TritonGPUCombineTensorSelectAndIf).

When a tensor select and an if in the same block use the same condition, the select comes before the if, and every
use of the select's result comes after the if (or is nested in an op after it) or inside the if, the select
becomes a new result of the if: the then branch yields the select's true value, the else branch (created if
missing) its false value. Uses inside a branch take that branch's value directly. The select is no longer
computed as a separate tensor op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from ttc.analysis.order import OpOrder
from ttc.passes.remove_layout_conversions import _ancestor_in_block
from ttc.ir.inserter import with_if_results
from ttc.opt.passmanager import Pass


def _after(op: Operation, user: Operation, order: OpOrder) -> bool:
    """`user` runs after `op` finished: it is (nested in) a later op of op's block."""
    anc = _ancestor_in_block(user, op.parent)
    return anc is not None and anc is not op and order.is_before(op, anc)


def _region_of(op: Operation, if_op: Operation):
    """The region of `if_op` that `op` is nested in, if any."""
    while op is not None:
        region = op.parent.parent if op.parent is not None else None
        if region is None:
            return None
        if region.parent_op() is if_op:
            return region
        op = region.parent_op()
    return None


def combine(select: Operation, if_op: Operation) -> Operation:
    """Make `select` a new last result of `if_op`; returns the new if op."""
    new = with_if_results(if_op, [select.operands[1]], [select.operands[2]])
    for use in list(select.results[0].uses):
        region = _region_of(use.operation, new)
        if region is new.true_region:
            use.operation.operands[use.index] = select.operands[1]
        elif region is new.false_region:
            use.operation.operands[use.index] = select.operands[2]
        else:
            use.operation.operands[use.index] = new.results[-1]
    select.detach()
    select.erase()
    return new


@dataclass(frozen=True)
class CombineTensorSelectAndIf(Pass):
    """Combine tensor selects with scf.if ops on the same condition."""

    name = "tritongpu-combine-tensor-select-and-if"
    display = "TritonGPUCombineTensorSelectAndIf"
    summary = "Fold arith.select into an scf.if with the same condition"

    def apply(self, ctx, module) -> None:
        candidates = []
        for op in module.walk():
            if op.name != "arith.select" or not isinstance(op.results[0].type, TensorType):
                continue  # as Triton 3.6: tensor selects only (scalar ones stay selects)
            cond = op.operands[0]
            for use in list(cond.uses):
                user = use.operation
                if user.name == "scf.if" and user.parent is op.parent:
                    candidates.append((op, user))
        chosen: dict[Operation, Operation] = {}
        order = OpOrder()
        for select, if_op in candidates:
            if select in chosen:
                continue
            if not order.is_before(select, if_op):
                continue
            if all(_after(if_op, u.operation, order) or _region_of(u.operation, if_op) is not None
                   for u in select.results[0].uses):
                chosen[select] = if_op
        replaced: dict[Operation, Operation] = {}
        for select, if_op in chosen.items():
            while if_op in replaced:  # an earlier select already rebuilt this if
                if_op = replaced[if_op]
            replaced[if_op] = combine(select, if_op)
