"""`tt.print` (`tl.device_print`, `print` in a kernel) as Triton's NVIDIA lowering emits it: for every element a
thread holds, one `vprintf` of

    pid (<x>, <y>, <z>) idx (<i>, <j>, ...)<prefix>[(operand <n>) ]<value>\\n

(pid as `%u`; each index as `%Wu` with W the decimal digits of its dimension's size, as Triton pads them;
`(operand n)` only when several tensors are printed). Values print as `%f` (half, bfloat and float widened to
double, as C varargs want), `%i`/`%u` (`%lli`/`%llu` for 64 bits, narrower integers widened by their
signedness), `%p` for pointers, or `0x%0Nx` with `hex`. A print without operands prints the pid and the
prefix. The arguments go in a stack struct, as vprintf takes them; threads holding copies of one element each
print it, as on Triton. The format string is a private constant of the module."""

from __future__ import annotations

import math

import llvmlite.ir as ir
from xdsl.dialects.builtin import TensorType

from ttc.lowering import nvvm
from ttc.lowering.registry import lowering
from ttc.lowering.types import BFloatType, i32

i8 = ir.IntType(8)
f64 = ir.DoubleType()


def _spec(ctx, op, v: ir.Value, hex_: bool, signed: bool) -> str:
    t = v.type
    if isinstance(t, ir.PointerType):
        return "%p"
    if isinstance(t, ir.IntType) or isinstance(t, (ir.HalfType, BFloatType, ir.FloatType, ir.DoubleType)):
        if hex_:
            bits = t.width if isinstance(t, ir.IntType) else {ir.HalfType: 16, BFloatType: 16, ir.FloatType: 32,
                                                              ir.DoubleType: 64}[type(t)]
            return f"0x%0{bits // 4}{'ll' if bits > 32 else ''}x"
        if isinstance(t, ir.IntType):
            return ("%lli" if signed else "%llu") if t.width == 64 else ("%i" if signed else "%u")
        return "%f"
    raise ctx.error(op, f"tt.print of {t} values is not supported yet")


def _vararg(b: ir.IRBuilder, v: ir.Value, signed: bool, hex_: bool) -> ir.Value:
    """`v` as C varargs pass it: integers narrower than 32 bits widened, floats below double widened (a hex
    float prints its bits, so it goes as the integer of its width, widened like one)."""
    t = v.type
    if hex_ and not isinstance(t, (ir.IntType, ir.PointerType)):
        bits = {ir.HalfType: 16, BFloatType: 16, ir.FloatType: 32, ir.DoubleType: 64}[type(t)]
        v, t = b.bitcast(v, ir.IntType(bits)), ir.IntType(bits)
    if isinstance(t, ir.IntType) and t.width < 32:
        return b.sext(v, i32) if signed else b.zext(v, i32)
    if isinstance(t, (ir.HalfType, BFloatType, ir.FloatType)):
        return b.fpext(v, f64)
    return v


def _format_string(ctx, text: str) -> ir.Value:
    data = bytearray((text + "\n").encode()) + b"\0"
    g = ir.GlobalVariable(ctx.module, ir.ArrayType(i8, len(data)), ctx.module.get_unique_name("printfFormat_"))
    g.global_constant = True
    g.linkage = "private"
    g.initializer = ir.Constant(ir.ArrayType(i8, len(data)), data)
    return ctx.b.gep(g, [ir.Constant(i32, 0), ir.Constant(i32, 0)], inbounds=True)


def _printf(ctx, fmt: ir.Value, args: list[ir.Value]) -> None:
    b = ctx.b
    struct = ir.LiteralStructType([a.type for a in args])
    with b.goto_block(b.function.entry_basic_block):  # one stack slot per print, made on entry
        if b.block.terminator is not None:
            b.position_before(b.block.terminator)
        buf = b.alloca(struct)
    for k, a in enumerate(args):
        b.store(a, b.gep(buf, [ir.Constant(i32, 0), ir.Constant(i32, k)], inbounds=True))
    vprintf = nvvm.declare(ctx.module, "vprintf", i32, [ir.PointerType(), ir.PointerType()])
    b.call(vprintf, [fmt, buf])


@lowering("tt.print")
def _print(ctx, op):
    b = ctx.b
    pid = [nvvm.sreg(b, f"ctaid.{a}") for a in "xyz"]
    prefix = op.prefix.data
    hex_ = bool(op.hex.value.data)
    signed = list(op.isSigned.get_values()) if op.isSigned is not None else []
    head = "pid (%u, %u, %u)"
    if not op.operands:
        _printf(ctx, _format_string(ctx, head + prefix), pid)
        return
    for n, v in enumerate(op.operands):
        is_signed = bool(signed[n]) if n < len(signed) else False
        if isinstance(v.type, TensorType):
            ll = ctx.layout(v.type, op)
            values, coords = ctx.get(v), ctx.coords(ll)
            widths = [math.ceil(math.log10(d)) if d > 0 else 0 for d in v.type.get_shape()]
        else:
            values, coords, widths = [ctx.get(v)], [[]], []
        if not values:
            continue
        operand = f"(operand {n}) " if len(op.operands) > 1 else ""
        text = (head + " idx (" + ", ".join(f"%{w}u" for w in widths) + ")" + prefix + operand
                + _spec(ctx, op, values[0], hex_, is_signed))
        fmt = _format_string(ctx, text)
        for value, index in zip(values, coords):
            _printf(ctx, fmt, pid + list(index) + [_vararg(b, value, is_signed, hex_)])
