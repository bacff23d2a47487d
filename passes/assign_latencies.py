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
The walk starts from every dot (`tt.dot`, `tt.dot_scaled`, `ttng.warp_group_dot`, the MMAv5 `ttng.tc_gen5_mma`
and `_scaled`) and `ttng.tmem_store`. MMAv5 ops then get their own latencies (`assign_mma_latencies`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, TensorType, i32
from xdsl.ir import Operation

from ttc.analysis.axis_info import AxisInfoAnalysis, reused
from ttc.passes.pipeliner.schedule import LATENCY, has_distance_above_one, is_outer_loop, nested_operands, num_stages_of
from ttc.ir.layouts import NVMMASharedEncoding, SwizzledSharedEncoding
from ttc.ir.shared_layouts import SHARED_LAYOUTS
from ttc.passes.pipeliner.loads import copy_vec_bytes, is_small_load, shared_encoding, shared_encoding_of_users
from ttc.ir.types import bitwidth
from ttc.opt.passmanager import Pass, option

MMA_V5 = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")
SHARED_ENCODINGS = (SwizzledSharedEncoding, NVMMASharedEncoding, *SHARED_LAYOUTS)
DOT_OPS = ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", *MMA_V5)  # Triton's DotOpInterface
SELF_LATENCY = "tt.self_latency"
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
        if op.name in DOT_OPS or op.name == "ttng.tmem_store":  # Triton's roots: dots and TMEM stores
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
    axis = reused(module) if loops else None
    for loop in loops:
        body_ops = list(loop.body.block.ops)[:-1]
        if any(LATENCY in op.attributes for op in body_ops):
            continue  # latencies given by the user
        stages = num_stages_of(loop, default_stages)
        levels = indirection_levels(loop, "tt.num_stages" in loop.attributes, axis)
        levels = {op: lvl for op, lvl in levels.items() if lvl < stages - 1}
        if levels:
            latency = (stages - 1) // (max(levels.values()) + 1)
            for op in levels:
                op.attributes[LATENCY] = IntegerAttr(latency, i32)
        assign_mma_latencies(loop, axis)


# ----------------------------------------------------------------------------- MMAv5 (Triton's AssignMMALatencies)


def _outside(v, loop: scf.ForOp) -> bool:
    d = v.owner
    op = d.parent_op() if not isinstance(d, Operation) else d
    return op is None or not loop.is_ancestor(op)


def _acc_alloc(mma: Operation, loop: scf.ForOp) -> Operation | None:
    """The accumulator's `ttng.tmem_alloc`, when it is one made outside the loop."""
    d = mma.d.owner
    return d if isinstance(d, Operation) and d.name == "ttng.tmem_alloc" and _outside(mma.d, loop) else None


def _tmem_users(alloc: Operation, loop: scf.ForOp, name: str) -> list[Operation]:
    return [u.operation for u in alloc.results[0].uses if u.operation.name == name and loop.is_ancestor(u.operation)]


def _operand_pipelineable(v, loop: scf.ForOp, pipelined) -> tuple[bool, Operation | None]:
    """Triton's isOperandPipelineableBase: (pipelineable, the def that is not) for an MMA's shared operand: made
    outside the loop, or a local_alloc of a value made outside it or of a load that `pipelined` accepts and that
    can be asynchronous (through memdesc transposes and reshapes)."""
    if _outside(v, loop):
        return True, None
    while isinstance(v.owner, Operation) and v.owner.name in ("ttg.memdesc_trans", "ttg.memdesc_reshape"):
        v = v.owner.operands[0]
    d = v.owner
    if not isinstance(d, Operation):
        return False, None
    if d.name in ("ttg.local_store", "ttng.tmem_store", "ttng.tmem_alloc"):
        return False, d
    if d.name != "ttg.local_alloc":
        return False, None
    if not d.operands:
        return False, d
    if _outside(d.operands[0], loop):
        return True, None
    src = d.operands[0].owner
    if not isinstance(src, Operation) or src.name not in LOAD_OPS:
        return False, d
    if not pipelined(src):
        return False, src
    ok = src.name != "tt.load" or copy_vec_bytes(src, shared_encoding(src)) >= 4  # Triton's canBeAsyncLoad
    return ok, None if ok else src


def _has_latency(op: Operation) -> bool:
    lat = op.attributes.get(LATENCY)
    return isinstance(lat, IntegerAttr) and lat.value.data > 0


def mma_operand_state(mma: Operation, loop: scf.ForOp, pipelined=_has_latency) -> tuple[bool, bool, list]:
    """Triton's MMAv5PipelineableOperandsHelper: (pipelineable, the operands' state determined, the defs of the
    operands that are not pipelineable), `pipelined` telling the loads that will be pipelined."""
    if _acc_alloc(mma, loop) is None:  # (Triton returns early here: not pipelineable, yet "determined")
        return False, True, []
    determined, bad = True, []

    def check(v):
        nonlocal determined
        ok, found = _operand_pipelineable(v, loop, pipelined)
        if not ok:
            if found is not None:
                bad.append(found)
            else:
                determined = False

    check(mma.a)
    check(mma.b)
    if mma.name == "ttng.tc_gen5_mma_scaled":
        for sc in (mma.a_scale, mma.b_scale):
            if not isinstance(sc.type.encoding, SHARED_ENCODINGS) and not _outside(sc, loop):  # not in tmem
                return False, False, bad
        check(mma.a_scale)
        check(mma.b_scale)
    return determined and not bad, determined, bad


def _acc_read_modify_write(mma: Operation, loop: scf.ForOp) -> bool:
    """Triton's hasAccReadModifyWrite: a value loaded from the accumulator is changed and stored back into it."""
    alloc = _acc_alloc(mma, loop)
    if alloc is None:
        return True
    stores, loads = _tmem_users(alloc, loop, "ttng.tmem_store"), _tmem_users(alloc, loop, "ttng.tmem_load")
    if not stores or not loads:
        return False
    seen, modified = set(), []
    reads = [ld.results[0] for ld in loads]

    def follow(v, use, into):
        y = use.operation
        parent = y.parent_op()
        if isinstance(parent, scf.IfOp):
            into.append(parent.results[use.index])
        if parent is loop:
            into.append(loop.body.block.args[use.index + 1])

    while reads:
        v = reads.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            if use.operation in stores:
                continue
            if isinstance(use.operation, scf.YieldOp):
                follow(v, use, reads)
            else:
                modified += list(use.operation.results)
    while modified:
        v = modified.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            if use.operation in stores:
                return True
            if isinstance(use.operation, scf.YieldOp):
                follow(v, use, modified)
            else:
                modified += list(use.operation.results)
    return False


def _acc_multibuffer_possible(mma: Operation, loop: scf.ForOp) -> bool:
    """Triton's isAccMultibufferingPossible: the accumulator is reset in the loop (use flag false or computed
    in the loop, or a tmem_store into it)."""
    flag = mma.useD
    body = loop.body.block
    c = flag.owner
    if isinstance(c, Operation) and c.name == "arith.constant" and c.value.value.data == 0:
        return True
    while not isinstance(flag.owner, Operation) and flag.owner is body and flag.index > 0:
        flag = body.last_op.operands[flag.index - 1]
    if isinstance(flag.owner, Operation) and loop.is_ancestor(flag.owner):
        return True
    alloc = _acc_alloc(mma, loop)
    return alloc is not None and bool(_tmem_users(alloc, loop, "ttng.tmem_store"))


def _warp_specialized(loop: scf.ForOp) -> bool:
    op = loop
    while op is not None:
        if isinstance(op, scf.ForOp) and "tt.warp_specialize" in op.attributes:
            return True
        op = op.parent_op()
    return False


def assign_mma_latencies(loop: scf.ForOp, axis) -> None:
    """Triton's AssignMMALatencies: an MMAv5 whose operands are pipelined (or settled, with no accumulator load
    after it) overlaps with itself (`tt.self_latency = 1`); its users go one stage later (`tt.latency = 1`)
    unless its accumulator, read in the loop, cannot be multi-buffered; in a warp-specialized loop that is one
    more, or none when the accumulator is read, changed and stored back. Not in loops with a `tt.dot`."""
    body = loop.body.block
    if any(op.name == "tt.dot" for op in body.ops):
        return
    for op in list(body.ops)[:-1]:
        if op.name not in MMA_V5:
            continue
        pipelineable, determined, _ = mma_operand_state(op, loop)
        alloc = _acc_alloc(op, loop)
        loads_after = alloc is not None and any(
            body.get_operation_index(body.find_ancestor_op_in_block(ld)) > body.get_operation_index(op)
            for ld in (u.operation for u in alloc.results[0].uses if u.operation.name == "ttng.tmem_load")
            if body.find_ancestor_op_in_block(ld) is not None)
        if not (pipelineable or (determined and not loads_after)):
            continue
        op.attributes[SELF_LATENCY] = IntegerAttr(1, i32)
        needs_multibuffer = alloc is None or bool(_tmem_users(alloc, loop, "ttng.tmem_load"))
        latency = None
        if not needs_multibuffer or (_acc_multibuffer_possible(op, loop)
                                     and "tt.disallow_acc_multi_buffer" not in loop.attributes):
            latency = 1
        if _warp_specialized(loop):
            latency = None if _acc_read_modify_write(op, loop) else (latency or 0) + 1
        if latency is None:
            op.attributes.pop(LATENCY, None)
        else:
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
