"""Interpreter handlers for `arith`, `math` and `ub`: elementwise numerics with the IR's exact semantics.

Integers wrap at their width; signed and unsigned division, remainder, shifts and comparisons follow LLVM
(division truncates, remainder takes the dividend's sign; division by zero, which LLVM leaves undefined, gives
-1 and remainder by zero the dividend, so masked-off lanes never stop a run). Floats are computed in their own
type (f16 in float16, bf16 in float32 rounded back to bf16 after every op); math functions are evaluated in
float32 (float64 for f64) and rounded to the result type. Float-to-int conversion saturates and maps NaN to 0,
as PTX's cvt.rzi does.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType

from ttc.ir.types import elt
from ttc.runtime import dtypes
from ttc.runtime.dtypes import as_signed, as_unsigned, fit, int_width, value_dtype
from ttc.runtime.errors import Unsupported
from ttc.runtime.registry import handler


def _rtype(op):
    return op.results[0].type


def _wrap(x, t):
    """An integer result reduced to the width of `t` (i1 keeps the low bit)."""
    if value_dtype(t) == np.bool_:
        return (np.asarray(x) & 1).astype(np.bool_)
    return np.asarray(x).astype(value_dtype(t))


# ----------------------------------------------------------------------------- constants


def attr_value(attr, t):
    """The value of a constant attribute of type `t`."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        shape = tuple(t.get_shape()) if isinstance(t, TensorType) else ()
        e = elt(t)
        if dtypes.is_bf16(e):
            raw = dtypes.from_storage(np.frombuffer(attr.data.data, dtype=np.uint16), e)
        elif value_dtype(e) == np.bool_:
            raw = np.frombuffer(attr.data.data, dtype=np.uint8) != 0
        else:
            raw = np.frombuffer(attr.data.data, dtype=value_dtype(e))
        return np.broadcast_to(raw, shape) if raw.size == 1 else raw.reshape(shape)
    if isinstance(attr, IntegerAttr):
        v = attr.value.data
        if value_dtype(t) == np.bool_:
            return np.bool_(v != 0)
        w = int_width(t)
        return np.array(v % (1 << w), dtype=np.uint64).astype(value_dtype(t))[()]
    if isinstance(attr, FloatAttr):
        return fit(np.float64(attr.value.data), t)[()]
    raise Unsupported(f"the interpreter does not support constant attribute {attr}")


@handler("arith.constant")
def constant(ip, op, args):
    v = ip.cache.get(op)
    if v is None:
        v = ip.cache[op] = attr_value(op.value, _rtype(op))
    return v


@handler("ub.poison")
def poison(ip, op, args):
    return dtypes.zeros(_rtype(op))


# ----------------------------------------------------------------------------- integers


def _int_binary(fn):
    def run(ip, op, args):
        a, b = args
        if np.asarray(a).dtype == np.bool_:
            return _wrap(fn(as_unsigned(a), as_unsigned(b)), _rtype(op))
        return _wrap(fn(a, b), _rtype(op))

    return run


for _name, _fn in {
    "arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply,
    "arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor,
}.items():
    handler(_name)(_int_binary(_fn))


def _nonzero(b):
    b = np.asarray(b)
    zero = b == 0
    return zero, np.where(zero, 1, b).astype(b.dtype)


def _unsigned_binary(fn):
    def run(ip, op, args):
        a, b = as_unsigned(args[0]), as_unsigned(args[1])
        return _wrap(fn(a, b), _rtype(op))

    return run


def _signed_binary(fn):
    def run(ip, op, args):
        a, b = as_signed(args[0]), as_signed(args[1])
        return _wrap(fn(a, b), _rtype(op))

    return run


def _divsi(a, b):
    zero, b1 = _nonzero(b)
    r = np.fmod(a, b1)
    return np.where(zero, -1, (a - r) // b1)


def _remsi(a, b):
    zero, b1 = _nonzero(b)
    return np.where(zero, a, np.fmod(a, b1))


def _ceildivsi(a, b):
    zero, b1 = _nonzero(b)
    r = np.fmod(a, b1)
    q = (a - r) // b1
    up = (r != 0) & ((a < 0) == (b1 < 0))
    return np.where(zero, -1, q + up.astype(q.dtype))


def _floordivsi(a, b):
    zero, b1 = _nonzero(b)
    return np.where(zero, -1, np.floor_divide(a, b1))


def _divui(a, b):
    zero, b1 = _nonzero(b)
    return np.where(zero, np.array(-1).astype(a.dtype), a // b1)


def _remui(a, b):
    zero, b1 = _nonzero(b)
    return np.where(zero, a, a % b1)


def _ceildivui(a, b):
    zero, b1 = _nonzero(b)
    q = a // b1 + (a % b1 != 0).astype(a.dtype)
    return np.where(zero, np.array(-1).astype(a.dtype), q)


handler("arith.divsi")(_signed_binary(_divsi))
handler("arith.remsi")(_signed_binary(_remsi))
handler("arith.ceildivsi")(_signed_binary(_ceildivsi))
handler("arith.floordivsi")(_signed_binary(_floordivsi))
handler("arith.maxsi")(_signed_binary(np.maximum))
handler("arith.minsi")(_signed_binary(np.minimum))
handler("arith.divui")(_unsigned_binary(_divui))
handler("arith.remui")(_unsigned_binary(_remui))
handler("arith.ceildivui")(_unsigned_binary(_ceildivui))
handler("arith.maxui")(_unsigned_binary(np.maximum))
handler("arith.minui")(_unsigned_binary(np.minimum))


def _shift_amount(b, w, dtype):
    ub = as_unsigned(b)
    return ub >= w, np.minimum(ub, w - 1).astype(dtype)


@handler("arith.shli")
def shli(ip, op, args):
    w = int_width(_rtype(op))
    a = as_unsigned(args[0])
    big, s = _shift_amount(args[1], w, a.dtype)
    return _wrap(np.where(big, 0, np.left_shift(a, s)), _rtype(op))


@handler("arith.shrui")
def shrui(ip, op, args):
    w = int_width(_rtype(op))
    a = as_unsigned(args[0])
    big, s = _shift_amount(args[1], w, a.dtype)
    return _wrap(np.where(big, 0, np.right_shift(a, s)), _rtype(op))


@handler("arith.shrsi")
def shrsi(ip, op, args):
    w = int_width(_rtype(op))
    a = as_signed(args[0])
    _, s = _shift_amount(args[1], w, a.dtype)
    return _wrap(np.right_shift(a, s), _rtype(op))


_CMPI = {
    0: ("raw", np.equal), 1: ("raw", np.not_equal),
    2: ("s", np.less), 3: ("s", np.less_equal), 4: ("s", np.greater), 5: ("s", np.greater_equal),
    6: ("u", np.less), 7: ("u", np.less_equal), 8: ("u", np.greater), 9: ("u", np.greater_equal),
}


@handler("arith.cmpi")
def cmpi(ip, op, args):
    kind, fn = _CMPI[op.predicate.value.data]
    a, b = args
    if kind == "s":
        a, b = as_signed(a), as_signed(b)
    elif kind == "u":
        a, b = as_unsigned(a), as_unsigned(b)
    return np.asarray(fn(a, b))


def _extended(signed: bool):
    def run(ip, op, args):
        t = op.results[0].type
        w = int_width(t)
        conv = as_signed if signed else as_unsigned
        a, b = conv(args[0]), conv(args[1])
        if w <= 32:
            p = a.astype(np.int64 if signed else np.uint64) * b.astype(np.int64 if signed else np.uint64)
            return [_wrap(p, t), _wrap(p >> w, t)]
        lo = np.multiply(as_unsigned(a), as_unsigned(b))
        hi = _umulhi64(as_unsigned(a), as_unsigned(b))
        if signed:  # the signed high half from the unsigned one: subtract b where a < 0 and a where b < 0
            hi = hi - np.where(a < 0, as_unsigned(b), 0).astype(np.uint64) - np.where(b < 0, as_unsigned(a), 0).astype(np.uint64)
        return [_wrap(lo, t), _wrap(hi, t)]

    return run


def _umulhi64(a, b):
    m = np.uint64(0xFFFFFFFF)
    s = np.uint64(32)
    al, ah, bl, bh = a & m, a >> s, b & m, b >> s
    lo_lo, hi_lo, lo_hi, hi_hi = al * bl, ah * bl, al * bh, ah * bh
    cross = (lo_lo >> s) + (hi_lo & m) + lo_hi
    return hi_hi + (hi_lo >> s) + (cross >> s)


def mulhi_unsigned(a, b, w: int):
    """The high `w` bits of the 2w-bit product of two unsigned w-bit values."""
    a, b = as_unsigned(a), as_unsigned(b)
    if w <= 32:
        return (a.astype(np.uint64) * b.astype(np.uint64)) >> np.uint64(w)
    return _umulhi64(a.astype(np.uint64), b.astype(np.uint64))


handler("arith.mulsi_extended")(_extended(True))
handler("arith.mului_extended")(_extended(False))


@handler("arith.addui_extended")
def addui_extended(ip, op, args):
    a, b = as_unsigned(args[0]), as_unsigned(args[1])
    s = a + b
    return [_wrap(s, op.results[0].type), np.asarray(s < a)]


# ----------------------------------------------------------------------------- floats


def remf(x, y):
    """`frem` as LLVM's NVPTX back end expands it, which is what the GPU computes (C's fmod for most inputs, but
    not all): q = x / y rounded, r = fma(-trunc(q), y, x), and x itself when y is infinite. f16/bf16 are computed
    in f32; f32 in f64, where the product is exact (a quotient above 2^24 may round once more than the GPU's fma);
    f64 exactly, element by element."""
    with np.errstate(all="ignore"):
        return _remf(np.asarray(x), np.asarray(y))


def _remf(x, y):
    if x.dtype == np.float64:
        from fractions import Fraction

        q = np.trunc(x / y)
        flat = [float(Fraction(float(a)) - Fraction(float(t)) * Fraction(float(b)))
                if np.isfinite([a, b, t]).all() else a - t * b
                for a, b, t in zip(np.ravel(x), np.ravel(np.broadcast_to(y, x.shape)), np.ravel(q))]
        r = np.asarray(flat, dtype=np.float64).reshape(np.broadcast(x, y).shape)
    else:
        x32, y32 = x.astype(np.float32), y.astype(np.float32)
        q = np.trunc(x32 / y32).astype(np.float64)
        r = (x32.astype(np.float64) - q * y32.astype(np.float64)).astype(np.float32)
    return np.where(np.isinf(y), x, r)


def _float_binary(fn):
    def run(ip, op, args):
        return fit(fn(args[0], args[1]), _rtype(op))

    return run


for _name, _fn in {
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply, "arith.divf": np.divide,
    "arith.remf": remf, "arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
    "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
}.items():
    handler(_name)(_float_binary(_fn))


@handler("arith.negf")
def negf(ip, op, args):
    return fit(np.negative(args[0]), _rtype(op))


def _unordered(a, b):
    return np.isnan(a) | np.isnan(b)


_CMPF = {
    0: lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
    1: np.equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal,
    6: lambda a, b: np.not_equal(a, b) & ~_unordered(a, b),
    7: lambda a, b: ~_unordered(a, b),
    8: lambda a, b: np.equal(a, b) | _unordered(a, b),
    9: lambda a, b: ~np.less_equal(a, b), 10: lambda a, b: ~np.less(a, b),
    11: lambda a, b: ~np.greater_equal(a, b), 12: lambda a, b: ~np.greater(a, b),
    13: np.not_equal, 14: _unordered,
    15: lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
}


@handler("arith.cmpf")
def cmpf(ip, op, args):
    return np.asarray(_CMPF[op.predicate.value.data](args[0], args[1]))


@handler("arith.select")
def select(ip, op, args):
    cond, a, b = args
    if not isinstance(a, (np.ndarray, np.generic)):  # block pointers, memdescs: a scalar choice
        return a if bool(cond) else b
    return np.where(cond, a, b).astype(value_dtype(_rtype(op)), copy=False)


# ----------------------------------------------------------------------------- casts


@handler("arith.extsi", "arith.index_cast")
def extsi(ip, op, args):
    return _wrap(as_signed(args[0]).astype(np.int64), _rtype(op))


@handler("arith.extui")
def extui(ip, op, args):
    return _wrap(as_unsigned(args[0]).astype(np.uint64), _rtype(op))


@handler("arith.trunci")
def trunci(ip, op, args):
    return _wrap(args[0], _rtype(op))


@handler("arith.sitofp")
def sitofp(ip, op, args):
    return fit(as_signed(args[0]).astype(np.float64), _rtype(op))


@handler("arith.uitofp")
def uitofp(ip, op, args):
    return fit(as_unsigned(args[0]).astype(np.float64), _rtype(op))


def float_to_int(x, t, signed: bool):
    """Truncate toward zero, saturate to the range of `t` (signed or unsigned), NaN -> 0."""
    x = np.trunc(np.asarray(x, dtype=np.float64))
    w = int_width(t)
    lo, hi = (-(2.0 ** (w - 1)), 2.0 ** (w - 1) - 1) if signed else (0.0, 2.0 ** w - 1)
    x = np.where(np.isnan(x), 0.0, np.clip(x, lo, hi))
    if w == 64:  # float64 has no 2**63 - 1: saturate at the edge explicitly
        if signed:
            return _wrap(np.where(x >= 2.0 ** 63, np.iinfo(np.int64).max, x.astype(np.int64)), t)
        return _wrap(np.where(x >= 2.0 ** 64, -1, np.where(x >= 2.0 ** 63, x - 2.0 ** 64, x).astype(np.int64)), t)
    return _wrap(x.astype(np.int64), t)


@handler("arith.fptosi")
def fptosi(ip, op, args):
    return float_to_int(args[0], _rtype(op), True)


@handler("arith.fptoui")
def fptoui(ip, op, args):
    return float_to_int(args[0], _rtype(op), False)


@handler("arith.extf", "arith.truncf")
def convert_float(ip, op, args):
    return fit(args[0], _rtype(op))


def bitcast(x, src_t, dst_t):
    """Reinterpret the bits of `x` (type `src_t`) as type `dst_t` of the same width."""
    raw = np.asarray(dtypes.to_storage(x, src_t))
    return dtypes.from_storage(raw.view(dtypes.storage_dtype(dst_t)), dst_t)


@handler("arith.bitcast")
def arith_bitcast(ip, op, args):
    return bitcast(args[0], op.operands[0].type, _rtype(op))


# ----------------------------------------------------------------------------- math


def _erf(x):
    return np.frompyfunc(math.erf, 1, 1)(x).astype(np.float64)


def _round_half_away(x):
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


FLOAT_UNARY = {
    "absf": np.abs, "ceil": np.ceil, "floor": np.floor, "trunc": np.trunc, "round": _round_half_away,
    "roundeven": np.rint, "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x), "exp": np.exp, "exp2": np.exp2,
    "expm1": np.expm1, "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin,
    "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "cbrt": np.cbrt, "erf": _erf,
}
FLOAT_BINARY = {"atan2": np.arctan2, "powf": np.power, "copysign": np.copysign}


def compute_dtype(t):
    """The NumPy type math functions of float type `t` are evaluated in."""
    return np.float64 if value_dtype(t) == np.float64 else np.float32


def _math_unary(fn):
    def run(ip, op, args):
        t = _rtype(op)
        return fit(fn(np.asarray(args[0], dtype=compute_dtype(t))), t)

    return run


def _math_binary(fn):
    def run(ip, op, args):
        t = _rtype(op)
        c = compute_dtype(t)
        return fit(fn(np.asarray(args[0], dtype=c), np.asarray(args[1], dtype=c)), t)

    return run


for _name, _fn in FLOAT_UNARY.items():
    handler(f"math.{_name}")(_math_unary(_fn))
for _name, _fn in FLOAT_BINARY.items():
    handler(f"math.{_name}")(_math_binary(_fn))


@handler("math.fma")
def fma(ip, op, args):
    a, b, c = (np.asarray(v, dtype=np.float64) for v in args)
    return fit(a * b + c, _rtype(op))


@handler("math.fpowi")
def fpowi(ip, op, args):
    t = _rtype(op)
    return fit(np.power(np.asarray(args[0], dtype=np.float64), as_signed(args[1]).astype(np.float64)), t)


@handler("math.ipowi")
def ipowi(ip, op, args):
    t = _rtype(op)
    a, b = as_signed(args[0]), as_signed(args[1])
    a64 = a.astype(np.int64)
    pos = np.power(a64, np.maximum(b, 0).astype(np.int64))  # wraps modulo 2**64, then at the width
    neg = np.where(a64 == 1, 1, np.where(a64 == -1, np.where(b % 2 == 0, 1, -1), 0))
    return _wrap(np.where(b < 0, neg, pos), t)


@handler("math.absi")
def absi(ip, op, args):
    return _wrap(np.abs(as_signed(args[0])), _rtype(op))


def bit_length(u, w: int):
    """Number of significant bits of unsigned values of width `w`."""
    u = np.asarray(u).astype(np.uint64)
    n = np.zeros(u.shape, dtype=np.int64)
    s = 32
    while s:
        if s < w:
            high = u >> np.uint64(s)
            m = high != 0
            n = n + np.where(m, s, 0)
            u = np.where(m, high, u)
        s //= 2
    return n + (u != 0)


@handler("math.ctlz")
def ctlz(ip, op, args):
    w = int_width(_rtype(op))
    return _wrap(w - bit_length(as_unsigned(args[0]), w), _rtype(op))


@handler("math.cttz")
def cttz(ip, op, args):
    w = int_width(_rtype(op))
    u = as_unsigned(args[0]).astype(np.uint64)
    low = u & (~u + np.uint64(1))  # the lowest set bit
    return _wrap(np.where(u == 0, w, bit_length(low, 64) - 1), _rtype(op))


@handler("math.ctpop")
def ctpop(ip, op, args):
    return _wrap(np.bitwise_count(as_unsigned(args[0])), _rtype(op))
