"""`tt.extern_elementwise` calls of NVIDIA's libdevice (`__nv_expf`, `__nv_umulhi`, ...) evaluated with NumPy.

Float functions are named `__nv_X` (f64) and `__nv_Xf` (f32); they are evaluated in float64 and rounded to
the result type, which is at least as accurate as libdevice (whose results are within a few ulp). `FUNCTIONS`
maps every supported symbol to (function, how its arguments are read); `supports` is asked before a run.
"""

from __future__ import annotations

import math

import numpy as np

from ttc.runtime import dtypes
from ttc.runtime.errors import Unsupported


def _py(fn):
    """A math-module function over arrays (through Python floats)."""
    vec = np.frompyfunc(fn, 1, 1)

    def run(x):
        return vec(np.asarray(x, dtype=np.float64)).astype(np.float64)

    return run


def _py2(fn):
    vec = np.frompyfunc(fn, 2, 1)

    def run(x, y):
        return vec(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)).astype(np.float64)

    return run


def _lgamma(x):
    try:
        return math.lgamma(x)
    except (ValueError, OverflowError):  # the poles (0 and the negative integers) and overflow
        return math.inf


def _tgamma(x):
    try:
        return math.gamma(x)
    except OverflowError:
        return math.copysign(math.inf, x)
    except ValueError:  # 0 gives a signed infinity, a negative integer NaN, as C's tgamma
        return math.copysign(math.inf, x) if x == 0 else math.nan


def _remainder(x, y):
    try:
        return math.remainder(x, y)
    except ValueError:
        return math.nan


_FLOAT1 = {
    "exp": np.exp, "exp2": np.exp2, "exp10": lambda x: np.power(10.0, x), "expm1": np.expm1, "log": np.log,
    "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "cbrt": np.cbrt, "rcbrt": lambda x: 1.0 / np.cbrt(x), "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "erf": _py(math.erf), "erfc": _py(math.erfc),
    "lgamma": _py(_lgamma), "tgamma": _py(_tgamma), "floor": np.floor, "ceil": np.ceil,
    "trunc": np.trunc, "round": lambda x: np.copysign(np.floor(np.abs(x) + 0.5), x), "rint": np.rint,
    "nearbyint": np.rint, "fabs": np.abs, "saturate": lambda x: np.clip(x, 0.0, 1.0),
}
_FLOAT2 = {
    "pow": np.power, "atan2": np.arctan2, "fmod": np.fmod, "remainder": _py2(_remainder), "hypot": np.hypot,
    "fmin": np.fmin, "fmax": np.fmax, "copysign": np.copysign, "fdim": lambda x, y: np.where(x > y, x - y, 0.0),
}
_PRED = {"isnan": np.isnan, "isinf": np.isinf, "finite": np.isfinite, "isfinite": np.isfinite, "signbit": np.signbit}

FUNCTIONS: dict = {}
for _n, _f in _FLOAT1.items():
    FUNCTIONS[f"__nv_{_n}"] = FUNCTIONS[f"__nv_{_n}f"] = (_f, "float")
for _n, _f in _FLOAT2.items():
    FUNCTIONS[f"__nv_{_n}"] = FUNCTIONS[f"__nv_{_n}f"] = (_f, "float")
FUNCTIONS["__nv_nextafter"] = FUNCTIONS["__nv_nextafterf"] = (np.nextafter, "float")
FUNCTIONS["__nv_fma"] = FUNCTIONS["__nv_fmaf"] = FUNCTIONS["__nv_fmaf_rn"] = FUNCTIONS["__nv_fma_rn"] = (
    lambda a, b, c: a * b + c, "float")
for _n, _f in {"expf": np.exp, "exp10f": lambda x: np.power(10.0, x), "logf": np.log, "log2f": np.log2,
               "log10f": np.log10, "sinf": np.sin, "cosf": np.cos, "tanf": np.tan, "powf": np.power,
               "fdividef": np.divide}.items():
    FUNCTIONS[f"__nv_fast_{_n}"] = (_f, "float")
FUNCTIONS["__nv_fdividef"] = (np.divide, "float")
for _prefix, _suffix in (("f", "_rn"), ("d", "_rn")):
    for _n, _f in {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}.items():
        FUNCTIONS[f"__nv_{_prefix}{_n}{_suffix}"] = (_f, "float")
FUNCTIONS["__nv_fsqrt_rn"] = FUNCTIONS["__nv_dsqrt_rn"] = (np.sqrt, "float")
FUNCTIONS["__nv_frcp_rn"] = FUNCTIONS["__nv_drcp_rn"] = (lambda x: 1.0 / x, "float")
FUNCTIONS["__nv_powi"] = FUNCTIONS["__nv_powif"] = (lambda x, n: np.power(x, n), "float")
FUNCTIONS["__nv_ldexp"] = FUNCTIONS["__nv_ldexpf"] = (lambda x, n: x * np.power(2.0, n), "float")
for _n, _f in _PRED.items():
    for _s in ("f", "d", ""):
        FUNCTIONS[f"__nv_{_n}{_s}"] = (_f, "float")

_INT = {
    "abs": (np.abs, "signed"), "llabs": (np.abs, "signed"),
    "min": (np.minimum, "signed"), "max": (np.maximum, "signed"), "llmin": (np.minimum, "signed"),
    "llmax": (np.maximum, "signed"), "umin": (np.minimum, "unsigned"), "umax": (np.maximum, "unsigned"),
    "ullmin": (np.minimum, "unsigned"), "ullmax": (np.maximum, "unsigned"),
    "popc": (np.bitwise_count, "unsigned"), "popcll": (np.bitwise_count, "unsigned"),
    "sad": (lambda a, b, c: np.abs(a.astype(np.int64) - b.astype(np.int64)) + c, "signed"),
    "usad": (lambda a, b, c: np.abs(a.astype(np.int64) - b.astype(np.int64)) + c, "unsigned"),
}
for _n, (_f, _kind) in _INT.items():
    FUNCTIONS[f"__nv_{_n}"] = (_f, _kind)
for _n in ("clz", "clzll", "ffs", "ffsll", "brev", "brevll", "mulhi", "umulhi", "mul64hi", "umul64hi"):
    FUNCTIONS[f"__nv_{_n}"] = (_n.removesuffix("ll").removeprefix("u").replace("64", ""), "bits")


# conversions and bit casts: kind "raw" gets the arguments as the interpreter holds them
_ROUND = {"rn": np.rint, "rz": np.trunc, "rd": np.floor, "ru": np.ceil}


def _saturated(round_fn, bits: int, signed: bool):
    """Float -> integer as the hardware converts: rounded as told, saturated to the range, NaN -> 0; the bits
    of the integer (an unsigned result lands in libdevice's int32/int64 as its bit pattern)."""
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)

    def run(x):
        r = round_fn(np.asarray(x, dtype=np.float64))
        flat = [0 if v != v else (hi if v >= hi else lo if v <= lo else int(v)) for v in r.ravel()]
        u = np.array([v % (1 << bits) for v in flat], dtype=np.uint64).reshape(r.shape)
        return u.astype(np.uint64 if bits == 64 else np.uint32).view(np.int64 if bits == 64 else np.int32)

    return run


def _round_half_away(x):
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


for _r, _fn in _ROUND.items():
    for _src in ("float", "double"):
        for _dst, _bits, _signed in (("int", 32, True), ("uint", 32, False), ("ll", 64, True), ("ull", 64, False)):
            FUNCTIONS[f"__nv_{_src}2{_dst}_{_r}"] = (_saturated(_fn, _bits, _signed), "raw")
for _s in ("", "f"):
    FUNCTIONS[f"__nv_llrint{_s}"] = (_saturated(np.rint, 64, True), "raw")
    FUNCTIONS[f"__nv_llround{_s}"] = (_saturated(_round_half_away, 64, True), "raw")
for _src in ("int", "uint", "ll", "ull"):  # integer -> float, round to nearest
    FUNCTIONS[f"__nv_{_src}2float_rn"] = FUNCTIONS[f"__nv_{_src}2double_rn"] = (
        lambda x, _u=_src.startswith("u"): dtypes.as_unsigned(x) if _u else np.asarray(x), "raw")
FUNCTIONS["__nv_double2float_rn"] = (lambda x: np.asarray(x, dtype=np.float32), "raw")
for _f, _i, _name in ((np.float32, np.int32, "float_as_int"), (np.float32, np.uint32, "float_as_uint"),
                      (np.float64, np.int64, "double_as_longlong")):
    FUNCTIONS[f"__nv_{_name}"] = (lambda x, _t=_i: np.asarray(x).view(_t).astype(np.int64), "raw")
FUNCTIONS["__nv_int_as_float"] = FUNCTIONS["__nv_uint_as_float"] = (
    lambda x: np.asarray(x).astype(np.int32).view(np.float32), "raw")
FUNCTIONS["__nv_longlong_as_double"] = (lambda x: np.asarray(x).astype(np.int64).view(np.float64), "raw")
FUNCTIONS["__nv_double2hiint"] = (lambda x: (np.asarray(x, np.float64).view(np.int64) >> 32).astype(np.int32), "raw")
FUNCTIONS["__nv_double2loint"] = (
    lambda x: np.asarray(x, np.float64).view(np.uint64).astype(np.uint32).view(np.int32), "raw")
FUNCTIONS["__nv_hiloint2double"] = (
    lambda hi, lo: ((np.asarray(hi).astype(np.int64) << 32) | dtypes.as_unsigned(lo).astype(np.int64)).view(np.float64),
    "raw")


def _ilogb(x):
    x = np.asarray(x, dtype=np.float64)
    e = np.frexp(x)[1].astype(np.int64) - 1
    return np.where(np.isinf(x), 2**31 - 1, np.where((x == 0) | np.isnan(x), -2**31, e)).astype(np.int32)


def _logb(x):
    x = np.asarray(x, dtype=np.float64)
    e = (np.frexp(x)[1] - 1).astype(np.float64)
    return np.where(np.isinf(x), np.inf, np.where(x == 0, -np.inf, np.where(np.isnan(x), x, e)))


for _s in ("", "f"):
    FUNCTIONS[f"__nv_ilogb{_s}"] = (_ilogb, "raw")
    FUNCTIONS[f"__nv_logb{_s}"] = (_logb, "float")
    FUNCTIONS[f"__nv_scalbn{_s}"] = (lambda x, n: x * np.power(2.0, n), "float")
    FUNCTIONS[f"__nv_sinpi{_s}"] = (lambda x: np.where(np.floor(x) == x, np.copysign(0.0, x),
                                                       np.sin(np.pi * np.fmod(x, 2.0))), "float")  # exact zeros
    FUNCTIONS[f"__nv_cospi{_s}"] = (lambda x: np.where(np.floor(x + 0.5) == x + 0.5, 0.0,
                                                       np.cos(np.pi * np.fmod(x, 2.0))), "float")
    FUNCTIONS[f"__nv_rhypot{_s}"] = (lambda x, y: 1.0 / np.hypot(x, y), "float")
    FUNCTIONS[f"__nv_norm3d{_s}"] = (lambda a, b, c: np.sqrt(a * a + b * b + c * c), "float")
    FUNCTIONS[f"__nv_rnorm3d{_s}"] = (lambda a, b, c: 1.0 / np.sqrt(a * a + b * b + c * c), "float")
    FUNCTIONS[f"__nv_norm4d{_s}"] = (lambda a, b, c, d: np.sqrt(a * a + b * b + c * c + d * d), "float")
    FUNCTIONS[f"__nv_rnorm4d{_s}"] = (lambda a, b, c, d: 1.0 / np.sqrt(a * a + b * b + c * c + d * d), "float")
    FUNCTIONS[f"__nv_normcdf{_s}"] = (lambda x: 0.5 * _py(math.erfc)(-x / math.sqrt(2.0)), "float")
FUNCTIONS["__nv_frsqrt_rn"] = (lambda x: 1.0 / np.sqrt(x), "float")
for _n, _u in (("hadd", False), ("uhadd", True), ("rhadd", False), ("urhadd", True)):
    FUNCTIONS[f"__nv_{_n}"] = (lambda a, b, _r=_n.endswith("rhadd"):
                               (a.astype(np.int64) + b.astype(np.int64) + (1 if _r else 0)) >> 1,
                               "unsigned" if _u else "signed")


def _mul24(a, b):
    def low24(v):
        v = v.astype(np.int64) & 0xFFFFFF
        return np.where(v & 0x800000, v - 0x1000000, v)

    return low24(a) * low24(b)


FUNCTIONS["__nv_mul24"] = (_mul24, "signed")
FUNCTIONS["__nv_umul24"] = (lambda a, b: (a.astype(np.int64) & 0xFFFFFF) * (b.astype(np.int64) & 0xFFFFFF), "unsigned")


def supports(symbol: str) -> bool:
    return symbol in FUNCTIONS


def _bits(name: str, symbol: str, args, result_t):
    from ttc.runtime.ops_arith import bit_length, mulhi_unsigned

    x = args[0]
    w = np.asarray(x).dtype.itemsize * 8
    u = dtypes.as_unsigned(x).astype(np.uint64)
    if name == "clz":
        return w - bit_length(u, w)
    if name == "ffs":
        low = u & (~u + np.uint64(1))
        return np.where(u == 0, 0, bit_length(low, 64))
    if name == "brev":
        out = np.zeros_like(u)
        for i in range(w):
            out |= ((u >> np.uint64(i)) & np.uint64(1)) << np.uint64(w - 1 - i)
        return out
    # mulhi / umulhi / mul64hi / umul64hi
    hi = mulhi_unsigned(x, args[1], w)
    if not symbol.startswith("__nv_u"):
        a, b = dtypes.as_signed(x), dtypes.as_signed(args[1])
        hi = hi.astype(np.uint64) - np.where(a < 0, dtypes.as_unsigned(b), 0).astype(np.uint64) \
            - np.where(b < 0, dtypes.as_unsigned(a), 0).astype(np.uint64)
    return hi


def call(symbol: str, args: list, result_t):
    """Evaluate libdevice function `symbol` on `args`, giving a value of type `result_t`."""
    if symbol not in FUNCTIONS:
        raise Unsupported(f"the interpreter does not know the external function '{symbol}'")
    fn, kind = FUNCTIONS[symbol]
    if kind == "bits":
        out = _bits(fn, symbol, args, result_t)
        return np.asarray(out).astype(np.uint64).astype(dtypes.value_dtype(result_t)) if dtypes.value_dtype(result_t) != np.bool_ else np.asarray(out) != 0
    if kind == "raw":
        out = np.asarray(fn(*args))
        if np.issubdtype(out.dtype, np.integer) and dtypes.value_dtype(result_t).kind == "i":
            return out.astype(np.uint64 if out.dtype.kind == "u" else np.int64).astype(dtypes.value_dtype(result_t))
        return dtypes.fit(out, result_t)
    if kind in ("signed", "unsigned"):
        conv = dtypes.as_signed if kind == "signed" else dtypes.as_unsigned
        out = fn(*[conv(a) for a in args])
        return np.asarray(out).astype(dtypes.value_dtype(result_t))
    if symbol in ("__nv_nextafter", "__nv_nextafterf"):  # a step in the argument's own precision
        return dtypes.fit(np.nextafter(args[0], args[1]), result_t)
    values = [np.asarray(a, dtype=np.float64) if np.asarray(a).dtype.kind == "f" else np.asarray(a) for a in args]
    return dtypes.fit(fn(*values), result_t)
