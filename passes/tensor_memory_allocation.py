"""triton-tensor-memory-allocation: give every `ttng.tmem_alloc` its place in Blackwell's tensor memory (Triton's
TensorMemoryAllocation).

Tensor memory is 128 rows (two blocks of 64) by 512 32-bit columns. The allocations are visited in post-order
(MLIR's walk) and placed first-fit (linear scan): each one gets the live range of its result and of the
`ttg.memdesc_index` / `ttg.memdesc_reinterpret` views of it (MLIR's Liveness, over the post-order numbering of
every op), the chunks whose range ended before it starts are freed, and it takes the first 4-aligned column
(then the first row block) where its rows (`getTmemAllocSizes`: 64 or 128) and 32-bit columns are free. Inside
a `ttg.warp_specialize`, the chunks of earlier allocations of the same warp_specialize in another region
(the default region and the partitions run at once) count as taken. An MMA v5 whose A operand lives in TMEM
with 64 rows must find A and its accumulator in the same row block: the allocations reaching them (through
views, selects, scf results, loop arguments, branch arguments and warp_specialize captures) share the row
block of the first one placed.
Each alloc gets `tensor_memory_col_offset` and `tensor_memory_row_offset` (start row block * 16); the module gets
`ttg.tensor_memory_size`: the columns used, rounded up to 0, 32, 64, 128, 256 or 512 (left as is above 512:
the runtime reports it), and `ttg.shared` at least 4 when TMEM is used (tcgen05.alloc returns the base address
through shared memory).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block, Operation, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.tmem_attrs import TensorMemoryEncoding
from ttc.ir.tmem_layout import tmem_alloc_rows_cols
from ttc.opt.passmanager import Pass

_VIEWS = ("ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape",
          "ttg.memdesc_reinterpret", "ttng.tmem_subslice")
_MMAV5 = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")
ROW_BLOCKS = 2  # of 64 rows


# ----------------------------------------------------------------------------- MLIR's Liveness


def _post_order(op: Operation):
    for r in op.regions:
        for b in r.blocks:
            for o in b.ops:
                yield from _post_order(o)
    yield op


def _ancestor_block(block: Block, region) -> Block | None:
    while block is not None and block.parent is not region:
        parent = block.parent_op() if block.parent is not None else None
        block = parent.parent if parent is not None else None
    return block


def _ancestor_op(op: Operation, block: Block) -> Operation | None:
    while op is not None and op.parent is not block:
        op = op.parent_op()
    return op


class Liveness:
    """Live-in and live-out values of every block nested in `root` (MLIR's Liveness): a block uses the operands of
    the ops nested in it that it does not define (its arguments and the results of its nested ops); a value
    defined there is live-out when a use is in another block of the region; live-in = used + live-out - defined,
    live-out also gets the live-ins of the successors, to a fixed point."""

    def __init__(self, root: Operation):
        self.live_in: dict[Block, set] = {}
        self.live_out: dict[Block, set] = {}
        blocks = [b for o in root.walk() for r in o.regions for b in r.blocks]
        defs, uses = {}, {}
        for b in blocks:
            d, u, out = set(b.args), set(), set()
            for v in [*b.args, *(r for o in b.ops for r in o.results)]:
                if any(_ancestor_block(use.operation.parent, b.parent) is not b for use in v.uses):
                    out.add(v)
            for o in b.walk():
                d.update(o.results)
                u.update(o.operands)
            defs[b], uses[b], self.live_out[b] = d, u - d, out
            self.live_in[b] = (uses[b] | out) - d
        changed = True
        while changed:
            changed = False
            for b in blocks:
                term = b.last_op
                for s in term.successors if term is not None else ():
                    if not self.live_in[s] <= self.live_out[b]:
                        self.live_out[b] |= self.live_in[s]
                        new_in = (uses[b] | self.live_out[b]) - defs[b]
                        if new_in != self.live_in[b]:
                            self.live_in[b] = new_in
                        changed = True

    def resolve(self, value: SSAValue) -> list[Operation]:
        """The ops of each block where `value` is live (MLIR's resolveLiveness)."""
        start_block = value.owner if isinstance(value.owner, Block) else value.owner.parent
        todo, seen, out = [start_block], {start_block}, []
        for use in value.uses:
            b = use.operation.parent
            if b not in seen:
                seen.add(b)
                todo.append(b)
        while todo:
            b = todo.pop()
            if value in self.live_in[b] or isinstance(value.owner, Block):
                start = b.first_op
            else:
                start = value.owner
            if value in self.live_out[b]:
                end = b.last_op
            else:
                end = start
                for use in value.uses:
                    a = _ancestor_op(use.operation, b)
                    if a is not None and end.is_before_in_block(a):
                        end = a
            op = start
            out.append(op)
            while op is not end:
                op = op.next_op
                out.append(op)
            term = b.last_op
            for s in term.successors if term is not None else ():
                if value in self.live_in[s] and s not in seen:
                    seen.add(s)
                    todo.append(s)
        return out


def live_interval(alloc: Operation, liveness: Liveness, ids: dict) -> tuple[int, int]:
    """Triton's getLiveIntervals: [first, last + 1) of the ops where the alloc or a view of it is live."""
    ops = liveness.resolve(alloc.results[0])
    users = [u.operation for u in alloc.results[0].uses]
    while users:
        user = users.pop()
        if user.name not in ("ttg.memdesc_index", "ttg.memdesc_reinterpret"):
            continue
        ops += liveness.resolve(user.results[0])
        users += [u.operation for u in user.results[0].uses]
    lo, hi = min((ids[o] for o in ops), default=2 ** 31 - 1), max((ids[o] + 1 for o in ops), default=-2 ** 31)
    return lo, hi


# ----------------------------------------------------------------------------- where TMEM operands come from


def allocs_of(value: SSAValue) -> list[Operation]:
    """Triton's getAlloc: the `ttng.tmem_alloc`s a TMEM value may come from."""
    allocs, seen, todo = [], set(), [value]
    while todo:
        v = todo.pop()
        if v in seen:
            continue
        seen.add(v)
        owner = v.owner
        if isinstance(owner, Block):
            parent = owner.parent_op()
            if owner is not owner.parent.blocks.first:
                for pred in owner.predecessors():
                    term = pred.last_op
                    if term.name not in ("cf.br", "cf.cond_br"):
                        raise CompileError(at_op(term, None, f"unhandled branch op: {term.name}"))
                    if term.name == "cf.br":
                        args = list(term.operands)
                    else:
                        args = list(term.then_arguments if term.successors[0] is owner else term.else_arguments)
                    todo.append(args[v.index])
            elif parent.name == "ttg.warp_specialize.partitions":
                todo.append(parent.parent_op().explicitCaptures[v.index])
            elif isinstance(parent, scf.ForOp):
                i = v.index - 1
                todo += [parent.body.block.last_op.operands[i], parent.iter_args[i]]
            elif isinstance(parent, scf.WhileOp):
                if owner.parent is parent.after_region:
                    todo.append(parent.before_region.block.last_op.arguments[v.index])
                else:
                    todo += [parent.after_region.block.last_op.operands[v.index], parent.arguments[v.index]]
            else:
                raise CompileError(at_op(parent, None,
                                         f"unhandled parent op when looking for TMEM alloc: {parent.name}"))
            continue
        if owner.name == "ttng.tmem_alloc":
            allocs.append(owner)
        elif owner.name in _VIEWS:
            todo.append(owner.operands[0])
        elif owner.name == "arith.select":
            todo += [owner.lhs, owner.rhs]
        elif isinstance(owner, scf.IfOp):
            todo += [owner.true_region.block.last_op.operands[v.index],
                     owner.false_region.block.last_op.operands[v.index]]
        elif isinstance(owner, scf.ForOp):
            todo += [owner.body.block.last_op.operands[v.index], owner.iter_args[v.index]]
        elif isinstance(owner, scf.WhileOp):
            todo.append(owner.before_region.block.last_op.arguments[v.index])
        else:
            raise CompileError(at_op(owner, None, f"unhandled op when looking for TMEM alloc: {owner.name}"))
    return allocs


class _RowGroups:
    """Triton's RowIdConstraints: allocations that must share a row block (union-find), and that row block."""

    def __init__(self):
        self.parent: dict[Operation, Operation] = {}
        self.row: dict[Operation, int] = {}

    def leader(self, op):
        if op not in self.parent:
            return None
        while self.parent[op] is not op:
            op = self.parent[op]
        return op

    def join(self, a, b):
        for x in (a, b):
            self.parent.setdefault(x, x)
        la, lb = self.leader(a), self.leader(b)
        if la is not lb:
            self.parent[lb] = la

    def constraint(self, op):
        lead = self.leader(op)
        return None if lead is None else self.row.get(lead)

    def constrain(self, op, row: int):
        lead = self.leader(op)
        if lead is not None:
            self.row[lead] = row


# ----------------------------------------------------------------------------- the allocator


def _first_fit(used: set, rows: int, cols: int, row_constraint, align: int = 4) -> tuple[int, int]:
    col = 0
    while True:
        if col % align:
            col = (col // align + 1) * align
        for row in range(ROW_BLOCKS - rows + 1):
            if row_constraint is not None and row_constraint != row:
                continue
            if all((row + j, col + i) not in used for i in range(cols) for j in range(rows)):
                return row, col
        col += 1


def _cells(chunk) -> set:
    row, col, rows, cols = chunk
    return {(row + j, col + i) for i in range(cols) for j in range(rows)}


def allocate(module: Operation) -> int:
    """Place every `ttng.tmem_alloc` under `module`; returns the columns used."""
    ids, allocs, groups = {}, [], _RowGroups()
    for op in _post_order(module):
        ids[op] = len(ids)
        if op.name == "ttng.tmem_alloc":
            allocs.append(op)
        if op.name in _MMAV5 and isinstance(op.a.type.encoding, TensorMemoryEncoding):
            if tmem_alloc_rows_cols(op.a.type)[0] == 64:
                for lhs in allocs_of(op.a):
                    for acc in allocs_of(op.d):
                        groups.join(lhs, acc)
    used: set = set()
    ending: list[tuple[int, tuple]] = []  # (end of live range, chunk), sorted by end
    chunks: dict[Operation, tuple] = {}
    liveness = Liveness(module)
    total = 0
    for k, alloc in enumerate(allocs):
        taken = set()
        ws = _enclosing(alloc, "ttg.warp_specialize")
        if ws is not None:
            for prev in allocs[:k]:
                if _enclosing(prev, "ttg.warp_specialize") is ws and prev.parent_region() is not alloc.parent_region():
                    taken |= _cells(chunks[prev])
        start, end = live_interval(alloc, liveness, ids)
        rows, cols = tmem_alloc_rows_cols(alloc.result.type)
        while ending and ending[0][0] <= start:
            used -= _cells(ending.pop(0)[1])
        row, col = _first_fit(used | taken, rows // 64, cols, groups.constraint(alloc))
        chunk = (row, col, rows // 64, cols)
        used |= _cells(chunk)
        chunks[alloc] = chunk
        groups.constrain(alloc, row)
        i = len(ending)
        while i > 0 and ending[i - 1][0] > end:
            i -= 1
        ending.insert(i, (end, chunk))
        alloc.attributes["tensor_memory_col_offset"] = IntegerAttr(col, i32)
        alloc.attributes["tensor_memory_row_offset"] = IntegerAttr(row * 16, i32)
        total = max(total, col + cols)
    return total


def _enclosing(op: Operation, name: str) -> Operation | None:
    op = op.parent_op()
    while op is not None and op.name != name:
        op = op.parent_op()
    return op


@dataclass(frozen=True)
class TensorMemoryAllocation(Pass):
    """Assign tensor-memory offsets to `ttng.tmem_alloc`s and record the module's tensor-memory size."""

    name = "triton-tensor-memory-allocation"
    display = "TritonTensorMemoryAllocationPass"
    summary = "Assign tensor memory allocation"

    def apply(self, ctx, module) -> None:
        total = allocate(module)
        if total <= 512:
            total = next(s for s in (0, 32, 64, 128, 256, 512) if total <= s)
        if total > 0:
            shared = module.attributes.get("ttg.shared")
            if not (isinstance(shared, IntegerAttr) and shared.value.data >= 4):
                module.attributes["ttg.shared"] = IntegerAttr(4, i32)
        module.attributes["ttg.tensor_memory_size"] = IntegerAttr(total, i32)
