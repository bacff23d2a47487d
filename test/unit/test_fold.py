"""Constant folding arithmetic (`ttc.ir.fold`): integer wrap-around, IEEE rounding per float type, and the folds
LLVM refuses (division by zero, signed overflow, oversized shifts, inexact or out-of-range conversions)."""

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerAttr

from ttc.ir.fold import attr_of, elements_of, fold_in_ir, round_float, to_signed, wrap
from ttc.ir.parser import parse

F16, BF16, F32, F64 = Float16Type(), BFloat16Type(), Float32Type(), Float64Type()


# ----------------------------------------------------------------------------- numbers


def test_wrap_and_signed_view():
    assert wrap(127 + 1, 8) == 128 and to_signed(128, 8) == -128
    assert to_signed(wrap(-1, 32), 32) == -1
    assert to_signed(wrap(2**31 * 3, 32), 32) == -(2**31)
    assert to_signed(1, 1) == -1  # i1 true is all ones


@pytest.mark.parametrize("seed", range(3))
def test_f32_and_f16_rounding_match_numpy(seed):
    rng = random.Random(seed)
    for _ in range(2000):
        x = rng.uniform(-1, 1) * 10.0 ** rng.randint(-50, 40)
        with np.errstate(over="ignore"):
            want32, want16 = float(np.float32(x)), float(np.float16(x))
        # both the fast path (a double) and the exact path (a rational) round like the hardware conversion
        assert round_float(x, F32) == want32 and round_float(Fraction(x), F32) == want32
        assert round_float(x, F16) == want16 and round_float(Fraction(x), F16) == want16


def test_exact_rounding_of_integers_is_single():
    # i64 -> f32 must round once from the exact integer (a detour through double would round twice)
    v = 2**60 + 2**36 + 1  # just above the halfway point between two f32 values
    assert round_float(v, F32) == float(np.float32(np.int64(v)))
    assert round_float(v, F32) != round_float(float(v), F32)
    for v in [2**24 + 1, 2**24 + 3, -(2**53) - 1, 2**63 - 1, 12345678901]:
        assert round_float(v, F32) == float(np.float32(np.int64(v)))
        assert round_float(v, F64) == float(np.float64(np.int64(v)))


def test_bf16_rounding_ties_to_even_and_overflow():
    assert round_float(1 + 2**-8, BF16) == 1.0  # tie, to even
    assert round_float(1 + 3 * 2**-8, BF16) == 1 + 2**-6  # tie, to even (upwards)
    assert round_float(1 + 2**-8 + 2**-20, BF16) == 1 + 2**-7  # above the tie
    assert round_float(3.4e38, BF16) == math.inf
    assert round_float(-1e-45, BF16) == 0.0 and math.copysign(1, round_float(-1e-45, BF16)) < 0


def test_overflow_and_subnormals():
    assert round_float(3.5e38, F32) == math.inf
    assert round_float(-65520.0, F16) == -math.inf
    assert round_float(65519.0, F16) == 65504.0
    assert round_float(1e-45, F32) == struct.unpack("<f", struct.pack("<I", 1))[0]  # smallest subnormal
    assert round_float(2.0**-25, F16) == 0.0  # halfway to the smallest f16 subnormal: to even


def test_dense_values_round_trip():
    from xdsl.dialects.builtin import TensorType, i8

    t = TensorType(i8, [4])
    attr = attr_of(t, [wrap(-1, 8), 0, 127, 128])
    assert elements_of(attr).values == (255, 0, 127, 128)
    splat = attr_of(t, [5])
    assert elements_of(splat).splat and elements_of(splat).values == (5,)


# ----------------------------------------------------------------------------- folds of ops


def _fold(body: str, ret_type: str):
    """Fold the op defining the returned value of `body`."""
    module = parse(f"module {{\n  tt.func @f(%x: i32) -> {ret_type} {{\n{body}\n  }}\n}}\n")
    ret = [op for op in module.walk() if op.name == "tt.return"][0]
    op = ret.operands[0].owner
    folded = fold_in_ir(op)
    return None if folded is None else folded[0]


def _int(text: str, t: str = "i32"):
    r = _fold(text + f"\n    tt.return %r : {t}", t)
    return None if r is None else r.value.data


def _const2(a, b, t):
    return f"    %a = arith.constant {a} : {t}\n    %b = arith.constant {b} : {t}\n"


def test_integer_wraparound_i8_i32():
    assert _int(_const2(127, 1, "i8") + "    %r = arith.addi %a, %b : i8", "i8") == -128
    assert _int(_const2(-128, -1, "i8") + "    %r = arith.muli %a, %b : i8", "i8") == -128
    assert _int(_const2(2147483647, 2, "i32") + "    %r = arith.muli %a, %b : i32") == -2
    assert _int(_const2(-2147483648, 1, "i32") + "    %r = arith.subi %a, %b : i32") == 2147483647


def test_division_semantics_and_refusals():
    assert _int(_const2(-7, 2, "i32") + "    %r = arith.divsi %a, %b : i32") == -3  # toward zero
    assert _int(_const2(-7, 2, "i32") + "    %r = arith.floordivsi %a, %b : i32") == -4
    assert _int(_const2(-7, 2, "i32") + "    %r = arith.ceildivsi %a, %b : i32") == -3
    assert _int(_const2(-7, 2, "i32") + "    %r = arith.remsi %a, %b : i32") == -1  # sign of the dividend
    assert _int(_const2(-1, 2, "i32") + "    %r = arith.divui %a, %b : i32") == 2147483647
    assert _int(_const2(7, 0, "i32") + "    %r = arith.divsi %a, %b : i32") is None
    assert _int(_const2(7, 0, "i32") + "    %r = arith.remui %a, %b : i32") is None
    assert _int(_const2(-2147483648, -1, "i32") + "    %r = arith.divsi %a, %b : i32") is None


def test_shifts_refuse_the_width():
    assert _int(_const2(1, 31, "i32") + "    %r = arith.shli %a, %b : i32") == -2147483648
    assert _int(_const2(-8, 1, "i32") + "    %r = arith.shrsi %a, %b : i32") == -4
    assert _int(_const2(-8, 1, "i32") + "    %r = arith.shrui %a, %b : i32") == 2147483644
    assert _int(_const2(1, 32, "i32") + "    %r = arith.shli %a, %b : i32") is None


def test_casts():
    assert _int("    %a = arith.constant -1 : i8\n    %r = arith.extsi %a : i8 to i32") == -1
    assert _int("    %a = arith.constant -1 : i8\n    %r = arith.extui %a : i8 to i32") == 255
    assert _int("    %a = arith.constant 300 : i32\n    %r = arith.trunci %a : i32 to i8", "i8") == 44
    assert _int("    %a = arith.constant -2.9 : f32\n    %r = arith.fptosi %a : f32 to i32") == -2
    assert _int("    %a = arith.constant 3.0e9 : f32\n    %r = arith.fptosi %a : f32 to i32") is None
    assert _int("    %a = arith.constant 1.0 : f32\n    %r = arith.bitcast %a : f32 to i32") == 0x3F800000


def _float(text: str, t: str = "f32"):
    r = _fold(text + f"\n    tt.return %r : {t}", t)
    return None if r is None else r.value.data


def test_f32_arithmetic_rounds_once():
    r = _float(_const2("0.1", "0.2", "f32") + "    %r = arith.addf %a, %b : f32")
    assert r == float(np.float32(0.1) + np.float32(0.2))
    assert _float(_const2("1.0", "3.0", "f32") + "    %r = arith.divf %a, %b : f32") == float(np.float32(1) / np.float32(3))
    assert _float(_const2("3.0e38", "10.0", "f32") + "    %r = arith.mulf %a, %b : f32") == math.inf
    assert _float(_const2("-1.0", "0.0", "f32") + "    %r = arith.divf %a, %b : f32") == -math.inf
    assert math.isnan(_float(_const2("0.0", "0.0", "f32") + "    %r = arith.divf %a, %b : f32"))


def test_float_min_max_and_signed_zero():
    nan = "0x7FC00000"
    assert math.isnan(_float(_const2(nan, "1.0", "f32") + "    %r = arith.maximumf %a, %b : f32"))
    assert _float(_const2(nan, "1.0", "f32") + "    %r = arith.maxnumf %a, %b : f32") == 1.0
    z = _float(_const2("-0.0", "0.0", "f32") + "    %r = arith.maximumf %a, %b : f32")
    assert z == 0 and math.copysign(1, z) > 0
    z = _float(_const2("-0.0", "0.0", "f32") + "    %r = arith.minimumf %a, %b : f32")
    assert math.copysign(1, z) < 0


def test_float_conversions():
    assert _float("    %a = arith.constant 16777217 : i32\n    %r = arith.sitofp %a : i32 to f32") == 16777216.0
    assert _float("    %a = arith.constant -1 : i32\n    %r = arith.uitofp %a : i32 to f32") == 4294967296.0
    # truncf folds only when exact
    assert _float("    %a = arith.constant 0.5 : f32\n    %r = arith.truncf %a : f32 to f16", "f16") == 0.5
    assert _float("    %a = arith.constant 0.1 : f32\n    %r = arith.truncf %a : f32 to f16", "f16") is None


def test_compare_folds():
    cmp = _fold(_const2("0x7FC00000", "1.0", "f32") + "    %r = arith.cmpf une, %a, %b : f32\n    tt.return %r : i1", "i1")
    assert isinstance(cmp, IntegerAttr) and cmp.value.data != 0
    cmp = _fold(_const2("0x7FC00000", "1.0", "f32") + "    %r = arith.cmpf oeq, %a, %b : f32\n    tt.return %r : i1", "i1")
    assert cmp.value.data == 0
    cmp = _fold(_const2(-1, 1, "i32") + "    %r = arith.cmpi ult, %a, %b : i32\n    tt.return %r : i1", "i1")
    assert cmp.value.data == 0  # -1 is the largest unsigned value
    cmp = _fold(_const2(-1, 1, "i32") + "    %r = arith.cmpi slt, %a, %b : i32\n    tt.return %r : i1", "i1")
    assert cmp.value.data != 0


def test_splat_tensors_fold_elementwise():
    body = ("    %a = arith.constant dense<100> : tensor<128xi8>\n    %b = arith.constant dense<100> : tensor<128xi8>\n"
            "    %r = arith.addi %a, %b : tensor<128xi8>\n    tt.return %r : tensor<128xi8>")
    r = _fold(body, "tensor<128xi8>")
    assert str(r) == "dense<-56> : tensor<128xi8>"
    body = ("    %a = arith.constant dense<[1, 2]> : tensor<2xi32>\n    %b = arith.constant dense<3> : tensor<2xi32>\n"
            "    %r = arith.muli %a, %b : tensor<2xi32>\n    tt.return %r : tensor<2xi32>")
    assert elements_of(_fold(body, "tensor<2xi32>")).values == (3, 6)


def test_identities_return_existing_values():
    module = parse("module {\n  tt.func @f(%x: i32) -> i32 {\n    %c0 = arith.constant 0 : i32\n"
                   "    %r = arith.addi %x, %c0 : i32\n    tt.return %r : i32\n  }\n}\n")
    add = [op for op in module.walk() if op.name == "arith.addi"][0]
    assert fold_in_ir(add)[0] is add.operands[0]


def test_ops_without_a_folder_read_no_constants():
    """The greedy driver asks `fold_in_ir` about every op it pops; for ops that have no folder (a load, a
    return) it answers at once, without looking up its operands' constants."""

    module = parse("module {\n  tt.func @f(%p: !tt.ptr<i32>) -> i32 {\n    %c1 = arith.constant 1 : i32\n"
                   "    %v = tt.load %p : !tt.ptr<i32>\n    %s = arith.addi %v, %c1 : i32\n"
                   "    tt.return %s : i32\n  }\n}\n")
    ops = {op.name: op for op in module.walk()}
    asked = []

    def spy(op):  # the op's operand tuple (which `op.operands` reads too), recording each read of it
        class Spy(type(op._operands)):
            def __iter__(self):
                asked.append(op.name)
                return super().__iter__()

            def __getitem__(self, i):
                asked.append(op.name)
                return super().__getitem__(i)

            def __len__(self):
                asked.append(op.name)
                return super().__len__()

        op._operands = Spy(op._operands)

    for op in ops.values():
        spy(op)
    assert fold_in_ir(ops["tt.load"]) is None and fold_in_ir(ops["tt.return"]) is None and not asked
    assert fold_in_ir(ops["arith.addi"]) is None and asked and set(asked) == {"arith.addi"}
    assert elements_of(None) is None
