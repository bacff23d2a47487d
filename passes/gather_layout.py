"""The layout of `tt.gather` (part of tritongpu-optimize-thread-locality, Triton's OptimizeGatherLayoutPattern).

A gather reads, for each output element, a source element at another position along the gather axis. When a
whole column along that axis lives inside one warp (one warp along the axis, as many lanes along it as the
axis allows), the exchange needs no shared memory: Triton lowers it with warp shuffles. This pattern gives
source, indices and result one such blocked layout:

- lanes: as many along the axis as its source extent (at most a warp), the rest spread over the other
  dimensions in the source's thread order (Triton's, from the linear layout: the dimensions the lanes move
  along first, then the register order), up to each extent; lanes still left over broadcast along the axis;
- warps: one along the axis, the others spread over the other dimensions in the source's warp order, up to
  the extent the lanes leave; warps still left over broadcast along the axis;
- one element per thread outside the axis, `extent / lanes` along it; order: the axis first, then the other
  dimensions in the source's thread order.

Source and indices get conversions to that layout, the result one back to its old layout, and the gather is
marked `efficient_layout` (which also makes it a layout anchor for tritongpu-remove-layout-conversions).
1-D gathers keep their layout, as in Triton 3.6.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Operation

from ttc.ir.layout_utils import get_order, linear_orders, num_warps_of, threads_per_warp_of, with_encoding
from ttc.ir.layouts import blocked
from ttc.ir.layouts import BlockedEncoding
from ttc.ir.types import encoding


def gather_layout(src_shape, src_enc, axis: int, num_warps: int, threads_per_warp: int) -> BlockedEncoding:
    rank = len(src_shape)
    # Triton's getThreadOrder / getWarpOrder, read off the linear layout (broadcast dimensions come last)
    orders = linear_orders(src_shape, src_enc)
    thread_order, warp_order = orders[1:] if orders else (get_order(src_enc),) * 2
    tpw, wpc = [0] * rank, [0] * rank
    tpw[axis] = min(src_shape[axis], threads_per_warp)
    lanes_left = threads_per_warp // tpw[axis]
    order = [axis]
    for d in thread_order:
        if d != axis:
            order.append(d)
            tpw[d] = min(src_shape[d], lanes_left)
            lanes_left //= tpw[d]
    wpc[axis] = 1
    warps_left = num_warps
    for d in warp_order:
        if d != axis:
            wpc[d] = min(src_shape[d] // tpw[d], warps_left)
            warps_left //= wpc[d]
    spt = [1] * rank
    spt[axis] = src_shape[axis] // tpw[axis]
    tpw[axis] *= lanes_left
    wpc[axis] *= warps_left
    assert math.prod(tpw) == threads_per_warp and math.prod(wpc) == num_warps
    return blocked(spt, tpw, wpc, order)


def optimize_gather(op: Operation, rw) -> bool:
    from ttc.ir.convert_layout_patterns import convert as _cvt

    if op.properties.get("efficient_layout") is not None or len(op.operands[0].type.get_shape()) == 1:
        return False
    src, idx, res = op.operands[0], op.operands[1], op.results[0]
    axis = op.axis.value.data
    enc = gather_layout(list(src.type.get_shape()), encoding(src.type), axis, num_warps_of(op),
                        threads_per_warp_of(op))
    cvt_src = rw.insert_before(_cvt(src, with_encoding(src.type, enc)), op)
    cvt_idx = rw.insert_before(_cvt(idx, with_encoding(idx.type, enc)), op)
    old_type = res.type
    cvt_out = _cvt(res, old_type)
    for c in (cvt_src, cvt_idx, cvt_out):
        c.location = op.location
    op.parent.insert_op_after(cvt_out, op)
    rw.driver.inserted(cvt_out)
    for u in list(res.uses):
        if u.operation is not cvt_out:
            u.operation.operands[u.index] = cvt_out.results[0]
            rw.modified(u.operation)
    op.operands = [cvt_src.results[0], cvt_idx.results[0]]
    res._type = with_encoding(old_type, enc)
    op.properties["efficient_layout"] = UnitAttr()
    rw.modified(op)
    return True
