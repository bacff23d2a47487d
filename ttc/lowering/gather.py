"""`tt.gather`: result[i] = src[i with i[axis] replaced by index[i]].

Two forms, as in Triton:

- Warp-local gathers (Triton's GatherLoweringHelper::isWarpLocal: no warp moves along the axis, and source
  and indices split the other dimensions the same way over lanes and warps; the layouts
  tritongpu-optimize-thread-locality gives `efficient_layout` gathers are such) read the source through warp
  shuffles: the lane holding an element is the reader's lane with its axis bits taken from the index, and the
  register is one of the candidates that hold this column's values, picked by the index's register bits
  (one `shfl.sync.idx` per candidate). No shared memory, no barrier. `warp_local_plan` computes this.
- Any other gather goes through shared memory: after a barrier every source element is written once (by one
  of the threads holding it) to a row-major array in the scratch area; after another, each result register
  reads the element its index names.

An index outside the axis reads an unspecified element (shuffles use its low bits, shared memory clamps it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import reduce

import llvmlite.ir as ir

from ttc.ir.types import encoding, shape_of
from ttc.ir.linear_layout import LinearLayout, UnsupportedLayout, layout_for
from ttc.lowering.context import Lowering
from ttc.lowering.registry import lowering
from ttc.lowering.types import UnsupportedType, bits_of, i32, llvm_type


@dataclass(frozen=True)
class WarpLocalPlan:
    lane_bits: tuple[tuple[int, int], ...]  # (lane bit, axis value it holds): set from the index
    reg_mask: int  # the axis bits that registers hold
    candidates: tuple[tuple[tuple[int, int], ...], ...]  # per result register: (register axis bits, source register)


def warp_local_plan(src: LinearLayout, idx: LinearLayout, axis: int) -> WarpLocalPlan | None:
    """How each result register finds its source element within the warp, or None when the gather is not
    warp-local (or a layout moves along two dimensions with one basis)."""

    def other(b):
        return tuple(x for d, x in enumerate(b) if d != axis)

    if any(b[axis] for b in src.warp + idx.warp):
        return None
    if [other(b) for b in src.warp] != [other(b) for b in idx.warp]:
        return None
    if [other(b) for b in src.lane] != [other(b) for b in idx.lane]:
        return None
    if any(sum(1 for x in b if x) > 1 for b in src.reg + src.lane + src.warp):
        return None
    lane_bits = tuple((i, b[axis]) for i, b in enumerate(src.lane) if b[axis])
    reg_values = sorted({b[axis] for b in src.reg if b[axis]})
    reg_mask = reduce(lambda x, y: x | y, reg_values, 0)
    axis_values = [0]
    for v in reg_values:
        axis_values += [a | v for a in axis_values]
    candidates = []
    for c in idx.reg_coords:
        want = list(c)
        regs = []
        for a in sorted(axis_values):
            want[axis] = a
            q = src.first_reg.get(tuple(want))
            if q is None:
                return None
            regs.append((a, q))
        candidates.append(tuple(regs))
    return WarpLocalPlan(lane_bits, reg_mask, tuple(candidates))


def _linear(b, coords, strides):
    acc = None
    for c, s in zip(coords, strides):
        term = c if s == 1 else b.mul(c, ir.Constant(i32, s))
        acc = term if acc is None else b.add(acc, term)
    return acc


def _index_i32(b, v):
    w = v.type.width
    if w > 32:
        return b.trunc(v, i32)
    if w < 32:
        return b.zext(v, i32)  # narrow indices are read unsigned, as the result must lie in [0, size)
    return v


def _warp_local(ctx, plan: WarpLocalPlan, vals, idx, n_out: int) -> list:
    b = ctx.b
    lane_mask = sum(1 << i for i, _ in plan.lane_bits)
    keep = b.and_(ctx.lane(), ir.Constant(i32, ~lane_mask & 0xFFFFFFFF))
    out = []
    for r in range(n_out):
        k = _index_i32(b, idx[r] if isinstance(idx, list) else idx)
        src_lane = keep
        for bit, value in plan.lane_bits:
            j = value.bit_length() - 1
            picked = b.and_(b.lshr(k, ir.Constant(i32, j)), ir.Constant(i32, 1)) if j else b.and_(k, ir.Constant(i32, 1))
            src_lane = b.or_(src_lane, b.shl(picked, ir.Constant(i32, bit)) if bit else picked)
        k_regs = b.and_(k, ir.Constant(i32, plan.reg_mask)) if plan.reg_mask else None
        value = None
        for a, q in plan.candidates[r]:
            v = ctx.shuffle("idx", vals[q], src_lane)
            value = v if value is None else b.select(b.icmp_unsigned("==", k_regs, ir.Constant(i32, a)), v, value)
        out.append(value)
    return out


def scratch_need(op) -> int:
    """The scratch bytes the shared-memory form uses at `op` (the whole source, row-major; 0 for a warp-local
    gather); what shared-memory allocation reserves for it."""
    try:
        src_ll, out_ll = (layout_for(tuple(shape_of(t)), encoding(t)) for t in (op.src.type, op.result.type))
        slot = bits_of(Lowering.stored_type(llvm_type(op.result.type.element_type))) // 8
    except (UnsupportedLayout, UnsupportedType):
        return 0  # the lowering reports it
    if warp_local_plan(src_ll, out_ll, op.axis.value.data) is not None:
        return 0
    return math.prod(shape_of(op.src.type)) * slot


@lowering("tt.gather")
def _gather(ctx, op):
    b = ctx.b
    axis = op.axis.value.data
    src_shape = shape_of(op.src.type)
    src_ll = ctx.layout(op.src.type, op)
    out_ll = ctx.layout(op.result.type, op)
    vals = ctx.get(op.src)
    idx = ctx.get(op.indices)
    plan = warp_local_plan(src_ll, out_ll, axis)
    if plan is not None:
        ctx.set(op.result, _warp_local(ctx, plan, vals, idx, out_ll.num_regs))
        return
    elem_t = ctx.type_of(op.result.type, op)
    slot = bits_of(ctx.stored_type(elem_t)) // 8
    strides = [math.prod(src_shape[d + 1:]) for d in range(len(src_shape))]
    ctx.use_scratch(math.prod(src_shape) * slot)
    ctx.barrier_before_scratch()
    owner = ctx.owner_pred(src_ll)
    src_coords = ctx.coords(src_ll)
    for r in src_ll.unique_regs:
        ctx.smem_store(_linear(b, src_coords[r], strides), vals[r], elem_bytes=slot, pred=owner)
    ctx.barrier()
    last = ir.Constant(i32, src_shape[axis] - 1)
    out = []
    for r, c in enumerate(ctx.coords(out_ll)):
        k = _index_i32(b, idx[r] if isinstance(idx, list) else idx)
        k = b.select(b.icmp_unsigned(">", k, last), last, k)
        coords = list(c)
        coords[axis] = k
        out.append(ctx.smem_load(_linear(b, coords, strides), elem_t, elem_bytes=slot))
    ctx.set(op.result, out)
