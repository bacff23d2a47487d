"""Layout inference that Triton 3.6's tt.dot_scaled decomposition relies on (ttc/ir/layout_utils.py,
passes/pipeliner/loads.py), against layouts in Triton's TTGIR for kernels/dot_scaled.py
(test/fixtures/triton/dot_scaled*.nodebug.ttgir)."""

from __future__ import annotations

from ttc.ir.layout_utils import fp4_to_fp_encoding, slice_of, trans_encoding
from ttc.ir.layouts import blocked
from ttc.ir.layouts import DotOperandEncoding, LinearEncoding, NvidiaMmaEncoding
from ttc.passes.pipeliner.loads import mma_v2_shared_layout

MMA = NvidiaMmaEncoding.make(versionMajor=3, versionMinor=0, warpsPerCTA=[4, 1], instrShape=[16, 64, 16])


def test_trans_of_a_slice_is_linear():
    # b's scales: the 2 x 64 slice of the broadcast's default layout, seen through tt.trans as 64 x 2 (Triton's
    # generic case: the slice's linear layout with each basis permuted)
    parent = blocked([1, 16, 1], [1, 4, 8], [1, 1, 4], [1, 2, 0])
    got = trans_encoding(slice_of(2, parent), [1, 0], [2, 64])
    assert got == LinearEncoding.make(register=[[1, 0], [2, 0], [4, 0], [8, 0], [0, 1]],
                                      lane=[[16, 0], [32, 0], [0, 0], [0, 0], [0, 0]], warp=[[0, 0], [0, 0]], block=[])


def test_fp4_to_fp_scales_kwidth_and_size_per_thread_along_the_fastest_axis():
    bf16_a = DotOperandEncoding.make(opIdx=0, parent=MMA, kWidth=2)
    i8_a = DotOperandEncoding.make(opIdx=0, parent=MMA, kWidth=1)
    assert fp4_to_fp_encoding(bf16_a, 1, forward=False) == i8_a
    assert fp4_to_fp_encoding(i8_a, 1, forward=True) == bf16_a
    assert fp4_to_fp_encoding(i8_a, 1, forward=False) is None  # no half element
    assert fp4_to_fp_encoding(bf16_a, 0, forward=False) is None  # M is not a's fastest axis
    b = blocked([1, 2], [1, 32], [4, 1], [1, 0])
    assert fp4_to_fp_encoding(b, 1, forward=False) == blocked([1, 1], [1, 32], [4, 1], [1, 0])
    assert fp4_to_fp_encoding(b, 1, forward=True) == blocked([1, 4], [1, 32], [4, 1], [1, 0])


def test_mma_operand_swizzle_follows_the_3_6_formula():
    # the e4m3 a of the mxfp8 kernel, loaded into the bf16 operand's kWidth 2: Triton's #shared
    got = mma_v2_shared_layout([64, 64], [1, 0], 8, 0, 2)
    assert (got["vec"], got["perPhase"], got["maxPhase"]) == (8, 2, 4)
    # native kWidths give the Ampere unit (8 x 8 x 4 kWidth) as before: f16 64 x 32, i8 64 x 64
    got = mma_v2_shared_layout([64, 32], [1, 0], 16, 0, 2)
    assert (got["vec"], got["perPhase"], got["maxPhase"]) == (8, 2, 4)
    got = mma_v2_shared_layout([32, 64], [1, 0], 8, 1, 4)
    assert (got["vec"], got["perPhase"], got["maxPhase"]) == (8, 2, 8)
