"""MLIR's GreedyPatternRewriteDriver and region simplification, shared by the passes that rewrite to a fixed point
(canonicalize, triton-combine, triton-reorder-broadcast, the TritonGPU passes) and by dce and sccp.

The driver (`GreedyDriver`) rewrites one region. Each iteration:
1. with region simplification, erases the blocks no branch reaches;
2. walks the region, in post-order (bottom-up, MLIR's default) or in pre-order (top-down), hoisting every
   constant to the start of its insertion region's entry block (the body of the nearest isolated-from-above
   op: the function) and merging duplicates into the first one seen (MLIR's OperationFolder,
   `ttc.ir.fold.ConstantTable`; a new table each iteration unless `keep_constants`), and queueing every op but
   the merged duplicates; the worklist is a stack, so bottom-up the last op walked is popped first and
   top-down (worklist reversed) the first;
3. pops ops one at a time (skipping, unless `skip_unreachable` is off, those in blocks no branch reaches): an
   op with no uses and no side effects (`is_trivially_dead`) is erased; else an op other than a constant that
   folds (`ttc.ir.fold.fold_in_ir`) is replaced by the folded values (new constants are created just before it
   and hoisted by the next iteration), or one that folds in place (`fold_in_place`) gets its new operands;
   else the op's patterns are tried in order until one changes the IR. Every change is reported to the
   driver (`inserted`, `modified`, `replaced`, `removed` / `erased`), which queues the ops concerned: the op
   and its ancestors, the users of a replaced value, and the defining ops of an erased op's operands that are
   left with at most one other user;
4. with region simplification, erases unreachable blocks again and runs region DCE (dead ops, dead cycles,
   dead block arguments of branch targets).
Iterations stop when one changes nothing, or when `max_iterations` (-1: no limit) have run. `touched` says
afterwards whether the driver changed the IR at all (a change reported, a block or op erased, a constant moved).

A pattern is a function `(op, rewriter) -> bool` (True when it changed the IR) that changes the IR through
`Rewriter`; `xdsl_pattern` adapts an xDSL `RewritePattern`. The configurations the passes use:
`apply_xdsl_patterns` (`applyPatternsGreedily`'s defaults, with xDSL patterns and MLIR's in-place folds:
triton-combine, triton-reorder-broadcast), `apply_tritongpu_patterns` (the TritonGPU passes), and
canonicalize's own (top-down, with its options).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from xdsl.dialects import cf
from xdsl.dialects.builtin import ArrayAttr, FusedLoc, IntegerAttr, IntegerType, NoneAttr, UnknownLoc
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator, MemoryEffect, MemoryEffectKind, RecursiveMemoryEffect, SymbolOpInterface

from ttc.ir.fold import (CMPI, CONSTANT_OPS, ConstantTable, _representable_by, defining_op, fold_in_ir, has_folder,
                         int_width, is_constant_op, make_constant)
from ttc.ir.types import elt

# ----------------------------------------------------------------------------- side effects


@lru_cache(maxsize=None)
def _traits(cls: type[Operation]) -> tuple[bool, bool, tuple, bool]:
    """(terminator, symbol, own effect traits, effects of its regions) of an op class: xDSL looks traits up by
    scanning the class's list, and the driver asks for each op several times per iteration."""
    return (cls.has_trait(IsTerminator), cls.has_trait(SymbolOpInterface),
            tuple(t for t in cls.get_traits_of_type(MemoryEffect) if not isinstance(t, RecursiveMemoryEffect)),
            cls.has_trait(RecursiveMemoryEffect, value_if_unregistered=False))  # an unregistered op: unknown


def is_terminator(op: Operation) -> bool:
    return _traits(type(op))[0]


def _effects_allow_removal(op: Operation, arith_pure: bool, triton_local_alloc: bool) -> bool:
    """No effect other than reads, nested ops included for ops whose effects are those of their regions. Effects
    come from the ops' xDSL traits, refined where Triton computes them from properties (`tt.load`,
    `tt.extern_elementwise`, `tt.elementwise_inline_asm` and, with `triton_local_alloc`, `ttg.local_alloc`);
    with `arith_pure`, `arith`, `math` and `ub.poison` ops have none (as in MLIR: xDSL omits the trait on a
    few); an op without effect traits has unknown effects."""
    name = op.name
    if arith_pure and (name.startswith("arith.") or name.startswith("math.") or name == "ub.poison"):
        return True
    if name == "tt.load":
        return not op.isVolatile.value.data  # a volatile load also writes
    if name in ("tt.extern_elementwise", "tt.elementwise_inline_asm"):
        return bool(op.pure.value.data)  # no effects when pure, reads and writes otherwise
    if triton_local_alloc and name == "ttg.local_alloc":
        # Triton: an immutable allocation has no effects until memory offsets are assigned
        return not op.result.type.mutable.data and "allocation.offset" not in op.attributes
    _, _, own, recursive = _traits(type(op))
    if not own and not recursive:
        return False  # unknown effects
    for t in own:
        effects = t.get_effects(op)
        if effects is None:
            return False
        # as MLIR: effects on a value the op itself allocates (`ttng.tmem_alloc`'s result) do not keep it
        mine = {e.value for e in effects if e.kind == MemoryEffectKind.ALLOC and isinstance(e.value, SSAValue)
                and e.value.owner is op}
        if any(e.kind != MemoryEffectKind.READ and not (mine and e.value in mine) for e in effects):
            return False
    if recursive:
        return all(_effects_allow_removal(o, arith_pure, triton_local_alloc)
                   for r in op.regions for b in r.blocks for o in b.ops)
    return True


def would_be_trivially_dead(op: Operation, *, arith_pure: bool = True, triton_local_alloc: bool = True) -> bool:
    """MLIR's wouldOpBeTriviallyDead: `op` could be erased if none of its results were used. Terminators and
    symbols always stay; otherwise `op` may only read (see `_effects_allow_removal`). dce turns `arith_pure`
    and `triton_local_alloc` off: an unused `arith.remui` (no trait in xDSL) and `ttg.local_alloc` stay."""
    terminator, symbol, _, _ = _traits(type(op))
    if terminator or symbol:  # true for unregistered ops (xDSL)
        return False
    return _effects_allow_removal(op, arith_pure, triton_local_alloc)


def is_trivially_dead(op: Operation) -> bool:
    return all(r.first_use is None for r in op.results) and would_be_trivially_dead(op)


# ----------------------------------------------------------------------------- walks and the worklist


def post_order(op: Operation):
    """`op` and every op nested in it, each after the ops of its regions."""
    for r in op.regions:
        for b in r.blocks:
            for o in list(b.ops):
                yield from post_order(o)
    yield op


def walk(region: Region, pre_order: bool) -> list[Operation]:
    """Every op nested in `region`, each before (pre-order) or after (post-order) the ops of its regions."""
    return walk_blocks(region, pre_order)[0]


def walk_blocks(region: Region, pre_order: bool) -> tuple[list[Operation], bool]:
    """`walk`, and whether any region walked (`region` included) holds more than one block."""
    out: list[Operation] = []
    multi = False

    def visit(r: Region) -> None:
        nonlocal multi
        b = r.first_block
        if b is not r.last_block:
            multi = True
        while b is not None:
            for o in b.ops:
                if pre_order:
                    out.append(o)
                for nested in o.regions:
                    visit(nested)
                if not pre_order:
                    out.append(o)
            b = b.next_block

    visit(region)
    return out, multi


class Worklist:
    """MLIR's Worklist: a LIFO stack of unique ops; removal leaves a hole. The index of places is built at the
    first push or removal after `clear` or `reverse` (a driver iteration that changes nothing needs none)."""

    def __init__(self):
        self.items: list[Operation | None] = []
        # id(op) -> its place (items holds the op, so the id stays its); None until needed
        self.index: dict[int, int] | None = None

    def _index(self) -> dict[int, int]:
        if self.index is None:
            self.index = {id(op): i for i, op in enumerate(self.items) if op is not None}
        return self.index

    def push(self, op: Operation) -> None:
        index = self._index()
        if id(op) not in index:
            index[id(op)] = len(self.items)
            self.items.append(op)

    def pop(self) -> Operation | None:
        while self.items:
            op = self.items.pop()
            if op is not None:
                if self.index is not None:
                    del self.index[id(op)]
                return op
        return None

    def remove(self, op: Operation) -> None:
        i = self._index().pop(id(op), None)
        if i is not None:
            self.items[i] = None

    def reverse(self) -> None:
        self.items.reverse()
        self.index = None

    def clear(self) -> None:
        self.items, self.index = [], None


# ----------------------------------------------------------------------------- the rewriter and the driver


class Rewriter:
    """What patterns change the IR with; every change is reported to the driver, which queues the ops
    concerned (the ones that may now simplify further)."""

    def __init__(self, driver: GreedyDriver):
        self.driver = driver

    def insert_before(self, new: Operation, anchor: Operation) -> Operation:
        anchor.parent.insert_op_before(new, anchor)
        self.driver.inserted(new)
        return new

    def modified(self, op: Operation) -> None:
        self.driver.modified(op)

    def set_operands(self, op: Operation, operands) -> None:
        op.operands = list(operands)
        self.driver.modified(op)

    def replace_value(self, old: SSAValue, new: SSAValue) -> None:
        if old is new:
            return
        users = [u.operation for u in old.uses]
        old.replace_all_uses_with(new)
        for user in users:
            self.driver.modified(user)

    def replace_op(self, op: Operation, values) -> None:
        for r, v in zip(op.results, values, strict=True):
            self.replace_value(r, v)
        self.erase(op)

    def replace_with_new(self, op: Operation, new: Operation) -> Operation:
        new.location = op.location
        self.insert_before(new, op)
        self.replace_op(op, new.results)
        return new

    def erase(self, op: Operation) -> None:
        self.driver.removed(op)
        op.detach()
        op.erase()

    def inline_block_before(self, block: Block, anchor: Operation, values) -> None:
        """Move `block`'s ops before `anchor`, its arguments replaced by `values`; the block is erased."""
        for arg, v in zip(block.args, values, strict=True):
            self.replace_value(arg, v)
        ops = list(block.ops)
        for o in ops:
            o.detach()
            anchor.parent.insert_op_before(o, anchor)
            self.driver.inserted(o)  # MLIR reports each moved op as inserted
        block.parent.detach_block(block)
        block.erase()

    def replace_with_region(self, op: Operation, region: Region, values=()) -> None:
        """MLIR's replaceOpWithRegion: inline the single block of `region` before `op`, whose results become
        the operands of the block's terminator."""
        block = region.blocks.first
        term = block.last_op
        results = list(term._operands)
        self.inline_block_before(block, op, values)
        self.replace_op(op, results)
        self.erase(term)


Pattern = Callable[[Operation, Rewriter], bool]


class _PatternRewriter(PatternRewriter):
    """xDSL's `PatternRewriter`, made once per driver (listening as the driver's `listener`) and aimed at each op
    in turn (`at`) instead of made anew for each op and pattern (~2% of a cold sort compile). `at` resets all
    the state a rewriter keeps between matches: the matched op, the insertion point (before it, as the
    constructor sets it), the name hint and whether an action was done."""

    def at(self, op: Operation) -> _PatternRewriter:
        self._current_operation = op
        self.insertion_point = InsertPoint.before(op)
        self._name_hint = None
        self.has_done_action = False
        return self


def xdsl_pattern(pattern: RewritePattern) -> Pattern:
    """An xDSL `RewritePattern` as a driver pattern: it rewrites through the driver's `PatternRewriter`, whose
    changes reach the driver through the driver's listener."""

    def apply(op: Operation, rw: Rewriter) -> bool:
        rewriter = rw.driver.pattern_rewriter(op)
        pattern.match_and_rewrite(op, rewriter)
        return rewriter.has_done_action

    # xDSL's `op_type_rewrite_pattern` wraps a method in one that does nothing unless the op has the annotated
    # type: that check is made first here, before the rewriter is aimed at the op
    impl = getattr(pattern.match_and_rewrite, "__func__", None)
    if impl is not None and impl.__qualname__ == "op_type_rewrite_pattern.<locals>.impl":
        expected = dict(zip(impl.__code__.co_freevars, impl.__closure__))["expected_type"].cell_contents

        def apply_typed(op: Operation, rw: Rewriter) -> bool:
            return isinstance(op, expected) and apply(op, rw)

        return apply_typed
    return apply


class GreedyDriver:
    """MLIR's GreedyPatternRewriteDriver over one region (see the module docstring).

    `patterns`: {op name: [pattern]} (those of the popped op's name are tried in order), or [pattern] (all
    tried on every op). What the passes configure differently:
    - `top_down`: walk in pre-order and reverse the worklist (canonicalize), else post-order (MLIR's default);
    - `max_iterations`: -1 for no limit;
    - `region_simplify`: erase unreachable blocks before and after each iteration and run region DCE after it;
    - `fold_in_place`: `op -> new operands or None`, folds that keep the op (`fold_in_place` below), tried
      after `ttc.ir.fold`;
    - `skip_unreachable`: ops in blocks that no branch reaches are not processed;
    - `keep_constants`: one constant table for all iterations, else a new one per iteration.

    The driver is also the listener of its constant table, of the region simplification below and (`listener`)
    of xDSL's `PatternRewriter`."""

    def __init__(self, patterns: dict[str, Sequence[Pattern]] | Sequence[Pattern], *, top_down: bool = False,
                 max_iterations: int = 10, region_simplify: bool = True,
                 fold_in_place: Callable[[Operation], list[SSAValue] | None] | None = None,
                 skip_unreachable: bool = True, keep_constants: bool = False):
        self.patterns, self.top_down, self.max_iterations = patterns, top_down, max_iterations
        self.region_simplify, self.fold_in_place = region_simplify, fold_in_place
        self.skip_unreachable, self.keep_constants = skip_unreachable, keep_constants
        self.worklist = Worklist()
        self.table = ConstantTable(self)
        self.rewriter = Rewriter(self)
        self.scope: Region | None = None
        self.listener = PatternRewriterListener(operation_insertion_handler=[self.inserted],
                                                operation_removal_handler=[self.removed],
                                                operation_modification_handler=[self.modified])
        self._pattern_rewriter: _PatternRewriter | None = None
        self.touched = False  # whether the IR changed: any notification below but `add`, or `run`'s own changes
        # `version` counts changes (notifications, changes `_process` sees, the table's moves, the sweeps'); `clean`
        # holds the ops processed without a change since the change `clean_version` counted (see `_process`), by
        # id (an int hashes without a call to the op's __hash__)
        self.version = 0
        self.clean: dict[int, Operation] = {}
        self.clean_version = -1

    def inherit(self, prev: GreedyDriver) -> None:
        """Take over the clean ops of `prev`, a driver that ran before this one on the same region, where the
        caller vouches that nothing changed the IR since `prev` ended: each was processed by `prev` without a
        change on the IR as it is now, so this driver would change nothing at it either where it tries no more on
        it (its patterns among `prev`'s for that op name; no in-place fold that `prev` did not try; the folds
        and the dead-op check are the same functions). Only ops `prev` processed are clean, so a `prev` that
        skipped unreachable blocks vouches for none of their ops."""
        if prev.version != prev.clean_version:  # prev's last change came after its last clean op
            return
        ok: dict[str, bool] = {}
        clean = {}
        for key, op in prev.clean.items():
            name = op.name
            good = ok.get(name)
            if good is None:
                _, in_place, mine = self._plan(name)
                _, in_place_before, theirs = prev._plan(name)
                good = ok[name] = (all(any(p is q for q in theirs) for p in mine)
                                   and (not in_place or (in_place_before and prev.fold_in_place is self.fold_in_place)))
            if good:
                clean[key] = op
        self.clean, self.clean_version = clean, self.version

    def pattern_rewriter(self, op: Operation) -> _PatternRewriter:
        """The xDSL rewriter for matching `op` (`xdsl_pattern`), made at the first use."""
        if self._pattern_rewriter is None:
            self._pattern_rewriter = _PatternRewriter(op)
            self._pattern_rewriter.extend_from_listener(self.listener)
        return self._pattern_rewriter.at(op)

    # ---- notifications
    def add(self, op: Operation) -> None:
        """Queue `op` and its ancestors inside the scope (the ancestors are popped first)."""
        chain = []
        scope = self.scope
        while op is not None:
            chain.append(op)
            block = op.parent  # op.parent_region(), parent_op() without their calls
            region = block.parent if block is not None else None
            if region is scope:
                push = self.worklist.push
                for o in chain:
                    push(o)
                return
            if region is None:
                return
            op = region.parent

    def inserted(self, op: Operation) -> None:
        self.touched = True
        self.version += 1
        self.add(op)

    modified = inserted

    def replaced(self, op: Operation, value: SSAValue) -> None:
        self.touched = True
        self.version += 1
        for r in op.results:
            for u in list(r.uses):
                self.add(u.operation)

    def erased(self, op: Operation) -> None:
        """`op` is about to be erased: the defining ops of its operands that keep at most one other user may
        simplify further."""
        self.touched = True
        self.version += 1
        for v in op._operands:
            d = defining_op(v)
            if d is None:
                continue
            others = set()
            for u in v.uses:
                if u.operation is not op:
                    others.add(u.operation)
                    if len(others) > 1:
                        break
            if len(others) <= 1:
                self.add(d)
        self.worklist.remove(op)
        self.table.forget(op)

    def removed(self, op: Operation) -> None:
        """`op` is about to be erased with everything nested in it."""
        for nested in post_order(op):
            self.erased(nested)

    # ---- the loop
    def run(self, region: Region) -> bool:
        """Rewrite `region` to a fixed point; False when `max_iterations` ran out first."""
        self.scope = region
        iteration = 0
        while True:
            iteration += 1
            if 0 <= self.max_iterations < iteration:
                return False
            self.worklist.clear()
            if not self.keep_constants:
                self.table = ConstantTable(self)
            else:  # a move by this iteration's walk must count as a change (`version`), so the flag starts clear
                self.touched |= self.table.moved
                self.table.moved = False
            ops, multi_block = walk_blocks(region, self.top_down)
            # after the first iteration the last one's own simplification left no unreachable block (region DCE
            # erases no block and no branch), so this would erase nothing; nor would it where every region holds
            # one block (the entry block)
            changed = self.region_simplify and iteration == 1 and multi_block and erase_unreachable_blocks(region, self)
            if changed:
                self.version += 1
                ops, multi_block = walk_blocks(region, self.top_down)
            # top-down, an op's ancestors are walked (and queued) before it, so add(op) would only push it; while
            # nothing else pushed (a merged constant's users), every op walked is new, so it is only appended.
            # Bottom-up, add(op) pushes `op` and then its ancestors in the scope, up to the first one queued already
            # (whose own ancestors were queued with it).
            worklist, table, scope = self.worklist, self.table, self.scope
            items = worklist.items
            for op in ops:
                if op.parent is None:
                    continue
                if op.name in CONSTANT_OPS and len(op.results) == 1 and not table.insert_known(op):
                    continue
                if self.top_down:
                    if worklist.index is None:
                        items.append(op)
                    else:
                        worklist.push(op)
                    continue
                index = worklist._index()
                while id(op) not in index:
                    index[id(op)] = len(items)
                    items.append(op)
                    region_of = op.parent.parent
                    if region_of is scope:
                        break
                    op = region_of.parent
            if self.top_down:
                worklist.reverse()
            if table.moved:
                self.version += 1
            processed = self._process()
            changed |= processed
            # an iteration after the first that changed nothing runs on what the last one's simplification left
            # (constants hoisted and merged at most, which frees no op): it would find nothing to erase again.
            # Nor would the first, where its ops changed nothing and every region holds one block: the blocks
            # erased before it were all the unreachable ones, and with one block per region the only dead ops
            # are those with no uses (no branch passes a value to a block argument, no SSA cycle), which it
            # would have erased.
            if self.region_simplify and (changed or iteration == 1) and (processed or multi_block):
                if erase_unreachable_blocks(region, self) | region_dce(region, self):
                    changed = True
                    self.version += 1
            self.touched |= changed or self.table.moved
            if not changed:
                return True

    def _reachable(self, op: Operation) -> bool:
        while True:
            block = op.parent
            if block is None:
                return False
            region = block.parent
            if block.prev_block is not None and block.first_use is None:  # not the entry block, no predecessor
                return False
            if region is self.scope:
                return True
            op = region.parent
            if op is None:
                return True

    def _plan(self, name: str) -> tuple[bool, bool, Sequence[Pattern]]:
        """What `_process` tries on an op named `name` (not a constant): (`ttc.ir.fold` has a folder for it,
        `fold_in_place` may apply, its patterns)."""
        patterns = self.patterns.get(name, ()) if isinstance(self.patterns, dict) else self.patterns
        in_place = self.fold_in_place is not None and (self.fold_in_place is not fold_in_place
                                                       or name in FOLDS_IN_PLACE)
        return has_folder(name), in_place, patterns

    def _fold(self, op: Operation, folder: bool, in_place: bool) -> bool:
        if folder and (folded := fold_in_ir(op)) is not None:
            values = []
            for r, v in zip(op.results, folded):
                if not isinstance(v, SSAValue):
                    c = make_constant(v, r.type)
                    c.location = op.location
                    v = self.rewriter.insert_before(c, op).results[0]
                values.append(v)
            self.rewriter.replace_op(op, values)
            return True
        if in_place and (operands := self.fold_in_place(op)) is not None:
            self.rewriter.set_operands(op, operands)
            return True
        return False

    def _process(self) -> bool:
        """Pop and simplify ops until the worklist is empty; whether anything changed. (`Worklist.pop` inlined:
        most iterations change nothing, and this loop runs once per op of the region.)

        An op in `clean` while nothing has changed since (`version` is still `clean_version`) is not folded nor
        matched again: it was processed, without a change, on the IR as it is now, and processing an op (its
        reachability, the dead-op check, the folds, its patterns) depends on the IR alone, so it would change
        nothing again (only ops with a fold or a pattern to try are kept in `clean`). That spares
        most of the iteration that confirms the fixed point: the ops processed after the last change of the
        iteration before (unless the new walk moved or merged a constant)."""
        changed = False
        rw = self.rewriter
        worklist, scope, skip_unreachable = self.worklist, self.scope, self.skip_unreachable
        items = worklist.items
        plans: dict[str, tuple] = {}
        clean = self.clean
        while items:
            op = items.pop()
            if op is None:
                continue
            if worklist.index is not None:
                del worklist.index[id(op)]
            block = op.parent
            if block is None:
                continue
            # an op of an entry block of the scope is reachable; others are looked at up to the scope
            if skip_unreachable and (block.prev_block is not None or block.parent is not scope) \
                    and not self._reachable(op):
                continue
            for r in op.results:
                if r.first_use is not None:
                    break
            else:
                if would_be_trivially_dead(op):
                    rw.erase(op)
                    changed = True
                    self.version += 1
                    continue
            name = op.name
            plan = plans.get(name)
            if plan is None:
                plan = plans[name] = self._plan(name)
            folder, in_place, patterns = plan
            fold = (folder or in_place) and not (name in CONSTANT_OPS and len(op.results) == 1)
            if not (fold or patterns):
                continue
            if id(op) in clean and self.version == self.clean_version:
                continue
            version = self.version
            if fold and self._fold(op, folder, in_place):
                changed = True
                self.version += 1
                continue
            for pattern in patterns:
                if pattern(op, rw):
                    changed = True
                    self.version += 1
                    break
            else:
                if self.version == version:
                    if version != self.clean_version:
                        clean.clear()
                        self.clean_version = version
                    clean[id(op)] = op
        return changed


# ----------------------------------------------------------------------------- MLIR's in-place folds

COMMUTATIVE = frozenset({
    "arith.addi", "arith.muli", "arith.andi", "arith.ori", "arith.xori", "arith.maxsi", "arith.minsi",
    "arith.maxui", "arith.minui", "arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf",
    "arith.maxnumf", "arith.minnumf", "arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended",
})


_CAST_CHAINS = frozenset({"arith.extsi", "arith.extui", "arith.trunci", "arith.truncf"})  # fold_in_place's others
FOLDS_IN_PLACE = COMMUTATIVE | {"arith.cmpi"} | _CAST_CHAINS  # the ops `fold_in_place` may rewrite
# arith.cmpi's predicate with its operands swapped
CMPI_SWAPPED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle", "ult": "ugt",
                "ugt": "ult", "ule": "uge", "uge": "ule"}


def _is_constant(value: SSAValue) -> bool:
    op = defining_op(value)
    return op is not None and is_constant_op(op)


def _width(t: Attribute) -> int:
    e = elt(t)
    return int_width(e) if isinstance(e, IntegerType) else e.bitwidth


def fold_in_place(op: Operation) -> list[SSAValue] | None:
    """The new operands of `op` when one of MLIR's in-place folds applies (the op then stays, with these
    operands), else None: constants moved to the right of commutative ops and of `arith.cmpi` (whose predicate
    is swapped here, as MLIR's CmpIOp::fold does); `extsi(extsi(x))`,
    `extui(extui(x))`, `trunci(trunci(x))`, `trunci(ext(x))` with `x` wider than the result, and
    `truncf(extf(x))` with `x` wider than the result, all taking `x` directly."""
    name = op.name
    if name in COMMUTATIVE:
        lhs, rhs = op._operands[0], op._operands[1]
        if _is_constant(lhs) and not _is_constant(rhs):
            return [rhs, lhs, *op._operands[2:]]
        return None
    if name == "arith.cmpi":
        lhs, rhs = op._operands
        if _is_constant(lhs) and not _is_constant(rhs):
            pred = CMPI_SWAPPED[CMPI[op.predicate.value.data]]
            op.properties["predicate"] = IntegerAttr(CMPI.index(pred), op.predicate.type)
            return [rhs, lhs]
        return None
    if name not in _CAST_CHAINS:  # most ops the driver pops: nothing below applies to them
        return None
    if len(op._operands) != 1:
        return None
    inner = defining_op(op._operands[0])
    if inner is None or len(inner._operands) != 1:
        return None
    src = inner._operands[0]
    if name in ("arith.extsi", "arith.extui") and inner.name == name:
        return [src]
    if name == "arith.trunci":
        if inner.name == "arith.trunci":
            return [src]
        if inner.name in ("arith.extsi", "arith.extui") and _width(src.type) > _width(op.results[0].type):
            return [src]
    if name == "arith.truncf" and inner.name == "arith.extf":
        s, mid = elt(src.type), elt(inner.results[0].type)
        if _representable_by(s, mid) and s.bitwidth > elt(op.results[0].type).bitwidth:
            return [src]
    return None


# ----------------------------------------------------------------------------- the passes' configurations


def apply_xdsl_patterns(module: Operation, patterns: Sequence[RewritePattern]) -> None:
    """MLIR's `applyPatternsGreedily(module, patterns)` with its default configuration, for xDSL patterns: each
    region of `module` rewritten to a fixed point bottom-up, with region simplification, at most 10
    iterations, and MLIR's in-place folds (`fold_in_place`) after `ttc.ir.fold`'s."""
    fns = [xdsl_pattern(p) for p in patterns]
    for region in module.regions:
        GreedyDriver(fns, fold_in_place=fold_in_place).run(region)


def apply_tritongpu_patterns(module: Operation, patterns: dict[str, Sequence[Pattern]],
                             top_down: bool = False, after: Sequence[GreedyDriver] = (),
                             drivers: list[GreedyDriver] | None = None) -> bool:
    """The driver as the TritonGPU passes apply their patterns (`patterns[op.name]`, taking `(op, rewriter)`):
    each region of `module` rewritten to a fixed point bottom-up (unless `top_down`), at most 10 iterations,
    without region simplification, ops in unreachable blocks processed too, one constant table for all
    iterations. Returns whether every region reached its fixed point within the iteration limit.
    `after`: the drivers (one per region) that last ran on `module`, where the caller vouches that nothing changed
    it since (`GreedyDriver.inherit`); `drivers` receives the drivers made here, for a later call's `after`."""
    done = True
    for i, region in enumerate(module.regions):
        d = GreedyDriver(patterns, top_down=top_down, region_simplify=False, skip_unreachable=False,
                         keep_constants=True, fold_in_place=fold_in_place)
        if i < len(after) and after[i].scope is region:
            d.inherit(after[i])
        done &= d.run(region)
        if drivers is not None:
            drivers.append(d)
    return done


# ----------------------------------------------------------------------------- region simplification


def _successor_operands(term: Operation, index: int) -> list[SSAValue] | None:
    """The values `term` passes to its `index`-th successor's arguments, for the branches we can rewrite."""
    if term.name == "cf.br":
        return list(term._operands)
    if term.name == "cf.cond_br":
        return list(term.then_arguments if index == 0 else term.else_arguments)
    return None


def erase_unreachable_blocks(region: Region, driver: GreedyDriver | None = None) -> bool:
    """Erase the blocks no path from their region's entry reaches, in `region` and every nested region."""
    changed = False
    regions = [region]
    while regions:
        r = regions.pop()
        first = r.blocks.first
        if first is None:
            continue
        if first is r.blocks.last:  # one block: nothing to erase here
            for o in first.ops:
                regions.extend(o.regions)
            continue
        blocks = list(r.blocks)
        if len(blocks) > 1:
            reachable = {blocks[0]}
            stack = [blocks[0]]
            while stack:
                b = stack.pop()
                term = b.last_op
                for s in (term.successors if term is not None else ()):
                    if s not in reachable:
                        reachable.add(s)
                        stack.append(s)
            dead = [b for b in blocks if b not in reachable]
            for b in dead:
                if driver is not None:
                    for o in b.ops:
                        for nested in post_order(o):
                            driver.worklist.remove(nested)
                            driver.table.forget(nested)
                r.detach_block(b)
            for b in dead:
                for o in b.ops:
                    o.drop_all_references()
            for b in dead:
                b.erase(safe_erase=False)
            changed |= bool(dead)
            blocks = [b for b in blocks if b in reachable]
        for b in blocks:
            for o in b.ops:
                regions.extend(o.regions)
    return changed


def _block_post_order(region: Region) -> list[Block]:
    entry = region.blocks.first
    if entry is None:
        return []
    seen, order = {entry}, []
    stack = [(entry, iter(entry.last_op.successors if entry.last_op is not None else ()))]
    while stack:
        b, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            order.append(b)
        elif nxt not in seen and nxt.parent is region:
            seen.add(nxt)
            stack.append((nxt, iter(nxt.last_op.successors if nxt.last_op is not None else ())))
    return order


class _Liveness:
    """MLIR's region DCE liveness: an op is live when it has effects (`removable(op)` is False) or a live use; a
    successor operand of a branch is used only if the block argument it feeds is live. With `strict`, ops nested
    in an op that is not live are not live either (so what a dead loop's body yields keeps nothing alive)."""

    def __init__(self, removable: Callable[[Operation], bool], strict: bool):
        self.removable, self.strict = removable, strict
        # live ops and values by id (xDSL hashes them in Python), each holding its object so the id stays its
        self.ops: dict[int, Operation] = {}
        self.values: dict[int, SSAValue] = {}
        self.changed = False
        self.multi_block = False  # a region of several blocks was seen

    def op_live(self, op: Operation) -> bool:
        if id(op) in self.ops:
            return True
        values = self.values
        for r in op.results:
            if id(r) in values:
                return True
        return False

    def mark_op(self, op):
        if id(op) not in self.ops:
            self.ops[id(op)] = op
            self.changed = True

    def mark_value(self, v):
        if id(v) not in self.values:
            self.values[id(v)] = v
            self.changed = True

    def value_live(self, v: SSAValue) -> bool:
        return id(v) in self.values

    def _use_known_dead(self, use) -> bool:
        owner = use.operation
        if not is_terminator(owner):
            return False
        arg = _successor_arg(owner, use.index)
        return arg is not None and id(arg) not in self.values

    def process_value(self, v: SSAValue) -> None:
        if id(v) in self.values:
            return
        for use in v.uses:
            if not self._use_known_dead(use) and self.op_live(use.operation):
                self.mark_value(v)
                return

    def region(self, region: Region, parent_live: bool = True) -> None:
        if region.blocks.first is not region.blocks.last:
            self.multi_block = True
        for block in _block_post_order(region):
            for op in reversed(block.ops):  # liveness changes no op
                self.op(op, parent_live)
            if block is region.blocks.first or not parent_live:
                continue
            for a in block.args:
                self.process_value(a)

    def op(self, op: Operation, parent_live: bool = True) -> None:
        for r in op.regions:
            self.region(r, parent_live and (not self.strict or self.op_live(op)))
        if not parent_live:
            return
        if is_terminator(op):
            self.mark_op(op)
            for i, succ in enumerate(op.successors):
                if _successor_operands(op, i) is None or not _all_preds_rewritable(succ):
                    for a in succ.args:
                        self.mark_value(a)
            return
        if self.op_live(op):
            return
        # its results first: a live user (most ops have one) makes the op live without the effects check
        for r in op.results:
            self.process_value(r)
        if not self.op_live(op) and not self.removable(op):
            self.mark_op(op)


def _all_preds_rewritable(block: Block) -> bool:
    return all(u.operation.name in ("cf.br", "cf.cond_br") for u in block.uses)


def _successor_arg(term: Operation, operand_index: int):
    """The block argument that operand `operand_index` of branch `term` feeds, if any."""
    if term.name == "cf.br":
        return term.successor.args[operand_index] if operand_index < len(term.successor.args) else None
    if term.name == "cf.cond_br":
        n_then = len(term.then_arguments)
        if operand_index == 0:
            return None
        i = operand_index - 1
        if i < n_then:
            return term.then_block.args[i]
        return term.else_block.args[i - n_then]
    return None


def region_dce(region: Region, driver: GreedyDriver | None = None,
               removable: Callable[[Operation], bool] = would_be_trivially_dead, strict: bool = False) -> bool:
    """MLIR's runRegionDCE over `region`: erase the ops, and the block arguments of branch targets, that nothing
    live uses, dead cycles included (see `_Liveness` for `removable` and `strict`)."""
    live = _Liveness(removable, strict)
    live.region(region)
    # Where every region holds one block (no branches, no block arguments but entry ones) and liveness does not
    # wait on a parent's (`strict`), one sweep (users before definitions) is the fixed point: a second sweep,
    # which MLIR runs to see that nothing changes, would change nothing.
    live.changed = live.multi_block or strict
    while live.changed:
        live.changed = False
        live.region(region)
    return _delete_dead(region, live, driver)


def _delete_dead(region: Region, live: _Liveness, driver: GreedyDriver | None) -> bool:
    erased = False
    if region.blocks.first is None:
        return False
    multi = region.blocks.first is not region.blocks.last
    for block in _block_post_order(region):
        if multi and block.last_op is not None:
            erased |= _drop_dead_successor_operands(block.last_op, live)
        for op in list(reversed(block.ops)):  # xDSL's len(block.ops), which list(block.ops) asks, walks the block
            if not live.op_live(op) and not is_terminator(op):
                _force_erase(op, driver)
                erased = True
            else:
                for r in op.regions:
                    erased |= _delete_dead(r, live, driver)
    for block in list(region.blocks)[1:]:
        for a in reversed(block.args):
            if not live.value_live(a) and _all_preds_rewritable(block):
                if a.first_use is None:
                    block.erase_arg(a)
                    erased = True
    return erased


def _force_erase(op: Operation, driver: GreedyDriver | None) -> None:
    """Erase a dead op; any remaining users are dead too (a dead cycle) and are erased in turn."""
    if driver is not None:
        driver.removed(op)
    op.detach()
    op.erase(safe_erase=False)


def _drop_dead_successor_operands(term: Operation, live: _Liveness) -> bool:
    if term.name not in ("cf.br", "cf.cond_br"):
        return False
    changed = False
    succ_args = []
    for i, succ in enumerate(term.successors):
        ops = _successor_operands(term, i)
        if not _all_preds_rewritable(succ):
            succ_args.append(ops)
            continue
        kept = [v for v, a in zip(ops, succ.args) if live.value_live(a)]
        changed |= len(kept) != len(ops)
        succ_args.append(kept)
    if not changed:
        return False
    if term.name == "cf.br":
        term.operands = succ_args[0]
    else:
        new = cf.ConditionalBranchOp(term.cond, term.then_block, succ_args[0], term.else_block, succ_args[1])
        new.attributes.update(term.attributes)
        new.location = term.location
        live.mark_op(new)
        term.parent.insert_op_before(new, term)
        term.detach()
        term.erase()
    return True


def fused_location(*ops: Operation) -> Attribute:
    """MLIR's FusedLoc::get of the ops' locations: unknown ones dropped, duplicates merged."""
    locs: list[Attribute] = []
    for o in ops:
        loc = o.location
        parts = loc.locations.data if isinstance(loc, FusedLoc) and isinstance(loc.metadata, NoneAttr) else [loc]
        for part in parts:
            if not isinstance(part, UnknownLoc) and part not in locs:
                locs.append(part)
    if not locs:
        return UnknownLoc()
    if len(locs) == 1:
        return locs[0]
    return FusedLoc(ArrayAttr(locs), NoneAttr())
