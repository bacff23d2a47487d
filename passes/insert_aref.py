"""nvws-insert-aref: put an aref (ttc/ir/nvws.py) between a partition that produces a value in a warp-specialized
loop and each other partition that uses it, as Triton 3.6's NVWS InsertAref.

Loops with `tt.warp_specialize` and `ttg.partition` are visited. What is passed, in this order: tensor and
scalar iteration arguments of the loop and the loops in it (from the partitions that yield them, put at the top
of the body); then `ttg.local_alloc` results (with the `tt.descriptor_load` / `tt.descriptor_gather` feeding
them, when in the same partitions); then the results of every other op (not MMAs, `ttng.tmem_alloc`,
`ttng.tmem_store`: TMEM has its own pass). A value is passed to each partition that uses it without producing
it; if none does, nothing changes.

For a passed value, a one-slot buffer (`ttg.local_alloc` of `1xSHAPE`, the value's shared layout) and its
`nvws.aref.create` go before the outermost warp-specialized loop. The first producing partition writes it
between `nvws.aref.put.enter` / `nvws.aref.put.exit`: a descriptor load becomes `nvws.descriptor_load` into the
slot (exit `tma_load`, the load and its alloc are erased), an alloc's source or a tensor is `ttg.local_store`d
(a scalar as a splat 1-element tensor; exit `none`). Each consumer partition reads it between
`nvws.aref.get.enter` (before its first user in the block) and `nvws.aref.get.exit` (after the consumers'
nearest common post-dominator, or right after the `ttg.local_load` when that is the slot's only reader): an
alloc's users read the slot's view (memdesc views rebuilt on it), a tensor is `ttg.local_load`ed, a scalar
loaded and `tt.unsplat`. The get exit names the consumers' async ops (`tc5mma` for MMAv5, `wgmma` for
warp_group_dot, else `none`). New ops get their partition and the `loop.stage` / `loop.cluster` of the producer
(put) or of the first / last consuming op in the scheduled loop (get enter / exit).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, FloatAttr, IntAttr, IntegerAttr, IntegerType, TensorType, i32
from xdsl.dialects.builtin import AnyFloat
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir import tt, ttg
from ttc.ir.layouts import shape_per_cta
from ttc.ir.layout_utils import get_order, num_warps_of, threads_per_warp_of
from ttc.ir.layouts import default_blocked
from ttc.ir.layouts import SharedMemorySpace, SwizzledSharedEncoding
from ttc.passes.pipeliner.schedule import CLUSTER, MAX_STAGE, STAGE, CoarseSchedule
from ttc.ir.nvws import (ArefCreateOp, ArefGetEnterOp, ArefGetExitOp, ArefPutEnterOp, ArefPutExitOp, ArefType,
                         DescriptorGatherOp, DescriptorLoadOp, async_ops)
from ttc.passes.pipeliner.loads import shared_encoding_of_users
from ttc.ir.types import AsyncTokenType, bitwidth, encoding, shape_of
from ttc.ir.memdesc import MemDescType
from ttc.passes.partition_loops import PARTITION, ids, outputs
from ttc.passes.tma_lowering import encoding_for_shape
from ttc.opt.passmanager import Pass

WS = "tt.warp_specialize"
DESC_LOADS = ("tt.descriptor_load", "tt.descriptor_gather")
MMAV5 = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")
VIEWS = ("ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape")


def has_partition(op) -> bool:
    return op is not None and PARTITION in op.attributes


def set_partition(op: Operation, parts) -> None:
    """setPartition: the sorted ids on the op and on the terminators of its regions."""
    a = DenseArrayBase.from_list(i32, sorted(parts))
    op.attributes[PARTITION] = a
    for r in op.regions:
        for b in r.blocks:
            if b.last_op is not None:
                b.last_op.attributes[PARTITION] = a


def use_ids(op: Operation, index: int) -> list[int]:
    """getPartitionIds(OpOperand): a yield's operand has its parent's output partitions, a loop's init value the
    loop's output partitions, other operands their owner's partitions."""
    if isinstance(op, scf.YieldOp):
        return sorted(outputs(op.parent_op())[index])
    if isinstance(op, scf.ForOp):
        return sorted(outputs(op)[index - 3]) if index >= 3 else ids(op)
    return ids(op)


def stage_cluster(op: Operation | None):
    s, c = (op.attributes.get(STAGE), op.attributes.get(CLUSTER)) if op is not None else (None, None)
    return (s.value.data, c.value.data) if isinstance(s, IntegerAttr) and isinstance(c, IntegerAttr) else None


def into(op: Operation, block: Block, before: Operation | None, parts, sc, loc) -> Operation:
    """createInto: insert `op` (before `before`, at the block's end if None) with partitions and stage/cluster."""
    op.location = loc
    if before is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, before)
    set_partition(op, parts)
    if sc is not None:
        op.attributes[STAGE] = IntegerAttr(sc[0], i32)
        op.attributes[CLUSTER] = IntegerAttr(sc[1], i32)
    return op


def memdesc(shape, elt, enc, mutable: bool, alloc=None) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape])
    return MemDescType(dims, elt, enc, SharedMemorySpace(), IntAttr(int(mutable)),
                       ArrayAttr([IntAttr(d) for d in (alloc or shape)]))


def view_type(buf: MemDescType, mutable: bool) -> MemDescType:
    """getBufferViewType: one slot of the buffer, keeping the buffer's allocation shape."""
    return MemDescType(ArrayAttr(buf.shape.data[1:]), buf.element_type, buf.encoding, buf.memory_space,
                       IntAttr(int(mutable)), buf.alloc_shape)


def scalar_tensor(v: SSAValue, like: Operation) -> TensorType:
    return TensorType(v.type, [1], default_blocked([1], num_warps_of(like), threads_per_warp_of(like)))


def load_and_alloc(v: SSAValue):
    """isDescLoadAndAlloc: (alloc, descriptor load) when `v` is a local_alloc of such a load in its partitions."""
    alloc = v.owner
    if not isinstance(alloc, ttg.LocalAllocOp) or alloc.src is None:
        return None
    load = alloc.src.owner
    if isinstance(load, Operation) and load.name in DESC_LOADS and ids(load) == ids(alloc):
        return alloc, load
    return None


def desc_encoding(load: Operation) -> Attribute:
    enc, shape = load.desc.type.encoding, shape_of(load.results[0].type)
    return enc if len(shape) == len(shape_of(load.desc.type.block_type)) else encoding_for_shape(enc, shape)


def shared_encoding(op: Operation | None, t: TensorType) -> Attribute:
    """getSharedEncoding of the value's producer (its local_alloc users' layout, a descriptor's layout, the one
    its dot-operand users want), else of its type: an unswizzled layout in the tensor's order."""
    if op is not None:
        allocs = [u.operation for u in op.results[0].uses if isinstance(u.operation, ttg.LocalAllocOp)]
        if op.name in DESC_LOADS:
            return desc_encoding(op)
        if allocs:
            return allocs[0].result.type.encoding
        _, enc = shared_encoding_of_users(op)
        if enc is not None:
            return enc
    return SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=get_order(encoding(t)))


def outer_ws_loop(loop: scf.ForOp) -> scf.ForOp:
    while loop is not None and WS not in loop.attributes:
        loop = loop.parent_op()
        while loop is not None and not isinstance(loop, scf.ForOp):
            loop = loop.parent_op()
    return loop


class Inserter:
    def __init__(self, loop: scf.ForOp):
        self.loop = loop
        self.scheduled = None
        for op in loop.walk(region_first=True):  # the last scheduled loop of a post-order walk
            if isinstance(op, scf.ForOp) and MAX_STAGE in op.attributes:
                self.scheduled = op

    # ------------------------------------------------------------------ the aref
    def create_aref(self, v: SSAValue, parts) -> ArefCreateOp:
        owner = v.owner if isinstance(v.owner, Operation) else None
        if isinstance(owner, ttg.LocalAllocOp):
            t = v.type
            shape, elt, enc = t.get_shape(), t.element_type, t.encoding
        elif isinstance(v.type, TensorType):
            shape, elt, enc = v.type.get_shape(), v.type.element_type, shared_encoding(owner, v.type)
        else:
            t = scalar_tensor(v, self.loop)
            shape, elt, enc = [1], v.type, shared_encoding(None, t)
        buf = memdesc([1, *shape], elt, enc, True)
        ws = outer_ws_loop(self.loop)
        alloc = ttg.LocalAllocOp.create(result_types=[buf])
        alloc.location = v.owner.location if isinstance(v, SSAValue) and isinstance(v.owner, Operation) else ws.location
        aref = ArefCreateOp.create(operands=[alloc.results[0]], result_types=[ArefType(ArrayAttr([buf]))])
        aref.location = alloc.location
        ws.parent.insert_ops_before([alloc, aref], ws)
        return aref

    # ------------------------------------------------------------------ the producer side
    def put(self, aref: ArefCreateOp, v: SSAValue, parts, block: Block, before: Operation | None) -> list:
        loc = _loc(v, self.loop)
        buf = aref.buffers[0].type
        sc = producer_stage_cluster(v)
        producer = [parts[0]]
        enter = into(ArefPutEnterOp.create(operands=[aref.result],
                                           properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 0])},
                                           result_types=[view_type(buf, True), AsyncTokenType()]),
                     block, before, producer, sc, loc)
        slot = enter.results[0]
        kind, stale = "none", []
        owner = v.owner if isinstance(v.owner, Operation) else None
        pair = load_and_alloc(v)

        def store(src):
            into(ttg.LocalStoreOp.create(operands=[src, slot]), block, before, producer, sc, loc)

        if isinstance(owner, ttg.LocalAllocOp) and owner.src is not None and owner.src.owner.name == "tt.load" \
                and ids(owner.src.owner) == ids(owner) or owner is not None and owner.name == "tt.load":
            raise CompileError(at_op(owner, None, "cpasync not supported yet"))
        if pair is not None:
            alloc, load = pair
            self.desc_load(load, slot, producer, block, before, loc)
            kind, stale = "tma_load", [alloc, load]
        elif isinstance(owner, ttg.LocalAllocOp):
            store(owner.src)
            stale = [owner]
        elif isinstance(v.type, TensorType):
            if owner is not None and owner.name in DESC_LOADS:
                self.desc_load(owner, slot, producer, block, before, loc)
                kind, stale = "tma_load", [owner]
            else:
                store(v)
        else:
            splat = into(tt.SplatOp.create(operands=[v], result_types=[scalar_tensor(v, self.loop)]),
                         block, before, producer, sc, loc)
            store(splat.results[0])
        into(ArefPutExitOp.create(operands=[aref.result, enter.results[1]],
                                  properties={"async_ops": async_ops(kind)}), block, before, producer, sc, loc)
        return stale

    def desc_load(self, load: Operation, slot: SSAValue, producer, block, before, loc) -> None:
        t = load.results[0].type
        tx = _prod(shape_per_cta(t.get_shape(), desc_encoding(load))) * bitwidth(t.element_type) // 8
        if load.name == "tt.descriptor_load":
            new = DescriptorLoadOp.create(operands=[load.desc, *load.indices, slot],
                                          properties={"txCount": IntegerAttr(tx, i32), "cache": load.cache,
                                                      "evict": load.evict})
        else:
            new = DescriptorGatherOp.create(operands=[load.desc, load.x_offsets, load.y_offset, slot],
                                            properties={"txCount": IntegerAttr(tx, i32)})
        new.attributes.update(load.attributes)
        into(new, block, before, producer, None, loc)

    # ------------------------------------------------------------------ the consumer side
    def enter_exit_stage_clusters(self, results: list[SSAValue], part: int):
        sched = CoarseSchedule.deserialize(self.scheduled) if self.scheduled is not None else None
        if sched is None:
            return None, None
        if isinstance(results[0], BlockArgument):
            arg = results[0]
            sc = stage_cluster(arg.owner.last_op.operands[arg.index - 1].owner)
            return sc, sc
        users = set()
        for v in results:
            users.update(_top_level_users(v.owner, self.scheduled, lambda u: part in ids(u) if has_partition(u) else False))
        if not users or any(u is None or u not in sched.at for u in users):
            return None, None
        pos = {c: i for i, c in enumerate(sched.clusters)}
        body = self.scheduled.body.block
        key = lambda u: (sched.at[u][0], pos[sched.at[u][1]], body.get_operation_index(u))
        return stage_cluster(min(users, key=key)), stage_cluster(max(users, key=key))

    def get(self, aref: ArefCreateOp, results: list[SSAValue], part: int, uses: list, block: Block,
            before: Operation) -> None:
        loc = _loc(results[0], self.loop)
        sc_enter, sc_exit = self.enter_exit_stage_clusters(results, part)
        buf = aref.buffers[0].type
        enter = into(ArefGetEnterOp.create(operands=[aref.result],
                                           properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 0])},
                                           result_types=[view_type(buf, False), AsyncTokenType()]),
                     block, before, [part], sc_enter, loc)
        slot, token = enter.results
        consumers = transitive_consumers(results, [part])
        kinds = []
        for c in consumers:
            if isinstance(c, scf.ForOp) and len(consumers) > 1:
                continue
            k = "wgmma" if c.name == "ttng.warp_group_dot" else "tc5mma" if c.name in MMAV5 else "none"
            if k not in kinds:
                kinds.append(k)
        exit_after = None
        for v in results:
            if isinstance(v.owner, ttg.LocalAllocOp):
                replace_and_propagate(v.owner, slot, [part])
            elif isinstance(v.type, TensorType):
                load = into(ttg.LocalLoadOp.create(operands=[slot], result_types=[v.type]), block, before, [part],
                            sc_enter, loc)
                for op, i in uses:
                    if op.operands[i] is v:
                        op.operands[i] = load.results[0]
                if len(list(slot.uses)) == 1:
                    exit_after = load
            else:
                load = into(ttg.LocalLoadOp.create(operands=[slot], result_types=[scalar_tensor(v, self.loop)]),
                            block, before, [part], sc_enter, loc)
                scalar = into(tt.UnsplatOp.create(operands=[load.results[0]], result_types=[v.type]), block, before,
                              [part], sc_enter, loc)
                for op, i in uses:
                    op.operands[i] = scalar.results[0]
                exit_after = load
        if exit_after is None:
            exit_after = common_post_dominator(consumers)
        into(ArefGetExitOp.create(operands=[aref.result, token], properties={"async_ops": async_ops(*kinds)}),
             exit_after.parent, exit_after.next_op, [part], sc_exit, loc)

    # ------------------------------------------------------------------ one produced value
    def insert(self, v: SSAValue, parts: list[int], block: Block, before: Operation | None) -> bool:
        results: dict[int, list[SSAValue]] = {}
        uses: dict[int, list] = {}

        def collect(value):
            for use in list(value.uses):
                if not has_partition(use.operation):
                    continue
                for i in use_ids(use.operation, use.index):
                    if i in parts:
                        continue
                    if value not in results.setdefault(i, []):
                        results[i].append(value)
                    uses.setdefault(i, []).append((use.operation, use.index))

        collect(v)
        pair = load_and_alloc(v)
        if pair is not None:
            collect(pair[0].src)
        if not results:
            return False
        aref = self.create_aref(v, parts)
        stale = self.put(aref, v, parts, block, before)
        for part in sorted(results, key=lambda i: (i * 37) % 64):  # a DenseMap<int>'s iteration order
            first = min((block.find_ancestor_op_in_block(op) for op, _ in uses[part]),
                        key=block.get_operation_index)
            self.get(aref, results[part], part, uses[part], block, first)
        for op in stale:
            op.detach()
            op.erase()
        return True

    def run(self) -> None:
        loop = self.loop
        for f in [op for op in loop.walk(region_first=True) if isinstance(op, scf.ForOp)]:
            body = f.body.block
            for arg in body.args[1:]:
                if isinstance(arg.type, (TensorType, IntegerType, AnyFloat)):
                    self.insert(arg, sorted(outputs(f)[arg.index - 1]), body, body.first_op)
        memory = [op for op in loop.walk(region_first=True)
                  if op.results and (load_and_alloc(op.results[0]) or isinstance(op, ttg.LocalAllocOp))]
        for op in memory:
            if op.parent is None:
                continue
            for v, parts in produced(op):
                if op.parent is not None:
                    self.insert(v, parts, op.parent, op)
        for op in list(loop.walk(region_first=True)):
            if op is loop or op.parent is None or op.name in MMAV5 or op.name in ("ttng.tmem_alloc", "ttng.tmem_store"):
                continue
            for v, parts in produced(op):
                if op.parent is not None:
                    self.insert(v, parts, op.parent, op.next_op)


def produced(op: Operation) -> list:
    """getProducedValues: the op's non-token results with the partitions that compute them."""
    if not has_partition(op):
        return []
    per = [ids(op)] * len(op.results) if not op.regions else [sorted(o) for o in outputs(op)]
    return [(r, p) for r, p in zip(op.results, per) if not isinstance(r.type, AsyncTokenType)]


def producer_stage_cluster(v: SSAValue):
    """getStageClusterForProducer: follow loop-carried values to what is yielded; a descriptor load's when an
    alloc of it is produced."""
    seen = None
    while isinstance(v, BlockArgument) and v is not seen:
        seen = v
        term = v.owner.last_op
        if not isinstance(term, scf.YieldOp):
            return None
        v = term.operands[v.index - 1]
    pair = load_and_alloc(v)
    if pair is not None:
        return stage_cluster(pair[1])
    alloc = v.owner if isinstance(v.owner, ttg.LocalAllocOp) else None
    if alloc is not None and alloc.src is not None and isinstance(alloc.src.owner, Operation) \
            and alloc.src.owner.name == "tt.load" and ids(alloc.src.owner) == ids(alloc):
        return stage_cluster(alloc.src.owner)
    return stage_cluster(v.owner) if isinstance(v.owner, Operation) else None


def _top_level_users(op: Operation, loop: scf.ForOp, keep) -> set:
    """getTopLevelUsersInLoop with a filter: through loop-carried values and memdesc views."""
    body, out, seen = loop.body.block, set(), set()
    work = [u for r in op.results for u in r.uses] if isinstance(op, Operation) else []
    while work:
        use = work.pop()
        user = use.operation
        if isinstance(user, scf.YieldOp) and user.parent_op() is loop:
            arg = body.args[use.index + 1]
            if arg not in seen:
                seen.add(arg)
                work.extend(arg.uses)
            continue
        if user.name in VIEWS:
            work.extend(u for r in user.results for u in r.uses)
            continue
        if keep(user):
            out.add(body.find_ancestor_op_in_block(user))
    return out


def _consumers_of(op: Operation, parts: list[int], out: dict) -> None:
    for r in op.results:
        for use in list(r.uses):
            user = use.operation
            if any(isinstance(x.type, MemDescType) for x in user.results):
                _consumers_of(user, parts, out)
            elif use_ids(user, use.index) == parts:
                out.setdefault(user, None)
                out.setdefault(op.parent.find_ancestor_op_in_block(user), None)


def transitive_consumers(results: list[SSAValue], parts: list[int]) -> list[Operation]:
    out: dict = {}
    for v in results:
        if isinstance(v, BlockArgument):
            for use in v.uses:
                if use_ids(use.operation, use.index) == parts:
                    out.setdefault(use.operation, None)
        else:
            _consumers_of(v.owner, parts, out)
    return [op for op in out if op is not None]


def common_block(ops: list[Operation]):
    """The innermost block that holds every op of `ops` (directly or in a nested region), or None."""
    chains = []
    for op in ops:
        chain, b = [], op.parent
        while b is not None:
            chain.append(b)
            p = b.parent_op()
            b = p.parent if p is not None else None
        chains.append(chain)
    return next((b for b in chains[0] if all(b in c for c in chains[1:])), None)


def common_post_dominator(ops: list[Operation]) -> Operation:
    """findNearestCommonPostDominator in structured code: the ops' ancestors in their nearest common block, the
    last of them."""
    if len(ops) == 1:
        return ops[0]
    common = common_block(ops)
    assert common is not None, "ops of one function share its body"
    tops = [common.find_ancestor_op_in_block(op) for op in ops]
    return max(tops, key=common.get_operation_index)


def replace_and_propagate(old: Operation, val: SSAValue, parts: list[int]) -> None:
    """replaceUsesAndPropagateType: users of `old` read `val`; memdesc views are rebuilt on it (their new ops
    in the consumer partition), their users in turn."""
    for use in list(old.results[0].uses):
        user = use.operation
        if user.name not in VIEWS:
            user.operands[use.index] = val
            continue
        src, t = val.type, user.results[0].type
        if user.name == "ttg.memdesc_trans":
            order = list(user.order.get_values())
            alloc = [d.data for d in src.alloc_shape.data]
            lead, tail = alloc[:len(alloc) - len(order)], alloc[len(alloc) - len(order):]
            new_t = memdesc(t.get_shape(), t.element_type, t.encoding, bool(src.mutable.data),
                            lead + [tail[i] for i in order])
        elif user.name == "ttg.memdesc_subslice":
            new_t = memdesc(t.get_shape(), t.element_type, t.encoding, bool(src.mutable.data),
                            [d.data for d in t.alloc_shape.data])
        else:
            new_t = memdesc(t.get_shape(), t.element_type, t.encoding, bool(src.mutable.data))
        new = type(user).create(operands=[val, *user.operands[1:]], result_types=[new_t],
                                properties=dict(user.properties), attributes=dict(user.attributes))
        new.location = user.location
        user.parent.insert_op_before(new, user)
        replace_and_propagate(user, new.results[0], parts)
        set_partition(new, parts)
        user.detach()
        user.erase()


def _loc(v: SSAValue, loop: scf.ForOp):
    return v.owner.location if isinstance(v.owner, Operation) else loop.location


def _prod(xs) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


@dataclass(frozen=True)
class InsertAref(Pass):
    """Insert arefs between producer and consumer partitions."""

    name = "nvws-insert-aref"
    summary = "Insert arefs between producer and consumer partitions."
    display = "NVWSInsertAref"

    def apply(self, ctx, module) -> None:
        loops = [op for op in module.walk(region_first=True)
                 if isinstance(op, scf.ForOp) and WS in op.attributes and has_partition(op)]
        for loop in loops:
            Inserter(loop).run()
