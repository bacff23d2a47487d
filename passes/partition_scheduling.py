"""tritongpu-partition-scheduling: assign the ops of every `tt.warp_specialize` loop to partitions (warp groups
that run concurrently), as Triton 3.6's PartitionScheduling, for tritongpu-partition-loops to split them.

A loop that already has `ttg.partition.stages` and `ttg.warp_specialize.tag` keeps its partitions (as given by
its ops' `ttg.partition`). Otherwise three partitions are made: the default one (#0, stage 0), one for MMAs (#1,
stage 1) and one for loads (#2, stage 0); nested loops are walked with the same partitions.

1. Seeds. Every `tt.descriptor_load`/`tt.descriptor_gather` goes to the load partition, with the
   `ttg.local_alloc`s of it whose layout is the descriptor's and its `ttng.tmem_alloc` users. Every MMA v5 op goes
   to the MMA partition, with the `ttng.tmem_store` that feeds its accumulator when it stores a value made outside
   the loop and the accumulator is not read-modify-written; the memdesc views (`memdesc_trans`, `_subslice`, ...)
   feeding its operands join it too, copied first when another partition also uses them. A loop with no load
   and no MMA is not specialized.
2. The default partition takes every `math.exp2`/`tt.elementwise_inline_asm` of more than 256 elements and the
   tensor/memdesc values feeding it that come from a partition; then the users of the loads (transitively, through
   iteration arguments, up to ops already assigned). Each MMA's users go to a user partition, the last MMA's to the
   default partition, earlier ones to new partitions; `ttng.tmem_load`s left over go to the partition of their
   buffer's other users.
3. The ops still unassigned that sit between partitions are grouped into clusters of adjacent ops; a cluster goes
   to the first partition feeding it, except that the chain of it a later partition needs is copied into that
   partition when the cluster also has ops off that chain.
4. `tt.expand_dims`/`tt.broadcast` chains used by another partition are copied into the using partition.
5. The ops in `scf.if`/`tt.reduce` bodies take their parent's partitions; other unassigned ops take the union of
   their users' partitions (through iteration arguments and `scf.if` results), then scalar ops and ops without
   results take their operands' partitions; TMEM loads/stores of a buffer join the partition of its other loads.
6. Region ops (`scf.for`, `scf.if`, `tt.reduce`) get the union of their bodies' partitions, and
   `ttg.partition.outputs`: per result, the partitions computing it (for an async token carried by a loop: its
   user's; for one out of an `scf.if`: the other branch's when this branch makes it).

The loop gets `ttg.warp_specialize.tag` (its index among the module's `tt.warp_specialize` loops) and
`ttg.partition.stages`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, DenseArrayBase, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.attr_printer import attr_text
from ttc.ir.tmem import TCGen5MMAOp, TCGen5MMAScaledOp, TMEMAllocOp, TMEMLoadOp, TMEMStoreOp
from ttc.ir.types import AsyncTokenType
from ttc.ir.memdesc import MemDescType
from ttc.passes.assign_latencies import _acc_read_modify_write
from ttc.passes.partition_loops import OUTPUTS, PARTITION, STAGES, TAG, ancestor_in, ids, outputs
from ttc.passes.tma_lowering import encoding_for_shape
from ttc.opt.passmanager import Pass

WARP_SPECIALIZE = "tt.warp_specialize"
MMA_V5 = (TCGen5MMAOp, TCGen5MMAScaledOp)
VIEWS = ("ttg.memdesc_trans", "ttg.memdesc_subslice", "ttg.memdesc_index", "ttg.memdesc_reshape",
         "ttg.memdesc_reinterpret", "ttng.tmem_subslice")
TMA_LOADS = ("tt.descriptor_load", "tt.descriptor_gather")


class Partition:
    def __init__(self, index: int, stage: int):
        self.index, self.stage, self.ops = index, stage, []

    def has(self, op: Operation) -> bool:
        return self.index in ids(op)


# ---- attributes -------------------------------------------------------------------------------------------------

def has(op) -> bool:
    return isinstance(op, Operation) and PARTITION in op.attributes


def _array(values) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, sorted(set(values)))


def set_ids(op: Operation, values) -> None:
    """setPartition: the op's `ttg.partition`, and its regions' terminators'."""
    attr = _array(values)
    op.attributes[PARTITION] = attr
    for region in op.regions:
        for block in region.blocks:
            if block.last_op is not None:
                block.last_op.attributes[PARTITION] = attr


def put(op: Operation, *parts: Partition) -> None:
    set_ids(op, [p.index for p in parts])
    for p in parts:
        p.ops.append(op)


def try_put(op: Operation, part: Partition) -> bool:
    if has(op):
        return False
    put(op, part)
    return True


def set_outputs(op: Operation, outs: list[list[int]]) -> None:
    if not outs:
        op.attributes.pop(OUTPUTS, None)
    else:
        op.attributes[OUTPUTS] = ArrayAttr([_array(o) for o in outs])


# ---- IR walking -------------------------------------------------------------------------------------------------

def _block_of(v: SSAValue) -> Block | None:
    return v.owner if isinstance(v, BlockArgument) else v.owner.parent_block()


def nested_uses(op: Operation) -> list[tuple[Operation, int]]:
    """visitNestedOperands: (op, operand index) of the operands of `op` and its nested ops (nested ones first) that
    are defined outside `op`."""
    found = []
    for o in op.walk(region_first=True):
        for i, v in enumerate(o.operands):
            owner = v.owner
            if not op.is_ancestor(owner):
                found.append((o, i))
    return found


def nested_operands(op: Operation) -> list[SSAValue]:
    return list(dict.fromkeys(o.operands[i] for o, i in nested_uses(op)))


def uses_of(op: Operation) -> list[tuple[Operation, int]]:
    return [(u.operation, u.index) for r in op.results for u in r.uses]


def yielded(loop: scf.ForOp) -> list[SSAValue]:
    return list(loop.body.block.last_op.operands)


def iter_arg(loop: scf.ForOp, i: int) -> BlockArgument:
    return loop.body.block.args[1 + i]


def is_iv(loop: scf.ForOp, v: SSAValue) -> bool:
    return isinstance(v, BlockArgument) and v.owner is loop.body.block and v.index == 0


def definition(loop: scf.ForOp, v: SSAValue) -> tuple[SSAValue | None, int]:
    """getDefinitionAndDistance: the op result a value comes from through the loop's iteration arguments."""
    distance, seen = 0, set()
    while isinstance(v, BlockArgument):
        if v.owner is not loop.body.block or v.index == 0:
            return None, 0
        distance += 1
        v = yielded(loop)[v.index - 1]
        if v in seen:
            return None, 0
        seen.add(v)
    return v, distance


def find_def_in_loop(loop: scf.ForOp, v: SSAValue | None, distance: int = 0) -> Operation | None:
    if v is None:
        return None
    if isinstance(v, BlockArgument):
        if v.owner is not loop.body.block or distance == 1 or v.index == 0:
            return None
        return find_def_in_loop(loop, yielded(loop)[v.index - 1], distance + 1)
    return v.owner if loop.body.is_ancestor(v.owner) else None


def op_defs(loop: scf.ForOp, op: Operation) -> list[SSAValue]:
    """The static iterateDefs: the in-loop definitions of `op`'s inputs, maybe from earlier iterations."""
    body, found = loop.body.block, []
    for o, i in nested_uses(op):
        v = o.operands[i]
        if _block_of(v) is not body or is_iv(loop, v):
            continue
        d, _ = definition(loop, v)
        if d is not None and d.owner.parent_block() is body:
            found.append(d)
    return found


def op_users(loop: scf.ForOp, op: Operation) -> list[Operation]:
    """The static iterateUsers: the loop-body users of `op`'s results, through iteration arguments."""
    body, found, stack = loop.body.block, [], uses_of(op)
    while stack:
        user, i = stack.pop()
        owner = ancestor_in(body, user)
        if not isinstance(owner, scf.YieldOp):
            found.append(owner)
            continue
        stack += [(u.operation, u.index) for u in iter_arg(loop, i).uses]
    return found


def part_inputs(loop: scf.ForOp, part: Partition) -> list[SSAValue]:
    """Partition::iterateInputs: values a partition's ops read from another partition or an earlier iteration."""
    body, found = loop.body.block, []
    for op in part.ops:
        for o, i in nested_uses(op):
            v = o.operands[i]
            if _block_of(v) is not body:
                continue
            if isinstance(v, BlockArgument):
                if v.index != 0:
                    found.append(v)
            elif not has(v.owner) or part.index not in ids(v.owner):
                found.append(v)
    return found


def part_defs(loop: scf.ForOp, part: Partition) -> list[SSAValue]:
    found = []
    for v in part_inputs(loop, part):
        d, _ = definition(loop, v)
        if d is not None and d.owner.parent_block() is loop.body.block:
            found.append(d)
    return found


def part_outputs(loop: scf.ForOp, part: Partition) -> list[tuple[Operation, int]]:
    """Partition::iterateOutputs: uses of a partition's results by another partition or a later iteration."""
    body, found = loop.body.block, []
    for op in part.ops:
        for user, i in uses_of(op):
            owner = ancestor_in(body, user)
            if owner is None:
                continue
            if isinstance(owner, scf.YieldOp) or part.index not in ids(owner):
                found.append((user, i))
    return found


def part_uses(loop: scf.ForOp, part: Partition) -> list[Operation]:
    """Partition::iterateUses, the loop-body ops using a partition's outputs (through iteration arguments)."""
    body, found, stack = loop.body.block, [], part_outputs(loop, part)
    while stack:
        user, i = stack.pop()
        owner = ancestor_in(body, user)
        if owner is None:
            continue
        if not isinstance(owner, scf.YieldOp):
            found.append(owner)
            continue
        stack += [(u.operation, u.index) for u in iter_arg(loop, i).uses]
    return found


def has_def_partition(loop: scf.ForOp, op: Operation, count: int) -> bool:
    """Whether an input of `op` is reachable from an op in some but not all partitions."""
    work, seen = [op], set()
    while work:
        o = work.pop()
        if o in seen:
            continue
        seen.add(o)
        if has(o) and len(ids(o)) != count:
            return True
        work += [d.owner for d in op_defs(loop, o)]
    return False


def clone_before(op: Operation) -> Operation:
    new = op.clone()
    new.location = op.location
    op.parent_block().insert_op_before(new, op)
    return new


def replace_uses_if(op: Operation, new: Operation, keep) -> None:
    for r, nr in zip(op.results, new.results):
        r.replace_uses_with_if(nr, keep)


# ---- 1-2: the initial partitions --------------------------------------------------------------------------------

def schedule_dependencies(loop: scf.ForOp, parts: list[Partition], part: Partition, op: Operation) -> None:
    body = loop.body.block
    deps = [v for v in nested_operands(op) if isinstance(v.type, (TensorType, MemDescType))]
    seen_args = set()
    while deps:
        v = deps.pop()
        if isinstance(v, BlockArgument):
            if v.owner is body and v.index != 0 and v not in seen_args:
                seen_args.add(v)
                deps.append(yielded(loop)[v.index - 1])
            continue
        d = ancestor_in(body, v.owner)
        if d is None or not has_def_partition(loop, d, len(parts)) or not try_put(d, part):
            continue
        deps += nested_operands(d)


def schedule_users(loop: scf.ForOp, part: Partition, op: Operation) -> None:
    body = loop.body.block
    stack = uses_of(op)
    while stack:
        user, i = stack.pop()
        owner = ancestor_in(body, user)
        if owner is body.last_op:
            stack += [(u.operation, u.index) for u in iter_arg(loop, i).uses]
            continue
        if owner is None or not try_put(owner, part):
            continue
        stack += uses_of(owner)


def _num_elements(t) -> int:
    n = 1
    for d in t.get_shape():
        n *= d
    return n


def initial_partitions(loop: scf.ForOp, parts: list[Partition], default: Partition, mma: Partition,
                       load: Partition) -> list[Partition]:
    loads, mmas = [], []
    users = [default]
    for op in list(loop.body.block.ops):
        if isinstance(op, scf.ForOp):
            for p in initial_partitions(op, parts, default, mma, load):
                if p not in users:
                    users.append(p)
        elif op.name in TMA_LOADS:
            put(op, load)
            loads.append(op)
            enc = encoding_for_shape(op.operands[0].type.encoding, op.results[0].type.get_shape())
            for user in [u.operation for u in op.results[0].uses]:
                if user.name == "ttg.local_alloc" and user.results[0].type.encoding == enc or \
                        isinstance(user, TMEMAllocOp):
                    put(user, load)
                    loads.append(user)
        elif isinstance(op, MMA_V5):
            put(op, mma)
            mmas.append(op)
            store = find_def_in_loop(loop, op.acc_dep)
            if isinstance(store, TMEMStoreOp) and not _acc_read_modify_write(op, loop) and \
                    not loop.is_ancestor(store.src.owner):
                put(store, mma)
            views = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
            while views:
                view = views.pop()
                if view.name not in VIEWS:
                    continue
                if not all(mma.has(u.operation) for r in view.results for u in r.uses):
                    new = clone_before(view)
                    replace_uses_if(view, new, lambda u: mma.has(u.operation))
                    view = new
                put(view, mma)
                if isinstance(view.operands[0].owner, Operation):
                    views.append(view.operands[0].owner)
    if not load.ops and not mma.ops:
        return []

    for op in list(loop.body.block.ops):
        if op.name not in ("math.exp2", "tt.elementwise_inline_asm"):
            continue
        if sum(_num_elements(t) for t in op.result_types if isinstance(t, TensorType)) > 256:
            put(op, default)
            schedule_dependencies(loop, parts, default, op)

    for op in loads:
        schedule_users(loop, default, op)
    while len(users) < len(mmas):
        p = Partition(len(parts), len(users))
        parts.append(p)
        users.append(p)
    for op, p in reversed(list(zip(mmas, users))):
        schedule_users(loop, p, op)

    for op in list(loop.body.block.ops):
        if not isinstance(op, TMEMLoadOp) or has(op):
            continue
        if len(users) == 1:
            put(op, default)
            continue
        found = []
        for u in op.src.uses:
            if has(u.operation):
                p = parts[ids(u.operation)[0]]
                if p is not mma and p not in found:
                    found.append(p)
        if found:
            put(op, found[0])

    if WARP_SPECIALIZE not in loop.attributes:
        found = []
        for op in loop.body.block.ops:
            for i in ids(op):
                if parts[i] not in found:
                    found.append(parts[i])
        put(loop, *found)
    return users


def from_loop(loop: scf.ForOp) -> list[Partition] | None:
    """PartitionSet::fromLoop: the partitions a loop already has."""
    stages, tag = loop.attributes.get(STAGES), loop.attributes.get(TAG)
    if not isinstance(stages, ArrayAttr) or not isinstance(tag, IntegerAttr):
        return None
    parts = []
    for i, a in enumerate(stages.data):
        if not isinstance(a, IntegerAttr) or a.value.data < 0:
            raise CompileError(at_op(loop, None, f"partition stages attribute '{STAGES}' has invalid element "
                                                 f"{attr_text(a)}"))
        parts.append(Partition(i, a.value.data))
    for op in loop.walk(region_first=True):
        for i in ids(op):
            if i < 0 or i >= len(parts):
                raise CompileError(at_op(op, None, f"invalid partition index {i}"))
            parts[i].ops.append(op)
    return parts


# ---- 3: clusters ------------------------------------------------------------------------------------------------

class Cluster:
    def __init__(self):
        self.ops, self.defs, self.sinks = {}, {}, {}


def propagate(loop: scf.ForOp, parts: list[Partition]) -> None:
    for op in list(loop.body.block.ops):
        if isinstance(op, scf.ForOp):
            propagate(op, parts)
    body, count = loop.body.block, len(parts)
    of, clusters = {}, []

    def get_or_create(op):
        if op not in of:
            c = Cluster()
            c.ops[op] = None
            clusters.append(c)
            of[op] = c
        return of[op]

    for part in parts:
        for d in part_defs(loop, part):
            if not has(d.owner) and has_def_partition(loop, d.owner, count):
                get_or_create(d.owner).sinks[part] = None
        for user in part_uses(loop, part):
            if not has(user):
                get_or_create(user).defs[part] = None

    work = list(of)
    while work:
        op = work.pop()
        c = of[op]
        for d in op_defs(loop, op):
            d = d.owner
            if has(d):
                for i in ids(d):
                    c.defs[parts[i]] = None
                continue
            if not has_def_partition(loop, d, count):
                continue
            dc = of.get(d)
            if dc is None:
                of[d] = c
                c.ops[d] = None
                work.append(d)
            elif dc is not c:
                c.ops.update(dc.ops)
                c.defs.update(dc.defs)
                c.sinks.update(dc.sinks)
                for o in dc.ops:
                    of[o] = c
                dc.ops, dc.defs, dc.sinks = {}, {}, {}
        for user in op_users(loop, op):
            if has(user):
                for i in ids(user):
                    c.sinks[parts[i]] = None
                continue
            if user in of:
                continue
            of[user] = c
            c.ops[user] = None
            work.append(user)

    for c in clusters:
        if not c.ops:
            continue
        def_part = next(iter(c.defs))
        if not c.sinks:
            for op in c.ops:
                put(op, def_part)
            continue
        sink = next(iter(c.sinks))
        crit = {d.owner: None for d in part_defs(loop, sink) if d.owner in c.ops}
        pending = list(crit)
        while pending:
            op = pending.pop(0)
            for d in op_defs(loop, op):
                if d.owner in c.ops and d.owner not in crit:
                    crit[d.owner] = None
                    pending.append(d.owner)
        if len(crit) == len(c.ops):
            for op in c.ops:
                put(op, def_part)
            continue
        order = {op: n for n, op in enumerate(body.ops)}
        sink_ops = set(sink.ops)
        for op in sorted(crit, key=order.__getitem__, reverse=True):
            new = clone_before(op)
            replace_uses_if(op, new, lambda u: u.operation in sink_ops)
            sink_ops.add(new)
            put(new, sink)
        for op in c.ops:
            put(op, def_part)


# ---- 4: broadcasts ----------------------------------------------------------------------------------------------

def optimize(loop: scf.ForOp, parts: list[Partition]) -> None:
    for op in list(loop.body.block.ops):
        if isinstance(op, scf.ForOp):
            optimize(op, parts)
    for part in parts:
        uses = [(user, i) for user, i in part_outputs(loop, part) if not isinstance(user, scf.YieldOp)]
        for user, i in uses:
            d = user.operands[i].owner
            while isinstance(d, Operation) and d.name in ("tt.broadcast", "tt.expand_dims"):
                new = clone_before(d)
                for p in ids(user):
                    put(new, parts[p])
                user.operands[i] = new.results[0]
                d, user, i = new.operands[0].owner, new, 0


# ---- 5: the rest ------------------------------------------------------------------------------------------------

def assign_region_bodies(loop: scf.ForOp, parts: list[Partition]) -> None:
    for op in list(loop.walk(region_first=True)):
        if isinstance(op, (scf.YieldOp, scf.ForOp)) or has(op):
            continue
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, scf.ForOp):
            parent = parent.parent_op()
        top = ancestor_in(parent.body.block, op)
        if has(top):
            put(op, *[parts[i] for i in ids(top)])
    for op in loop.walk():
        if not isinstance(op, scf.ForOp) and has(op) and op.regions:
            del op.attributes[PARTITION]


def _use_ops(v: SSAValue, found: dict, visited: set) -> None:
    if v in visited:
        return
    visited.add(v)
    for u in list(v.uses):
        user = u.operation
        if isinstance(user, scf.ForOp):
            if u.index < 3:
                found[user] = None
            else:
                _use_ops(iter_arg(user, u.index - 3), found, visited)
        elif isinstance(user, scf.YieldOp):
            parent = user.parent_op()
            if isinstance(parent, scf.ForOp):
                _use_ops(iter_arg(parent, u.index), found, visited)
            elif isinstance(parent, scf.IfOp):
                _use_ops(parent.results[u.index], found, visited)
        else:
            found[user] = None


def _scalar(t) -> bool:
    return isinstance(t, (IntegerType, AnyFloat))


def assign_missing(loop: scf.ForOp) -> None:
    for alloc in [op for op in loop.walk(region_first=True) if isinstance(op, TMEMAllocOp)]:
        mma_id = load_id = store_id = None
        simt = False
        users = [u.operation for u in alloc.results[0].uses]
        for user in users:
            if isinstance(user, MMA_V5):
                if has(user):
                    mma_id = ids(user)[0]
            elif isinstance(user, TMEMStoreOp):
                simt = True
                if has(user):
                    store_id = ids(user)[0]
            elif isinstance(user, TMEMLoadOp):
                simt = True
                if has(user):
                    load_id = ids(user)[0]
        if mma_id is None or not simt or (load_id is None and store_id is None):
            continue
        pid = load_id if load_id is not None else store_id
        for user in users:
            if isinstance(user, (TMEMLoadOp, TMEMStoreOp)) and not has(user):
                set_ids(user, [pid])

    part_map: dict[Operation, set[int]] = {}
    ops_map: dict[Operation, dict] = {}
    for op in loop.walk(region_first=True):
        if op.regions:
            continue
        part_map[op] = set(ids(op))
        if has(op) or isinstance(op, scf.YieldOp):
            continue
        found, visited = {}, set()
        for r in op.results:
            if r.uses:
                _use_ops(r, found, visited)
        ops_map[op] = found

    def op_ids(op: Operation, into: set) -> None:
        for region in op.regions:
            for block in region.blocks:
                for o in block.ops:
                    if o is not block.last_op:
                        op_ids(o, into)
        into |= part_map.setdefault(op, set())

    def iterate() -> None:
        left = 100
        while left > 0:
            left -= 1
            converged = True
            for op, users in ops_map.items():
                old = part_map[op]
                new = set(old)
                for u in users:
                    op_ids(u, new)
                converged = converged and old == new
                part_map[op] = new
            if converged:
                break
        if left <= 0:
            raise CompileError(at_op(loop, None, "assignMissingPartitions failed to converge"))
        for op, found in part_map.items():
            if found:
                set_ids(op, found)

    iterate()
    ops_map = {}
    for op in loop.walk(region_first=True):
        if has(op) or op.regions or isinstance(op, scf.YieldOp) or op.name == "tt.reduce.return":
            continue
        if op.results and not all(_scalar(t) for t in op.result_types):
            continue
        ops_map[op] = {v.owner: None for v in op.operands if isinstance(v.owner, Operation)}
    iterate()


# ---- 6: region ops ----------------------------------------------------------------------------------------------

def yield_partitions(block: Block) -> list[list[int]]:
    term, parent = block.last_op, block.parent_op()
    found = [[] for _ in term.operands]
    for n, v in enumerate(term.operands):
        op = v.owner if isinstance(v.owner, Operation) else None
        if isinstance(parent, scf.ForOp) and isinstance(v.type, AsyncTokenType):
            arg_uses = list(iter_arg(parent, n).uses)
            if arg_uses:
                op = arg_uses[0].operation
        if op is None:
            continue
        pids = ids(op) if has(op) else None
        if op.regions and v in op.results:
            outs = outputs(op)
            pids = outs[list(op.results).index(v)]
        if pids is None:
            pids = set()
            for u in [u.operation for r in op.results for u in r.uses]:
                top = ancestor_in(block, u)
                if top is not None and has(top):
                    pids |= set(ids(top))
        found[n] = sorted(pids)
    return found


def set_output_partitions(op: Operation, pids: set, outs: list[list[int]]) -> set:
    pids = set(pids)
    for o in outs:
        pids |= set(o)
    set_ids(op, pids)
    set_outputs(op, outs)
    return pids


def assign_if(op: scf.IfOp) -> set:
    then = op.true_region.blocks[0]
    pids = block_partitions(then)
    then_outs = yield_partitions(then)
    if not op.false_region.blocks:
        return set_output_partitions(op, pids, then_outs)
    other = op.false_region.blocks[0]
    pids |= block_partitions(other)
    else_outs = yield_partitions(other)
    outs = []
    for n, (t, e) in enumerate(zip(then_outs, else_outs)):
        tv, ev = then.last_op.operands[n], other.last_op.operands[n]
        td = tv.owner if isinstance(tv.owner, Operation) else None
        ed = ev.owner if isinstance(ev.owner, Operation) else None
        if isinstance(tv.type, AsyncTokenType):
            outs.append(e if td is not None and ancestor_in(then, td) is not None else t)
        elif td is not None and td.parent_block() is then:
            outs.append(t)
        elif ed is not None and ed.parent_block() is other:
            outs.append(e)
        else:
            outs.append(t if t else e)
    return set_output_partitions(op, pids, outs)


def assign_single_region(op: Operation) -> set:
    block = op.regions[0].blocks[0]
    return set_output_partitions(op, block_partitions(block), yield_partitions(block))


def block_partitions(block: Block) -> set:
    found = set()
    for op in list(block.ops):
        if op is block.last_op:
            break
        if isinstance(op, scf.IfOp):
            found |= assign_if(op)
        elif isinstance(op, scf.ForOp) or op.name == "tt.reduce":
            found |= assign_single_region(op)
        elif has(op):
            found |= set(ids(op))
    return found


def assign_region_ops(loop: scf.ForOp) -> None:
    assign_single_region(loop)
    for op in list(loop.walk(region_first=True)):
        if op.results or has(op) or op.regions or isinstance(op, scf.YieldOp) or op.name == "tt.reduce.return":
            continue
        parent = op.parent_op()
        if has(parent):
            set_ids(op, ids(parent))


def verify(loop: scf.ForOp) -> None:
    for op in loop.walk(region_first=True):
        if has(op) or WARP_SPECIALIZE in op.attributes or isinstance(op, scf.YieldOp) or \
                op.name == "tt.reduce.return":
            continue
        raise CompileError(at_op(op, None, "partition scheduling left this op without a partition"))


@dataclass(frozen=True)
class PartitionScheduling(Pass):
    """Assign the ops of `tt.warp_specialize` loops to partitions (`ttg.partition` attributes)."""

    name = "tritongpu-partition-scheduling"
    summary = "Assign the ops of warp-specialized loops to partitions"
    display = "TritonGPUPartitionScheduling"

    def apply(self, ctx, module) -> None:
        loops = [op for op in module.walk(region_first=True)
                 if isinstance(op, scf.ForOp) and WARP_SPECIALIZE in op.attributes]
        for idx, loop in enumerate(loops):
            parts = from_loop(loop)
            if parts is None:
                parts = [Partition(0, 0), Partition(1, 1), Partition(2, 0)]
                initial_partitions(loop, parts, parts[0], parts[1], parts[2])
                if not parts[1].ops and not parts[2].ops:
                    continue
            propagate(loop, parts)
            optimize(loop, parts)
            assign_region_bodies(loop, parts)
            assign_missing(loop)
            assign_region_ops(loop)
            verify(loop)
            loop.attributes[TAG] = IntegerAttr(idx, i32)
            loop.attributes[STAGES] = ArrayAttr([IntegerAttr(p.stage, i32) for p in parts])
