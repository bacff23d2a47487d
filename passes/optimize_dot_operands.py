"""tritongpu-optimize-dot-operands: cheaper dot operands (Triton's TritonGPUOptimizeDotOperands).

The module is canonicalized first, then these patterns run greedily with the `ttg.convert_layout`
canonicalization patterns (as Triton's pass does):

- FuseTransMMAV3Plus: a wgmma operand written to shared memory from a register transpose,

      %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<KxN, #blocked> -> tensor<NxK, #blocked1>
      %m = ttg.local_alloc %t : (tensor<NxK, #blocked1>) -> !ttg.memdesc<NxK, #shared1, #smem>   (one wgmma use)

  stores the untransposed tensor and transposes the descriptor instead; the inner buffer's layout is the
  transpose of the old one (the nvmma_shared layout with `transposed` flipped):

      %s = ttg.local_alloc %x : (tensor<KxN, #blocked>) -> !ttg.memdesc<KxN, #shared, #smem>
      %m = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : ... -> !ttg.memdesc<NxK, #shared1, #smem>

- SwizzleShmemConvert: an operand of a register `tt.dot` (one use) converted from a 2-D transpose,
  `convert_layout(tt.trans(x))`, goes through shared memory instead: `x` is stored in the swizzled layout for the
  dot operand computed before the transpose (Triton's builder with needTrans, in the getOrderForMemory of x, or
  of the source of a conversion defining x), and the transposed descriptor is loaded in the operand's layout:

      %s = ttg.local_alloc %x : ... -> !ttg.memdesc<KxM, #shared, #smem>
      %v = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : ... -> !ttg.memdesc<MxK, #shared1, #smem>
      %a = ttg.local_load %v : ... -> tensor<MxK, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>

Not yet: ReshapeMemDesc (needs `ttg.memdesc_reshape`) and UseShmemForScales (tensor memory).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntAttr, i32

from ttc.greedy_rewrite import apply_tritongpu_patterns
from ttc.ir.layout_utils import order_for_memory, trans_encoding
from ttc.ir.layouts import (BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, SharedMemorySpace,
                            SwizzledSharedEncoding)
from ttc.ir.pipelined_loads import mma_v2_shared_layout
from ttc.ir.ttg import LocalAllocOp, LocalLoadOp, MemDescTransOp
from ttc.ir.types import MemDescType, bitwidth, elt, encoding, shape_of
from ttc.passes.remove_layout_conversions import CONVERT_PATTERNS
from ttc.passmanager import Pass


def _memdesc(shape, element, enc, alloc_shape=None) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape])
    alloc = ArrayAttr([IntAttr(d) for d in alloc_shape]) if alloc_shape is not None else dims
    return MemDescType(dims, element, enc, SharedMemorySpace(), IntAttr(0), alloc)


def _trans_of_2d(op) -> bool:
    return getattr(op, "name", None) == "tt.trans" and list(op.order.get_values()) == [1, 0]


def _memdesc_trans(src, location):
    """`ttg.memdesc_trans` of 2-D buffer `src` by [1, 0], its type as Triton infers it."""
    t = src.type
    shape, alloc = [d.data for d in t.shape.data], [d.data for d in t.alloc_shape.data]
    rt = MemDescType(ArrayAttr([IntAttr(d) for d in shape[::-1]]), t.element_type,
                     trans_encoding(t.encoding, [1, 0], shape), t.memory_space, t.mutable,
                     ArrayAttr([IntAttr(d) for d in alloc[:-2] + alloc[-2:][::-1]]))
    op = MemDescTransOp.build(operands=[src], result_types=[rt],
                              properties={"order": DenseArrayBase.from_list(i32, [1, 0])})
    op.location = location
    return op


def fuse_trans_mmav3(alloc, rw) -> bool:
    if not alloc.operands or len(list(alloc.results[0].uses)) != 1:
        return False
    if next(iter(alloc.results[0].uses)).operation.name != "ttng.warp_group_dot":
        return False
    trans = alloc.operands[0].owner
    if not _trans_of_2d(trans):
        return False
    x = trans.operands[0]
    inner_enc = trans_encoding(alloc.results[0].type.encoding, [1, 0])
    if inner_enc is None:
        return False
    inner = LocalAllocOp.build(operands=[[x]], result_types=[_memdesc(shape_of(x.type), elt(x.type), inner_enc)])
    inner.location = alloc.location
    rw.insert_before(inner, alloc)
    new = _memdesc_trans(inner.results[0], alloc.location)
    rw.insert_before(new, alloc)
    rw.replace_op(alloc, new.results)
    return True


def swizzle_shmem_convert(cvt, rw) -> bool:
    uses = list(cvt.results[0].uses)
    if len(uses) != 1 or uses[0].operation.name != "tt.dot":
        return False
    trans = cvt.operands[0].owner
    if not _trans_of_2d(trans):
        return False
    src = trans.operands[0]
    src_t = src.owner.operands[0].type if getattr(src.owner, "name", None) == "ttg.convert_layout" else src.type
    dot_enc = encoding(cvt.results[0].type)
    if not isinstance(dot_enc, DotOperandEncoding):
        return False
    shape, parent = shape_of(src_t), dot_enc["parent"]
    order = order_for_memory(shape, encoding(src_t))
    if isinstance(parent, NvidiaMmaEncoding) and parent["versionMajor"] in (2, 3):
        shared = mma_v2_shared_layout(shape, order, bitwidth(elt(src_t)), dot_enc["opIdx"], dot_enc["kWidth"],
                                      need_trans=True)
    elif isinstance(parent, BlockedEncoding):
        shared = SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=order)
    else:
        return False
    alloc = LocalAllocOp.build(operands=[[src]], result_types=[_memdesc(shape, elt(src_t), shared)])
    alloc.location = trans.location
    rw.insert_before(alloc, trans)
    view = _memdesc_trans(alloc.results[0], trans.location)
    rw.insert_before(view, trans)
    load = LocalLoadOp.create(operands=[view.results[0]], result_types=[cvt.results[0].type])
    load.location = trans.location
    rw.insert_before(load, trans)
    rw.set_operands(cvt, [load.results[0]])
    return True


PATTERNS = {**CONVERT_PATTERNS,
            "ttg.convert_layout": [swizzle_shmem_convert, *CONVERT_PATTERNS["ttg.convert_layout"]],
            "ttg.local_alloc": [fuse_trans_mmav3, *CONVERT_PATTERNS["ttg.local_alloc"]]}


@dataclass(frozen=True)
class OptimizeDotOperands(Pass):
    """Fold register transposes of dot operands into shared-memory descriptor transposes."""

    name = "tritongpu-optimize-dot-operands"
    display = "TritonGPUOptimizeDotOperands"
    summary = "Transposed dot operands through shared memory: memdesc_trans(local_alloc(x)) instead of tt.trans(x)"

    def apply(self, ctx, module) -> None:
        from ttc.passes.canonicalize import Canonicalize

        Canonicalize().apply(ctx, module)
        apply_tritongpu_patterns(module, PATTERNS)
