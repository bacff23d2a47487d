"""`tt.dot`: on tensor cores (`mma.sync.aligned.m16n8k16`) for `#ttg.nvidia_mma` v2 accumulators, on FMA units
for `#ttg.blocked` ones.

MMA path: the accumulator's layout (`linear_layout._mma`) gives each warp 16x8 tiles whose four registers per
thread are the PTX ISA's `c0..c3`, and the operands' layouts give A's `a0..a7` (16x16) and B's `b0..b3` (16x8)
fragments. For every accumulator tile (its `c0` register at thread-independent coordinates (m, n)) and every
k in steps of 16, one `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32` (inline PTX) takes
    A: {a0,a1}, {a2,a3}, {a4,a5}, {a6,a7} at (m, k), (m+8, k), (m, k+8), (m+8, k+8), each pair (col, col + 1)
    B: {b0,b1}, {b2,b3} at (k, n), (k+8, n), each pair (row, row + 1)
    C: c0, c1, c2, c3 at (m, n), (m, n+1), (m+8, n), (m+8, n+1)
packed two 16-bit values per 32-bit register, the lower-indexed one in the low half. The registers are found by
coordinates (`LinearLayout.first_reg`), so the lowering depends on the layouts' per-thread (lane) mapping
matching the ISA's, which is checked, not on their register order.

FMA path: operands in `#ttg.dot_op<{opIdx, parent = #blocked}>`, accumulator in the parent `#blocked` layout, as
Triton lowers dots that have no tensor-core layout.

Each thread holds, for every accumulator element (m, n) it owns, the whole row m of A and column n of B (the dot
operand layouts replicate K in registers), and accumulates `acc = fma(a[m][k], b[k][n], acc)` for k in order.
f16/bf16 (and f32) inputs are multiplied in the accumulator's type (f32 accumulation); integer inputs are
sign-extended to the accumulator's width.
"""

from __future__ import annotations

import llvmlite.ir as ir

from ttc.ir.layouts import NvidiaMmaEncoding
from ttc.ir.types import encoding, shape_of
from ttc.lowering import nvvm
from ttc.lowering.registry import lowering
from ttc.lowering.types import BFloatType, bits_of, f32, i32


@lowering("tt.dot")
def _dot(ctx, op):
    if isinstance(encoding(op.d.type), NvidiaMmaEncoding):
        return _mma_dot(ctx, op)
    return _fma_dot(ctx, op)


def mma_lane_bases(rank: int, kind: str) -> list[tuple]:
    """The lane bases the PTX ISA's m16n8k16 fragments have (lane = 4 * groupID + threadID_in_group):
    threadID_in_group picks column pair 2*t of C and of A (k), row pair 2*t of B (k); groupID the row of C and
    A, the column of B."""
    def unit(d, v):
        return tuple(v if k == d else 0 for k in range(rank))

    m, n = rank - 2, rank - 1
    inner, outer = {"c": (n, m), "a": (n, m), "b": (m, n)}[kind]
    return [unit(inner, 2), unit(inner, 4), unit(outer, 1), unit(outer, 2), unit(outer, 4)]


def pack_halves(b, lo: ir.Value, hi: ir.Value) -> ir.Value:
    """One 32-bit register holding two 16-bit values, `lo` in the low half: an MMA operand's register pair."""
    # as a two-element vector, so that LLVM turns two f32 -> f16 truncations into one cvt.rn.f16x2.f32
    pair = ir.VectorType(lo.type, 2)
    v = b.insert_element(b.insert_element(ir.Constant(pair, ir.Undefined), lo, ir.Constant(i32, 0)),
                         hi, ir.Constant(i32, 1))
    return b.bitcast(v, i32)


class MMALayoutError(Exception):
    pass


def mma_plan(a_ll, b_ll, c_ll) -> list[tuple[list[int], list[list[int]], list[list[int]]]]:
    """The mma.sync instructions of a dot, per accumulator tile: (the registers c0..c3 of the accumulator
    layout, per k step the registers a0..a7 of A, per k step the registers b0..b3 of B). Raises MMALayoutError
    when the layouts do not hold whole mma.sync fragments."""
    rank = c_ll.rank
    m_dim, n_dim = rank - 2, rank - 1
    M, N, K = c_ll.shape[m_dim], c_ll.shape[n_dim], a_ll.shape[-1]
    if M % 16 or N % 8 or K % 16:
        raise MMALayoutError(f"mma.sync m16n8k16 needs M % 16 == N % 8 == K % 16 == 0, got {M}x{N}x{K}")
    for ll, kind in ((c_ll, "c"), (a_ll, "a"), (b_ll, "b")):
        if list(ll.lane) != mma_lane_bases(rank, kind):
            raise MMALayoutError(f"the {kind.upper()} layout's lanes do not follow mma.sync's fragment")

    def only(basis, keep):
        return tuple(x if d in keep else 0 for d, x in enumerate(basis))

    # the warps of A (B) must hold the rows (columns) of the accumulator tiles that their warps hold
    batch = set(range(rank - 2))
    if ([only(bb, batch | {m_dim}) for bb in c_ll.warp] != list(a_ll.warp)
            or [only(bb, batch | {n_dim}) for bb in c_ll.warp] != list(b_ll.warp)):
        raise MMALayoutError("the operands' warps do not match the accumulator's")

    def reg(ll, coords, what):
        r = ll.first_reg.get(tuple(coords))
        if r is None:
            raise MMALayoutError(f"no register of {what} holds {tuple(coords)}")
        return r

    plan = []
    covered = set()
    for r in c_ll.unique_regs:
        c = c_ll.reg_coords[r]
        pre, m, n = c[:m_dim], c[m_dim], c[n_dim]
        if m % 16 or n % 8:
            continue  # not a c0: handled with its tile's c0
        cs = [reg(c_ll, pre + (m + dm, n + dn), "the accumulator") for dm, dn in ((0, 0), (0, 1), (8, 0), (8, 1))]
        a_steps, b_steps = [], []
        for k in range(0, K, 16):
            a_steps.append([reg(a_ll, pre + (m + dm, k + dk), "A")
                            for dm, dk in ((0, 0), (0, 1), (8, 0), (8, 1), (0, 8), (0, 9), (8, 8), (8, 9))])
            b_steps.append([reg(b_ll, pre + (k + dk, n), "B") for dk in (0, 1, 8, 9)])
        plan.append((cs, a_steps, b_steps))
        covered.update(c_ll.reg_coords[x] for x in cs)
    if covered != set(c_ll.reg_coords):
        raise MMALayoutError("the accumulator layout is not made of whole 16x8 mma.sync tiles")
    return plan


def _mma_dot(ctx, op):
    a_ll, b_ll, c_ll = (ctx.layout(v.type, op) for v in (op.a, op.b, op.c))
    A, B, C = ctx.get(op.a), ctx.get(op.b), ctx.get(op.c)
    if not isinstance(C, list):
        C = [C] * c_ll.num_regs
    a_t = ctx.type_of(op.a.type.element_type, op)
    kind = "bf16" if isinstance(a_t, BFloatType) else "f16" if a_t == ir.HalfType() else None
    if kind is None or ctx.type_of(op.b.type.element_type, op) != a_t or C[0].type != f32:
        raise ctx.error(op, "tt.dot with an #ttg.nvidia_mma layout supports f16 x f16 and bf16 x bf16 -> f32 only")
    try:
        plan = mma_plan(a_ll, b_ll, c_ll)
    except MMALayoutError as e:
        raise ctx.error(op, f"tt.dot: {e}") from None
    b = ctx.b
    words: dict = {}

    def pack(values, lo, hi):
        """The 32-bit register holding values[lo] (low half) and values[hi] (high half)."""
        key = (id(values), lo, hi)
        if key not in words:
            words[key] = pack_halves(b, values[lo], values[hi])
        return words[key]

    text = (f"mma.sync.aligned.m16n8k16.row.col.f32.{kind}.{kind}.f32 "
            "{$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};")
    fty = ir.FunctionType(ir.LiteralStructType([f32] * 4), [i32] * 6 + [f32] * 4)
    mma = ir.InlineAsm(fty, text, "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", side_effect=False)
    out = [None] * c_ll.num_regs
    for cs, a_steps, b_steps in plan:
        acc = [C[x] for x in cs]
        for ar, br in zip(a_steps, b_steps):
            args = [pack(A, ar[i], ar[i + 1]) for i in range(0, 8, 2)] + [pack(B, br[i], br[i + 1]) for i in (0, 2)]
            res = b.call(mma, args + acc)
            acc = [b.extract_value(res, i) for i in range(4)]
        for x, v in zip(cs, acc):
            out[x] = v
    for r in range(c_ll.num_regs):
        if out[r] is None:
            out[r] = out[c_ll.first_reg[c_ll.reg_coords[r]]]
    ctx.set(op.d, out)


def _fma_dot(ctx, op):
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
