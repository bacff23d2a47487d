"""nvws-lower-aref: turn arefs into buffers and mbarriers, as Triton 3.6's NVWS LowerAref.

1. In each loop of a warp-specialized loop nest, get enters (in the loop's body) of one partition whose shared
   memory reaches the same first MMA or `ttg.local_load` (through memdesc views) are combined, when their puts are
   in one partition: one aref over all their buffers, one put enter/exit and one get enter/exit (slot and phase
   0, the exits naming all the async ops), the users of the old enters moved after the new ones.
2. Arefs filled by TMA loads get `num-stages` slots (their one-slot buffers reallocated).
3. nvws-assign-stage-phase numbers the enters (passes/assign_stage_phase.py).
4. Each `nvws.aref.create` becomes two barrier arrays of `depth` mbarriers before it (`empty`, initialized to
   the number of consumer async ops, one per consumer partition's get exit; `full`, to the producers'),
   invalidated and freed after the aref's last use: a put enter waits on `empty[stage]` with its phase, a get
   enter on `full[stage]`; enters and `nvws.aref.buffer` read `memdesc_index` views of the buffers; a put of TMA
   loads expects their bytes on `full[stage]` and the `nvws.descriptor_load`/`_gather` become
   `ttng.async_tma_copy_global_to_local`/`ttng.async_tma_gather` on it (MMAs consuming the aref outside the
   default partition become asynchronous); exits arrive on `full` (put) or `empty` (get) per async op
   (`arrive_barrier` for none/wgmma, `tc_gen5_commit` for tc5mma, nothing for TMA), after a
   `fence_async_shared` where generic-proxy writes meet async-proxy readers. Enter tokens become a `ub.poison`.
   New ops take the partition, warp-specialize tag and stage/cluster of the aref op they come from.
5. Dead ops are erased (as MLIR's greedy driver does) and `ub.poison` ops move to the top of their function.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf, ub
from xdsl.dialects.builtin import ArrayAttr, BoolAttr, DenseArrayBase, IntAttr, IntegerAttr, UnitAttr, i1, i32, i64
from xdsl.ir import Block, Operation, SSAValue

from ttc.opt.greedy_rewrite import is_trivially_dead
from ttc.ir import tma, ttg
from ttc.ir.format import build_op
from ttc.ir.layouts import NVMMASharedEncoding, SharedMemorySpace, SwizzledSharedEncoding
from ttc.ir.nvws import (ArefBufferOp, ArefCreateOp, ArefGetEnterOp, ArefGetExitOp, ArefPutEnterOp, ArefPutExitOp,
                         ArefType, DescriptorGatherOp, DescriptorLoadOp)
from ttc.ir.tmem import ArriveBarrierOp, TCGen5CommitOp
from ttc.ir.tmem_attrs import TensorMemoryScalesEncoding, TensorMemorySpace
from ttc.ir.types import AsyncTokenType
from ttc.ir.memdesc import MemDescType
from ttc.passes.assign_latencies import SHARED_ENCODINGS, _outside
from ttc.passes.assign_stage_phase import assign_stage_phase, depth
from ttc.passes.insert_aref import MMAV5, WS, common_block, has_partition, set_partition, stage_cluster
from ttc.passes.partition_loops import TAG, ids
from ttc.passes.pipeline import top_level_users
from ttc.opt.passmanager import Pass, option

VIEWS = ("ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape",
         "ttg.memdesc_reinterpret")
ENTERS = (ArefPutEnterOp, ArefGetEnterOp)


def kinds(op: Operation) -> list[str]:
    return [a.value.data for a in op.async_ops.data]


def annotate(new: Operation, like: Operation, sc="same") -> Operation:
    """assignStageCluster with getPartitionWsTagIds(like): only where `like` has partitions."""
    if has_partition(like):
        set_partition(new, ids(like))
        if TAG in like.attributes:
            new.attributes[TAG] = like.attributes[TAG]
        sc = stage_cluster(like) if sc == "same" else sc
        if sc is not None:
            new.attributes["loop.stage"] = IntegerAttr(sc[0], i32)
            new.attributes["loop.cluster"] = IntegerAttr(sc[1], i32)
    return new


class At:
    """An insertion point: before `anchor` in `block` (at the end when None); inserted ops keep their order."""

    def __init__(self, block: Block, anchor: Operation | None, loc):
        self.block, self.anchor, self.loc = block, anchor, loc

    @staticmethod
    def after(op: Operation) -> At:
        return At(op.parent, op.next_op, op.location)

    @staticmethod
    def before(op: Operation) -> At:
        return At(op.parent, op, op.location)

    def add(self, op: Operation, like: Operation | None = None) -> Operation:
        op.location = self.loc
        if self.anchor is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.anchor)
        if like is not None:
            annotate(op, like)
        return op

    def const(self, v: int, t=i32, like=None) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(v, t), t), like).results[0]


def view_type(t: MemDescType) -> MemDescType:
    dims = ArrayAttr(t.shape.data[1:])
    return MemDescType(dims, t.element_type, t.encoding, t.memory_space, IntAttr(1), dims)


def single_view(at: At, alloc: SSAValue, idx: SSAValue, like=None) -> SSAValue:
    return at.add(ttg.MemDescIndexOp.create(operands=[alloc, idx], result_types=[view_type(alloc.type)]),
                  like).results[0]


# ----------------------------------------------------------------------------- 1. combining arefs


def _sinks(v: SSAValue) -> list[Operation]:
    out = []
    for use in v.uses:
        u = use.operation
        if u.name in MMAV5 or u.name == "ttg.local_load":
            out.append(u)
        elif u.name in VIEWS:
            out += _sinks(u.results[0])
    return out


def _dominant_consumer(enter: Operation, body: Block) -> Operation | None:
    sinks = _sinks(enter.results[0])
    if not sinks:
        return None
    common = common_block(sinks)
    if common is None:
        return None
    first = min((common.find_ancestor_op_in_block(op) for op in sinks), key=common.get_operation_index)
    return body.find_ancestor_op_in_block(first)


def _move_users_after(op: Operation, target: Operation) -> None:
    block = target.parent
    users = []
    for r in op.results:
        for use in r.uses:
            if use.operation not in users:
                users.append(use.operation)
    users.sort(key=lambda u: _pos_key(block, u), reverse=True)  # MLIR's use lists: the latest use first
    for user in users:
        top = block.find_ancestor_op_in_block(user)
        if top is not None and block.get_operation_index(top) < block.get_operation_index(target):
            top.detach()
            block.insert_op_after(top, target)
            _move_users_after(top, top)


def _pos_key(block: Block, op: Operation) -> int:
    top = block.find_ancestor_op_in_block(op)
    return block.get_operation_index(top) if top is not None else -1


def _combined(enters, exits, aref: ArefCreateOp, kind_enter, kind_exit, after: Operation | None) -> Operation:
    block = enters[0].parent
    first = min(enters, key=block.get_operation_index)
    last = max(exits, key=lambda o: o.parent.get_operation_index(o))
    attrs = []
    for e in exits:
        for a in e.async_ops.data:
            if a not in attrs:
                attrs.append(a)
    zero_op = arith.ConstantOp(IntegerAttr(0, i32), i32)
    zero_op.location = aref.location
    aref.parent.insert_op_after(zero_op, aref)
    annotate(zero_op, first)
    zero = zero_op.results[0]
    at = At.after(after) if after is not None else At.before(first)
    at.loc = first.location
    enter = at.add(kind_enter.create(operands=[aref.result, zero, zero],
                                     result_types=[e.results[0].type for e in enters] + [AsyncTokenType()],
                                     properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 1])}),
                   first)
    at = At.before(last)
    at.loc = first.location
    exit_ = at.add(kind_exit.create(operands=[aref.result, enter.results[-1], zero],
                                    properties={"async_ops": ArrayAttr(attrs)}), last)
    for i, e in enumerate(enters):
        _move_users_after(e, enter)
        e.results[0].replace_all_uses_with(enter.results[i])
    return exit_


def combine_arefs(loop: scf.ForOp) -> None:
    body = loop.body.block
    groups: dict = {}
    for op in list(body.ops):
        if isinstance(op, ArefGetEnterOp):
            live = _dominant_consumer(op, body)
            if live is not None:
                groups.setdefault((live, ids(op)[0]), []).append(op)
    for gets in groups.values():
        if len(gets) == 1:
            continue
        arefs = [g.aref.owner for g in gets]
        puts, put_exits, get_exits, producers = [], [], [], []
        for a in arefs:
            for use in a.result.uses:
                u = use.operation
                if isinstance(u, ArefPutEnterOp):
                    puts.append(u)
                    producers.append(ids(u)[0])
                elif isinstance(u, ArefPutExitOp):
                    put_exits.append(u)
                elif isinstance(u, ArefGetExitOp):
                    get_exits.append(u)
        if any(p != producers[0] for p in producers):
            continue
        last = max(arefs, key=lambda a: a.parent.get_operation_index(a))
        bufs = [a.buffers[0] for a in arefs]
        new = ArefCreateOp.create(operands=bufs, result_types=[ArefType(ArrayAttr([b.type for b in bufs]))])
        new.location = last.location
        last.parent.insert_op_before(new, last)
        put_exit = _combined(puts, put_exits, new, ArefPutEnterOp, ArefPutExitOp, None)
        _combined(gets, get_exits, new, ArefGetEnterOp, ArefGetExitOp, put_exit)
        for op in put_exits + puts + get_exits + gets + arefs:
            op.detach()
            op.erase()


# ----------------------------------------------------------------------------- 2. multi-buffering TMA arefs


def produced_by_load(aref: ArefCreateOp) -> bool:
    for use in aref.result.uses:
        if isinstance(use.operation, ArefPutEnterOp):
            for r in use.operation.results:
                if any(isinstance(u.operation, (DescriptorLoadOp, DescriptorGatherOp)) for u in r.uses):
                    return True
    return False


def multi_buffer(arefs: list[ArefCreateOp], stages: int) -> None:
    stale = []
    for aref in arefs:
        if any(not isinstance(b.owner, Operation) or b.owner.name == "ttng.tmem_alloc" for b in aref.buffers):
            continue
        bufs, types = [], []
        for b in aref.buffers:
            t = b.type
            shape = [stages, *t.get_shape()[1:]]
            dims = ArrayAttr([IntAttr(d) for d in shape])
            nt = MemDescType(dims, t.element_type, t.encoding, t.memory_space, IntAttr(1), dims)
            old = b.owner
            new = ttg.LocalAllocOp.create(result_types=[nt])
            new.location = old.location
            aref.parent.insert_op_before(new, aref)
            old.results[0].replace_all_uses_with(new.results[0])
            stale.append(old)
            bufs.append(new.results[0])
            types.append(nt)
        new_aref = ArefCreateOp.create(operands=bufs, result_types=[ArefType(ArrayAttr(types))])
        new_aref.location = aref.location
        aref.parent.insert_op_before(new_aref, aref)
        aref.result.replace_all_uses_with(new_aref.result)
        aref.detach()
        aref.erase()
    for op in stale:
        op.detach()
        op.erase()


# ----------------------------------------------------------------------------- 4. lowering


def arrival_counts(aref: ArefCreateOp) -> tuple[int, int]:
    producers, consumers, pc, cc = set(), set(), 0, 0
    for use in aref.result.uses:
        u = use.operation
        if not has_partition(u):
            continue
        p = ids(u)[0]
        if isinstance(u, ArefPutExitOp) and p not in producers:
            producers.add(p)
            pc += len(kinds(u))
        elif isinstance(u, ArefGetExitOp) and p not in consumers:
            consumers.add(p)
            cc += len(kinds(u))
    return pc or 1, cc or 1


def _barriers(before: At, after: At, n: int, count: int) -> SSAValue:
    enc = SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=[0])
    dims = ArrayAttr([IntAttr(n), IntAttr(1)])
    alloc = before.add(ttg.LocalAllocOp.create(result_types=[MemDescType(dims, i64, enc, SharedMemorySpace(),
                                                                         IntAttr(1), dims)])).results[0]
    for i in range(n):
        v = single_view(before, alloc, before.const(i))
        before.add(tma.InitBarrierOp.create(operands=[v], properties={"count": IntegerAttr(count, i32)}))
    for i in range(n):
        v = single_view(after, alloc, after.const(i))
        after.add(tma.InvalBarrierOp.create(operands=[v]))
    after.add(ttg.LocalDeallocOp.create(operands=[alloc]))
    return alloc


def _sub_views(at: At, bufs, stage, like) -> list[SSAValue]:
    out = []
    for b in bufs:
        if isinstance(b.type.encoding, TensorMemoryScalesEncoding):
            out.append(b)
        else:
            out.append(single_view(at, b, stage, like))
    return out


def _wait(at: At, barrier, phase, like) -> None:
    at.add(build_op(tma.WaitBarrierOp, [barrier, phase, None, []], []), like)


def _operand_ok(v: SSAValue, loop: scf.ForOp) -> bool:
    """isOperandPipelineable with aref enters and buffers as pipelined defs."""
    if _outside(v, loop):
        return True
    d = v.owner
    while isinstance(d, Operation) and d.name in ("ttg.memdesc_trans", "ttg.memdesc_reshape"):
        v = d.operands[0]
        d = v.owner
    if not isinstance(d, Operation):
        return False
    if isinstance(d, (ArefPutEnterOp, ArefGetEnterOp, ArefBufferOp)):
        return True
    if d.name != "ttg.local_alloc" or not d.operands:
        return False
    src = d.operands[0]
    return _outside(src, loop)


def set_async(mma: Operation) -> None:
    ok = True
    loop = mma.parent_op()
    while loop is not None and not isinstance(loop, scf.ForOp):
        loop = loop.parent_op()
    if mma.name == "ttng.tc_gen5_mma_scaled" and loop is not None:
        for sc in (mma.a_scale, mma.b_scale):
            if not isinstance(sc.type.encoding, SHARED_ENCODINGS) and not _outside(sc, loop):
                ok = False
        if not (_operand_ok(mma.a_scale, loop) and _operand_ok(mma.b_scale, loop)):
            ok = False
    if ok:
        mma.properties["is_async"] = UnitAttr()
    else:
        mma.properties.pop("is_async", None)


def async_mma_consumers(aref: ArefCreateOp) -> list[Operation]:
    out = []
    for use in aref.result.uses:
        get = use.operation
        if not isinstance(get, ArefGetEnterOp) or has_partition(get) and ids(get)[0] == 0:
            continue
        for r in get.results:
            for u in r.uses:
                c = u.operation
                if c.name in MMAV5:
                    out.append(c) if c not in out else None
                    continue
                loop = c.parent_op()
                while loop is not None and not isinstance(loop, scf.ForOp):
                    loop = loop.parent_op()
                if loop is not None:
                    for t in top_level_users(c, loop):
                        if t.name in MMAV5 and t not in out:
                            out.append(t)
    return out


def lower_tma(put: Operation, full: SSAValue, at: At) -> None:
    loads, tx = [], 0
    for b in put.results[:-1]:
        for use in b.uses:
            if isinstance(use.operation, (DescriptorLoadOp, DescriptorGatherOp)):
                loads.append(use.operation)
                tx += use.operation.txCount.value.data
    if not loads:
        return
    pred = at.const(-1, i1, put)
    at.add(tma.BarrierExpectOp.create(operands=[full, pred], properties={"size": IntegerAttr(tx, i32)}), put)
    for load in loads:
        here = At.before(load)
        if isinstance(load, DescriptorLoadOp):
            idx = list(load.indices)
            enc = load.desc.type.block_type.encoding
            if isinstance(enc, NVMMASharedEncoding) and enc.get("fp4Padded"):
                two = here.const(2)
                mul = here.add(arith.MuliOp(idx[-1], two), load)
                for v in mul.operands:
                    if isinstance(v.owner, Operation) and not has_partition(v.owner):
                        annotate(v.owner, load)
                idx[-1] = mul.results[0]
            new = build_op(tma.AsyncTMACopyGlobalToLocalOp, [load.desc, idx, full, load.result, pred], [],
                           {"cache": load.cache, "evict": load.evict})
        else:
            new = tma.AsyncTMAGatherOp.create(operands=[load.desc, load.x_offsets, load.y_offset, full,
                                                        load.result, pred])
        here.add(new, load)
        load.detach()
        load.erase()


def _exit_fence_put(op: Operation) -> bool:
    if "none" not in kinds(op):
        return False
    if isinstance(op.aref.type.base_type.data[0].memory_space, TensorMemorySpace):
        return False
    return any(isinstance(u.operation, ArefGetExitOp) and "tc5mma" in kinds(u.operation) for u in op.aref.uses)


def _exit_fence_get(op: Operation) -> bool:
    if "none" not in kinds(op):
        return False
    return any(isinstance(u.operation, ArefPutExitOp) and "tma_load" in kinds(u.operation) for u in op.aref.uses)


def _arrive(at: At, op: Operation, barrier: SSAValue) -> None:
    for k in kinds(op):
        if k in ("none", "wgmma"):
            at.add(build_op(ArriveBarrierOp, [barrier, None], [], {"count": IntegerAttr(1, i32)}), op)
        elif k in ("tc5mma", "tmem_copy"):
            at.add(build_op(TCGen5CommitOp, [barrier, None], []), op)


def _propagate_mutability(v: SSAValue) -> None:
    for use in v.uses:
        u = use.operation
        if u.name in VIEWS:
            t = u.results[0].type
            dims = t.shape
            u.results[0]._type = MemDescType(dims, t.element_type, t.encoding, t.memory_space, IntAttr(1), dims)
            _propagate_mutability(u.results[0])


def lower(aref: ArefCreateOp) -> None:
    pc, cc = arrival_counts(aref)
    d = depth(aref)
    users = []
    for use in aref.result.uses:
        if use.operation not in users:
            users.append(use.operation)
    block = aref.parent
    last = max((block.find_ancestor_op_in_block(u) for u in users), key=block.get_operation_index)
    before, after = At.before(aref), At.after(last)
    before.loc = after.loc = aref.location
    empty = _barriers(before, after, d, cc)
    full = _barriers(before, after, d, pc)
    bufs = list(aref.buffers)
    mmas = async_mma_consumers(aref)
    for op in users:
        at = At.after(op)
        if isinstance(op, ArefPutEnterOp):
            e = single_view(at, empty, op.stage, op)
            _wait(at, e, op.phase, op)
            views = _sub_views(at, bufs, op.stage, op)
            exit_ = next((u.operation for u in op.results[-1].uses if isinstance(u.operation, ArefPutExitOp)), None)
            if exit_ is None:
                continue
            ks = kinds(exit_)
            if "tma_load" in ks:
                f = single_view(at, full, op.stage, op)
                lower_tma(op, f, at)
            if "tma_load" in ks or "cp_async" in ks:
                for m in mmas:
                    set_async(m)
            for old, v in zip(op.results[:-1], views):
                old.replace_all_uses_with(v)
        elif isinstance(op, ArefGetEnterOp):
            f = single_view(at, full, op.stage, op)
            _wait(at, f, op.phase, op)
            views = _sub_views(at, bufs, op.stage, op)
            for old, v in zip(op.results[:-1], views):
                old.replace_all_uses_with(v)
                _propagate_mutability(v)
        elif isinstance(op, ArefBufferOp):
            views = _sub_views(at, bufs, op.stage, op)
            for old, v in zip(op.results, views):
                old.replace_all_uses_with(v)
        elif isinstance(op, ArefPutExitOp):
            if _exit_fence_put(op):
                at.add(ttg.FenceAsyncSharedOp.create(properties={"bCluster": BoolAttr(False, i1)}), op)
            f = single_view(at, full, op.stage, op)
            _arrive(at, op, f)
        elif isinstance(op, ArefGetExitOp):
            if _exit_fence_get(op):
                at.add(ttg.FenceAsyncSharedOp.create(properties={"bCluster": BoolAttr(False, i1)}), op)
            e = single_view(at, empty, op.stage, op)
            _arrive(at, op, e)
        else:
            raise AssertionError("users of aref can only be ArefPut or ArefGet")
    poison = ub.PoisonOp(AsyncTokenType())
    poison.location = aref.location
    block.insert_op_before(poison, aref)
    for op in users:
        if isinstance(op, ENTERS):
            op.results[-1].replace_all_uses_with(poison.result)
    for op in reversed(_program_order(users)):
        op.detach()
        op.erase()
    aref.detach()
    aref.erase()


def _program_order(ops: list[Operation]) -> list[Operation]:
    def key(op):
        path = []
        while op is not None and op.parent is not None:
            path.append(op.parent.get_operation_index(op))
            op = op.parent_op()
        return list(reversed(path))
    return sorted(ops, key=key)


def erase_dead(module: Operation) -> None:
    changed = True
    while changed:
        changed = False
        for op in list(module.walk(reverse=True, region_first=True)):
            if op.parent is not None and is_trivially_dead(op):
                op.detach()
                op.erase()
                changed = True


def hoist_poison(func: Operation) -> None:
    entry = func.regions[0].blocks.first
    for op in [o for o in func.walk() if isinstance(o, ub.PoisonOp)]:
        op.detach()
        entry.insert_op_before(op, entry.first_op)


@dataclass(frozen=True)
class LowerAref(Pass):
    """Lower arefs to buffers and mbarriers."""

    name = "nvws-lower-aref"
    summary = "Convert nvws.aref.* to ttng.*barrier* ops."
    display = "NVWSLowerAref"
    num_stages: int = option(3, "number of slots of the arefs TMA loads fill")

    def apply(self, ctx, module) -> None:
        loops = []
        for ws in [op for op in module.walk(region_first=True) if isinstance(op, scf.ForOp) and WS in op.attributes]:
            loops += [op for op in ws.walk(region_first=True) if isinstance(op, scf.ForOp)]
        for loop in loops:
            combine_arefs(loop)
        multi_buffer([op for op in module.walk() if isinstance(op, ArefCreateOp) and produced_by_load(op)],
                     self.num_stages)
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            assign_stage_phase(func)
        for aref in [op for op in module.walk(region_first=True) if isinstance(op, ArefCreateOp)]:
            lower(aref)
        erase_dead(module)
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            hoist_poison(func)
