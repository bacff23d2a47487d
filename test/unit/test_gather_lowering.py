"""The warp-shuffle form of tt.gather (ttc/lowering/gather.py): for the layouts Triton gives gathers (its
TTGIR for kernels/gather.py and its variants), every thread of every warp, for every result register and every
index value, finds the source element it needs at the lane and register the plan names (simulated on the linear
layouts); layouts that are not warp-local get no plan (they go through shared memory). The PTX of both forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttc.ir.layouts import blocked
from ttc.lowering import pipeline
from ttc.lowering.gather import warp_local_plan
from ttc.ir.linear_layout import layout_for

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "test" / "fixtures" / "triton"

WARP_LOCAL = {
    # (source shape, index shape, layout, axis): the layouts of Triton's efficient_layout gathers
    "rows_w4": ((32, 32), (64, 32), blocked([1, 1], [32, 1], [1, 4], [0, 1]), 0),
    "cols_w4": ((32, 32), (32, 32), blocked([1, 1], [1, 32], [4, 1], [1, 0]), 1),
    "rows_fp16_w8": ((64, 64), (128, 64), blocked([2, 1], [32, 1], [1, 8], [0, 1]), 0),
    "cols_fp16_w8": ((64, 64), (64, 64), blocked([1, 2], [1, 32], [8, 1], [1, 0]), 1),
    "middle_3d": ((4, 16, 8), (4, 16, 8), blocked([1, 1, 1], [1, 16, 2], [1, 1, 4], [1, 2, 0]), 1),
}


def simulate(src, idx, axis, plan):
    n = src.shape[axis]
    for w in range(src.num_warps):
        for lane in range(src.num_lanes):
            for r in range(idx.num_regs):
                c = list(idx.apply(r, lane, w))
                for k in range(n):
                    want = tuple(c[:axis] + [k] + c[axis + 1:])
                    src_lane = lane & ~sum(1 << i for i, _ in plan.lane_bits)
                    for bit, value in plan.lane_bits:
                        src_lane |= (k & value != 0) << bit
                    q = dict(plan.candidates[r])[k & plan.reg_mask]
                    assert src.apply(q, src_lane, w) == want, (w, lane, r, k)


@pytest.mark.parametrize("name", sorted(WARP_LOCAL))
def test_warp_local_plan_reads_the_right_element(name):
    src_shape, idx_shape, enc, axis = WARP_LOCAL[name]
    src, idx = layout_for(src_shape, enc), layout_for(idx_shape, enc)
    plan = warp_local_plan(src, idx, axis)
    assert plan is not None
    simulate(src, idx, axis, plan)


def test_registers_along_the_axis_are_selected_by_the_index():
    src_shape, idx_shape, enc, axis = WARP_LOCAL["rows_fp16_w8"]
    plan = warp_local_plan(layout_for(src_shape, enc), layout_for(idx_shape, enc), axis)
    assert plan.reg_mask == 1 and all(len(c) == 2 for c in plan.candidates)
    assert plan.lane_bits == tuple((i, 2 << i) for i in range(5))


def test_gathers_that_are_not_warp_local_have_no_plan():
    # warps along the gather axis
    one_d = blocked([2], [32], [4], [0])
    assert warp_local_plan(layout_for((256,), one_d), layout_for((256,), one_d), 0) is None
    # source and indices split the other dimension differently over lanes
    a, b = blocked([1, 4], [4, 8], [4, 1], [1, 0]), blocked([1, 1], [1, 32], [4, 1], [1, 0])
    assert warp_local_plan(layout_for((32, 32), b), layout_for((32, 32), a), 1) is None


def ptx_of(path: Path) -> str:
    mod, meta, tm = pipeline.to_llvm(path.read_text(), str(path), pipeline.Options())
    return pipeline.to_ptx(mod, meta, tm)


def test_ptx_of_both_forms(tmp_path):
    # kernels/gather.py as Triton lays it out: both gathers are warp-local, read with shfl.sync.idx (one per
    # result register); only the conversions around them use shared memory
    ptx = ptx_of(FIXTURES / "gather.nodebug.ttgir")
    assert ptx.count("shfl.sync.idx.b32") == 16 + 8
    # the same gathers with source and indices in different layouts go through shared memory
    text = (FIXTURES / "gather.nodebug.ttgir").read_text()
    text = text.replace("tt.gather %37[%38] {axis = 1 : i32, efficient_layout} : (tensor<32x32xf32, #blocked2>, "
                        "tensor<32x32xi32, #blocked2>) -> tensor<32x32xf32, #blocked2>",
                        "tt.gather %11[%38] {axis = 1 : i32} : (tensor<32x32xf32, #blocked>, "
                        "tensor<32x32xi32, #blocked2>) -> tensor<32x32xf32, #blocked2>")
    assert "tt.gather %11[%38]" in text
    (tmp_path / "mixed.ttgir").write_text(text)
    ptx = ptx_of(tmp_path / "mixed.ttgir")
    assert ptx.count("shfl.sync.idx.b32") == 16 and "min.u32" in ptx
