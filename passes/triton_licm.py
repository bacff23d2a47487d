"""triton-licm: Triton's loop-invariant code motion, MLIR's LICM (passes/licm.py) plus hoisting of `tt.load`.

Everything `loop-invariant-code-motion` moves moves here too. In addition a non-volatile `tt.load` whose operands
are loop-invariant leaves the loop when nothing in the loop writes memory (every op in it only reads or has no
effects; a `tt.print`, `tt.assert` or `tt.store` anywhere in the loop keeps every load in). Because the loop may
run zero times, the hoisted load of an `scf.for` is guarded by the trip-count check `lb < ub` (signed), made
before the loop and, for a tensor of pointers, splat to the pointers' shape and ANDed with the load's own mask
(Triton's getPredMask). Loads in an `scf.while` stay where they are (Triton does not hoist them yet), though the
loop's invariant pure ops still leave it. Loops are visited innermost first, as in `loop-invariant-code-motion`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, TensorType, i1, i64
from xdsl.ir import Operation
from xdsl.traits import MemoryEffect, MemoryEffectKind, RecursiveMemoryEffect

from ttc.frontend.builder import op_class
from ttc.ir.format import build_op
from ttc.ir.inserter import Inserter, set_operand_group
from ttc.ir.std import CMPI
from ttc.ir.types import i1_like
from ttc.passes.licm import hoist_from, loop_regions, move_before, should_move
from ttc.opt.passmanager import Pass


def only_reads(op: Operation) -> bool:
    """True when every effect of `op` and of the ops nested in it is a read (MLIR's getEffectsRecursively); an op
    without effect traits may do anything, but arith and math ops have none (xDSL leaves arith.remui bare)."""
    if op.name.startswith(("arith.", "math.")):
        return True
    traits = op.get_traits_of_type(MemoryEffect)
    for t in traits:
        if isinstance(t, RecursiveMemoryEffect):
            if not all(only_reads(o) for r in op.regions for b in r.blocks for o in b.ops):
                return False
        elif (effects := t.get_effects(op)) is None or any(e.kind != MemoryEffectKind.READ for e in effects):
            return False
    return bool(traits)


def guard_load(load: Operation, loop: scf.ForOp) -> None:
    """Give `load` (already before `loop`) the mask `lb < ub`, splat to its shape and ANDed with its own mask."""
    em = Inserter(load, loop.location)
    mask = em.add(build_op(op_class("arith.cmpi"), [loop.lb, loop.ub], [i1],
                           {"predicate": IntegerAttr(CMPI["slt"], i64)}))
    if isinstance(load.ptr.type, TensorType):
        mask = em.add(build_op(op_class("tt.splat"), [mask], [i1_like(load.ptr.type)]))
    if load.mask is not None:
        mask = em.add(arith.AndIOp(mask, load.mask))
    set_operand_group(load, "mask", [mask])


@dataclass(frozen=True)
class TritonLICM(Pass):
    """MLIR's LICM plus hoisting of loads out of loops that only read memory, under a trip-count guard."""

    name = "triton-licm"
    display = "TritonLoopInvariantCodeMotion"
    summary = "MLIR's LICM plus hoist load ops out of loops with masks."

    def apply(self, ctx, op) -> None:
        read_only: dict[Operation, bool] = {}

        def should(o: Operation, loop: Operation) -> bool:
            if o.name != "tt.load":
                return should_move(o)
            if loop not in read_only:
                read_only[loop] = only_reads(loop)
            return only_reads(o) and read_only[loop]

        def move(o: Operation, loop: Operation) -> bool:
            if o.name != "tt.load":
                return move_before(o, loop)
            if not isinstance(loop, scf.ForOp):
                return False
            move_before(o, loop)
            guard_load(o, loop)
            return True

        for loop in [o for o in op.walk(region_first=True) if loop_regions(o)]:
            hoist_from(loop, should, move)
