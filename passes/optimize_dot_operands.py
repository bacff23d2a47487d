"""tritongpu-optimize-dot-operands: cheaper dot operands (Triton's TritonGPUOptimizeDotOperands).

The module is canonicalized first, then these patterns run greedily with the `ttg.convert_layout`
canonicalization patterns (as Triton's pass does):

- FuseTransMMAV3Plus: a wgmma (or tcgen05 MMA) operand written to shared memory from a register transpose,

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

- ReshapeMemDesc: `local_alloc(tt.reshape(x))` stores x in the nvmma_shared layout that reshapes to the old
  buffer's (MemDescReshapeOp's type inference run backwards) and reshapes the descriptor (`ttg.memdesc_reshape`).

- UseShmemForScales: a `ttng.tc_gen5_mma_scaled` scale in tensor memory filled from registers that only
  re-arranged blocked scales loaded from shared memory reads them from the shared buffer through the same
  reshape / transpose / reshape views (`ttg.memdesc_reshape`, `ttg.memdesc_trans`), when the buffer keeps 512
  consecutive scales contiguous (and, unless a descriptor load filled it, is 2-D with rows of whole 32x128-bit
  chunks).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntAttr, i32

from ttc.opt.greedy_rewrite import apply_tritongpu_patterns
from ttc.ir.layout_utils import order_for_memory, trans_encoding
from ttc.ir.layouts import (BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, NVMMASharedEncoding,
                            SharedMemorySpace, SwizzledSharedEncoding)
from ttc.ir.shared_ll import UnsupportedSharedLayout, infer_reshape, infer_trans_encoding, is_innermost_contiguous
from ttc.ir.tmem_attrs import TensorMemoryScalesEncoding
from ttc.ir.ttg_extra import MemDescReshapeOp
from ttc.passes.pipeliner.loads import mma_v2_shared_layout
from ttc.ir.ttg import LocalAllocOp, LocalLoadOp, MemDescTransOp
from ttc.ir.types import bitwidth, elt, encoding, shape_of
from ttc.ir.memdesc import MemDescType
from ttc.ir.convert_layout_patterns import CONVERT_PATTERNS
from ttc.opt.passmanager import Pass


MMA_V3_PLUS = ("ttng.warp_group_dot", "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")  # they transpose in memory


def _memdesc(shape, element, enc, alloc_shape=None) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape])
    alloc = ArrayAttr([IntAttr(d) for d in alloc_shape]) if alloc_shape is not None else dims
    return MemDescType(dims, element, enc, SharedMemorySpace(), IntAttr(0), alloc)


def _trans_of_2d(op) -> bool:
    return getattr(op, "name", None) == "tt.trans" and list(op.order.get_values()) == [1, 0]


def _memdesc_trans(src, location, order=(1, 0)):
    """`ttg.memdesc_trans` of buffer `src` by `order`, its type as Triton infers it."""
    t, order = src.type, list(order)
    shape, alloc = list(t.get_shape()), list(t.get_alloc_shape())
    enc = trans_encoding(t.encoding, order, shape)
    if enc is None or not isinstance(enc, (SwizzledSharedEncoding, NVMMASharedEncoding)):
        enc = infer_trans_encoding(shape, t.encoding, order)
    lead = len(alloc) - len(order)
    rt = MemDescType(ArrayAttr([IntAttr(shape[o]) for o in order]), t.element_type, enc, t.memory_space, t.mutable,
                     ArrayAttr([IntAttr(d) for d in alloc[:lead]] + [IntAttr(alloc[lead + o]) for o in order]))
    op = MemDescTransOp.build(operands=[src], result_types=[rt],
                              properties={"order": DenseArrayBase.from_list(i32, order)})
    op.location = location
    return op


def _memdesc_reshape(src, shape, location):
    op = MemDescReshapeOp.create(operands=[src], result_types=[infer_reshape(src.type, tuple(shape))])
    op.location = location
    return op


def _through_converts(v, name):
    """The op named `name` defining `v`, looking through layout conversions (Triton's getNextOp)."""
    while getattr(v.owner, "name", None) == "ttg.convert_layout":
        v = v.owner.operands[0]
    return v.owner if getattr(v.owner, "name", None) == name else None


def _scales_from_shared(mma, idx: int, rw) -> bool:
    """UseShmemForScales for one scale operand of `mma`: tensor memory filled from registers that only re-arranged
    blocked scales loaded from shared memory (local_load, reshape to (MN / 128, K / 4, 32, 4, 4), transpose
    (0, 3, 2, 1, 4), reshape back) reads the shared buffer through the same views instead (tcgen05.cp)."""
    tmem = mma.operands[idx].owner
    if getattr(tmem, "name", None) != "ttng.tmem_alloc" or tmem.src is None:
        return False
    mn, n_scales = tmem.result.type.get_shape()
    order, shape5 = [0, 3, 2, 1, 4], [mn // 128, n_scales // 4, 32, 4, 4]
    r2 = _through_converts(tmem.src, "tt.reshape")
    if r2 is None or list(shape_of(r2.results[0].type)) != [mn, n_scales]:
        return False
    tr = _through_converts(r2.operands[0], "tt.trans")
    if tr is None or list(tr.order.get_values()) != order:
        return False
    r5 = _through_converts(tr.operands[0], "tt.reshape")
    if r5 is None or list(shape_of(r5.results[0].type)) != shape5:
        return False
    load = _through_converts(r5.operands[0], "ttg.local_load")
    if load is None:
        return False
    alloc = _through_converts(load.operands[0], "ttg.local_alloc")
    tma = alloc is not None and alloc.operands and _through_converts(alloc.operands[0], "tt.descriptor_load") is not None
    buf = load.operands[0].type
    shape = list(buf.get_shape())
    try:
        if not is_innermost_contiguous(shape, buf.encoding, 512):
            return False
    except UnsupportedSharedLayout:
        return False
    if not tma and (len(shape) != 2 or shape[-1] * bitwidth(buf.element_type) % (32 * 128) != 0):
        return False
    try:
        views = [_memdesc_reshape(load.operands[0], shape5, r5.location)]
        views.append(_memdesc_trans(views[0].results[0], tr.location, order))
        views.append(_memdesc_reshape(views[1].results[0], [mn, n_scales], r2.location))
    except UnsupportedSharedLayout:
        return False
    for v in views:
        rw.insert_before(v, tmem)
    rw.set_operands(mma, [views[-1].results[0] if i == idx else v for i, v in enumerate(mma.operands)])
    rw.erase(tmem)
    return True


def use_shmem_for_scales(mma, rw) -> bool:
    changed = False
    for name in ("a_scale", "b_scale"):
        v = getattr(mma, name)
        if isinstance(v.type.encoding, TensorMemoryScalesEncoding):
            idx = next(i for i, o in enumerate(mma.operands) if o is v)
            changed |= _scales_from_shared(mma, idx, rw)
    return changed


def fuse_trans_mmav3(alloc, rw) -> bool:
    if not alloc.operands or len(list(alloc.results[0].uses)) != 1:
        return False
    if next(iter(alloc.results[0].uses)).operation.name not in MMA_V3_PLUS:
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


def reshape_memdesc(alloc, rw) -> bool:
    """ReshapeMemDesc: local_alloc(tt.reshape(x)) stores x in the layout that reshapes (as a view) to the old
    buffer's, when that is an nvmma_shared layout, and reshapes the descriptor instead."""
    if not alloc.operands or getattr(alloc.operands[0].owner, "name", None) != "tt.reshape":
        return False
    reshape = alloc.operands[0].owner
    x = reshape.operands[0]
    try:
        inner_t = infer_reshape(alloc.results[0].type, shape_of(x.type))
    except UnsupportedSharedLayout:
        return False
    if not isinstance(inner_t.encoding, NVMMASharedEncoding):
        return False
    inner = LocalAllocOp.build(operands=[[x]], result_types=[inner_t])
    inner.location = alloc.location
    rw.insert_before(inner, alloc)
    view = MemDescReshapeOp.create(operands=[inner.results[0]], result_types=[alloc.results[0].type])
    view.location = alloc.location
    rw.insert_before(view, alloc)
    rw.replace_op(alloc, view.results)
    return True


PATTERNS = {**CONVERT_PATTERNS,
            "ttg.convert_layout": [swizzle_shmem_convert, *CONVERT_PATTERNS["ttg.convert_layout"]],
            "ttg.local_alloc": [fuse_trans_mmav3, reshape_memdesc, *CONVERT_PATTERNS["ttg.local_alloc"]],
            "ttng.tc_gen5_mma_scaled": [use_shmem_for_scales]}


@dataclass(frozen=True)
class OptimizeDotOperands(Pass):
    """Fold register transposes of dot operands into shared-memory descriptor transposes."""

    name = "tritongpu-optimize-dot-operands"
    display = "TritonGPUOptimizeDotOperands"
    summary = "Transposed dot operands through shared memory: memdesc_trans(local_alloc(x)) instead of tt.trans(x)"

    def apply(self, ctx, module) -> None:
        from ttc.passes.canonicalize import Canonicalize

        drivers: list = []
        Canonicalize().drive(module, drivers)
        apply_tritongpu_patterns(module, PATTERNS, after=drivers)  # nothing changed the IR since canonicalize
