"""triton-nvidia-mma-lowering: prepare the MMA v5 ops for code generation (Triton's TritonNvidiaGPUMMALowering).

Three rewrites run under MLIR's greedy driver, in this order on each `ttng.tc_gen5_mma[_scaled]`:
1. a synchronous MMA becomes asynchronous: before it, a fresh mbarrier (`ttg.local_alloc` of `num-ctas` i64 in
   shared memory, swizzled 1/1/1) is initialized for one arrival and added as a completion barrier with
   predicate `true`; after it, `ttng.wait_barrier` on phase 0 (under the MMA's predicate) and
   `ttng.inval_barrier`;
2. the scales of a scaled MMA that live in shared memory are copied to tensor memory: a mutable
   `ttng.tmem_alloc` of (M or N rows) x (elements / rows) with the tensor-memory scales encoding, filled by
   `ttng.tmem_copy` (a scale that is a subview is refused with "subviews NYI", and the pass goes on);
3. `ttng.tc_gen5_commit`s that follow an MMA across pure ops only become its completion barriers when the
   MMA's predicate is `true` or is the commit's; the pure ops that make the barrier or predicate after the
   MMA move above it (the merge stops at the first commit where that is impossible).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, UnitAttr, i1, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.traits import is_side_effect_free, is_speculatable

from ttc.ir.diagnostics import at_op, emit
from ttc.opt.greedy_rewrite import GreedyDriver, Rewriter, fold_in_place
from ttc.ir.format import build_op
from ttc.ir.inserter import set_operand_group
from ttc.ir.scaled import ELEM_TYPE_NAME
from ttc.ir.layouts import NVMMASharedEncoding, SharedMemorySpace, SwizzledSharedEncoding
from ttc.ir.tma import InitBarrierOp, InvalBarrierOp, WaitBarrierOp
from ttc.ir.tmem import TMEMAllocOp, TMEMCopyOp, _cta_split, _num_ctas
from ttc.ir.tmem_attrs import TensorMemoryScalesEncoding, TensorMemorySpace
from ttc.ir.ttg import LocalAllocOp
from ttc.ir.memdesc import MemDescType
from ttc.opt.passmanager import Pass

_MMA = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")


def _memdesc(shape, element, enc, space) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape])
    return MemDescType(dims, element, enc, space, IntAttr(1), dims)


def _insert(rw: Rewriter, new: Operation, anchor: Operation, loc, after: bool = False) -> Operation:
    new.location = loc
    if after:
        anchor.parent.insert_op_after(new, anchor)
        rw.driver.inserted(new)
        return new
    return rw.insert_before(new, anchor)


def _const(rw: Rewriter, value: int, width, anchor: Operation, after: bool = False) -> SSAValue:
    return _insert(rw, arith.ConstantOp(IntegerAttr(value, width)), anchor, anchor.location, after).result


def _add_barrier(op: Operation, barrier: SSAValue, pred: SSAValue) -> None:
    set_operand_group(op, "barriers", [*op.barriers, barrier])
    set_operand_group(op, "barrier_preds", [*op.barrier_preds, pred])


def lower_sync(op: Operation, rw: Rewriter) -> bool:
    if op.is_async is not None:
        return False
    loc, n = op.location, _num_ctas(op)
    enc = SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=[0],
                                      CGALayout=[[1 << i] for i in range(n.bit_length() - 1)] or None)
    alloc = _insert(rw, build_op(LocalAllocOp, [None], [_memdesc([n], i64, enc, SharedMemorySpace())]), op, loc)
    _insert(rw, build_op(InitBarrierOp, [alloc.result], properties={"count": IntegerAttr(1, i32)}), op, loc)
    _add_barrier(op, alloc.result, _const(rw, 1, i1, op))
    op.properties["is_async"] = UnitAttr()
    rw.modified(op)
    wait = build_op(WaitBarrierOp, [alloc.result, _const(rw, 0, i32, op, after=True), op.pred, []])
    _insert(rw, wait, op.next_op, loc, after=True)
    _insert(rw, build_op(InvalBarrierOp, [alloc.result]), wait, loc, after=True)
    return True


def _block(op: Operation, v: SSAValue, kind, dim: int, transposed: bool) -> int:
    """Triton's getBlockM / getBlockN: the operand's M (N) extent, doubled for packed e2m1 stored K-major."""
    enc = v.type.encoding
    packed = ELEM_TYPE_NAME[kind.value.data] == "e2m1" and isinstance(enc, NVMMASharedEncoding) \
        and bool(enc.get("transposed")) == transposed
    return v.type.get_shape()[dim] * (2 if packed else 1)


def scales_to_tmem(op: Operation, rw: Rewriter) -> bool:
    a, b = op.a_scale.type, op.b_scale.type
    if a.get_shape() != a.get_alloc_shape() or b.get_shape() != b.get_alloc_shape():
        emit(at_op(op, None, "subviews NYI"))
        return False
    changed = False
    for group, rows in (("a_scale", _block(op, op.a, op.a_type, -2, True)),
                        ("b_scale", _block(op, op.b, op.b_type, -1, False))):
        src = getattr(op, group)
        t = src.type
        if not isinstance(t.memory_space, SharedMemorySpace):
            continue
        n = 1
        for d in t.get_shape():
            n *= d
        split_m, split_n = _cta_split(t.encoding)
        enc = TensorMemoryScalesEncoding.make(CTASplitM=split_m, CTASplitN=split_n)
        alloc = _insert(rw, build_op(TMEMAllocOp, [None], [_memdesc([rows, n // rows], t.element_type, enc,
                                                                     TensorMemorySpace()), None]), op, op.location)
        _insert(rw, build_op(TMEMCopyOp, [src, alloc.results[0], None]), op, op.location)
        set_operand_group(op, group, [alloc.results[0]])
        rw.modified(op)
        changed = True
    return changed


def _pure(op: Operation) -> bool:
    return is_side_effect_free(op) and is_speculatable(op)


def _is_true(v: SSAValue) -> bool:
    o = v.owner
    return isinstance(o, arith.ConstantOp) and o.value.type == i1 and o.value.value.data != 0


def _move_defs_before(value: SSAValue, target: Operation) -> bool:
    """Move the ops that make `value` after `target` in its block above it; False (nothing moved) when one of
    them is not pure."""
    order: list[Operation] = []

    def collect(v: SSAValue) -> bool:
        d = v.owner
        if not isinstance(d, Operation) or d.parent is not target.parent:
            return True
        if d.parent.get_operation_index(d) <= d.parent.get_operation_index(target):
            return True
        if not _pure(d):
            return False
        if not all(collect(x) for x in d.operands):
            return False
        if d not in order:
            order.append(d)
        return True

    if not collect(value):
        return False
    for d in order:
        d.detach()
        target.parent.insert_op_before(d, target)
    return True


def merge_commits(op: Operation, rw: Rewriter) -> bool:
    commits, pred, nxt = [], op.pred, op.next_op
    while nxt is not None:
        if nxt.name == "ttng.tc_gen5_commit":
            if not _is_true(pred) and pred is not nxt.pred:
                break
            commits.append(nxt)
        elif not _pure(nxt):
            break
        nxt = nxt.next_op
    if not commits:
        return False
    for commit in commits:
        p = commit.pred if commit.pred is not None else _const(rw, 1, i1, op)
        if not _move_defs_before(commit.barrier, op) or not _move_defs_before(p, op):
            break
        _add_barrier(op, commit.barrier, p)
        rw.modified(op)
        rw.erase(commit)
    return True


@dataclass(frozen=True)
class MMALowering(Pass):
    """Make MMA v5 ops asynchronous, move their scales to tensor memory and fold commits into them."""

    name = "triton-nvidia-mma-lowering"
    display = "TritonNvidiaGPUMMALoweringPass"
    summary = "lower MMA ops for NVIDIA GPUs"

    def apply(self, ctx, module) -> None:
        patterns = {"ttng.tc_gen5_mma": [lower_sync, merge_commits],
                    "ttng.tc_gen5_mma_scaled": [lower_sync, scales_to_tmem, merge_commits]}
        for region in module.regions:
            GreedyDriver(patterns, fold_in_place=fold_in_place).run(region)
