"""tritongpu-reduce-data-duplication: route conversions to dot-operand layouts through shared memory explicitly
(Triton's TritonGPUReduceDataDuplication).

A `ttg.convert_layout` from a register layout to a `#ttg.dot_op` layout that cannot be done by moving registers
(or lanes) becomes a `ttg.local_alloc` of the source into a swizzled shared buffer and a `ttg.local_load` of it in
the dot-operand layout, so each element is stored once however many threads need it. The shared layout is stored
in Triton's getOrderForMemory of the source; for dot operands of a blocked (FMA) parent it is not swizzled
(`vec = perPhase = maxPhase = 1`), for operands of an MMA v2/v3 parent it is Triton's swizzle for that operand
(ttc.passes.pipeliner.loads.mma_v2_shared_layout). Operands of other parents are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, IntAttr

from ttc.ir.layout_utils import cvt_dims, order_for_memory
from ttc.ir.layouts import (BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, SharedMemorySpace,
                            SwizzledSharedEncoding)
from ttc.passes.pipeliner.loads import mma_v2_shared_layout
from ttc.ir.ttg import LocalAllocOp, LocalLoadOp
from ttc.ir.types import bitwidth, encoding
from ttc.ir.memdesc import MemDescType
from ttc.opt.passmanager import Pass


def memdesc(shape, element, enc, mutable: bool = False) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape])
    return MemDescType(dims, element, enc, SharedMemorySpace(), IntAttr(int(mutable)), dims)


def rewrite(cvt) -> bool:
    src_t, dst_t = cvt.operands[0].type, cvt.results[0].type
    src_enc, dst_enc = encoding(src_t), encoding(dst_t)
    if not isinstance(dst_enc, DotOperandEncoding) or src_enc is None:
        return False
    parent = dst_enc["parent"]
    mma = isinstance(parent, NvidiaMmaEncoding) and parent["versionMajor"] in (2, 3)
    if not (isinstance(parent, BlockedEncoding) or mma):
        return False
    if cvt_dims(src_t, dst_t) in ([], ["register"]):  # Triton's cvtReordersRegisters
        return False
    shape = list(src_t.get_shape())
    order = order_for_memory(shape, src_enc)
    if mma:
        shared = mma_v2_shared_layout(shape, order, bitwidth(src_t.element_type), dst_enc["opIdx"], dst_enc["kWidth"])
    else:
        shared = SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=order)
    alloc = LocalAllocOp.create(operands=[cvt.operands[0]],
                                result_types=[memdesc(src_t.get_shape(), src_t.element_type, shared)])
    load = LocalLoadOp.create(operands=[alloc.results[0]], result_types=[dst_t])
    alloc.location = load.location = cvt.location
    cvt.parent.insert_op_before(alloc, cvt)
    cvt.parent.insert_op_before(load, cvt)
    cvt.results[0].replace_all_uses_with(load.results[0])
    cvt.detach()
    cvt.erase()
    return True


@dataclass(frozen=True)
class ReduceDataDuplication(Pass):
    """Convert conversions to dot operand layouts into shared-memory round trips."""

    name = "tritongpu-reduce-data-duplication"
    display = "TritonGPUReduceDataDuplication"
    summary = "Route conversions to dot-operand layouts through shared memory (local_alloc + local_load)"

    def apply(self, ctx, module) -> None:
        for op in [o for o in module.walk() if o.name == "ttg.convert_layout"]:
            rewrite(op)
