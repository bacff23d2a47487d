"""`tt.dot`: on tensor cores (`mma.sync.aligned.m16n8kK`, ttc/lowering/mma_v2.py picks the form from the
types) for `#ttg.nvidia_mma` v2 accumulators, on FMA units for `#ttg.blocked` ones.

MMA path: the accumulator's layout (`linear_layout._mma`) gives each warp 16x8 tiles whose four registers per
thread are the PTX ISA's `c0..c3`, and the operands' layouts (W = 32 / operand bits elements per 32-bit
register; K = 8 W per instruction: k8 tf32, k16 f16/bf16, k32 s8/fp8; kWidth a power-of-two multiple of W, the
elements consecutive along K a thread holds) give A's 4 W elements `a0..` (16 x K) and B's 2 W elements `b0..`
(K x 8). For every accumulator tile (its `c0` register at thread-independent coordinates (m, n)) and every k step
(`k_chunks`: the next 2 W of the K coordinates lane 0 holds, k0 .. k2W-1), one mma.sync (inline PTX) takes
    A: 4 registers at rows m, m+8, m, m+8 and K k0..kW-1, k0..kW-1, kW..k2W-1, kW..k2W-1
    B: 2 registers at column n and K k0..kW-1, kW..k2W-1
    C: c0, c1, c2, c3 at (m, n), (m, n+1), (m+8, n), (m+8, n+1) (f32/s32 registers; f16: two registers, each
       two halves)
packed with the lower-indexed element in the low bits; with kWidth = W this is the ISA's fragment exactly, with a
larger kWidth each instruction sums over a permutation of its K elements that A and B share. f64: per tile and
k step of 4, two m8n8k4 (rows m and m + 8, one f64 each of A and B per thread, c0 c1 and c2 c3). The registers are found by coordinates
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
from ttc.ir.attr_printer import attr_text
from ttc.lowering.mma_v2 import FP8, MmaKind, mma_v2_kind
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


C_COORDS = ((0, 0), (0, 1), (8, 0), (8, 1))


def k_chunks(K: int, k_width: int, k_instr: int) -> list[list[int]]:
    """Per mma.sync along K, the K coordinates lane 0 feeds it, per row of A (column of B), in the fragment's
    order: lane 0 holds the k with (k // k_width) % 4 == 0 (lanes 1-3 the next k_width groups), in runs of
    k_width; one instruction takes k_instr / 4 of them (two 32-bit words, one f64), so a thread's words are
    consumed in order. Every lane does the same shifted by k_width * threadID_in_group, and A and B alike: each
    instruction sums over a permutation of k_instr of the K elements that the two share."""
    own = [k for k in range(K) if (k // k_width) % 4 == 0]
    n = k_instr // 4
    return [own[i:i + n] for i in range(0, len(own), n)]


def mma_plan(a_ll, b_ll, c_ll, k_width: int = 2, per_word: int | None = None, k_instr: int | None = None
             ) -> list[tuple[list[int], list[list[int]], list[list[int]]]]:
    """The mma.sync instructions of a dot, per accumulator tile: (the registers c0..c3 of the accumulator
    layout, per k step the registers of A's elements a0.. in the ISA's order, per k step B's b0..). Raises
    MMALayoutError when the layouts do not hold whole mma.sync fragments. `per_word` is the elements per 32-bit
    register (k_width by default; k_width may be a power-of-two multiple of it: `k_chunks`), `k_instr` the K of
    one k step (8 per_word by default; 4 for f64's m8n8k4, whose two instructions per step take a0 / a1, b0)."""
    per_word = per_word or k_width
    k_instr = k_instr or 8 * per_word
    rank = c_ll.rank
    m_dim, n_dim = rank - 2, rank - 1
    M, N, K = c_ll.shape[m_dim], c_ll.shape[n_dim], a_ll.shape[-1]
    if M % 16 or N % 8 or K % k_instr or K % (4 * k_width):
        raise MMALayoutError(f"mma.sync m16n8k{k_instr} with kWidth {k_width} needs M % 16 == N % 8 == 0 and K a "
                             f"multiple of {max(k_instr, 4 * k_width)}, got {M}x{N}x{K}")
    if k_width % per_word:
        raise MMALayoutError(f"kWidth {k_width} is not a multiple of the {per_word} elements of a 32-bit register")
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

    chunks = k_chunks(K, k_width, k_instr)
    words = max(k_instr // 4 // per_word, 1)
    # A's words in the ISA's order: row m, row m + 8, by word; B's by word
    a_offsets = [(8 * (j & 1), (j >> 1) * per_word + e) for j in range(2 * words) for e in range(per_word)]
    b_offsets = [w * per_word + e for w in range(words) for e in range(per_word)]
    plan = []
    covered = set()
    for r in c_ll.unique_regs:
        c = c_ll.reg_coords[r]
        pre, m, n = c[:m_dim], c[m_dim], c[n_dim]
        if m % 16 or n % 8:
            continue  # not a c0: handled with its tile's c0
        cs = [reg(c_ll, pre + (m + dm, n + dn), "the accumulator") for dm, dn in C_COORDS]
        a_steps = [[reg(a_ll, pre + (m + dm, ks[i]), "A") for dm, i in a_offsets] for ks in chunks]
        b_steps = [[reg(b_ll, pre + (ks[i], n), "B") for i in b_offsets] for ks in chunks]
        plan.append((cs, a_steps, b_steps))
        covered.update(c_ll.reg_coords[x] for x in cs)
    if covered != set(c_ll.reg_coords):
        raise MMALayoutError("the accumulator layout is not made of whole 16x8 mma.sync tiles")
    return plan


def _kind(op) -> MmaKind | str:
    """The mma.sync `op` runs on. fp8 operands that reach the dot unconverted where accelerate-matmul would have
    upcast them to f16 run on the fp8 instruction where PTX has it (sm_89 on)."""
    from ttc.ir.layout_utils import target_capability

    capability = target_capability(op) or 90
    kind = mma_v2_kind(elt(op.a.type), elt(op.b.type), elt(op.d.type), op.inputPrecision.value.data, capability)
    if isinstance(kind, MmaKind) and kind.upcast:
        if capability < 89:
            return ("fp8 mma.sync needs sm_89 or later: the operands must be converted to f16 first (tt.fp_to_fp, "
                    "as tritongpu-accelerate-matmul does)")
        kind = MmaKind(32, FP8[attr_text(elt(op.a.type))], FP8[attr_text(elt(op.b.type))], "f32", 89)
    return kind


def first_mma_dot_without_form(func):
    """The first `tt.dot` with an MMA v2 layout that no mma.sync runs (fnuz fp8 operands, which Triton's
    accelerate-matmul keeps: the types it carries are refused later, at the first op that holds them), and why;
    tt-translate reports it before lowering anything."""
    for op in func.walk():
        if op.name == "tt.dot" and isinstance(encoding(op.d.type), NvidiaMmaEncoding):
            if isinstance(kind := _kind(op), str):
                return op, f"tt.dot with an #ttg.nvidia_mma layout: {kind}"
    return None


def _mma_dot(ctx, op):
    a_ll, b_ll, c_ll = (ctx.layout(v.type, op) for v in (op.a, op.b, op.c))
    A, B, C = ctx.get(op.a), ctx.get(op.b), ctx.get(op.c)
    if not isinstance(C, list):
        C = [C] * c_ll.num_regs
    kind = _kind(op)
    if isinstance(kind, str):
        raise ctx.error(op, f"tt.dot with an #ttg.nvidia_mma layout: {kind}")
    k_width = encoding(op.a.type)["kWidth"]
    w = max(32 // kind.bits, 1)  # elements per 32-bit operand register (one f64)
    allowed = (1,) if kind.c == "f64" else tuple(x for x in (1, 2, 4, 8) if x >= w)
    for v in (op.a, op.b):
        if encoding(v.type)["kWidth"] not in allowed or encoding(v.type)["kWidth"] != k_width:
            raise ctx.error(op, f"tt.dot: {kind.ptx} takes operands with kWidth = "
                                f"{' or '.join(map(str, allowed))} (both alike), got {encoding(v.type)['kWidth']}")
    try:
        plan = mma_plan(a_ll, b_ll, c_ll, k_width, w, kind.k)
    except MMALayoutError as e:
        raise ctx.error(op, f"tt.dot: {e}") from None
    if kind.c == "f64":
        ctx.set(op.d, _mma_f64(ctx.b, kind, plan, A, B, C, c_ll))
        return
    b = ctx.b
    words: dict = {}

    def pack(values, regs):
        """The 32-bit register holding values[regs[0]] (low bits), values[regs[1]], ..."""
        key = (id(values), *regs)
        if key not in words:
            words[key] = pack_word(b, [values[r] for r in regs])
        return words[key]

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


def _mma_f64(b, kind, plan, A, B, C, c_ll) -> list:
    """f64 (Triton's Ampere form): per accumulator tile and k step two m8n8k4, rows m (a0, c0 c1) and m + 8
    (a1, c2 c3), both with b0."""
    f64 = ir.DoubleType()
    fty = ir.FunctionType(ir.LiteralStructType([f64, f64]), [f64] * 4)
    mma = ir.InlineAsm(fty, f"{kind.ptx} {{$0, $1}}, {{$2}}, {{$3}}, {{$4, $5}};", "=d,=d,d,d,0,1",
                       side_effect=False)
    out = [None] * c_ll.num_regs
    for cs, a_steps, b_steps in plan:
        acc = [C[x] for x in cs]
        for ar, br in zip(a_steps, b_steps):
            for half in (0, 1):
                res = b.call(mma, [A[ar[half]], B[br[0]], *acc[2 * half:2 * half + 2]])
                acc[2 * half:2 * half + 2] = [b.extract_value(res, i) for i in (0, 1)]
        for x, v in zip(cs, acc):
            out[x] = v
    for r in range(c_ll.num_regs):
        if out[r] is None:
            out[r] = out[c_ll.first_reg[c_ll.reg_coords[r]]]
    return out


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
