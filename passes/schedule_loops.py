"""tritongpu-schedule-loops: a coarse software-pipelining schedule for each loop with latencies (Triton's
ScheduleLoops), written on the loop for tritongpu-pipeline (`loop.stage`, `loop.cluster`,
`tt.scheduled_max_stage`; see passes/pipeliner/schedule.py). The `tt.latency` attributes are consumed.

For an innermost `scf.for` without `gpu.barrier`, `tt.assert` or `tt.print` whose yielded values are defined in it:
1. Key ops: every op reachable from an op with a latency (through users in the body) gets the stage
   `max distance - its distance`, its distance being the longest sum of latencies from it to the end of the
   body; stage s goes to cluster `max stage - s` (the last stage first). An `scf.if` so staged with no staged op
   after it moves to an epilogue cluster at the back.
2. `scf.if`s in the backward slice of staged ops go to a new cluster at the front, at the earliest stage that
   needs them; the other `scf.if`s to a cluster at the back, in the last stage.
3. Dependencies: stage by stage, every staged op's producers in the body take its stage and cluster.
4. Distance-one dependencies: a loop-carried value that a staged op (not in the last stage) reads and no staged
   op produces is produced one stage later, in a new cluster right before the reader's (a load producing it
   joins the reader instead), with its own producers.
5. Everything else goes to the last stage, in the first cluster after the prologue, or later when it uses
   a value of a later cluster.
A loop without latencies that was partitioned from a warp-specialized loop (`tt.warp_specialize`, its schedule
already written) starts from that schedule instead, its stages shifted to start at 0, or, when its latency ops
(loads, local loads and stores, TMEM ops, async copies, MMAv5, barriers) all sit in one stage, from one stage and
one cluster for everything. The written `tt.scheduled_max_stage` never goes below the loop's earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.ir import BlockArgument, Operation

from ttc.passes.pipeliner.schedule import LATENCY, CoarseSchedule, has_distance_above_one, is_outer_loop, nested_operands
from ttc.opt.passmanager import Pass

UNSAFE = ("gpu.barrier", "tt.assert", "tt.print")  # ops the schedule must not reorder: such loops stay as they are


def schedule_key_ops(loop: scf.ForOp, latency: dict[Operation, int]) -> CoarseSchedule | None:
    body = loop.body.block
    yield_op = body.last_op
    lat_ops = [op for op in body.ops if op in latency]
    if not lat_ops:
        return None
    distance: dict[Operation, int] = {}

    def dist(op: Operation) -> int:
        if op in distance:
            return distance[op]
        best = -1
        for r in op.results:
            for use in r.uses:
                user = body.find_ancestor_op_in_block(use.operation)
                if user is None or user is yield_op:
                    continue
                best = max(best, dist(user))
        distance[op] = latency.get(op, 0) + max(best, 0)
        return distance[op]

    max_distance = max([0] + [dist(op) for op in lat_ops])
    stage_of = {op: max_distance - d for op, d in distance.items()}
    max_stage = max(stage_of.values())
    schedule = CoarseSchedule(max_stage + 1)
    clusters = [schedule.new_at_back() for _ in range(max_stage + 1)]
    for op in body.ops:
        if op in stage_of:
            schedule.insert(op, stage_of[op], clusters[max_stage - stage_of[op]])
    epilogue = schedule.new_at_back()
    for op in body.ops:
        if op not in stage_of or not isinstance(op, scf.IfOp) or op in latency:
            continue
        after = _forward_slice(op)
        if not any(o in stage_of for o in after):
            schedule.insert(op, stage_of[op], epilogue)
    return schedule


def _forward_slice(op: Operation) -> set[Operation]:
    out, work = set(), [op]
    while work:
        for r in work.pop().results:
            for use in r.uses:
                if use.operation not in out:
                    out.add(use.operation)
                    work.append(use.operation)
    return out


def _backward_slice(op: Operation, loop: Operation) -> set[Operation]:
    """The ops of `loop` (nested ones too) that `op`, in it, depends on: what `op` reaches through operands
    defined outside the loop depends on nothing in it."""
    out, work = set(), [op]
    while work:
        for v in nested_operands(work.pop()):
            d = v.owner
            if isinstance(d, Operation) and d not in out and loop.is_ancestor(d):
                out.add(d)
                work.append(d)
    return out


def schedule_prologue_and_epilogue(loop: scf.ForOp, schedule: CoarseSchedule):
    body = loop.body.block
    after_prologue = schedule.clusters[0]
    ifs: dict[Operation, int] = {}
    for stage in range(schedule.num_stages):
        for op, s, _ in schedule.ops_in_order(loop):
            if s != stage:
                continue
            for o in _backward_slice(op, loop):
                if isinstance(o, scf.IfOp) and o.parent is body:
                    ifs.setdefault(o, stage)
    if ifs:
        prologue = schedule.new_at_front()
        for o, stage in ifs.items():
            schedule.insert_if_absent(o, stage, prologue)
    epilogue = schedule.new_at_back()
    for op in body.ops:
        if isinstance(op, scf.IfOp) and op not in ifs:
            schedule.insert_if_absent(op, schedule.num_stages - 1, epilogue)
    return after_prologue


def schedule_dependencies(loop: scf.ForOp, schedule: CoarseSchedule) -> None:
    """Triton's scheduleDependencies: stage by stage, the producers of each staged op (of the ops nested in it too)
    take its stage and cluster, where they are unscheduled or scheduled at a later stage."""
    ordered = schedule.ops_in_order(loop)
    for stage in range(schedule.num_stages):
        for op, s, cluster in ordered:
            if s == stage:
                schedule.insert_deps(op, stage, cluster, include_arg=False, if_earlier=True)


def schedule_distance_one(loop: scf.ForOp, schedule: CoarseSchedule) -> None:
    body = loop.body.block
    num_stages = schedule.num_stages
    before: dict = {}
    for op in list(body.ops)[:-1]:
        if op not in schedule.at:
            continue
        stage, cluster = schedule.at[op]
        if stage == num_stages - 1:
            continue
        for v in nested_operands(op):
            if not (isinstance(v, BlockArgument) and v.index > 0 and v.owner is body):
                continue
            d = body.last_op.operands[v.index - 1].owner
            if not isinstance(d, Operation) or d in schedule.at:
                continue
            if d.name == "tt.load":
                schedule.insert_if_absent(d, stage, cluster)
                schedule.insert_deps(d, stage, cluster, include_arg=True, if_earlier=True)
            else:
                if cluster not in before:
                    before[cluster] = schedule.new_before(cluster)
                schedule.insert_if_absent(d, stage + 1, before[cluster])
                schedule.insert_deps(d, stage + 1, before[cluster], include_arg=True, if_earlier=True)


def schedule_remaining_to_last_stage(loop: scf.ForOp, schedule: CoarseSchedule, after_prologue) -> None:
    body = loop.body.block
    last = schedule.num_stages - 1
    pos = {c: i for i, c in enumerate(schedule.clusters)}
    to_cluster = {op: after_prologue for op in list(body.ops)[:-1] if op not in schedule.at}
    queue = [op for op, s, _ in schedule.ops_in_order(loop) if s == last]
    while queue:
        op = queue.pop()
        for r in op.results:
            for use in r.uses:
                user = use.operation
                if user not in to_cluster:
                    continue
                mine = schedule.at[op][1] if op in schedule.at else to_cluster[op]
                if pos[to_cluster[user]] < pos[mine]:
                    to_cluster[user] = mine
                    queue.append(user)
    for op, cluster in to_cluster.items():
        schedule.insert(op, last, cluster)


# ops whose stages matter when a warp-specialized loop's partial schedule is rescheduled (Triton's isLatencyOp)
_LATENCY_OPS = ("tt.load", "tt.descriptor_load", "tt.descriptor_gather", "ttg.local_store", "ttg.local_load",
                "ttng.tmem_load", "ttng.tmem_store", "ttg.async_copy_global_to_local",
                "ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather", "ttng.tc_gen5_mma",
                "ttng.tc_gen5_mma_scaled", "ttng.wait_barrier", "ttng.arrive_barrier")


def initial_schedule(loop: scf.ForOp, latency: dict[Operation, int]) -> CoarseSchedule | None:
    """Triton's getInitialSchedule: the key ops' schedule from the latencies; else, for a loop partitioned from a
    warp-specialized one (`tt.warp_specialize`, a schedule already written), that schedule with its stages
    shifted to start at 0, or everything in one stage and cluster when its latency ops are all in one stage."""
    body = loop.body.block
    if has_distance_above_one(loop) or is_outer_loop(loop) or any(op.name in UNSAFE for op in loop.walk()):
        return None
    if any(op in latency for op in body.ops):
        return schedule_key_ops(loop, latency)
    if "tt.warp_specialize" not in loop.attributes or (schedule := CoarseSchedule.deserialize(loop)) is None:
        return None
    ops = list(body.ops)[:-1]
    stages = {schedule.at[op][0] for op in ops if op in schedule.at and (op in latency or op.name in _LATENCY_OPS)}
    if len(stages) <= 1:
        normalized = CoarseSchedule(1)
        cluster = normalized.new_at_front()
        for op in ops:
            normalized.insert(op, 0, cluster)
        return normalized
    low = min(s for s, _ in schedule.at.values())
    schedule.at = {op: (s - low, c) for op, (s, c) in schedule.at.items()}
    schedule.num_stages = max(s for s, _ in schedule.at.values()) + 1
    return schedule


def schedule_loop(loop: scf.ForOp, latency: dict[Operation, int]) -> None:
    schedule = initial_schedule(loop, latency)
    if schedule is None:
        return
    after_prologue = schedule_prologue_and_epilogue(loop, schedule)
    schedule_dependencies(loop, schedule)
    schedule_distance_one(loop, schedule)
    schedule_remaining_to_last_stage(loop, schedule, after_prologue)
    schedule.serialize(loop)


@dataclass(frozen=True)
class ScheduleLoops(Pass):
    """Turn the latencies of tritongpu-assign-latencies into each loop's coarse pipelining schedule."""

    name = "tritongpu-schedule-loops"
    display = "TritonGPUScheduleLoops"
    summary = "Stage and cluster the ops of loops with latencies (Triton's ScheduleLoops)"

    def apply(self, ctx, module) -> None:
        latency = {}
        for op in module.walk():
            if LATENCY in op.attributes:
                latency[op] = op.attributes.pop(LATENCY).value.data
        for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
            schedule_loop(loop, latency)
