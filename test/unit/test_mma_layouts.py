"""MMA v2 (mma.sync.aligned.m16n8k16) layouts against the PTX ISA's fragment tables, and the tt.dot lowering's
register choice checked by emulating mma.sync on those tables (no GPU needed).

The reference below is written from the PTX ISA ("Matrix Fragments for mma.m16n8k16 with floating point type"),
independently of ttc's linear layouts: groupID = lane >> 2, threadID_in_group = lane % 4, and
    A (16x16, .row): a_i at row groupID + 8 * ((i >> 1) & 1), col 2 * threadID_in_group + (i & 1) + 8 * (i >= 4)
    B (16x8, .col):  b_i at row 2 * threadID_in_group + (i & 1) + 8 * (i >= 2), col groupID
    C/D (16x8):      c_i at row groupID + 8 * (i >= 2), col 2 * threadID_in_group + (i & 1)
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ttc.ir.layouts import DotOperandEncoding, NvidiaMmaEncoding
from ttc.lowering.dot import MMALayoutError, mma_plan
from ttc.ir.linear_layout import layout_for


def isa_a(lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    return g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >= 4)


def isa_b(lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    return 2 * t + (i & 1) + 8 * (i >= 2), g


def isa_c(lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    return g + 8 * (i >= 2), 2 * t + (i & 1)


def mma(warps, rank=2):
    return NvidiaMmaEncoding.make(versionMajor=2, versionMinor=0, warpsPerCTA=list(warps),
                                  instrShape=[1] * (rank - 2) + [16, 8])


def operand(idx, parent):
    return DotOperandEncoding.make(opIdx=idx, parent=parent, kWidth=2)


@pytest.mark.parametrize("kind,shape,nregs,ref", [("c", (16, 8), 4, isa_c), ("a", (16, 16), 8, isa_a),
                                                   ("b", (16, 8), 4, isa_b)])
def test_one_warp_tile_is_the_isa_fragment(kind, shape, nregs, ref):
    """One warp, one instruction's tile: register i of lane l is the ISA's fragment element i of lane l."""
    parent = mma([1, 1])
    enc = parent if kind == "c" else operand(0 if kind == "a" else 1, parent)
    ll = layout_for(shape, enc)
    assert ll.num_regs == nregs and ll.num_lanes == 32
    for lane, i in itertools.product(range(32), range(nregs)):
        assert ll.apply(i, lane, 0) == ref(lane, i), (kind, lane, i)


def test_layouts_match_tritons_bases():
    """The bases Triton 3.6 prints for these layouts (a #ttg.linear in its attention TTGIR is the B operand of
    an mma [4, 1] dot, transposed; the others are Triton's nvidiaMmaToLinearLayout / nvidiaDotToLinearLayout)."""
    b = layout_for((64, 64), operand(1, mma([4, 1])))
    t = lambda bases: [tuple(reversed(x)) for x in bases]  # noqa: E731
    assert t(b.reg) == [(0, 1), (0, 8), (0, 16), (0, 32), (8, 0), (16, 0), (32, 0)]
    assert t(b.lane) == [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]
    assert list(b.warp) == [(0, 0), (0, 0)]
    c = layout_for((64, 64), mma([2, 2]))
    assert list(c.reg) == [(0, 1), (8, 0), (0, 16), (0, 32), (32, 0)]  # N repeats before M
    assert list(c.lane) == [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)]
    assert list(c.warp) == [(0, 8), (16, 0)]  # warps N first
    a = layout_for((64, 32), operand(0, mma([2, 2])))
    assert list(a.reg) == [(0, 1), (8, 0), (0, 8), (0, 16), (32, 0)]  # K repeats before M
    assert list(a.warp) == [(0, 0), (16, 0)]  # replicated over the warps that split N


CASES = [
    # (M, N, K, warpsPerCTA)
    (64, 64, 32, [2, 2]),
    (128, 64, 64, [4, 1]),
    (64, 128, 32, [1, 4]),
    (128, 128, 64, [2, 4]),
    (16, 16, 16, [2, 2]),   # warps along M replicate (M = 16 < 2 x 16)
    (32, 8, 16, [1, 4]),    # warps along N replicate
    (16, 64, 32, [1, 2]),
]


def emulate(a_ll, b_ll, c_ll, A, B, C, num_warps):
    """Run the lowering's plan with mma.sync as the ISA defines it, thread by thread; returns the accumulator's
    registers per (warp, lane)."""
    def regs(ll, X):
        return {(w, l): [X[ll.apply(r, l, w)] for r in range(ll.num_regs)] for w in range(num_warps)
                for l in range(32)}

    ra, rb, rc = regs(a_ll, A), regs(b_ll, B), regs(c_ll, C)
    for cs, a_steps, b_steps in mma_plan(a_ll, b_ll, c_ll):
        for w in range(num_warps):
            acc = np.zeros((16, 8))
            for l in range(32):
                for i, x in enumerate(cs):
                    acc[isa_c(l, i)] = rc[w, l][x]
            for ar, br in zip(a_steps, b_steps):
                fa, fb = np.full((16, 16), np.nan), np.full((16, 8), np.nan)
                for l in range(32):
                    for i, x in enumerate(ar):
                        fa[isa_a(l, i)] = ra[w, l][x]
                    for i, x in enumerate(br):
                        fb[isa_b(l, i)] = rb[w, l][x]
                assert not np.isnan(fa).any() and not np.isnan(fb).any()
                acc = fa @ fb + acc
            for l in range(32):
                for i, x in enumerate(cs):
                    rc[w, l][x] = acc[isa_c(l, i)]
    return rc


@pytest.mark.parametrize("M,N,K,warps", CASES)
def test_emulated_mma_dot_computes_the_product(M, N, K, warps):
    parent = mma(warps)
    a_ll = layout_for((M, K), operand(0, parent))
    b_ll = layout_for((K, N), operand(1, parent))
    c_ll = layout_for((M, N), parent)
    for ll in (a_ll, b_ll, c_ll):
        ll.check_injective()
    rng = np.random.default_rng(0)
    A, B, C = rng.integers(-4, 5, (M, K)), rng.integers(-4, 5, (K, N)), rng.integers(-4, 5, (M, N))
    nw = warps[0] * warps[1]
    out = emulate(a_ll, b_ll, c_ll, A, B, C, nw)
    want = A @ B + C
    for w, l in itertools.product(range(nw), range(32)):
        for r in range(c_ll.num_regs):
            assert out[w, l][r] == want[c_ll.apply(r, l, w)], (w, l, r)


def test_batched_layouts_emulate_too():
    parent = mma([4, 1, 1], rank=3)
    a_ll = layout_for((4, 32, 16), operand(0, parent))
    b_ll = layout_for((4, 16, 16), operand(1, parent))
    c_ll = layout_for((4, 32, 16), parent)
    rng = np.random.default_rng(1)
    A, B, C = rng.integers(-4, 5, (4, 32, 16)), rng.integers(-4, 5, (4, 16, 16)), rng.integers(-4, 5, (4, 32, 16))
    out = emulate(a_ll, b_ll, c_ll, A, B, C, 4)
    want = A @ B + C
    for w, l in itertools.product(range(4), range(32)):
        for r in range(c_ll.num_regs):
            assert out[w, l][r] == want[c_ll.apply(r, l, w)]


def test_mismatched_operand_warps_are_refused():
    a_ll = layout_for((64, 32), operand(0, mma([4, 1])))
    b_ll = layout_for((32, 64), operand(1, mma([2, 2])))
    c_ll = layout_for((64, 64), mma([2, 2]))
    with pytest.raises(MMALayoutError):
        mma_plan(a_ll, b_ll, c_ll)
