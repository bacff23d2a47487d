"""tritongpu-accelerate-matmul: give `tt.dot` a tensor-core (MMA) layout (Triton's TritonGPUAccelerateMatmul, its
MMA v2 path, `mma.sync.aligned.m16n8kK`, on sm80-89, its MMA v3 path, `wgmma`, on sm90, and its MMA v5 paths,
`tcgen05.mma` with the accumulator in tensor memory, on sm100; `tt.dot_scaled` too, see the end).

A `tt.dot` with a `#ttg.blocked` result in a module whose `ttg.target` is `cuda:80` or later is rewritten when its
types have an mma.sync form on the target (ttc/lowering/mma_v2.py: f16/bf16 -> f32, f16 -> f16, f32 with tf32
precision -> f32, i8 -> i32, f64 -> f64 on sm80 and sm90 only, fp8 -> f32 natively on sm89 and sm120 and elsewhere
as f16 after a `tt.fp_to_fp` in the operand layouts, as Triton decomposes it) and its M x N x K is a whole number
of that instruction's tiles; fnuz fp8 operands too (Triton's gate takes them and keeps them as fp8 operands;
tt-translate refuses the dot). On sm90
the dots Triton's supportMMA(dot, 3) takes get MMA v3 instead: f16 and fp8 (e4m3, e5m2, mixed) into f32 or f16,
bf16 and tf32 into f32, i8 into i32.

**MMA v3** (sm90, Triton's supportMMA(dot, 3): 2-D, num-warps a multiple of 4, M % 64 == 0, N % 8 == 0, K at least
the instruction's K, fp8 into f32 only with maxNumImpreciseAcc >= 32; else the dot falls back to v2 as in Triton):

    %acc' = ttg.convert_layout %acc : #blocked -> #mma
    %a'   = ttg.local_alloc %a0 : (tensor<MxK, #blocked_a>) -> !ttg.memdesc<MxK, #shared, #smem>
            (or, when A comes from neither a load nor a block argument: ttg.convert_layout %a to
             #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 32 / bits}>, A stays in registers)
    %b'   = ttg.local_alloc %b0 : (tensor<KxN, #blocked_b>) -> !ttg.memdesc<KxN, #shared1, #smem>
    %d'   = ttng.warp_group_dot %a', %b', %acc' : ... -> #mma
    %d    = ttg.convert_layout %d' : #mma -> #blocked

`%a0`/`%b0` are the operands before their conversions to `#ttg.dot_op<{parent = #blocked}>` (the allocs are put
right after them), `#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA, instrShape = [16, N,
K]}>` with K = 256 / operand bits and N the largest of 256, 248, ..., 8 (for i8: 224, 208, ..., 32, 24, 16, 8)
dividing the tile's N and at most its N per warp group column (Triton's mmaVersionToInstrShape); warpsPerCTA is
Triton's warpsPerTileV3: all warps along M when a dot uses this one's result (its forward slice: attention's
chained dots), else [4, 1] doubled along M while M exceeds 16 rows per warp, then along N. The shared layouts are
Triton's `#ttg.nvmma_shared` for the operand's order: f16/bf16 keep their register order (`transposed` when it
is column-major); wgmma reads tf32, i8 and fp8 operands K-major only, so those are forced to [1, 0] for A and
[0, 1] (`transposed`) for B whatever their register order, and the local_alloc's store transposes them (a
row-major fp8/i8 B: Triton's pipeliner then does not copy it with cp.async, a 1-byte vector). swizzlingByteWidth
128, 64 or 32, the largest dividing the bytes of a contiguous row (else 0).

**MMA v2** (sm80-89, and sm90 dots that v3 does not take), as Triton's BlockedToMMA pattern:

    %acc' = ttg.convert_layout %acc : #blocked -> #mma
    %a'   = ttg.convert_layout %a : #ttg.dot_op<{opIdx = 0, parent = #blocked}> -> #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = W}>
    %b'   = ttg.convert_layout %b : ... -> #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = W}>
    %d'   = tt.dot %a', %b', %acc' : ... -> #mma
    %d    = ttg.convert_layout %d' : #mma -> #blocked

with `#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [wm, wn], instrShape = [16, 8]}>`
and W = 32 / the narrowest width either operand was loaded with (Triton's computeOrigBitWidth, halved through a
`tt.join`; at least 1): 2 for 16-bit, 1 for tf32 and f64, 4 for 8-bit operands, more for narrower loads. `warpsPerCTA` is Triton's
warpsPerTileV2: a dot chained with another one
(found in the def-use slice of the dot within its region, not crossing `tt.trans`) takes the other's MMA warps
if it has some, else all warps along its larger dimension; otherwise warps are doubled along M while the 16x8
instruction's repetitions per warp along M are at least those along N (halving them; warps beyond the tile go to
M), else along N. Batched (3-D) dots put all warps on the
batch dimension. `tritongpu-remove-layout-conversions` then propagates the MMA layout (into loops, through the
accumulator) and removes the conversions it can.

**MMA v5** (sm100-109, Triton's BlockedToMMAv5, for the dots supportMMA(dot, 5) takes: no integers, 2-D, 4 or 8
warps, M % 64, N % 16, K at least 256 / bits; an f32 dot only in tf32 or when an operand was loaded narrower,
Triton's computeOrigBitWidth; other f32 dots are left alone, not given v2):

    %a' = ttg.local_alloc %a0 ; %b' = ttg.local_alloc %b0        (as for v3; f32 operands K-major, no warning)
    %c' = ttg.convert_layout %acc : #blocked -> #linear           (the default TMEM load/store layout)
    %t, %tok = ttng.tmem_alloc %c' : ... -> !ttg.memdesc<MxN, #ttng.tensor_memory_encoding<blockM, blockN,
                                               colStride = 32 / bits>, #ttng.tensor_memory, mutable>
    %m = ttng.tc_gen5_mma %a', %b', %t[%tok], %true, %true
    %r, %tok2 = ttng.tmem_load %t[%m] ; %d = ttg.convert_layout %r : #linear -> #blocked

with blockM 128 (64 when M < 128), blockN min(N, 256), `%true` hoisted to the top of the function. The default
TMEM layout is Triton's getDefaultLayoutForTmemLdSt: the 32x32b message's, or the 16x256b one's when the
environment sets TRITON_PREFER_TMEM_16x256_LAYOUT and it fits.

**tt.dot_scaled**: on sm100 with both scales, 4 or 8 warps, M >= 128 and N >= 16 it becomes
`ttng.tc_gen5_mma_scaled` (ScaledBlockedToMMAv5: operands as above, an e2m1 one K-major and `fp4Padded` when mixed
or packed along M/N; each scale, staged through shared memory when it comes from a load, in an immutable
`#ttng.tensor_memory_scales_encoding` buffer). On sm120 with both scales of one type (not in #ttg.linear layouts,
not fp8 with fp4) it stays a `tt.dot_scaled` with MMA v2 layouts and the scales in sm120's scale layout
(ScaledBlockedToMMA). Otherwise it is decomposed into upcasts and a `tt.dot` (passes/decompose_scaled_dot.py),
which is then rewritten like any other.

Dots are visited in the order of MLIR's greedy pattern driver (last op of the post-order walk first), since the
chained-dot rule depends on which dot was rewritten before.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (ArrayAttr, BFloat16Type, Float16Type, Float32Type, IntAttr, IntegerAttr,
                                   IntegerType, TensorType, i1)
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttc.ir.diagnostics import at_op, emit, reported
from ttc.ir.format import build_op
from ttc.ir.layout_utils import is_elementwise, module_int, num_warps_of, order_for_memory, target_capability, with_encoding
from ttc.ir.layouts import (BlockedEncoding, DotOperandEncoding, LinearEncoding, NvidiaMmaEncoding,
                            NVMMASharedEncoding, SharedMemorySpace)
from ttc.ir.attr_printer import attr_text
from ttc.ir.tmem import TCGen5MMAOp, TCGen5MMAScaledOp, TMEMAllocOp, TMEMLoadOp, _cta_split
from ttc.ir.tmem_attrs import TensorMemoryEncoding, TensorMemoryScalesEncoding, TensorMemorySpace
from ttc.ir.tmem_layout import LL, distributed_tmem_layout, not_larger_than, tmem_layout
from ttc.ir.tt import INPUT_PRECISION
from ttc.ir.types import AsyncTokenType, bitwidth, elt, encoding, is_float, shape_of
from ttc.ir.memdesc import MemDescType
from ttc.analysis.slices import def_use_slice
from ttc.ir.ttg import ConvertLayoutOp, LocalAllocOp, LocalLoadOp, WarpGroupDotOp
from ttc.lowering.mma_v2 import MmaKind, mma_v2_kind
from ttc.passes.decompose_scaled_dot import decompose, fold_identity_upcasts
from ttc.opt.passmanager import Pass

INSTR_SHAPE = (16, 8)  # mma.sync m16n8(k16): M x N per instruction


def mma_kind(dot: Operation) -> MmaKind | str | None:
    """The mma.sync instruction `dot` runs on (ttc/lowering/mma_v2.py), a sentence saying why none, or None when
    the dot is not for this pass (no blocked result, a target before sm80). f64 dots get one only on sm80 and
    sm90 (Triton's rule: the targets with fast f64 tensor cores; elsewhere FMA is faster)."""
    capability = target_capability(dot)
    if not isinstance(encoding(dot.d.type), BlockedEncoding) or capability < 80:
        return None
    if capability not in (80, 90) and any(attr_text(elt(v.type)) == "f64" for v in (dot.a, dot.b, dot.d)):
        return "Triton runs f64 dots on tensor cores on sm80 and sm90 only"
    a, b, d = shape_of(dot.a.type), shape_of(dot.b.type), shape_of(dot.d.type)
    return mma_v2_kind(elt(dot.a.type), elt(dot.b.type), elt(dot.d.type), dot.inputPrecision.value.data, capability,
                       (d[-2], d[-1], a[-1]))


# fp8 types Triton's supportMMA takes for MMA v2 but keeps as fp8 dot operands (its decomposition upcasts only
# e4m3fn and e5m2): ttc's back end has no mma.sync for them, and tt-translate says so at the dot
FP8_KEPT = ("f8E4M3FNUZ", "f8E5M2FNUZ")
FP8_ANY = FP8_KEPT + ("f8E4M3FN", "f8E5M2")


def supports_mma_v2(dot: Operation) -> bool:
    kind = mma_kind(dot)
    if isinstance(kind, MmaKind):
        return True
    names = [attr_text(elt(v.type)) for v in (dot.a, dot.b)]
    return kind is not None and all(n in FP8_ANY for n in names) and any(n in FP8_KEPT for n in names)


def v2_k_width(dot: Operation) -> int:
    """Triton's kWidth for MMA v2 operands: 32 / the narrowest width either operand was loaded with
    (computeOrigBitWidth, halved through a `tt.join`), at least 1."""
    return max(32 // min(orig_bitwidth(dot.a), orig_bitwidth(dot.b)), 1)


def is_tf32(dot: Operation) -> bool:
    """f32 x f32 -> f32 with the tf32 input precision."""
    return (all(isinstance(elt(v.type), Float32Type) for v in (dot.a, dot.b, dot.d))
            and dot.inputPrecision.value.data == INPUT_PRECISION["tf32"])


# the operand types Triton's supportMMA(dot, 3) takes, and the accumulators wgmma has for them (the ones the
# frontend makes; ttc/lowering/wgmma.py): f16 and fp8 -> f32 or f16, bf16 and tf32 -> f32, i8 -> i32
V3_ACCUMULATORS = {"f16": ("f32", "f16"), "bf16": ("f32",), "f32": ("f32",), "f8E4M3FN": ("f32", "f16"),
                   "f8E5M2": ("f32", "f16"), "i8": ("i32",)}
FP8_V3 = ("f8E4M3FN", "f8E5M2")
# instrShape N candidates, largest first (Triton's mmaVersionToInstrShape): 8-bit integers have no n = 256, 240,
# nor the odd multiples of 8 above 24
V3_N = {"i8": (224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8)}


def supports_mma_v3(dot: Operation, num_warps: int) -> bool:
    """Triton's supportMMA(dot, 3): 2-D, num-warps a multiple of 4, M % 64, N % 8, K at least the instruction's K
    (256 / bits); f16, bf16, tf32 (f32 with the tf32 input precision), i8 or fp8 (e4m3, e5m2) A with an operand
    of the same family as B, into an accumulator wgmma has for them (V3_ACCUMULATORS); fp8 into f32 only with
    maxNumImpreciseAcc >= 32."""
    if not isinstance(encoding(dot.d.type), BlockedEncoding):
        return False
    a, b, d = (attr_text(elt(v.type)) for v in (dot.a, dot.b, dot.d))
    shape = shape_of(dot.d.type)
    if a not in V3_ACCUMULATORS or shape_of(dot.a.type)[-1] < 256 // bitwidth(elt(dot.a.type)):
        return False
    if not (len(shape) == 2 and num_warps % 4 == 0 and shape[0] % 64 == 0 and shape[1] % 8 == 0):
        return False
    if a in FP8_V3 and d == "f32" and dot.maxNumImpreciseAcc.value.data < 32:
        return False
    if a == "f32" and not is_tf32(dot):
        return False
    same_family = b in FP8_V3 if a in FP8_V3 else b == a
    return same_family and d in V3_ACCUMULATORS[a]


def instr_shape_v3(shape, element, num_warps: int) -> list[int]:
    """Triton's mmaVersionToInstrShape for v3: [16, N, 256 / bits], N the largest candidate (V3_N) that
    divides the tile's N and fits the N one warp group column gets."""
    m_warps = max(shape[0] // 16, 1)
    max_n = max(shape[1] // max(num_warps // m_warps, 1), 8)
    candidates = V3_N.get(attr_text(element), range(256, 0, -8))
    n = next(n for n in candidates if shape[1] % n == 0 and n <= max_n)
    return [16, n, 256 // bitwidth(element)]


def warps_per_tile_v3(dot: Operation, shape, num_warps: int, instr_n: int) -> list[int]:
    """Triton's warpsPerTileV3: all warps along M when another dot is in the forward slice of the result."""
    seen, work = set(), [dot.results[0]]
    while work:
        for use in work.pop().uses:
            op = use.operation
            if op in seen:
                continue
            seen.add(op)
            if op.name in ("tt.dot", "ttng.warp_group_dot"):
                return [num_warps, 1]
            work.extend(op.results)
    warps = [4, 1]
    while warps[0] * warps[1] < num_warps:
        if shape[0] > 16 * warps[0]:
            warps[0] *= 2
        else:
            warps[1] *= 2
    return warps


def nvmma_shared(shape, order, element, fp4_padded: bool = False) -> NVMMASharedEncoding:
    """Triton's NVMMASharedEncodingAttr::get for a 2-D operand of `shape` stored in `order`: the widest swizzle
    (128, 64, 32 bytes) dividing the bytes of a contiguous row (counted twice for a padded fp4 operand)."""
    bits = bitwidth(element)
    row_bytes = shape[order[0]] * (2 if fp4_padded else 1) * bits // 8
    swizzle = next((w for w in (128, 64, 32) if row_bytes >= w and row_bytes % w == 0), 0)
    return NVMMASharedEncoding.make(swizzlingByteWidth=swizzle, transposed=len(order) > 1 and order[0] == 0,
                                    elementBitWidth=bits, fp4Padded=fp4_padded)


def comes_from_load_or_block_arg(v: SSAValue) -> bool:
    """Triton's comesFromLoadOrBlockArg: through layout conversions, transposes and memdesc views, a load or a block
    argument."""
    while isinstance(v.owner, Operation) and v.owner.name in (
            "ttg.convert_layout", "tt.trans", "ttg.memdesc_trans", "ttg.memdesc_index", "ttg.memdesc_subslice",
            "ttg.memdesc_reshape", "ttg.memdesc_reinterpret"):
        v = v.owner.operands[0]
    return isinstance(v, BlockArgument) or v.owner.name in ("tt.load", "tt.descriptor_load", "tt.descriptor_gather")


def shared_operand(v: SSAValue, op_idx: int, transposable: bool, dot: Operation | None, fp4_padded: bool = False,
                   force_transpose: bool = False) -> SSAValue:
    """Triton's getSharedMemoryMMAOperand: a `ttg.local_alloc` of the value before its layout conversions (all of
    them: a transposed value keeps its transposed order in memory), put right after it, stored in Triton's
    getOrderForMemory of its layout. An operand that is not `transposable` is stored K-major ([1, 0] for A, [0, 1]
    for B; the other one with `force_transpose`); where that differs from its register order, a warning at `dot`
    (when given) says so, in Triton's words."""
    while isinstance(v.owner, Operation) and v.owner.name == "ttg.convert_layout":
        v = v.owner.operands[0]
    shape = shape_of(v.type)
    order = order_for_memory(shape, encoding(v.type))
    forced = order
    if not transposable:
        forced = [0, 1] if op_idx == 1 else [1, 0]
        if force_transpose:
            forced.reverse()
    if forced != order and dot is not None and reported("warning"):
        emit(at_op(dot, None, f"Warning: Forcing a different order [{forced[0]}, {forced[1]}] on SMEM than the "
                              f"register order for the operand {op_idx}. Registers will be transposed before "
                              "SMEM store and the pipelined load for this operand will be disabled, so poor "
                              "performance is expected. Recommendation: consider transposing the operand in "
                              "global memory to remove the need to transpose the tensor in registers.",
                   "warning"))
    return _alloc_after(v, nvmma_shared(shape, forced, elt(v.type), fp4_padded))


def _alloc_after(v: SSAValue, enc) -> SSAValue:
    """A `ttg.local_alloc` of `v` in shared memory with layout `enc`, right after `v` is defined."""
    shape = shape_of(v.type)
    dims = ArrayAttr([IntAttr(d) for d in shape])
    t = MemDescType(dims, elt(v.type), enc, SharedMemorySpace(), IntAttr(0), dims)
    alloc = LocalAllocOp.build(operands=[[v]], result_types=[t])
    alloc.location = v.owner.location if isinstance(v.owner, Operation) else v.owner.parent_op().location
    if isinstance(v, BlockArgument):  # at the block's start, after the constants Triton's rewriter hoists there
        anchor = v.owner.first_op
        while anchor is not None and anchor.name == "arith.constant" and v.owner.parent_op().name == "tt.func":
            anchor = anchor.next_op
        if anchor is None:
            v.owner.add_op(alloc)
        else:
            v.owner.insert_op_before(alloc, anchor)
    else:
        v.owner.parent.insert_op_after(alloc, v.owner)
    return alloc.results[0]


def _slice(dot: Operation) -> Iterator[Operation]:
    """Triton's multiRootGetSlice(dot) with warpsPerTileV2's filter: ops in the dot's region that are not
    `tt.trans` (block arguments are not followed)."""
    region = dot.parent_region()

    def keep(op: Operation) -> bool:
        return op.parent_region() is region and op.name != "tt.trans"

    return def_use_slice(dot, keep, block_args=False, regions=False)


def warps_per_tile_v2(dot: Operation, shape, num_warps: int) -> list[int]:
    """Triton's warpsPerTileV2."""
    rank = len(shape)
    if rank == 3:
        return [num_warps, 1, 1]
    chained = False
    for op in _slice(dot):
        if op is dot or op.name not in ("tt.dot", "tt.dot_scaled"):
            continue
        t = op.results[0].type
        if len(shape_of(t)) != rank:
            continue
        enc = encoding(t)
        if isinstance(enc, NvidiaMmaEncoding):
            return list(enc["warpsPerCTA"])
        chained = True
    if chained:
        return [num_warps, 1] if shape[0] >= shape[1] else [1, num_warps]
    # balance the M and N repetitions of the 16x8 instruction per warp (the registers they take), ties to M; warps
    # beyond the tile go to M
    warps = [1, 1]
    reps = [-(-shape[0] // INSTR_SHAPE[0]), -(-shape[1] // INSTR_SHAPE[1])]
    while warps[0] * warps[1] < num_warps:
        if reps[0] >= reps[1]:
            warps[0] *= 2
            if reps[0] != 1:
                reps[0] //= 2
        else:
            warps[1] *= 2
            reps[1] //= 2
    return warps


def mma_v2(warps: list[int]) -> NvidiaMmaEncoding:
    instr = [1] * (len(warps) - 2) + list(INSTR_SHAPE)
    return NvidiaMmaEncoding.make(versionMajor=2, versionMinor=0, warpsPerCTA=warps, instrShape=instr)


def rewrite(dot: Operation, capability: int) -> None:
    shape, num_warps = shape_of(dot.d.type), num_warps_of(dot)
    v3 = capability // 10 == 9 and supports_mma_v3(dot, num_warps)
    if v3:
        instr = instr_shape_v3(shape, elt(dot.a.type), num_warps)
        mma = NvidiaMmaEncoding.make(versionMajor=3, versionMinor=0,
                                     warpsPerCTA=warps_per_tile_v3(dot, shape, num_warps, instr[1]), instrShape=instr)
    else:
        mma = mma_v2(warps_per_tile_v2(dot, shape, num_warps))
    block = dot.parent

    def convert(v, t):
        cvt = ConvertLayoutOp.create(operands=[v], result_types=[t])
        cvt.location = dot.location
        block.insert_op_before(cvt, dot)
        return cvt.results[0]

    kind = mma_kind(dot)
    new_t = with_encoding(dot.d.type, mma)
    acc = convert(dot.c, new_t)
    old = [o.owner for o in (dot.a, dot.b) if isinstance(o.owner, Operation) and o.owner.name == "ttg.convert_layout"]
    if v3:
        transposable = isinstance(elt(dot.a.type), (Float16Type, BFloat16Type))
        if comes_from_load_or_block_arg(dot.a):
            a = shared_operand(dot.a, 0, transposable, dot)
        else:
            k_width = 32 // bitwidth(elt(dot.a.type))
            a = convert(dot.a, with_encoding(dot.a.type, DotOperandEncoding.make(opIdx=0, parent=mma, kWidth=k_width)))
        b = shared_operand(dot.b, 1, transposable, dot)
        new = WarpGroupDotOp.build(operands=[a, b, acc, []], result_types=[new_t], properties={
            "inputPrecision": dot.inputPrecision, "maxNumImpreciseAcc": dot.maxNumImpreciseAcc})
        new.location = dot.location
        block.insert_op_before(new, dot)
        back = convert(new.results[0], dot.d.type)
        dot.results[0].replace_all_uses_with(back)
        dot.detach()
        dot.erase()
        for op in old:  # the conversions to the blocked dot operand layouts, now unused
            if op.parent is not None and op.results[0].first_use is None:
                op.detach()
                op.erase()
        return
    k_width = v2_k_width(dot)
    a = convert(dot.a, with_encoding(dot.a.type, DotOperandEncoding.make(opIdx=0, parent=mma, kWidth=k_width)))
    b = convert(dot.b, with_encoding(dot.b.type, DotOperandEncoding.make(opIdx=1, parent=mma, kWidth=k_width)))
    if isinstance(kind, MmaKind) and kind.upcast:  # fp8 before sm89: to f16 in the operand layouts, as Triton's decomposition does
        a, b = (upcast(v, dot) for v in (a, b))
    new = dot.clone()
    new.operands[0], new.operands[1], new.operands[2] = a, b, acc
    new.results[0]._type = new_t
    block.insert_op_before(new, dot)
    back = convert(new.results[0], dot.d.type)
    dot.results[0].replace_all_uses_with(back)
    dot.detach()
    dot.erase()


# ----------------------------------------------------------------------------- MMA v5 (sm100: tcgen05.mma)

VIEW_OPS = ("tt.expand_dims", "tt.reshape", "tt.trans", "tt.join", "tt.split")


def _orig_bits_filter(op: Operation) -> bool:
    """Triton's bwdFilter: pure elementwise ops, views, fp4 upcasts, loads, broadcasts and layout conversions."""
    if op.name in ("tt.elementwise_inline_asm", "tt.extern_elementwise"):
        return bool(op.pure.value.data)
    return is_elementwise(op) or op.name in VIEW_OPS + (
        "ttg.fp4_to_fp", "tt.load", "tt.descriptor_load", "tt.broadcast", "ttg.convert_layout")


def orig_bitwidth(x: SSAValue) -> int:
    """Triton's computeOrigBitWidth: the element width `x` was loaded with (the narrowest loaded tensor in its
    backward slice through `_orig_bits_filter` ops; 4 past a `ttg.fp4_to_fp`), halved when a `tt.join` is in it."""
    seen: list[Operation] = []
    work = [x]
    while work:
        op = work.pop().owner
        if not isinstance(op, Operation) or op in seen or not _orig_bits_filter(op):
            continue
        seen.append(op)
        work.extend(op.operands)
    if any(op.name == "ttg.fp4_to_fp" for op in seen):
        return 4
    bits = bitwidth(elt(x.type))
    for op in seen:
        if op.name in ("tt.load", "tt.descriptor_load") and isinstance(op.results[0].type, TensorType):
            bits = min(bits, bitwidth(elt(op.results[0].type)))
    return bits // 2 if any(op.name == "tt.join" for op in seen) else bits


def supports_mma_v5(dot: Operation, num_warps: int) -> bool:
    """Triton's supportMMA(dot, 5): no integer operand or result, 2-D, 4 or 8 warps (TMEM loads and stores), K at
    least 256 / A's bits, M % 64 == 0 and N % 16 == 0."""
    if any(isinstance(elt(v.type), IntegerType) for v in (dot.a, dot.b, dot.d)):
        return False
    shape = shape_of(dot.d.type)
    return (len(shape) == 2 and num_warps in (4, 8) and shape_of(dot.a.type)[-1] >= 256 // bitwidth(elt(dot.a.type))
            and shape[0] % 64 == 0 and shape[1] % 16 == 0)


def takes_mma_v5(dot: Operation) -> bool:
    """Triton's BlockedToMMAv5 matches: sm100-109, supportMMA(dot, 5), and operands loaded narrower than 32 bits
    or a tf32 dot (an f32 dot of full precision is left as it is, neither v5 nor v2)."""
    if target_capability(dot) // 10 != 10 or not isinstance(encoding(dot.d.type), BlockedEncoding):
        return False
    if not supports_mma_v5(dot, num_warps_of(dot)):
        return False
    return min(orig_bitwidth(dot.a), orig_bitwidth(dot.b)) < 32 or dot.inputPrecision.value.data == INPUT_PRECISION["tf32"]


def left_alone_on_sm100(dot: Operation) -> bool:
    """The dots Triton's BlockedToMMA also gives up on: sm100 picks MMA v5 (supportMMA(dot, 5)) but BlockedToMMAv5
    declined it (a full-precision f32 dot)."""
    return (target_capability(dot) // 10 == 10 and isinstance(encoding(dot.d.type), BlockedEncoding)
            and supports_mma_v5(dot, num_warps_of(dot)) and not takes_mma_v5(dot))


def default_tmem_layout(memdesc, num_warps: int) -> LinearEncoding:
    """Triton's getDefaultLayoutForTmemLdSt as a `#ttg.linear` layout: the 16x256b message's layout when
    TRITON_PREFER_TMEM_16x256_LAYOUT is set and it fits, else the 32x32b one."""
    ll = tmem_layout(memdesc.get_shape(), memdesc.encoding)
    bits = bitwidth(memdesc.element_type)
    out = None
    if os.environ.get("TRITON_PREFER_TMEM_16x256_LAYOUT", "").lower() in ("1", "on", "true", "yes"):
        out = distributed_tmem_layout(ll, num_warps, bits, "16x256b")
    out = out or distributed_tmem_layout(ll, num_warps, bits)
    return LinearEncoding.make(**{k: tuple(out.bases.get(k, ())) for k in ("register", "lane", "warp")}, block=())


def _tmem_type(t, enc, mutable: bool) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape_of(t)])
    return MemDescType(dims, elt(t), enc, TensorMemorySpace(), IntAttr(int(mutable)), dims)


class _At:
    """Builds ops right before `anchor`, with its location."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor

    def __call__(self, cls, operands, result_types, props=None) -> Operation:
        op = build_op(cls, operands, result_types, props or {})
        op.location = self.anchor.location
        self.anchor.parent.insert_op_before(op, self.anchor)
        return op

    def convert(self, v: SSAValue, t) -> SSAValue:
        return self(ConvertLayoutOp, [v], [t]).results[0]

    def true(self) -> SSAValue:
        """`arith.constant true` at the top of the function, or the one already there (Triton's rewriter hoists and
        uniques constants)."""
        func = self.anchor
        while func.name != "tt.func":
            func = func.parent_op()
        entry = func.regions[0].blocks[0]
        for op in entry.ops:
            if op.name == "arith.constant" and op.results[0].type == i1 and op.properties["value"] == IntegerAttr(-1, i1):
                return op.results[0]
        new = build_op(ConstantOp, [], [i1], {"value": IntegerAttr(-1, i1)})
        new.location = self.anchor.location
        entry.insert_op_before(new, entry.first_op)
        return new.results[0]


def _tmem_accumulator(at: _At, dot: Operation, block_m: int, block_n: int):
    """The accumulator moved to TMEM (`#ttng.tensor_memory_encoding<blockM, blockN, colStride = 32 / bits>`): the
    register type it is loaded back in, and the `ttng.tmem_alloc` (with its token)."""
    split_m, split_n = _cta_split(encoding(dot.d.type))
    enc = TensorMemoryEncoding.make(blockM=block_m, blockN=block_n, colStride=32 // bitwidth(elt(dot.d.type)),
                                    CTASplitM=split_m, CTASplitN=split_n)
    mem = _tmem_type(dot.d.type, enc, True)
    acc_t = with_encoding(dot.d.type, default_tmem_layout(mem, num_warps_of(dot)))
    return acc_t, at(TMEMAllocOp, [at.convert(dot.c, acc_t)], [mem, AsyncTokenType()])


def _finish_v5(at: _At, dot: Operation, mma: Operation, acc, acc_t) -> None:
    """`ttng.tmem_load` of the accumulator after `mma`, converted back to the dot's layout, replaces the dot."""
    load = at(TMEMLoadOp, [acc.results[0], mma.results[0]], [acc_t, AsyncTokenType()])
    dot.results[0].replace_all_uses_with(at.convert(load.results[0], dot.d.type))
    _erase_with_operand_conversions(dot)


def _erase_with_operand_conversions(dot: Operation) -> None:
    old = [o.owner for o in dot.operands if isinstance(o.owner, Operation) and o.owner.name == "ttg.convert_layout"]
    dot.detach()
    dot.erase()
    for op in old:  # conversions only the dot used (Triton's greedy driver erases them, dead)
        if op.parent is not None and op.results[0].first_use is None:
            op.detach()
            op.erase()


def rewrite_v5(dot: Operation) -> None:
    """Triton's BlockedToMMAv5: A and B to shared memory (f32 ones K-major: tf32 cannot be read transposed), the
    accumulator to TMEM with blockM = 128 (64 when M < 128) and blockN = min(N, 256), `ttng.tc_gen5_mma`, and a
    `ttng.tmem_load` of the result in the default TMEM layout."""
    transposable = not isinstance(elt(dot.a.type), Float32Type)
    a = shared_operand(dot.a, 0, transposable, None)
    b = shared_operand(dot.b, 1, transposable, None)
    m, n = shape_of(dot.d.type)
    at = _At(dot)
    acc_t, acc = _tmem_accumulator(at, dot, 128 if m >= 128 else 64, min(n, 256))
    true = at.true()
    mma = at(TCGen5MMAOp, [a, b, acc.results[0], acc.results[1], true, true, [], []], [AsyncTokenType()])
    _finish_v5(at, dot, mma, acc, acc_t)


def _smem_scale(scale: SSAValue) -> SSAValue:
    """Triton's addSmemStageToScaleLoad: the load behind `scale` (through reshapes, transposes and layout
    conversions) goes through shared memory (an unswizzled `ttg.local_alloc` and a `ttg.local_load`, which the
    pipeliner later turns into its multi-buffered copy); `scale` itself when no load is found."""
    op, through = scale.owner, False
    while isinstance(op, Operation) and op.name not in ("tt.load", "tt.descriptor_load"):
        if op.name not in ("tt.reshape", "tt.trans", "ttg.convert_layout"):
            return scale
        op, through = op.operands[0].owner, True
    if not isinstance(op, Operation):
        return scale
    loaded = op.results[0]
    enc = NVMMASharedEncoding.make(swizzlingByteWidth=0, transposed=False, elementBitWidth=bitwidth(elt(loaded.type)),
                                   rank=len(shape_of(loaded.type)))
    alloc = _alloc_after(loaded, enc)
    load = build_op(LocalLoadOp, [alloc, None], [loaded.type])
    load.location = op.location
    alloc.owner.parent.insert_op_after(load, alloc.owner)
    loaded.replace_uses_with_if(load.results[0], lambda use: use.operation is not alloc.owner)
    return scale if through else load.results[0]


def takes_scaled_mma_v5(dot: Operation) -> bool:
    """Triton's ScaledBlockedToMMAv5 matches: sm100-109, both scales, 4 or 8 warps, M >= 128 and N >= 16."""
    m, n = shape_of(dot.d.type)[-2:]
    return (target_capability(dot) // 10 == 10 and isinstance(encoding(dot.d.type), BlockedEncoding)
            and dot.a_scale is not None and dot.b_scale is not None and num_warps_of(dot) in (4, 8)
            and m >= 128 and n >= 16)


def rewrite_scaled_v5(dot: Operation) -> None:
    """Triton's ScaledBlockedToMMAv5: `tt.dot_scaled` as `ttng.tc_gen5_mma_scaled`. A and B go to shared memory
    (an e2m1 one K-major, packed along K; padded (`fp4Padded`) when mixed with another format or packed along
    M/N, which also flips its order), the accumulator to TMEM (blockM 128, blockN min(N, 256)), each scale
    through shared memory (`_smem_scale`) into an immutable `#ttng.tensor_memory_scales_encoding` buffer."""
    fa, fb = dot.formats
    k_pack = (dot.lhs_k_pack.value.data, dot.rhs_k_pack.value.data)
    mixed = fa != fb
    a = shared_operand(dot.a, 0, fa != "e2m1", dot, (mixed and fa == "e2m1") or not k_pack[0], not k_pack[0])
    b = shared_operand(dot.b, 1, fb != "e2m1", dot, (mixed and fa != "e2m1" and fb == "e2m1") or not k_pack[1],
                       not k_pack[1])
    at = _At(dot)
    acc_t, acc = _tmem_accumulator(at, dot, 128, min(shape_of(dot.d.type)[1], 256))
    split_m, split_n = _cta_split(encoding(dot.d.type))
    scale_enc = TensorMemoryScalesEncoding.make(CTASplitM=split_m, CTASplitN=split_n)
    num_warps = num_warps_of(dot)
    mems = [_tmem_type(s.type, scale_enc, False) for s in (dot.a_scale, dot.b_scale)]
    regs = [with_encoding(s.type, default_tmem_layout(mem, num_warps)) for s, mem in zip((dot.a_scale, dot.b_scale), mems)]
    scales = [_smem_scale(s) for s in (dot.a_scale, dot.b_scale)]
    scales = [at.convert(s, t) for s, t in zip(scales, regs)]
    scales = [at(TMEMAllocOp, [s], [mem, None]).results[0] for s, mem in zip(scales, mems)]
    true = at.true()
    mma = at(TCGen5MMAScaledOp, [a, b, acc.results[0], acc.results[1], scales[0], scales[1], true, true, [], []],
             [AsyncTokenType()], {"a_type": dot.a_elem_type, "b_type": dot.b_elem_type})
    _finish_v5(at, dot, mma, acc, acc_t)


# ----------------------------------------------------------------------------- scaled MMA v2 (sm120)


def takes_scaled_mma_v2(dot: Operation) -> bool:
    """Triton's ScaledBlockedToMMA matches: sm120, one CTA, both scales, neither in a `#ttg.linear` layout, of one
    element type, and not fp8 with fp4."""
    if target_capability(dot) != 120 or module_int(dot, "ttg.num-ctas", 1) != 1:
        return False
    if dot.a_scale is None or dot.b_scale is None or not isinstance(encoding(dot.d.type), BlockedEncoding):
        return False
    if any(isinstance(encoding(s.type), LinearEncoding) for s in (dot.a_scale, dot.b_scale)):
        return False
    kinds = {"e2m1" if f == "e2m1" else "fp8" if f in ("e4m3", "e5m2") else f for f in dot.formats}
    return kinds != {"e2m1", "fp8"} and elt(dot.a_scale.type) == elt(dot.b_scale.type)


def sm120_scale_layout(shape, op_idx: int, warps) -> LinearEncoding:
    """Triton's getSM120DotScaledScaleLayout (one CTA): a scale tensor (rows x K groups) as mma.sync's block-scaled
    form reads it: every K group in registers, rows over lanes (A: lanes 1, 4, 8, 16 to rows 8, 1, 2, 4; B: lanes
    4, 8, 16 to rows 1, 2, 4), the MMA's warps along the rows broadcast along the other operand's dimension,
    registers covering what is left."""
    d0, d1 = "dim0", "dim1"
    rows = ((8, 0), (0, 0)) if op_idx == 0 else ((0, 0), (0, 0))
    ll = LL.identity(shape[1], "register", d1) * LL.of({"lane": rows + ((1, 0), (2, 0), (4, 0))}, [d0, d1])
    order, w = ((1, 0), warps) if op_idx == 0 else ((0, 1), (warps[1], warps[0]))
    for d in order:
        ll = ll * (LL.zeros(w[d], "warp", (d0, d1)[d]) if d == 1 else LL.identity(w[d], "warp", (d0, d1)[d]))
    for size, name in zip(shape, (d0, d1)):
        if ll.outs.get(name, 1) < size:
            ll = ll * LL.identity(size // ll.outs.get(name, 1), "register", name)
    ll = not_larger_than(ll.transpose_outs([d0, d1]), {d0: shape[0], d1: shape[1]})
    return LinearEncoding.make(**{k: ll.bases.get(k, ()) for k in ("register", "lane", "warp")}, block=())


def rewrite_scaled_v2(dot: Operation) -> None:
    """Triton's ScaledBlockedToMMA: an sm120 `tt.dot_scaled` stays one (mma.sync's block-scaled form) with an MMA
    v2 result, its operands in the MMA's dot operand layouts (kWidth 32 / the narrower operand's bits) and its
    scales in `sm120_scale_layout`."""
    mma = mma_v2(warps_per_tile_v2(dot, shape_of(dot.d.type), num_warps_of(dot)))
    at = _At(dot)
    k_width = max(32 // min(bitwidth(elt(dot.a.type)), bitwidth(elt(dot.b.type))), 1)
    acc = at.convert(dot.c, with_encoding(dot.c.type, mma))
    a, b = (at.convert(v, with_encoding(v.type, DotOperandEncoding.make(opIdx=i, parent=mma, kWidth=k_width)))
            for i, v in enumerate((dot.a, dot.b)))
    scales = [at.convert(s, with_encoding(s.type, sm120_scale_layout(shape_of(s.type), i, list(mma["warpsPerCTA"]))))
              for i, s in enumerate((dot.a_scale, dot.b_scale))]
    props = {k: v for k, v in dot.properties.items() if k != "operandSegmentSizes"}
    new = at(type(dot), [a, b, acc, scales[0], scales[1]], [acc.type], props)
    dot.results[0].replace_all_uses_with(at.convert(new.results[0], dot.d.type))
    dot.detach()
    dot.erase()


def upcast(v, dot: Operation):
    """`tt.fp_to_fp` of fp8 operand `v` to f16, in its layout, before `dot`."""
    from xdsl.dialects.builtin import Float16Type, TensorType

    from ttc.ir.tt import FpToFpOp

    t = TensorType(Float16Type(), v.type.get_shape(), v.type.encoding)
    op = FpToFpOp.create(operands=[v], result_types=[t])
    op.location = dot.location
    dot.parent.insert_op_before(op, dot)
    return op.results[0]


def promote_fma_operands(module: Operation) -> None:
    """Triton's decomposeMixedModeDotOp, its FMA case: a dot left without an MMA layout whose float operands are
    not of the accumulator's type computes in that type, its operands extended (fp8 by `tt.fp_to_fp`)."""
    from xdsl.dialects.arith import ExtFOp

    from ttc.ir.tt import FpToFpOp

    for dot in [op for op in module.walk() if op.name == "tt.dot"]:
        if isinstance(encoding(dot.d.type), NvidiaMmaEncoding):
            continue
        a_elt, d_elt = elt(dot.a.type), elt(dot.d.type)
        if a_elt == d_elt or not (is_float(a_elt) and is_float(d_elt)):
            continue
        for i in (0, 1):
            v = dot.operands[i]
            t = with_encoding(TensorType(d_elt, v.type.get_shape()), encoding(v.type))
            cls = FpToFpOp if bitwidth(elt(v.type)) == 8 else ExtFOp
            ext = cls.create(operands=[v], result_types=[t])
            ext.location = dot.location
            dot.parent.insert_op_before(ext, dot)
            dot.operands[i] = ext.results[0]


def candidates(module: Operation) -> list[Operation]:
    """The dots the pass rewrites, in the order it rewrites them."""
    dots = [op for op in module.walk() if op.name == "tt.dot"]
    return [d for d in reversed(dots) if takes_mma_v5(d) or (
        target_capability(d) >= 80 and not left_alone_on_sm100(d)
        and (supports_mma_v2(d) or (target_capability(d) // 10 == 9 and supports_mma_v3(d, num_warps_of(d)))))]


@dataclass(frozen=True)
class AccelerateMatmul(Pass):
    """Give dots tensor-core layouts: MMA v2 (mma.sync) for every type mma.sync takes on the target; on sm90, MMA v3
    (wgmma) for f16/fp8 -> f32/f16, bf16/tf32 -> f32 and i8 -> i32 dots instead; on sm100, MMA v5 (tcgen05.mma,
    block-scaled too) with the accumulator in tensor memory."""

    name = "tritongpu-accelerate-matmul"
    display = "TritonGPUAccelerateMatmul"
    summary = "Give tt.dot tensor-core layouts: MMA v2 (mma.sync) on sm80-89, MMA v3 (wgmma) on sm90, MMA v5 on sm100"

    def apply(self, ctx, module) -> None:
        for op in [op for op in module.walk() if op.name == "tt.dot_scaled"]:
            if takes_scaled_mma_v5(op):
                rewrite_scaled_v5(op)
            elif takes_scaled_mma_v2(op):
                rewrite_scaled_v2(op)
            else:
                decompose(op)  # no native microscaled dot for it: upcasts and a tt.dot
        for dot in candidates(module):
            if takes_mma_v5(dot):
                rewrite_v5(dot)
            else:
                rewrite(dot, target_capability(dot))
        fold_identity_upcasts(module)
        promote_fma_operands(module)
