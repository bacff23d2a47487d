"""`tt.dot` on the FMA path: operands in `#ttg.dot_op<{opIdx, parent = #blocked}>`, accumulator in the parent
`#blocked` layout, as Triton lowers dots that have no tensor-core layout.

Each thread holds, for every accumulator element (m, n) it owns, the whole row m of A and column n of B (the dot
operand layouts replicate K in registers), and accumulates `acc = fma(a[m][k], b[k][n], acc)` for k in order.
f16/bf16 (and f32) inputs are multiplied in the accumulator's type (f32 accumulation); integer inputs are
sign-extended to the accumulator's width.
"""

from __future__ import annotations

import llvmlite.ir as ir

from ttc.ir.types import shape_of
from ttc.lowering import nvvm
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of


@lowering("tt.dot")
def _dot(ctx, op):
    a_ll, b_ll, c_ll = (ctx.layout(v.type, op) for v in (op.a, op.b, op.c))
    A, B, C = ctx.get(op.a), ctx.get(op.b), ctx.get(op.c)
    if not isinstance(C, list):
        C = [C] * c_ll.num_regs
    K = shape_of(op.a.type)[-1]
    rank = c_ll.rank
    m_dim, n_dim = rank - 2, rank - 1

    def only(basis, keep):
        return tuple(x if d in keep else 0 for d, x in enumerate(basis))

    batch = set(range(rank - 2))
    a_ok = [only(bb, batch | {m_dim}) for bb in c_ll.lane + c_ll.warp] == list(a_ll.lane + a_ll.warp)
    b_ok = [only(bb, batch | {n_dim}) for bb in c_ll.lane + c_ll.warp] == list(b_ll.lane + b_ll.warp)
    if not (a_ok and b_ok):
        raise ctx.error(op, "tt.dot operands must be in #ttg.dot_op layouts of the accumulator's #ttg.blocked layout")
    acc_t = C[0].type
    b = ctx.b

    def cast(x):
        if x.type == acc_t:
            return x
        if isinstance(acc_t, ir.IntType):
            return b.sext(x, acc_t) if x.type.width < acc_t.width else b.trunc(x, acc_t)
        return b.fpext(x, acc_t) if bits_of(x.type) < bits_of(acc_t) else b.fptrunc(x, acc_t)

    a_cache: dict = {}
    b_cache: dict = {}
    out = [None] * c_ll.num_regs
    for r in c_ll.unique_regs:
        c = c_ll.reg_coords[r]
        acc = C[r]
        for k in range(K):
            ka = c[:m_dim] + (c[m_dim], k)
            kb = c[:m_dim] + (k, c[n_dim])
            if ka not in a_cache:
                if ka not in a_ll.first_reg:
                    raise ctx.error(op, "tt.dot: operand A's layout does not match the accumulator's")
                a_cache[ka] = cast(A[a_ll.first_reg[ka]])
            if kb not in b_cache:
                if kb not in b_ll.first_reg:
                    raise ctx.error(op, "tt.dot: operand B's layout does not match the accumulator's")
                b_cache[kb] = cast(B[b_ll.first_reg[kb]])
            x, y = a_cache[ka], b_cache[kb]
            if isinstance(acc_t, ir.IntType):
                acc = b.add(b.mul(x, y), acc)
            else:
                acc = nvvm.call(b, f"llvm.fmuladd.{_fname(acc_t)}", acc_t, [x, y, acc])
        out[r] = acc
    for r in range(c_ll.num_regs):
        if out[r] is None:
            out[r] = out[c_ll.first_reg[c_ll.reg_coords[r]]]
    ctx.set(op.d, out)


def _fname(t) -> str:
    return {ir.FloatType: "f32", ir.DoubleType: "f64", ir.HalfType: "f16"}.get(type(t), "bf16")
