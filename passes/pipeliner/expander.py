"""The modulo-schedule expander of software pipelining (MLIR's scf loop pipeliner as Triton forks it, in
Triton's configuration: dynamic loops, predication instead of a peeled epilogue).

Given an `scf.for` whose body ops each have a stage (0 .. S) and an order, it emits before the loop a prologue
of S parts (part i runs the ops of stages <= i for iteration i - stage, side-effecting ones predicated on that
iteration being in range when the bounds are not constants with more than S + 1 iterations), then a kernel loop
over the original bounds whose body runs every op once, in the given order, the ops of stage s for iteration
k + (S - s) * step (side-effecting ops of stage s < S predicated on `k < ub - (S - s) * step`). Values used
stages after their definition travel in new iteration arguments, one per stage of distance, after the loop's
own. Loop results whose producer is not in the last stage take the previous iteration's value when the
producer's predicate is false. A loop marked `__test_keep_predicate_stage` (a test hook, as in Triton) gets its
kernel's stage predicates as `ttg.predicate_stage` ops."""

from __future__ import annotations

from typing import Callable

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, i1, i32
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue

from ttc.ir.inserter import Inserter
from ttc.ir.ttg_extra import PredicateStageOp

KEEP_PREDICATE_STAGE = "__test_keep_predicate_stage"


def _outside_values(op: Operation) -> list:
    """Operands of `op` and of the ops nested in it that `op` does not define itself, each once."""
    if not op.regions:  # (an op's operands are defined before it)
        return list(dict.fromkeys(op.operands))
    inside = {r for o in op.walk() for r in o.results} | {a for o in op.walk() for r in o.regions for b in r.blocks
                                                          for a in b.args}
    seen = {}
    for o in op.walk():
        for v in o.operands:
            if v not in inside:
                seen.setdefault(v, None)
    return list(seen)


class Expander:
    def __init__(self, loop: scf.ForOp, order: list[tuple[Operation, int]],
                 predicate: Callable[[Operation, SSAValue], Operation], peel: bool = False):
        self.loop = loop
        self.order = [op for op, _ in order]
        self.stage = dict(order)
        self.max_stage = max(self.stage.values())
        self.predicate = predicate
        self.body = loop.body.block
        self.yield_op = self.body.last_op
        self.iv, self.args = self.body.args[0], list(self.body.args[1:])
        self.mapping: dict[SSAValue, list] = {}
        self.peel = peel
        self.deferred: list[tuple[Operation, int]] = []  # (kernel op, stage): predicated once the epilogue is peeled

    def _set(self, key: SSAValue, value: SSAValue, idx: int) -> None:
        self.mapping.setdefault(key, [None] * (self.max_stage + 1))[idx] = value

    def _outside(self, v: SSAValue) -> bool:
        o = v.owner if isinstance(v.owner, Operation) else v.owner.parent_op()
        return o is None or not self.loop.is_ancestor(o)

    def _def_and_distance(self, v: SSAValue) -> tuple[Operation | None, int]:
        distance = 0
        if isinstance(v, BlockArgument):
            if v.owner is not self.body or v.index == 0:
                return None, 0
            distance, v = 1, self.yield_op.operands[v.index - 1]
        return (v.owner if isinstance(v.owner, Operation) else None), distance

    def prologue(self) -> None:
        loop, em = self.loop, Inserter(self.loop, self.loop.location)
        for arg, init in zip(self.args, loop.iter_args):
            self._set(arg, init, 0)
        for arg, y in zip(self.args, self.yield_op.operands):  # yielded from outside: every later iteration's value
            if self._outside(y):
                for i in range(1, self.max_stage):
                    self._set(arg, y, i)
        preds = [None] * self.max_stage
        for i in range(self.max_stage):  # constant bounds too: the predicate folds to true later (Triton 3.6)
            preds[i] = em.add(arith.CmpiOp(em.advance(loop.lb, loop.step, i), loop.ub, "slt"))
            self._set(self.iv, em.advance(loop.lb, loop.step, i), i)
            for op in self.order:
                s = self.stage[op]
                if s > i:
                    continue
                mapper = {v: self.mapping[v][i - s] for v in _outside_values(op) if v in self.mapping}
                new = op.clone(mapper)
                em.add(new, op.location)
                if preds[i - s] is not None:
                    new = self.predicate(new, preds[i - s])
                for d, r in enumerate(op.results):
                    source = new.results[d]
                    for j, y in enumerate(self.yield_op.operands):
                        if y is not r:
                            continue
                        if preds[i - s] is not None and loop.results[j].first_use is not None:
                            prev = self.mapping[self.args[j]][i - s]
                            source = em.add(arith.SelectOp(preds[i - s], source, prev), loop.location)
                        self._set(self.args[j], source, i - s + 1)
                    self._set(r, new.results[d], i - s)

    def cross_stage_values(self) -> dict:
        cross: dict[SSAValue, list] = {}
        for op in self.order:
            s = self.stage[op]
            for v in _outside_values(op):
                d, distance = self._def_and_distance(v)
                if d is None or d not in self.stage or self.stage[d] in (s, s + distance):
                    continue
                info = cross.setdefault(v, [self.stage[d], 0])
                info[0], info[1] = self.stage[d], max(info[1], s)
        return cross

    def kernel(self, cross: dict) -> scf.ForOp:
        loop, S = self.loop, self.max_stage
        inits = []
        for j, y in enumerate(self.yield_op.operands):
            d = y.owner
            inits.append(self.mapping[self.args[j]][S - self.stage[d]] if d in self.stage else loop.iter_args[j])
        arg_of = {}
        for v, (def_stage, last) in cross.items():
            for k in range(last - def_stage):
                inits.append(self.mapping[v][S - last + k])
                arg_of[(v, last - def_stage - k)] = len(inits) - 1
        new = scf.ForOp.create(operands=[loop.lb, loop.ub, loop.step, *inits],
                               result_types=[v.type for v in inits], regions=[Region()],
                               attributes=dict(loop.attributes), properties=dict(loop.properties))
        new.location = loop.location
        loop.parent.insert_op_before(new, loop)
        block = Block(arg_types=[self.iv.type, *(v.type for v in inits)])
        new.body.add_block(block)
        new_iv, new_args = block.args[0], list(block.args[1:])
        mapping: dict[SSAValue, SSAValue] = {self.iv: new_iv, **dict(zip(self.args, new_args))}

        anchor = scf.YieldOp()  # a placeholder end of the block while ops are added before it
        block.add_op(anchor)
        em = Inserter(anchor, loop.location)
        preds = [None] * (S + 1)
        for i in range(S):
            if KEEP_PREDICATE_STAGE in loop.attributes or self.peel:  # the test hook, or peeling: the predicate as an op
                preds[i] = em.add(PredicateStageOp.build(
                    operands=[new_iv, loop.ub, loop.step], result_types=[i1],
                    properties={"maxStage": IntegerAttr(S, i32), "stage": IntegerAttr(i, i32)}))
                continue
            c = em.add(arith.SubiOp(loop.ub, em.add(arith.MuliOp(loop.step, em.constant(S - i, loop.step.type)))))
            preds[i] = em.add(arith.CmpiOp(new_iv, c, "slt"))
        for op in self.order:
            use_stage = self.stage[op]
            clone = op.clone(mapping)
            em.add(clone, op.location)
            for old, nested in zip(op.walk(), clone.walk()):
                for idx, v in enumerate(old.operands):
                    if v is self.iv:
                        at = Inserter(clone, loop.location)
                        offset = at.add(arith.MuliOp(loop.step, at.constant(S - use_stage, loop.step.type)))
                        nested.operands = _replaced(nested.operands, idx, at.add(arith.AddiOp(new_iv, offset)))
                        continue
                    source = v
                    if isinstance(v, BlockArgument) and v.owner is self.body:
                        ret = self.yield_op.operands[v.index - 1]
                        if self._outside(ret):  # the value of every iteration but the first: direct below the last stage
                            if use_stage != S:
                                nested.operands = _replaced(nested.operands, idx, ret)
                            continue
                        dep = ret.owner
                        if not isinstance(dep, Operation) or dep not in self.stage or self.stage[dep] == use_stage:
                            continue
                        if self.stage[dep] == use_stage + 1:
                            nested.operands = _replaced(nested.operands, idx, mapping.get(ret, ret))
                            continue
                        source = ret
                    d = source.owner
                    if not isinstance(d, Operation) or d not in self.stage or self.stage[d] == use_stage:
                        continue
                    nested.operands = _replaced(nested.operands, idx, new_args[arg_of[(v, use_stage - self.stage[d])]])
            if preds[use_stage] is not None and self.peel:
                self.deferred.append((clone, use_stage))
            elif preds[use_stage] is not None:
                pred_op = self.predicate(clone, preds[use_stage])
                for r, nr in zip(op.results, pred_op.results):
                    mapping[r] = nr
        yields = []
        for j, y in enumerate(self.yield_op.operands):
            source = mapping.get(y, y)
            if loop.results[j].first_use is not None:
                d, _ = self._def_and_distance(y)
                if d is not None and d in self.stage and self.stage[d] < S:
                    source = em.add(arith.SelectOp(preds[self.stage[d]], source, new_args[j]), loop.location)
            yields.append(source)
        for v, (def_stage, last) in cross.items():
            for _ in range(1, last - def_stage):
                yields.append(new_args[len(yields) + 1])
            yields.append(mapping.get(v, v))
        anchor.detach()
        anchor.erase()
        end = scf.YieldOp(*yields)
        end.location = self.yield_op.location
        block.add_op(end)
        return new


def _replaced(operands, idx: int, value: SSAValue) -> tuple:
    out = list(operands)
    out[idx] = value
    return tuple(out)


def schedule_is_valid(loop: scf.ForOp, order: list[tuple[Operation, int]]) -> bool:
    """Triton's verifySchedule: in the unrolled schedule (op i of stage s at cycle i + s * len(order)) no op runs
    before the producer of an operand, a loop-carried one included (it is the previous iteration's, one
    len(order) earlier). A value yielded by a stage more than one after its loop-carried reader fails this."""
    n = len(order)
    cycle = {op: i + stage * n for i, (op, stage) in enumerate(order)}
    body = loop.body.block
    for op, _ in order:
        for v in _outside_values(op):
            distance = 0
            if isinstance(v, BlockArgument):
                if v.owner is not body or v.index == 0:
                    continue
                distance, v = 1, body.last_op.operands[v.index - 1]
            if v.owner in cycle and cycle[op] < cycle[v.owner] - n * distance:
                return False
    return True


def expand(loop: scf.ForOp, order: list[tuple[Operation, int]],
           predicate: Callable[[Operation, SSAValue], Operation], peel: bool = False) -> scf.ForOp:
    """Pipeline `loop` by the stages in `order` (ops in emission order with their stage); the new loop replaces
    it (its own results first). With `peel` (Triton's custom epilogue peeling, for MMAv5 loops whose barrier waits
    run in the last stage) the kernel's last iteration is peeled into an `scf.if` after it, where the ops of the
    earlier stages, which would run for iterations past the end, are dropped (their results `ub.poison`); in the
    loop, the ops of the stage before the last run unpredicated."""
    ex = Expander(loop, order, predicate, peel)
    ex.prologue()
    cross = ex.cross_stage_values()
    new = ex.kernel(cross)
    for old, res in zip(loop.results, new.results):
        old.replace_all_uses_with(res)
    loop.detach()
    loop.erase()
    if peel:
        _peel_epilogue(new, ex)
    return new


def _peel_epilogue(loop: scf.ForOp, ex: Expander) -> None:
    """Triton's peelLoopEpilogue with its pipeliner's callback (processPeeledEpilogueOp) and the pruning of the
    epilogue's masked ops."""
    from xdsl.dialects.ub import PoisonAttr

    from ttc.ir.fold import make_constant
    from ttc.passes.test_loop_peeling import peel_loop_epilogue
    body = loop.body.block
    position = {op: i for i, op in enumerate(body.ops)}
    dropped = {position[op] for op, _ in ex.deferred}
    if_op = peel_loop_epilogue(loop)
    S, resolved = ex.max_stage, {}
    for p in [o for o in body.ops if isinstance(o, PredicateStageOp)]:
        stage, em = p.stage.value.data, Inserter(p, p.location)
        if stage == S - 1:  # the last iteration of this stage is the peeled one's
            v = em.constant(1, i1)
        else:
            c = em.add(arith.SubiOp(p.ub, em.add(arith.MuliOp(p.step, em.constant(S - stage, p.step.type)))))
            v = em.add(arith.CmpiOp(p.iv, c, "slt"))
        p.results[0].replace_all_uses_with(v)
        p.detach()
        p.erase()
        resolved[stage] = v
    for op, stage in ex.deferred:
        ex.predicate(op, resolved[stage])
    then = if_op.true_region.blocks.first
    for i, op in enumerate(list(then.ops)):
        if i in dropped:  # runs for an iteration past the end: gone
            em = Inserter(op, op.location)
            for r in op.results:
                r.replace_all_uses_with(em.add(make_constant(PoisonAttr(), r.type)))
            op.detach()
            op.erase()
        elif isinstance(op, PredicateStageOp):
            op.results[0].replace_all_uses_with(Inserter(op, op.location).constant(0, i1))
            op.detach()
            op.erase()
