"""triton-nvidia-gpu-fence-insertion: order register-to-shared-memory writes before the wgmma that reads them
(Triton's TritonGPUFenceInsertion).

`ttg.local_alloc %tensor` (and `ttg.local_store`) write shared memory through the generic proxy, which wgmma's
async proxy does not see without a proxy fence. For each `ttng.warp_group_dot` (or `ttng.tc_gen5_mma[_scaled]`)
whose shared-memory operand A or B was written that way (looking back through memdesc views and the init and
yielded values of loop-carried arguments), a `ttng.fence_async_shared {bCluster = false}` is put right before the
dot, then hoisted out of every enclosing loop that contains none of those writes; it is dropped when the op before
it is already such a fence. Only for compute capability 90 and later (the option, as in Triton; below 90 there is no wgmma).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import BoolAttr, i1
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttc.ir.ttg import FenceAsyncSharedOp
from ttc.ir.memdesc import MemDescType
from ttc.opt.passmanager import Pass, option

DOTS = ("ttng.warp_group_dot", "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")  # Triton's DotOpInterface on memdescs
VIEWS = ("ttg.memdesc_index", "ttg.memdesc_trans", "ttg.memdesc_reshape", "ttg.memdesc_subslice",
         "ttg.memdesc_reinterpret")


def register_writes(v: SSAValue) -> list[Operation]:
    """The ops that write registers into the shared memory `v` views (Triton's findCopyRegToSharedOps); the op
    owning a block argument that is not a loop's (or a warp_specialize partition's) stands for unknown writes."""
    out, seen, work = [], set(), [v]
    while work:
        v = work.pop()
        if v in seen or not isinstance(v.type, MemDescType):
            continue
        seen.add(v)
        if isinstance(v, BlockArgument):
            loop = v.owner.parent_op()
            if isinstance(loop, scf.ForOp) and v.index > 0:
                work += [loop.iter_args[v.index - 1], v.owner.last_op.operands[v.index - 1]]
            elif loop is not None and loop.name == "ttg.warp_specialize.partitions":  # a partition's capture
                work.append(loop.parent_op().explicitCaptures[v.index])
            elif loop is not None:  # a function's (or another op's) argument may have been written: Triton assumes so
                out.append(loop)
            continue
        op = v.owner
        if op.name in VIEWS:
            work.append(op.operands[0])
        elif op.name == "ttg.local_alloc":
            if op.operands:
                out.append(op)
            out += [u.operation for u in op.results[0].uses if u.operation.name == "ttg.local_store"]
    return out


def insert_fence(dot: Operation) -> None:
    writes = register_writes(dot.a) + register_writes(dot.b)
    if not writes:
        return
    fence = FenceAsyncSharedOp.build(properties={"bCluster": BoolAttr(False, i1)})
    fence.location = dot.location
    dot.parent.insert_op_before(fence, dot)
    loop = fence.parent_op()
    while isinstance(loop, (scf.ForOp, scf.WhileOp)) and not any(loop.is_ancestor(w) for w in writes):
        fence.detach()
        loop.parent.insert_op_before(fence, loop)
        loop = fence.parent_op()
    prev = fence.prev_op
    if isinstance(prev, FenceAsyncSharedOp) and prev.bCluster == fence.bCluster:
        fence.detach()
        fence.erase()


@dataclass(frozen=True)
class FenceInsertion(Pass):
    """Insert proxy fences between register-to-shared writes and the wgmma reading them."""

    name = "triton-nvidia-gpu-fence-insertion"
    display = "TritonGPUFenceInsertion"
    summary = "Insert ttng.fence_async_shared before wgmma operands written from registers (sm90)"

    compute_capability: int = option(90, "the compute capability; no fences below 90")

    def apply(self, ctx, module) -> None:
        if self.compute_capability < 90:
            return
        for dot in [op for op in module.walk() if op.name in DOTS]:
            insert_fence(dot)
