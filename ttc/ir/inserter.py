"""Building ops in place: an `Inserter` puts new ops right before an anchor op, at a given location. The passes
that rewrite loops and pointers (loop unrolling, tensor-pointer rewriting, pipelining) build their IR with it."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue

from ttc.fold import int_width, to_signed, wrap


class Inserter:
    """Creates ops right before `anchor`, located at `loc` (or at the location `add` is given)."""

    def __init__(self, anchor: Operation, loc: Attribute):
        self.anchor, self.loc = anchor, loc

    def add(self, op: Operation, loc: Attribute | None = None) -> SSAValue | None:
        """Insert `op`; its first result, if it has one."""
        op.location = loc or self.loc
        self.anchor.parent.insert_op_before(op, self.anchor)
        return op.results[0] if op.results else None

    def constant(self, value: int, type_: Attribute) -> SSAValue:
        """An `arith.constant` of integer type `type_` (the value wrapped to its width)."""
        w = int_width(type_)
        return self.add(arith.ConstantOp(IntegerAttr(to_signed(wrap(value, w), w), type_), type_))

    def advance(self, base: SSAValue, step: SSAValue, k: int) -> SSAValue:
        """`base + step * k`: a loop's induction variable `k` steps on."""
        return self.add(arith.AddiOp(base, self.add(arith.MuliOp(step, self.constant(k, step.type)))))
