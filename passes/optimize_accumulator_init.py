"""tritongpu-optimize-accumulator-init: replace the zeroing of an MMA accumulator by its use-accumulator flag.

For each `ttng.warp_group_dot` (not one needing a partial accumulator: fp8 into f32 with maxNumImpreciseAcc <= K)
and each MMA v5 (`ttng.tc_gen5_mma[_scaled]`) directly in an `scf.for` body, Triton's OptimizeAccumulatorInit.
A wgmma's accumulator is its `c`, its flag `useC`; an MMA v5's accumulator is the value its tensor memory was
allocated with (`ttng.tmem_alloc %acc`, in the MMA's region, with a `ttng.tmem_load` there too), its flag `useD`:
- an accumulator that is a constant zero: the dot gets the flag `false`;
- else the zeroing is looked for in the accumulator's source, an iteration argument (its init being a zero
  constant counts as zeroing in the first iteration) followed through the yield to the value of the previous
  iteration: an `arith.select` on an i1 condition with a zero constant on one side, or an `scf.if` result
  with a zero constant yielded on one side and the other side's value not defined in the if's own blocks.
  A dot that already has a flag other than a constant `true` is left alone (the pass ran before, or the dot
  does not use its accumulator).
  The loop gets a flag iteration argument (init `false` when the init is zero, else `true`). A zeroing before
  the dot in the body: flag = select(cond, false, flag arg) (the arms swapped when the zero is on the false
  side) there, the dot takes it and `true` is yielded. A zeroing after the dot: the dot takes the flag
  argument and the select (with `true` in place of the argument) is yielded. The select is replaced by its
  other value, or the if yields its other value where it yielded zero. With only a zero init, the dot
  takes the flag argument and `true` is yielded.
The `true`/`false` constants are made before the loop for every dot considered. As in Triton the pass ends with
MLIR's greedy driver, which folds (`select %c, true, false` becomes `%c`), hoists and uniques constants, erases
the unused ones and drops the initial value of a `ttng.tmem_alloc` used only by an MMA v5 whose flag is the
constant false (and, after that MMA, by a `ttng.tmem_load`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2FNUZType,
                                   Float8E5M2Type, IntegerAttr, f32, i1)
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttc.ir.fold import constant_attr, is_zero
from ttc.frontend.builder import op_class
from ttc.opt.greedy_rewrite import GreedyDriver, Rewriter, fold_in_place
from ttc.ir.format import build_op
from ttc.ir.inserter import Inserter, set_operand_group, with_iter_args
from ttc.opt.passmanager import Pass

_FP8 = (Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType, Float8E5M2FNUZType)


def needs_partial_accumulator(dot: Operation) -> bool:
    """Triton's WarpGroupDotOp::needsPartialAccumulator: fp8 into f32 with maxNumImpreciseAcc <= K."""
    a = dot.a.type  # a tensor or a memdesc
    return (isinstance(a.element_type, _FP8) and dot.d.type.element_type == f32
            and dot.maxNumImpreciseAcc.value.data <= a.get_shape()[1])


_MMAV5 = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")


def _flag_name(dot: Operation) -> str:
    return "useC" if dot.name == "ttng.warp_group_dot" else "useD"


def accumulator(dot: Operation) -> SSAValue | None:
    """Triton's getAccumulatorUseAndDef: the value the dot accumulates onto, or None."""
    if dot.name == "ttng.warp_group_dot":
        return dot.c
    alloc = dot.d.owner
    if not (isinstance(alloc, Operation) and alloc.name == "ttng.tmem_alloc"
            and alloc.parent_region() is dot.parent_region()):
        return None
    load = next((u.operation for u in alloc.results[0].uses if u.operation.name == "ttng.tmem_load"), None)
    if load is None or load.parent_region() is not dot.parent_region():
        return None
    return alloc.src


def _yielded(region, index: int) -> SSAValue:
    return region.blocks.first.last_op.operands[index]


def find_zero_init(acc: SSAValue, loop: scf.ForOp) -> tuple[Operation | None, int, bool]:
    """(the select or if that zeroes the accumulator or None, the if's result index, whether the loop's init
    is zero); Triton's findZeroInitOp."""
    v, init_zero = acc, False
    if isinstance(v, BlockArgument):
        i = v.index - 1
        init_zero = is_zero(loop.iter_args[i])
        v = loop.body.block.last_op.operands[i]
    op = v.owner
    if isinstance(op, Operation) and op.name == "arith.select":
        if op.cond.type == i1 and (is_zero(op.lhs) or is_zero(op.rhs)):
            return op, 0, init_zero
    if isinstance(op, scf.IfOp):
        index = v.index
        then_v, else_v = _yielded(op.true_region, index), _yielded(op.false_region, index)
        if is_zero(then_v) or is_zero(else_v):
            if any(_block_of(x).parent_op() is op for x in (then_v, else_v)):
                return None, 0, init_zero
            return op, index, init_zero
    return None, 0, init_zero


def _block_of(v: SSAValue):
    return v.block if isinstance(v, BlockArgument) else v.owner.parent_block()


def optimize(dot: Operation) -> None:
    loop = dot.parent_op()
    if not isinstance(loop, scf.ForOp):
        return
    em = Inserter(loop, dot.location)
    v_true = em.add(arith.ConstantOp(IntegerAttr(1, i1)))
    v_false = em.add(arith.ConstantOp(IntegerAttr(0, i1)))
    acc = accumulator(dot)
    if acc is None:
        return
    flag_name = _flag_name(dot)
    if is_zero(acc):
        set_operand_group(dot, flag_name, [v_false])
        return
    zeroing, index, init_zero = find_zero_init(acc, loop)
    if zeroing is None and not init_zero:
        return
    old_flag = getattr(dot, flag_name)
    if old_flag is not None:
        attr = constant_attr(old_flag)
        if not (isinstance(attr, IntegerAttr) and attr.type == i1 and attr.value.data != 0):
            return
    if zeroing is not None and zeroing.parent is not dot.parent:
        return  # Triton compares their order in one block (a zeroing outside the loop would break it)
    loop = with_iter_args(loop, [v_false if init_zero else v_true], [])
    flag = loop.body.block.args[-1]
    yield_op = loop.body.block.last_op
    if zeroing is None:
        set_operand_group(dot, flag_name, [flag])
        yield_op.operands = [*yield_op.operands, v_true]
        return
    if isinstance(zeroing, scf.IfOp):
        cond = zeroing.cond
        values = (_yielded(zeroing.true_region, index), _yielded(zeroing.false_region, index))
    else:
        cond, values = zeroing.cond, (zeroing.lhs, zeroing.rhs)
    then_zero = is_zero(values[0])
    old = values[1] if then_zero else values[0]
    before = zeroing.is_before_in_block(dot)
    prev = flag if before else v_true
    arms = [v_false, prev] if then_zero else [prev, v_false]
    sel = Inserter(zeroing, dot.location).add(build_op(op_class("arith.select"), [cond, *arms], [i1]))
    set_operand_group(dot, flag_name, [sel if before else flag])
    yield_op.operands = [*yield_op.operands, v_true if before else sel]
    if isinstance(zeroing, scf.IfOp):
        y = (zeroing.true_region if then_zero else zeroing.false_region).blocks.first.last_op
        y.operands = [old if i == index else o for i, o in enumerate(y.operands)]
    else:
        zeroing.results[0].replace_all_uses_with(old)
        zeroing.detach()
        zeroing.erase()


def drop_unused_init(alloc: Operation, rw: Rewriter) -> bool:
    """Triton's TMEMAllocWithUnusedInit: the initial value of a tensor-memory allocation that an MMA v5 with the
    constant flag false overwrites before any `ttng.tmem_load` reads it (no other users) is not needed."""
    if alloc.src is None:
        return False
    users = [u.operation for u in alloc.results[0].uses]
    if len(users) > 2:
        return False
    mma = next((u for u in users if u.name in _MMAV5), None)
    load = next((u for u in users if u.name == "ttng.tmem_load"), None)
    if mma is None or (load is not None and not (load.parent is mma.parent and mma.is_before_in_block(load))):
        return False
    attr = constant_attr(mma.useD)
    if not (isinstance(attr, IntegerAttr) and attr.value.data == 0):
        return False
    set_operand_group(alloc, "src", [])
    rw.modified(alloc)
    return True


@dataclass(frozen=True)
class OptimizeAccumulatorInit(Pass):
    """Replace the zero-initialization of wgmma and MMA v5 accumulators in loops by the use-accumulator flag."""

    name = "tritongpu-optimize-accumulator-init"
    display = "TritonGPUOptimizeAccumulatorInit"
    summary = ("Replace accumulator zero-initialization with the flag indicating first use of the accumulator")

    def apply(self, ctx, module) -> None:
        dots = [op for op in module.walk() if op.name in _MMAV5
                or op.name == "ttng.warp_group_dot" and not needs_partial_accumulator(op)]
        for dot in dots:
            optimize(dot)
        for region in module.regions:
            GreedyDriver({"ttng.tmem_alloc": [drop_unused_init]}, fold_in_place=fold_in_place).run(region)
