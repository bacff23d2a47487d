"""tritongpu-assign-latencies: the latencies that drive software pipelining (Triton's AssignLatencies).

In every innermost `scf.for` whose stage count (its own `tt.num_stages`, else `num-stages`) is 2 or more and
whose yielded values are all defined by ops of the loop, the loads that feed dots get a latency, written as
`tt.latency` on the load: walking back from each dot's A and B operands (not its accumulator) through the ops
of the body, a load found is at indirection level 0, a load that feeds it at level 1, and so on; loads at level
`num-stages - 1` or deeper, loads found at two levels, and loads not worth pipelining (scalars under 32 bits,
below 4 bytes per access from the pointers' contiguity and the mask's, users that want different shared
layouts, a local_alloc copy of under 4 bytes) are left out. Each remaining load's latency is
`(num-stages - 1) / (deepest level + 1)`. A loop with its own `tt.num_stages` has latencies for all its loads
worth pipelining, dot or not (each at the level it is found at from the ops of the body). Descriptor loads
(`tt.descriptor_load`, `tt.descriptor_gather`) always qualify. Ops that already carry `tt.latency` keep it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, TensorType, i32
from xdsl.ir import Operation

from ttc.analysis.axis_info import AxisInfoAnalysis
from ttc.ir.loop_schedule import LATENCY, has_distance_above_one, is_outer_loop, nested_operands, num_stages_of
from ttc.ir.pipelined_loads import copy_vec_bytes, is_small_load, shared_encoding_of_users
from ttc.ir.types import bitwidth
from ttc.passmanager import Pass, option

DOT_OPS = ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot")
LOAD_OPS = ("tt.load", "tt.descriptor_load", "tt.descriptor_gather")


def _worth_pipelining(load: Operation, axis: AxisInfoAnalysis) -> bool:
    if load.name != "tt.load":
        return True
    if not isinstance(load.results[0].type, TensorType):  # a scalar: one copy of its own width
        return bitwidth(load.results[0].type) >= 32
    if is_small_load(load, axis):
        return False
    compatible, enc = shared_encoding_of_users(load)
    if not compatible:
        return False
    allocs = [u.operation for u in load.results[0].uses if u.operation.name == "ttg.local_alloc"]
    if allocs:
        if len({a.result.type.encoding for a in allocs}) != 1:
            return False
        if copy_vec_bytes(load, allocs[0].result.type.encoding) < 4:
            return False
    return True


def indirection_levels(loop: scf.ForOp, without_dot: bool, axis: AxisInfoAnalysis) -> dict[Operation, int]:
    """Triton's loadOpsToIndirectionLevel: each load worth pipelining that feeds a dot operand, with its level."""
    body = loop.body.block
    levels: dict[Operation, int] = {}
    excluded: set[Operation] = set()
    seen: set[Operation] = set()

    def dfs(op: Operation, distance: int) -> None:
        if op in seen or op in excluded:
            return
        seen.add(op)
        if op.name in LOAD_OPS:
            if not _worth_pipelining(op, axis):
                return
            if op in levels and levels[op] != distance:
                del levels[op]
                excluded.add(op)
                return
            levels.setdefault(op, distance)
            distance += 1
        for v in nested_operands(op):
            if op.name in DOT_OPS and len(op.operands) > 2 and v is op.operands[2]:
                continue  # the accumulator
            d = v.owner
            if isinstance(d, Operation) and d.parent is op.parent:
                dfs(d, distance)

    for op in list(body.ops)[:-1]:
        if op.name in DOT_OPS:
            seen.clear()
            dfs(op, 0)
    if without_dot:  # a loop with its own tt.num_stages: every load, from every op (what the dots saw stays seen)
        for op in list(body.ops)[:-1]:
            if op.name not in LOAD_OPS:
                dfs(op, 0)
    return levels


def assign_latencies(module: Operation, default_stages: int) -> None:
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp) and not has_distance_above_one(op)
             and not is_outer_loop(op) and num_stages_of(op, default_stages) > 1]
    axis = AxisInfoAnalysis(module) if loops else None
    for loop in loops:
        body_ops = list(loop.body.block.ops)[:-1]
        if any(LATENCY in op.attributes for op in body_ops):
            continue  # latencies given by the user
        stages = num_stages_of(loop, default_stages)
        levels = indirection_levels(loop, "tt.num_stages" in loop.attributes, axis)
        levels = {op: lvl for op, lvl in levels.items() if lvl < stages - 1}
        if not levels:
            continue
        latency = (stages - 1) // (max(levels.values()) + 1)
        for op in levels:
            op.attributes[LATENCY] = IntegerAttr(latency, i32)


@dataclass(frozen=True)
class AssignLatencies(Pass):
    """Give the loads that feed dots in pipelinable loops the latency tritongpu-schedule-loops stages them by."""

    name = "tritongpu-assign-latencies"
    display = "TritonGPUAssignLatencies"
    summary = "Assign tt.latency to the loads worth software-pipelining (Triton's AssignLatencies)"

    num_stages: int = option(3, "number of pipeline stages (a loop's own tt.num_stages wins)")

    def apply(self, ctx, module) -> None:
        assign_latencies(module, self.num_stages)
