"""nvws-insert-tmem-aref: hand tensor memory from partition to partition through an aref, as Triton 3.6's NVWS
InsertTmemAref.

For each `ttng.tmem_alloc` of a function, the chain of its token (through tmem_load, tmem_store, MMAv5 ops, into
and out of `scf.for` bodies and both branches of `scf.if`) gives the order in which partitions own the buffer.
Where more than one owner shows up (the unpartitioned code before a warp-specialized loop counts once others
do), the alloc becomes an aref over a `ttng.tmem_alloc` of `NxSHAPE` before the outermost warp-specialized loop
(N = 2, double-buffered, when the owners alternate producer (store/MMA) then consumer (load) then producer again,
the MMA loop's accumulator can be multi-buffered (no read-modify-write, reset in the loop, no
`tt.disallow_acc_multi_buffer`) and the function's arefs fit in tensor memory; else 1). The first owner enters a
put before the alloc (and stores the alloc's source into the slot); at each change of owner the previous owner
exits (after its last access, or at the top of a region where the change happens on entry) and the next one
enters (before its first access): put and get alternate. Accesses read the slot (`nvws.aref.buffer`, made once
per entry) instead of the alloc and lose their tokens (their uses take a `ub.poison` token); tokens carried by
loops and ifs become the aref's. After the last access the owner exits; a chain ending on a put gets a matching
get enter/exit from the other owner. New ops take the owner's partition (and the warp-specialize tag when outside
the loop) and the stage/cluster of the access they guard.

Last, an `scf.if` whose then-block starts with a put exit and ends with a put enter is split in three (exit-if,
the computation with poison tokens, enter-if yielding the new token), partitions 1 / 0 / 1.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from xdsl.dialects import arith, scf, ub
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntAttr, IntegerAttr, i1, i32
from xdsl.ir import Block, Operation, Region, SSAValue

from ttc.ir.format import build_op
from ttc.ir.inserter import set_operand_group
from ttc.ir.nvws import (ArefBufferOp, ArefCreateOp, ArefGetEnterOp, ArefGetExitOp, ArefPutEnterOp, ArefPutExitOp,
                         ArefType, async_ops)
from ttc.ir.tmem import TMEMAllocOp, TMEMLoadOp, TMEMStoreOp
from ttc.ir.tmem_attrs import TensorMemoryScalesEncoding
from ttc.ir.types import AsyncTokenType
from ttc.ir.memdesc import MemDescType
from ttc.ir.fold import constant_attr, is_int_value
from ttc.passes.assign_latencies import _acc_alloc, _acc_read_modify_write, _tmem_users
from ttc.passes.insert_aref import MMAV5, WS, set_partition, stage_cluster
from ttc.passes.partition_loops import OUTPUTS, PARTITION, TAG, ids, outputs
from ttc.opt.passmanager import Pass


def _parent_for(op: Operation) -> scf.ForOp | None:
    op = op.parent_op()
    while op is not None and not isinstance(op, scf.ForOp):
        op = op.parent_op()
    return op


def ws_tag(op: Operation) -> int:
    while op is not None and TAG not in op.attributes:
        op = _parent_for(op)
    return op.attributes[TAG].value.data


def partition_id(op: Operation, pos: int = 0):
    """(partition, warp-specialize tag) of the op (of its result `pos` for an op with regions), None without."""
    if PARTITION not in op.attributes:
        return None
    parts = outputs(op)[pos] if op.regions else ids(op)
    assert len(parts) == 1, "expected a single owner"
    return (list(parts)[0], ws_tag(op))


class Node:
    def __init__(self, op, tok, pid, parent):
        self.op, self.tok, self.pid, self.parent = op, tok, pid, parent  # tok: (owner, operand index) or None
        self.parent_dag = None
        self.tok_pos = None
        self.user: Node | None = None
        self.subdags: list[Node] = []


def _last(node: Node) -> Node:
    while node.user is not None:
        node = node.user
    return node


class Dag:
    """The access DAG of one alloc (TmemAccessDag)."""

    def __init__(self, alloc: TMEMAllocOp):
        self.alloc = alloc
        self.root = Node(alloc, None, partition_id(alloc) if alloc.src is not None else None, None)
        if alloc.src is not None and alloc.token is None:
            user = next(iter(alloc.result.uses)).operation
            self.root.user = Node(user, None, partition_id(user), self.root)
        else:
            use = next(iter(alloc.token.uses))
            self.add(use.operation, use.index, self.root)

    def add(self, op: Operation, index: int, node: Node) -> SSAValue:
        if isinstance(op, scf.YieldOp):
            return op.operands[index]
        new = node.user = Node(op, (op, index), None if op.regions else partition_id(op), node)
        if isinstance(op, scf.ForOp):
            tok = self.add_for(op, index, new)
        elif op.name in ("ttng.tmem_load", "ttng.tmem_store") or op.name in MMAV5:
            tok = op.token
        else:
            raise AssertionError(f"unsupported user {op.name}")
        uses = list(tok.uses)
        if not uses:
            return tok
        if len(uses) == 1:
            return self.add(uses[0].operation, uses[0].index, new)
        return self.add_if(tok, new)

    def add_for(self, loop: scf.ForOp, index: int, node: Node) -> SSAValue:
        pos = index - 3
        sub = Node(None, None, None, None)
        arg = loop.body.block.args[pos + 1]
        use = next(iter(arg.uses))
        self.add(use.operation, use.index, sub)
        node.pid = partition_id(loop, pos)
        final = _last(sub.user)
        y = loop.body.block.last_op
        final.user = Node(y, (y, pos), node.pid, final)
        final.user.parent_dag = sub.user
        node.tok_pos = pos
        sub.user.parent, sub.user.parent_dag = None, node
        node.subdags.append(sub.user)
        return loop.results[pos]

    def add_if(self, tok: SSAValue, node: Node) -> SSAValue:
        u_then, u_else = list(tok.uses)
        if_op = u_then.operation.parent_op()
        node.user = if_node = Node(if_op, None, None, node)
        if u_then.operation.parent is not if_op.true_region.block:
            u_then, u_else = u_else, u_then
        then_root, else_root = Node(None, None, None, None), Node(None, None, None, None)
        then_tok = self.add(u_then.operation, u_then.index, then_root)
        self.add(u_else.operation, u_else.index, else_root)
        then_y, else_y = if_op.true_region.block.last_op, if_op.false_region.block.last_op
        pos = list(then_y.operands).index(then_tok)
        if_node.pid = partition_id(if_op, pos)
        for root, y in ((then_root, then_y), (else_root, else_y)):
            final = _last(root)
            final.user = Node(y, (y, pos), if_node.pid, final)
            final.user.parent_dag = root.user
        for root in (then_root, else_root):
            root.user.parent, root.user.parent_dag = None, if_node
            if_node.subdags.append(root.user)
        if_node.tok_pos = pos
        use = next(iter(if_op.results[pos].uses))
        return self.add(use.operation, use.index, if_node)

    def partitions(self):
        """collectPartitionsVec: (whether the unpartitioned code counts as an owner, [(owner, op)] in order)."""
        out, root = [], [False]
        if self.alloc.src is not None and self.root.pid is not None:
            out.append((self.root.pid, self.root.op))

        def walk(n):
            if n.pid is not None:
                out.append((n.pid, n.op))
            else:
                root[0] = bool(out)
            for s in n.subdags:
                walk(s)
            if n.user is not None:
                walk(n.user)

        walk(self.root.user)
        return root[0], out

    def partition_set(self):
        has_root, parts = self.partitions()
        return has_root, sorted({p for p, _ in parts})


class Aref:
    """The state of the aref while walking the DAG (TMEMAref)."""

    def __init__(self, aref: ArefCreateOp, orig: SSAValue, repl: SSAValue):
        self.aref, self.orig, self.repl = aref, orig, repl
        self.buffer = self.token = None
        self.put = True
        self.pid = None
        self.async_op: dict = {}
        self.stage_clusters: dict = {}

    def view_type(self) -> MemDescType:
        t = self.aref.buffers[0].type
        shape = t.shape.data if isinstance(t.encoding, TensorMemoryScalesEncoding) else t.shape.data[1:]
        return MemDescType(ArrayAttr(shape), t.element_type, t.encoding, t.memory_space, IntAttr(1), t.alloc_shape)

    def acquire(self, at, loc, pid, sc) -> None:
        cls = ArefPutEnterOp if self.put else ArefGetEnterOp
        op = cls.create(operands=[self.aref.result], result_types=[self.view_type(), AsyncTokenType()],
                        properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 0])})
        into(op, at, loc, pid, sc)
        self.token = op.results[1]
        self.pid = pid
        if pid is not None:
            self.stage_clusters[pid] = sc
        self.buffer = None

    def release(self, at, loc) -> None:
        assert self.async_op.get(self.pid) is not None
        sc = self.stage_clusters.get(self.pid) if self.pid is not None else None
        cls = ArefPutExitOp if self.put else ArefGetExitOp
        op = cls.create(operands=[self.aref.result, self.token], properties={"async_ops": async_ops(self.async_op[self.pid])})
        into(op, at, loc, self.pid, sc)
        self.put = not self.put

    def get_buffer(self, pid, op: Operation) -> SSAValue:
        if self.buffer is None:
            new = ArefBufferOp.create(operands=[self.aref.result, self.token], result_types=[self.view_type()])
            into(new, (op.parent, op), op.location, pid, stage_cluster(op))
            self.buffer = new.results[0]
        return self.buffer


def into(op: Operation, at, loc, pid, sc) -> Operation:
    """createInto: insert before `at = (block, anchor)` (the block's end when anchor is None), in the owner's
    partition (and with its warp-specialize tag when outside the tagged loop) at stage/cluster `sc`."""
    block, anchor = at
    op.location = loc
    if anchor is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, anchor)
    if pid is not None:
        set_partition(op, [pid[0]])
        if sc is not None:
            op.attributes["loop.stage"] = IntegerAttr(sc[0], i32)
            op.attributes["loop.cluster"] = IntegerAttr(sc[1], i32)
        f = _parent_for(op)
        while f is not None and TAG not in f.attributes:
            f = _parent_for(f)
        if f is None:
            op.attributes[TAG] = IntegerAttr(pid[1], i32)
    return op


def _after(op: Operation):
    return op.parent, op.next_op


def walk(node: Node, cur, state: Aref) -> Node:
    """insertTmemArefImpl."""
    if cur is not None and node.pid != cur:
        if node.parent is not None:
            prev = node.parent.op
            state.release(_after(prev), prev.location)
        else:
            prev = node.parent_dag.op
            state.release((node.op.parent, node.op.parent.first_op), prev.location)
        at = (node.op.parent, node.op)
        op = node.parent_dag.op if isinstance(node.op, scf.YieldOp) else node.op
        sc = stage_cluster(op)
        if sc is None and node.pid is not None:
            sc = state.stage_clusters.setdefault(node.pid, None)
        state.acquire(at, op.location, node.pid, sc)
    for sub in node.subdags:
        sub_state = copy.copy(state)
        sub_state.async_op, sub_state.stage_clusters = dict(state.async_op), dict(state.stage_clusters)
        if isinstance(node.op, scf.ForOp) and node.tok is not None:
            sub_state.token = node.op.body.block.args[node.tok[1] - 3 + 1]
            sub_state.buffer = None
        walk(sub, node.pid, sub_state)
        state.async_op = sub_state.async_op
        state.pid = sub_state.pid
    op = node.op
    if op.name in MMAV5:
        state.async_op[node.pid] = "tc5mma"
    elif op.name in ("ttng.tmem_load", "ttng.tmem_store"):
        state.async_op[node.pid] = "none"
    if op.name in ("ttng.tmem_load", "ttng.tmem_store"):
        if node.pid is not None:
            state.stage_clusters[node.pid] = stage_cluster(op)
        buf = state.get_buffer(node.pid, op)
        op.operands[0] = buf
        set_operand_group(op, "dep", [])
        op.token.replace_all_uses_with(state.repl)
    elif op.name in MMAV5:
        if node.pid is not None:
            state.stage_clusters[node.pid] = stage_cluster(op)
        if op.d is state.orig:
            set_operand_group(op, "acc_dep", [])
            op.token.replace_all_uses_with(state.repl)
        for i, v in enumerate(list(op.operands)):
            if v is state.orig:
                op.operands[i] = state.get_buffer(node.pid, op)
    elif isinstance(op, scf.YieldOp):
        op.operands[node.tok[1]] = state.token
    elif isinstance(op, (scf.IfOp, scf.ForOp)):
        if node.tok_pos is not None:
            if isinstance(op, scf.ForOp):
                op.operands[node.tok[1]] = state.token
            state.token = op.results[node.tok_pos]
            state.buffer = None
    else:
        raise AssertionError(f"unsupported tmem op {op.name}")
    if node.user is not None:
        return walk(node.user, node.pid, state)
    return node


def acc_multibuffer_possible(mma: Operation, loop: scf.ForOp) -> bool:
    """isAccMultibufferingPossible: the use flag is false, or starts false and is yielded true, or is computed
    in the loop; or a tmem_store in the loop overwrites the accumulator."""
    flag, init = mma.useD, None
    if is_int_value(constant_attr(flag), 0):
        return True
    y = loop.body.block.last_op
    while not isinstance(flag.owner, Operation) and flag.index > 0:
        flag, init = y.operands[flag.index - 1], loop.iter_args[flag.index - 1]
    if init is not None and is_int_value(constant_attr(init), 0) and is_int_value(constant_attr(flag), -1):
        return True
    if isinstance(flag.owner, Operation) and loop.is_ancestor(flag.owner):
        return True
    alloc = _acc_alloc(mma, loop)
    return alloc is not None and bool(_tmem_users(alloc, loop, "ttng.tmem_store"))


def producer_consumer(dag: Dag) -> bool:
    """hasProducerConsumerPartitioning: owners go producer (store/MMA), consumer (load), producer: two changes."""
    _, parts = dag.partitions()
    producer, changes, valid = True, 0, True
    for i in range(len(parts) - 1):
        op = parts[i][1]
        if op.name in ("ttng.tmem_load", "ttng.tmem_store") or op.name in MMAV5:
            valid = valid and (op.name != "ttng.tmem_load" if producer else op.name == "ttng.tmem_load")
        if parts[i][0] != parts[i + 1][0]:
            producer = not producer
            changes += 1
    return valid and changes == 2


def outer_ws_loop(op: Operation) -> scf.ForOp | None:
    f = _parent_for(op) if not isinstance(op, scf.ForOp) else op
    while f is not None and WS not in f.attributes:
        f = _parent_for(f)
    return f


def insert_tmem_aref(dag: Dag, blocks: int) -> int:
    alloc = dag.alloc
    staged = producer_consumer(dag)
    if staged:
        for use in list(alloc.result.uses):
            mma = use.operation
            loop = mma.parent_op()
            if mma.name in MMAV5 and isinstance(loop, scf.ForOp):
                ws = outer_ws_loop(loop)
                m, n = mma.d.type.get_shape()[:2]
                fits = blocks + m * n * 2 <= 128 * 512 and not (mma.name == "ttng.tc_gen5_mma_scaled" and n == 256)
                multi = (not _acc_read_modify_write(mma, loop) and acc_multibuffer_possible(mma, loop)
                         and "tt.disallow_acc_multi_buffer" not in ws.attributes and fits)
                staged = staged and multi
    stages = 1 + int(staged)
    t = alloc.result.type
    shape = t.get_shape()
    blocks += shape[0] * shape[1] * stages
    new_shape = list(shape) if isinstance(t.encoding, TensorMemoryScalesEncoding) else [stages, *shape]
    buf_t = MemDescType(ArrayAttr([IntAttr(d) for d in new_shape]), t.element_type, t.encoding, t.memory_space,
                        IntAttr(1), ArrayAttr([IntAttr(d) for d in new_shape]))
    ws = outer_ws_loop(alloc)
    at = (ws.parent, ws) if ws is not None else (alloc.parent, alloc)
    buf = TMEMAllocOp.create(result_types=[buf_t])
    aref = ArefCreateOp.create(operands=[buf.result], result_types=[ArefType(ArrayAttr([buf_t]))])
    poison = ub.PoisonOp(AsyncTokenType())
    for op in (buf, aref, poison):
        op.location = alloc.location
        at[0].insert_op_before(op, at[1])
    sc = stage_cluster(alloc)
    pid = dag.root.pid
    if alloc.src is None and ws is not None:
        pid = dag.root.user.pid
    state = Aref(aref, alloc.result, poison.result)
    state.acquire((alloc.parent, alloc), alloc.location, pid, sc)
    if state.pid is None:
        node = dag.root.user
        while True:
            state.pid = node.pid
            node = node.user
            if node is None or state.pid is not None:
                break
    if alloc.src is not None:
        slot = state.get_buffer(pid, alloc)
        state.async_op[pid] = "none"
        true = into(arith.ConstantOp(IntegerAttr(-1, i1), i1),
                    (alloc.parent, alloc), alloc.location, pid, sc)
        into(build_op(TMEMStoreOp, [slot, None, alloc.src, true.results[0]], [None]), (alloc.parent, alloc),
             alloc.location, pid, sc)
    last = walk(dag.root.user, pid, state)
    if ws is not None:
        end = _after(last.op)
    else:
        top = aref.parent.find_ancestor_op_in_block(last.op)
        if last.pid is not None:
            state.stage_clusters[last.pid] = None
        end = _after(top)
    state.release(end, last.op.location)
    if not state.put:
        _, parts = dag.partition_set()
        other = next((p for p in parts if p != state.pid), None)
        state.acquire(end, last.op.location, other, None)
        state.release(end, last.op.location)
    return blocks


def split_put_ifs(func: Operation) -> None:
    """workaroundForLoopScheduler."""
    ifs = []
    for op in func.walk():
        if isinstance(op, scf.IfOp):
            first, term = op.true_region.block.first_op, op.true_region.block.last_op
            if isinstance(first, ArefPutExitOp) and isinstance(term.prev_op, ArefPutEnterOp):
                ifs.append(op)
    for if_op in ifs:
        then = if_op.true_region.block
        exit_ = then.first_op
        enter = then.last_op.prev_op
        exit_block = Block()
        exit_if = scf.IfOp.create(operands=[if_op.cond], result_types=[], regions=[Region(exit_block), Region()])
        exit_if.location = if_op.location
        if_op.parent.insert_op_before(exit_if, if_op)
        exit_.detach()
        exit_block.add_op(exit_)
        exit_block.add_op(scf.YieldOp())
        tok = enter.results[1]
        pos = list(then.last_op.operands).index(tok)
        enter_then, enter_else = Block(), Block()
        enter_if = scf.IfOp.create(operands=[if_op.cond], result_types=[AsyncTokenType()],
                                   regions=[Region(enter_then), Region(enter_else)])
        enter_if.location = if_op.location
        if_op.parent.insert_op_after(enter_if, if_op)
        if_op.results[pos].replace_all_uses_with(enter_if.results[0])
        enter.detach()
        enter_then.add_op(enter)
        else_y = if_op.false_region.block.last_op
        enter_then.add_op(scf.YieldOp(tok))
        enter_else.add_op(scf.YieldOp(else_y.operands[pos]))
        poison = ub.PoisonOp(AsyncTokenType())
        poison.location = if_op.location
        if_op.parent.insert_op_before(poison, if_op)
        then.last_op.operands[pos] = poison.result
        else_y.operands[pos] = poison.result
        for new, ref in ((enter_if, enter), (exit_if, exit_)):
            new.attributes.update(if_op.attributes)
            sc = stage_cluster(ref)
            if sc is not None:
                new.attributes["loop.stage"] = IntegerAttr(sc[0], i32)
                new.attributes["loop.cluster"] = IntegerAttr(sc[1], i32)
        set_partition(enter_if, [1])
        set_partition(exit_if, [1])
        set_partition(if_op, [0])
        exit_if.attributes.pop(OUTPUTS, None)
        enter_if.attributes[OUTPUTS] = ArrayAttr([DenseArrayBase.from_list(i32, [1])])
        if_op.attributes[OUTPUTS] = ArrayAttr([DenseArrayBase.from_list(i32, [0]) for _ in if_op.results])


@dataclass(frozen=True)
class InsertTmemAref(Pass):
    """Insert tmem arefs between producer and consumer partitions."""

    name = "nvws-insert-tmem-aref"
    summary = "Insert tmem arefs between producer and consumer partitions."
    display = "NVWSInsertTmemAref"

    def apply(self, ctx, module) -> None:
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            dags = [Dag(op) for op in func.walk(region_first=True) if isinstance(op, TMEMAllocOp)]
            blocks = 0
            for dag in dags:
                has_root, parts = dag.partition_set()
                assert len(parts) <= 2, "expecting at most 2 partitions"
                if int(has_root) + len(parts) > 1:
                    blocks = insert_tmem_aref(dag, blocks)
            split_put_ifs(func)
