"""Hopper's warp-group MMA: `ttng.warp_group_dot` as `wgmma.mma_async`, `ttng.warp_group_dot_wait` as
`wgmma.wait_group`, `ttng.fence_async_shared` as `fence.proxy.async`, `ttg.memdesc_trans` of nvmma buffers.

The accumulator is in `#ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [wm, wn], instrShape = [16, n, k]}>`
(linear_layout: per warp 16 rows x n, its registers the ISA's D fragment of `m64nNk16`: d[j] at row
`8 * (j >> 1 & 1) + lane / 4` and column `8 * (j >> 2) + 2 * (lane % 4) + (j & 1)` of the warp's 16 rows; the
four warps of a warp group hold consecutive 16-row slabs). Each warp group issues, for every 64 x n tile of
the accumulator it holds (its registers' thread-independent origin plus its warps' offset) and every k step,
one `wgmma.mma_async.sync.aligned.m64n{n}k{k}.{acc}.{type}.{type}`: B (and A, unless it is in registers as
`#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth}>`, the ISA's A fragment: 4 registers of kWidth elements, as
mma.sync's, dot.py) read from `#ttg.nvmma_shared` buffers through matrix descriptors (nvmma_shared.py). f16 and
bf16 take k = 16 and may be MN-major (the transpose immediates); tf32 (f32 operands) k = 8, i8 (s32
accumulators, no scale immediates) and fp8 e4m3/e5m2 k = 32, K-major only. Accumulators are f32, s32 for i8,
or f16 for f16 and fp8 operands (`.f16` D: the f32 case's elements, d[2i] and d[2i + 1], adjacent columns, in
the low and high halves of register i; packed before `wgmma.fence`, unpacked after the tile's last instruction). The op brackets its instructions with
`wgmma.fence` and `wgmma.commit_group`; its results may be read only after a `warp_group_dot_wait` whose
pendings count lets it finish, so the wait passes every register of its tensor operands through the
`wgmma.wait_group` asm: later reads depend on the wait, and LLVM cannot move them above it.
"""

from __future__ import annotations

import llvmlite.ir as ir

from ttc.ir.fold import is_zero
from ttc.ir.layouts import DotOperandEncoding, NvidiaMmaEncoding
from ttc.ir.types import encoding
from ttc.ir.memdesc import MemDescType
from ttc.lowering import nvvm
from ttc.lowering.convert import IROps
from ttc.lowering.dot import isa_a_coords, mma_lane_bases, pack_word
from ttc.lowering.local_memory import SharedBuffer, whole_buffer
from ttc.lowering.nvmma_shared import NvmmaBuffer, NvmmaError, descriptor_constant, descriptor_fields, k_step
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of, f32, i32, i64


# f16 and fp8 operands may also accumulate in f16 (`.f16` D: two accumulators a 32-bit register)
F16_ACCUMULATES = ("f16", "e4m3", "e5m2")
WGMMA_KINDS = {"f16": ("f16", 16, "f32"), "bf16": ("bf16", 16, "f32"), "f32": ("tf32", 8, "f32"),
               "i8": ("s8", 32, "s32"), "f8E4M3FN": ("e4m3", 32, "f32"), "f8E5M2": ("e5m2", 32, "f32")}


def _kind(ctx, op, t) -> tuple[str, int, str]:
    """The wgmma type name, K per instruction and accumulator type of operand element type `t` (MLIR)."""
    from ttc.ir.attr_printer import attr_text

    kind = WGMMA_KINDS.get(attr_text(t))
    if kind is None:
        raise ctx.error(op, "ttng.warp_group_dot supports f16, bf16, tf32 (f32), i8 and fp8 (f8E4M3FN, f8E5M2) "
                            f"operands, not {attr_text(t)}")
    return kind


class _Operand:
    """A shared-memory operand: descriptors for the tile whose first element is at `coords` (i32 values)."""

    def __init__(self, ctx, op, value, k_dim: int, what: str):
        buf = whole_buffer(ctx, op, value)
        if not isinstance(buf.layout, NvmmaBuffer):
            raise ctx.error(op, f"wgmma reads {what} from a #ttg.nvmma_shared buffer")
        self.ctx, self.buf, self.k_dim = ctx, buf, k_dim
        self.k_major = buf.layout.inner == k_dim
        try:
            self.const = ir.Constant(i64, descriptor_constant(*descriptor_fields(buf.layout, k_dim)))
        except NvmmaError as e:
            raise ctx.error(op, str(e)) from None

    def descriptor(self, coords, ops: IROps) -> ir.Value:
        b = self.ctx.b
        # from shared memory's base as an unknown value (Lowering.smem_base_unknown)
        addr = b.add(self.ctx.smem_base_unknown(), ops.value(ops.add(self.buf.layout.byte_offset(coords, ops),
                                                                     self.buf.base)))
        start = b.and_(b.lshr(addr, ir.Constant(i32, 4)), ir.Constant(i32, 0x3FFF))
        return b.or_(b.zext(start, i64), self.const)

    def step(self, k: int) -> int:
        return k_step(self.buf.layout, self.k_dim, k)


def _check_accumulator(ctx, op, c_ll):
    if list(c_ll.lane) != mma_lane_bases(2, "c") or list(c_ll.warp[:2]) != [(16, 0), (32, 0)]:
        raise ctx.error(op, "ttng.warp_group_dot: the accumulator layout does not hold wgmma's D fragments")


@lowering("ttng.warp_group_dot")
def _warp_group_dot(ctx, op):
    enc = encoding(op.d.type)
    if not isinstance(enc, NvidiaMmaEncoding) or enc["versionMajor"] != 3:
        raise ctx.error(op, "ttng.warp_group_dot needs an #ttg.nvidia_mma layout of version 3")
    c_ll = ctx.layout(op.c.type, op)
    _check_accumulator(ctx, op, c_ll)
    n_instr = enc["instrShape"][1]
    a_t = op.a.type.element_type
    kind, k_instr, acc_kind = _kind(ctx, op, a_t)
    fp8 = kind in ("e4m3", "e5m2")
    b_name = _kind(ctx, op, op.b.type.element_type)[0]
    if b_name != kind and not (fp8 and b_name in ("e4m3", "e5m2")):
        raise ctx.error(op, "ttng.warp_group_dot operands must have one element type (or two fp8 types)")
    C = ctx.get(op.c)
    if not isinstance(C, list):
        C = [C] * c_ll.num_regs
    if isinstance(C[0].type, ir.HalfType) and kind in F16_ACCUMULATES:
        acc_kind = "f16"
    acc_t = {"s32": i32, "f32": f32, "f16": ir.HalfType()}[acc_kind]
    if C[0].type != acc_t:
        also = " or f16" if kind in F16_ACCUMULATES else ""
        raise ctx.error(op, f"ttng.warp_group_dot on {kind} operands accumulates in {acc_kind}{also} only")
    f16_acc = acc_kind == "f16"
    reg_t = {"s32": i32, "f32": f32, "f16": i32}[acc_kind]  # f16: two accumulators (adjacent columns) a register
    if fp8 and op.maxNumImpreciseAcc.value.data <= tuple(op.b.type.get_shape())[0]:
        raise ctx.error(op, "ttng.warp_group_dot: fp8 with maxNumImpreciseAcc <= K (Triton's split accumulation) "
                            "is not supported")
    K = tuple(op.b.type.get_shape())[0]
    if K % k_instr:
        raise ctx.error(op, f"wgmma {kind} steps K by {k_instr}: K = {K} is not a multiple")
    b = ctx.b
    ops = IROps(b)
    a_regs = isinstance(encoding(op.a.type), DotOperandEncoding)
    w = 32 // {16: 16, 8: 32, 32: 8}[k_instr]  # operand elements per 32-bit register (kWidth)
    if a_regs:
        if kind == "tf32":
            raise ctx.error(op, "ttng.warp_group_dot: tf32 A operands must be in shared memory")
        a_ll = ctx.layout(op.a.type, op)
        if list(a_ll.lane) != mma_lane_bases(2, "a", w) or a_ll.warp != tuple((m, 0) for m, _ in c_ll.warp):
            raise ctx.error(op, "ttng.warp_group_dot: operand A's layout does not hold wgmma's A fragments")
        A = ctx.get(op.a)
    else:
        a_op = _Operand(ctx, op, op.a, 1, "A")
    b_op = _Operand(ctx, op, op.b, 0, "B")
    if k_instr != 16 and not (b_op.k_major and (a_regs or a_op.k_major)):
        raise ctx.error(op, f"wgmma {kind} needs K-major operands (A not transposed, B transposed)")
    # an N-contiguous B: an instruction covers whole swizzled rows (chunks apart by the leading offset) or lies
    # within one, starting mid-row (n8..n32 of 128-byte rows, a warp group's half of a 64-wide tile): the start
    # address is the tile's first element, which the hardware swizzles by its address bits, as Triton's
    row = b_op.buf.layout.row_elems
    if not b_op.k_major and n_instr % row and row % n_instr:
        raise ctx.error(op, f"wgmma n{n_instr} reads an N-contiguous B of {b_op.buf.layout.swizzle_bytes}-byte "
                            "swizzled rows: N per instruction must be a multiple or a divisor of the row")

    # the warp group's offset: warp bases beyond the first two, selected by the bits of warp / 4; the warp id is
    # broadcast from lane 0 (as Triton's getWarpId does) so that ptxas sees it is uniform and keeps the descriptors
    # in uniform registers, not in 16 of each thread's
    # (only where there is more than one warp group: the shuffle is not dead code to LLVM)
    offset = [ir.Constant(i32, 0), ir.Constant(i32, 0)]
    if any(any(basis) for basis in c_ll.warp[2:]):
        warp_hi = b.lshr(nvvm.shfl(b, "idx", ctx.warp(), 0), ir.Constant(i32, 2))
    for i, basis in enumerate(c_ll.warp[2:]):
        if not any(basis):
            continue
        bit = b.and_(b.lshr(warp_hi, ir.Constant(i32, i)), ir.Constant(i32, 1))
        for d in range(2):
            if basis[d]:
                offset[d] = b.or_(offset[d], b.mul(bit, ir.Constant(i32, basis[d])))

    n_regs = n_instr // 2  # accumulator elements per thread and instruction
    n_out = n_regs // 2 if f16_acc else n_regs  # their registers
    words = {}

    def a_word(regs):
        if regs not in words:
            words[regs] = pack_word(b, [A[r] for r in regs])
        return words[regs]

    def reg(ll, coords, what):
        r = ll.first_reg.get(coords)
        if r is None:
            raise ctx.error(op, f"ttng.warp_group_dot: no register of {what} holds {coords}")
        return r

    outs = "{" + ", ".join(f"${i}" for i in range(n_out)) + "}"
    in_types = [i32] * 4 + [i64] if a_regs else [i64, i64]
    a_text = "{" + ", ".join(f"${n_out + i}" for i in range(4)) + "}" if a_regs else f"${n_out}"
    b_text = f"${n_out + len(in_types) - 1}"
    if k_instr != 16:  # tf32, 8-bit: K-major only, no transpose immediates
        trans = ""
    elif a_regs:
        trans = f", {0 if b_op.k_major else 1}"
    else:
        trans = f", {0 if a_op.k_major else 1}, {0 if b_op.k_major else 1}"
    scales = "" if acc_kind == "s32" else ", 1, 1"  # integer wgmma has no scale-a / scale-b immediates
    instr = f"wgmma.mma_async.sync.aligned.m64n{n_instr}k{k_instr}.{acc_kind}.{kind}.{b_name}"
    out_c = "=f" if acc_kind == "f32" else "=r"

    def asm(accumulate: bool) -> ir.InlineAsm:
        """D = A * B (+ D when `accumulate`: the scale-d predicate operand, tied accumulators)."""
        cons = [out_c] * n_out + ["r"] * 4 * a_regs + ["l"] * (len(in_types) - 4 * a_regs)
        ins = list(in_types)
        scale = "0"
        if accumulate:
            scale = f"${n_out + len(in_types)}"
            cons += ["b"] + [str(i) for i in range(n_out)]
            ins += [ir.IntType(1)] + [reg_t] * n_out
        fty = ir.FunctionType(ir.LiteralStructType([reg_t] * n_out), ins)
        return ir.InlineAsm(fty, f"{instr} {outs}, {a_text}, {b_text}, {scale}{scales}{trans};", ",".join(cons),
                            side_effect=True)

    # C a zero constant: the first step does not read it (scale-d 0), so no register is set to zero first
    zero_c = op.useC is None and is_zero(op.c)
    use_c = ctx.get(op.useC) if op.useC is not None else ir.Constant(ir.IntType(1), 1)
    true = ir.Constant(ir.IntType(1), 1)
    # every operand is computed before wgmma.fence: a register written after it makes ptxas serialize
    tiles = []
    for r in c_ll.unique_regs:
        m, n = c_ll.reg_coords[r]
        if m % 64 or n % n_instr:
            continue
        cs = [reg(c_ll, (m + 8 * (j >> 1 & 1), n + 8 * (j >> 2) + (j & 1)), "the accumulator") for j in range(n_regs)]
        row = ops.add(offset[0], m)
        col = ops.add(offset[1], n)
        steps = []
        a_desc = None if a_regs else a_op.descriptor((row, ir.Constant(i32, 0)), ops)
        b_desc = b_op.descriptor((ir.Constant(i32, 0), col), ops)
        for k in range(0, K, k_instr):
            if a_regs:
                ar = [reg(a_ll, (m + dm, k + dk), "A") for dm, dk in (isa_a_coords(i, w) for i in range(4 * w))]
                a_args = [a_word(tuple(ar[i:i + w])) for i in range(0, 4 * w, w)]
            else:
                a_args = [b.add(a_desc, ir.Constant(i64, a_op.step(k))) if k else a_desc]
            steps.append(a_args + [b.add(b_desc, ir.Constant(i64, b_op.step(k))) if k else b_desc])
        acc = [C[x] for x in cs]
        if f16_acc and not zero_c:  # the ISA's f16x2 registers: elements 2i (low half) and 2i + 1
            acc = [pack_word(b, acc[i:i + 2]) for i in range(0, n_regs, 2)]
        tiles.append((cs, steps, acc))

    ctx.buffer_access(write=False, values=[v for v in (op.a, op.b) if isinstance(v.type, MemDescType)])
    nvvm.asm(b, "wgmma.fence.sync.aligned;", "", ir.VoidType(), [])
    out = [None] * c_ll.num_regs
    first, rest = asm(False) if zero_c else None, asm(True)
    for cs, steps, acc in tiles:
        for i, args in enumerate(steps):
            if i == 0 and zero_c:
                res = b.call(first, args)
            else:
                res = b.call(rest, args + [use_c if i == 0 else true] + acc)
            acc = [b.extract_value(res, j) for j in range(n_out)]
        if f16_acc:  # halves of <2 x half> words, so that re-packing them (a store, stmatrix) gives the word back
            acc = [b.extract_element(b.bitcast(word, ir.VectorType(ir.HalfType(), 2)), ir.Constant(i32, h))
                   for word in acc for h in (0, 1)]
        for x, v in zip(cs, acc):
            out[x] = v
    if any(v is None for v in out):
        raise ctx.error(op, "ttng.warp_group_dot: the accumulator layout is not made of whole 64 x n wgmma tiles")
    nvvm.asm(b, "wgmma.commit_group.sync.aligned;", "", ir.VoidType(), [])
    ctx.set(op.d, out)


@lowering("ttng.warp_group_dot_wait")
def _warp_group_dot_wait(ctx, op):
    b = ctx.b
    passed = []  # (operand index, register values, words per register)
    for i, v in enumerate(op.inputs):
        x = ctx.get(v)
        if isinstance(x, list):
            if len(x) % 2 == 0 and all(bits_of(r.type) == 16 for r in x):   # 16-bit pairs in one word each
                words = [[pack_word(b, x[k:k + 2])] for k in range(0, len(x), 2)]
                passed.append((i, x, words))
            else:
                passed.append((i, x, [ctx.to_words(r) for r in x]))
    words = [w for _, _, ws in passed for rw in ws for w in rw]
    if words:
        n = len(words)
        fty = ir.FunctionType(ir.LiteralStructType([i32] * n), [i32] * n)
        cons = ",".join(["=r"] * n + [str(i) for i in range(n)])
        res = b.call(ir.InlineAsm(fty, f"wgmma.wait_group.sync.aligned {op.pendings.value.data};", cons,
                                  side_effect=True), words)
        words = [b.extract_value(res, i) for i in range(n)]
    else:
        nvvm.asm(b, f"wgmma.wait_group.sync.aligned {op.pendings.value.data};", "", ir.VoidType(), [])
    results = [ctx.get(v) for v in op.inputs]
    at = 0
    for i, regs, ws in passed:
        out = []
        if len(ws) != len(regs):  # 16-bit pairs
            for k, rw in enumerate(ws):
                vec = b.bitcast(words[at], ir.VectorType(regs[2 * k].type, 2))
                out += [b.extract_element(vec, ir.Constant(i32, h)) for h in (0, 1)]
                at += 1
        else:
            for r, rw in zip(regs, ws):
                out.append(ctx.from_words(words[at:at + len(rw)], r.type))
                at += len(rw)
        results[i] = out
    for res, x in zip(op.outputs, results):
        ctx.set(res, x)


@lowering("ttng.fence_async_shared")
def _fence_async_shared(ctx, op):
    nvvm.asm(ctx.b, "fence.proxy.async.shared::cta;", "", ir.VoidType(), [])


@lowering("ttg.memdesc_trans")
def _memdesc_trans(ctx, op):
    buf = ctx.get(op.src)
    if (not isinstance(buf, SharedBuffer) or buf.leading or not isinstance(buf.layout, NvmmaBuffer)
            or list(op.order.get_values()) != [1, 0]):
        raise ctx.error(op, "ttg.memdesc_trans is supported on whole rank-2 #ttg.nvmma_shared buffers with order "
                            "[1, 0]")
    ctx.set(op.result, SharedBuffer(buf.base, buf.layout.transposed(), ()))


@lowering("ttg.memdesc_subslice")
def _memdesc_subslice(ctx, op):
    """A tile of a whole rank-2 `#ttg.nvmma_shared` buffer read by wgmma (tritongpu-pipeline's K slices of a
    register-operand dot's B): the same buffer layout from the tile's first element, whose row (index of the
    non-contiguous dimension) must be a multiple of 8, where the swizzle phase is 0: a descriptor's start
    address then steps by the tile's unswizzled byte offset and the hardware swizzles the sum, as for K steps.
    Other readers would need the swizzle applied within the tile, so only wgmma may read it."""
    buf = ctx.get(op.src)
    offsets = list(op.offsets.get_values())
    if (not isinstance(buf, SharedBuffer) or buf.leading or not isinstance(buf.layout, NvmmaBuffer)
            or len(offsets) != 2 or offsets[1 - buf.layout.inner] % 8
            or offsets[buf.layout.inner] * buf.layout.elem_bytes % 16):
        raise ctx.error(op, "ttg.memdesc_subslice is supported on whole rank-2 #ttg.nvmma_shared buffers, at rows "
                            "that are multiples of 8 and 16-byte columns")
    if any(u.operation.name not in ("ttng.warp_group_dot", "ttng.warp_group_dot_wait") for u in op.result.uses):
        raise ctx.error(op, "ttg.memdesc_subslice of a #ttg.nvmma_shared buffer is supported as a wgmma operand only")
    ops = IROps(ctx.b)
    start = buf.layout.byte_offset(tuple(offsets))
    ctx.set(op.result, SharedBuffer(ops.add(ops.value(buf.base), start), buf.layout, ()))
