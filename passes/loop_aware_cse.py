"""triton-loop-aware-cse: common sub-expression elimination that also merges equal loop-carried values (Triton's
LoopAwareCSE).

Two iteration arguments of an `scf.for` are equal when their initial values are the same value and the values
yielded for them are equal expressions in the body, assuming the two arguments equal (so `%a += 32` and
`%b += 32` from the same start are one value): the same op name, result index, types, properties and attributes,
no memory effects and no regions, and equal operands. Each class of equal arguments keeps its first; the others'
uses take it and their yields are short-circuited. CSE runs before (to make equal outside values the same) and
after, then the `scf.for` canonicalization patterns drop the short-circuited arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.traits import is_side_effect_free

from ttc.opt.cse import cse
from ttc.opt.greedy_rewrite import GreedyDriver
from ttc.passes.canonicalize import PATTERNS
from ttc.opt.passmanager import Pass


class _Equal:
    def __init__(self, loop: scf.ForOp):
        self.loop, self.body = loop, loop.body.block
        # pairs of arguments assumed equal while their yields are compared (how the recursion ends); nothing is
        # remembered beyond that, since a result found under an assumption that later fails would be wrong
        self.assumed: list[tuple[int, int]] = []

    def args(self, i: int, j: int) -> bool:
        if i == j:
            return True
        if self.loop.iter_args[i] is not self.loop.iter_args[j]:
            return False
        if (i, j) in self.assumed:
            return True
        self.assumed.append((i, j))
        y = self.body.last_op.operands
        equal = self.values(y[i], y[j])
        self.assumed.pop()
        return equal

    def values(self, a: SSAValue, b: SSAValue) -> bool:
        if a is b:
            return True
        if isinstance(a, BlockArgument) and isinstance(b, BlockArgument):
            return (a.owner is self.body and b.owner is self.body and a.index > 0 and b.index > 0
                    and self.args(a.index - 1, b.index - 1))
        if isinstance(a, BlockArgument) or isinstance(b, BlockArgument):
            return False
        x, y = a.owner, b.owner
        return (isinstance(x, Operation) and isinstance(y, Operation) and x.parent is self.body
                and y.parent is self.body and x.name == y.name and a.index == b.index and not x.regions
                and not y.regions and is_side_effect_free(x) and is_side_effect_free(y)
                and [r.type for r in x.results] == [r.type for r in y.results]
                and x.properties == y.properties and x.attributes == y.attributes
                and len(x.operands) == len(y.operands)
                and all(self.values(p, q) for p, q in zip(x.operands, y.operands)))


def loop_cse(loop: scf.ForOp) -> bool:
    """Merge the equal iteration arguments of `loop`; whether it merged any."""
    n = len(loop.iter_args)
    if n < 2:
        return False
    eq = _Equal(loop)
    leader = list(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if leader[j] == j and eq.args(i, j):
                leader[j] = leader[i]
    if leader == list(range(n)):
        return False
    body = loop.body.block
    args = body.args[1:]
    for j in range(n):
        i = leader[j]
        if i == j:
            continue
        args[j].replace_all_uses_with(args[i])
        operands = list(body.last_op.operands)
        operands[j] = args[j]
        body.last_op.operands = operands
        loop.results[j].replace_all_uses_with(loop.results[i])
    return True


@dataclass(frozen=True)
class LoopAwareCSE(Pass):
    """CSE that also merges loop-carried values computed the same way from the same start."""

    name = "triton-loop-aware-cse"
    display = "TritonLoopAwareCSE"
    summary = "Eliminate common sub-expressions, equal loop iteration arguments included"

    def apply(self, ctx, op) -> None:
        changed = cse(op)
        for loop in [o for o in op.walk() if isinstance(o, scf.ForOp)]:
            changed |= loop_cse(loop)
        # where neither changed the IR, the second cse would run on the IR the first left as it was: cse is
        # deterministic, so it would change nothing either
        if changed:
            cse(op)
        for region in op.regions:
            GreedyDriver({"scf.for": PATTERNS["scf.for"]}).run(region)
