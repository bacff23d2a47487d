"""`tt.elementwise_inline_asm` to LLVM inline asm, as Triton lowers it.

Each thread runs the asm once per `packed_element` consecutive registers of its operands (once in all when
there are none). Operands narrower than 32 bits are packed into vectors that fill a 32-bit register (`<4 x i8>`
for an `r` operand); results come back the same way, and with more than one asm output the asm returns a
struct, outputs in result order (all the registers of result 0, then result 1, ...). An op without `pure`
has side effects (`asm sideeffect`), so it is kept even when its results are unused (`griddepcontrol.wait`).
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import TensorType

from ttc.ir.inline_asm import check_constraints, per_register
from ttc.ir.layouts import DotOperandEncoding
from ttc.ir.types import encoding
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of


def _bits(t: ir.Type) -> int:
    return 64 if isinstance(t, ir.PointerType) else bits_of(t)


def _pack(b: ir.IRBuilder, values: list[ir.Value], n: int) -> list[ir.Value]:
    """`values` in groups of `n` vector elements (n == 1: unchanged)."""
    if n == 1:
        return values
    out = []
    for i in range(0, len(values), n):
        vec = ir.Constant(ir.VectorType(values[0].type, n), ir.Undefined)
        for k, v in enumerate(values[i:i + n]):
            vec = b.insert_element(vec, v, ir.Constant(ir.IntType(32), k))
        out.append(vec)
    return out


def _unpack(b: ir.IRBuilder, value: ir.Value, n: int) -> list[ir.Value]:
    if n == 1:
        return [value]
    return [b.extract_element(value, ir.Constant(ir.IntType(32), k)) for k in range(n)]


@lowering("tt.elementwise_inline_asm")
def _inline_asm(ctx, op):
    b = ctx.b
    pack = op.packed_element.value.data
    text, constraints = op.asm_string.data, op.constraints.data
    args = [ctx.get(v) for v in op.operands]
    res_types = [ctx.type_of(r.type.element_type if isinstance(r.type, TensorType) else r.type, op)
                 for r in op.results]
    arg_types = [ctx.type_of(v.type.element_type if isinstance(v.type, TensorType) else v.type, op)
                 for v in op.operands]
    for v in [*op.operands, *op.results]:
        if isinstance(v.type, TensorType) and isinstance(encoding(v.type), DotOperandEncoding):
            raise ctx.error(op, "tt.elementwise_inline_asm on dot-operand layouts is not supported yet")
    bad = check_constraints(constraints, [_bits(t) for t in res_types], [_bits(t) for t in arg_types], pack)
    if bad:
        raise ctx.error(op, bad)

    tensor = next((r.type for r in op.results if isinstance(r.type, TensorType)), None)
    n = ctx.layout(tensor, op).num_regs if tensor is not None else 1
    if op.operands and n % pack:
        raise ctx.error(op, f"packed_element = {pack} does not divide the {n} elements each thread holds")
    if not op.operands and n != pack and tensor is not None:
        raise ctx.error(op, f"an inline asm without operands runs once per thread: its {n} results per thread "
                            f"must equal packed_element = {pack}")
    cols = [a if isinstance(a, list) else [a] * n for a in args]

    out_slots = []  # per result: (LLVM type of one asm output, elements in it, outputs)
    for t in res_types:
        k = per_register(_bits(t), pack)
        out_slots.append((ir.VectorType(t, k) if k > 1 else t, k, -(-pack // k)))
    asm_outs = [t for t, _, count in out_slots for _ in range(count)]
    ret = asm_outs[0] if len(asm_outs) == 1 else ir.LiteralStructType(asm_outs)

    results = [[] for _ in op.results]
    calls = range(0, n, pack) if op.operands else range(1)
    for start in calls:
        operands = []
        for col, t in zip(cols, arg_types):
            operands += _pack(b, col[start:start + pack], per_register(_bits(t), pack))
        fty = ir.FunctionType(ret, [x.type for x in operands])
        value = b.call(ir.InlineAsm(fty, text, constraints, side_effect=not op.pure.value.data), operands)
        index = 0
        for r, (_, k, count) in enumerate(out_slots):
            for _ in range(count):
                one = value if len(asm_outs) == 1 else b.extract_value(value, index)
                results[r] += _unpack(b, one, k)
                index += 1
    for r, regs in zip(op.results, results):
        ctx.set(r, regs if isinstance(r.type, TensorType) else regs[0])
