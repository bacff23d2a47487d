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

Liveness is computed to a fixed point before anything is erased, so chains and cycles of dead ops go in
one run. Effects come from the ops' xDSL traits, refined where Triton computes them from properties: a
volatile `tt.load` also writes, and `tt.extern_elementwise` / `tt.elementwise_inline_asm` have no effect
when `pure` and read and write otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.dialects import cf
from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue, Use
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)

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


# ----------------------------------------------------------------------------- unreachable blocks


def reachable_blocks(region: Region) -> list[Block]:
    """The blocks of `region` that control flow reaches from its entry block, in region order."""
    entry = region.blocks.first
    if entry is None:
        return []
    seen = {entry}
    stack = [entry]
    while stack:
        term = stack.pop().last_op
        for succ in term.successors if term is not None else ():
            if succ not in seen:
                seen.add(succ)
                stack.append(succ)
    return [b for b in region.blocks if b in seen]


def erase_unreachable_blocks(region: Region) -> bool:
    """Erase the unreachable blocks of `region` and of every region nested in what remains."""
    changed = False
    live = reachable_blocks(region)
    reached = set(live)
    dead = [b for b in region.blocks if b not in reached]
    for block in dead:
        region.erase_block(block, safe_erase=False)
        changed = True
    for block in live:
        for op in block.ops:
            for nested in op.regions:
                changed |= erase_unreachable_blocks(nested)
    return changed


# ----------------------------------------------------------------------------- liveness


def _forwarded_argument(use: Use) -> BlockArgument | None:
    """The successor block argument that a branch operand feeds, or None if `use` is not one."""
    op, index = use.operation, use.index
    if isinstance(op, cf.BranchOp):
        return op.successor.args[index]
    if isinstance(op, cf.ConditionalBranchOp):
        n_then = len(op.then_arguments)
        if 1 <= index <= n_then:
            return op.then_block.args[index - 1]
        if index > n_then:
            return op.else_block.args[index - 1 - n_then]
    return None


class _Liveness:
    """Which ops and block arguments are live, propagated to a fixed point over one region tree.

    An op nested in a dead op is dead too (it goes with its parent), so the terminator of a dead loop's
    body does not keep the values it yields, or what they are computed from, alive."""

    def __init__(self, region: Region):
        self.live: set[Operation | BlockArgument] = set()
        self.changed = True
        while self.changed:
            self.changed = False
            self._region(region, True)

    def _mark(self, item: Operation | BlockArgument) -> None:
        if item not in self.live:
            self.live.add(item)
            self.changed = True

    def _used(self, value: SSAValue) -> bool:
        for use in value.uses:
            if use.operation not in self.live:
                continue
            # a branch operand is a use only when the block argument it feeds is live, or cannot be erased
            arg = _forwarded_argument(use)
            if arg is None or arg in self.live or not _arguments_erasable(arg.block):
                return True
        return False

    def _region(self, region: Region, parent_live: bool) -> None:
        for block in reversed(region.blocks):
            for op in reversed(block.ops):
                if (
                    parent_live
                    and op not in self.live
                    and (not removable_if_unused(op) or any(self._used(r) for r in op.results))
                ):
                    self._mark(op)
                for nested in op.regions:
                    self._region(nested, op in self.live)
            for arg in block.args:
                if arg not in self.live and self._used(arg):
                    self._mark(arg)


def _drop_branch_operands(branch: Operation, successor_index: int, keep: list[bool]) -> None:
    """Remove the operands that `branch` passes to its successor `successor_index` where `keep` is False."""
    if isinstance(branch, cf.BranchOp):
        branch.operands = [v for v, k in zip(branch.arguments, keep) if k]
        return
    assert isinstance(branch, cf.ConditionalBranchOp)
    then_args, else_args = list(branch.then_arguments), list(branch.else_arguments)
    if successor_index == 0:
        then_args = [v for v, k in zip(then_args, keep) if k]
    else:
        else_args = [v for v, k in zip(else_args, keep) if k]
    branch.operands = [branch.cond, *then_args, *else_args]
    branch.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, len(then_args), len(else_args)])


def _arguments_erasable(block: Block) -> bool:
    """True when `block` is not an entry block and every predecessor is a cf branch whose operands can be
    dropped."""
    if block.parent is None or block is block.parent.blocks.first:
        return False
    return all(isinstance(use.operation, (cf.BranchOp, cf.ConditionalBranchOp)) for use in block.uses)


def _erase_dead_arguments(block: Block, live: set) -> bool:
    """Erase `block`'s dead arguments, and the branch operands feeding them."""
    keep = [arg in live for arg in block.args]
    if all(keep) or not _arguments_erasable(block):
        return False
    for use in list(block.uses):
        _drop_branch_operands(use.operation, use.index, keep)
    for arg, k in reversed(list(zip(block.args, keep))):
        if not k:
            block.erase_arg(arg, safe_erase=False)
    return True


def _erase_dead(region: Region, live: set) -> bool:
    changed = False
    for block in region.blocks:
        changed |= _erase_dead_arguments(block, live)
    for block in region.blocks:
        for op in reversed(list(block.ops)):
            if op in live:
                for nested in op.regions:
                    changed |= _erase_dead(nested, live)
            else:
                block.erase_op(op, safe_erase=False)
                changed = True
    return changed


def eliminate_dead_code(root: Operation) -> bool:
    """Run dead code elimination over the regions of `root`; True if anything was erased."""
    changed = False
    for region in root.regions:
        changed |= erase_unreachable_blocks(region)
        changed |= _erase_dead(region, _Liveness(region).live)
    return changed


@dataclass(frozen=True)
class DeadCodeElimination(Pass):
    """Delete unreachable blocks and ops (and block arguments) that nothing observable uses."""

    name = "dce"
    display = "DeadCodeElimination"
    summary = "Delete unreachable blocks, unused block arguments and unused ops without side effects"

    def apply(self, ctx, op) -> None:
        eliminate_dead_code(op)
