"""The microscaling element formats: the interpreter's codec (ttc.runtime.minifloat) against the OCP MX
definitions, and the LLVM lowering's integer decoder (ttc.lowering.minifloat.decode), run on the host with
llvmlite's JIT, against the codec for every code."""

import ctypes

import llvmlite.binding as llvm
import llvmlite.ir as ir
import numpy as np
import pytest

from ttc.lowering import minifloat as lowering
from ttc.runtime import minifloat as codec

WIDTH = {"e4m3": 8, "e5m2": 8, "e2m1": 4}


def test_known_values():
    assert list(codec.decode([0x00, 0x01, 0x08, 0x38, 0x7E, 0xFE], "e4m3")) == [0, 2.0 ** -9, 2.0 ** -6, 1.0, 448.0,
                                                                               -448.0]
    assert np.isnan(codec.decode([0x7F, 0xFF], "e4m3")).all()
    assert list(codec.decode([0x3C, 0x7B, 0x7C, 0x01], "e5m2")) == [1.0, 57344.0, np.inf, 2.0 ** -16]
    assert list(codec.decode(range(8), "e2m1")) == [0, 0.5, 1, 1.5, 2, 3, 4, 6]
    assert list(codec.decode([8, 15], "e2m1")) == [0.0, -6.0]
    assert list(codec.e8m0([127, 0, 130])) == [1.0, 2.0 ** -127, 8.0] and np.isnan(codec.e8m0([255])[0])


@pytest.mark.parametrize("fmt", sorted(WIDTH))
def test_encode_inverts_decode_and_rounds_to_nearest_even(fmt):
    codes = np.arange(1 << WIDTH[fmt])
    values = codec.decode(codes, fmt)
    finite = np.isfinite(values)  # infinities saturate (test_encode_saturates)
    assert (codec.encode(values[finite], fmt) == codes[finite]).all()
    pos = np.sort(np.unique(values[np.isfinite(values) & (values > 0)]))
    mid = (pos[:-1] + pos[1:]) / 2  # ties go to the even code
    got = codec.decode(codec.encode(mid, fmt), fmt)
    lo_even = codec.encode(pos[:-1], fmt) % 2 == 0
    assert (got == np.where(lo_even, pos[:-1], pos[1:])).all()


def test_encode_saturates():
    assert list(codec.encode([500.0, -np.inf, 1e9], "e4m3")) == [0x7E, 0xFE, 0x7E]
    assert list(codec.encode([np.inf, 7.0], "e5m2")) == [0x7B, 0x47] and codec.encode([np.nan], "e4m3")[0] == 0x7F
    assert list(codec.encode([7.0, -100.0], "e2m1")) == [7, 15]


def test_unpack_e2m1_low_nibble_first():
    packed = np.array([[0x21, 0xF7]], dtype=np.uint8)
    assert codec.unpack_e2m1(packed, 1).tolist() == [[0.5, 1.0, 6.0, -6.0]]
    assert codec.unpack_e2m1(packed, 0).tolist() == [[0.5, 6.0], [1.0, -6.0]]


@pytest.fixture(scope="module")
def jit():
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm.create_mcjit_compiler(llvm.parse_assembly(""), llvm.Target.from_default_triple().create_target_machine())


@pytest.mark.parametrize("fmt", sorted(WIDTH))
def test_lowering_decodes_every_code(jit, fmt):
    module = ir.Module(name=fmt)
    fn = ir.Function(module, ir.FunctionType(ir.FloatType(), [ir.IntType(8)]), name=f"decode_{fmt}")
    b = ir.IRBuilder(fn.append_basic_block())
    b.ret(lowering.decode(b, fn.args[0], fmt))
    mod = llvm.parse_assembly(str(module))
    mod.verify()
    jit.add_module(mod)
    jit.finalize_object()
    decode = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_uint8)(jit.get_function_address(f"decode_{fmt}"))
    codes = np.arange(256)  # the bits above the format's width are ignored
    got = np.array([decode(int(c)) for c in codes], dtype=np.float32)
    want = codec.decode(codes & ((1 << WIDTH[fmt]) - 1), fmt)
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.signbit(got)[~np.isnan(want)], np.signbit(want)[~np.isnan(want)])  # -0.0 too


def _host_prmt(module: ir.Module) -> None:
    """A host definition of PTX's `prmt.b32` (default mode) as `@host_prmt`: byte k of the result is byte
    (c's nibble k & 7) of the pair (a, b), or that byte's sign bit replicated when the nibble's bit 3 is set."""
    i32, i64 = ir.IntType(32), ir.IntType(64)
    fn = ir.Function(module, ir.FunctionType(i32, [i32, i32, i32]), name="host_prmt")
    b = ir.IRBuilder(fn.append_basic_block())
    a, hi, c = fn.args
    pair = b.or_(b.zext(a, i64), b.shl(b.zext(hi, i64), ir.Constant(i64, 32)))
    out = ir.Constant(i32, 0)
    for k in range(4):
        nib = b.and_(b.lshr(c, ir.Constant(i32, 4 * k)), ir.Constant(i32, 15))
        byte = b.trunc(b.and_(b.lshr(pair, b.zext(b.shl(b.and_(nib, ir.Constant(i32, 7)), ir.Constant(i32, 3)), i64)),
                              ir.Constant(i64, 0xFF)), i32)
        msb = b.icmp_unsigned("!=", b.and_(nib, ir.Constant(i32, 8)), ir.Constant(i32, 0))
        neg = b.icmp_unsigned("!=", b.and_(byte, ir.Constant(i32, 0x80)), ir.Constant(i32, 0))
        byte = b.select(msb, b.select(neg, ir.Constant(i32, 0xFF), ir.Constant(i32, 0)), byte)
        out = b.or_(out, b.shl(byte, ir.Constant(i32, 8 * k)))
    b.ret(out)


@pytest.mark.parametrize("fmt", ["bf16", "f16"])
@pytest.mark.parametrize("n", [4, 3])
def test_e2m1_words_decode_every_byte(jit, fmt, n):
    """The prmt lookups of `ttg.fp4_to_fp` (`e2m1_words`), with prmt run on the host: 1..4 packed bytes -> 4
    words of two 16-bit values each, against the codec, for every byte in every position (-0.0 included)."""
    i8, i32 = ir.IntType(8), ir.IntType(32)
    module = ir.Module(name=f"e2m1_{fmt}_{n}")
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [i8] * n + [i32.as_pointer()]), name=f"words_{fmt}_{n}")
    b = ir.IRBuilder(fn.append_basic_block())
    for j, w in enumerate(lowering.e2m1_words(b, list(fn.args[:n]), fmt)):
        b.store(w, b.gep(fn.args[n], [ir.Constant(i32, j)]))
    b.ret_void()
    _host_prmt(module)
    text = str(module).replace('@"llvm.nvvm.prmt"', "@host_prmt").replace("@llvm.nvvm.prmt", "@host_prmt")
    text = text.replace("declare i32 @host_prmt(i32 %\".1\", i32 %\".2\", i32 %\".3\")", "")
    mod = llvm.parse_assembly(text)
    mod.verify()
    jit.add_module(mod)
    jit.finalize_object()
    words = ctypes.CFUNCTYPE(None, *[ctypes.c_uint8] * n, ctypes.POINTER(ctypes.c_uint32))(
        jit.get_function_address(f"words_{fmt}_{n}"))
    dtype = np.float16 if fmt == "f16" else np.float32
    for v in range(256):
        bytes_ = [v, v ^ 0x5A, 255 - v, (v * 7 + 3) & 255][:n]
        out = (ctypes.c_uint32 * 4)()
        words(*bytes_, out)
        halves = np.array([(w >> (16 * h)) & 0xFFFF for w in out[:n] for h in (0, 1)], dtype=np.uint32)
        got = halves.astype(np.uint16).view(np.float16) if fmt == "f16" else (halves << 16).view(np.float32)
        want = codec.unpack_e2m1(np.array([bytes_], dtype=np.uint8), 1)[0].astype(dtype)
        assert np.array_equal(got, want), (fmt, bytes_, got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want)), (fmt, bytes_)  # -0.0 (codes 8) too
