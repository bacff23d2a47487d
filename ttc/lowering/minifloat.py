"""Upcasts of the microscaling element formats: fp8 (`f8E4M3FN`, `f8E5M2`, held in i8 registers) through
`tt.fp_to_fp` (to bf16 / f16 / f32), and packed fp4 e2m1 pairs through `ttg.fp4_to_fp` (to bf16 / f16); and
downcasts to fp8 (`x.to(tl.float8e4nv)`, round to nearest even) as Triton emits them on sm_89 and later: two
f32 at a time by `cvt.rn.satfinite.{e4m3,e5m2}x2.f32` (finite overflow saturates, NaN stays NaN; f16 and bf16
sources are widened to f32 first, which is exact).

A code is decoded with integer arithmetic into the float32 it stands for (an e5m2 code widened to f16 or more
is just shifted into an f16's high byte), exactly (every e4m3, e5m2 and e2m1
value is a float32, and a bf16 or f16 too, so the final `fptrunc` is exact): a normal code moves its exponent
and mantissa into float32's fields, a subnormal one is its mantissa times 2^(1 - bias - mantissa bits), and
NaN / infinity codes (e4m3: S.1111.111; e5m2: exponent all ones) become NaN / infinity. It needs no
conversion instruction, so it runs on every target; on sm_89 and later fp8 upcasts to f16 / bf16 / f32 use
PTX's `cvt.rn.f16x2.{e4m3,e5m2}x2` on pairs of codes instead, as Triton does (to bf16 on sm_90 then
`cvt.bf16.f16` on each half, as Triton).

`ttg.fp4_to_fp` gathers, for each result register, the byte holding its element (a register renaming when the
result layout is the source's with the unpacked axis doubled per thread, as the decomposition of
`tt.dot_scaled` makes it; the low nibble is the even index along the axis, the high one the odd), packs a
thread's distinct bytes four to an i32 and decodes the word's eight codes at once by byte lookups, as Triton's
Fp4ToFp does: `prmt.b32` (`llvm.nvvm.prmt`) picks, for each code's magnitude (3 bits, a byte index into two
constant words), a byte of its bf16 / f16 value, a third lookup turns each sign bit into 0x80, and two more
interleave the bytes into words of two 16-bit values: 17 instructions for 8 elements, every target, exact (the
eight magnitudes 0, 0.5, ..., 6 are tables; -0 keeps its sign).
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import Float8E4M3FNType, Float8E5M2Type

from ttc.ir.types import elt
from ttc.lowering import nvvm
from ttc.lowering.convert import rearrange
from ttc.lowering.registry import lowering
from ttc.lowering.types import BFloatType, f32, i32

# format -> (exponent bits, mantissa bits, bias, NaN/inf codes: "e4m3" (S.1111.111 NaN), "ieee", None)
FORMATS = {"e4m3": (4, 3, 7, "e4m3"), "e5m2": (5, 2, 15, "ieee"), "e2m1": (2, 1, 1, None)}
FP8 = {Float8E4M3FNType: "e4m3", Float8E5M2Type: "e5m2"}


def fp8_format(t) -> str | None:
    return FP8.get(type(elt(t)))


def decode(b: ir.IRBuilder, code: ir.Value, fmt: str) -> ir.Value:
    """The float32 value of `code` (an integer register; the format's bits at the bottom, the rest ignored)."""
    e_bits, m_bits, bias, special = FORMATS[fmt]
    width = 1 + e_bits + m_bits
    c = b.and_(b.zext(code, i32) if code.type.width < 32 else code, ir.Constant(i32, (1 << width) - 1))
    sign = b.shl(b.lshr(c, ir.Constant(i32, width - 1)), ir.Constant(i32, 31))
    exp = b.and_(b.lshr(c, ir.Constant(i32, m_bits)), ir.Constant(i32, (1 << e_bits) - 1))
    man = b.and_(c, ir.Constant(i32, (1 << m_bits) - 1))
    normal = b.or_(b.shl(b.add(exp, ir.Constant(i32, 127 - bias)), ir.Constant(i32, 23)),
                   b.shl(man, ir.Constant(i32, 23 - m_bits)))
    sub = b.fmul(b.uitofp(man, f32), ir.Constant(f32, 2.0 ** (1 - bias - m_bits)))
    mag = b.select(b.icmp_unsigned("==", exp, ir.Constant(i32, 0)), b.bitcast(sub, i32), normal)
    top = b.icmp_unsigned("==", exp, ir.Constant(i32, (1 << e_bits) - 1))
    if special == "ieee":  # infinity (mantissa 0) or NaN
        inf_nan = b.or_(ir.Constant(i32, 0x7F800000), b.shl(man, ir.Constant(i32, 23 - m_bits)))
        mag = b.select(top, inf_nan, mag)
    elif special == "e4m3":
        nan = b.and_(top, b.icmp_unsigned("==", man, ir.Constant(i32, (1 << m_bits) - 1)))
        mag = b.select(nan, ir.Constant(i32, 0x7FC00000), mag)
    return b.bitcast(b.or_(mag, sign), f32)


def from_f32(b: ir.IRBuilder, x: ir.Value, t: ir.Type) -> ir.Value:
    return x if t == f32 else (b.fpext(x, t) if isinstance(t, ir.DoubleType) else b.fptrunc(x, t))


def fp8_to_float(ctx, op, fmt: str, t: ir.Type) -> None:
    """`tt.fp_to_fp` from an fp8 type (i8 registers) to the float type `t`. An e5m2 code is the high byte of an f16
    (same exponent, 2 of its mantissa bits): to f16 and wider it is shifted there, exactly, NaN and inf kept (f16
    -> bf16 is no LLVM cast, so bf16 is decoded as the other formats are)."""
    from ttc.lowering.context import map_elementwise

    from ttc.ir.layout_utils import target_capability

    b = ctx.b
    if target_capability(op) >= 89 and isinstance(t, (ir.HalfType, BFloatType, ir.FloatType)):
        return _fp8_pairs_to_float(ctx, op, fmt, t, target_capability(op) >= 90)
    if fmt == "e5m2" and isinstance(t, (ir.HalfType, ir.FloatType, ir.DoubleType)):
        def widen(x):
            h = b.bitcast(b.shl(b.zext(x, ir.IntType(16)), ir.Constant(ir.IntType(16), 8)), ir.HalfType())
            return h if isinstance(t, ir.HalfType) else b.fpext(h, t)

        return map_elementwise(ctx, op, widen)
    map_elementwise(ctx, op, lambda x: from_f32(b, decode(b, x, fmt), t))


def _fp8_pairs_to_float(ctx, op, fmt: str, t: ir.Type, sm90: bool) -> None:
    """sm_89 and later, as Triton emits it: two codes at a time by `cvt.rn.f16x2.{fmt}x2` (exact: every e4m3 and
    e5m2 value is an f16, NaN and infinity kept), then each f16 to `t` (exact too: 3 or 2 mantissa bits); to bf16
    on sm_90 and later by `cvt.bf16.f16`, in the same inline asm (4 instructions a pair: the cvt, the f16x2 split
    into two 16-bit registers, a cvt each); before sm_90 through f32."""
    b = ctx.b
    i16 = ir.IntType(16)
    cvt = ir.InlineAsm(ir.FunctionType(i32, [i16]), f"cvt.rn.f16x2.{fmt}x2 $0, $1;", "=r,h")
    to_bf16 = ir.InlineAsm(ir.FunctionType(ir.LiteralStructType([t, t]), [i16]),
                           f"{{\n\t.reg .b32 w;\n\t.reg .f16 l, h;\n\tcvt.rn.f16x2.{fmt}x2 w, $2;\n\t"
                           "mov.b32 {l, h}, w;\n\tcvt.bf16.f16 $0, l;\n\tcvt.bf16.f16 $1, h;\n\t}",
                           "=h,=h,h")  # an instruction a line, as Triton's asm
    direct = sm90 and isinstance(t, BFloatType)

    def pairs(regs):
        out = []
        for i in range(0, len(regs), 2):
            lo, hi = regs[i], regs[i + 1] if i + 1 < len(regs) else regs[i]
            packed = b.or_(b.zext(lo, i16), b.shl(b.zext(hi, i16), ir.Constant(i16, 8)))
            n = 2 if i + 1 < len(regs) else 1
            if direct:
                two = b.call(to_bf16, [packed])  # lo's value, hi's
                out += [b.extract_value(two, h) for h in range(n)]
                continue
            word = b.call(cvt, [packed])  # lo's value in the low half, hi's in the high one
            for h in range(n):
                x = b.bitcast(b.trunc(b.lshr(word, ir.Constant(i32, 16 * h)), i16), ir.HalfType())
                out.append(x if isinstance(t, ir.HalfType) else from_f32(b, b.fpext(x, f32), t))
        return out

    x = ctx.get(op.src)
    ctx.set(op.result, pairs(x) if isinstance(x, list) else pairs([x])[0])


def float_to_fp8(ctx, op, fmt: str, rounding: str) -> None:
    """`tt.fp_to_fp` from f32, f16 or bf16 to fp8 (i8 registers), in pairs of registers."""
    from ttc.ir.layout_utils import target_capability

    src = ctx.type_of(op.src.type, op)
    if not isinstance(src, (ir.FloatType, ir.HalfType, BFloatType)):
        raise ctx.error(op, f"tt.fp_to_fp to fp8 {fmt} is supported from f32, f16 and bf16")
    if rounding != "rtne":
        raise ctx.error(op, f"tt.fp_to_fp to fp8 {fmt} supports rounding = rtne only (Triton's too)")
    if target_capability(op) < 89:
        raise ctx.error(op, f"tt.fp_to_fp to fp8 {fmt} needs sm_89 or later (cvt.rn.satfinite.{fmt}x2.f32)")
    b = ctx.b
    i16, i8 = ir.IntType(16), ir.IntType(8)
    if isinstance(src, ir.HalfType):  # an f16 pair as one f16x2 word, as Triton's Fp16_to_Fp8 (same targets)
        h2 = ir.VectorType(src, 2)
        cvt = ir.InlineAsm(ir.FunctionType(i16, [i32]), f"cvt.rn.satfinite.{fmt}x2.f16x2 $0, $1;", "=h,r")

        def convert(lo, hi):
            v = b.insert_element(ir.Constant(h2, ir.Undefined), lo, ir.Constant(i32, 0))
            return b.call(cvt, [b.bitcast(b.insert_element(v, hi, ir.Constant(i32, 1)), i32)])
    else:
        cvt = ir.InlineAsm(ir.FunctionType(i16, [f32, f32]), f"cvt.rn.satfinite.{fmt}x2.f32 $0, $2, $1;", "=h,r,r")

        def convert(lo, hi):
            return b.call(cvt, [lo if lo.type == f32 else b.fpext(lo, f32), hi if hi.type == f32 else b.fpext(hi, f32)])

    def pairs(regs):
        out = []
        for i in range(0, len(regs), 2):
            lo, hi = regs[i], regs[i + 1] if i + 1 < len(regs) else regs[i]
            packed = convert(lo, hi)  # lo's code in the low byte, hi's in the high one
            out.append(b.trunc(packed, i8))
            if i + 1 < len(regs):
                out.append(b.trunc(b.lshr(packed, ir.Constant(i16, 8)), i8))
        return out

    x = ctx.get(op.src)
    ctx.set(op.result, pairs(x) if isinstance(x, list) else pairs([x])[0])


# e2m1 magnitude m (0..7) -> the bytes of its 16-bit value: byte m of the word pair (lo, hi), for prmt.b32
E2M1_BYTES = {"bf16": ((0xC0800000, 0xC0804000), (0x3F3F3F00, 0x40404040)),  # 0 .5 1 1.5 2 3 4 6: 0x3F00...
              "f16": (None, (0x3E3C3800, 0x46444240))}  # f16: the low byte is 0 for all eight


def _prmt(b: ir.IRBuilder, lo, hi, sel) -> ir.Value:
    """`prmt.b32`: byte k of the result is byte (selector nibble k) of the 8-byte pair (lo, hi)."""
    args = [v if isinstance(v, ir.Value) else ir.Constant(i32, v - (1 << 32) if v >> 31 else v) for v in (lo, hi, sel)]
    return nvvm.call(b, "llvm.nvvm.prmt", i32, args)


def e2m1_words(b: ir.IRBuilder, bytes_: list[ir.Value], fmt: str) -> list[ir.Value]:
    """The 8 e2m1 codes of up to 4 i8 values (two each, the low nibble first) as 4 i32 words of two bf16 or f16
    values: word j holds byte j's low code's value in its low half and its high code's in the high half."""
    v4 = ir.VectorType(ir.IntType(8), 4)
    word = ir.Constant(v4, [0] * 4)
    for j, x in enumerate(bytes_):  # a <4 x i8> (NVPTX packs it by prmt.b32; bytes of one load stay that word)
        word = b.insert_element(word, x, ir.Constant(i32, j))
    word = b.bitcast(word, i32)
    lo_table, hi_table = E2M1_BYTES[fmt]
    mag = b.and_(word, ir.Constant(i32, 0x77777777))
    sign = b.lshr(b.and_(word, ir.Constant(i32, -0x77777778)), ir.Constant(i32, 3))  # each code's sign: 0 or 1
    out = []
    for half in (0, 1):  # codes 4*half .. 4*half+3: the selector is the low 16 bits
        m = b.lshr(mag, ir.Constant(i32, 16)) if half else mag
        s = b.lshr(sign, ir.Constant(i32, 16)) if half else sign
        high = b.or_(_prmt(b, *hi_table, m), _prmt(b, 0x8000, 0, s))  # high bytes, sign bits set
        if lo_table is None:  # f16: a zero low byte (byte 4 of (high, 0))
            out += [_prmt(b, high, 0, 0x1404), _prmt(b, high, 0, 0x3424)]
        else:
            low = _prmt(b, *lo_table, m)
            out += [_prmt(b, low, high, 0x5140), _prmt(b, low, high, 0x7362)]
    return out


@lowering("ttg.fp4_to_fp")
def _fp4_to_fp(ctx, op):
    axis = op.axis.value.data
    src, dst = ctx.layout(op.src.type, op), ctx.layout(op.result.type, op)
    if any(basis[axis] & 1 for basis in (*dst.lane, *dst.warp)):
        raise ctx.error(op, "ttg.fp4_to_fp: the result layout must give each thread both elements of a byte "
                            "(an even number of elements per thread along the axis)")

    def byte_of(c):
        c = list(c)
        c[axis] >>= 1
        return tuple(c)

    bytes_ = rearrange(ctx, op, ctx.get(op.src), src, dst, byte_of)
    t = ctx.type_of(op.result.type, op)
    b = ctx.b
    distinct = list({id(x): x for x in bytes_}.values())  # each byte once, in register order
    values = {}  # (id of the byte, nibble) -> its value
    for w in range(0, len(distinct), 4):
        group = distinct[w:w + 4]
        pairs = e2m1_words(b, group, "f16" if isinstance(t, ir.HalfType) else "bf16")
        for j, x in enumerate(group):
            two = b.bitcast(pairs[j], ir.VectorType(t, 2))  # bf16 or f16 (the verifier's types)
            for nibble in (0, 1):
                values[id(x), nibble] = b.extract_element(two, ir.Constant(i32, nibble))
    out = []
    for r, byte in enumerate(bytes_):
        out.append(values[id(byte), dst.apply(r, 0, 0)[axis] & 1])
    ctx.set(op.result, out)
