"""Where shared-memory accesses need a CTA barrier between them: Triton's Membar analysis, inserting
`ttg.local_barrier` ops (`insert_barriers`).

Each access is a slice of an allocated buffer (`ttc.analysis.allocation`): the byte interval of every buffer
the memory descriptor may view, with, for a `ttg.memdesc_subslice` view, its offsets and type (two views of
one layout whose tiles do not overlap do not conflict). A scratch buffer counts as written then read by its op
as a whole. Walking a function in program order, the accesses since the last barrier are kept; an access that
conflicts with them (a read after a write, a write after a read or a write) gets a barrier before it, unless
the NVIDIA filter says the pair needs none (`can_skip_bar_sync`: mbarrier inits, or TMA copies and waits on the
same mbarrier). `gpu.barrier` and `ttg.local_barrier` clear them; an async wait (`ttg.async_wait`,
`ttng.async_tma_store_wait`) gets a barrier right after it. A scratch user's exchange ends with a barrier of its
own, unless the conversion is warp-synchronous.

Control flow is followed as Triton does, on "virtual blocks" (a block, from the start or from just after a
region op): a branch or region op passes what is pending to its successors (a loop's body and what follows
it, both regions of an `scf.if`, ...), joined with what reaches them from elsewhere, until nothing changes. A
`tt.call` counts as what its callee leaves pending at its returns (callees are analysed first).
"""

from __future__ import annotations

from collections import deque

from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from ttc.analysis.allocation import ModuleAllocation, callees_first
from ttc.analysis.scratch import is_warp_sync
from ttc.ir.memdesc import MemDescType

INF = 1 << 63
BARRIERS = ("gpu.barrier", "ttg.local_barrier", "ttg.warp_specialize.partitions")
WAITS = ("ttg.async_wait", "ttng.async_tma_store_wait")
REGION_BRANCH = ("scf.for", "scf.if", "scf.while", "scf.execute_region", "ttg.warp_specialize")

# shared-memory effects of ops on their memdesc operands (Triton's MemRead/MemWrite<SharedMemory>)
EFFECTS: dict[str, tuple[tuple[str, str], ...]] = {
    "ttg.local_load": (("src", "r"),),
    "ttg.local_store": (("dst", "w"),),
    "ttg.async_copy_global_to_local": (("result", "w"),),
    "ttng.init_barrier": (("alloc", "w"),),
    "ttng.inval_barrier": (("alloc", "w"),),
    "ttng.barrier_expect": (("alloc", "w"),),
    "ttng.wait_barrier": (("alloc", "r"), ("alloc", "w")),
    "ttng.arrive_barrier": (("alloc", "r"), ("alloc", "w")),
    "ttng.async_copy_mbarrier_arrive": (("barrier", "w"),),
    "ttng.async_tma_copy_global_to_local": (("barrier", "w"), ("result", "w")),
    "ttng.async_tma_gather": (("barrier", "w"), ("result", "w")),
    "ttng.async_tma_copy_local_to_global": (("src", "r"),),
    "ttng.async_tma_reduce": (("src", "r"),),
    "ttng.async_tma_scatter": (("src", "r"),),
    "ttng.tmem_copy": (("src", "r"),),
    "ttng.warp_group_dot": (("a", "r"), ("b", "r")),
    "ttng.tc_gen5_mma": (("a", "r"), ("b", "r")),
    "ttng.tc_gen5_mma_scaled": (("a", "r"), ("b", "r")),
}


def shared_effects(op: Operation) -> list[tuple[SSAValue, str]]:
    """(memdesc value, "r" or "w") for each shared-memory access `op` makes through an operand or result."""
    if op.name == "ttg.local_alloc":
        t = op.results[0].type
        if op.operands and (t.mutable.data or "allocation.offset" in op.attributes):
            return [(op.results[0], "w")]
        return []
    out = []
    for field, kind in EFFECTS.get(op.name, ()):
        v = getattr(op, field, None)
        if isinstance(v, SSAValue) and isinstance(v.type, MemDescType):
            out.append((v, kind))
    return out


def can_skip_bar_sync(before: Operation, after: Operation) -> bool:
    """Triton's NVIDIA::canSkipBarSync: pairs of mbarrier ops whose order between threads does not matter."""
    a, b = before.name, after.name
    if a == b and a in ("ttng.init_barrier", "ttng.inval_barrier"):
        return True
    if a == b == "ttng.wait_barrier":
        return False
    tma = ("ttng.wait_barrier", "ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather")
    if a in tma + ("ttng.barrier_expect",) and b in tma + ("ttng.barrier_expect",):
        return True
    return a in tma and b != "ttng.inval_barrier"


class Slice:
    """Triton's AllocationSlice: a byte interval of a buffer, and (for a subslice view of the whole buffer's
    shape) the view's type and offsets."""

    __slots__ = ("interval", "type", "offsets")

    def __init__(self, interval: tuple[int, int], value: SSAValue | None = None):
        self.interval, self.type, self.offsets = interval, None, None
        if value is not None:
            self.type = value.type
            owner = value.owner
            if isinstance(owner, Operation) and owner.name == "ttg.memdesc_subslice" and \
                    self.type.get_alloc_shape() == owner.operands[0].type.get_shape():
                self.offsets = tuple(owner.offsets.get_values())

    def key(self):
        return (self.interval, self.type, self.offsets)

    def __eq__(self, other):
        return self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def intersects(self, other: Slice) -> bool:
        (a0, a1), (b0, b1) = self.interval, other.interval
        if not (a0 < b1 and b0 < a1):
            return False
        if self.type is None or other.type is None or not self.offsets or not other.offsets:
            return True
        if self.type.encoding != other.type.encoding:
            return True
        for oa, ob, na, nb in zip(self.offsets, other.offsets, self.type.get_shape(), other.type.get_shape()):
            if oa + na <= ob or ob + nb <= oa:
                return False
        return True


class BlockInfo:
    """The slices read and written since the last barrier, each with the ops that accessed it."""

    __slots__ = ("reads", "writes")

    def __init__(self):
        self.reads: dict[Slice, set] = {}
        self.writes: dict[Slice, set] = {}

    def copy(self) -> BlockInfo:
        out = BlockInfo()
        out.join(self)
        return out

    def join(self, other: BlockInfo) -> BlockInfo:
        for mine, theirs in ((self.reads, other.reads), (self.writes, other.writes)):
            for s, ops in theirs.items():
                mine.setdefault(s, set()).update(ops)
        return self

    def sync(self) -> None:
        self.reads.clear()
        self.writes.clear()

    def __eq__(self, other):
        return self.reads == other.reads and self.writes == other.writes

    def conflicts(self, other: BlockInfo, skip=can_skip_bar_sync) -> bool:
        """A read after a write, a write after a read, or a write after a write, to intersecting slices."""
        for lhs, rhs in ((self.writes, other.reads), (self.reads, other.writes), (self.writes, other.writes)):
            for ls, lops in lhs.items():
                for rs, rops in rhs.items():
                    if ls.intersects(rs) and any(not skip(a, b) for a in lops for b in rops):
                        return True
        return False


def _new_barrier(op: Operation) -> Operation:
    from ttc.ir.ttg import LocalBarrierOp

    barrier = LocalBarrierOp()
    barrier.location = op.location
    return barrier


class Membar:
    """Triton's MembarAnalysis of one function (barriers are inserted as it runs); `pending` is what the
    function leaves unsynchronised at its returns."""

    def __init__(self, func: Operation, allocation, callee_info: dict[str, BlockInfo]):
        self.alloc = allocation
        self.callee_info = callee_info
        self.pending = BlockInfo()
        self._run(func)

    def _run(self, func: Operation) -> None:
        entry = func.body.blocks.first
        inputs: dict[tuple, BlockInfo] = {}
        outputs: dict[tuple, BlockInfo] = {}
        todo = deque([(entry, None)])
        while todo:
            vb = todo.popleft()
            block, after = vb
            info = inputs.get(vb, BlockInfo()).copy()
            succs: list[tuple] = []
            op = after.next_op if after is not None else block.first_op
            while op is not None:
                self._update(op, info)
                if op.has_trait(IsTerminator, value_if_unregistered=False) or op.name in REGION_BRANCH:
                    succs = self._successors(op)
                    break
                op = op.next_op
            if vb in outputs and info == outputs[vb]:
                continue
            outputs[vb] = info
            for s in succs:
                inputs.setdefault(s, BlockInfo()).join(info)
                todo.append(s)
        for ret in [op for op in func.walk() if op.name == "tt.return"]:
            block = ret.parent_block()
            mine = [(vb, i) for vb, i in outputs.items() if vb[0] is block]
            if not mine:
                continue
            order = {o: k for k, o in enumerate(block.ops)}
            last = max(mine, key=lambda t: -1 if t[0][1] is None else order[t[0][1]])
            self.pending.join(last[1])

    @staticmethod
    def _successors(op: Operation) -> list[tuple]:
        name = op.name
        if name in ("cf.br", "cf.cond_br"):
            return [(b, None) for b in op.successors]
        after_op = (op.parent_block(), op)
        if name in REGION_BRANCH:  # entering it: its entry regions, or past it
            if name == "scf.for":
                return [(op.body.blocks.first, None), after_op]
            if name == "scf.if":
                out = [(op.true_region.blocks.first, None)]
                out.append((op.false_region.blocks.first, None) if op.false_region.blocks else after_op)
                return out
            if name == "scf.while":
                return [(op.before_region.blocks.first, None)]
            if name == "ttg.warp_specialize":  # the default region, and the block holding the partitions
                return [(op.regions[0].blocks.first, None), (op.regions[1].blocks.first, None)]
            return [(op.regions[0].blocks.first, None)]
        if name == "ttg.warp_specialize.partitions":
            return [(r.blocks.first, None) for r in op.regions]
        parent = op.parent_op()
        if parent is None or parent.name not in REGION_BRANCH:
            return []  # tt.return and other return-likes
        past = (parent.parent_block(), parent)
        if parent.name == "scf.for":
            return [(parent.body.blocks.first, None), past]
        if parent.name == "scf.while":
            if name == "scf.condition":
                return [(parent.after_region.blocks.first, None), past]
            return [(parent.before_region.blocks.first, None)]
        return [past]

    def _update(self, op: Operation, info: BlockInfo) -> None:
        if op.name in BARRIERS:
            info.sync()
            return
        if op.name in WAITS:
            nxt = op.next_op
            if nxt is None or nxt.name not in ("gpu.barrier", "ttg.local_barrier"):
                op.parent_block().insert_op_after(_new_barrier(op), op)
                info.sync()
                return
        cur = BlockInfo()
        scratch = None
        if op.name == "tt.call":
            got = self.callee_info.get(op.callee.root_reference.data)
            if got is not None:
                cur = got.copy()
        else:
            for value, kind in shared_effects(op):
                for b in self.alloc.buffers_of(value):
                    s = Slice((b.offset, b.offset + b.size), value)
                    (cur.writes if kind == "w" else cur.reads).setdefault(s, set()).add(op)
            if op.name == "ttng.arrive_barrier":
                whole = Slice((0, INF))
                cur.writes.setdefault(whole, set()).add(op)
                cur.reads.setdefault(whole, set()).add(op)
            scratch = self.alloc.op_scratch.get(op) or self.alloc.op_virtual.get(op)
        if scratch is not None:
            warp_sync = op.name == "ttg.convert_layout" and is_warp_sync(op.operands[0].type, op.results[0].type)
            s = Slice((scratch.offset, scratch.offset + scratch.size))
            cur.writes.setdefault(s, set()).add(op)
            barrier = info.conflicts(cur)
            if barrier:
                op.parent_block().insert_op_before(_new_barrier(op), op)
            if barrier or not warp_sync:
                info.sync()
            cur.reads.setdefault(s, set()).add(op)
        elif info.conflicts(cur):
            op.parent_block().insert_op_before(_new_barrier(op), op)
            info.sync()
        info.join(cur)


def insert_barriers(module: Operation, allocation: ModuleAllocation | None = None, analysis=Membar) -> None:
    """Triton's ModuleMembarOrFenceAnalysis: every function, callees first; `analysis` is `Membar` or a subclass
    with its own `_update` (the proxy-fence pass's)."""
    allocation = allocation or ModuleAllocation(module)
    order, _ = callees_first(module)
    done: dict[str, BlockInfo] = {}
    for func in order:
        a = allocation.funcs.get(func)
        if a is None or func.body.blocks.first is None:
            done[func.sym_name.data] = BlockInfo()
            continue
        done[func.sym_name.data] = analysis(func, a, done).pending
