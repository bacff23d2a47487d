"""tritongpu-accelerate-matmul: give `tt.dot` a tensor-core (MMA) layout (Triton's TritonGPUAccelerateMatmul, its
MMA v2 path, `mma.sync.aligned.m16n8kK`, on sm80-89, and its MMA v3 path, `wgmma`, on sm90).

A `tt.dot` with a `#ttg.blocked` result in a module whose `ttg.target` is `cuda:80` or later is rewritten when its
types have an mma.sync form on the target (ttc/lowering/mma_v2.py: f16/bf16 -> f32, f16 -> f16, f32 with tf32
precision -> f32, i8 -> i32, fp8 -> f32 on sm89+, e5m2 -> f32 before it as f16 after a `tt.fp_to_fp` in the
operand layouts, as Triton decomposes it) and its M x N x K is a whole number of that instruction's tiles. On sm90
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
and W = 32 / operand bits (2 for 16-bit, 1 for tf32, 4 for 8-bit operands). `warpsPerCTA` is Triton's
warpsPerTileV2: a dot chained with another one
(found in the def-use slice of the dot within its region, not crossing `tt.trans`) takes the other's MMA warps
if it has some, else all warps along its larger dimension; otherwise warps are doubled along M while the 16x8
instruction's repetitions per warp along M are at least those along N (halving them; warps beyond the tile go to
M), else along N. Batched (3-D) dots put all warps on the
batch dimension. `tritongpu-remove-layout-conversions` then propagates the MMA layout (into loops, through the
accumulator) and removes the conversions it can.

Dots are visited in the order of MLIR's greedy pattern driver (last op of the post-order walk first), since the
chained-dot rule depends on which dot was rewritten before.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, BFloat16Type, Float16Type, Float32Type, IntAttr, TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttc.diagnostics import at_op, emit, reported
from ttc.ir.layout_utils import num_warps_of, order_for_memory, target_capability, with_encoding
from ttc.ir.layouts import (BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, NVMMASharedEncoding,
                            SharedMemorySpace)
from ttc.ir.printer import attr_text
from ttc.ir.tt import INPUT_PRECISION
from ttc.ir.types import MemDescType, bitwidth, elt, encoding, is_float, shape_of
from ttc.ir.slices import def_use_slice
from ttc.ir.ttg import ConvertLayoutOp, LocalAllocOp, WarpGroupDotOp
from ttc.lowering.mma_v2 import MmaKind, mma_v2_kind
from ttc.passes.decompose_scaled_dot import decompose, fold_identity_upcasts
from ttc.passmanager import Pass

INSTR_SHAPE = (16, 8)  # mma.sync m16n8(k16): M x N per instruction


def mma_kind(dot: Operation) -> MmaKind | str | None:
    """The mma.sync instruction `dot` runs on (ttc/lowering/mma_v2.py), a sentence saying why none, or None when
    the dot is not for this pass (no blocked result, a target before sm80)."""
    capability = target_capability(dot)
    if not isinstance(encoding(dot.d.type), BlockedEncoding) or capability < 80:
        return None
    a, b, d = shape_of(dot.a.type), shape_of(dot.b.type), shape_of(dot.d.type)
    return mma_v2_kind(elt(dot.a.type), elt(dot.b.type), elt(dot.d.type), dot.inputPrecision.value.data, capability,
                       (d[-2], d[-1], a[-1]))


def supports_mma_v2(dot: Operation) -> bool:
    return isinstance(mma_kind(dot), MmaKind)


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


def nvmma_shared(shape, order, element) -> NVMMASharedEncoding:
    """Triton's NVMMASharedEncodingAttr::get for a 2-D operand of `shape` stored in `order`."""
    bits = bitwidth(element)
    row_bytes = shape[order[0]] * bits // 8
    swizzle = next((w for w in (128, 64, 32) if row_bytes >= w and row_bytes % w == 0), 0)
    return NVMMASharedEncoding.make(swizzlingByteWidth=swizzle, transposed=order[0] == 0, elementBitWidth=bits)


def comes_from_load_or_block_arg(v: SSAValue) -> bool:
    """Triton's comesFromLoadOrBlockArg: through layout conversions, transposes and memdesc views, a load or a block
    argument."""
    while isinstance(v.owner, Operation) and v.owner.name in (
            "ttg.convert_layout", "tt.trans", "ttg.memdesc_trans", "ttg.memdesc_index", "ttg.memdesc_subslice",
            "ttg.memdesc_reshape", "ttg.memdesc_reinterpret"):
        v = v.owner.operands[0]
    return isinstance(v, BlockArgument) or v.owner.name in ("tt.load", "tt.descriptor_load", "tt.descriptor_gather")


def shared_operand(v: SSAValue, op_idx: int, transposable: bool, dot: Operation) -> SSAValue:
    """Triton's getSharedMemoryMMAOperand: a `ttg.local_alloc` of the value before its layout conversions (all of
    them: a transposed value keeps its transposed order in memory), put right after it, stored in Triton's getOrderForMemory of its layout. Where wgmma's K-major order is forced on
    an operand whose registers have the other order, a warning at the dot says so, in Triton's words."""
    while isinstance(v.owner, Operation) and v.owner.name == "ttg.convert_layout":
        v = v.owner.operands[0]
    shape = shape_of(v.type)
    order = order_for_memory(shape, encoding(v.type))
    if not transposable:
        forced = [0, 1] if op_idx == 1 else [1, 0]
        if forced != order and reported("warning"):
            emit(at_op(dot, None, f"Warning: Forcing a different order [{forced[0]}, {forced[1]}] on SMEM than the "
                                  f"register order for the operand {op_idx}. Registers will be transposed before "
                                  "SMEM store and the pipelined load for this operand will be disabled, so poor "
                                  "performance is expected. Recommendation: consider transposing the operand in "
                                  "global memory to remove the need to transpose the tensor in registers.",
                       "warning"))
        order = forced
    dims = ArrayAttr([IntAttr(d) for d in shape])
    t = MemDescType(dims, elt(v.type), nvmma_shared(shape, order, elt(v.type)), SharedMemorySpace(), IntAttr(0), dims)
    alloc = LocalAllocOp.build(operands=[[v]], result_types=[t])
    alloc.location = v.owner.location if isinstance(v.owner, Operation) else v.owner.parent_op().location
    if isinstance(v, BlockArgument):
        v.owner.insert_op_before(alloc, v.owner.first_op)
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
        if op is dot or op.name != "tt.dot":
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
    a = convert(dot.a, with_encoding(dot.a.type, DotOperandEncoding.make(opIdx=0, parent=mma, kWidth=kind.k_width)))
    b = convert(dot.b, with_encoding(dot.b.type, DotOperandEncoding.make(opIdx=1, parent=mma, kWidth=kind.k_width)))
    if kind.upcast:  # fp8 before sm89: to f16 in the operand layouts, as Triton's decomposition does
        a, b = (upcast(v, dot) for v in (a, b))
    new = dot.clone()
    new.operands[0], new.operands[1], new.operands[2] = a, b, acc
    new.results[0]._type = new_t
    block.insert_op_before(new, dot)
    back = convert(new.results[0], dot.d.type)
    dot.results[0].replace_all_uses_with(back)
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
    return [d for d in reversed(dots) if target_capability(d) >= 80
            and (supports_mma_v2(d) or (target_capability(d) // 10 == 9 and supports_mma_v3(d, num_warps_of(d))))]


@dataclass(frozen=True)
class AccelerateMatmul(Pass):
    """Give dots tensor-core layouts: MMA v2 (mma.sync) for every type mma.sync takes on the target; on sm90, MMA v3
    (wgmma) for f16/fp8 -> f32/f16, bf16/tf32 -> f32 and i8 -> i32 dots instead."""

    name = "tritongpu-accelerate-matmul"
    display = "TritonGPUAccelerateMatmul"
    summary = "Give tt.dot tensor-core layouts: MMA v2 (mma.sync) on sm80-89, MMA v3 (wgmma) on sm90"

    def apply(self, ctx, module) -> None:
        for op in [op for op in module.walk() if op.name == "tt.dot_scaled"]:
            decompose(op)  # no native microscaled dots before sm100: upcasts and a tt.dot
        for dot in candidates(module):
            rewrite(dot, target_capability(dot))
        fold_identity_upcasts(module)
        promote_fma_operands(module)
