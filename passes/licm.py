"""loop-invariant-code-motion: hoist loop-invariant ops out of `scf.for` and `scf.while` (MLIR's pass).

An op in a loop body moves to just before the loop when every value it uses (its own and those of the ops
nested in it) is defined outside the loop, it is not a terminator, it has no memory effects, and it is
speculatable (Pure ops; `scf.if` when everything in it is). Speculatability matters because the loop may
run zero times: an `arith.divsi` whose divisor is not a known non-zero constant stays.

Loads stay where they are: `tt.load` reads memory, so it is not effect-free. (Triton's own `triton-licm`,
passes/triton_licm.py, hoists loads under a trip-count guard through the same driver, `hoist_from`, with its
own rules for what moves and how.) Ops that write never move.

Loops are visited innermost first, so what leaves an inner loop can leave the outer one next. Each body
is scanned once in order: a loop body is a single block, so an op comes after the ops it uses and is
looked at after they have moved, and whole invariant chains move in one run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.ir import Operation, Region, SSAValue
from xdsl.traits import IsTerminator, is_side_effect_free, is_speculatable

from ttc.opt.passmanager import Pass


def loop_regions(loop: Operation) -> list[Region]:
    """The regions of `loop` that run once per iteration (MLIR's `getLoopRegions`)."""
    if isinstance(loop, scf.ForOp):
        return [loop.body]
    if isinstance(loop, scf.WhileOp):
        return [loop.before_region, loop.after_region]
    return []


def _defined_outside(value: SSAValue, loop: Operation) -> bool:
    return not loop.is_ancestor(value.owner)


def can_be_hoisted(op: Operation, loop: Operation) -> bool:
    """True when `op` is not a terminator and it, and every op nested in it, only uses values defined
    outside `loop` or inside `op` itself."""
    if op.has_trait(IsTerminator):
        return False
    for child in op.walk():
        for operand in child.operands:
            if op.is_ancestor(operand.owner):
                continue
            if not _defined_outside(operand, loop):
                return False
    return True


def should_move(op: Operation) -> bool:
    """Only ops that are free of memory effects and safe to execute speculatively leave a loop."""
    return is_side_effect_free(op) and is_speculatable(op)


def move_before(op: Operation, loop: Operation) -> bool:
    """Move `op` to just before `loop`; returns True (it moved)."""
    op.detach()
    loop.parent_block().insert_op_before(op, loop)
    return True


def hoist_from(loop: Operation, should: Callable[[Operation, Operation], bool] = lambda op, loop: should_move(op),
               move: Callable[[Operation, Operation], bool] = move_before) -> int:
    """Move the invariant ops of `loop`'s bodies before it; returns how many moved (MLIR's
    `moveLoopInvariantCode`). `should(op, loop)` says whether an op may leave (default: `should_move`), `move(op,
    loop)` moves it (default: `move_before`) and returns whether it did."""
    moved = 0
    if loop.parent_block() is None:
        return 0
    for region in loop_regions(loop):
        for op in [op for body in region.blocks for op in body.ops]:
            if not (should(op, loop) and can_be_hoisted(op, loop)):
                continue
            moved += move(op, loop)
    return moved


def hoist_loop_invariants(root: Operation) -> int:
    """Run loop-invariant code motion on every loop under `root`, inner loops first."""
    loops = [op for op in root.walk(region_first=True) if loop_regions(op)]
    return sum(hoist_from(loop) for loop in loops)


@dataclass(frozen=True)
class LoopInvariantCodeMotion(Pass):
    """Hoist loop-invariant, side-effect free, speculatable ops out of loops."""

    name = "loop-invariant-code-motion"
    display = "LoopInvariantCodeMotion"
    summary = "Hoist loop invariant instructions outside of the loop"

    def apply(self, ctx, op) -> None:
        hoist_loop_invariants(op)
