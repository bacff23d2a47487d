"""triton-loop-unroll: Triton's TritonLoopUnroll pass (lib/Dialect/Triton/Transforms/LoopUnroll.cpp), with MLIR's
`loopUnrollByFactor` (mlir/lib/Dialect/SCF/Utils/Utils.cpp) as Triton 3.6's LLVM has it.

Every `scf.for` whose `tt.loop_unroll_factor` attribute is an integer above 1 is unrolled by that factor, inner
loops before outer ones; the attribute is removed (a factor of 1 or less leaves the loop and its attribute
alone). Unrolling a loop `for i = lb to ub step s` by `f`:

- A loop whose body is only its `scf.yield` is left as it is.
- Constant bounds and step (trip count `n`): the main loop runs to `lb + (n - n % f) * s` (a new constant,
  created before the loop, when that is below `ub`; otherwise `ub` is kept) with step `s * f` (a new constant
  unless equal to `s`). Other bounds: the same values are computed before the loop with `arith` ops:
  `n = divui((ub - lb) + (s - 1), s)`, `ub' = lb + (n - remsi(n, f)) * s`, `s' = s * f`.
- When the main loop stops short of `ub`, an epilogue loop, a copy of the original, runs from there to `ub`
  (right after the main loop, starting from its results, and taking over the uses of its results); it gets
  `tt.num_stages = 1` so that it is not pipelined, unless it runs exactly once, in which case its body
  replaces it.
- The main loop's body is repeated `f` times before its `scf.yield`, each copy taking the previous copy's
  yielded values as its iteration arguments and, if the induction variable is used, `i + s * k` (an
  `arith.constant k`, `arith.muli`, `arith.addi` before the copy) as the induction variable.
- A main loop that now runs exactly once is replaced by its body (induction variable = `lb`), one that runs
  zero times by its initial values.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i32
from xdsl.ir import Operation, SSAValue

from ttc.ir.fold import int_width, to_signed, wrap
from ttc.ir.inserter import Inserter
from ttc.opt.passmanager import Pass

UNROLL_FACTOR = "tt.loop_unroll_factor"
NUM_STAGES = "tt.num_stages"


def _constant_int(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return to_signed(wrap(op.value.value.data, int_width(op.value.type)), int_width(op.value.type))
    return None


def static_trip_count(loop: scf.ForOp) -> int | None:
    """MLIR's constantTripCount for a loop with constant bounds and step (signed), else None."""
    lb, ub, step = _constant_int(loop.lb), _constant_int(loop.ub), _constant_int(loop.step)
    if lb is None or ub is None or step is None:
        return None
    if step <= 0 or ub <= lb:
        return 0
    return -((lb - ub) // step)


def promote_if_single_iteration(loop: scf.ForOp) -> bool:
    """MLIR's ForOp::promoteIfSingleIteration: a loop running once is replaced by its body, one running zero
    times by its initial values."""
    trip = static_trip_count(loop)
    if trip is None or trip > 1:
        return False
    if trip == 0:
        for r, init in zip(loop.results, loop.iter_args):
            r.replace_all_uses_with(init)
        loop.detach()
        loop.erase()
        return True
    body = loop.body.block
    yielded = list(body.last_op.operands)
    for arg, value in zip(body.args, [loop.lb, *loop.iter_args]):
        arg.replace_all_uses_with(value)
    terminator = body.last_op
    terminator.detach()
    terminator.erase()
    for op in list(body.ops):
        op.detach()
        loop.parent.insert_op_before(op, loop)
    for r, v in zip(loop.results, yielded):
        r.replace_all_uses_with(v)
    loop.detach()
    loop.erase()
    return True


def _unroll_body(loop: scf.ForOp, factor: int, step: SSAValue) -> None:
    """MLIR's generateUnrolledLoop: `factor - 1` more copies of the body before its `scf.yield`."""
    body = loop.body.block
    iv, iter_args = body.args[0], list(body.args[1:])
    terminator = body.last_op
    originals = [op for op in body.ops if op is not terminator]
    yielded = list(terminator.operands)
    last = list(yielded)
    build = Inserter(terminator, loop.location)
    for k in range(1, factor):
        mapping: dict[SSAValue, SSAValue] = dict(zip(iter_args, last))
        if iv.first_use is not None:
            mapping[iv] = build.advance(iv, step, k)
        for op in originals:
            clone = op.clone(mapping)
            body.insert_op_before(clone, terminator)
        last = [mapping.get(v, v) for v in yielded]
    terminator.operands = last


def unroll_by_factor(loop: scf.ForOp, factor: int) -> scf.ForOp | None:
    """MLIR's loopUnrollByFactor; returns the epilogue loop when one is left."""
    body = loop.body.block
    if body.first_op is body.last_op:
        return None
    build = Inserter(loop, loop.location)
    lb, ub, step = loop.lb, loop.ub, loop.step
    trip = static_trip_count(loop)
    if trip is not None:
        lb_c, ub_c, step_c = _constant_int(lb), _constant_int(ub), _constant_int(step)
        even = trip - trip % factor
        ub_unrolled_c = lb_c + even * step_c
        step_unrolled_c = step_c * factor
        epilogue_needed = ub_unrolled_c < ub_c
        ub_unrolled = build.constant(ub_unrolled_c, ub.type) if epilogue_needed else ub
        step_unrolled = step if step_c == step_unrolled_c else build.constant(step_unrolled_c, step.type)
    else:
        epilogue_needed = True
        diff = build.add(arith.SubiOp(ub, lb))
        one = build.constant(1, diff.type)
        trip_v = build.add(arith.DivUIOp(build.add(arith.AddiOp(diff, build.add(arith.SubiOp(step, one)))), step))
        factor_c = build.constant(factor, trip_v.type)
        rem = build.add(arith.RemSIOp(trip_v, factor_c))
        even_v = build.add(arith.SubiOp(trip_v, rem))
        ub_unrolled = build.add(arith.AddiOp(lb, build.add(arith.MuliOp(even_v, step))))
        step_unrolled = build.add(arith.MuliOp(step, factor_c))

    epilogue = None
    if epilogue_needed:
        epilogue = loop.clone()
        loop.parent.insert_op_after(epilogue, loop)
        for old, new in zip(loop.results, epilogue.results):
            old.replace_all_uses_with(new)
        epilogue.operands = [ub_unrolled, epilogue.ub, epilogue.step, *loop.results]
        if promote_if_single_iteration(epilogue):
            epilogue = None

    loop.operands = [lb, ub_unrolled, step_unrolled, *loop.iter_args]
    _unroll_body(loop, factor, step)
    promote_if_single_iteration(loop)
    return epilogue


def _post_order_loops(root: Operation) -> list[scf.ForOp]:
    """The `scf.for` ops nested in `root`, each after the loops nested in it (MLIR's default walk order)."""
    out: list[scf.ForOp] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for nested in block.ops:
                    visit(nested)
        if isinstance(op, scf.ForOp):
            out.append(op)

    visit(root)
    return out


def unroll_factor(loop: scf.ForOp) -> int:
    attr = loop.attributes.get(UNROLL_FACTOR)
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, (IntegerType, IndexType)):
        return to_signed(wrap(attr.value.data, int_width(attr.type)), int_width(attr.type))
    return 1


@dataclass(frozen=True)
class TritonLoopUnroll(Pass):
    """Unroll `scf.for` loops by their `tt.loop_unroll_factor` (Triton's TritonLoopUnroll)."""

    name = "triton-loop-unroll"
    display = "TritonLoopUnroll"
    summary = "Unroll scf.for loops carrying a tt.loop_unroll_factor attribute"

    def apply(self, ctx, op) -> None:
        loops = [loop for loop in _post_order_loops(op) if unroll_factor(loop) > 1]
        for loop in loops:
            factor = unroll_factor(loop)
            del loop.attributes[UNROLL_FACTOR]
            epilogue = unroll_by_factor(loop, factor)
            if epilogue is not None:
                epilogue.attributes[NUM_STAGES] = IntegerAttr(1, i32)
