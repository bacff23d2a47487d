"""dce: delete dead code, as MLIR's region simplification does (`eraseUnreachableBlocks` + `runRegionDCE`).

Three things are dead:
- blocks that control flow cannot reach from their region's entry block (the `^bb1:  // no predecessors`
  blocks Triton's frontend leaves after a `tt.return`), with everything in them;
- ops whose results are unused and that have no effect: no memory effects, or only reads (an unused
  `tt.load` goes, as MLIR drops ops with only read effects). Region ops (`scf.for`, `scf.if`, `tt.reduce`)
  carry the effects of the ops in their bodies, so a loop with an unused result and a pure body goes whole.
  Terminators, symbols (`tt.func`) and ops of unknown effect (`tt.call`) always stay; so do writes
  (`tt.store`, `tt.atomic_rmw`, `tt.print`, `tt.assert`) and allocations;
- arguments of non-entry blocks that nothing live uses, together with the `cf.br` / `cf.cond_br` operands
  that feed them (a value that only travels around a CFG loop is dead).

This is `-canonicalize`'s region simplification (`ttc.greedy_rewrite`: `erase_unreachable_blocks` and
`region_dce`), with two differences: ops nested in a dead op are dead too (`strict`: what a dead loop's body
yields keeps nothing alive), and what is removable is decided by `removable_if_unused` below. Liveness is
computed to a fixed point before anything is erased, so chains and cycles of dead ops go in one run. Effects come from the ops' xDSL traits, refined where Triton computes them from properties: a
volatile `tt.load` also writes, and `tt.extern_elementwise` / `tt.elementwise_inline_asm` have no effect
when `pure` and read and write otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)

from ttc.greedy_rewrite import erase_unreachable_blocks, region_dce
from ttc.ir import tt
from ttc.passmanager import Pass

_READ = EffectInstance(MemoryEffectKind.READ)
_WRITE = EffectInstance(MemoryEffectKind.WRITE)


def memory_effects(op: Operation) -> set[EffectInstance] | None:
    """The effects of `op` (with those of the ops nested in it when it has recursive effects);
    None when they are unknown."""
    if isinstance(op, tt.LoadOp):
        return {_READ, _WRITE} if op.isVolatile.value.data else {_READ}
    if isinstance(op, (tt.ExternElementwiseOp, tt.ElementwiseInlineAsmOp)):
        return set() if op.pure.value.data else {_READ, _WRITE}
    traits = op.get_traits_of_type(MemoryEffect)
    if not traits:
        return None
    effects: set[EffectInstance] = set()
    for trait in traits:
        if isinstance(trait, RecursiveMemoryEffect):
            nested: Iterable[set[EffectInstance] | None] = (
                memory_effects(child) for region in op.regions for block in region.blocks for child in block.ops
            )
        else:
            nested = (trait.get_effects(op),)
        for found in nested:
            if found is None:
                return None
            effects |= found
    return effects


def removable_if_unused(op: Operation) -> bool:
    """True when `op` would be dead if none of its results were used (MLIR's `wouldOpBeTriviallyDead`)."""
    if op.has_trait(IsTerminator) or op.has_trait(SymbolOpInterface):
        return False
    effects = memory_effects(op)
    return effects is not None and all(e.kind == MemoryEffectKind.READ for e in effects)


def eliminate_dead_code(root: Operation) -> bool:
    """Run dead code elimination over the regions of `root`; True if anything was erased."""
    changed = False
    for region in root.regions:
        changed |= erase_unreachable_blocks(region)
        changed |= region_dce(region, removable=removable_if_unused, strict=True)
    return changed


@dataclass(frozen=True)
class DeadCodeElimination(Pass):
    """Delete unreachable blocks and ops (and block arguments) that nothing observable uses."""

    name = "dce"
    display = "DeadCodeElimination"
    summary = "Delete unreachable blocks, unused block arguments and unused ops without side effects"

    def apply(self, ctx, op) -> None:
        eliminate_dead_code(op)
