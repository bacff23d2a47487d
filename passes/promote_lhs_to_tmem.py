"""tritongpu-promote-lhs-to-tmem: feed an MMA v5's A operand from tensor memory instead of shared memory (Triton's
PromoteLHSToTMem).

For each `ttng.tc_gen5_mma[_scaled]` whose A operand is a `ttg.local_alloc` of a 16- or 32-bit tensor made in
the MMA's region: A goes to an immutable `ttng.tmem_alloc` of the same tensor, right after the local_alloc
(which, unused, is then erased). The TMEM encoding is the accumulator's blockM (and twoCTAs), blockN = A's
column count, colStride 1, CTA splits from the tensor's CGA layout. When tcgen05.st cannot store the tensor's
register layout, the tensor is first converted (`ttg.convert_layout`) to the default TMEM load/store layout
(`default_tmem_layout`, Triton's getDefaultLayoutForTmemLdSt with the 32x32b message), unless it comes (through
layout conversions, transposes and memdesc views) from a load or a block argument: then the MMA stays as it is.
The rewrites run under MLIR's greedy driver, which also folds, dedups constants and erases dead ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, IntAttr
from xdsl.ir import Operation

from ttc.opt.greedy_rewrite import GreedyDriver, Rewriter, fold_in_place
from ttc.ir.format import build_op
from ttc.ir.layouts import LinearEncoding
from ttc.ir.tmem import TMEMAllocOp, _cta_split, layout_fits_tmem
from ttc.ir.tmem_attrs import TensorMemoryEncoding, TensorMemorySpace
from ttc.ir.tmem_layout import distributed_tmem_layout, tmem_layout
from ttc.ir.ttg import ConvertLayoutOp
from ttc.ir.layout_utils import with_encoding
from ttc.ir.types import bitwidth, elt, encoding
from ttc.ir.memdesc import MemDescType
from ttc.ir.warp_specialize import lookup_num_warps
from ttc.passes.accelerate_matmul import comes_from_load_or_block_arg
from ttc.opt.passmanager import Pass

# ----------------------------------------------------------------------------- the default TMEM ld/st layout


def default_tmem_layout(memdesc, num_warps: int) -> LinearEncoding | None:
    """Triton's getDefaultLayoutForTmemLdSt (32x32b) as a `#ttg.linear` layout (one CTA)."""
    ll = distributed_tmem_layout(tmem_layout(memdesc.get_shape(), memdesc.encoding), num_warps,
                                 bitwidth(memdesc.element_type))
    if ll is None:
        return None
    fields = {k: tuple(ll.bases.get(k, ())) for k in ("register", "lane", "warp")}
    return LinearEncoding.make(**fields, block=())


# ----------------------------------------------------------------------------- the pattern


def promote(mma: Operation, rw: Rewriter) -> bool:
    alloc = mma.a.owner
    if not (isinstance(alloc, Operation) and alloc.name == "ttg.local_alloc" and alloc.src is not None):
        return False
    if alloc.parent_region() is not mma.parent_region():
        return False
    src = alloc.src
    element = elt(src.type)
    if bitwidth(element) not in (16, 32):  # not fp8 (nor others)
        return False
    acc = mma.d.type.encoding
    if not isinstance(acc, TensorMemoryEncoding):
        return False
    shape = tuple(mma.a.type.get_shape())
    split_m, split_n = _cta_split(encoding(src.type))
    enc = TensorMemoryEncoding.make(blockM=acc["blockM"], blockN=shape[1], colStride=1, CTASplitM=split_m,
                                    CTASplitN=split_n, twoCTAs=acc["twoCTAs"])
    dims = ArrayAttr([IntAttr(d) for d in shape])
    t = MemDescType(dims, element, enc, TensorMemorySpace(), IntAttr(0), dims)
    if not layout_fits_tmem(mma, src.type, t):
        if comes_from_load_or_block_arg(src):
            return False
        num_warps = lookup_num_warps(mma) or 4
        layout = default_tmem_layout(t, num_warps)
        if layout is None:
            return False
        cvt = build_op(ConvertLayoutOp, [src], [with_encoding(src.type, layout)])
        cvt.location = mma.location
        rw.driver.inserted(_after(cvt, alloc))
        src = cvt.results[0]
        anchor = cvt
    else:
        anchor = alloc
    tmem = build_op(TMEMAllocOp, [src], [t, None])
    tmem.location = mma.location
    rw.driver.inserted(_after(tmem, anchor))
    mma.operands = [tmem.result, *mma.operands[1:]]
    return True


def _after(new: Operation, anchor: Operation) -> Operation:
    anchor.parent.insert_op_after(new, anchor)
    return new


@dataclass(frozen=True)
class PromoteLHSToTMem(Pass):
    """Move the A operand of MMA v5 ops from shared memory to tensor memory."""

    name = "tritongpu-promote-lhs-to-tmem"
    display = "TritonNvidiaGPUPromoteLHSToTMemPass"
    summary = "Promote LHS operand of MMAv5 op to Tensor Memory"

    def apply(self, ctx, module) -> None:
        patterns = {"ttng.tc_gen5_mma": [promote], "ttng.tc_gen5_mma_scaled": [promote]}
        for region in module.regions:
            GreedyDriver(patterns, fold_in_place=fold_in_place).run(region)
