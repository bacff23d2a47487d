"""tritongpu-reorder-instructions: move ops to shorten live ranges (Triton's TritonGPUReorderInstructions).

- a `ttg.convert_layout` moves after any `ttg.local_dealloc` between it and its first use (in its block), so the
  conversion's scratch buffer does not overlap the freed one;
- a `ttg.local_load` or a conversion to a `#ttg.dot_op` layout with a single user in another loop moves just
  before that user (it would otherwise keep a large operand alive across the loop);
- a `ttg.local_alloc` of a value moves right after the value's definition (not one of a constant or a splat),
  and a transposition (`tt.trans`, `ttg.memdesc_trans`) right after its operand's;
- the `ttg.local_load` of a dot's b operand moves after the one of its a operand, unless an op between them
  writes memory (`ttng.arrive_barrier`, a store).
Ops never move above their operands.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from ttc.ir.layouts import DotOperandEncoding
from ttc.ir.types import encoding
from ttc.passes.remove_layout_conversions import _ancestor_in_block, _before
from ttc.opt.passmanager import Pass


def _move_after(op: Operation, anchor: Operation) -> None:
    op.detach()
    anchor.parent.insert_op_after(op, anchor)


def _move_before(op: Operation, anchor: Operation) -> None:
    op.detach()
    anchor.parent.insert_op_before(op, anchor)


def _enclosing_for(op: Operation) -> Operation | None:
    p = op.parent_op()
    while p is not None and p.name != "scf.for":
        p = p.parent_op()
    return p


def _raises_register_pressure(op: Operation) -> bool:
    if op.name == "ttg.local_load":
        return True
    return op.name == "ttg.convert_layout" and isinstance(encoding(op.results[0].type), DotOperandEncoding)


def _def_op(v) -> Operation | None:
    return v.owner if isinstance(v.owner, Operation) else None


def reorder(module: Operation) -> None:
    ops = list(module.walk())
    # conversions sink below deallocations that precede their first use
    for op in [o for o in ops if o.name == "ttg.convert_layout"]:
        # the ops of its block that use (or hold a use of) its results: one scan up to the first
        users = {_ancestor_in_block(u.operation, op.parent) for r in op.results for u in r.uses}
        cur, last_dealloc = op.next_op, None
        while cur is not None and cur not in users:
            if cur.name == "ttg.local_dealloc":
                last_dealloc = cur
            cur = cur.next_op
        if last_dealloc is not None:
            _move_after(op, last_dealloc)
    # ops that make big operands live sink into the loop of their single user
    moves = []
    for op in module.walk():
        if not _raises_register_pressure(op):
            continue
        users = [u.operation for r in op.results for u in r.uses]
        if len(users) != 1:
            continue
        if _enclosing_for(users[0]) is _enclosing_for(op):
            continue
        moves.append((op, users[0]))
    for op, user in moves:
        _move_before(op, user)
    # allocations of a value right after the value; transpositions right after their operand
    for name in ("ttg.local_alloc", "tt.trans", "ttg.memdesc_trans"):  # Triton: every TransposeOpInterface
        for op in [o for o in module.walk() if o.name == name]:
            if not op.operands:
                continue
            d = _def_op(op.operands[0])
            # an allocation of a scalar (constant, splat) stays: moving it up only holds shared memory longer
            if d is not None and not (name == "ttg.local_alloc" and d.name in ("arith.constant", "tt.splat")):
                _move_after(op, d)
    # the b operand's local_load after the a operand's
    for op in [o for o in module.walk() if o.name == "ttg.local_load"]:
        enc = encoding(op.results[0].type)
        if not isinstance(enc, DotOperandEncoding) or enc["opIdx"] != 1:
            continue
        uses = list(op.results[0].uses)
        if len(uses) != 1 or uses[0].operation.name != "tt.dot":
            continue
        a = _def_op(uses[0].operation.operands[0])
        if a is None or a.name != "ttg.local_load":
            continue
        if a.parent is op.parent and _before(op, a) and not _writes_between(op, a):
            _move_after(op, a)


def _writes_between(start: Operation, end: Operation) -> bool:
    """Whether an op after `start`, up to `end` in its block, writes (Triton's crossWriteSideEffectingOp: an
    effect other than read, allocate or free; ops of unknown effects do not count, as in Triton)."""
    from xdsl.traits import MemoryEffectKind, get_effects

    op = start.next_op
    while op is not None and op is not end:
        effects = get_effects(op)
        if effects and any(e.kind not in (MemoryEffectKind.READ, MemoryEffectKind.ALLOC, MemoryEffectKind.FREE)
                           for e in effects):
            return True
        op = op.next_op
    return False


@dataclass(frozen=True)
class ReorderInstructions(Pass):
    """Reorder instructions to reduce register pressure and shared-memory overlap."""

    name = "tritongpu-reorder-instructions"
    display = "TritonGPUReorderInstructions"
    summary = "Move conversions, shared-memory loads/allocs and transposes next to their uses/definitions"

    def apply(self, ctx, module) -> None:
        reorder(module)
