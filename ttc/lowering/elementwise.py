"""Elementwise ops: arith, math and Triton's own (`tt.clampf`, `tt.fp_to_fp`, ...), applied register by register.

Choices follow Triton's NVIDIA lowering: `math.exp` on f32 is `ex2.approx.f32(x * log2(e))`, `math.exp2` is
`ex2.approx.ftz.f32` (libdevice's `__nv_exp2f` under Triton's flush-to-zero reflect), f32 `arith.divf` is
`div.full.f32`, f32 `math.sqrt` is `sqrt.approx.ftz.f32` (`__nv_sqrtf` under the same reflect; `tt.precise_sqrt`
and f64 are the IEEE `sqrt.rn`); the other transcendental functions call libdevice
(`__nv_erff`, ...), which is linked in afterwards. Half-precision inputs to those are computed in f32.
`fadd`/`fsub`/`fmul` carry LLVM's `contract` flag: Triton compiles with
FP fusion on, so a multiply feeding an add becomes one `fma`.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Operation

from ttc.ir.fold import splat_element
from ttc.ir.layout_utils import target_capability
from ttc.ir.std import CMPF, CMPI
from ttc.ir.tt import ROUNDING
from ttc.lowering import control_flow, indexing, libdevice, minifloat, nvvm
from ttc.lowering.context import map_elementwise
from ttc.lowering.registry import lowering
from ttc.lowering.types import BFloatType, f32, i1, i32, is_float_type

CONTRACT = ("contract",)


def _fname(t: ir.Type) -> str:
    return {ir.HalfType: "f16", BFloatType: "bf16", ir.FloatType: "f32", ir.DoubleType: "f64"}[type(t)]


def intrinsic(ctx, name: str, args: list[ir.Value], ret: ir.Type | None = None) -> ir.Value:
    return nvvm.call(ctx.b, name, ret or args[0].type, args)


def _in_f32(ctx, x: ir.Value, fn) -> ir.Value:
    """Compute `fn` in f32 for half-precision `x` (and return the result in `x`'s type)."""
    if isinstance(x.type, (ir.HalfType, BFloatType)):
        return ctx.b.fptrunc(fn(ctx.b.fpext(x, f32)), x.type)
    return fn(x)


def libdevice_call(ctx, base: str, args: list[ir.Value]) -> ir.Value:
    """Call libdevice's `__nv_<base>f` (f32) or `__nv_<base>` (f64); half precision goes through f32."""
    t = args[0].type
    if isinstance(t, (ir.HalfType, BFloatType)):
        wide = [ctx.b.fpext(a, f32) for a in args]
        return ctx.b.fptrunc(libdevice_call(ctx, base, wide), t)
    name = f"__nv_{base}f" if isinstance(t, ir.FloatType) else f"__nv_{base}"
    _use_libdevice(ctx, name)
    return nvvm.call(ctx.b, name, t, args)


def _use_libdevice(ctx, name: str) -> None:
    """`name` is to be linked from libdevice; the kernel's first such call starts parsing the library
    (`libdevice.prefetch`)."""
    if not ctx.libdevice:
        libdevice.prefetch()
    ctx.libdevice.add(name)


# ---------------------------------------------------------------------------- constants


def _int_const(t: ir.IntType, v: int) -> ir.Constant:
    v &= (1 << t.width) - 1
    if t.width > 1 and v >> (t.width - 1):
        v -= 1 << t.width
    return ir.Constant(t, v)


def constant(t: ir.Type, v) -> ir.Constant:
    if isinstance(t, ir.IntType):
        return _int_const(t, int(v))
    return ir.Constant(t, float(v))


@lowering("arith.constant")
def _constant(ctx, op):
    value, res = op.value, op.result
    t = ctx.type_of(res.type, op)
    if isinstance(value, (IntegerAttr, FloatAttr)):
        ctx.set(res, constant(t, value.value.data))
        return
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise ctx.error(op, f"constant {value} is not supported")
    ll = ctx.layout(res.type, op)
    one = splat_element(value)  # a splat by its bytes: one element decoded, not the whole tensor
    if one is not None:
        ctx.set(res, [constant(t, one)] * ll.num_regs)
        return
    values = value.get_values()
    first = values[0]
    if all(v == first or (v != v and first != first) for v in values):  # a splat (NaN != NaN: a NaN splat too)
        ctx.set(res, [constant(t, values[0])] * ll.num_regs)
        return
    # a non-uniform tensor constant: a table in global memory, indexed by each register's element
    table_t = ir.ArrayType(t, len(values))
    g = ir.GlobalVariable(ctx.module, table_t, ctx.module.get_unique_name("cst"), addrspace=1)
    g.global_constant = True
    g.linkage = "private"
    g.initializer = ir.Constant(table_t, [constant(t, v) for v in values])
    shape = list(res.type.get_shape())
    regs = []
    for coords in ctx.coords(ll):
        idx = indexing.linearize(ctx.b, coords, shape)
        ptr = ctx.b.gep(g, [ir.Constant(i32, 0), idx], source_etype=table_t)
        regs.append(ctx.b.load(ptr, typ=t))
    ctx.set(res, regs)


# ---------------------------------------------------------------------------- arith


def _binary(builder_method, flags=None):
    def lower(ctx, op):
        fn = getattr(ctx.b, builder_method)
        if flags:
            map_elementwise(ctx, op, lambda a, b: fn(a, b, flags=flags))
        else:
            map_elementwise(ctx, op, lambda a, b: fn(a, b))

    return lower


for _name, _method in {
    "arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul", "arith.divsi": "sdiv", "arith.divui": "udiv",
    "arith.remsi": "srem", "arith.remui": "urem", "arith.andi": "and_", "arith.ori": "or_", "arith.xori": "xor",
    "arith.shli": "shl", "arith.shrsi": "ashr", "arith.shrui": "lshr", "arith.remf": "frem",
}.items():
    lowering(_name)(_binary(_method))
for _name, _method in {"arith.addf": "fadd", "arith.subf": "fsub", "arith.mulf": "fmul"}.items():
    lowering(_name)(_binary(_method, CONTRACT))


@lowering("arith.divf")
def _divf(ctx, op):
    def div(a, b):
        if isinstance(a.type, ir.FloatType):
            return nvvm.call(ctx.b, "llvm.nvvm.div.full", f32, [a, b])
        return ctx.b.fdiv(a, b)

    map_elementwise(ctx, op, div)


@lowering("tt.precise_divf")
def _precise_divf(ctx, op):
    map_elementwise(ctx, op, lambda a, b: ctx.b.fdiv(a, b))


def _llvm_intrinsic(base: str):
    def lower(ctx, op):
        map_elementwise(ctx, op, lambda *xs: intrinsic(ctx, f"llvm.{base}.{_fname(xs[0].type)}", list(xs)))

    return lower


for _name, _base in {
    "arith.maxnumf": "maxnum", "arith.minnumf": "minnum", "arith.maximumf": "maximum", "arith.minimumf": "minimum",
    "math.absf": "fabs", "math.ceil": "ceil", "math.floor": "floor", "math.trunc": "trunc", "math.round": "round",
    "math.roundeven": "roundeven", "math.copysign": "copysign", "math.fma": "fma",
}.items():
    lowering(_name)(_llvm_intrinsic(_base))


def _int_intrinsic(base: str, extra=()):
    def lower(ctx, op):
        def f(*xs):
            args = list(xs) + [ir.Constant(i1, e) for e in extra]
            return nvvm.call(ctx.b, f"llvm.{base}.i{xs[0].type.width}", xs[0].type, args)

        map_elementwise(ctx, op, f)

    return lower


for _name, (_base, _extra) in {
    "arith.maxsi": ("smax", ()), "arith.minsi": ("smin", ()), "arith.maxui": ("umax", ()), "arith.minui": ("umin", ()),
    "math.absi": ("abs", (0,)), "math.ctlz": ("ctlz", (0,)), "math.cttz": ("cttz", (0,)), "math.ctpop": ("ctpop", ()),
}.items():
    lowering(_name)(_int_intrinsic(_base, _extra))


@lowering("arith.negf")
def _negf(ctx, op):
    map_elementwise(ctx, op, lambda a: ctx.b.fneg(a))


@lowering("arith.ceildivsi", "arith.ceildivui", "arith.floordivsi")
def _rounded_div(ctx, op):
    b = ctx.b

    def f(x, y):
        zero = ir.Constant(x.type, 0)
        if op.name == "arith.ceildivui":
            q, r = b.udiv(x, y), b.urem(x, y)
            return b.add(q, b.zext(b.icmp_unsigned("!=", r, zero), x.type))
        q, r = b.sdiv(x, y), b.srem(x, y)
        nonzero = b.icmp_signed("!=", r, zero)
        same_sign = b.icmp_signed("==", b.icmp_signed("<", r, zero), b.icmp_signed("<", y, zero))
        if op.name == "arith.ceildivsi":
            return b.add(q, b.zext(b.and_(nonzero, same_sign), x.type))
        return b.sub(q, b.zext(b.and_(nonzero, b.not_(same_sign)), x.type))

    map_elementwise(ctx, op, f)


_ICMP = {"eq": ("==", True), "ne": ("!=", True), "slt": ("<", True), "sle": ("<=", True), "sgt": (">", True),
         "sge": (">=", True), "ult": ("<", False), "ule": ("<=", False), "ugt": (">", False), "uge": (">=", False)}
_FCMP = {"oeq": "==", "ogt": ">", "oge": ">=", "olt": "<", "ole": "<=", "one": "!=", "ord": "ord",
         "ueq": "==", "ugt": ">", "uge": ">=", "ult": "<", "ule": "<=", "une": "!=", "uno": "uno"}
_CMPI_NAMES = {v: k for k, v in CMPI.items()}
_CMPF_NAMES = {v: k for k, v in CMPF.items()}


@lowering("arith.cmpi")
def _cmpi(ctx, op):
    pred, signed = _ICMP[_CMPI_NAMES[op.predicate.value.data]]
    cmp = ctx.b.icmp_signed if signed else ctx.b.icmp_unsigned
    map_elementwise(ctx, op, lambda a, c: cmp(pred, a, c))


@lowering("arith.cmpf")
def _cmpf(ctx, op):
    name = _CMPF_NAMES[op.predicate.value.data]
    if name in ("false", "true"):
        map_elementwise(ctx, op, lambda a, c: ir.Constant(i1, int(name == "true")))
        return
    cmp = ctx.b.fcmp_ordered if name.startswith("o") else ctx.b.fcmp_unordered
    map_elementwise(ctx, op, lambda a, c: cmp(_FCMP[name], a, c))


@lowering("arith.select")
def _select(ctx, op):
    if control_flow.defer_select(ctx, op):  # the scf.if branching on the condition defines it
        return
    map_elementwise(ctx, op, lambda c, x, y: ctx.b.select(c, x, y))


# ---------------------------------------------------------------------------- casts


def _cast(ctx, op, kind: str):
    t = ctx.type_of(op.results[0].type, op)
    b = ctx.b

    def f(x):
        if kind == "int_resize_signed":
            return x if x.type.width == t.width else (b.sext(x, t) if x.type.width < t.width else b.trunc(x, t))
        if kind == "int_resize_unsigned":
            return x if x.type.width == t.width else (b.zext(x, t) if x.type.width < t.width else b.trunc(x, t))
        if kind == "bitcast":
            if isinstance(x.type, ir.PointerType) and isinstance(t, ir.PointerType):
                return x
            if isinstance(t, ir.PointerType):
                return b.inttoptr(x, t)
            if isinstance(x.type, ir.PointerType):
                return b.ptrtoint(x, t)
            return b.bitcast(x, t)
        return getattr(b, kind)(x, t)

    if kind == "fptrunc" and _fptrunc_pairs(ctx, op, t):
        return
    map_elementwise(ctx, op, f)


_PAIRED_TRUNC_SOURCES = ("scf.for", "scf.while", "tt.dot", "ttng.warp_group_dot", "ttng.warp_group_dot_wait")


def _fptrunc_pairs(ctx, op, t) -> bool:
    """f32 -> f16/bf16 of a tensor that a loop or a dot gives (a matmul's accumulator, a block argument), two
    registers at a time as one `fptrunc <2 x float>` (cvt.rn.f16x2.f32, as Triton's): the pair stays one
    operation where LLVM moves the truncation into the loop's exit block, past the join's phi (scalar
    truncations there are not paired again). Elsewhere the scalar form lets LLVM do arithmetic feeding it in 16
    bits (fptrunc(fadd(fpext a, fpext b)) -> fadd half, also through a branch's phi), which SLP then pairs.
    From sm_90 the scalar form everywhere: the epilogue's layout exchange stores with stmatrix, whose words
    pair other registers (a row's columns c and c + 8), and LLVM pairs the truncations as those words need
    (in the loop's exit block too)."""
    owner = op.operands[0].owner
    if (target_capability(op) or 90) >= 90 or isinstance(owner, Operation) and owner.name not in _PAIRED_TRUNC_SOURCES:
        return False
    src = ctx.get(op.operands[0])
    if not isinstance(src, list) or len(src) < 2 or len(src) % 2 or not isinstance(src[0].type, ir.FloatType) \
            or not isinstance(t, (ir.HalfType, BFloatType)):
        return False
    b = ctx.b
    out = []
    for i in range(0, len(src), 2):
        pair = b.insert_element(b.insert_element(ir.Constant(ir.VectorType(f32, 2), ir.Undefined), src[i],
                                                 ir.Constant(i32, 0)), src[i + 1], ir.Constant(i32, 1))
        v = b.fptrunc(pair, ir.VectorType(t, 2))
        out += [b.extract_element(v, ir.Constant(i32, 0)), b.extract_element(v, ir.Constant(i32, 1))]
    ctx.set(op.results[0], out)
    return True


for _name, _kind in {
    "arith.extsi": "sext", "arith.extui": "zext", "arith.trunci": "trunc", "arith.extf": "fpext",
    "arith.truncf": "fptrunc", "arith.sitofp": "sitofp", "arith.uitofp": "uitofp", "arith.fptosi": "fptosi",
    "arith.fptoui": "fptoui", "arith.bitcast": "bitcast", "arith.index_cast": "int_resize_signed",
    "arith.index_castui": "int_resize_unsigned", "tt.bitcast": "bitcast", "tt.int_to_ptr": "inttoptr",
    "tt.ptr_to_int": "ptrtoint",
}.items():
    lowering(_name)(lambda ctx, op, _k=_kind: _cast(ctx, op, _k))


@lowering("tt.fp_to_fp")
def _fp_to_fp(ctx, op):
    t = ctx.type_of(op.result.type, op)
    if fmt := minifloat.fp8_format(op.src.type):
        return minifloat.fp8_to_float(ctx, op, fmt, t)
    if fmt := minifloat.fp8_format(op.result.type):
        rounding = "rtne" if op.rounding is None else next(k for k, v in ROUNDING.items() if v == op.rounding.value.data)
        return minifloat.float_to_fp8(ctx, op, fmt, rounding)
    src = ctx.type_of(op.src.type, op)
    if not (is_float_type(t) and is_float_type(src)):
        raise ctx.error(op, "tt.fp_to_fp is supported between f16, bf16, f32 and f64, and from and to fp8 (e4m3, e5m2)")
    rtz = op.rounding is not None and op.rounding.value.data == ROUNDING["rtz"]
    b = ctx.b

    def f(x):
        if t == x.type:
            return x
        width = {ir.HalfType: 16, BFloatType: 16, ir.FloatType: 32, ir.DoubleType: 64}
        if width[type(t)] > width[type(x.type)]:
            return b.fpext(x, t)
        if width[type(t)] == width[type(x.type)]:  # f16 <-> bf16: through f32
            x = b.fpext(x, f32)
        if not rtz:
            return b.fptrunc(x, t)
        if isinstance(x.type, ir.DoubleType) and not isinstance(t, ir.FloatType):
            x = b.fptrunc(x, f32)  # f64 -> f32 -> 16 bits, both towards zero below
        dst = {ir.HalfType: "f16", BFloatType: "bf16", ir.FloatType: "f32"}[type(t)]
        srcn = {ir.FloatType: "f32", ir.DoubleType: "f64"}[type(x.type)]
        reg = "h" if dst != "f32" else "r"
        res = nvvm.asm(b, f"cvt.rz.{dst}.{srcn} $0, $1;", f"={reg},{'d' if srcn == 'f64' else 'r'}",
                       ir.IntType(16 if reg == "h" else 32), [x if srcn == "f64" else b.bitcast(x, i32)])
        return b.bitcast(res, t)

    map_elementwise(ctx, op, f)


# ---------------------------------------------------------------------------- math

LOG2E = 1.4426950408889634


@lowering("math.exp")
def _exp(ctx, op):
    def f(x):
        if isinstance(x.type, ir.DoubleType):
            return libdevice_call(ctx, "exp", [x])
        return _in_f32(ctx, x, lambda v: nvvm.call(ctx.b, "llvm.nvvm.ex2.approx.f", f32,
                                                    [ctx.b.fmul(v, ir.Constant(f32, LOG2E))]))

    map_elementwise(ctx, op, f)


@lowering("math.exp2")
def _exp2(ctx, op):
    def f(x):
        if isinstance(x.type, ir.DoubleType):
            return libdevice_call(ctx, "exp2", [x])
        # Triton calls libdevice's __nv_exp2f, which is the flush-to-zero form under nvvm-reflect-ftz = 1
        return _in_f32(ctx, x, lambda v: nvvm.call(ctx.b, "llvm.nvvm.ex2.approx.ftz.f", f32, [v]))

    map_elementwise(ctx, op, f)


@lowering("tt.precise_sqrt")
def _precise_sqrt(ctx, op):
    map_elementwise(ctx, op, lambda x: _in_f32(ctx, x, lambda v: intrinsic(ctx, f"llvm.sqrt.{_fname(v.type)}", [v])))


@lowering("math.sqrt")
def _sqrt(ctx, op):
    def f(x):
        if isinstance(x.type, ir.DoubleType):
            return intrinsic(ctx, "llvm.sqrt.f64", [x])
        # Triton calls libdevice's __nv_sqrtf: under its reflect (FTZ 1, PREC_SQRT 0) the approximate, flushing
        # sqrt.approx.ftz.f32, one MUFU.RSQ + fixup instead of sqrt.rn's Newton steps and subroutine slow path
        return _in_f32(ctx, x, lambda v: nvvm.call(ctx.b, "llvm.nvvm.sqrt.approx.ftz.f", f32, [v]))

    map_elementwise(ctx, op, f)


@lowering("math.rsqrt")
def _rsqrt(ctx, op):
    def f(x):
        if isinstance(x.type, ir.DoubleType):
            return libdevice_call(ctx, "rsqrt", [x])
        return _in_f32(ctx, x, lambda v: nvvm.call(ctx.b, "llvm.nvvm.rsqrt.approx.f", f32, [v]))

    map_elementwise(ctx, op, f)


LIBDEVICE = {
    "math.log": "log", "math.log2": "log2", "math.log10": "log10", "math.log1p": "log1p", "math.expm1": "expm1",
    "math.sin": "sin", "math.cos": "cos", "math.tan": "tan", "math.asin": "asin", "math.acos": "acos",
    "math.atan": "atan", "math.atan2": "atan2", "math.sinh": "sinh", "math.cosh": "cosh", "math.tanh": "tanh",
    "math.asinh": "asinh", "math.acosh": "acosh", "math.atanh": "atanh", "math.erf": "erf", "math.cbrt": "cbrt",
    "math.powf": "pow",
}
for _name, _base in LIBDEVICE.items():
    lowering(_name)(lambda ctx, op, _b=_base: map_elementwise(ctx, op, lambda *xs: libdevice_call(ctx, _b, list(xs))))


# ---------------------------------------------------------------------------- Triton's elementwise ops


@lowering("tt.clampf")
def _clampf(ctx, op):
    nan = op.propagateNan.value.data != 0
    lo, hi = ("maximum", "minimum") if nan else ("maxnum", "minnum")

    def f(x, mn, mx):
        t = _fname(x.type)
        return intrinsic(ctx, f"llvm.{hi}.{t}", [intrinsic(ctx, f"llvm.{lo}.{t}", [x, mn]), mx])

    map_elementwise(ctx, op, f)


@lowering("tt.mulhiui")
def _mulhiui(ctx, op):
    def f(x, y):
        name = "llvm.nvvm.mulhi.ui" if x.type.width == 32 else "llvm.nvvm.mulhi.ull"
        return nvvm.call(ctx.b, name, x.type, [x, y])

    map_elementwise(ctx, op, f)


def _libdevice_extern(op) -> bool:
    return op.libname.data == "libdevice" or not op.libpath.data


def calls_libdevice(op) -> bool:
    """Whether `op`'s lowering calls libdevice whatever its types (what `translate` starts parsing the library
    for before it lowers anything; other calls start it when they are made)."""
    return op.name in LIBDEVICE or (op.name == "tt.extern_elementwise" and _libdevice_extern(op)
                                    and op.symbol.data.startswith("__nv_"))


@lowering("tt.extern_elementwise")
def _extern(ctx, op):
    symbol = op.symbol.data
    path = op.libpath.data
    t = ctx.type_of(op.result.type, op)
    if _libdevice_extern(op):
        if symbol.startswith("__nv_"):
            _use_libdevice(ctx, symbol)
        else:
            raise ctx.error(op, f"extern function '{symbol}' has no library path")
    else:
        ctx.externs[symbol] = path
    map_elementwise(ctx, op, lambda *xs: nvvm.call(ctx.b, symbol, t, list(xs)))


@lowering("ub.poison")
def _poison(ctx, op):
    t = ctx.type_of(op.results[0].type, op)
    v = ir.Constant(t, ir.Undefined)
    ctx.set(op.results[0], ctx.splat(v, op.results[0].type, op) if isinstance(op.results[0].type, TensorType) else v)
