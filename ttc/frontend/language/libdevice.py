"""`libdevice`: the functions of NVIDIA's libdevice that Triton 3.6 exposes as
`triton.language.extra.libdevice` / `triton.language.extra.cuda.libdevice` (`libdevice.asin(x)`, `pow`, `isnan`,
`fast_dividef`, ...). Each is a `tt.extern_elementwise` call of the `__nv_*` symbol its argument dtypes select;
the predicates (`isnan`, `isinf`, `finitef`, `isfinited`) return int1, converted from libdevice's int32.

`TABLE` maps a function name to {argument dtype names: (symbol, result dtype name)}; it is built from the
naming patterns libdevice follows (`__nv_Xf` for fp32 and `__nv_X` for fp64, rounding-mode families
`_rn/_rz/_rd/_ru`, ...).
"""

from __future__ import annotations

from ttc.frontend import dtypes as T
from ttc.frontend.language.builtin import Builtin
from ttc.frontend.language.external import extern_call
from ttc.frontend.language.namespace import Namespace

F32, F64, I32, U32, I64, U64 = "fp32", "fp64", "int32", "uint32", "int64", "uint64"
ROUNDINGS = ("rn", "rz", "rd", "ru")
TABLE: dict[str, dict[tuple, tuple[str, str]]] = {}


def _add(name: str, *entries):
    TABLE.setdefault(name, {}).update({tuple(args): (sym, ret) for args, sym, ret in entries})


def _float(name: str, n: int = 1, ret32=F32, ret64=F64, f32=None, f64=None):
    """fp32 -> `__nv_<name>f`, fp64 -> `__nv_<name>` (or the symbols given), on `n` arguments."""
    _add(name, ([F32] * n, f32 or f"__nv_{name}f", ret32), ([F64] * n, f64 or f"__nv_{name}", ret64))


for _n in ("floor rsqrt ceil trunc exp2 sqrt rint nearbyint sin cos sinpi cospi tan log2 exp exp10 cosh sinh tanh "
           "atan asin acos log log10 log1p acosh asinh atanh expm1 cbrt rcbrt j0 j1 y0 y1 cyl_bessel_i0 "
           "cyl_bessel_i1 erf erfinv erfc erfcx erfcinv normcdfinv normcdf lgamma tgamma round logb").split():
    _float(_n)
for _n in "copysign nextafter atan2 hypot rhypot fmod remainder fdim".split():
    _float(_n, 2)
for _n, _k in (("norm3d", 3), ("rnorm3d", 3), ("norm4d", 4), ("rnorm4d", 4), ("fma", 3)):
    _float(_n, _k)
_float("llrint", ret32=I64, ret64=I64)
_float("llround", ret32=I64, ret64=I64)
_float("ilogb", ret32=I32, ret64=I32)
for _n in ("signbit", "isnan", "isinf"):
    _float(_n, ret32=I32, ret64=I32, f64=f"__nv_{_n}d")
for _n in ("yn", "jn"):
    _add(_n, ([I32, F32], f"__nv_{_n}f", F32), ([I32, F64], f"__nv_{_n}", F64))
for _n in ("ldexp", "scalbn"):
    _add(_n, ([F32, I32], f"__nv_{_n}f", F32), ([F64, I32], f"__nv_{_n}", F64))
_add("pow", ([F32, I32], "__nv_powif", F32), ([F64, I32], "__nv_powi", F64), ([F32, F32], "__nv_powf", F32),
     ([F64, F64], "__nv_pow", F64))
_add("abs", ([I32], "__nv_abs", I32), ([I64], "__nv_llabs", I64), ([F32], "__nv_fabsf", F32),
     ([F64], "__nv_fabs", F64))

# correctly rounded arithmetic in each rounding mode
for _r in ROUNDINGS:
    _float(f"fma_{_r}", 3, f32=f"__nv_fmaf_{_r}", f64=f"__nv_fma_{_r}")
    for _op, _k in (("div", 2), ("rcp", 1), ("sqrt", 1), ("add", 2), ("mul", 2), ("sub", 2)):
        _float(f"{_op}_{_r}", _k, f32=f"__nv_f{_op}_{_r}", f64=f"__nv_d{_op}_{_r}")

# conversions: name pattern <from>2<to>_<rounding>
_CONVERSIONS = {  # name: (argument, result, roundings)
    "double2float": (F64, F32, ROUNDINGS), "double2int": (F64, I32, ROUNDINGS), "double2uint": (F64, I32, ROUNDINGS),
    "float2int": (F32, I32, ROUNDINGS), "float2uint": (F32, I32, ROUNDINGS), "int2float": (I32, F32, ROUNDINGS),
    "uint2float": (U32, F32, ROUNDINGS), "float2ll": (F32, I64, ROUNDINGS), "float2ull": (F32, I64, ROUNDINGS),
    "double2ll": (F64, I64, ROUNDINGS), "double2ull": (F64, I64, ROUNDINGS), "ll2float": (I64, F32, ROUNDINGS),
    "ull2float": (U64, F32, ROUNDINGS), "ll2double": (I64, F64, ROUNDINGS), "ull2double": (U64, F64, ROUNDINGS),
    "int2double": (I32, F64, ("rn",)), "uint2double": (U32, F64, ("rn",)),
}
for _n, (_a, _ret, _rs) in _CONVERSIONS.items():
    for _r in _rs:
        _add(f"{_n}_{_r}", ([_a], f"__nv_{_n}_{_r}", _ret))
for _n, _a, _ret in (("int_as_float", I32, F32), ("float_as_int", F32, I32), ("uint_as_float", U32, F32),
                     ("float_as_uint", F32, I32), ("longlong_as_double", I64, F64),
                     ("double_as_longlong", F64, I64), ("double2loint", F64, I32), ("double2hiint", F64, I32)):
    _add(_n, ([_a], f"__nv_{_n}", _ret))
_add("hiloint2double", ([I32, I32], "__nv_hiloint2double", F64))

# integer functions
for _n, _ll in (("clz", I32), ("popc", I32), ("ffs", I32), ("brev", I64)):
    _add(_n, ([I32], f"__nv_{_n}", I32), ([I64], f"__nv_{_n}ll", _ll))
_add("byte_perm", ([I32] * 3, "__nv_byte_perm", I32))
_add("mulhi", ([I32, I32], "__nv_mulhi", I32), ([U32, U32], "__nv_umulhi", U32), ([I64, I64], "__nv_mul64hi", I64),
     ([U64, U64], "__nv_umul64hi", U64))
for _n in ("mul24", "hadd", "rhadd"):
    _add(_n, ([I32, I32], f"__nv_{_n}", I32), ([U32, U32], f"__nv_u{_n}", U32))
_add("sad", ([I32, I32, U32], "__nv_sad", I32), ([U32, U32, U32], "__nv_usad", U32))

# one precision only
_add("rcp64h", ([F64], "__nv_rcp64h", F64))
_add("saturatef", ([F32], "__nv_saturatef", F32))
_add("rsqrt_rn", ([F32], "__nv_frsqrt_rn", F32))
_add("finitef", ([F32], "__nv_finitef", I32))
_add("isfinited", ([F64], "__nv_isfinited", I32))
_add("fast_dividef", ([F32, F32], "__nv_fast_fdividef", F32))
_add("fast_powf", ([F32, F32], "__nv_fast_powf", F32))
for _n in ("sinf", "cosf", "log2f", "logf", "expf", "tanf", "exp10f", "log10f"):
    _add(f"fast_{_n}", ([F32], f"__nv_fast_{_n}", F32))

PREDICATES = ("isnan", "isinf", "finitef", "isfinited")  # int32 from libdevice, int1 to the kernel


def _function(name: str) -> Builtin:
    table = TABLE[name]

    def call(g, *args):
        out = extern_call(g, f"libdevice.{name}", "", "", list(args), table, True)
        return g.semantic.cast(out, T.int1) if name in PREDICATES else out

    b = Builtin(call, name)
    return b


FUNCTIONS = {name: _function(name) for name in TABLE}
LIBDEVICE = Namespace("triton.language.extra.libdevice", FUNCTIONS)
