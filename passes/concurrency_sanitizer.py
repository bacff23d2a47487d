"""tritoninstrument-concurrency-sanitizer (ConSan): instrument a kernel so that, when it runs, unsynchronised
accesses to shared and tensor memory and mbarrier misuse stop it with an assert (Triton's
ConcurrencySanitizer.cpp).

The kernel (the module's one public `tt.func`) gets auxiliary state at its start (passes/consan/aux.py: the
buffers and mbarriers the buffer-region analysis finds used, which threads see which writes and reads, which
barriers track them, barrier phases and counts, outstanding commits, a lock), and every memory op gets calls to
helper functions (passes/consan/helpers.py) that check and update that state, wrapped in a critical section
(`tti.experimental_lock_acquire` / `_release`):

- a read checks that the reader sees the buffer's last write (and, in shared memory, that no cp.async write is
  outstanding); a write also checks that the writer sees every read (and that no wgmma or TMA store still reads
  the buffer); ops tracked by barriers then record the access (local loads and stores, TMEM loads and stores,
  allocations with a value, TMA loads, gathers and the tcgen5 MMAs), commit-counted ones (cp.async, TMA stores,
  async wgmma) stage it for their commit;
- an op arriving on a barrier (`barrier_expect`, `arrive_barrier`, `tc_gen5_commit`, an MMA's completion barriers)
  makes the barrier track what its thread sees and checks and updates the barrier's count; a TMA load or gather
  only makes its barrier track (`barrier_expect` is the arrival);
- `wait_barrier` marks its thread waiting and asserts that not all active threads wait (before), then hands what
  the barrier tracked to the waiting thread and its peers (after); `init_barrier` sets the barrier's count;
- `async_commit_group`, `async_wait`, `warp_group_dot_wait` and `async_tma_store_wait` commit and retire
  commit-counted accesses; `ttg.warp_specialize` copies the visibility of its thread to its partitions.

Threads: the default partition is 0, partition i is i + 1; TMA ops run on thread + 16 and tcgen5 ops on
thread + 32 (their peers). As in Triton, an op nested inside a partition (in a loop, say) takes the number of the
region directly around it, not its partition's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation, SSAValue

from ttc.passes.consan.aux import (
    ASYNC_CP,
    NUM_THREADS,
    SHARED,
    TC_THREAD_OFFSET,
    TENSOR,
    TMA_STORE,
    TMA_THREAD_OFFSET,
    WGMMA,
    AuxData,
    Builder,
    ConsanError,
    consan_error,
)
from ttc.passes.consan.helpers import Helpers
from ttc.analysis.alias import memory_space
from ttc.ir.memdesc import MemDescType
from ttc.ir.warp_specialize import WarpSpecializeOp, WarpSpecializePartitionsOp
from ttc.opt.passmanager import Pass

TMA_OPS = ("ttng.async_tma_copy_global_to_local", "ttng.async_tma_copy_local_to_global", "ttng.async_tma_gather",
           "ttng.async_tma_scatter")
TC_OPS = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled", "ttng.tc_gen5_commit")
BARRIER, COMMIT = "barrier", "commit"  # how an op's accesses are tracked


def _partition_index(op: Operation) -> int | None:
    """Triton's maybeGetPartitionIdx: inside a partition, the number of the region directly around `op`."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, WarpSpecializePartitionsOp):
            region = op.parent_region()
            return list(region.parent_op().regions).index(region)
        parent = parent.parent_op()
    return None


def current_thread(op: Operation) -> int:
    index = _partition_index(op)
    thread = (index if index is not None else -1) + 1
    if op.name in TMA_OPS:
        return thread + TMA_THREAD_OFFSET
    if op.name in TC_OPS:
        return thread + TC_THREAD_OFFSET
    return thread


def peers(thread: int) -> int:
    """The mask of `thread` and, for a base thread, its TMA and tensor-core peers."""
    mask = 1 << thread
    if thread < NUM_THREADS:
        mask |= 1 << (thread + TMA_THREAD_OFFSET) | 1 << (thread + TC_THREAD_OFFSET)
    return mask


def active_mask(op: Operation) -> int:
    """One bit per partition (and the default one) of the `ttg.warp_specialize` around `op`; 1 outside."""
    parts, parent = 1, op.parent_op()
    while parent is not None:
        if isinstance(parent, WarpSpecializeOp):
            parts = len(parent.partition_regions()) + 1
            break
        parent = parent.parent_op()
    return (1 << parts) - 1


@dataclass
class Effects:
    """What an op does to memory (Triton's MemEffectsOpInfo): its accesses ("R"/"W", buffer, operand name), the
    barriers it arrives on (barrier, its own predicate, count), how the accesses are tracked, its predicate."""

    tracking: str | None
    accesses: list = field(default_factory=list)
    barriers: list = field(default_factory=list)
    pred: SSAValue | None = None
    commit_kind: int | None = None
    implicit_commit: bool = False


def _shared(v: SSAValue) -> bool:
    return isinstance(v.type, MemDescType) and memory_space(v.type) == "ttg.shared_memory"


def effects_of(op: Operation) -> Effects | None:
    name = op.name
    if name == "ttng.barrier_expect":
        return Effects(BARRIER, barriers=[(op.alloc, None, 1)], pred=op.pred)
    if name in ("ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather"):
        return Effects(BARRIER, [("W", op.result, "")], [(op.barrier, None, 0)], op.pred)
    if name == "ttng.async_tma_copy_local_to_global":
        return Effects(COMMIT, [("R", op.src, "")], commit_kind=TMA_STORE, implicit_commit=True)
    if name == "ttng.async_tma_scatter":
        return Effects(None, [("R", op.src, "")])
    if name == "ttg.async_copy_global_to_local":
        return Effects(COMMIT, [("W", op.result, "")], commit_kind=ASYNC_CP)
    if name in ("ttg.local_load", "ttng.tmem_load"):
        return Effects(BARRIER, [("R", op.src, "")])
    if name in ("ttg.local_store", "ttng.tmem_store"):
        return Effects(BARRIER, [("W", op.dst, "")])
    if name in ("ttg.local_alloc", "ttng.tmem_alloc"):
        return Effects(BARRIER, [("W", op.result, "")]) if op.src is not None else None
    if name in ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled"):
        return Effects(BARRIER, [("R", op.a, "A"), ("R", op.b, "B"), ("W", op.d, "Acc")],
                       [(bar, p, 1) for bar, p in zip(op.barriers, op.barrier_preds)], op.pred)
    if name == "ttng.tc_gen5_commit":
        return Effects(BARRIER, barriers=[(op.barrier, None, 1)], pred=op.pred)
    if name == "ttng.arrive_barrier":
        return Effects(BARRIER, barriers=[(op.alloc, None, op.count.value.data)], pred=op.pred)
    if name == "ttng.warp_group_dot" and op.isAsync.value.data:
        return Effects(COMMIT, [(rw, v, n) for rw, v, n in (("R", op.a, "A"), ("R", op.b, "B")) if _shared(v)],
                       commit_kind=WGMMA, implicit_commit=True)
    return None


class _Instrumenter:
    def __init__(self, module: Operation):
        self.module = module
        self.aux = AuxData()
        self.aux.populate(module)
        self.h = Helpers(module, self.aux)

    def critical_section(self, b: Builder, ops: list[Operation], pred: SSAValue | None) -> None:
        """Put `tti.experimental_lock_acquire` before the first of `ops` and `_release` after the last."""
        if not ops:
            return
        first, last = ops[0], ops[-1]
        lock = self.aux.lock.at(first)[0]
        b.before(first).op("tti.experimental_lock_acquire", [lock, pred])
        b.after(last).op("tti.experimental_lock_release", [lock, pred])

    def run(self) -> None:
        h = self.h
        b = Builder(self.module.location)
        for op in list(self.module.walk(region_first=True)):
            inserted: list[Operation] = []
            b.listener = inserted
            thread = current_thread(op)
            base = thread % NUM_THREADS
            b.loc = op.location
            if op.name in ("ttg.local_alloc", "ttng.tmem_alloc", "ttng.wait_barrier"):
                b.after(op)  # the value exists only after an allocation; a wait's effects come after it
            else:
                b.before(op)
            self.memory_effects(b, op, thread)
            name = op.name
            if isinstance(op, WarpSpecializeOp):
                mask = 0
                for i in range(len(op.partition_regions())):
                    mask |= peers(i + 1)
                if mask:
                    for mem in (SHARED, TENSOR):
                        h.copy_write_visibility(b, thread, mask, None, mem, op)
                        h.copy_read_visibility(b, thread, mask, None, mem, op)
            elif name == "ttng.init_barrier":
                h.init_barrier_state(b, op.alloc, op.count.value.data, op)
            elif name == "ttng.wait_barrier":
                before: list[Operation] = []
                b.listener = before
                b.before(op)
                h.set_waiting(b, op.alloc, base, op.phase, op.pred, op)
                h.check_all_active_waiting(b, active_mask(op), op.pred, op)
                self.critical_section(b, before, op.pred)
                b.listener = inserted
                b.after(op)
                for mem in (SHARED, TENSOR):
                    h.transfer_visible_writes(b, op.alloc, peers(thread), op.pred, mem, op)
                    h.transfer_visible_reads(b, op.alloc, peers(thread), op.pred, mem, op)
                h.clear_waiting(b, op.alloc, base, op.pred, op)
            elif name == "ttg.async_commit_group":
                if self.aux.commits[ASYNC_CP]:
                    h.commit_accesses(b, thread, None, ASYNC_CP, op)
            elif name == "ttg.async_wait":
                h.clear_outstanding_commits_transfer_writes(b, base, peers(thread), op.num.value.data, None,
                                                            ASYNC_CP, SHARED, op)
            elif name in ("ttng.warp_group_dot_wait", "ttng.async_tma_store_wait"):
                kind = WGMMA if name == "ttng.warp_group_dot_wait" else TMA_STORE
                h.clear_outstanding_commits_transfer_reads(b, base, peers(thread), op.pendings.value.data, None,
                                                           kind, SHARED, op)
            self.critical_section(b, inserted, None)
            b.listener = None

    def memory_effects(self, b: Builder, op: Operation, thread: int) -> None:
        """Checks and updates for the op's accesses, then for the barriers it arrives on, then its commit
        (Triton's instrumentMemEffects)."""
        info = effects_of(op)
        if info is None:
            return
        h, base, pred = self.h, thread % NUM_THREADS, info.pred
        for rw, buf, operand in info.accesses:
            mem = SHARED if _shared(buf) else TENSOR
            h.verify_write_visibility(b, buf, thread, operand, pred, mem, op)
            if mem == SHARED:
                h.check_outstanding_commits(b, buf, base, "async_copy_global_to_shared", pred, mem, ASYNC_CP, op)
            if rw == "W":
                h.verify_read_visibility(b, buf, thread, operand, pred, mem, op)
                if mem == SHARED:
                    h.check_outstanding_commits(b, buf, base, "warpgroup_mma operand read", pred, mem, WGMMA, op)
                    h.check_outstanding_commits(b, buf, base, "async_copy_shared_to_global", pred, mem, TMA_STORE, op)
            if info.tracking == BARRIER and rw == "R":
                h.set_read_visibility(b, buf, peers(thread), pred, mem, op)
            elif info.tracking == BARRIER:
                h.set_write_visibility(b, buf, peers(thread), pred, mem, op)
                h.clear_write_tracking(b, buf, pred, mem, op)
                h.clear_read_visibility(b, buf, pred, mem, op)
                h.clear_read_tracking(b, buf, pred, mem, op)
            elif info.tracking == COMMIT:
                if mem != SHARED:
                    raise ConsanError(op, "commit-count tracking is only supported for shared memory")
                h.stage_access_for_commit(b, buf, base, pred, mem, info.commit_kind, op)
        for bar, bar_pred, count in info.barriers:
            p = bar_pred if pred is None else pred if bar_pred is None else b.binary("andi", bar_pred, pred)
            for mem in (SHARED, TENSOR):
                h.track_visible_writes(b, bar, thread, p, mem, op)
                h.track_visible_reads(b, bar, thread, p, mem, op)
            if count > 0:
                h.verify_barrier_arrive(b, bar, count, p, op)
                h.update_barrier_state(b, bar, count, p, op)
        if info.implicit_commit:
            h.commit_accesses(b, base, pred, info.commit_kind, op)


@dataclass(frozen=True)
class ConcurrencySanitizer(Pass):
    """Add runtime verification of asynchronous operations: instrument the module's kernel with the
    concurrency sanitizer's state and checks."""

    name = "tritoninstrument-concurrency-sanitizer"
    display = "TritonInstrumentConcurrencySanitizer"
    summary = "Add runtime verification of asynchronous operations"

    def apply(self, ctx, module) -> None:
        try:
            _Instrumenter(module).run()
        except ConsanError as e:
            raise consan_error(e) from None
