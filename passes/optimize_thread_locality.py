"""tritongpu-optimize-thread-locality: keep reductions inside threads where possible (Triton's
TritonGPUOptimizeThreadLocality).

1. A `tt.reshape` that may reorder elements (`allow_reorder`) and feeds reductions along one axis gets a
   blocked layout with that axis slowest, so the reduction needs no cross-thread exchange; it is marked
   `efficient_layout` and its result converted back for the other users (unless the new layout would change
   how many elements each thread holds).
2. A loop that accumulates a reduction of a loaded tile along its innermost axis
   (`acc = acc + reduce(load(...))` with `acc` starting as a constant, the combiner a single addf/mulf/max/min),
   where each thread holds several elements of that axis, instead accumulates the per-thread partial tile: the
   tile is reshaped to split the axis into (threads, elements per thread), reduced over the per-thread part
   only (no communication), and added into a new loop-carried accumulator; the full reduction runs once after
   the loop and its result is combined with the original initial value.
3. A `tt.gather` gets a layout that keeps each column along its axis inside one warp (passes/gather_layout.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, TensorType, UnitAttr, i32
from xdsl.ir import Operation

from ttc.ir.fold import attr_of, make_constant
from ttc.opt.greedy_rewrite import apply_tritongpu_patterns
from ttc.ir.layout_utils import get_order, num_warps_of, slice_of, threads_per_warp_of, total_elems_per_thread, with_encoding
from ttc.ir.layouts import blocked, blocked_for_shape
from ttc.ir.layouts import BlockedEncoding
from ttc.ir.tt import ReshapeOp
from ttc.ir.types import encoding, tensor
from ttc.passes.gather_layout import optimize_gather
from ttc.ir.convert_layout_patterns import convert as _cvt
from ttc.passes.remove_layout_conversions import _for_with_new_inits
from ttc.opt.passmanager import Pass

REDUCTION_OPS = ("arith.addf", "arith.mulf", "arith.maximumf", "arith.maxnumf", "arith.minimumf", "arith.minnumf")


def is_expensive_view(src_t, dst_t) -> bool:
    """Triton's isExpensiveView: the reshape changes how many elements each thread holds."""
    return total_elems_per_thread(src_t) != total_elems_per_thread(dst_t)


def optimize_reshape(op: Operation, rw) -> bool:
    if op.properties.get("allow_reorder") is None:
        return False
    axis = None
    for u in op.results[0].uses:
        user = u.operation
        if user.name == "tt.reduce":
            a = user.axis.value.data
            if axis is not None and axis != a:
                return False
            axis = a
    if axis is None:
        return False
    t = op.results[0].type
    enc = encoding(t)
    if isinstance(enc, BlockedEncoding) and enc["threadsPerWarp"][axis] == 1 and enc["warpsPerCTA"][axis] == 1:
        return False
    shape = list(t.get_shape())
    order = [i for i in get_order(enc) if i != axis] + [axis]
    new_enc = blocked_for_shape(shape, [1] * len(shape), order, num_warps_of(op), threads_per_warp_of(op))
    if new_enc == enc:
        return False
    new_t = with_encoding(t, new_enc)
    if is_expensive_view(op.operands[0].type, new_t):
        return False
    old = op.results[0]
    cvt = _cvt(old, t)
    cvt.location = op.location
    op.parent.insert_op_after(cvt, op)
    for u in list(old.uses):
        if u.operation is not cvt:
            u.operation.operands[u.index] = cvt.results[0]
    old._type = new_t
    op.properties["efficient_layout"] = UnitAttr()
    rw.modified(op)
    return True


def _combiner(reduce: Operation) -> Operation | None:
    region = reduce.regions[0]
    if len(region.blocks) != 1:
        return None
    ops = list(region.blocks.first.ops)
    return ops[0] if len(ops) == 2 else None


def elems_per_thread(t: TensorType, axis: int) -> int:
    enc = encoding(t)
    spt, tpw, wpc = enc["sizePerThread"][axis], enc["threadsPerWarp"][axis], enc["warpsPerCTA"][axis]
    return -(-t.get_shape()[axis] // (spt * tpw * wpc)) * spt


def _neutral(op: Operation):
    """The identity of a reduction combiner (for max/min: -inf/+inf, as Triton uses for maxnumf/minnumf)."""
    name = op.name
    if name == "arith.addf":
        return 0.0
    if name == "arith.mulf":
        return 1.0
    if name in ("arith.maximumf", "arith.maxnumf"):
        return -math.inf
    return math.inf


def candidate(reduce: Operation) -> bool:
    src_t = reduce.operands[0].type
    comb = _combiner(reduce)
    if comb is None or comb.name not in REDUCTION_OPS:
        return False
    if not isinstance(src_t, TensorType) or not isinstance(encoding(src_t), BlockedEncoding):
        return False
    rank = len(src_t.get_shape())
    if rank <= 1 or reduce.axis.value.data != rank - 1:
        return False
    for v in reduce.operands:
        if not (isinstance(v.owner, Operation) and v.owner.name == "tt.load"):
            return False
    if elems_per_thread(src_t, rank - 1) == 1:
        return False
    uses = [u for r in reduce.results for u in r.uses]
    if len(uses) != 1:
        return False
    user = uses[0].operation
    user_uses = [u for r in user.results for u in r.uses]
    if len(user_uses) != 1 or user_uses[0].operation.name != "scf.yield":
        return False
    loop = reduce.parent_op()
    if loop is None or loop.name != "scf.for" or user_uses[0].operation.parent_op() is not loop:
        return False
    init = loop.iter_args[user_uses[0].index]
    return isinstance(init.owner, Operation) and init.owner.name == "arith.constant"


def _clone_infer(op: Operation, mapping: dict, anchor_after: Operation) -> Operation:
    """Triton's cloneWithInferType for elementwise ops: a clone whose result type is inferred from its (new)
    operands, i.e. is the first operand's type."""
    new = op.clone(value_mapper=dict(mapping))
    for r in new.results:
        r._type = new.operands[0].type
    anchor_after.parent.insert_op_after(new, anchor_after)
    return new


def _clone_reduce(reduce: Operation, operands, axis: int, anchor_after: Operation) -> Operation:
    new = reduce.clone()
    for i, v in enumerate(operands):
        new.operands[i] = v
    new.properties["axis"] = IntegerAttr(axis, i32)
    for r, v in zip(new.results, operands):
        shape = list(v.type.get_shape())
        del shape[axis]
        r._type = tensor(shape, v.type.element_type, slice_of(axis, encoding(v.type))) if shape else \
            v.type.element_type
    anchor_after.parent.insert_op_after(new, anchor_after)
    return new


def localize(reduce: Operation) -> None:
    src_t = reduce.operands[0].type
    shape = list(src_t.get_shape())
    rank = len(shape)
    axis = reduce.axis.value.data
    enc = encoding(src_t)
    ept = elems_per_thread(src_t, axis)
    spt = list(enc["sizePerThread"]) + [enc["sizePerThread"][axis]]
    spt[axis] = 1
    enc3 = blocked(spt, list(enc["threadsPerWarp"]) + [1], list(enc["warpsPerCTA"]) + [1], [rank] + list(enc["order"]))
    view_shape = shape + [ept]
    view_shape[axis] //= ept
    slice2 = slice_of(rank, enc3)

    use = next(iter(reduce.results[0].uses))
    update = use.operation
    acc_arg = update.operands[1 - use.index]
    loop = acc_arg.owner.parent_op()
    k = acc_arg.index - 1
    old_acc = loop.iter_args[k]
    loop_result = loop.results[k]
    loop_use = next(iter(loop_result.uses))
    loop_user, loop_use_index = loop_use.operation, loop_use.index
    old_yield = loop.body.blocks.first.last_op

    acc_t = tensor(view_shape[:-1], old_acc.type.element_type, slice2)
    new_acc = make_constant(attr_of(acc_t, [_neutral(_combiner(reduce))]), acc_t)
    new_acc.location = old_acc.owner.location
    old_acc.owner.parent.insert_op_after(new_acc, old_acc.owner)

    replacements: list = []
    new_loop = _for_with_new_inits(loop, [new_acc.results[0]], replacements)
    for old, nr in replacements:
        old.replace_all_uses_with(nr)
    body = new_loop.body.blocks.first
    new_arg = body.args[-1]

    anchor = reduce
    views = []
    for v in reduce.operands:
        view = ReshapeOp.create(operands=[v], result_types=[tensor(view_shape, v.type.element_type, enc3)],
                                properties={"allow_reorder": UnitAttr(), "efficient_layout": UnitAttr()})
        view.location = reduce.location
        anchor.parent.insert_op_after(view, anchor)
        anchor = view
        views.append(view.results[0])
    new_reduce = _clone_reduce(reduce, views, rank, anchor)
    new_update = _clone_infer(update, {update.operands[0]: new_arg, update.operands[1]: new_reduce.results[0]},
                              new_reduce)

    yield_vals = list(old_yield.operands)
    yield_vals[k] = body.args[k + 1]
    yield_vals.append(new_update.results[0])
    new_yield = scf.YieldOp(*yield_vals)
    new_yield.location = old_yield.location
    body.insert_op_before(new_yield, old_yield)
    old_yield.detach()
    old_yield.erase()

    post = _clone_reduce(reduce, [new_loop.results[-1]], axis, new_loop)
    cvt = _cvt(post.results[0], new_loop.results[k].type)
    cvt.location = post.location
    post.parent.insert_op_after(cvt, post)
    final = _clone_infer(update, {update.operands[0]: old_acc, update.operands[1]: cvt.results[0]}, cvt)
    loop_user.operands[loop_use_index] = final.results[0]
    loop.detach()
    loop.erase()


@dataclass(frozen=True)
class OptimizeThreadLocality(Pass):
    """Reduce cross-thread communication of reductions (reshape layouts, in-loop partial reductions)."""

    name = "tritongpu-optimize-thread-locality"
    display = "TritonGPUOptimizeThreadLocality"
    summary = "Reduce cross-thread communication of reductions"

    def apply(self, ctx, module) -> None:
        apply_tritongpu_patterns(module, {"tt.reshape": [optimize_reshape], "tt.gather": [optimize_gather]})
        reduces = [op for op in module.walk() if op.name == "tt.reduce" and candidate(op)]
        for r in reduces:
            localize(r)
