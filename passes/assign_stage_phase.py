"""nvws-assign-stage-phase: give every aref enter its slot (stage) and phase, and every exit and `nvws.aref.buffer`
the slot of its enter, as Triton 3.6's NVWS AssignStagePhase (the first step of nvws-lower-aref).

Per aref, puts and gets are numbered separately, and per partition using them: the count starts at slot
`depth - 1` and phase 0 (puts) or 1 (gets), made right after the `nvws.aref.create`. Walking the aref's block in
order, each enter of that partition advances it (`stage + 1`, wrapping to 0 at the depth, when the phase flips:
`arith.addi/cmpi/select/xori` in the enter's partition and stage/cluster) and takes `[stage, phase]`; an `scf.for`
whose body enters the aref carries stage and phase as new iteration arguments (yielded back, its partitions and
output partitions growing by those of what it yields), an `scf.if` returns them as new results. Then the stage
follows each enter's token to its exits and buffers, through loops and ifs (a stage carried by a loop adds the
user's partition to the loop's and to the stage's and phase's outputs).

Last, a scalar result of a warp-specialized loop used outside the partitions (or by another tagged loop) is
computed in the default partition too: partition 0 joins the ops of its backward slice in the loop and the
outputs of the loops and ifs it passes through.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, DenseArrayBase, IntegerAttr, IntegerType, i32, i64
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue

from ttc.ir.inserter import set_operand_group, with_iter_args
from ttc.ir.nvws import (ArefBufferOp, ArefCreateOp, ArefGetEnterOp, ArefGetExitOp, ArefPutEnterOp, ArefPutExitOp)
from ttc.ir.std import CMPI, CmpiOp, SelectOp
from ttc.ir.tmem_attrs import TensorMemoryScalesEncoding
from ttc.passes.insert_aref import WS, has_partition, set_partition, stage_cluster
from ttc.passes.partition_loops import OUTPUTS, TAG, ids, outputs
from ttc.opt.passmanager import Pass

STAGED = (ArefBufferOp, ArefGetEnterOp, ArefPutEnterOp, ArefGetExitOp, ArefPutExitOp)


def depth(aref: ArefCreateOp) -> int:
    t = aref.buffers[0].type
    return 1 if isinstance(t.encoding, TensorMemoryScalesEncoding) else t.get_shape()[0]


def set_outputs(op: Operation, outs: list) -> None:
    if not outs:
        op.attributes.pop(OUTPUTS, None)
        return
    op.attributes[OUTPUTS] = ArrayAttr([DenseArrayBase.from_list(i32, sorted(o)) for o in outs])


def _index(values, v) -> int | None:
    for i, x in enumerate(values):
        if x is v:
            return i
    return None


def _ids_or_empty(op: Operation) -> list[int]:
    return ids(op) if has_partition(op) else []


class Assigner:
    """AssignStagePhase<T> for one aref and one partition."""

    def __init__(self, aref: SSAValue, kind: type, part: int):
        self.aref, self.kind, self.part = aref, kind, part
        self.stage_pos: dict = {}

    def typed(self, op: Operation):
        if isinstance(op, self.kind) and op.aref is self.aref:
            if not has_partition(op) or self.part in ids(op):
                return op
        return None

    def used_in(self, block: Block, token) -> bool:
        for op in block.ops:
            if self.typed(op) or isinstance(op, ArefBufferOp) and op.aref is self.aref and op.token is token:
                return True
            if isinstance(op, scf.ForOp):
                pos = _index(op.iter_args, token) if token is not None else None
                if self.used_in(op.body.block, op.body.block.args[pos + 1] if pos is not None else None):
                    return True
            elif isinstance(op, scf.IfOp):
                if self.used_in(op.true_region.block, token):
                    return True
                if op.false_region.blocks and self.used_in(op.false_region.block, token):
                    return True
        return False

    def in_block(self, block: Block, index: list) -> list:
        """assignArefIndexInBlock: `index` is [stage, phase, token]; returns the index after the block."""
        index = list(index)
        for op in list(block.ops):
            if op.parent is None:
                continue
            enter = self.typed(op)
            if enter is not None:
                parts = ids(op) if has_partition(op) else None
                tag, sc = op.attributes.get(TAG), stage_cluster(op)

                def new(o):
                    o.location = op.location
                    block.insert_op_before(o, op)
                    if parts is not None:
                        set_partition(o, parts)
                        if sc is not None:
                            o.attributes["loop.stage"] = IntegerAttr(sc[0], i32)
                            o.attributes["loop.cluster"] = IntegerAttr(sc[1], i32)
                    if tag is not None:
                        o.attributes[TAG] = tag
                    return o.results[0]

                def const(v):
                    return new(arith.ConstantOp(IntegerAttr(v, i32), i32))

                one = const(1)
                nxt = new(arith.AddiOp(index[0], one))
                d = const(depth(enter.aref.owner))
                cnd = new(CmpiOp.create(operands=[nxt, d], result_types=[IntegerType(1)],
                                        properties={"predicate": IntegerAttr(CMPI["eq"], i64)}))
                zero = const(0)
                index[0] = new(SelectOp.create(operands=[cnd, zero, nxt], result_types=[i32]))
                one = const(1)
                flipped = new(arith.XOrIOp(index[1], one))
                index[1] = new(SelectOp.create(operands=[cnd, flipped, index[1]], result_types=[i32]))
                index[2] = enter.results[-1]
                set_operand_group(enter, "stage", [index[0]])
                set_operand_group(enter, "phase", [index[1]])
            elif isinstance(op, scf.ForOp):
                index = self.in_for(op, index)
            elif isinstance(op, scf.IfOp):
                index = self.in_if(op, index)
        return index

    def in_for(self, loop: scf.ForOp, index: list) -> list:
        body = loop.body.block
        pos = _index(loop.iter_args, index[2]) if index[2] is not None else None
        if not self.used_in(body, body.args[pos + 1] if pos is not None else None):
            return index
        index = list(index)
        if pos is not None:
            index[2] = body.args[pos + 1]
        n = len(loop.iter_args)
        loop_ids, loop_outs = ids(loop), [list(o) for o in outputs(loop)] if OUTPUTS in loop.attributes else []
        loop = with_iter_args(loop, [index[0], index[1]], [])
        body = loop.body.block
        index[0], index[1] = body.args[n + 1], body.args[n + 2]
        inner = self.in_block(body, index)
        extra = [inner[0]] + ([inner[1]] if index[1] is not None else [])
        y = body.last_op
        y.operands = [*y.operands, *extra]
        self.stage_pos[(loop, index[2])] = n
        self.stage_pos[(y, inner[2])] = n
        parts = set(loop_ids)
        for v in extra:
            if isinstance(v.owner, Operation):
                vids = set(ids(v.owner)) if not v.owner.regions else set(outputs(v.owner)[v.index])
            else:
                vids = set()
                for u in v.uses:
                    if not isinstance(u.operation, scf.YieldOp):
                        vids |= set(ids(u.operation))
            parts |= vids
            loop_outs.append(sorted(vids))
        set_partition(loop, sorted(parts))
        set_outputs(loop, loop_outs)
        out = list(index)
        out[0], out[1] = loop.results[n], loop.results[n + 1]
        if pos is not None:
            out[2] = loop.results[pos]
        return out

    def in_if(self, if_op: scf.IfOp, index: list) -> list:
        has_else = bool(if_op.false_region.blocks)
        used = self.used_in(if_op.true_region.block, index[2]) or \
            (has_else and self.used_in(if_op.false_region.block, index[2]))
        if not used:
            return index
        n = len(if_op.results)
        new = scf.IfOp.create(operands=[if_op.cond], result_types=[r.type for r in if_op.results] + [i32, i32],
                              regions=[Region(), Region()], attributes=dict(if_op.attributes),
                              properties=dict(if_op.properties))
        new.location = if_op.location
        if_op.parent.insert_op_before(new, if_op)
        if_op.true_region.move_blocks(new.true_region)
        if has_else:
            if_op.false_region.move_blocks(new.false_region)
        for old, r in zip(if_op.results, new.results):
            old.replace_all_uses_with(r)
        then_i = self.in_block(new.true_region.block, index)
        else_i = self.in_block(new.false_region.block, index) if has_else else index
        ty, ey = new.true_region.block.last_op, new.false_region.block.last_op
        refs = []
        p = _index(ty.operands, index[2]) if index[2] is not None else None
        if p is not None:
            refs.append(p)
        p = _index(ey.operands, index[2]) if index[2] is not None else None
        if p is not None:
            refs.append(p)
        self.stage_pos[(ty, then_i[2])] = len(ty.operands)
        self.stage_pos[(ey, else_i[2])] = len(ey.operands)
        ty.operands = [*ty.operands, then_i[0], then_i[1]]
        ey.operands = [*ey.operands, else_i[0], else_i[1]]
        if_ids, if_outs = ids(if_op), [list(o) for o in outputs(if_op)] if OUTPUTS in if_op.attributes else []
        if_op.detach()
        if_op.erase()
        stage_ids, phase_ids = set(), set()
        for v in (then_i[0], else_i[0]):
            if isinstance(v.owner, Operation):
                stage_ids |= set(_ids_or_empty(v.owner))
        for v in (then_i[1], else_i[1]):
            if isinstance(v.owner, Operation):
                phase_ids |= set(_ids_or_empty(v.owner))
        set_partition(new, if_ids)
        set_outputs(new, if_outs + [sorted(stage_ids), sorted(phase_ids)])
        out = list(index)
        out[0], out[1] = new.results[n], new.results[n + 1]
        for p in refs:
            out[2] = new.results[p]
        return out

    def propagate(self, token: SSAValue, stage: SSAValue, seen: set) -> None:
        for use in list(token.uses):
            owner = use.operation
            if owner in seen:
                continue
            seen.add(owner)
            if isinstance(owner, STAGED):
                if isinstance(stage, BlockArgument):
                    loop = stage.owner.parent_op()
                    pos = stage.index - 1
                    mine = set(ids(owner))
                    set_partition(loop, sorted(set(ids(loop)) | mine))
                    outs = [set(o) for o in outputs(loop)]
                    outs[pos] |= mine
                    outs[pos + 1] |= mine
                    set_outputs(loop, [sorted(o) for o in outs])
                set_operand_group(owner, "stage", [stage])
            elif isinstance(owner, scf.ForOp):
                pos = use.index - 3
                arg = owner.body.block.args[pos + 1]
                at = self.stage_pos[(owner, arg)]
                self.propagate(arg, owner.body.block.args[at + 1], seen)
            elif isinstance(owner, scf.YieldOp):
                at = self.stage_pos[(owner, token)]
                parent = owner.parent_op()
                self.propagate(parent.results[use.index], parent.results[at], seen)


def run(aref: ArefCreateOp, kind: type) -> None:
    parts = sorted({i for u in aref.result.uses if isinstance(u.operation, kind) and has_partition(u.operation)
                    for i in ids(u.operation)}) or [0]
    block = aref.parent
    stage = arith.ConstantOp(IntegerAttr(depth(aref) - 1, i32), i32)
    phase = arith.ConstantOp(IntegerAttr(0 if kind is ArefPutEnterOp else 1, i32), i32)
    for o in (stage, phase):
        o.location = aref.location
    block.insert_ops_after([stage, phase], aref)
    for part in parts:
        a = Assigner(aref.result, kind, part)
        a.in_block(block, [stage.result, phase.result, None])
        for use in list(aref.result.uses):
            enter = use.operation
            if isinstance(enter, kind) and (not has_partition(enter) or ids(enter)[0] == part):
                a.propagate(enter.results[-1], enter.stage, set())


def _add_default(op: Operation, pos: int) -> None:
    set_partition(op, sorted(set(ids(op)) | {0}))
    outs = [set(o) for o in outputs(op)]
    outs[pos].add(0)
    set_outputs(op, [sorted(o) for o in outs])


def _backward(ws: scf.ForOp, v: SSAValue, seen: set) -> None:
    if v in seen:
        return
    seen.add(v)
    if isinstance(v, BlockArgument):
        loop = v.owner.parent_op()
        if isinstance(loop, scf.ForOp) and WS not in loop.attributes and v.index > 0:
            _backward(ws, loop.iter_args[v.index - 1], seen)
        return
    op = v.owner
    if isinstance(op, (scf.IfOp, scf.ForOp)):
        _add_default(op, v.index)
        if isinstance(op, scf.IfOp):
            _backward(ws, op.true_region.block.last_op.operands[v.index], seen)
            if op.false_region.blocks:
                _backward(ws, op.false_region.block.last_op.operands[v.index], seen)
            _backward(ws, op.cond, seen)
        else:
            _backward(ws, op.body.block.last_op.operands[v.index], seen)
            for c in (op.lb, op.ub, op.step):
                _backward(ws, c, seen)
    elif ws.body.block.find_ancestor_op_in_block(op) is not None:
        if not isinstance(op, scf.YieldOp) and op.name != "tt.reduce":
            set_partition(op, sorted(set(ids(op)) | {0}))
        for x in op.operands:
            _backward(ws, x, seen)


def assign_stage_phase(func: Operation) -> None:
    for aref in [op for op in func.walk(region_first=True) if isinstance(op, ArefCreateOp)]:
        run(aref, ArefPutEnterOp)
        run(aref, ArefGetEnterOp)
    for loop in [op for op in func.walk(region_first=True) if isinstance(op, scf.ForOp) and WS in op.attributes]:
        seen = set()
        for r in loop.results:
            if not isinstance(r.type, (IntegerType, AnyFloat)) or not r.uses:
                continue
            if any(not has_partition(u.operation) or isinstance(u.operation, scf.ForOp) and TAG in u.operation.attributes
                   for u in r.uses):
                _add_default(loop, r.index)
                _backward(loop, loop.body.block.last_op.operands[r.index], seen)


@dataclass(frozen=True)
class AssignStagePhase(Pass):
    """Assign buffer stage to nvws.aref.*."""

    name = "nvws-assign-stage-phase"
    summary = "Assign buffer stage to nvws.aref.*."
    display = "NVWSAssignStagePhase"

    def apply(self, ctx, module) -> None:
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            assign_stage_phase(func)
