"""Device output: `tt.print` and `tt.assert`, as Triton's NVIDIA lowering emits them.

`tt.print` (`tl.device_print`, `print` in a kernel): for every element a
thread holds, one `vprintf` of

    pid (<x>, <y>, <z>) idx (<i>, <j>, ...)<prefix>[(operand <n>) ]<value>\\n

(pid as `%u`; each index as `%Wu` with W the decimal digits of its dimension's size, as Triton pads them;
`(operand n)` only when several tensors are printed). Values print as `%f` (half, bfloat and float widened to
double, as C varargs want), `%i`/`%u` (`%lli`/`%llu` for 64 bits, narrower integers widened by their
signedness), `%p` for pointers, or `0x%0Nx` with `hex`. A print without operands prints the pid and the
prefix. The arguments go in a stack struct, as vprintf takes them; threads holding copies of one element each
print it, as on Triton. The format string is a private constant of the module.

`tt.assert` (`tl.device_assert` and `assert` under `--debug`): when any element a thread holds is false (zero),
the thread calls CUDA's `__assertfail(message, file, line, "unknown", 1)` with the op's source file and line
(through call-site and name locations to the file location, as Triton), which stops the kernel; a tensor assert
ends with a barrier, so no thread runs ahead of a failing one."""

from __future__ import annotations

import math

import llvmlite.ir as ir
from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, NameLoc, TensorType

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
    return _string(ctx, text + "\n", "printfFormat_")


def _string(ctx, text: str, name: str) -> ir.Value:
    """A pointer to a private null-terminated constant holding `text`."""
    data = bytearray(text.encode()) + b"\0"
    g = ir.GlobalVariable(ctx.module, ir.ArrayType(i8, len(data)), ctx.module.get_unique_name(name))
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


def _file_line(loc) -> tuple[str, int]:
    while isinstance(loc, (CallSiteLoc, NameLoc)):
        loc = loc.callee if isinstance(loc, CallSiteLoc) else loc.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data
    return "unknown", 0


@lowering("tt.assert")
def _assert(ctx, op):
    b = ctx.b
    x = ctx.get(op.condition)
    tensor = isinstance(x, list)
    failed = ir.Constant(ir.IntType(1), 0)
    for v in x if tensor else [x]:
        if not isinstance(v.type, ir.IntType):
            raise ctx.error(op, f"tt.assert of {v.type} conditions is not supported")
        failed = b.or_(failed, b.icmp_unsigned("==", v, ir.Constant(v.type, 0)))
    file, line = _file_line(op.location)
    assertfail = nvvm.declare(ctx.module, "__assertfail", ir.VoidType(),
                              [ir.PointerType(), ir.PointerType(), i32, ir.PointerType(), ir.IntType(64)])
    with b.if_then(failed, likely=False):
        b.call(assertfail, [_string(ctx, op.message.data, "assertMessage_"), _string(ctx, file, "assertFile_"),
                            ir.Constant(i32, line), _string(ctx, "unknown", "assertFunc_"),
                            ir.Constant(ir.IntType(64), 1)])
    if tensor:
        ctx.barrier()
