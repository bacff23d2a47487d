"""Elementwise math builtins: `tl.math.*` (exp, log, sqrt, abs, fdiv, fma, ...) and `minimum`, `maximum`,
`clamp`, `add`, `sub`, `mul`; with Triton's dtype checks (most transcendental functions take fp32/fp64 only).
"""

from __future__ import annotations

from ttc.frontend import dtypes as T
from ttc.frontend.errors import LanguageError
from ttc.frontend.language.builtin import Builtin
from ttc.frontend.semantics.arithmetic import PROPAGATE_NAN_NONE
from ttc.frontend.values import Tensor, unwrap

_FLOATS = ["fp32", "fp64"]


def _check_dtypes(name: str, allowed: list[str] | None, args):
    if allowed is None:
        return
    for a in args:
        if isinstance(a, Tensor) and a.type.scalar.name not in allowed:
            raise LanguageError(f"{name}: expected dtype {allowed} but got {a.type.scalar.name}")


def _unary(name: str, op: str, allowed=_FLOATS) -> Builtin:
    def fn(g, x):
        _check_dtypes(name, allowed, [x])
        return g.semantic.unary_math(op, g.semantic.to_tensor(x))

    return Builtin(fn, name)


exp = _unary("exp", "math.exp")
exp2 = _unary("exp2", "math.exp2")
log = _unary("log", "math.log")
log2 = _unary("log2", "math.log2")
cos = _unary("cos", "math.cos")
sin = _unary("sin", "math.sin")
sqrt = _unary("sqrt", "math.sqrt")
sqrt_rn = _unary("sqrt_rn", "tt.precise_sqrt", ["fp32"])
rsqrt = _unary("rsqrt", "math.rsqrt")
erf = _unary("erf", "math.erf")
floor = _unary("floor", "math.floor")
ceil = _unary("ceil", "math.ceil")


def _abs(g, x):
    x = g.semantic.to_tensor(x)
    dtype = x.dtype
    if dtype.name == "fp8e4b15":
        mask = g.semantic.full(list(x.shape), 0x7F, T.int8)
        return Tensor(g.builder.value("arith.andi", [x.handle, mask.handle], x.type.to_ir()), x.type)
    if dtype.is_floating():
        return g.semantic.unary_math("math.absf", x)
    if dtype.is_int_signed():
        return g.semantic.unary_math("math.absi", x)
    if dtype.is_int_unsigned():
        return x
    raise LanguageError(f"Unexpected dtype {dtype}")


abs = Builtin(_abs, "abs")


def _umulhi(g, x, y):
    _check_dtypes("umulhi", ["int32", "int64", "uint32", "uint64"], [x, y])
    x, y = g.semantic.binary_operands(g.semantic.to_tensor(x), g.semantic.to_tensor(y))
    return Tensor(g.builder.value("tt.mulhiui", [x.handle, y.handle], x.type.to_ir()), x.type)


umulhi = Builtin(_umulhi, "umulhi")


def _fdiv(g, x, y, ieee_rounding=False):
    return g.semantic.fdiv(g.semantic.to_tensor(x), g.semantic.to_tensor(y), unwrap(ieee_rounding))


fdiv = Builtin(_fdiv, "fdiv")


def _div_rn(g, x, y):
    _check_dtypes("div_rn", ["fp32"], [x, y])
    x, y = g.semantic.binary_operands(g.semantic.to_tensor(x), g.semantic.to_tensor(y))
    return Tensor(g.builder.value("tt.precise_divf", [x.handle, y.handle], x.type.to_ir()), x.type)


div_rn = Builtin(_div_rn, "div_rn")


def _fma(g, x, y, z):
    s = g.semantic
    x, y, z = s.to_tensor(x), s.to_tensor(y), s.to_tensor(z)
    x, y = s.binary_operands(x, y)
    z, x = s.binary_operands(z, x)
    z, y = s.binary_operands(z, y)
    return s.fma(x, y, z)


fma = Builtin(_fma, "fma")


def _bf16_to_f32(g, t: Tensor) -> Tensor:
    return g.semantic.cast(t, T.float32) if t.type.scalar == T.bfloat16 else t


def _minimum(g, x, y, propagate_nan=PROPAGATE_NAN_NONE):
    s = g.semantic
    x, y = _bf16_to_f32(g, s.to_tensor(x)), _bf16_to_f32(g, s.to_tensor(y))
    return s.minimum(x, y, unwrap(propagate_nan))


def _maximum(g, x, y, propagate_nan=PROPAGATE_NAN_NONE):
    s = g.semantic
    x, y = _bf16_to_f32(g, s.to_tensor(x)), _bf16_to_f32(g, s.to_tensor(y))
    return s.maximum(x, y, unwrap(propagate_nan))


def _clamp(g, x, min, max, propagate_nan=PROPAGATE_NAN_NONE):
    s = g.semantic
    x, min, max = s.to_tensor(x), s.to_tensor(min), s.to_tensor(max)
    x, min, max = _bf16_to_f32(g, x), _bf16_to_f32(g, min), _bf16_to_f32(g, max)
    return s.clamp(x, min, max, unwrap(propagate_nan))


minimum = Builtin(_minimum, "minimum")
maximum = Builtin(_maximum, "maximum")
clamp = Builtin(_clamp, "clamp")


def _add(g, x, y, sanitize_overflow=True):
    return g.semantic.add(unwrap(x), unwrap(y), unwrap(sanitize_overflow))


def _sub(g, x, y, sanitize_overflow=True):
    return g.semantic.sub(unwrap(x), unwrap(y), unwrap(sanitize_overflow))


def _mul(g, x, y, sanitize_overflow=True):
    return g.semantic.mul(unwrap(x), unwrap(y), unwrap(sanitize_overflow))


add = Builtin(_add, "add")
sub = Builtin(_sub, "sub")
mul = Builtin(_mul, "mul")

# what `tl.math` holds
MATH_FUNCTIONS = {
    "umulhi": umulhi, "exp": exp, "exp2": exp2, "fma": fma, "log": log, "log2": log2, "cos": cos, "rsqrt": rsqrt,
    "sin": sin, "sqrt": sqrt, "sqrt_rn": sqrt_rn, "abs": abs, "fdiv": fdiv, "div_rn": div_rn, "erf": erf,
    "floor": floor, "ceil": ceil,
}
