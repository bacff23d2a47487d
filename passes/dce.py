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

This is `-canonicalize`'s region simplification (`ttc.opt.greedy_rewrite`: `erase_unreachable_blocks` and
`region_dce`), with `ttc.opt.greedy_rewrite.would_be_trivially_dead` deciding what is removable. It differs in
two ways:
- ops nested in a dead op are dead too (`strict`: what a dead loop's body yields keeps nothing alive);
- effects are those of the ops' xDSL traits, refined only for `tt.load` (a volatile load also writes) and
  `tt.extern_elementwise` / `tt.elementwise_inline_asm` (no effect when `pure`, read and write otherwise):
  `arith_pure` and `triton_local_alloc` are off, so an `arith` op without the trait (`arith.remui`) and
  `ttg.local_alloc` stay.
Liveness is computed to a fixed point before anything is erased, so chains and cycles of dead ops go in one
run.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from ttc.opt.greedy_rewrite import erase_unreachable_blocks, region_dce, would_be_trivially_dead
from ttc.opt.passmanager import Pass


def removable_if_unused(op: Operation) -> bool:
    """True when `op` would be dead if none of its results were used (see the module docstring)."""
    return would_be_trivially_dead(op, arith_pure=False, triton_local_alloc=False)


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
