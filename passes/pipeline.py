"""tritongpu-pipeline: software pipelining (Triton's TritonGPUPipeline), driven by the schedule that
tritongpu-assign-latencies and tritongpu-schedule-loops wrote on each loop (passes/pipeliner/schedule.py).

For each scheduled loop, as Triton 3.6 does:
1. Lower the loads (lowerLoads): a `tt.load` whose first user is k > 0 stages after it (users of its
   `ttg.local_alloc` count, through `memdesc_trans`; results at least 4 contiguous bytes per thread in the
   buffer's layout) gets a multi-buffer of k shared slots (k + 1 when the alloc feeds `ttng.warp_group_dot`:
   one wgmma stays in flight), `ttg.local_alloc` before the loop and `ttg.local_dealloc` after it, in the layout
   of its local_alloc users, else the one its dot operand users want, else an unswizzled one. Loads with the
   same k share an insert and an extract index, loop-carried from -1 and advanced modulo k at the top of the
   body. The load becomes, at its stage: `memdesc_index` of the insert slot, `async_copy_global_to_local`
   (its mask and other; `contiguity` = elements per copy), `async_commit_group`; at its first user's stage:
   `async_wait` on that group, `memdesc_index` of the extract slot, which local_allocs of the buffer's layout are
   replaced by (their memdesc_trans users follow), and a `local_load` for other users. The new ops take the
   stage and cluster of what they serve; an `async_wait {num = 0}` follows the loop.
2. Expand (passes/pipeliner/expander.py): ops in cluster order, prologue of max-stage parts, kernel loop over
   the original bounds; side-effecting ops of early stages are predicated (a copy's or load's mask ANDed with
   the splat predicate, an `scf.if` condition ANDed; waits, commits, local loads, fences and ops of
   unregistered dialects run as they are).
3. On sm90, `ttng.warp_group_dot`s become asynchronous (asyncLaunchDots, below).
4. Each `async_wait`'s `num` becomes the fewest commit groups issued after any group it waits for, on every
   path to it (through the loop's back edge and its entry); consecutive waits in a block merge into one.
(Copies whose source layout is wider than their swizzled buffer's vector are clipped later, by
tritongpu-coalesce-async-copy.)

Loops with a schedule whose early stages hold an op that cannot be predicated, or with an op that has no stage,
are left alone, with a remark.
A loop whose own `tt.num_stages` is 2 or more and that is not pipelined gets a remark saying why
(MLIR_ENABLE_DIAGNOSTICS=remarks).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, TensorType, f32, i1, i32, i64
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.traits import IsolatedFromAbove, is_side_effect_free

from ttc.analysis.axis_info import AxisInfoAnalysis, reused
from ttc.ir.diagnostics import at_op, emit
from ttc.ir.fold import is_zero
from ttc.opt.greedy_rewrite import apply_xdsl_patterns
from ttc.ir import tma, ttg
from ttc.ir.inserter import Inserter, set_operand_group, with_iter_args
from ttc.ir.layouts import NvidiaMmaEncoding, SwizzledSharedEncoding
from ttc.passes.pipeliner.schedule import CoarseSchedule, num_stages_of, strip
from ttc.ir.std import SelectOp
from ttc.passes.pipeliner.expander import expand, schedule_is_valid
from ttc.passes.pipeliner.descriptors import is_host_side, multibuffer_descriptors
from ttc.passes.pipeliner.mma import barrier_alloc, lower_mmas
from ttc.passes.pipeliner.loads import copy_vec_bytes, copy_width, is_small_load, shared_encoding
from ttc.passes.pipeliner.rs_dot_split import split_rs_dot
from ttc.passes.pipeliner.views import mutable_memdesc, use_view
from ttc.ir.layout_utils import cvt_dims, num_warps_of, threads_per_warp_of
from ttc.ir.layouts import default_blocked
from ttc.ir.tt import SplatOp, UnsplatOp
from ttc.ir.types import AsyncTokenType, bitwidth, elt, encoding, shape_of
from ttc.ir.memdesc import MemDescType
from ttc.opt.passmanager import Pass, option
from ttc.passes.schedule_loops import UNSAFE, schedule_dependencies
from ttc.passes.tma_lowering import encoding_for_shape

LOAD_OPS = ("tt.load", "tt.descriptor_load", "tt.descriptor_gather")
TMA_LOADS = ("tt.descriptor_load", "tt.descriptor_gather")


def top_level_users(op: Operation, loop: scf.ForOp) -> list[Operation]:
    """Triton's getTopLevelUsersInLoop: the body ops using `op`'s results, following loop-carried values and
    memdesc views (each once, in discovery order)."""
    body = loop.body.block
    out: dict[Operation, None] = {}
    work = [u for r in op.results for u in r.uses]
    seen = set()
    while work:
        use = work.pop()
        user = use.operation
        if user is body.last_op:
            arg = body.args[use.index + 1]
            if arg not in seen:
                seen.add(arg)
                work.extend(arg.uses)
            continue
        if user.name in ("ttg.memdesc_trans", "ttg.memdesc_index", "ttg.memdesc_subslice"):
            work.extend(u for r in user.results for u in r.uses)
            continue
        top = body.find_ancestor_op_in_block(user)
        if top is not None:
            out.setdefault(top, None)
    return list(out)


def _users_with_allocs(op: Operation, loop: scf.ForOp) -> list[Operation]:
    users = top_level_users(op, loop)
    if op.name in LOAD_OPS:
        for u in list(users):
            if u.name == "ttg.local_alloc":
                users += [x for x in top_level_users(u, loop) if x not in users]
    return users


def def_use_stage_diff(op: Operation, loop: scf.ForOp, schedule: CoarseSchedule) -> int:
    users = _users_with_allocs(op, loop)
    if not users:
        return 0
    pos = {c: i for i, c in enumerate(schedule.clusters)}
    def_cluster = pos[schedule.at[op][1]]
    # a user in a later cluster than the load (an scf.if pushed to the epilogue cluster) reads the buffer after
    # the next stage's copy into it has started: it counts one stage later (one more buffer)
    use = min(schedule.at[u][0] + (pos[schedule.at[u][1]] > def_cluster) for u in users)
    waits = [schedule.at[u][0] for u in users if u.name == "ttng.wait_barrier"]
    if waits:
        use = max([use, *waits])
    return use - schedule.at[op][0]


def first_use(ops: list[Operation], loop: scf.ForOp, schedule: CoarseSchedule) -> Operation:
    best = None
    for op in ops:
        for u in top_level_users(op, loop):
            if best is None or schedule.at[u][0] < schedule.at[best][0] or (
                    schedule.at[u][0] == schedule.at[best][0] and schedule.before(schedule.at[u][1], schedule.at[best][1])):
                best = u
    return best


_VIEWS = ("ttg.memdesc_trans", "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_reshape",
          "ttg.memdesc_reinterpret")


def _feeds_wgmma(load: Operation) -> bool:
    """Triton's loadRequiresAdditionalBuffer: the load stays in shared memory (`_feeds_shared`) and a
    warp_group_dot reads its local_alloc (through memdesc views)."""
    if not _feeds_shared(load):
        return False
    work = [next(iter(load.results[0].uses)).operation]
    while work:
        for use in work.pop().results[0].uses:
            if use.operation.name in _VIEWS:
                work.append(use.operation)
            elif use.operation.name == "ttng.warp_group_dot":
                return True
    return False


def _has_nonzero_other(load: Operation) -> bool:
    return load.name == "tt.load" and load.other is not None and not is_zero(load.other)


class _Staged:
    """An Inserter whose ops also join the schedule at a stage and cluster."""

    def __init__(self, anchor: Operation, loc, schedule: CoarseSchedule, at):
        self.em, self.schedule, self.at = Inserter(anchor, loc), schedule, at

    def add(self, op: Operation, loc=None):
        v = self.em.add(op, loc)
        if self.at is not None:
            self.schedule.insert(op, *self.at)
        return v


def _increment_modulo(em, counter, modulus, zero, one):
    """counter + 1, wrapped to 0 at `modulus`: (value, wrapped condition)."""
    add = em.add(arith.AddiOp(counter, one))
    wrap = em.add(arith.CmpiOp(add, modulus, "sge"))
    return em.add(arith.SelectOp(wrap, zero, add)), wrap


def _create_async_copy(loop, load, alloc, insert_idx, extract_idx, schedule, width) -> None:
    user = first_use([load], loop, schedule)
    staged = _Staged(load, load.location, schedule, schedule.at[load])
    sub = mutable_memdesc(alloc.type.get_shape()[1:], alloc.type.element_type, alloc.type.encoding)
    view = staged.add(ttg.MemDescIndexOp.build(operands=[alloc, insert_idx], result_types=[sub]))
    other = [load.other] if load.other is not None else []
    copy = staged.add(ttg.AsyncCopyGlobalToLocalOp.build(
        operands=[load.ptr, view, [load.mask] if load.mask is not None else [], other],
        result_types=[AsyncTokenType()],
        properties={k: load.properties[k] for k in ("cache", "evict", "isVolatile") if k in load.properties},
        attributes={"contiguity": IntegerAttr(width, i32)} if width > 1 else {}))
    commit = staged.add(ttg.AsyncCommitGroupOp.build(operands=[[copy]], result_types=[AsyncTokenType()]))
    staged.at = schedule.at[user]
    wait = staged.add(ttg.AsyncWaitOp.build(operands=[[commit]], result_types=[AsyncTokenType()],
                                            properties={"num": IntegerAttr(0, i32)}))
    view_load = staged.add(ttg.MemDescIndexOp.build(operands=[alloc, extract_idx], result_types=[sub]))
    if not _has_nonzero_other(load):
        for use in list(load.results[0].uses):
            u = use.operation
            if u.name == "ttg.local_alloc" and u.result.type.encoding == alloc.type.encoding:
                use_view(u, view_load)
    if load.results[0].first_use is not None:
        local = staged.add(ttg.LocalLoadOp.build(operands=[view_load, [wait]], result_types=[load.results[0].type]))
        result = local
        if _has_nonzero_other(load):
            result = staged.add(SelectOp.create(operands=[load.mask, local, load.other], result_types=[local.type]))
        load.results[0].replace_all_uses_with(result)
    schedule.at.pop(load, None)
    load.detach()
    load.erase()


def _create_tma_load(loop, load, alloc, insert_idx, extract_idx, barrier, wait, schedule) -> None:
    """Triton's createTMAAsyncLoad: the descriptor load becomes a TMA copy into the insert slot (signalling
    `barrier`); after the group's `wait_barrier`, the extract slot replaces its local_alloc users (local_load
    for the others)."""
    user = first_use([load], loop, schedule)
    staged = _Staged(load, load.location, schedule, schedule.at[load])
    sub = mutable_memdesc(alloc.type.get_shape()[1:], alloc.type.element_type, alloc.type.encoding)
    view = staged.add(ttg.MemDescIndexOp.build(operands=[alloc, insert_idx], result_types=[sub]))
    true = staged.add(arith.ConstantOp(IntegerAttr(1, i1), i1))
    if load.name == "tt.descriptor_gather":  # Triton's createTMAAsyncGather
        staged.add(tma.AsyncTMAGatherOp.build(operands=[load.desc, load.x_offsets, load.y_offset, barrier, view,
                                                        true]))
    else:
        staged.add(tma.AsyncTMACopyGlobalToLocalOp.build(
            operands=[load.desc, list(load.indices), barrier, view, true],
            properties={"cache": load.cache, "evict": load.evict}))
    view_load = ttg.MemDescIndexOp.build(operands=[alloc, extract_idx], result_types=[sub])
    view_load.location = load.location
    wait.parent.insert_op_after(view_load, wait)
    schedule.insert(view_load, *schedule.at[user])
    for use in list(load.results[0].uses):
        u = use.operation
        if u.name == "ttg.local_alloc" and u.result.type.encoding == alloc.type.encoding:
            use_view(u, view_load.results[0])
    if load.results[0].first_use is not None:
        local = ttg.LocalLoadOp.build(operands=[view_load.results[0], []], result_types=[load.results[0].type])
        local.location = load.location
        view_load.parent.insert_op_after(local, view_load)
        schedule.insert(local, *schedule.at[user])
        load.results[0].replace_all_uses_with(local.results[0])
    schedule.at.pop(load, None)
    load.detach()
    load.erase()


def _tma_barriers(loop, loads, index, schedule) -> dict:
    """Triton's createTMABarrierAndWait: consecutive TMA loads with the same buffer count and stage/cluster, none
    using another, share an mbarrier: `barrier_expect` of their bytes before the first, `wait_barrier` on the
    extract slot's barrier with the group's phase after the last (at the first user's stage). The loads'
    (barrier view, wait op)."""
    diff = {ld: n for ld, n, _ in loads}
    out, visited = {}, set()
    for load, n, _ in loads:
        if load.name not in TMA_LOADS or load in visited:
            continue
        body = load.parent
        users, group = set(), []

        def add(ld):
            group.append(ld)
            visited.add(ld)
            for use in ld.results[0].uses:
                u = use.operation
                if _feeds_shared(ld) and u.parent is body:
                    users.update(x.operation for x in u.result.uses)
                    continue
                top = body.find_ancestor_op_in_block(u)
                if top is not None:
                    users.add(top)

        add(load)
        nxt = load.next_op
        while nxt is not None:
            if nxt in users or nxt in visited:
                break
            if nxt.name in TMA_LOADS and nxt in diff:
                if diff[nxt] != n:
                    break
                if schedule.at[group[0]] == schedule.at[nxt]:
                    add(nxt)
            nxt = nxt.next_op
        size = sum(prod(shape_of(ld.results[0].type)) * bitwidth(elt(ld.results[0].type)) // 8 for ld in group)
        alloc = barrier_alloc(loop, n)
        insert, extract, phase = index[n]
        one_t = mutable_memdesc([1], i64, alloc.type.encoding)
        staged = _Staged(group[0], loop.location, schedule, schedule.at[group[0]])
        bar = staged.add(ttg.MemDescIndexOp.build(operands=[alloc, insert], result_types=[one_t]))
        true = staged.add(arith.ConstantOp(IntegerAttr(1, i1), i1))
        staged.add(tma.BarrierExpectOp.build(operands=[bar, true], properties={"size": IntegerAttr(size, i32)}))
        at = schedule.at[first_use(group, loop, schedule)]
        view = ttg.MemDescIndexOp.build(operands=[alloc, extract], result_types=[one_t])
        wait = tma.WaitBarrierOp.build(operands=[view, phase, [], []])
        for o in (view, wait):
            o.location = loop.location
            schedule.insert(o, *at)
        group[-1].parent.insert_op_after(view, group[-1])
        view.parent.insert_op_after(wait, view)
        for ld in group:
            out[ld] = (bar, wait)
    return out


def _desc_encoding(load: Operation) -> Attribute:
    """Triton's getEncodingFromDescriptor: the descriptor's shared layout, for the loaded shape where a
    rank-reducing load drops dimensions."""
    enc, shape = load.desc.type.encoding, shape_of(load.results[0].type)
    return enc if len(shape) == len(shape_of(load.desc.type.block_type)) else encoding_for_shape(enc, shape)


def _feeds_shared(load: Operation) -> bool:
    """Not Triton's mustLoadToRegisters: the load's one use is a local_alloc (of the descriptor's layout, for a
    descriptor load), and no nonzero `other` needs registers."""
    uses = list(load.results[0].uses)
    if _has_nonzero_other(load) or len(uses) != 1 or uses[0].operation.name != "ttg.local_alloc":
        return False
    return load.name == "tt.load" or _desc_encoding(load) == uses[0].operation.result.type.encoding


def _scalar_to_tensor_load(load: Operation, loop: scf.ForOp, schedule: CoarseSchedule) -> Operation:
    """Triton's convertScalarToTensorLoad: the scalar load becomes a load of a 1-element tensor (default blocked
    layout), its pointer, mask and other splat before it at its stage, its value `tt.unsplat` after it at the
    stage of its first use; returns the new load."""
    enc = default_blocked([1], num_warps_of(load), threads_per_warp_of(load))
    user = first_use([load], loop, schedule)
    staged = _Staged(load, load.location, schedule, schedule.at[load])
    groups = []
    for name, _ in type(load).get_irdl_definition().operands:
        v = getattr(load, name)
        v = [] if v is None else list(v) if isinstance(v, tuple) else [v]
        if name in ("ptr", "mask", "other"):
            v = [staged.add(SplatOp.build(operands=[x], result_types=[TensorType(x.type, [1], enc)])) for x in v]
        groups.append(v)
    scalar_t = load.results[0].type
    new = staged.add(type(load).build(operands=groups, result_types=[TensorType(scalar_t, [1], enc)],
                                      properties={k: v for k, v in load.properties.items()
                                                  if k != "operandSegmentSizes"},
                                      attributes=dict(load.attributes))).owner
    staged.at = schedule.at[user]
    load.results[0].replace_all_uses_with(staged.add(UnsplatOp.build(operands=[new.results[0]],
                                                                      result_types=[scalar_t])))
    schedule.at.pop(load)
    load.detach()
    load.erase()
    return new


def lower_loads(loop: scf.ForOp, schedule: CoarseSchedule, axis: AxisInfoAnalysis) -> scf.ForOp:
    """Triton's lowerLoads: cp.async for pointer loads, TMA with mbarriers for descriptor loads."""
    body = loop.body.block
    loads, scalars = [], []
    for op in list(body.ops)[:-1]:
        if op.name not in LOAD_OPS:
            continue
        diff = def_use_stage_diff(op, loop, schedule)
        if diff == 0:
            continue
        if not isinstance(op.results[0].type, TensorType):  # a scalar load of 32 bits or more: a 1-element copy
            if op.name == "tt.load" and bitwidth(op.results[0].type) >= 32:
                scalars.append(op)
                loads.append([op, diff + (1 if _feeds_wgmma(op) else 0),
                              SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=[0])])
            continue
        if op.name in TMA_LOADS:
            loads.append([op, diff + (1 if _feeds_wgmma(op) else 0), _desc_encoding(op)])
            continue
        enc = shared_encoding(op)
        if not is_small_load(op, axis) and copy_vec_bytes(op, enc) >= 4:
            loads.append([op, diff + (1 if _feeds_wgmma(op) else 0), enc])
    # the elements one copy moves (Triton's contiguity, before scalar loads become 1-element ones)
    width = {op: copy_width(op, axis) if op.name == "tt.load" and op not in scalars else 1 for op, _, _ in loads}
    for entry in loads:
        if entry[0] in scalars:
            width[new := _scalar_to_tensor_load(entry[0], loop, schedule)] = 1
            entry[0] = new
    if not loads:
        return loop
    before = Inserter(loop, loop.location)
    allocs = []
    for load, n, enc in loads:
        shape = shape_of(load.results[0].type)
        allocs.append(before.add(ttg.LocalAllocOp.build(
            operands=[[]], result_types=[mutable_memdesc([n, *shape], elt(load.results[0].type), enc)]), load.location))
    for a in allocs:  # each right after the loop, as Triton's createAlloc puts them (the last first)
        Inserter(loop.next_op, loop.location).add(ttg.LocalDeallocOp.build(operands=[a]))
    groups: dict[int, bool] = {}
    for load, n, _ in loads:
        groups[n] = groups.get(n, False) or load.name in TMA_LOADS
    region = loop.parent_region()  # -1 goes to the start of the function (or warp-specialize partition), where
    while region.parent_op() is not None and not region.parent_op().has_trait(IsolatedFromAbove):  # MLIR's
        region = region.parent_op().parent_region()  # constant folder materializes Triton's pipeliner's -1
    entry = region.blocks.first
    minus_one = Inserter(entry.first_op, loop.location).constant(-1, i32)
    zero, one = before.constant(0, i32), before.constant(1, i32)
    n_args = len(loop.iter_args)
    inits = []
    for n, has_tma in groups.items():
        inits += [minus_one, minus_one] + ([zero] if has_tma else [])
    loop = with_iter_args(loop, inits, inits)  # yields patched below
    body = loop.body.block
    args = list(body.args[1 + n_args:])
    index, pos = {}, 0
    for n, has_tma in groups.items():
        top = Inserter(body.first_op, loop.location)  # each group at the top of the body (the last one first)
        modulus = top.constant(n, i32)
        insert, _ = _increment_modulo(top, args[pos], modulus, zero, one)
        extract, wrapped = _increment_modulo(top, args[pos + 1], modulus, zero, one)
        phase = None
        if has_tma:
            flipped = top.add(arith.XOrIOp(args[pos + 2], one))
            phase = top.add(arith.SelectOp(wrapped, flipped, args[pos + 2]))
        index[n] = (insert, extract, phase)
        pos += 3 if has_tma else 2
    barriers = _tma_barriers(loop, loads, index, schedule)
    for (load, n, _), alloc in zip(loads, allocs):
        insert, extract, _ = index[n]
        if load.name in TMA_LOADS:
            _create_tma_load(loop, load, alloc, insert, extract, *barriers[load], schedule)
        else:
            _create_async_copy(loop, load, alloc, insert, extract, schedule, width[load])
    yield_op = body.last_op
    operands, pos = list(yield_op.operands), n_args
    for n, has_tma in groups.items():
        new = [v for v in index[n] if v is not None]
        operands[pos:pos + len(new)] = new
        pos += len(new)
    yield_op.operands = operands
    schedule_dependencies(loop, schedule)
    if any(ld.name == "tt.load" for ld, _, _ in loads):
        Inserter(loop.next_op, loop.location).add(ttg.AsyncWaitOp.build(
            operands=[[]], result_types=[AsyncTokenType()], properties={"num": IntegerAttr(0, i32)}))
    return loop


_RUN_AS_IS = ("ttg.async_commit_group", "ttg.async_wait", "ttng.fence_async_shared", "ttg.local_load",
              "ttg.local_store", "llvm.intr.assume", "ttng.tmem_alloc", "ttng.tmem_load")


def _pred_mask(em: Inserter, like: Attribute, current: SSAValue | None, pred: SSAValue) -> SSAValue:
    """Triton's getPredMask: the predicate, splat to `like`'s shape for tensors, ANDed with `current`."""
    mask = pred
    if isinstance(like, TensorType):
        mask = em.add(SplatOp.build(operands=[pred], result_types=[TensorType(i1, like.get_shape(), like.encoding)]),
                      pred.owner.location if isinstance(pred.owner, Operation) else None)
    if current is not None:
        mask = em.add(arith.AndIOp(mask, current))
    return mask


_MASKED = ("tt.load", "tt.store", "ttg.async_copy_global_to_local", "tt.atomic_rmw")
_PREDICATED = ("ttng.async_tma_copy_global_to_local", "ttng.barrier_expect", "ttng.async_tma_gather", "ttng.tmem_store",
               "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")
_OPT_PREDICATED = ("ttng.wait_barrier", "ttng.arrive_barrier", "ttng.tc_gen5_commit")  # an optional predicate


def can_predicate(op: Operation) -> bool:
    return (is_side_effect_free(op) or op.name in _RUN_AS_IS or isinstance(op, UnregisteredOp) or op.name in _MASKED or op.name in _PREDICATED
            or op.name in _OPT_PREDICATED or isinstance(op, scf.IfOp))


def predicate(op: Operation, pred: SSAValue) -> Operation:
    """Triton's predicateOp for the ops the pipeliner emits in early stages: the op itself (maybe rebuilt with a
    mask), run only where `pred` holds."""
    if is_side_effect_free(op) or op.name in _RUN_AS_IS or isinstance(op, UnregisteredOp):
        return op  # (Triton lets ops of unregistered dialects run unpredicated, for lit tests)
    c = pred.owner
    if isinstance(c, arith.ConstantOp) and isinstance(c.value, IntegerAttr) and c.value.value.data != 0:
        return op
    em = Inserter(op, op.location)
    if isinstance(op, scf.IfOp):
        op.operands = [_pred_mask(em, op.cond.type, op.cond, pred), *op.operands[1:]]
        return op
    if op.name in _PREDICATED or op.name in _OPT_PREDICATED:
        set_operand_group(op, "pred", [_pred_mask(em, i1, op.pred, pred)])
        return op
    if op.name not in _MASKED:
        raise ValueError(f"cannot predicate {op.name}")
    mask = _pred_mask(em, op.operands[0].type, op.mask, pred)
    if op.mask is not None:
        op.operands = [mask if v is op.mask else v for v in op.operands]
        return op
    groups = []
    for name, _ in type(op).get_irdl_definition().operands:
        v = mask if name == "mask" else getattr(op, name)
        groups.append(list(v) if isinstance(v, tuple) else [] if v is None else [v])
    new = type(op).build(operands=groups, result_types=[r.type for r in op.results],
                         properties={k: v for k, v in op.properties.items() if k != "operandSegmentSizes"},
                         attributes=dict(op.attributes))
    new.location = op.location
    op.parent.insert_op_before(new, op)
    for a, b in zip(op.results, new.results):
        a.replace_all_uses_with(b)
    op.detach()
    op.erase()
    return new


def expand_loop(loop: scf.ForOp, schedule: CoarseSchedule) -> scf.ForOp:
    order = [(op, stage) for op, stage, _ in schedule.ops_in_order(loop)]
    return expand(loop, order, predicate, peel=_peels_epilogue(loop, schedule))


def _peels_epilogue(loop: scf.ForOp, schedule: CoarseSchedule) -> bool:
    """Triton's custom epilogue peeling heuristic: an MMAv5 loop with a barrier wait in its last stage, not in a
    warp-specialize partition and not kept for the predicate-stage test hook."""
    ops = list(loop.body.block.ops)[:-1]
    last = schedule.num_stages - 1
    p = loop.parent_op()
    while p is not None and p.name != "ttg.warp_specialize":
        p = p.parent_op()
    return (any(op.name in ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled") for op in ops) and p is None
            and any(op.name == "ttng.wait_barrier" and schedule.at.get(op, (None,))[0] == last for op in ops)
            and "__test_keep_predicate_stage" not in loop.attributes)


# ----------------------------------------------------------------------------- async_wait counts


def _commits_between(start: Operation | None, end: Operation | None) -> int:
    """Commit groups from `start` up to (not including) `end`, in one block (to the block's end without `end`)."""
    n, op = 0, start
    while op is not None and op is not end:
        if op.name == "ttg.async_commit_group":
            n += 1
        op = op.next_op
    return n


def min_interleaved_commits(wait: Operation) -> int:
    """Triton's minNumInterleavedCommitOps: over every path from a waited group's commit to the wait (through
    loop entries and back edges), the fewest commit groups issued in between."""
    best = [None]

    def visit(v: SSAValue, sink: Operation, acc: int) -> int:
        d = v.owner
        if isinstance(d, Operation):
            acc += _commits_between(d.next_op, sink)
            best[0] = acc if best[0] is None else min(best[0], acc)
            return best[0]
        if isinstance(v, BlockArgument):
            block = v.owner
            loop = block.parent_op()
            if not isinstance(loop, scf.ForOp) or v.index == 0:
                return 0
            acc += _commits_between(block.first_op, sink)
            if best[0] is not None and acc >= best[0]:
                return best[0]
            m1 = visit(loop.iter_args[v.index - 1], loop, acc)
            m2 = visit(block.last_op.operands[v.index - 1], block.last_op, acc)
            return min(m1, m2, best[0])
        return 0

    if not wait.operands:
        return 0
    for token in wait.operands:
        visit(token, wait, 0)
    return best[0] if best[0] is not None else 0


def update_waits(module: Operation) -> None:
    waits = [op for op in module.walk() if op.name == "ttg.async_wait"]
    for w in waits:
        w.properties["num"] = IntegerAttr(min_interleaved_commits(w), i32)
    gone = set()
    for w in waits:
        if w in gone:
            continue
        group, tokens, num = [w], list(w.operands), w.num.value.data
        nxt = w.next_op
        # up to the next commit group (Triton's combineRedundantWaitOps): a wait after it may wait for groups
        # committed in between, or for fewer of the earlier ones than it would hoisted above them
        while nxt is not None and nxt.name not in ("scf.for", "scf.if", "scf.while", "ttg.async_commit_group"):
            if nxt.name == "ttg.async_wait":
                group.append(nxt)
                tokens += list(nxt.operands)
                num = min(num, nxt.num.value.data)
            nxt = nxt.next_op
        if len(group) == 1:
            continue
        new = ttg.AsyncWaitOp.build(operands=[tokens], result_types=[AsyncTokenType()],
                                    properties={"num": IntegerAttr(num, i32)})
        new.location = w.location
        w.parent.insert_op_before(new, w)
        for g in group:
            g.results[0].replace_all_uses_with(new.results[0])
            g.detach()
            g.erase()
            gone.add(g)


def _wgmma_operand_ok(v: SSAValue, loop: scf.ForOp) -> bool:
    """Triton's dotCanBeProperlyAsync operand rule: registers, or shared memory defined outside the loop or taken
    from a multi-buffer (`memdesc_index`), through conversions, memdesc views and loop-carried values."""
    if isinstance(v.type, TensorType):
        return True
    body = loop.body.block
    seen = set()
    while v not in seen:
        seen.add(v)
        if isinstance(v, BlockArgument) and v.owner is body and v.index > 0:
            v = body.last_op.operands[v.index - 1]
        elif isinstance(v.owner, Operation) and v.owner.name in ("ttg.convert_layout", "ttg.memdesc_trans",
                                                                   "ttg.memdesc_reshape", "ttg.memdesc_subslice"):
            v = v.owner.operands[0]
        else:
            break
    if isinstance(v, BlockArgument):
        return not loop.is_ancestor(v.owner.parent_op())
    return not loop.is_ancestor(v.owner) or v.owner.name == "ttg.memdesc_index"


def _is_noop(op: Operation) -> bool:
    """Triton's isNoop: a reshape, a transpose, or a conversion that moves no data."""
    if op.name in ("tt.reshape", "tt.trans"):
        return True
    return op.name == "ttg.convert_layout" and cvt_dims(op.operands[0].type, op.results[0].type) == []


def _properly_async(dot: Operation, loop: scf.ForOp) -> int | None:
    """Triton's dotCanBeProperlyAsync: the iter_arg index the dot's result is yielded to when the dot may stay in
    flight across iterations: (1) its shared operands are multi-buffered or loop-invariant; (2) its result reaches
    the loop's yield once (through no-op views), other uses only under an scf.if; (2.1) the accumulator is f32;
    (3) the previous iteration's value is read only as another wgmma's accumulator (through no-ops), or only
    after the body's first `warp_group_dot_wait {pendings = 0}`, which then carries it."""
    if not (_wgmma_operand_ok(dot.a, loop) and _wgmma_operand_ok(dot.b, loop)):
        return None
    idx = None
    queue = [(u.operation, u.index) for u in dot.results[0].uses]
    while queue:
        user, index = queue.pop()
        parent = user.parent_op()
        if parent is loop:
            if _is_noop(user):
                queue += [(u.operation, u.index) for u in user.results[0].uses]
                continue
            if user is not loop.body.block.last_op or idx is not None:
                return None
            idx = index
        elif isinstance(parent, scf.IfOp):
            if isinstance(user, scf.YieldOp):
                queue += [(u.operation, u.index) for u in parent.results[index].uses]
        else:
            return None
    if idx is None or elt(dot.c.type) != f32:
        return None
    arg = loop.body.block.args[idx + 1]

    def to_wgmma_acc(use) -> bool:
        if use.operation.name == "ttng.warp_group_dot":
            return use.index == 2
        return _is_noop(use.operation) and all(to_wgmma_acc(u) for u in use.operation.results[0].uses)

    if all(to_wgmma_acc(u) for u in arg.uses):
        return idx
    body = loop.body.block
    first = next((op for op in body.ops if op.name == "ttng.warp_group_dot_wait" and op.pendings.value.data == 0),
                 None)
    if first is not None and all(body.get_operation_index(body.find_ancestor_op_in_block(u.operation))
                                 > body.get_operation_index(first) for u in arg.uses):
        _thread_through_wait(first, [arg])
        return idx
    return None


def _thread_through_wait(wait: Operation, values: list[SSAValue]) -> Operation:
    """Triton's threadValuesThroughWait: a new wait with `values` added as operands, then the shared operands of
    the wgmma dots they are computed from (through ops of the wait's block); the uses of the tensors among them
    after the wait take its results."""
    operands = list(wait.operands)
    dots, seen = [], set()

    def find_dots(v: SSAValue) -> None:  # Triton's backward slice with a filter that stops at (and keeps) dots
        d = v.owner
        if not isinstance(d, Operation) or d in seen:
            return
        seen.add(d)
        if d.name == "ttng.warp_group_dot":
            dots.append(d)
        elif d.parent is wait.parent:
            for o in d.operands:
                find_dots(o)

    for v in values:
        if v not in operands:
            operands.append(v)
        find_dots(v)
    for o in (o for d in dots for o in d.operands):
        if isinstance(o.type, MemDescType) and o not in operands:
            operands.append(o)
    new = ttg.WarpGroupDotWaitOp.build(operands=[operands], result_types=[[o.type for o in operands]],
                                       properties={"pendings": wait.pendings})
    new.location = wait.location
    wait.parent.insert_op_before(new, wait)
    block = new.parent
    for i, old in enumerate(wait.results):
        old.replace_all_uses_with(new.results[i])
    for i in range(len(wait.operands), len(operands)):
        v = operands[i]
        if isinstance(v.type, MemDescType):
            continue
        for use in list(v.uses):
            user = use.operation
            while user is not None and user.parent is not block:
                user = user.parent_op()
            if user is not None and user is not new and block.get_operation_index(user) > block.get_operation_index(new):
                use.operation.operands[use.index] = new.results[i]
    wait.detach()
    wait.erase()
    return new


def _new_wait(after: Operation, pendings: int, loc) -> Operation:
    wait = ttg.WarpGroupDotWaitOp.build(operands=[[]], result_types=[[]],
                                        properties={"pendings": IntegerAttr(pendings, i32)})
    wait.location = loc
    after.parent.insert_op_after(wait, after)
    return wait


def _rs_dot_needs_wait(dot: Operation, loop: scf.ForOp) -> bool:
    """Triton's rsDotNeedsWait: A is in registers, computed in the loop, and not a conversion of an MMA result
    (another dot's): the next iteration must not overwrite those registers while this dot reads them."""
    a = dot.a
    if not isinstance(a.type, TensorType):
        return False
    block = a.owner if isinstance(a, BlockArgument) else a.owner.parent
    while block is not None and block.parent_op() is not loop:
        block = block.parent_op().parent if block.parent_op() is not None else None
    if block is None:  # defined outside the loop
        return False
    if isinstance(a.owner, Operation) and a.owner.name == "ttg.convert_layout":
        return not isinstance(encoding(a.owner.operands[0].type), NvidiaMmaEncoding)
    return True


def _wait_in_loop(loop: scf.ForOp, dots: list[tuple[Operation, int]]) -> None:
    """Triton's insertAsyncWarpGroupDotWaitInLoop (3.6.0), with the missing waits of #8997 (after 3.6.0): with no
    `pendings = 0` wait in the body, each block nested in the body (under an scf.if) that uses a dot starts with
    a `warp_group_dot_wait {pendings = 0}` carrying the dot's result; then a dot reading registers computed in
    the loop waits right after itself until len(dots) - 1 are in flight; then a wait for len(dots) in flight
    follows the last dot unless it is a register one. (Uses in the body itself are the yield and, for the dots
    split from a register dot, the next one's accumulator, which the hardware chains: no wait.)
    3.6.0 gave register dots only their own wait, so an scf.if reading one's result raced with it; #8997 gives
    them the use waits too. #8997 also moves every use wait from its block's start to just before the first
    use: not followed, as Triton 3.6.0's TTGIR of the persistent matmul fixtures has it at the block's start."""
    body = loop.body.block
    if any(op.name == "ttng.warp_group_dot_wait" and op.pendings.value.data == 0 for op in body.ops):
        return
    for dot, _ in dots:
        blocks: dict = {}
        for use in dot.results[0].uses:
            if not isinstance(use.operation, scf.YieldOp) and use.operation.parent is not body:
                blocks.setdefault(use.operation.parent, []).append(dot.results[0])
        for block, users in blocks.items():
            wait = ttg.WarpGroupDotWaitOp.build(operands=[[]], result_types=[[]],
                                                properties={"pendings": IntegerAttr(0, i32)})
            wait.location = dot.location
            block.insert_op_before(wait, block.first_op)
            _thread_through_wait(wait, users)
    for dot, _ in dots:
        if _rs_dot_needs_wait(dot, loop):
            _thread_through_wait(_new_wait(dot, len(dots) - 1, dot.location), [dot.results[0]])
    last = dots[-1][0]
    if not _rs_dot_needs_wait(last, loop):
        _thread_through_wait(_new_wait(last, len(dots), last.location), [d.results[0] for d, _ in dots])


def async_launch_dots(loop: scf.ForOp) -> None:
    """Triton's asyncLaunchDots (3.6.0): every `ttng.warp_group_dot` directly in the loop body becomes `isAsync`;
    one that cannot stay in flight (`_properly_async`) gets a `warp_group_dot_wait {pendings = 0}` right after
    it. Without a `pendings = 0` wait in the body, register-operand dots among the others are split along K into
    one-instruction dots (passes/pipeliner/rs_dot_split.py); then the waits in the loop (`_wait_in_loop`) and a
    `pendings = 0` wait on the in-flight dots' loop results right after the loop."""
    body = loop.body.block
    in_flight = []
    for dot in [op for op in body.ops if op.name == "ttng.warp_group_dot"]:
        dot.properties["isAsync"] = BoolAttr(True, i1)
        idx = _properly_async(dot, loop)
        if idx is None:
            _thread_through_wait(_new_wait(dot, 0, dot.location), [dot.results[0]])
        else:
            in_flight.append((dot, idx))
    if not in_flight:
        return
    if all(op.pendings.value.data != 0 for op in body.ops if op.name == "ttng.warp_group_dot_wait"):
        in_flight = [(d, idx) for dot, idx in in_flight for d in split_rs_dot(dot)]
    _wait_in_loop(loop, in_flight)
    _thread_through_wait(_new_wait(loop, 0, loop.location), [loop.results[idx] for _, idx in in_flight])


def pipeline_tma_stores(loop: scf.ForOp) -> None:
    """Triton's pipelineTMAStores: the descriptor stores (and reduces and scatters) of the loop's body, nested loops
    aside, store into one shared buffer per shape and element type (the descriptor's layout), allocated before the
    loop, each preceded by
    `async_tma_store_wait {pendings = 0}` (the previous store's copy has read the buffer) and followed by
    `fence_async_shared` and the asynchronous TMA copy; a final wait and the deallocations follow the loop (one per
    store, as in Triton: a buffer two stores share is deallocated twice in the text)."""
    stores = []

    def visit(block):
        for op in block.ops:
            if op.name in ("tt.descriptor_store", "tt.descriptor_reduce", "tt.descriptor_scatter"):
                stores.append(op)
            elif op.name != "scf.for":
                for r in op.regions:
                    for b in r.blocks:
                        visit(b)

    visit(loop.body.block)
    if not stores:
        return
    allocs: dict = {}
    before = Inserter(loop, loop.location)
    for st in stores:
        t = st.src.type
        key = (tuple(shape_of(t)), elt(t))
        if key not in allocs:
            enc = encoding_for_shape(st.desc.type.encoding, shape_of(t))
            allocs[key] = before.add(ttg.LocalAllocOp.build(
                operands=[[]], result_types=[mutable_memdesc(shape_of(t), elt(t), enc)]), st.location)
    bufs = [allocs[(tuple(shape_of(st.src.type)), elt(st.src.type))] for st in stores]
    for st, buf in zip(stores, bufs):
        em = Inserter(st, st.location)
        em.add(tma.TMAStoreWaitOp.build(properties={"pendings": IntegerAttr(0, i32)}))
        em.add(ttg.LocalStoreOp.build(operands=[st.src, buf]))
        em.add(ttg.FenceAsyncSharedOp.build(properties={"bCluster": BoolAttr(False, i1)}))
        if st.name == "tt.descriptor_store":
            em.add(tma.AsyncTMACopyLocalToGlobalOp.build(operands=[st.desc, list(st.indices), buf]))
        elif st.name == "tt.descriptor_scatter":
            em.add(tma.AsyncTMAScatterOp.build(operands=[st.desc, st.x_offsets, st.y_offset, buf]))
        else:
            em.add(tma.AsyncTMAReduceOp.build(operands=[st.desc, list(st.indices), buf],
                                              properties={"kind": st.kind}))
        st.detach()
        st.erase()
    after = Inserter(loop.next_op, loop.location)
    after.add(tma.TMAStoreWaitOp.build(properties={"pendings": IntegerAttr(0, i32)}))
    for buf in bufs:  # as Triton: one deallocation per store, of the buffer it shares
        after.add(ttg.LocalDeallocOp.build(operands=[buf]))
    if not all(is_host_side(st.desc) for st in stores):  # descriptors made in the kernel: one per stage
        multibuffer_descriptors(loop)


# ----------------------------------------------------------------------------- the pass


@dataclass(frozen=True)
class Pipeline(Pass):
    """Software-pipeline the scheduled loops: multi-buffered async copies, prologue and kernel loop."""

    name = "tritongpu-pipeline"
    display = "TritonGPUPipeline"
    summary = "Software-pipeline scheduled loops (async copies into multi-buffers, Triton's loop expander)"

    num_stages: int = option(3, "number of stages (a loop's own tt.num_stages wins)")

    def __post_init__(self):
        if self.num_stages < 0:
            raise ValueError(f"option 'num-stages' must not be negative, got {self.num_stages}")

    def apply(self, ctx, module) -> None:
        # inner loops first (Triton's post-order walk): expanding an outer loop clones the loops in it
        loops = [op for op in module.walk(region_first=True) if isinstance(op, scf.ForOp)]
        axis = None
        pipelined = set()
        for loop in loops:
            schedule = CoarseSchedule.deserialize(loop)
            if schedule is None:  # (Triton's pass has no target check: make-ttgir runs it on sm80 and sm90 only)
                continue
            axis = axis or reused(module)
            loop, schedule = lower_loop(loop, axis)
            early = [op for op, s, _ in schedule.ops_in_order(loop) if s < schedule.num_stages - 1]
            bad = [op for op in early if not can_predicate(op)]
            why = f"'{bad[0].name}' in an early stage cannot be predicated" if bad else None
            # (Triton's expander bails on an op without a stage, e.g. the descriptor updates that
            # tritongpu-automatic-warp-specialization makes after scheduling, with an op error)
            unstaged = [op for op in list(loop.body.block.ops)[:-1] if op not in schedule.at]
            if unstaged:
                why = f"'{unstaged[0].name}' has no pipeline stage"
            if not why and not schedule_is_valid(loop, [(op, s) for op, s, _ in schedule.ops_in_order(loop)]):
                why = "an op is scheduled before its operands (a loop-carried value from a later stage)"
            if why:  # left with its async copies, each waited for in its own iteration
                _not_pipelined_remark(loop, why)
                strip(loop)
                continue
            loop = expand_loop(loop, schedule)
            pipelined.add(loop)
        # Triton's resolveMaskOp and the pass's end clean up with an empty pattern set: folds, dead ops and constants
        # (deduplicated, hoisted to the function's entry), in the whole module
        apply_xdsl_patterns(module, [])
        strip(module)  # the prologue's copies of scheduled ops too
        for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
            if loop not in pipelined:
                _why_not(loop, module)
        for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
            if num_stages_of(loop, self.num_stages) >= 1:
                async_launch_dots(loop)
        update_waits(module)
        apply_xdsl_patterns(module, [])
        for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
            if num_stages_of(loop, self.num_stages) > 1:
                pipeline_tma_stores(loop)


def lower_loop(loop: scf.ForOp, axis: AxisInfoAnalysis) -> tuple[scf.ForOp, CoarseSchedule | None]:
    """Triton's lowerLoop, the pipeliner's first step on a scheduled loop: its loads become multi-buffered async
    copies (lower_loads), its tensor descriptors made in the loop per-iteration tensormaps; the loop and its
    schedule (None where the loop has none)."""
    schedule = CoarseSchedule.deserialize(loop)
    if schedule is None:
        return loop, None
    loop = lower_mmas(loop, schedule)
    loop = lower_loads(loop, schedule, axis)
    return multibuffer_descriptors(loop, schedule.num_stages - 1, schedule), schedule


@dataclass(frozen=True)
class TestPipelineLowerLoop(Pass):
    """Run only the pipeliner's lowering step on each scheduled loop and write the schedule back (a test pass)."""

    name = "tritongpu-test-pipeline-lower-loop"
    display = "TritonGPUTestPipelineLowerLoop"
    summary = "Test the pipeliner's lowering of scheduled loops (async copies, TMA, descriptors), schedule kept"

    def apply(self, ctx, module) -> None:
        loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
        axis = AxisInfoAnalysis(module) if loops else None
        for loop in loops:
            loop, schedule = lower_loop(loop, axis)
            if schedule is not None:
                schedule.serialize(loop)


def _why_not(loop: scf.ForOp, module) -> None:
    unsafe = [op.name for op in loop.walk() if op.name in UNSAFE]
    if unsafe:
        _not_pipelined_remark(loop, f"'{unsafe[0]}' in it must stay in order")
    elif any(op.name in ("scf.for", "scf.while") for op in loop.body.block.ops):
        _not_pipelined_remark(loop, "only innermost loops are pipelined")
    else:
        _not_pipelined_remark(loop, "no load in it is worth pipelining (loads that feed dots, or any load of a "
                                    "loop with its own tt.num_stages and no dot, with at least 4 bytes per copy)")


def _not_pipelined_remark(loop: scf.ForOp, why: str) -> None:
    """A remark for a loop whose own `tt.num_stages` (tl.range(num_stages=...)) asks for pipelining that this
    pass does not do."""
    attr = loop.attributes.get("tt.num_stages")
    if isinstance(attr, IntegerAttr) and attr.value.data >= 2:
        emit(at_op(loop, None, f"loop not pipelined despite tt.num_stages = {attr.value.data}: {why}", "remark"))

