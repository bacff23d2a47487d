"""A loop's coarse software-pipelining schedule (Triton's CoarseSchedule), how tritongpu-schedule-loops hands it to
tritongpu-pipeline.

Each op directly in an `scf.for` body gets a stage and a cluster. The pipelined loop runs, in one iteration, the
ops of stage s for the iteration s stages behind the newest one; clusters order the ops of one pipelined iteration
(cluster by cluster, body order within a cluster). On the IR the schedule is the ops' `loop.stage` and
`loop.cluster` attributes (the cluster's position) and the loop's `tt.scheduled_max_stage`, as Triton writes
them; `tt.latency` on an op is the latency tritongpu-assign-latencies gave it."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import BlockArgument, Operation

STAGE, CLUSTER, MAX_STAGE, LATENCY = "loop.stage", "loop.cluster", "tt.scheduled_max_stage", "tt.latency"


class Cluster:
    """A cluster: its identity is what matters, its position in `CoarseSchedule.clusters` orders it."""


class CoarseSchedule:
    def __init__(self, num_stages: int = 0):
        self.num_stages = num_stages
        self.clusters: list[Cluster] = []
        self.at: dict[Operation, tuple[int, Cluster]] = {}

    def new_at_back(self) -> Cluster:
        self.clusters.append(c := Cluster())
        return c

    def new_at_front(self) -> Cluster:
        self.clusters.insert(0, c := Cluster())
        return c

    def new_before(self, cluster: Cluster) -> Cluster:
        self.clusters.insert(self.clusters.index(cluster), c := Cluster())
        return c

    def before(self, a: Cluster, b: Cluster) -> bool:
        return self.clusters.index(a) < self.clusters.index(b)

    def split_cluster_before(self, op: Operation, loop: scf.ForOp) -> Cluster:
        """Triton's splitClusterBefore: the ops of `op`'s cluster that come before it in the body move to a new
        cluster right before it; `op`'s cluster is returned."""
        cluster, new = self.at[op][1], None
        for o in loop.body.block.ops:
            if o is op:
                break
            if o in self.at and self.at[o][1] is cluster:
                new = new or self.new_before(cluster)
                self.at[o] = (self.at[o][0], new)
        return cluster

    def is_op_before(self, a: Operation, b: Operation) -> bool:
        """Whether `a` runs before `b` in the unrolled schedule: by stage, then cluster, then body order."""
        (sa, ca), (sb, cb) = self.at[a], self.at[b]
        if sa != sb:
            return sa < sb
        if ca is not cb:
            return self.before(ca, cb)
        return a.is_before_in_block(b)

    def find_next(self, loop: scf.ForOp, start: Operation, pred) -> Operation | None:
        """The first op accepted by `pred` after `start` in the order the pipelined loop runs them (Triton's
        linearized schedule, #8732): cluster by cluster from `start`'s, body order within one, an op counting while
        its stage is at most `start`'s stage plus the times the clusters wrapped around; None once back at
        `start` past the last stage."""
        ops = list(loop.body.block.ops)[:-1]
        limit, cluster = self.at[start]
        ci, i = self.clusters.index(cluster), ops.index(start) + 1
        while True:
            for op in ops[i:]:
                if op not in self.at or self.at[op][1] is not self.clusters[ci]:
                    continue
                if op is start and limit >= self.num_stages:
                    return None
                if self.at[op][0] <= limit and pred(op):
                    return op
            ci, i = ci + 1, 0
            if ci == len(self.clusters):
                ci, limit = 0, limit + 1

    def insert(self, op: Operation, stage: int, cluster: Cluster) -> None:
        self.num_stages = max(self.num_stages, stage + 1)
        self.at[op] = (stage, cluster)

    def insert_if_absent(self, op: Operation, stage: int, cluster: Cluster) -> bool:
        if op in self.at:
            return False
        self.insert(op, stage, cluster)
        return True

    def insert_if_earlier(self, op: Operation, stage: int, cluster: Cluster) -> bool:
        """Triton's insertMinimum: schedule `op` at `stage` / `cluster` unless it is scheduled at an earlier stage,
        or at the same stage in the same or an earlier cluster."""
        if op in self.at:
            old_stage, old_cluster = self.at[op]
            if stage > old_stage or (stage == old_stage and not self.before(cluster, old_cluster)):
                return False
        self.insert(op, stage, cluster)
        return True

    def insert_deps(self, op: Operation, stage: int, cluster: Cluster, include_arg: bool,
                    if_earlier: bool = False) -> None:
        """Schedule the producers of the operands of `op` and of the ops nested in it, in its block (through loop-carried values when
        `include_arg`) at `stage` / `cluster`, where they are not scheduled yet (or, `if_earlier`, scheduled
        at a later stage), and theirs in turn."""
        block = op.parent
        for v in nested_operands(op):
            seen = set()
            while include_arg and isinstance(v, BlockArgument) and v not in seen:
                seen.add(v)
                if v.index > 0 and v.owner is block:
                    v = block.last_op.operands[v.index - 1]
                    continue
                break
            d = v.owner
            if isinstance(d, Operation) and d.parent is block:
                insert = self.insert_if_earlier if if_earlier else self.insert_if_absent
                if insert(d, stage, cluster):
                    self.insert_deps(d, stage, cluster, include_arg, if_earlier)

    def ops_in_order(self, loop: scf.ForOp) -> list[tuple[Operation, int, Cluster]]:
        """The scheduled ops of the body, cluster by cluster, in body order within a cluster."""
        body = [op for op in loop.body.block.ops if op in self.at]
        pos = {c: i for i, c in enumerate(self.clusters)}
        body.sort(key=lambda op: pos[self.at[op][1]])  # stable: body order within a cluster
        return [(op, *self.at[op]) for op in body]

    def serialize(self, loop: scf.ForOp) -> None:
        pos = {c: i for i, c in enumerate(self.clusters)}
        for op, stage, cluster in self.ops_in_order(loop):
            op.attributes[STAGE] = IntegerAttr(stage, i32)
            op.attributes[CLUSTER] = IntegerAttr(pos[cluster], i32)
        old = loop.attributes.get(MAX_STAGE)  # never lowered (Triton's serialize)
        top = max(self.num_stages - 1, old.value.data if isinstance(old, IntegerAttr) else 0)
        loop.attributes[MAX_STAGE] = IntegerAttr(top, i32)

    @staticmethod
    def deserialize(loop: scf.ForOp) -> CoarseSchedule | None:
        """The schedule written on `loop`, or None when it has none. The lowest cluster id becomes 0."""
        attr = loop.attributes.get(MAX_STAGE)
        if not isinstance(attr, IntegerAttr):
            return None
        schedule = CoarseSchedule(attr.value.data + 1)
        found = [(op, op.attributes[STAGE].value.data, op.attributes[CLUSTER].value.data)
                 for op in loop.body.block.ops if STAGE in op.attributes and CLUSTER in op.attributes]
        if not found:
            return None
        low = min(c for _, _, c in found)  # cluster ids renumbered from 0, as Triton's deSerialize does
        schedule.clusters = [Cluster() for _ in range(max(c for _, _, c in found) - low + 1)]
        for op, stage, c in found:
            schedule.insert(op, stage, schedule.clusters[c - low])
        return schedule


def nested_operands(op: Operation) -> list:
    """The operands of `op` and of the ops nested in it, each once, in walk order."""
    seen = {}
    for o in op.walk():
        for v in o.operands:
            seen.setdefault(v, None)
    return list(seen)


def strip(op: Operation) -> None:
    """Remove the schedule's attributes from `op` and everything in it."""
    for o in op.walk():
        for name in (STAGE, CLUSTER, MAX_STAGE):
            o.attributes.pop(name, None)


def num_stages_of(loop: scf.ForOp, default: int) -> int:
    """A loop's own `tt.num_stages`, else `default`."""
    attr = loop.attributes.get("tt.num_stages")
    return attr.value.data if isinstance(attr, IntegerAttr) else default


def is_outer_loop(loop: scf.ForOp) -> bool:
    return any(op.name in ("scf.for", "scf.while") for op in loop.body.block.ops)


def has_distance_above_one(loop: scf.ForOp) -> bool:
    """A yielded value that no op of the loop defines (Triton's loopHasDistGreaterThanOne)."""
    return any(not isinstance(v.owner, Operation) for v in loop.body.block.last_op.operands)
