"""tritongpu-optimize-dot-operands: cheaper dot operands (Triton's TritonGPUOptimizeDotOperands, its
FuseTransMMAV3Plus pattern: the one that applies to the kernels ttc compiles).

A wgmma operand written to shared memory from a register transpose,

    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<KxN, #blocked> -> tensor<NxK, #blocked1>
    %m = ttg.local_alloc %t : (tensor<NxK, #blocked1>) -> !ttg.memdesc<NxK, #shared1, #smem>   (used by one wgmma)

stores the untransposed tensor and transposes the descriptor instead (f16/bf16 only: wgmma transposes no other
type in shared memory):

    %s = ttg.local_alloc %x : (tensor<KxN, #blocked>) -> !ttg.memdesc<KxN, #shared, #smem>
    %m = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : ... -> !ttg.memdesc<NxK, #shared1, #smem>

`#shared` is Triton's nvmma_shared layout for `%x`'s order; the transpose, if unused, is erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, BFloat16Type, DenseArrayBase, Float16Type, IntAttr, i32

from ttc.ir.layout_utils import get_order
from ttc.ir.layouts import SharedMemorySpace
from ttc.ir.ttg import LocalAllocOp, MemDescTransOp
from ttc.ir.types import MemDescType, elt, encoding, shape_of
from ttc.passes.accelerate_matmul import nvmma_shared
from ttc.passmanager import Pass


def fuse_trans(alloc) -> bool:
    if not alloc.operands or len(list(alloc.results[0].uses)) != 1:
        return False
    if next(iter(alloc.results[0].uses)).operation.name != "ttng.warp_group_dot":
        return False
    trans = alloc.operands[0].owner
    if getattr(trans, "name", None) != "tt.trans" or list(trans.order.get_values()) != [1, 0]:
        return False
    x = trans.operands[0]
    if not isinstance(elt(x.type), (Float16Type, BFloat16Type)):
        return False
    dims = ArrayAttr([IntAttr(d) for d in shape_of(x.type)])
    inner_t = MemDescType(dims, elt(x.type), nvmma_shared(shape_of(x.type), get_order(encoding(x.type)), elt(x.type)),
                          SharedMemorySpace(), IntAttr(0), dims)
    inner = LocalAllocOp.build(operands=[[x]], result_types=[inner_t])
    new = MemDescTransOp.build(operands=[inner.results[0]], result_types=[alloc.results[0].type],
                               properties={"order": DenseArrayBase.from_list(i32, [1, 0])})
    inner.location = new.location = alloc.location
    alloc.parent.insert_op_before(inner, alloc)
    alloc.parent.insert_op_before(new, alloc)
    alloc.results[0].replace_all_uses_with(new.results[0])
    alloc.detach()
    alloc.erase()
    if trans.results[0].first_use is None:
        trans.detach()
        trans.erase()
    return True


@dataclass(frozen=True)
class OptimizeDotOperands(Pass):
    """Fold register transposes of wgmma operands into shared-memory descriptor transposes."""

    name = "tritongpu-optimize-dot-operands"
    display = "TritonGPUOptimizeDotOperands"
    summary = "local_alloc(tt.trans(x)) feeding wgmma -> memdesc_trans(local_alloc(x))"

    def apply(self, ctx, module) -> None:
        for op in [o for o in module.walk() if o.name == "ttg.local_alloc"]:
            fuse_trans(op)
