"""The interpreter's PTX evaluator (ttc/runtime/ptx.py), its frem (arith.remf as NVPTX expands it), and the
libdevice table of the frontend checked against Triton 3.6's own (when the oracle's sources are at hand)."""

import ast
import re
import glob
import os

import numpy as np
import pytest

from ttc.frontend.language.libdevice import PREDICATES, TABLE
from ttc.runtime import ptx
from ttc.runtime.ops_arith import remf


def run(asm, constraints, inputs, in_bits, out_bits, pack=1):
    n = len(inputs[0]) // pack if inputs else 1
    ins = [np.asarray(x, dtype=np.int64).view(np.uint64) & np.uint64((1 << w) - 1 if w < 64 else 2**64 - 1)
           for x, w in zip(inputs, in_bits)]
    return [list(map(int, o)) for o in ptx.run(asm, constraints, ins, in_bits, out_bits, pack, n)]


def f32bits(xs):
    return list(np.asarray(xs, dtype=np.float32).view(np.uint32).astype(np.int64))


def as_f32(bits):
    return np.asarray(bits, dtype=np.uint64).astype(np.uint32).view(np.float32)


def s32(bits):
    return [b - (1 << 32) if b >> 31 else b for b in bits]


def test_integer_arithmetic():
    a, b = [7, -3, 2**31 - 1, -2**31], [5, 4, 1, -1]
    assert s32(run("add.s32 $0, $1, $2;", "=r,r,r", [a, b], [32, 32], [32])[0]) == [12, 1, -2**31, 2**31 - 1]
    assert s32(run("sub.s32 $0, $1, $2;", "=r,r,r", [a, b], [32, 32], [32])[0]) == [2, -7, 2**31 - 2, -2**31 + 1]
    assert s32(run("mul.lo.s32 $0, $1, $2;", "=r,r,r", [a, b], [32, 32], [32])[0]) == [35, -12, 2**31 - 1, -2**31]
    assert s32(run("mul.hi.s32 $0, $1, $2;", "=r,r,r", [a, b], [32, 32], [32])[0]) == [0, -1, 0, 0]
    assert run("mul.wide.s32 $0, $1, $2;", "=l,r,r", [[-3, 2**31 - 1], [4, 2]], [32, 32], [64])[0] == \
        [2**64 - 12, 2**32 - 2]
    assert s32(run("mad.lo.s32 $0, $1, $2, 100;", "=r,r,r", [a[:2], b[:2]], [32, 32], [32])[0]) == [135, 88]
    assert s32(run("min.s32 $0, $1, $2;", "=r,r,r", [a, b], [32, 32], [32])[0]) == [5, -3, 1, -2**31]
    assert run("max.u32 $0, $1, $2;", "=r,r,r", [a, b], [32, 32], [32])[0] == [7, 2**32 - 3, 2**31 - 1, 2**32 - 1]
    assert s32(run("abs.s32 $0, $1;", "=r,r", [a[:2]], [32], [32])[0]) == [7, 3]
    assert s32(run("neg.s32 $0, $1;", "=r,r", [a[:2]], [32], [32])[0]) == [-7, 3]


def test_bits_and_shifts():
    x = [0x80000001, 0x0000F0F0]
    assert run("shl.b32 $0, $1, 4;", "=r,r", [x], [32], [32])[0] == [0x10, 0x000F0F00]
    assert run("shr.u32 $0, $1, 4;", "=r,r", [x], [32], [32])[0] == [0x08000000, 0x0F0F]
    assert run("shr.s32 $0, $1, 4;", "=r,r", [x], [32], [32])[0] == [0xF8000000, 0x0F0F]
    assert run("shl.b32 $0, $1, $2;", "=r,r,r", [x, [32, 40]], [32, 32], [32])[0] == [0, 0]  # PTX clamps
    assert run("shr.s32 $0, $1, 99;", "=r,r", [x], [32], [32])[0] == [0xFFFFFFFF, 0]
    assert run("and.b32 $0, $1, 0xFF;\n or.b32 $0, $0, 0x100;\n xor.b32 $0, $0, 1;", "=r,r", [x], [32], [32])[0] == \
        [0x100, 0x1F1]
    assert run("not.b32 $0, $1;", "=r,r", [x], [32], [32])[0] == [0x7FFFFFFE, 0xFFFF0F0F]
    assert run("shl.b64 $0, $1, 40;", "=l,l", [[3]], [64], [64])[0] == [3 << 40]


def test_floats_and_conversions():
    x, y = f32bits([1.5, -2.25, 3.0]), f32bits([0.5, 4.0, np.inf])
    assert list(as_f32(run("add.f32 $0, $1, $2;", "=r,r,r", [x, y], [32, 32], [32])[0])) == [2.0, 1.75, np.inf]
    assert list(as_f32(run("mul.rn.f32 $0, $1, $2;", "=r,r,r", [x, y], [32, 32], [32])[0])) == [0.75, -9.0, np.inf]
    assert list(as_f32(run("fma.rn.f32 $0, $1, $2, 0f3F800000;", "=r,r,r", [x[:2], y[:2]], [32, 32], [32])[0])) == \
        [1.75, -8.0]
    assert list(as_f32(run("max.f32 $0, $1, $2;", "=f,f,f", [x, y], [32, 32], [32])[0])) == [1.5, 4.0, np.inf]
    assert list(as_f32(run("cvt.rn.f32.s32 $0, $1;", "=r,r", [[-7, 2**24 + 1]], [32], [32])[0])) == [-7.0, 2.0**24]
    assert s32(run("cvt.rzi.s32.f32 $0, $1;", "=r,r", [f32bits([-2.75, 1e20, np.nan])], [32], [32])[0]) == \
        [-2, 2**31 - 1, 0]
    assert s32(run("cvt.rni.s32.f32 $0, $1;", "=r,r", [f32bits([2.5, 3.5])], [32], [32])[0]) == [2, 4]
    assert run("cvt.u32.u8 $0, $1;", "=r,r", [[0x1FF]], [32], [32])[0] == [0xFF]
    assert s32(run("cvt.s32.s8 $0, $1;", "=r,r", [[0x80]], [32], [32])[0]) == [-128]
    half = run("cvt.rn.f16.f32 $0, $1;", "=h,r", [f32bits([1.0 / 3])], [32], [16])[0]
    assert np.uint16(half[0]).view(np.float16) == np.float16(1.0 / 3)
    assert list(as_f32(run("cvt.f32.f16 $0, $1;", "=r,h", [half], [16], [32])[0])) == [np.float32(np.float16(1 / 3))]


def test_packed_registers_and_vector_mov():
    # pack = 4 i8 per register: (x & 31) << 3 on each byte, as kernels/inline_asm.py
    x = [200, 31, 32, 255, 1, 2, 3, 4]
    out = run("and.b32 $0, $1, 0x1F1F1F1F;\n\tshl.b32 $0, $0, 3;", "=r,r", [x], [8], [8], pack=4)[0]
    assert out == [((v & 31) << 3) & 0xFF for v in x]
    # Triton's docstring form: a scope with .reg .b8 and a vector mov unpacking the four bytes
    asm = ("{\n.reg .b8 tmp<4>;\nmov.b32 {tmp0, tmp1, tmp2, tmp3}, $8;\ncvt.u32.u8 $0, tmp0;\ncvt.u32.u8 $1, tmp1;\n"
           "cvt.u32.u8 $2, tmp2;\ncvt.u32.u8 $3, tmp3;\n}\ncvt.rn.f32.s32 $4, $0;\ncvt.rn.f32.s32 $5, $1;\n"
           "cvt.rn.f32.s32 $6, $2;\ncvt.rn.f32.s32 $7, $3;\nmax.f32 $4, $4, $9;\nmax.f32 $5, $5, $10;\n"
           "max.f32 $6, $6, $11;\nmax.f32 $7, $7, $12;")
    a, b = [5, 250, 0, 7], [1.0, 300.0, -1.0, 7.5]
    ai, m = run(asm, "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", [a, f32bits(b)], [8, 32], [32, 32], pack=4)
    assert ai == a and list(as_f32(m)) == [5.0, 300.0, 0.0, 7.5]
    # two f16 in one register, packed with mov {lo, hi}
    h = list(np.float16([1.5, -2.0]).view(np.uint16).astype(np.int64))
    both = run(".reg .b16 lo, hi;\nmov.b32 {lo, hi}, $1;\nmov.b32 $0, {hi, lo};", "=r,r", [h], [16], [16], pack=2)[0]
    assert both == [h[1], h[0]]


def test_griddepcontrol_is_a_no_op_and_unknown_forms_are_named():
    assert run("griddepcontrol.wait; // dummy $0", "=r", [], [], [32]) == [[0]]
    run("griddepcontrol.launch_dependents; // dummy $0", "=r", [], [], [32])
    for asm, what in [("lop3.b32 $0, $1, $1, $1, 0xf8;", "`lop3.b32 $0, $1, $1, $1, 0xf8`"),
                      ("@p add.s32 $0, $1, 1;", "`@p add.s32 $0, $1, 1`"),
                      ("mov.u32 $0, %smid;", "`%smid`"), ("add.rz.f32 $0, $1, $1;", "`add.rz.f32 $0, $1, $1` (modifier .rz)"),
                      ("add.s32 $0, $1;", "(3 operands expected)"),
                      ("mul.s32 $0, $1, $1;", "needs .lo, .hi or .wide")]:
        with pytest.raises(ptx.PtxUnsupported, match=re.escape(what)):
            run(asm, "=r,r", [[1]], [32], [32])


def test_remf_is_nvptx_frem():
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(100000).astype(np.float32), rng.standard_normal(100000).astype(np.float32)
    assert np.array_equal(remf(x, y), np.fmod(x, y))  # agrees with fmod but for rare near-integer quotients
    x = np.float32([-0.0, -3.0, 5.0, 7.0, 1.0, 16777217.0])
    y = np.float32([1.0, 1.5, np.inf, -2.0, 0.0, 3.0])
    got = remf(x, y)
    # fma(-trunc(x/y), y, x) gives +0 where fmod keeps the dividend's sign; an infinite divisor gives x
    assert list(np.signbit(got[:2])) == [False, False] and got[2] == 5.0 and got[3] == 1.0 and np.isnan(got[4])
    assert got[5] == np.float32(16777216.0) - np.float32(3.0) * np.trunc(np.float32(16777216.0) / np.float32(3.0))
    assert list(remf(np.array([5.5, -7.25]), np.array([2.0, 2.0]))) == [1.5, -1.25]


def _oracle_libdevice():
    files = glob.glob(os.path.expanduser(
        "~/.cache/ttc-bench/triton-3.6.0/lib/python3*/site-packages/triton/language/extra/cuda/libdevice.py"))
    if not files:
        pytest.skip("Triton 3.6's sources (the oracle) are not installed")
    out = {}
    for f in ast.parse(open(files[0]).read()).body:
        if not isinstance(f, ast.FunctionDef):
            continue
        call = f.body[-1].value
        post = isinstance(call.func, ast.Attribute) and call.func.attr == "to"
        if post:
            call = call.func.value
        table = {tuple(e.args[0].value for e in k.elts): (v.elts[0].value, v.elts[1].args[0].value)
                 for k, v in zip(call.args[3].keys, call.args[3].values)}
        out[f.name] = (table, post)
    return out


def test_libdevice_table_is_tritons():
    theirs = _oracle_libdevice()
    assert set(TABLE) == set(theirs)
    for name, (table, post) in theirs.items():
        assert TABLE[name] == table, name
        assert (name in PREDICATES) == post, name


def test_interpreter_libdevice_conversions_and_integer_functions():
    from xdsl.dialects.builtin import Float32Type, Float64Type, i32, i64

    from ttc.runtime.libdevice import call

    f = np.float32([2.5, -2.5, 3e9, np.nan, -7.75])
    assert list(call("__nv_float2int_rn", [f], i32)) == [2, -2, 2**31 - 1, 0, -8]
    assert list(call("__nv_float2int_rd", [f], i32)) == [2, -3, 2**31 - 1, 0, -8]
    assert list(call("__nv_float2uint_rz", [f], i32)) == [2, 0, -1294967296, 0, 0]  # 3e9 as u32 bits
    assert list(call("__nv_llroundf", [f[:2]], i64)) == [3, -3]
    assert list(call("__nv_float_as_int", [np.float32([1.0])], i32)) == [0x3F800000]
    assert list(call("__nv_int_as_float", [np.int32([0x40490FDB])], Float32Type())) == [np.float32(np.pi)]
    assert list(call("__nv_ilogbf", [np.float32([8.0, 0.75, 0.0, np.inf])], i32)) == [3, -1, -2**31, 2**31 - 1]
    assert list(call("__nv_hiloint2double", [np.int32([0x3FF00000]), np.int32([0])], Float64Type())) == [1.0]
    assert list(call("__nv_double2hiint", [np.float64([1.0])], i32)) == [0x3FF00000]
    a, b = np.int32([2**31 - 1, -5]), np.int32([1, 2])
    assert list(call("__nv_hadd", [a, b], i32)) == [2**30, -2] and list(call("__nv_rhadd", [a, b], i32)) == [2**30, -1]
    assert list(call("__nv_mul24", [np.int32([0x1000001, -3]), np.int32([3, 5])], i32)) == [3, -15]
    assert list(call("__nv_sinpif", [np.float32([0.5, 1.0])], Float32Type())) == [1.0, 0.0]
    assert list(call("__nv_cospif", [np.float32([0.5, 2.0])], Float32Type())) == [0.0, 1.0]
