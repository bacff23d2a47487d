"""`tt.dot`: on tensor cores (`mma.sync.aligned.m16n8kK`, ttc/lowering/mma_v2.py picks the form from the
types) for `#ttg.nvidia_mma` v2 accumulators, on FMA units for `#ttg.blocked` ones.

MMA path: the accumulator's layout (`linear_layout._mma`) gives each warp 16x8 tiles whose four registers per
thread are the PTX ISA's `c0..c3`, and the operands' layouts (kWidth W = 32 / operand bits elements per 32-bit
register; K = 8 W per instruction: k8 tf32, k16 f16/bf16, k32 s8/fp8) give A's 4 W elements `a0..` (16 x K) and
B's 2 W elements `b0..` (K x 8). For every accumulator tile (its `c0` register at thread-independent coordinates
(m, n)) and every k in steps of K, one mma.sync (inline PTX) takes
    A: 4 registers at (m, k), (m+8, k), (m, k+K/2), (m+8, k+K/2), each the W elements (row, col .. col + W-1)
    B: 2 registers at (k, n), (k+K/2, n), each the W elements (row .. row + W-1, col)
    C: c0, c1, c2, c3 at (m, n), (m, n+1), (m+8, n), (m+8, n+1) (f32/s32 registers; f16: two registers, each
       two halves)
packed with the lower-indexed element in the low bits. The registers are found by coordinates
(`LinearLayout.first_reg`), so the lowering depends on the layouts' per-thread (lane) mapping matching the ISA's,
which is checked, not on their register order.

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
from ttc.ir.types import elt, encoding, shape_of
from ttc.lowering import nvvm
from ttc.lowering.mma_v2 import mma_v2_kind
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of, f32, i16, i32


@lowering("tt.dot")
def _dot(ctx, op):
    if isinstance(encoding(op.d.type), NvidiaMmaEncoding):
        return _mma_dot(ctx, op)
    return _fma_dot(ctx, op)


def mma_lane_bases(rank: int, kind: str, k_width: int = 2) -> list[tuple]:
    """The lane bases the PTX ISA's m16n8kK fragments have (lane = 4 * groupID + threadID_in_group): for A and
    B threadID_in_group picks the k_width-element group k_width * t along K; for C the column pair 2 * t;
    groupID the row of C and A, the column of B."""
    def unit(d, v):
        return tuple(v if k == d else 0 for k in range(rank))

    m, n = rank - 2, rank - 1
    if kind == "c":
        return [unit(n, 2), unit(n, 4), unit(m, 1), unit(m, 2), unit(m, 4)]
    k, other = (n, m) if kind == "a" else (m, n)
    return [unit(k, k_width), unit(k, 2 * k_width), unit(other, 1), unit(other, 2), unit(other, 4)]


def pack_word(b, values: list[ir.Value]) -> ir.Value:
    """One 32-bit register holding `values` (1 x 32, 2 x 16 or 4 x 8 bits), the first in the low bits; built as a
    vector, so that LLVM turns two f32 -> f16 truncations into one cvt.rn.f16x2.f32."""
    if len(values) == 1:
        return b.bitcast(values[0], i32) if values[0].type != i32 else values[0]
    vec = ir.Constant(ir.VectorType(values[0].type, len(values)), ir.Undefined)
    for i, v in enumerate(values):
        vec = b.insert_element(vec, v, ir.Constant(i32, i))
    return b.bitcast(vec, i32)


class MMALayoutError(Exception):
    pass


def isa_a_coords(i: int, k_width: int, per_word: int | None = None) -> tuple[int, int]:
    """(row, col) of A's fragment element a_i for lane 0 (groupID = threadID_in_group = 0), K = 8 per_word
    (per_word: elements per 32-bit register, k_width by default). With k_width = 2 per_word (16-bit operands
    upcast from fp8), a thread's two K-halves of the instruction are the two words of its k_width group."""
    per_word = per_word or k_width
    j, e = divmod(i, per_word)
    return 8 * (j & 1), e + (4 * per_word if k_width == per_word else per_word) * (j >> 1)


def isa_b_coords(i: int, k_width: int, per_word: int | None = None) -> tuple[int, int]:
    """(row, col) of B's fragment element b_i for lane 0."""
    per_word = per_word or k_width
    j, e = divmod(i, per_word)
    return e + (4 * per_word if k_width == per_word else per_word) * j, 0


C_COORDS = ((0, 0), (0, 1), (8, 0), (8, 1))


def mma_plan(a_ll, b_ll, c_ll, k_width: int = 2, per_word: int | None = None
             ) -> list[tuple[list[int], list[list[int]], list[list[int]]]]:
    """The mma.sync instructions of a dot, per accumulator tile: (the registers c0..c3 of the accumulator
    layout, per k step the registers of A's elements a0.. in the ISA's order, per k step B's b0..). Raises
    MMALayoutError when the layouts do not hold whole mma.sync fragments. `per_word` (elements per 32-bit
    register, k_width by default) is half of k_width for f16 operands upcast from fp8 (`isa_a_coords`)."""
    per_word = per_word or k_width
    rank = c_ll.rank
    m_dim, n_dim = rank - 2, rank - 1
    M, N, K = c_ll.shape[m_dim], c_ll.shape[n_dim], a_ll.shape[-1]
    k_instr = 8 * per_word
    if M % 16 or N % 8 or K % k_instr:
        raise MMALayoutError(f"mma.sync m16n8k{k_instr} needs M % 16 == N % 8 == K % {k_instr} == 0, got {M}x{N}x{K}")
    for ll, kind in ((c_ll, "c"), (a_ll, "a"), (b_ll, "b")):
        if list(ll.lane) != mma_lane_bases(rank, kind, k_width):
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

    a_offsets = [isa_a_coords(i, k_width, per_word) for i in range(4 * per_word)]
    b_offsets = [isa_b_coords(i, k_width, per_word)[0] for i in range(2 * per_word)]
    plan = []
    covered = set()
    for r in c_ll.unique_regs:
        c = c_ll.reg_coords[r]
        pre, m, n = c[:m_dim], c[m_dim], c[n_dim]
        if m % 16 or n % 8:
            continue  # not a c0: handled with its tile's c0
        cs = [reg(c_ll, pre + (m + dm, n + dn), "the accumulator") for dm, dn in C_COORDS]
        a_steps, b_steps = [], []
        for k in range(0, K, k_instr):
            a_steps.append([reg(a_ll, pre + (m + dm, k + dk), "A") for dm, dk in a_offsets])
            b_steps.append([reg(b_ll, pre + (k + dk, n), "B") for dk in b_offsets])
        plan.append((cs, a_steps, b_steps))
        covered.update(c_ll.reg_coords[x] for x in cs)
    if covered != set(c_ll.reg_coords):
        raise MMALayoutError("the accumulator layout is not made of whole 16x8 mma.sync tiles")
    return plan


def _mma_dot(ctx, op):
    from ttc.ir.layout_utils import target_capability

    a_ll, b_ll, c_ll = (ctx.layout(v.type, op) for v in (op.a, op.b, op.c))
    A, B, C = ctx.get(op.a), ctx.get(op.b), ctx.get(op.c)
    if not isinstance(C, list):
        C = [C] * c_ll.num_regs
    kind = mma_v2_kind(elt(op.a.type), elt(op.b.type), elt(op.d.type), op.inputPrecision.value.data,
                       target_capability(op) or 90)
    if isinstance(kind, str):
        raise ctx.error(op, f"tt.dot with an #ttg.nvidia_mma layout: {kind}")
    k_width = encoding(op.a.type)["kWidth"]
    allowed = (kind.k_width, 4) if kind.bits == 16 else (kind.k_width,)  # 4: f16 operands upcast from fp8
    for v in (op.a, op.b):
        if encoding(v.type)["kWidth"] not in allowed or encoding(v.type)["kWidth"] != k_width:
            raise ctx.error(op, f"tt.dot: {kind.ptx} takes operands with kWidth = "
                                f"{' or '.join(map(str, allowed))} (both alike), got {encoding(v.type)['kWidth']}")
    try:
        plan = mma_plan(a_ll, b_ll, c_ll, k_width, kind.k_width)
    except MMALayoutError as e:
        raise ctx.error(op, f"tt.dot: {e}") from None
    b = ctx.b
    words: dict = {}

    def pack(values, regs):
        """The 32-bit register holding values[regs[0]] (low bits), values[regs[1]], ..."""
        key = (id(values), *regs)
        if key not in words:
            words[key] = pack_word(b, [values[r] for r in regs])
        return words[key]

    w = kind.k_width  # elements per 32-bit operand register
    c_t = {"f32": f32, "s32": i32, "f16": i32}[kind.c]  # f16: c0c1 and c2c3 as two f16x2 registers
    n_c = 2 if kind.c == "f16" else 4
    ops = [f"${i}" for i in range(n_c + 6 + n_c)]
    text = (f"{kind.ptx} {{{', '.join(ops[:n_c])}}}, {{{', '.join(ops[n_c:n_c + 4])}}}, "
            f"{{{', '.join(ops[n_c + 4:n_c + 6])}}}, {{{', '.join(ops[n_c + 6:])}}};")
    out_c = {"f32": "=f", "s32": "=r", "f16": "=r"}[kind.c]
    constraints = ",".join([out_c] * n_c + ["r"] * 6 + [str(i) for i in range(n_c)])
    fty = ir.FunctionType(ir.LiteralStructType([c_t] * n_c), [i32] * 6 + [c_t] * n_c)
    mma = ir.InlineAsm(fty, text, constraints, side_effect=False)
    out = [None] * c_ll.num_regs
    for cs, a_steps, b_steps in plan:
        acc = [C[x] for x in cs]
        if kind.c == "f16":
            acc = [pack_word(b, acc[:2]), pack_word(b, acc[2:])]
        for ar, br in zip(a_steps, b_steps):
            args = [pack(A, ar[i:i + w]) for i in range(0, 4 * w, w)] + [pack(B, br[i:i + w]) for i in (0, w)]
            res = b.call(mma, args + acc)
            acc = [b.extract_value(res, i) for i in range(n_c)]
        if kind.c == "f16":
            acc = [b.bitcast(b.trunc(b.lshr(word, ir.Constant(i32, 16 * h)), i16), ir.HalfType())
                   for word in acc for h in (0, 1)]
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
