"""Building ops in place: an `Inserter` puts new ops right before an anchor op, at a given location. The passes
that rewrite loops and pointers (loop unrolling, tensor-pointer rewriting, pipelining) build their IR with it.
`with_iter_args` and `with_if_results` rebuild an `scf.for` / `scf.if` with more loop-carried values / results;
`set_operand_group` sets one named operand (group) of an op, keeping its operand segment sizes in step."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import VarOperandDef

from ttc.ir.fold import int_width, to_signed, wrap


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


def with_iter_args(loop: scf.ForOp, inits: list[SSAValue], yields: list[SSAValue]) -> scf.ForOp:
    """`loop` with `inits` appended to its iteration arguments (new block arguments, which nothing reads yet) and
    `yields` to what its body yields; the uses of its results take the new loop's. `loop` is erased."""
    new = scf.ForOp.create(operands=[loop.lb, loop.ub, loop.step, *loop.iter_args, *inits],
                           result_types=[r.type for r in loop.results] + [v.type for v in inits], regions=[Region()],
                           attributes=dict(loop.attributes), properties=dict(loop.properties))
    new.location = loop.location
    loop.parent.insert_op_before(new, loop)
    loop.body.move_blocks(new.body)
    body = new.body.block
    for v in inits:
        body.insert_arg(v.type, len(body.args))
    body.last_op.operands = [*body.last_op.operands, *yields]
    for old, res in zip(loop.results, new.results):
        old.replace_all_uses_with(res)
    loop.detach()
    loop.erase()
    return new


def with_if_results(if_op: scf.IfOp, then_values: list[SSAValue], else_values: list[SSAValue]) -> scf.IfOp:
    """`if_op` with more results, `then_values` from its then branch and `else_values` from its else branch (made,
    yielding them, where there was none); the uses of its results take the new op's. `if_op` is erased."""
    new = scf.IfOp.create(operands=[if_op.cond], result_types=[r.type for r in if_op.results] +
                          [v.type for v in then_values], regions=[Region(), Region()],
                          attributes=dict(if_op.attributes), properties=dict(if_op.properties))
    new.location = if_op.location
    if_op.parent.insert_op_before(new, if_op)
    if_op.true_region.move_blocks(new.true_region)
    if if_op.false_region.blocks:
        if_op.false_region.move_blocks(new.false_region)
    else:
        y = scf.YieldOp()
        y.location = if_op.location
        new.false_region.add_block(Block([y]))
    for region, values in ((new.true_region, then_values), (new.false_region, else_values)):
        y = region.blocks.first.last_op
        y.operands = [*y.operands, *values]
    for old, res in zip(if_op.results, new.results):
        old.replace_all_uses_with(res)
    if_op.detach()
    if_op.erase()
    return new


def set_operand_group(op: Operation, name: str, values: list[SSAValue]) -> None:
    """Replace the operands of `op`'s operand group `name` (one of its definition's operands: single, optional
    or variadic) by `values`, keeping `operandSegmentSizes` in step (a present optional operand is set, an absent
    one added, `[]` removes it)."""
    defn = type(op).get_irdl_definition()
    names = [n for n, _ in defn.operands]
    sizes = op.properties.get("operandSegmentSizes")
    if sizes is not None:
        counts = list(sizes.get_values())
    else:  # at most one optional or variadic group: it has what the single operands leave
        counts = [1] * len(names)
        var = [i for i, (_, d) in enumerate(defn.operands) if isinstance(d, VarOperandDef)]
        if var:
            counts[var[0]] = len(op.operands) - (len(names) - 1)
    groups, pos = [], 0
    for c in counts:
        groups.append(list(op.operands[pos:pos + c]))
        pos += c
    groups[names.index(name)] = list(values)
    op.operands = [v for g in groups for v in g]
    if sizes is not None:
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(g) for g in groups])
