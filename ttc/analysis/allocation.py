"""Shared-memory allocation: Triton's Allocation analysis (`Allocation`, one function; `ModuleAllocation`, the
call graph, callees first), giving every buffer an offset and each function its shared-memory size.

Buffers: explicit ones are the `ttg.local_alloc` results in shared memory (their size from the allocation
shape, an fp4-padded nvmma buffer twice as wide, a padded_shared one with its padding; aligned as the op's
`alignment` says, else as the layout wants: 128 bytes per swizzle phase for nvmma, a shared_linear's own
alignment, 16 otherwise). Scratch buffers are what an op needs while it runs (`ttc.analysis.scratch`, or the
size function given; aligned to 128); a `ttg.warp_specialize` passes its explicit captures in one (aligned to
8), and a function with warp specialization keeps a byte per partition warp for the whole function. A `tt.call`
has a virtual buffer as big as its callee's shared memory.

Liveness is MLIR's (`Liveness`): a value is live at the ops from its definition (or a block's start) to its
last use (or a block's end when it flows out), across blocks; ops are numbered in post-order, so a region op
counts after the ops it holds. An explicit buffer lives from the first to the last op where its value or any
value that may view it (`ttc.analysis.alias`) is live; a scratch buffer only during its op.

Offsets come as Triton computes them: buffers sorted by size (largest first), a first placement by the
"triples" of Algorithms for Compile-Time Memory Optimization, then first-fit graph colouring of the buffers
that overlap in both time and space, bumping each coloured buffer above its neighbours, until none overlap.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Block, Operation, SSAValue

from ttc.analysis.alias import SHARED, aliases, memory_space
from ttc.analysis.scratch import scratch_bytes
from ttc.ir.layouts import BlockedEncoding, NVMMASharedEncoding, SliceEncoding
from ttc.ir.shared_layouts import PaddedSharedEncoding, SharedLinearEncoding
from ttc.ir.types import bitwidth, encoding
from ttc.ir.memdesc import MemDescType
from ttc.ir.warp_specialize import WarpSpecializeOp

SCRATCH_ALIGN = 128
INF = 1 << 63


def _align(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def alloc_bytes(t: MemDescType) -> int:
    """Triton's size of a `ttg.local_alloc` buffer."""
    shape = list(t.get_shape())
    enc = t.encoding
    if isinstance(enc, PaddedSharedEncoding):
        n = math.prod(shape)
        padded = n
        for interval, pad in zip(enc["intervals"], enc["paddings"]):
            padded += (n >> (interval.bit_length() - 1)) << (pad.bit_length() - 1)
            if n % interval == 0:  # no padding after the last element
                padded -= pad
        return padded * bitwidth(t.element_type) // 8
    if isinstance(enc, NVMMASharedEncoding) and enc.get("fp4Padded", False):
        packed = len(shape) - (2 if enc.get("transposed", False) else 1)
        shape[packed] *= 2
    if hasattr(enc, "padded_size"):  # #ttg.padded_shared: its padding too
        return enc.padded_size(shape) * bitwidth(t.element_type) // 8
    return math.prod(shape) * bitwidth(t.element_type) // 8


def alloc_alignment(op: Operation) -> int:
    """Triton's LocalAllocOp::getAlignmentOrDefault."""
    a = op.properties.get("alignment") or op.attributes.get("alignment")
    if isinstance(a, IntegerAttr):
        return a.value.data
    enc = op.results[0].type.encoding
    if isinstance(enc, NVMMASharedEncoding):
        swizzle = enc.get("swizzlingByteWidth", 0)
        return 128 * (swizzle // 16 if swizzle else 1)
    return enc.get("alignment", 16) if isinstance(enc, SharedLinearEncoding) else 16


class Buffer:
    __slots__ = ("kind", "id", "owner", "size", "alignment", "offset")

    def __init__(self, kind: str, id: int, owner: Operation, size: int, alignment: int):
        self.kind, self.id, self.owner, self.size, self.alignment, self.offset = kind, id, owner, size, alignment, 0

    def set_offset_aligned(self, offset: int) -> int:
        self.offset = _align(offset, self.alignment)
        return self.offset

    def __repr__(self):
        return f"Buffer({self.kind} #{self.id} {self.owner.name} size={self.size} offset={self.offset})"


# ----------------------------------------------------------------------------- MLIR's Liveness


def _ancestor_block_in(region, block: Block | None) -> Block | None:
    while block is not None and block.parent is not region:
        op = block.parent_op()
        block = op.parent_block() if op is not None else None
    return block


def _ancestor_op_in(block: Block, op: Operation) -> Operation | None:
    while op is not None and op.parent_block() is not block:
        op = op.parent_op()
    return op


class Liveness:
    """MLIR's Liveness over the blocks nested in `root`: per block its live-in and live-out values, and
    `live_ops(value)`, the ops at which a value is live (`segments(value)`: from which op to which in each block)."""

    def __init__(self, root: Operation):
        self.live_in: dict[Block, set] = {}
        self.live_out: dict[Block, set] = {}
        self._order: dict[Block, dict[Operation, int]] = {}  # a block's ops -> their position, once per block
        blocks = list(root.walk_blocks())
        defs, uses = {}, {}
        for b in blocks:
            d, u, out = set(b.args), set(), set()
            for v in list(b.args) + [r for op in b.ops for r in op.results]:
                if any(_ancestor_block_in(b.parent, use.operation.parent_block()) is not b for use in v.uses):
                    out.add(v)
            for op in b.walk():
                d.update(op.results)
                u.update(op.operands)
                for region in op.regions:
                    for child in region.blocks:
                        d.update(child.args)
            defs[b], uses[b] = d, u - d
            self.live_out[b] = out
            self.live_in[b] = set()
        changed = True
        while changed:
            changed = False
            for b in blocks:
                last = b.last_op
                for succ in (last.successors if last is not None else ()):
                    self.live_out[b] |= self.live_in[succ]
                new_in = (uses[b] | self.live_out[b]) - defs[b]
                if len(new_in) != len(self.live_in[b]):
                    self.live_in[b] = new_in
                    changed = True

    def segments(self, value: SSAValue):
        """(first, last) op of each block where `value` is live: it is live at the block's ops from first to
        last."""
        owner = value.owner
        start_block = owner if isinstance(owner, Block) else owner.parent_block()
        todo, seen = [start_block], {start_block}
        for use in value.uses:
            b = use.operation.parent_block()
            if b not in seen:
                seen.add(b)
                todo.append(b)
        while todo:
            block = todo.pop()
            if block.first_op is None:
                continue
            if value in self.live_in.get(block, ()) or isinstance(owner, Block):
                start = block.first_op
            else:
                start = owner
            if value in self.live_out.get(block, ()):
                end = block.last_op
            else:
                end = start
                order = self._order.get(block)
                if order is None:
                    order = self._order[block] = {op: i for i, op in enumerate(block.ops)}
                for use in value.uses:
                    u = _ancestor_op_in(block, use.operation)
                    if u is not None and order[u] > order[end]:
                        end = u
            yield start, end
            last = block.last_op
            for succ in (last.successors if last is not None else ()):
                if value in self.live_in.get(succ, ()) and succ not in seen:
                    seen.add(succ)
                    todo.append(succ)

    def live_ops(self, value: SSAValue) -> list[Operation]:
        out = []
        for op, end in self.segments(value):
            out.append(op)
            while op is not end:
                op = op.next_op
                out.append(op)
        return out


# ----------------------------------------------------------------------------- one function


ScratchFn = Callable[[Operation], int]


class Allocation:
    """Triton's Allocation of one function: `buffers` (in creation order), `value_buffer` (local_alloc result
    -> its buffer), `op_scratch` / `op_virtual` (op -> its scratch or virtual buffer), `alias_buffers` (value ->
    the buffers it may view), `size` (the function's shared memory)."""

    def __init__(self, func: Operation, callee_sizes: dict[Operation, int] | None = None,
                 scratch_fn: ScratchFn = scratch_bytes):
        self.func = func
        self.buffers: list[Buffer] = []
        self.value_buffer: dict[SSAValue, Buffer] = {}
        self.op_scratch: dict[Operation, Buffer] = {}
        self.op_virtual: dict[Operation, Buffer] = {}
        self.alias_buffers: dict[SSAValue, list[Buffer]] = {}
        self.size = 0
        self._callee_sizes = callee_sizes or {}
        self._scratch_fn = scratch_fn
        self._values_and_sizes()
        self._range: dict[Buffer, tuple[int, int]] = {}
        self._resolve_liveness()
        self._compute_offsets()

    # ---- queries

    def buffer_of(self, key) -> Buffer | None:
        """The buffer a local_alloc result, or an op's scratch (or virtual) buffer."""
        if isinstance(key, Operation):
            return self.op_scratch.get(key) or self.op_virtual.get(key)
        return self.value_buffer.get(key)

    def buffers_of(self, value: SSAValue) -> list[Buffer]:
        """Triton's getBufferIds: the value's own buffer and those it may view."""
        out = []
        own = self.value_buffer.get(value)
        if own is not None:
            out.append(own)
        out += [b for b in self.alias_buffers.get(value, ()) if b not in out]
        return out

    # ---- building

    def _add(self, kind: str, owner: Operation, size: int, alignment: int) -> Buffer:
        b = Buffer(kind, len(self.buffers), owner, size, alignment)
        self.buffers.append(b)
        if kind == "explicit":
            self.value_buffer[owner.results[0]] = b
        elif kind == "virtual":
            self.op_virtual[owner] = b
        else:
            self.op_scratch[owner] = b
        return b

    def _values_and_sizes(self) -> None:
        for op in self.func.walk():
            if op.name == "ttg.local_alloc" and memory_space(op.results[0].type) == SHARED:
                self._add("explicit", op, alloc_bytes(op.results[0].type), alloc_alignment(op))
            if op.name == "tt.call":
                callee = self._callee_sizes.get(op.callee.root_reference.data, 0)
                if callee > 0:
                    self._add("virtual", op, callee, SCRATCH_ALIGN)
            elif isinstance(op, WarpSpecializeOp):  # its explicit captures, passed through shared memory
                if op.capture_bytes() > 0:
                    self._add("scratch", op, op.capture_bytes(), 8)
            elif op is self.func:  # warp specialization's state: a byte per partition warp
                warps = max((w.total_partition_warps() for w in op.walk() if isinstance(w, WarpSpecializeOp)),
                            default=0)
                if warps > 0:
                    self._add("scratch", op, warps, 4)
            else:
                n = self._scratch_fn(op)
                if n > 0:
                    self._add("scratch", op, n, SCRATCH_ALIGN)
        facts = aliases(self.func)
        for op in self.func.walk():
            for v in list(op.operands) + list(op.results):
                for alloc in facts.get(v, ()):
                    buf = self.value_buffer.get(alloc)
                    lst = self.alias_buffers.setdefault(v, [])
                    if buf is not None and buf not in lst:
                        lst.append(buf)

    def _resolve_liveness(self) -> None:
        ids = {op: i for i, op in enumerate(self.func.walk(region_first=True))}
        live = Liveness(self.func)

        def interval(v: SSAValue) -> tuple[int, int]:
            # a block's ops are numbered in their order (post-order): a segment's ends are its least and most
            segs = list(live.segments(v))
            return (min(ids[a] for a, _ in segs), max(ids[b] for _, b in segs) + 1) if segs else (INF, 0)

        for v, b in self.value_buffer.items():
            self._range[b] = interval(v)
        for v, bufs in self.alias_buffers.items():
            lo, hi = interval(v)
            for b in bufs:
                if b in self._range:
                    lo2, hi2 = self._range[b]
                    self._range[b] = (min(lo, lo2), max(hi, hi2))
                else:
                    self._range[b] = (lo, hi)
        for table in (self.op_scratch, self.op_virtual):
            for op, b in table.items():
                if b not in self._range:
                    self._range[b] = (0, INF) if op is self.func else (ids[op], ids[op] + 1)

    def _compute_offsets(self) -> None:
        buffers = sorted(self._range, key=lambda b: -b.size)  # stable: ties keep their order
        if not buffers:
            return
        self._calculate_starts(buffers)
        pairs = self._live_together(buffers)
        graph = _interference(pairs)
        while True:
            self._allocate(buffers, graph)
            graph = _interference(pairs)
            if not graph:
                break

    def _calculate_starts(self, buffers: list[Buffer]) -> None:
        rng = self._range
        meets = lambda a, b: a[0] < b[1] and b[0] < a[1]  # noqa: E731
        triples: list[tuple[int, tuple[int, int]]] = [(0, (0, INF))]  # a multimap: sorted by offset, stable
        todo = list(buffers)
        while todo and triples:
            offset, r = triples.pop(0)
            found = None
            for b in todo:
                x = rng[b]
                if meets(x, r) and not any(meets(t[1], x) for t in triples):
                    found = b
                    break
            if found is None:
                continue
            x = rng[found]
            at = found.set_offset_aligned(offset)
            new = [(at + found.size, (max(r[0], x[0]), min(r[1], x[1])))]
            if r[0] < x[0]:
                new.append((offset, (r[0], x[1])))
            if x[1] < r[1]:
                new.append((offset, (x[0], r[1])))
            for t in new:
                i = len(triples)
                while i > 0 and triples[i - 1][0] > t[0]:
                    i -= 1
                triples.insert(i, t)
            todo.remove(found)

    def _live_together(self, buffers: list[Buffer]) -> list[tuple[Buffer, Buffer]]:
        """The pairs of buffers live together in time, or owned by ops of two partitions of one
        `ttg.warp_specialize`: the pairs that must not share space. Found by a sweep over start times, so the
        pairs looked at are those live together (not all n^2: a kernel of thousands of short-lived scratch
        buffers stays linear); they do not change while offsets are assigned, so they are found once."""
        rng = self._range
        pairs: list[tuple[Buffer, Buffer]] = []
        active: list[Buffer] = []
        for x in sorted((b for b in buffers if rng[b][0] < rng[b][1]), key=lambda b: rng[b][0]):
            start = rng[x][0]
            active = [y for y in active if rng[y][1] > start]
            pairs += [(x, y) for y in active]
            active.append(x)
        partitions: dict[Operation, list[tuple[Buffer, object]]] = {}
        for b in buffers:
            if (w := _warp_specialize_of(b.owner)) is not None:
                partitions.setdefault(w, []).append((b, b.owner.parent_region()))
        for group in partitions.values():
            for i, (x, rx) in enumerate(group):
                pairs += [(x, y) for y, ry in group[i + 1:] if rx is not ry]
        return pairs

    def _allocate(self, buffers: list[Buffer], graph: dict[Buffer, set]) -> None:
        self.size = 0
        colors = {b: (0 if b is buffers[0] else -1) for b in buffers}
        for x in buffers:
            taken = {colors[y] for y in graph.get(x, ()) if colors[y] >= 0}
            c = 0
            while c in taken:
                c += 1
            colors[x] = c
        for x in buffers:
            new = max((y.offset + y.size for y in graph.get(x, ())), default=0)
            if colors[x] != 0:
                x.set_offset_aligned(new)
            self.size = max(self.size, x.offset + x.size)


def _interference(pairs: list[tuple[Buffer, Buffer]]) -> dict[Buffer, set]:
    """Buffer -> the buffers it overlaps in space among `pairs` (`_live_together`'s), both ways."""
    graph: dict[Buffer, set] = {}
    for x, y in pairs:
        if x.offset < y.offset + y.size and y.offset < x.offset + x.size:
            graph.setdefault(x, set()).add(y)
            graph.setdefault(y, set()).add(x)
    return graph


def _warp_specialize_of(op: Operation) -> Operation | None:
    """The `ttg.warp_specialize` around `op`, if any (ops of its different regions run at once)."""
    p = op.parent_op()
    while p is not None and p.name != "ttg.warp_specialize":
        p = p.parent_op()
    return p


# ----------------------------------------------------------------------------- the call graph


def functions(module: Operation) -> list[Operation]:
    return [op for op in module.walk() if op.name == "tt.func"]


def callees_first(module: Operation) -> tuple[list[Operation], list[Operation]]:
    """(functions with callees before their callers, roots: the functions nothing calls)."""
    funcs = functions(module)
    by_name = {f.sym_name.data: f for f in funcs}
    calls = {f: [by_name[c.callee.root_reference.data] for c in f.walk()
                 if c.name == "tt.call" and c.callee.root_reference.data in by_name] for f in funcs}
    called = {g for gs in calls.values() for g in gs}
    roots = [f for f in funcs if f not in called]
    order, seen = [], set()

    def visit(f):
        if f in seen:
            return
        seen.add(f)
        for g in calls[f]:
            visit(g)
        order.append(f)

    for f in roots:
        visit(f)
    return order, roots


class ModuleAllocation:
    """Every function's Allocation, callees first (a call's virtual buffer is its callee's size);
    `size` is the largest over the functions nothing calls (Triton's ModuleAllocation)."""

    def __init__(self, module: Operation, scratch_fn: ScratchFn = scratch_bytes):
        order, roots = callees_first(module)
        self.funcs: dict[Operation, Allocation] = {}
        sizes: dict[str, int] = {}
        for f in order:
            a = Allocation(f, sizes, scratch_fn)
            self.funcs[f] = a
            sizes[f.sym_name.data] = a.size
        self.size = max((self.funcs[f].size for f in roots if f in self.funcs), default=0)

def _blocked_params(enc):
    """(sizePerThread, threadsPerWarp, warpsPerCTA) of a blocked layout, or of a slice's parent with the
    sliced dimension removed."""
    if isinstance(enc, BlockedEncoding):
        return list(enc["sizePerThread"]), list(enc["threadsPerWarp"]), list(enc["warpsPerCTA"])
    if isinstance(enc, SliceEncoding):
        p = _blocked_params(enc["parent"])
        if p is None:
            return None
        d = enc["dim"]
        return [x[:d] + x[d + 1:] for x in p]
    return None


def reduce_unique_sizes(op: Operation) -> tuple[int, int]:
    """Triton's ReduceOpHelper: how many lanes, then how many warps, hold distinct data along the reduced
    axis."""
    src = op.operands[0].type
    if not isinstance(src, TensorType):
        return 1, 1
    shape = list(src.get_shape())
    axis = op.axis.value.data
    p = _blocked_params(encoding(src))
    if p is None:
        return 1, 1
    spt, tpw, wpc = p
    per_thread = max(1, min(spt[axis], shape[axis]))
    intra = max(1, min(shape[axis] // per_thread, tpw[axis]))
    inter = max(1, min(shape[axis] // intra // per_thread, wpc[axis]))
    return intra, inter



def transitive_users(op: Operation) -> list[Operation]:
    """The ops that use `op`'s memory descriptor, directly or through `memdesc_index`/`memdesc_trans` views."""
    out, queue, seen = [], [r for r in op.results], set()
    while queue:
        v = queue.pop()
        for u in v.uses:
            o = u.operation
            if o in seen:
                continue
            seen.add(o)
            out.append(o)
            if o.name in ("ttg.memdesc_index", "ttg.memdesc_trans"):
                queue.extend(o.results)
    return out

