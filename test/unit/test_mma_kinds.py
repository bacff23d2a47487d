"""mma.sync beyond f16/bf16 -> f32: tf32 (m16n8k8), s8 and fp8 (m16n8k32), f16 accumulators (m16n8k16).

The fragment tables below are written from the PTX ISA ("Matrix Fragments for mma.m16n8k8" with .tf32, and
"mma.m16n8k32" with .s8/.e4m3/.e5m2), independently of ttc's layouts and of dot.py's coordinate helpers:
groupID g = lane >> 2, threadID_in_group t = lane % 4,
    tf32 A (16x8):  a_i (i < 4) at row g + 8 * (i & 1), col t + 4 * (i >= 2)
    tf32 B (8x8):   b_i (i < 2) at row t + 4 * i, col g
    8-bit A (16x32): a_i (i < 16) at row g + 8 * ((i // 4) & 1), col 4 t + (i & 3) + 16 * (i >= 8)
    8-bit B (32x8):  b_i (i < 8) at row 4 t + (i & 3) + 16 * (i >= 4), col g
    C (16x8, f32/s32 and f16 alike): c_i at row g + 8 * (i >= 2), col 2 t + (i & 1)
Each 32-bit operand register holds consecutive fragment elements, the lowest-numbered in the low bits.
"""

from __future__ import annotations

import itertools

import llvmlite.binding as llvm
import llvmlite.ir as ir
import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IntegerType

from ttc.ir.layouts import DotOperandEncoding, NvidiaMmaEncoding
from ttc.lowering.dot import mma_plan, pack_word
from ttc.ir.linear_layout import layout_for
from ttc.lowering.mma_v2 import MmaKind, mma_v2_kind


def isa_a(k_width: int, lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    if k_width == 1:
        return g + 8 * (i & 1), t + 4 * (i >= 2)
    if k_width == 2:
        return g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >= 4)
    return g + 8 * ((i // 4) & 1), 4 * t + (i & 3) + 16 * (i >= 8)


def isa_b(k_width: int, lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    if k_width == 1:
        return t + 4 * i, g
    if k_width == 2:
        return 2 * t + (i & 1) + 8 * (i >= 2), g
    return 4 * t + (i & 3) + 16 * (i >= 4), g


def isa_c(lane: int, i: int) -> tuple[int, int]:
    g, t = lane >> 2, lane % 4
    return g + 8 * (i >= 2), 2 * t + (i & 1)


def mma(warps):
    return NvidiaMmaEncoding.make(versionMajor=2, versionMinor=0, warpsPerCTA=list(warps), instrShape=[16, 8])


def operand(idx, parent, k_width):
    return DotOperandEncoding.make(opIdx=idx, parent=parent, kWidth=k_width)


@pytest.mark.parametrize("k_width", [1, 4])
@pytest.mark.parametrize("kind", ["a", "b"])
def test_one_warp_operand_tile_is_the_isa_fragment(kind, k_width):
    """One warp, one instruction: register i of lane l is the ISA's fragment element i of lane l."""
    k = 8 * k_width
    shape, n = ((16, k), 4 * k_width) if kind == "a" else ((k, 8), 2 * k_width)
    ll = layout_for(shape, operand(0 if kind == "a" else 1, mma([1, 1]), k_width))
    assert ll.num_regs == n and ll.num_lanes == 32
    ref = isa_a if kind == "a" else isa_b
    for lane, i in itertools.product(range(32), range(n)):
        assert ll.apply(i, lane, 0) == ref(k_width, lane, i), (kind, lane, i)


def emulate(a_ll, b_ll, c_ll, A, B, C, num_warps, k_width):
    """Run the lowering's plan with mma.sync as the ISA defines it, thread by thread."""
    k = 8 * k_width

    def regs(ll, X):
        return {(w, l): [X[ll.apply(r, l, w)] for r in range(ll.num_regs)] for w in range(num_warps)
                for l in range(32)}

    ra, rb, rc = regs(a_ll, A), regs(b_ll, B), regs(c_ll, C)
    steps = 0
    for cs, a_steps, b_steps in mma_plan(a_ll, b_ll, c_ll, k_width):
        for w in range(num_warps):
            acc = np.zeros((16, 8))
            for l in range(32):
                for i, x in enumerate(cs):
                    acc[isa_c(l, i)] = rc[w, l][x]
            for ar, br in zip(a_steps, b_steps):
                fa, fb = np.full((16, k), np.nan), np.full((k, 8), np.nan)
                for l in range(32):
                    for i, x in enumerate(ar):
                        fa[isa_a(k_width, l, i)] = ra[w, l][x]
                    for i, x in enumerate(br):
                        fb[isa_b(k_width, l, i)] = rb[w, l][x]
                assert not np.isnan(fa).any() and not np.isnan(fb).any()
                acc = fa @ fb + acc
                steps += 1
            for l in range(32):
                for i, x in enumerate(cs):
                    rc[w, l][x] = acc[isa_c(l, i)]
    return rc, steps


CASES = [
    # (M, N, K in instruction steps, warpsPerCTA)
    (64, 64, 2, [2, 2]),
    (128, 64, 1, [4, 1]),
    (64, 128, 4, [1, 4]),
    (16, 16, 1, [2, 2]),   # warps along M replicate
    (32, 8, 2, [1, 4]),    # warps along N replicate
]


@pytest.mark.parametrize("k_width", [1, 4])
@pytest.mark.parametrize("M,N,steps,warps", CASES)
def test_emulated_mma_dot_computes_the_product(M, N, steps, warps, k_width):
    K = 8 * k_width * steps
    parent = mma(warps)
    a_ll, b_ll = layout_for((M, K), operand(0, parent, k_width)), layout_for((K, N), operand(1, parent, k_width))
    c_ll = layout_for((M, N), parent)
    rng = np.random.default_rng(0)
    A, B, C = rng.integers(-4, 5, (M, K)), rng.integers(-4, 5, (K, N)), rng.integers(-4, 5, (M, N))
    nw = warps[0] * warps[1]
    out, _ = emulate(a_ll, b_ll, c_ll, A, B, C, nw, k_width)
    want = A @ B + C
    for w, l in itertools.product(range(nw), range(32)):
        for r in range(c_ll.num_regs):
            assert out[w, l][r] == want[c_ll.apply(r, l, w)], (w, l, r)


@pytest.mark.parametrize("per_word,k_width", [(2, 4), (2, 8), (4, 8), (1, 2)])
@pytest.mark.parametrize("M,N,steps,warps", CASES[:3])
def test_emulated_large_kwidth_dot_computes_the_product(M, N, steps, warps, per_word, k_width):
    """kWidth above the elements of a 32-bit register (Triton's computeOrigBitWidth: bf16 loaded as 8 or 4 bits,
    i8 through a join, f32 loaded as f16): each mma.sync takes a thread's next two words along K (`k_chunks`),
    a permutation of K shared by A and B, so the product is still A @ B."""
    K = 4 * k_width * steps
    parent = mma(warps)
    a_ll, b_ll = layout_for((M, K), operand(0, parent, k_width)), layout_for((K, N), operand(1, parent, k_width))
    c_ll = layout_for((M, N), parent)
    rng = np.random.default_rng(2)
    A, B, C = rng.integers(-4, 5, (M, K)), rng.integers(-4, 5, (K, N)), rng.integers(-4, 5, (M, N))
    nw = warps[0] * warps[1]
    k = 8 * per_word
    ra, rb, rc = ({(w, l): [X[ll.apply(r, l, w)] for r in range(ll.num_regs)] for w in range(nw) for l in range(32)}
                  for ll, X in ((a_ll, A), (b_ll, B), (c_ll, C)))
    steps_run = 0
    for cs, a_steps, b_steps in mma_plan(a_ll, b_ll, c_ll, k_width, per_word):
        for w in range(nw):
            acc = np.zeros((16, 8))
            for l in range(32):
                for i, x in enumerate(cs):
                    acc[isa_c(l, i)] = rc[w, l][x]
            for ar, br in zip(a_steps, b_steps):
                fa, fb = np.full((16, k), np.nan), np.full((k, 8), np.nan)
                for l in range(32):
                    for i, x in enumerate(ar):
                        fa[isa_a(per_word, l, i)] = ra[w, l][x]
                    for i, x in enumerate(br):
                        fb[isa_b(per_word, l, i)] = rb[w, l][x]
                assert not np.isnan(fa).any() and not np.isnan(fb).any()
                acc = fa @ fb + acc
                steps_run += 1
            for l in range(32):
                for i, x in enumerate(cs):
                    rc[w, l][x] = acc[isa_c(l, i)]
    assert steps_run == len(mma_plan(a_ll, b_ll, c_ll, k_width, per_word)) * nw * K // k
    want = A @ B + C
    for w, l in itertools.product(range(nw), range(32)):
        for r in range(c_ll.num_regs):
            assert rc[w, l][r] == want[c_ll.apply(r, l, w)], (w, l, r)


@pytest.mark.parametrize("M,N,steps,warps", CASES)
def test_emulated_f64_dot_computes_the_product(M, N, steps, warps):
    """f64: per 16x8 tile and k step of 4, m8n8k4 on rows m (a0, c0 c1) and m + 8 (a1, c2 c3) with b0; the ISA's
    m8n8k4 .f64 fragments: a0 at (g, t), b0 at (t, g), c_i at (g, 2 t + i)."""
    K = 8 * steps
    parent = mma(warps)
    a_ll, b_ll = layout_for((M, K), operand(0, parent, 1)), layout_for((K, N), operand(1, parent, 1))
    c_ll = layout_for((M, N), parent)
    rng = np.random.default_rng(3)
    A, B, C = rng.normal(size=(M, K)), rng.normal(size=(K, N)), rng.normal(size=(M, N))
    nw = warps[0] * warps[1]
    ra, rb, rc = ({(w, l): [X[ll.apply(r, l, w)] for r in range(ll.num_regs)] for w in range(nw) for l in range(32)}
                  for ll, X in ((a_ll, A), (b_ll, B), (c_ll, C)))
    for cs, a_steps, b_steps in mma_plan(a_ll, b_ll, c_ll, 1, 1, 4):
        for w in range(nw):
            for half in (0, 1):
                acc = np.zeros((8, 8))
                for l in range(32):
                    for i in (0, 1):
                        acc[l >> 2, 2 * (l % 4) + i] = rc[w, l][cs[2 * half + i]]
                for ar, br in zip(a_steps, b_steps):
                    assert len(ar) == 2 and len(br) == 1
                    fa, fb = np.zeros((8, 4)), np.zeros((4, 8))
                    for l in range(32):
                        fa[l >> 2, l % 4] = ra[w, l][ar[half]]
                        fb[l % 4, l >> 2] = rb[w, l][br[0]]
                    acc = fa @ fb + acc
                for l in range(32):
                    for i in (0, 1):
                        rc[w, l][cs[2 * half + i]] = acc[l >> 2, 2 * (l % 4) + i]
    want = A @ B + C
    for w, l in itertools.product(range(nw), range(32)):
        for r in range(c_ll.num_regs):
            assert np.isclose(rc[w, l][r], want[c_ll.apply(r, l, w)]), (w, l, r)


def test_packed_words_put_the_first_element_low():
    """pack_word's bit order, run on the CPU (llvmlite's JIT): 4 x i8, 2 x i16, 1 x f32."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    module = ir.Module()
    for name, types in (("bytes", [ir.IntType(8)] * 4), ("halves", [ir.IntType(16)] * 2), ("word", [ir.FloatType()])):
        fn = ir.Function(module, ir.FunctionType(ir.IntType(32), types), name)
        b = ir.IRBuilder(fn.append_basic_block())
        b.ret(pack_word(b, list(fn.args)))
    target = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(str(module)), target)
    engine.finalize_object()
    import ctypes
    u32 = ctypes.c_uint32
    f = ctypes.CFUNCTYPE(u32, *[ctypes.c_int8] * 4)(engine.get_function_address("bytes"))
    assert f(1, 2, 3, -1) == 0xFF030201
    f = ctypes.CFUNCTYPE(u32, ctypes.c_int16, ctypes.c_int16)(engine.get_function_address("halves"))
    assert f(0x1234, -2) == 0xFFFE1234
    f = ctypes.CFUNCTYPE(u32, ctypes.c_float)(engine.get_function_address("word"))
    assert f(1.0) == 0x3F800000


@pytest.mark.parametrize("a,c,precision,cap,ptx", [
    (Float16Type(), Float32Type(), 0, 80, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
    (BFloat16Type(), Float32Type(), 0, 80, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
    (Float16Type(), Float16Type(), 0, 80, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"),
    (Float32Type(), Float32Type(), 0, 80, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"),
    (IntegerType(8), IntegerType(32), 0, 80, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"),
])
def test_kinds(a, c, precision, cap, ptx):
    kind = mma_v2_kind(a, a, c, precision, cap, (64, 64, 64))
    assert isinstance(kind, MmaKind) and kind.ptx == ptx and kind.k_width * kind.bits == 32


def test_fp8_kinds_are_native_on_sm89_and_sm120_only():
    from xdsl.dialects.builtin import Float8E4M3FNType, Float8E5M2Type
    e4, e5 = Float8E4M3FNType(), Float8E5M2Type()
    for cap in (89, 120):
        kind = mma_v2_kind(e4, e5, Float32Type(), 0, cap)
        assert kind.ptx == "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32" and kind.k_width == 4
    assert "f32 only" in mma_v2_kind(e4, e4, Float16Type(), 0, 90)
    for a, b, cap in ((e5, e5, 80), (e4, e5, 80), (e4, e4, 90), (e5, e5, 100)):  # elsewhere f16 after an upcast
        up = mma_v2_kind(a, b, Float32Type(), 0, cap, (16, 8, 16))
        assert up.upcast and up.k_width == 4 and up.ptx == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"


def test_f64_kind_is_m8n8k4():
    from xdsl.dialects.builtin import Float64Type
    kind = mma_v2_kind(Float64Type(), Float64Type(), Float64Type(), 0, 80, (16, 8, 4))
    assert kind.ptx == "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64" and kind.k_width == 1 and kind.k == 4
    assert "f64 only" in mma_v2_kind(Float64Type(), Float64Type(), Float32Type(), 0, 80)
    assert "16x8x4" in mma_v2_kind(Float64Type(), Float64Type(), Float64Type(), 0, 80, (16, 8, 2))


@pytest.mark.parametrize("M,N,steps,warps", CASES)
def test_emulated_upcast_dot_computes_the_product(M, N, steps, warps):
    """f16 operands in fp8's kWidth-4 layouts (4 consecutive k per thread's register group): the plan feeds
    m16n8k16's f16 fragments a permutation of K that A and B share, so the product is still A @ B."""
    K = 16 * steps
    parent = mma(warps)
    a_ll, b_ll = layout_for((M, K), operand(0, parent, 4)), layout_for((K, N), operand(1, parent, 4))
    c_ll = layout_for((M, N), parent)
    rng = np.random.default_rng(1)
    A, B, C = rng.integers(-4, 5, (M, K)), rng.integers(-4, 5, (K, N)), rng.integers(-4, 5, (M, N))
    nw = warps[0] * warps[1]
    ra = {(w, l): [A[a_ll.apply(r, l, w)] for r in range(a_ll.num_regs)] for w in range(nw) for l in range(32)}
    rb = {(w, l): [B[b_ll.apply(r, l, w)] for r in range(b_ll.num_regs)] for w in range(nw) for l in range(32)}
    rc = {(w, l): [C[c_ll.apply(r, l, w)] for r in range(c_ll.num_regs)] for w in range(nw) for l in range(32)}
    for cs, a_steps, b_steps in mma_plan(a_ll, b_ll, c_ll, 4, 2):
        for w in range(nw):
            acc = np.zeros((16, 8))
            for l in range(32):
                for i, x in enumerate(cs):
                    acc[isa_c(l, i)] = rc[w, l][x]
            for ar, br in zip(a_steps, b_steps):
                fa, fb = np.full((16, 16), np.nan), np.full((16, 8), np.nan)
                for l in range(32):
                    for i, x in enumerate(ar):
                        fa[isa_a(2, l, i)] = ra[w, l][x]
                    for i, x in enumerate(br):
                        fb[isa_b(2, l, i)] = rb[w, l][x]
                assert not np.isnan(fa).any() and not np.isnan(fb).any()
                acc = fa @ fb + acc
            for l in range(32):
                for i, x in enumerate(cs):
                    rc[w, l][x] = acc[isa_c(l, i)]
    want = A @ B + C
    for w, l in itertools.product(range(nw), range(32)):
        for r in range(c_ll.num_regs):
            assert rc[w, l][r] == want[c_ll.apply(r, l, w)], (w, l, r)


@pytest.mark.parametrize("a,c,precision,shape,why", [
    (Float32Type(), Float32Type(), 2, None, "no f32 x f32 -> f32 form"),            # ieee: FMA, as in Triton
    (BFloat16Type(), BFloat16Type(), 0, None, "accumulates in f32 only"),
    (IntegerType(8), Float32Type(), 0, None, "s32 only"),
    (IntegerType(8), IntegerType(32), 0, (64, 64, 16), "not a whole number of m16n8k32 tiles"),
    (IntegerType(16), IntegerType(32), 0, None, "no i16 x i16 -> i32 form"),
])
def test_no_kind_says_why(a, c, precision, shape, why):
    reason = mma_v2_kind(a, a, c, precision, 90, shape)
    assert isinstance(reason, str) and why in reason, reason


def test_e5m2_is_the_high_byte_of_an_f16():
    """The upcast's lowering (tt.fp_to_fp f8E5M2 -> f16: the byte shifted into the high half) against the
    interpreter's fp8 table, built from the format's definition, for all 256 bytes (NaN for NaN)."""
    from ttc.runtime.minifloat import decode, encode

    codes = np.arange(256, dtype=np.uint16)
    via_f16 = (codes << 8).astype(np.uint16).view(np.float16).astype(np.float32)
    table = decode(codes, "e5m2")
    assert np.array_equal(via_f16, table, equal_nan=True)
    finite = np.isfinite(table)
    assert np.array_equal(encode(table[finite], "e5m2"), codes[finite].astype(np.uint8))
