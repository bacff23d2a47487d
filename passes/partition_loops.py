"""tritongpu-partition-loops: split each loop whose ops are assigned to partitions (`ttg.partition.stages` on the
loop, `ttg.partition = array<i32: ...>` on its ops, `ttg.partition.outputs` on ops with results) into an
`nvws.warp_group` with one region per partition, each holding its own copy of the loop; as Triton 3.6's
PartitionLoops.

First every partition's outputs are checked: a value one partition makes and an op of another partition uses in
the loop (directly, or through iteration arguments: the distance is how many iterations later) is only allowed
when the user's partitions are all among the maker's; otherwise a warning "non-root partition #N has direct SSA
consumer" (a note per partition of the use) and the pass fails. A loop with one partition is left as it is.

Otherwise the `nvws.warp_group` goes before the loop, every partition with the function's number of warps. Each
op with partitions (in the loop, and the ops of the loop's block with the loop's `ttg.warp_specialize.tag`) is
copied into each of its partitions; `scf.for`, `scf.if` and `tt.reduce` are copied with their bodies, keeping of
their results (and the yields' values) those whose `ttg.partition.outputs` name the partition. A loop copy keeps
the iteration arguments its partition uses and loses `ttg.partition.stages` and, inside it, every
`ttg.partition`. The first partition's loop results are the warp group's, through `nvws.warp_group.yield`; a
tensor result that only another partition computes goes through shared memory (a `ttg.local_alloc` before the
warp group, a `ttg.local_store` at the end of that partition, then a `ttg.local_load` and `ttg.local_dealloc` after
the warp group). Loop results used outside the partitions (or by another tagged loop) then use the warp group's
results, and the original ops are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntAttr, IntegerAttr, TensorType, i32
from xdsl.ir import Block, Operation, Region, SSAValue

from ttc.ir.diagnostics import CompileError, at_op, emit
from ttc.ir.layout_utils import get_order
from ttc.ir.layouts import SharedMemorySpace, SwizzledSharedEncoding
from ttc.ir.nvws import WarpGroupOp, WarpGroupReturnOp, WarpGroupYieldOp
from ttc.ir.attr_printer import attr_text
from ttc.ir.types import encoding
from ttc.ir.memdesc import MemDescType
from ttc.ir.warp_specialize import lookup_num_warps
from ttc.opt.passmanager import Pass

PARTITION = "ttg.partition"
OUTPUTS = "ttg.partition.outputs"
STAGES = "ttg.partition.stages"
TAG = "ttg.warp_specialize.tag"
USED, UNUSED, FROM_OTHER = "used", "unused", "tensor result from another partition"


def ids(op: Operation | None) -> list[int]:
    """The op's partitions (`ttg.partition`), sorted; none where it has no such attribute."""
    a = op.attributes.get(PARTITION) if op is not None else None
    return sorted(set(a.get_values())) if isinstance(a, DenseArrayBase) else []


def outputs(op: Operation) -> list[list[int]]:
    """Per result, the partitions that compute it (`ttg.partition.outputs`)."""
    a = op.attributes.get(OUTPUTS)
    if not op.results or not isinstance(a, ArrayAttr):
        return [[] for _ in op.results]
    return [list(x.get_values()) for x in a.data]


def ancestor_in(block: Block, op: Operation) -> Operation | None:
    while op is not None and op.parent_block() is not block:
        op = op.parent_op()
    return op


def partition_ops(loop: scf.ForOp, count: int) -> list[list[Operation]]:
    """PartitionSet::fromLoop: each partition's ops, the loop's nested ops first (post-order)."""
    ops = [[] for _ in range(count)]
    for op in loop.walk(region_first=True):
        for i in ids(op):
            if i < 0 or i >= count:
                raise CompileError(at_op(op, None, f"invalid partition index {i}"))
            ops[i].append(op)
    return ops


def check_uses(loop: scf.ForOp, index: int, ops: list[Operation]) -> bool:
    """Partition::iterateUses with partitionLoop's check: warn and return False on a forbidden consumer."""
    body, ok = loop.body.block, True
    pending = []
    for op in ops:
        for r in op.results:
            for use in list(r.uses):
                owner = ancestor_in(body, use.operation)
                if owner is None:
                    continue
                if isinstance(owner, scf.YieldOp) or index not in ids(owner):
                    pending.append((r, use, 0))
    while pending:
        out, use, distance = pending.pop()
        owner = ancestor_in(body, use.operation)
        if owner is None:
            continue
        if not isinstance(owner, scf.YieldOp):
            users = ids(use.operation)
            if index in users or all(u in ids(out.owner) for u in users):
                continue
            ok = False
            diag = at_op(out.owner, None, f"non-root partition #{index} has direct SSA consumer", "warning")
            for u in users:
                diag.notes.append(at_op(use.operation, None, f"use at distance {distance} in partition #{u} here",
                                        "note"))
            emit(diag)
            continue
        arg = body.args[1 + use.index]
        pending.extend((out, u, distance + 1) for u in list(arg.uses))
    return ok


def computed_by(loop: scf.ForOp, i: int, index: int) -> bool:
    value = loop.body.block.last_op.operands[i]
    if not isinstance(value.type, TensorType) or not isinstance(value.owner, Operation):
        return False
    owner = value.owner
    found = outputs(owner)[value.index] if isinstance(owner, scf.IfOp) else ids(owner)
    return index in found


def classify(loop: scf.ForOp, index: int, count: int) -> list[str]:
    cats = []
    for i, outs in enumerate(outputs(loop)):
        if index in outs:
            cats.append(USED)
        elif loop.results[i].uses and any(computed_by(loop, i, j) for j in range(count) if j != index):
            cats.append(FROM_OTHER)
        else:
            cats.append(UNUSED)
    return cats


def kept(loop: scf.ForOp, index: int, count: int) -> list[int]:
    return [i for i, c in enumerate(classify(loop, index, count)) if c == USED]


class Builder:
    """Where one partition's copies go (before `anchor` in `block`, at its end when None) and what maps to what."""

    def __init__(self, block: Block, index: int):
        self.block, self.anchor, self.index, self.map = block, None, index, {}

    def insert(self, op: Operation) -> Operation:
        if self.anchor is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.anchor)
        return op

    def at_start(self, block: Block) -> None:
        self.block, self.anchor = block, block.first_op

    def after(self, op: Operation) -> None:
        self.block, self.anchor = op.parent_block(), op.next_op

    def get(self, v: SSAValue) -> SSAValue:
        return self.map.get(v, v)


def _copy_attrs(op: Operation) -> dict:
    return {k: v for k, v in op.attributes.items() if k != OUTPUTS}


def clone_for(loop: scf.ForOp, builders: list[Builder], count: int) -> None:
    new_loops = []
    for i in ids(loop):
        b = builders[i]
        keep = kept(loop, i, count)
        body = Block(arg_types=[loop.body.block.args[0].type] + [loop.iter_args[k].type for k in keep])
        new = scf.ForOp.create(operands=[b.get(loop.lb), b.get(loop.ub), b.get(loop.step)]
                               + [b.get(loop.iter_args[k]) for k in keep],
                               result_types=[loop.results[k].type for k in keep], properties=dict(loop.properties),
                               attributes=_copy_attrs(loop), regions=[Region(body)])
        if not keep:
            body.add_op(scf.YieldOp())
        b.insert(new)
        new_loops.append((i, new))
        b.map[loop.body.block.args[0]] = body.args[0]
        for n, k in enumerate(keep):
            b.map[loop.body.block.args[1 + k]] = body.args[1 + n]
            b.map[loop.results[k]] = new.results[n]
        b.at_start(body)
    clone_block(loop.body.block, builders, count)
    for i, new in new_loops:
        builders[i].after(new)
        for op in new.walk():
            op.attributes.pop(PARTITION, None)
        new.attributes.pop(STAGES, None)


def clone_if(op: scf.IfOp, builders: list[Builder], count: int) -> None:
    new_ifs = []
    outs = outputs(op)
    has_else = bool(op.false_region.blocks)
    for i in ids(op):
        b = builders[i]
        keep = [k for k, o in enumerate(outs) if i in o]
        then, other = Block(), Block() if has_else else None
        if not keep:
            then.add_op(scf.YieldOp())
            if other is not None:
                other.add_op(scf.YieldOp())
        new = scf.IfOp.create(operands=[b.get(op.cond)], result_types=[op.results[k].type for k in keep],
                              properties=dict(op.properties), attributes=_copy_attrs(op),
                              regions=[Region(then), Region(other) if other is not None else Region()])
        b.insert(new)
        new_ifs.append((i, new))
        for n, k in enumerate(keep):
            b.map[op.results[k]] = new.results[n]
        b.at_start(then)
    clone_block(op.true_region.block, builders, count)
    if has_else:
        for i, new in new_ifs:
            builders[i].at_start(new.false_region.block)
        clone_block(op.false_region.block, builders, count)
    for i, new in new_ifs:
        builders[i].after(new)


def clone_reduce(op: Operation, builders: list[Builder], count: int) -> None:
    new_ops = []
    for i in ids(op):
        b = builders[i]
        old = op.regions[0].blocks.first
        block = Block(arg_types=[a.type for a in old.args])
        new = type(op).create(operands=[b.get(v) for v in op.operands], result_types=[r.type for r in op.results],
                              properties=dict(op.properties), attributes=_copy_attrs(op), regions=[Region(block)])
        b.insert(new)
        new_ops.append((i, new))
        for r, n in zip(op.results, new.results):
            b.map[r] = n
        for a, n in zip(old.args, block.args):
            b.map[a] = n
        b.at_start(block)
    clone_block(op.regions[0].blocks.first, builders, count)
    for i, new in new_ops:
        builders[i].after(new)


def clone_op(op: Operation, builders: list[Builder], where: list[int]) -> None:
    if op.regions:
        raise CompileError(at_op(op, None, "Ops are expected to be regionless at this point."))
    for i in where:
        b = builders[i]
        new = b.insert(op.clone(value_mapper=dict(b.map)))
        for r, n in zip(op.results, new.results):
            b.map[r] = n


def clone_block(block: Block, builders: list[Builder], count: int) -> None:
    for op in list(block.ops):
        if isinstance(op, scf.ForOp):
            clone_for(op, builders, count)
        elif isinstance(op, scf.IfOp):
            clone_if(op, builders, count)
        elif op.name == "tt.reduce":
            clone_reduce(op, builders, count)
        elif isinstance(op, scf.YieldOp):
            if not op.operands:
                continue
            parent = op.parent_op()
            for i in ids(op):
                b = builders[i]
                if isinstance(parent, scf.ForOp):
                    keep = kept(parent, i, count)
                else:
                    keep = [k for k, o in enumerate(outputs(parent)) if i in o]
                if keep:
                    b.insert(scf.YieldOp(*[b.get(op.operands[k]) for k in keep]))
        else:
            clone_op(op, builders, ids(op))


def partition_loop(loop: scf.ForOp) -> bool:
    stages, tag = loop.attributes.get(STAGES), loop.attributes.get(TAG)
    if not isinstance(stages, ArrayAttr) or not isinstance(tag, IntegerAttr):
        return False
    for s in stages.data:
        if not isinstance(s, IntegerAttr) or s.value.data < 0:
            raise CompileError(at_op(loop, None, f"partition stages attribute '{STAGES}' has invalid element "
                                                 f"{attr_text(s)}"))
    count = len(stages.data)
    ops = partition_ops(loop, count)
    for index in range(count):
        if not check_uses(loop, index, ops[index]):
            return False
    if count <= 1:
        return True

    cats = classify(loop, 0, count)
    keep = [i for i, c in enumerate(cats) if c == USED]
    new_index = {k: n for n, k in enumerate(keep)}
    block = loop.parent_block()
    allocs = {}
    for i, r in enumerate(loop.results):
        if cats[i] == FROM_OTHER:
            t = r.type
            enc = SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=get_order(encoding(t)))
            dims = ArrayAttr([IntAttr(d) for d in t.get_shape()])
            mem = MemDescType(dims, t.element_type, enc, SharedMemorySpace(), IntAttr(1), dims)
            allocs[i] = _before(loop, _op("ttg.local_alloc", [], [mem], loop))
    warps = lookup_num_warps(loop) or 4
    wg = WarpGroupOp.create(result_types=[loop.results[k].type for k in keep],
                            properties={"numWarps": DenseArrayBase.from_list(i32, [warps] * count)},
                            regions=[Region(Block()) for _ in range(count)])
    wg.location = loop.location
    block.insert_op_before(wg, loop)
    builders = [Builder(r.blocks.first, i) for i, r in enumerate(wg.regions)]
    erase = []
    for op in list(block.ops):
        op_tag = op.attributes.get(TAG)
        if not ids(op) or not isinstance(op_tag, IntegerAttr) or op_tag.value.data != tag.value.data:
            continue
        if op is loop:
            clone_for(loop, builders, count)
        else:
            clone_op(op, builders, ids(op))
        erase.append(op)
    for b, region in zip(builders, wg.regions):
        b.block, b.anchor = region.blocks.first, None
        if b.index not in ids(loop):
            b.insert(WarpGroupYieldOp.create())
            continue
        new = next(op for op in region.blocks.first.ops if isinstance(op, scf.ForOp))
        if b.index == 0:
            b.insert(WarpGroupYieldOp.create(operands=list(new.results)))
            continue
        mine = kept(loop, b.index, count)
        for i in range(len(loop.results)):
            if cats[i] == FROM_OTHER and computed_by(loop, i, b.index):
                b.insert(_op("ttg.local_store", [new.results[mine.index(i)], allocs[i].results[0]], [], loop))
        b.insert(WarpGroupReturnOp.create())
    at = wg
    for i, r in enumerate(loop.results):
        if not r.uses:
            continue
        if cats[i] == FROM_OTHER:
            load = _op("ttg.local_load", [allocs[i].results[0]], [r.type], loop)
            dealloc = _op("ttg.local_dealloc", [allocs[i].results[0]], [], loop)
            block.insert_ops_after([load, dealloc], at)
            at = dealloc
            r.replace_all_uses_with(load.results[0])
        elif any(not ids(u.operation) or (isinstance(u.operation, scf.ForOp) and TAG in u.operation.attributes)
                 for u in r.uses):
            r.replace_all_uses_with(wg.results[new_index[i]])
    for op in reversed(erase):
        op.detach()
        op.erase(safe_erase=False)
    return True


def _op(name: str, operands, result_types, like: Operation) -> Operation:
    from ttc.ir import ttg

    cls = {"ttg.local_alloc": ttg.LocalAllocOp, "ttg.local_store": ttg.LocalStoreOp,
           "ttg.local_load": ttg.LocalLoadOp, "ttg.local_dealloc": ttg.LocalDeallocOp}[name]
    op = cls.create(operands=operands, result_types=result_types)
    op.location = like.location
    return op


def _before(anchor: Operation, op: Operation) -> Operation:
    anchor.parent_block().insert_op_before(op, anchor)
    return op


@dataclass(frozen=True)
class PartitionLoops(Pass):
    """Split loops whose ops are assigned to partitions into an `nvws.warp_group` of per-partition loops."""

    name = "tritongpu-partition-loops"
    summary = "Split scheduled loops into `nvws.warp_group` partitions"
    display = "TritonGPUPartitionLoops"

    def apply(self, ctx, module) -> None:
        loops = [op for op in module.walk(region_first=True) if isinstance(op, scf.ForOp) and isinstance(op.attributes.get(STAGES),
                                                                                       ArrayAttr)]
        for loop in loops:
            if not partition_loop(loop):
                raise CompileError()
