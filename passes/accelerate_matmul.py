"""tritongpu-accelerate-matmul: give `tt.dot` a tensor-core (MMA) layout (Triton's TritonGPUAccelerateMatmul,
its MMA v2 path: `mma.sync.aligned.m16n8kK`, as Triton uses on sm80/sm89; it is used on sm90 too, where Triton
picks MMA v3 / wgmma, which make-ttgir does not produce).

Each `tt.dot` with a `#ttg.blocked` result, in a module whose `ttg.target` is `cuda:80` or later, whose types have
an mma.sync form on the target (ttc/lowering/mma_v2.py: f16/bf16 -> f32, f16 -> f16, f32 with tf32 precision ->
f32, i8 -> i32, fp8 -> f32 on sm89+, e5m2 -> f32 before it as f16 after a `tt.fp_to_fp` in the operand
layouts, as Triton decomposes it) and whose M x N x K is a whole number of that instruction's tiles, is
rewritten as Triton's BlockedToMMA pattern does:

    %acc' = ttg.convert_layout %acc : #blocked -> #mma
    %a'   = ttg.convert_layout %a : #ttg.dot_op<{opIdx = 0, parent = #blocked}> -> #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = W}>
    %b'   = ttg.convert_layout %b : ... -> #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = W}>
    %d'   = tt.dot %a', %b', %acc' : ... -> #mma
    %d    = ttg.convert_layout %d' : #mma -> #blocked

with `#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [wm, wn], instrShape = [16, 8]}>`
and W = 32 / operand bits (2 for 16-bit, 1 for tf32, 4 for 8-bit operands). `warpsPerCTA` is Triton's
warpsPerTileV2: a dot chained with another one
(found in the def-use slice of the dot within its region, not crossing `tt.trans`) takes the other's MMA warps
if it has some, else all warps along its larger dimension; otherwise warps are doubled along M while M / 16 per
warp is at least N / 16 per warp (and M has 16-row tiles left to split), else along N. Batched (3-D) dots put all warps on the
batch dimension. `tritongpu-remove-layout-conversions` then propagates the MMA layout (into loops, through the
accumulator) and removes the conversions it can.

Dots are visited in the order of MLIR's greedy pattern driver (last op of the post-order walk first), since the
chained-dot rule depends on which dot was rewritten before.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from ttc.ir.layout_utils import num_warps_of, with_encoding
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding
from ttc.ir.types import elt, encoding, shape_of
from ttc.ir.slices import def_use_slice
from ttc.lowering.mma_v2 import MmaKind, mma_v2_kind
from ttc.ir.ttg import ConvertLayoutOp
from ttc.passmanager import Pass

INSTR_SHAPE = (16, 8)  # mma.sync m16n8(k16): M x N per instruction


def target_capability(op: Operation) -> int:
    """The compute capability of the module's `ttg.target` (`cuda:90` -> 90; 0 when not cuda)."""
    while op is not None and op.name != "builtin.module":
        op = op.parent_op()
    a = op.attributes.get("ttg.target") if op is not None else None
    if not isinstance(a, StringAttr) or not a.data.startswith("cuda:"):
        return 0
    try:
        return int(a.data.split(":")[1])
    except ValueError:
        return 0


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
    warps = [1, 1]
    per_warp = INSTR_SHAPE
    while warps[0] * warps[1] < num_warps:
        if shape[0] // per_warp[0] // warps[0] >= shape[1] // (per_warp[1] * 2) // warps[1]:
            if warps[0] < shape[0] // per_warp[0]:
                warps[0] *= 2
            else:
                warps[1] *= 2
        else:
            warps[1] *= 2
    return warps


def mma_v2(warps: list[int]) -> NvidiaMmaEncoding:
    instr = [1] * (len(warps) - 2) + list(INSTR_SHAPE)
    return NvidiaMmaEncoding.make(versionMajor=2, versionMinor=0, warpsPerCTA=warps, instrShape=instr)


def rewrite(dot: Operation) -> None:
    shape = shape_of(dot.d.type)
    mma = mma_v2(warps_per_tile_v2(dot, shape, num_warps_of(dot)))
    block = dot.parent

    def convert(v, t):
        cvt = ConvertLayoutOp.create(operands=[v], result_types=[t])
        cvt.location = dot.location
        block.insert_op_before(cvt, dot)
        return cvt.results[0]

    kind = mma_kind(dot)
    new_t = with_encoding(dot.d.type, mma)
    acc = convert(dot.c, new_t)
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


def candidates(module: Operation) -> list[Operation]:
    """The dots the pass rewrites, in the order it rewrites them."""
    dots = [op for op in module.walk() if op.name == "tt.dot"]
    return [d for d in reversed(dots) if supports_mma_v2(d)]


@dataclass(frozen=True)
class AccelerateMatmul(Pass):
    """Give dots MMA v2 (tensor-core) layouts."""

    name = "tritongpu-accelerate-matmul"
    display = "TritonGPUAccelerateMatmul"
    summary = "Give tt.dot tensor-core layouts (MMA v2: mma.sync m16n8k8/k16/k32) on sm80 and later"

    def apply(self, ctx, module) -> None:
        for dot in candidates(module):
            rewrite(dot)
