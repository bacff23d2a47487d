"""The pipeliner's lowering of MMAv5 ops (`ttng.tc_gen5_mma`, `_scaled`) in a scheduled loop (Triton's lowerMMAs,
the first step of its lowerLoop), for tritongpu-pipeline and tritongpu-test-pipeline-lower-loop.

An MMA whose accumulator is a `ttng.tmem_alloc` made before the loop and which carries `tt.self_latency` (from
tritongpu-assign-latencies; the attribute is consumed) becomes asynchronous:
- its completion signals an mbarrier of a ring of `n` (allocated, initialized for one arrival, before the loop;
  invalidated and freed after it), picked by a loop-carried index (0 first, stepped modulo n at the end of the body)
  with a loop-carried phase (0 first, flipped as the index wraps; every iteration when n = 1);
- a `ttng.wait_barrier` on that barrier and phase, its `deps` the MMA's shared operands (and scales), follows it
  at stage `MMA stage + self latency`, or right before (in a new cluster) the first to run after the MMA, in the
  order the pipelined loop runs its ops, of the `tmem_load`s of the accumulator in the body and, where an operand
  is not pipelined, the operands' defs (an in-loop `local_alloc`/`tmem_alloc` of a value becomes a buffer
  allocated before the loop and a store at its place) (one stage after the MMA where that op is scheduled before
  it); `n` = wait stage - MMA stage + 1. (The first-after-the-MMA rule is Triton's #8732, after 3.6.0: 3.6.0 took
  the earliest in the schedule, which can be an operand load before the MMA.) A `tmem_load` nested in an op of
  an earlier stage than the wait waits on its own right before it.
- when the accumulator's users in the loop span stages (first to last, one more where the first is in an earlier
  cluster, or the same cluster and earlier in the body), the accumulator gets that many TMEM buffers: a
  loop-carried buffer index (-1 first) steps at each `tmem_store` into it in the loop (kept where the store's
  predicate is false) and at each MMA (kept while its use-accumulator flag holds); each user reads the slot its
  nearest dominating step chose; stores before the loop write slot 0, loads after it the loop's final index. The
  accumulator's tokens are dropped (`ub.poison`). Without a store in the loop and with an MMA that always
  accumulates there is no point to switch buffers: an error.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, UnitAttr, i1, i32, i64
from xdsl.ir import Operation, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.fold import constant_attr, make_constant
from ttc.ir import tma, ttg
from ttc.ir.format import build_op
from ttc.ir.inserter import Inserter, set_operand_group, with_iter_args
from ttc.ir.layouts import SharedMemorySpace, SwizzledSharedEncoding
from ttc.passes.pipeliner.schedule import CoarseSchedule
from ttc.ir.tmem import TMEMAllocOp, TMEMStoreOp
from ttc.ir.types import AsyncTokenType
from ttc.ir.memdesc import MemDescType

MMA_V5 = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")
SELF_LATENCY = "tt.self_latency"


def memdesc(shape, element_type, enc, space=None) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape])
    return MemDescType(dims, element_type, enc, space or SharedMemorySpace(), IntAttr(1), dims)


def barrier_alloc(loop: scf.ForOp, n: int) -> SSAValue:
    """Triton's createBarrierAlloc: n mbarriers before the loop, each initialized for one arrival; invalidated and
    freed right after the loop."""
    enc = SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=[0])
    one_t = memdesc([1], i64, enc)
    before = Inserter(loop, loop.location)
    alloc = before.add(ttg.LocalAllocOp.build(operands=[[]], result_types=[memdesc([n, 1], i64, enc)]))
    for i in range(n):
        v = before.add(ttg.MemDescIndexOp.build(operands=[alloc, before.constant(i, i32)], result_types=[one_t]))
        before.add(tma.InitBarrierOp.build(operands=[v], properties={"count": IntegerAttr(1, i32)}))
    after = Inserter(loop.next_op, loop.location)
    for i in range(n):
        v = after.add(ttg.MemDescIndexOp.build(operands=[alloc, after.constant(i, i32)], result_types=[one_t]))
        after.add(tma.InvalBarrierOp.build(operands=[v]))
    after.add(ttg.LocalDeallocOp.build(operands=[alloc]))
    return alloc


class _At:
    """Builds ops right before an anchor, each joining the schedule at `at` (a stage and cluster) when given."""

    def __init__(self, anchor: Operation, schedule: CoarseSchedule, at, loc=None):
        self.em, self.schedule, self.at = Inserter(anchor, loc or anchor.location), schedule, at

    def add(self, op: Operation) -> SSAValue:
        v = self.em.add(op)
        if self.at is not None:
            self.schedule.insert(op, *self.at)
        return v

    def index(self, alloc: SSAValue, idx: SSAValue) -> SSAValue:
        """Triton's createSingleBufferView: slot `idx` of a multi-buffer."""
        t = alloc.type
        return self.add(ttg.MemDescIndexOp.build(operands=[alloc, idx], result_types=[MemDescType(
            ArrayAttr(t.shape.data[1:]), t.element_type, t.encoding, t.memory_space, t.mutable,
            ArrayAttr(t.shape.data[1:]))]))

    def increment_modulo(self, counter, modulus, zero, one) -> tuple[SSAValue, SSAValue]:
        add = self.add(arith.AddiOp(counter, one))
        wrap = self.add(arith.CmpiOp(add, modulus, "sge"))
        return self.add(arith.SelectOp(wrap, zero, add)), wrap


def _top(op: Operation, loop: scf.ForOp) -> Operation | None:
    return loop.body.block.find_ancestor_op_in_block(op)


def _in_loop(user: Operation, loop: scf.ForOp) -> bool:
    p = user.parent_op()
    return p is not None and loop.is_ancestor(p)


def _users(v: SSAValue) -> list[Operation]:
    out: dict[Operation, None] = {}
    for u in v.uses:
        out.setdefault(u.operation, None)
    return list(out)


def _drop_token(op: Operation, dep_name: str, poison: SSAValue) -> None:
    set_operand_group(op, dep_name, [])
    tok = getattr(op, "token", None)
    if tok is not None:
        tok.replace_all_uses_with(poison)


def _replace_dominated(dom: Operation, new: SSAValue, old: SSAValue) -> None:
    from ttc.passes.hoist_tmem_alloc import properly_dominates
    if new is old:
        return
    for use in list(old.uses):
        if properly_dominates(dom, use.operation):
            use.operation.operands[use.index] = new


def hoist_buffer_out_of_loop(loop: scf.ForOp, op: Operation, schedule: CoarseSchedule) -> Operation | None:
    """Triton's hoistBufferOutOfLoop: an in-loop `tmem_alloc` / `local_alloc` of a value becomes a mutable buffer
    allocated before the loop and a store of the value into it at the alloc's place; the store, or None when `op` is
    no such alloc."""
    from ttc.passes.pipeliner.views import use_view
    if op.name not in ("ttng.tmem_alloc", "ttg.local_alloc") or not loop.is_ancestor(op):
        return None
    t = op.results[0].type
    mutable = MemDescType(t.shape, t.element_type, t.encoding, t.memory_space, IntAttr(1), t.alloc_shape)
    before = Inserter(loop, op.location)
    at = _At(op, schedule, schedule.at.get(op))
    src = op.operands[0] if op.operands else None
    if op.name == "ttng.tmem_alloc":
        new = before.add(build_op(TMEMAllocOp, [[]], [mutable, [r.type for r in op.results[1:]]]))
        store = TMEMStoreOp.build(operands=[new, [], src, before.constant(1, i1)], result_types=[[]])
    else:
        new = before.add(ttg.LocalAllocOp.build(operands=[[]], result_types=[mutable]))
        store = ttg.LocalStoreOp.build(operands=[src, new])
    store.location = op.location
    op.parent.insert_op_after(store, op)
    if at.at is not None:
        schedule.insert(store, *at.at)
    schedule.at.pop(op, None)
    use_view(op, new)
    return store


def _wait_and_barriers(loop: scf.ForOp, schedule: CoarseSchedule, mma: Operation, self_latency: int,
                       alloc: Operation, phase: SSAValue, bar_arg: SSAValue) -> None:
    """Triton's createBarrierAndWaitOps."""
    from ttc.passes.assign_latencies import mma_operand_state
    body = loop.body.block
    m_stage, m_cluster = schedule.at[mma]
    candidates = [u for u in _users(alloc.results[0]) if u.name == "ttng.tmem_load" and u.parent is mma.parent]
    pipelineable, determined, bad = mma_operand_state(
        mma, loop, lambda op: op in schedule.at and m_stage > schedule.at[op][0])
    for d in bad:
        store = hoist_buffer_out_of_loop(loop, d, schedule)
        if not pipelineable and determined:
            candidates.append(store or d)
    sync = schedule.find_next(loop, mma, lambda op: op in candidates)
    wait_stage, wait_cluster = m_stage + self_latency, m_cluster
    if sync is not None and determined:
        wait_stage = m_stage + 1 if schedule.is_op_before(sync, mma) else schedule.at[sync][0]
        wait_cluster = schedule.new_before(schedule.split_cluster_before(sync, loop))
    n = wait_stage - m_stage + 1
    m_stage, m_cluster = schedule.at[mma]  # (its cluster may have been split)

    bars = barrier_alloc(loop, n)
    at_mma = _At(mma, schedule, (m_stage, m_cluster))  # its constants too, as Triton's builder makes them
    v_true = at_mma.add(arith.ConstantOp(IntegerAttr(1, i1), i1))
    zero, one, n_val = (at_mma.add(arith.ConstantOp(IntegerAttr(k, i32), i32)) for k in (0, 1, n))
    bar_idx = bar_arg if n > 1 else zero
    bar = at_mma.index(bars, bar_idx)
    set_operand_group(mma, "barriers", [*mma.barriers, bar])
    set_operand_group(mma, "barrier_preds", [*mma.barrier_preds, v_true])
    mma.properties["is_async"] = UnitAttr()
    deps = [mma.a, mma.b] + ([mma.a_scale, mma.b_scale] if mma.name == "ttng.tc_gen5_mma_scaled" else [])
    wait = tma.WaitBarrierOp.build(operands=[bar, phase, [], deps])
    wait.location = mma.location
    mma.parent.insert_op_after(wait, mma)
    schedule.insert(wait, wait_stage, wait_cluster)
    for u in _users(alloc.results[0]):  # loads under ops of earlier stages wait themselves
        if u.name != "ttng.tmem_load" or u.parent is mma.parent or (top := _top(u, loop)) is None:
            continue
        if schedule.at[top][0] < wait_stage:
            w = tma.WaitBarrierOp.build(operands=[bar, phase, [], deps])
            w.location = mma.location
            u.parent.insert_op_before(w, u)
    end = _At(body.last_op, schedule, (m_stage, m_cluster), mma.location)
    new_phase = end.add(arith.XOrIOp(phase, one))
    new_idx = bar_idx
    if n > 1:
        new_idx, wrap = end.increment_modulo(bar_idx, n_val, zero, one)
        new_phase = end.add(arith.SelectOp(wrap, new_phase, phase))
    y = body.last_op
    y.operands = [new_phase if v is phase else new_idx if v is bar_idx else v for v in y.operands]


def _multibuffer_tmem(loop: scf.ForOp, schedule: CoarseSchedule, alloc: Operation, buf_pos: int, n: int) -> None:
    """Triton's multibufferTensorMemory: `n` TMEM buffers for the accumulator, the slot switched at each store into
    it in the loop and at each MMA that does not accumulate."""
    from ttc.passes.hoist_tmem_alloc import properly_dominates
    body = loop.body.block
    buf = body.args[buf_pos + 1]
    defs: list[tuple[Operation | None, SSAValue]] = [(None, buf)]

    def current(op: Operation) -> SSAValue:
        for d, v in reversed(defs):
            if d is None or properly_dominates(d, op):
                return v
        return buf

    t = alloc.results[0].type
    outside = Inserter(alloc, alloc.location)
    new = outside.add(build_op(TMEMAllocOp, [[]], [memdesc([n, *t.get_shape()], t.element_type, t.encoding,
                                                             t.memory_space), [AsyncTokenType()]])).owner
    n_val, zero, one = outside.constant(n, i32), outside.constant(0, i32), outside.constant(1, i32)
    from xdsl.dialects.ub import PoisonAttr
    poison = Inserter(loop, loop.location).add(make_constant(PoisonAttr(), AsyncTokenType()))
    valid = False
    # last user first, as Triton's walk of the alloc's use list meets them in IR it parsed
    users = [o for o in alloc.parent_op().walk() if o in set(_users(alloc.results[0]))][::-1]
    for user in users:
        at = _At(user, schedule, schedule.at.get(user), loop.location)
        if user.name == "ttng.tmem_store":
            _drop_token(user, "dep", poison)
            if loop.is_ancestor(user):
                valid = True
                cur = current(user)
                idx, _ = at.increment_modulo(cur, n_val, zero, one)
                if user.pred is not None:
                    idx = at.add(arith.SelectOp(user.pred, idx, cur))
                _replace_dominated(user, idx, cur)
                defs.append((user, idx))
                set_operand_group(user, "dst", [at.index(new.results[0], idx)])
            else:
                set_operand_group(user, "dst", [at.index(new.results[0], zero)])
        elif user.name == "ttng.tmem_load":
            _drop_token(user, "dep", poison)
            idx = current(user) if loop.is_ancestor(user) else loop.results[buf_pos]
            set_operand_group(user, "src", [at.index(new.results[0], idx)])
        elif user.name in MMA_V5:
            _drop_token(user, "acc_dep", poison)
            flag = constant_attr(user.useD)
            valid = not (isinstance(flag, IntegerAttr) and flag.value.data != 0)
            cur = current(user)
            inc, _ = at.increment_modulo(cur, n_val, zero, one)
            idx = at.add(arith.SelectOp(user.useD, cur, inc))
            _replace_dominated(user, idx, cur)
            defs.append((user, idx))
            set_operand_group(user, "d", [at.index(new.results[0], idx)])
        else:
            raise CompileError(at_op(user, None, f"unsupported user of the accumulator: '{user.name}'"))
    if not valid:
        raise CompileError(at_op(alloc, None, "trying to multibuffer TMEM while there is no store to the accumulator, "
                                              "and the mma uses the accumulator all the time"))
    if alloc.token is not None:
        alloc.token.replace_all_uses_with(new.token)
    alloc.detach()
    alloc.erase()
    last = defs[-1][1]
    _replace_dominated(last.owner, last, buf)


def _lower_mma(mma: Operation, loop: scf.ForOp, schedule: CoarseSchedule) -> scf.ForOp:
    """Triton's lowerMMA."""
    alloc = mma.d.owner
    if not isinstance(alloc, Operation) or alloc.name != "ttng.tmem_alloc":
        return loop
    lat = mma.attributes.pop(SELF_LATENCY, None)
    if not isinstance(lat, IntegerAttr) or lat.value.data == 0:
        return loop
    first = last = None
    for u in _users(alloc.results[0]):
        if not _in_loop(u, loop):
            continue
        top = _top(u, loop)
        first = top if first is None or schedule.is_op_before(top, first) else first
        last = top if last is None or schedule.is_op_before(last, top) else last
    stages = schedule.at[last][0] - schedule.at[first][0]
    if schedule.before(schedule.at[first][1], schedule.at[last][1]) or (
            schedule.at[first][1] is schedule.at[last][1] and first.is_before_in_block(last)):
        stages += 1
    before = Inserter(loop, loop.location)
    minus_one, zero = before.constant(-1, i32), before.constant(0, i32)
    inits = [zero, zero] + ([minus_one] if stages > 1 else [])
    pos = len(loop.iter_args)
    loop = with_iter_args(loop, inits, inits)
    body = loop.body.block
    args = body.args[pos + 1:]
    y = body.last_op
    y.operands = [*y.operands[:pos], *args]
    _wait_and_barriers(loop, schedule, mma, lat.value.data, alloc, args[0], args[1])
    if stages > 1:
        _multibuffer_tmem(loop, schedule, alloc, pos + 2, stages)
    return loop


def lower_mmas(loop: scf.ForOp, schedule: CoarseSchedule) -> scf.ForOp:
    """Triton's lowerMMAs: each MMAv5 of the loop body, in order; the (rebuilt) loop."""
    for mma in [op for op in loop.body.block.ops if op.name in MMA_V5]:
        loop = _lower_mma(mma, loop, schedule)
    return loop
