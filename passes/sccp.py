"""sccp: sparse conditional constant propagation (MLIR's `-sccp`), which also folds the branches it decides.

The analysis is MLIR's (DeadCodeAnalysis + SparseConstantPropagation) on a lattice per SSA value: unknown
(nothing seen yet), one constant, or overdefined. Blocks start unexecuted; a function's entry block runs when
the function is public or called from code that runs. A value is simulated with `ttc.ir.fold.fold` once all its
operands are known; constant conditions select the branch (`cf.cond_br`, `scf.if`, `scf.condition`) and only
executed edges feed block arguments and region results. Loop-carried values join their initial and yielded
values, so a value that changes around a loop is overdefined; induction variables are overdefined. Calls
join the arguments of every executed call site into a private callee's arguments, and the callee's returned
values into the call results.

The rewrite then replaces every value proven constant by a constant at the start of its function's entry
block (created anew and de-duplicated, as MLIR's OperationFolder does) and erases ops left without uses or
effects. With `fold-branches` (the default; MLIR's SCCP leaves branches alone, which `fold-branches=false`
reproduces exactly) an `scf.if` on a constant condition is replaced by the region it takes, a `cf.cond_br`
by a `cf.br`, and blocks no longer reachable are erased.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from xdsl.dialects import cf
from xdsl.dialects.builtin import IntegerAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Block, Operation, SSAValue

from ttc.ir.fold import ConstantTable, constant_attr, fold, folds_in_place, is_constant_op
from ttc.opt.greedy_rewrite import erase_unreachable_blocks, would_be_trivially_dead
from ttc.opt.passmanager import Pass, option

OVERDEFINED = "overdefined"


def _is_poison(attr) -> bool:
    return type(attr).__name__ == "PoisonAttr"


class _Analysis:
    def __init__(self, module: Operation):
        self.lattice: dict[SSAValue, object] = {}
        self.executable: set[Block] = set()
        self.live_edges: set[tuple[Block, Block]] = set()
        self.entered: set[tuple[Operation, int]] = set()  # (region op, region index) whose entry runs
        self.ops: deque[Operation] = deque()
        self.queued: set[Operation] = set()
        self.watchers: dict[SSAValue, set[Operation]] = {}  # ops whose fold forwarded this value
        self.funcs: dict[str, Operation] = {}
        self.unknown_callers: set[Operation] = set()
        self.callers: dict[Operation, list[Operation]] = {}  # callee -> executed calls
        self.returns: dict[Operation, list[Operation]] = {}  # callee -> executed returns
        self._index_symbols(module)
        for region in module.regions:
            if region.blocks.first is not None:
                self._mark_block(region.blocks.first)
        for func in self.funcs.values():
            if func in self.unknown_callers:
                self._mark_function(func)
        while self.ops:
            op = self.ops.popleft()
            self.queued.discard(op)
            self._visit(op)

    # ---- symbols
    def _index_symbols(self, module: Operation) -> None:
        body = module.regions[0].blocks.first if module.regions else None
        for op in body.ops if body is not None else ():
            if op.name == "tt.func":
                self.funcs[op.sym_name.data] = op
                vis = op.properties.get("sym_visibility")
                if vis is None or (isinstance(vis, StringAttr) and vis.data == "public"):
                    self.unknown_callers.add(op)
        # a symbol used other than by a call may be called from anywhere
        for op in module.walk():
            if op.name == "tt.call":
                continue
            for attr in (*op.properties.values(), *op.attributes.values()):
                if isinstance(attr, SymbolRefAttr) and attr.root_reference.data in self.funcs:
                    self.unknown_callers.add(self.funcs[attr.root_reference.data])

    # ---- lattice
    def value(self, v: SSAValue):
        return self.lattice.get(v)

    def _join(self, v: SSAValue, new) -> None:
        if new is None:
            return
        old = self.lattice.get(v)
        if old is OVERDEFINED:
            return
        if old is None:
            merged = new
        elif new is OVERDEFINED or old != new:
            merged = OVERDEFINED
        else:
            return
        self.lattice[v] = merged
        for use in v.uses:
            self._enqueue(use.operation)
        for op in self.watchers.get(v, ()):
            self._enqueue(op)

    def _overdefine(self, values) -> None:
        for v in values:
            self._join(v, OVERDEFINED)

    def _enqueue(self, op: Operation) -> None:
        if op not in self.queued and op.parent in self.executable:
            self.queued.add(op)
            self.ops.append(op)

    # ---- executability
    def _mark_block(self, block: Block) -> None:
        if block in self.executable:
            return
        self.executable.add(block)
        region = block.parent
        if block is region.blocks.first:
            parent = region.parent_op()
            if parent is not None and parent.name not in ("scf.for", "scf.while", "scf.if", "tt.func"):
                self._overdefine(block.args)  # entry arguments of regions we do not model
        for op in block.ops:
            self._enqueue(op)

    def _mark_edge(self, src: Block, dst: Block, values) -> None:
        """The edge runs: `dst` runs, its arguments join `values` (None: unknown values)."""
        if values is None:
            self._overdefine(dst.args)
        else:
            for a, v in zip(dst.args, values):
                self._join(a, self.value(v))
        self.live_edges.add((src, dst))
        self._mark_block(dst)

    def _enter(self, op: Operation, index: int) -> None:
        region = op.regions[index]
        if region.blocks.first is None:
            return
        self.entered.add((op, index))
        self._mark_block(region.blocks.first)

    # ---- transfer functions
    def _visit(self, op: Operation) -> None:
        name = op.name
        if name == "cf.br":
            self._mark_edge(op.parent, op.successor, list(op.operands))
        elif name == "cf.cond_br":
            c = self.value(op.cond)
            if c is None:
                return
            taken = (True, False) if c is OVERDEFINED or _is_poison(c) else ((c.value.data != 0),)
            if True in taken:
                self._mark_edge(op.parent, op.then_block, list(op.then_arguments))
            if False in taken:
                self._mark_edge(op.parent, op.else_block, list(op.else_arguments))
        elif name == "scf.yield":
            self._visit_yield(op)
        elif name == "scf.condition":
            self._visit_condition(op)
        elif name == "tt.return":
            self._visit_return(op)
        elif name == "scf.if":
            c = self.value(op.cond)
            if c is None:
                return
            if c is OVERDEFINED or _is_poison(c):
                self._enter(op, 0)
                self._enter(op, 1)
            else:
                self._enter(op, 0 if c.value.data else 1)
        elif name == "scf.for":
            body = op.body.blocks.first
            self._join(body.args[0], OVERDEFINED)
            for a, r, init in zip(body.args[1:], op.results, op.iter_args):
                self._join(a, self.value(init))
                self._join(r, self.value(init))
            self._enter(op, 0)
        elif name == "scf.while":
            before = op.before_region.blocks.first
            for a, init in zip(before.args, op.arguments):
                self._join(a, self.value(init))
            self._enter(op, 0)
        elif name == "tt.call":
            self._visit_call(op)
        elif name == "tt.func":
            return  # entered when public or called
        elif op.successors:
            for s in op.successors:  # branches we do not model: every successor runs, with unknown arguments
                self._mark_edge(op.parent, s, None)
        elif op.regions:
            for i in range(len(op.regions)):
                for b in op.regions[i].blocks:
                    self._mark_block(b)
                    self._overdefine(b.args)
            self._overdefine(op.results)
        elif op.results:
            self._visit_plain(op)

    def _visit_plain(self, op: Operation) -> None:
        constants = []
        for v in op.operands:
            c = self.value(v)
            if c is None:
                return  # wait until every operand is known
            constants.append(None if c is OVERDEFINED or _is_poison(c) else c)
        if op.name == "ub.poison":
            self._join(op.results[0], op.properties["value"])
            return
        folded = fold(op, constants) if not folds_in_place(op) else None
        if folded is None:
            self._overdefine(op.results)
            return
        for r, f in zip(op.results, folded):
            if isinstance(f, SSAValue):
                self.watchers.setdefault(f, set()).add(op)
                self._join(r, self.value(f))
            else:
                self._join(r, f)

    def _visit_yield(self, op: Operation) -> None:
        parent = op.parent_op()
        values = [self.value(v) for v in op.operands]
        if parent.name == "scf.if":
            for r, v in zip(parent.results, values):
                self._join(r, v)
        elif parent.name == "scf.for":
            body = parent.body.blocks.first
            for a, r, v in zip(body.args[1:], parent.results, values):
                self._join(a, v)
                self._join(r, v)
        elif parent.name == "scf.while":
            before = parent.before_region.blocks.first
            for a, v in zip(before.args, values):
                self._join(a, v)
        else:
            self._overdefine(parent.results)

    def _visit_condition(self, op: Operation) -> None:
        parent = op.parent_op()
        c = self.value(op.condition)
        if c is None:
            return
        values = [self.value(v) for v in op.args]
        taken = (True, False) if c is OVERDEFINED or _is_poison(c) else ((c.value.data != 0),)
        if True in taken:
            after = parent.after_region.blocks.first
            for a, v in zip(after.args, values):
                self._join(a, v)
            self._enter(parent, 1)
        if False in taken:
            for r, v in zip(parent.results, values):
                self._join(r, v)

    def _visit_call(self, op: Operation) -> None:
        callee = self.funcs.get(op.callee.root_reference.data)
        if callee is None or not callee.body.blocks:
            self._overdefine(op.results)
            return
        calls = self.callers.setdefault(callee, [])
        if op not in calls:
            calls.append(op)
        if callee not in self.unknown_callers:
            entry = callee.body.blocks.first
            for a, v in zip(entry.args, op.operands):
                self._join(a, self.value(v))
        self._mark_function(callee)
        for ret in self.returns.get(callee, ()):
            for r, v in zip(op.results, ret.operands):
                self._join(r, self.value(v))

    def _visit_return(self, op: Operation) -> None:
        func = op.parent_op()
        rets = self.returns.setdefault(func, [])
        if op not in rets:
            rets.append(op)
        for call in self.callers.get(func, ()):
            for r, v in zip(call.results, op.operands):
                self._join(r, self.value(v))

    def _mark_function(self, func: Operation) -> None:
        entry = func.body.blocks.first
        if entry is not None and entry not in self.executable:
            if func in self.unknown_callers:
                self._overdefine(entry.args)
            self._mark_block(entry)


def _rewrite(module: Operation, analysis: _Analysis) -> None:
    """MLIR's SCCP rewrite: replace constant values by constants (new ones, hoisted and de-duplicated) and erase
    the ops left dead, visiting blocks as MLIR does."""
    table = ConstantTable()

    def replace(v: SSAValue, block: Block) -> bool:
        c = analysis.value(v)
        if c is None or c is OVERDEFINED:
            return False
        new = table.get_or_create(block, c, v.type)
        v.replace_all_uses_with(new)
        return True

    stack: list[Block] = []

    def push(regions) -> None:
        for region in regions:
            stack.extend(reversed(list(region.blocks)))

    push(module.regions)
    while stack:
        block = stack.pop()
        for op in list(block.ops):
            if op.parent is None:
                continue
            replaced_all = bool(op.results)
            for r in op.results:
                replaced_all &= replace(r, block)
            if replaced_all and would_be_trivially_dead(op):
                table.forget(op)
                op.detach()
                op.erase()
                continue
            push(op.regions)
        for a in block.args:
            replace(a, block)


def _constant_branch(module: Operation) -> tuple[Operation, bool] | None:
    """The first `scf.if` or `cf.cond_br` whose condition is a constant, and which way it goes."""
    for op in module.walk():
        if op.name in ("scf.if", "cf.cond_br"):
            c = constant_attr(op.cond)
            if isinstance(c, IntegerAttr):
                return op, c.value.data != 0
    return None


def _fold_branches(module: Operation) -> None:
    """Replace `scf.if` and `cf.cond_br` on constant conditions by what they take; erase blocks so orphaned,
    and the constants only they used."""
    used = [op for op in module.walk() if is_constant_op(op) and op.results[0].first_use is not None]
    while (found := _constant_branch(module)) is not None:
        op, taken = found
        if op.name == "cf.cond_br":
            dest, args = (op.then_block, op.then_arguments) if taken else (op.else_block, op.else_arguments)
            br = cf.BranchOp(dest, *args)
            br.location = op.location
            op.parent.insert_op_before(br, op)
            region = op.parent.parent
            op.detach()
            op.erase()
            erase_unreachable_blocks(region)
            continue
        region = op.true_region if taken else op.false_region
        if region.blocks:
            block = region.blocks.first
            term = block.last_op
            for r, v in zip(op.results, list(term.operands)):
                r.replace_all_uses_with(v)
            term.detach()
            term.erase()
            for o in list(block.ops):
                o.detach()
                op.parent.insert_op_before(o, op)
        op.detach()
        op.erase()
    for op in used:
        if op.parent is not None and op.results[0].first_use is None and _attached(op, module):
            op.detach()
            op.erase()


def _attached(op: Operation, root: Operation) -> bool:
    while op is not None:
        if op is root:
            return True
        op = op.parent_op()
    return False


@dataclass(frozen=True)
class SCCP(Pass):
    """Sparse conditional constant propagation."""

    name = "sccp"
    display = "SCCP"
    summary = "Sparse conditional constant propagation"

    fold_branches: bool = option(True, "Replace scf.if / cf.cond_br on constant conditions by the branch taken")

    def apply(self, ctx, op) -> None:
        analysis = _Analysis(op)
        _rewrite(op, analysis)
        if self.fold_branches:
            _fold_branches(op)
