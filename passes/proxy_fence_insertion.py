"""triton-nvidia-gpu-proxy-fence-insertion: a `ttng.fence_async_shared` between a generic-proxy shared-memory
access and a later async-proxy one to an overlapping buffer (Triton's TritonGPUProxyFenceInsertion).

Since Hopper, TMA copies, wgmma / tcgen05 operand reads and tmem copies access shared memory through the async
proxy, which does not see what threads wrote or read through the generic proxy without a proxy fence. The walk
is the membar analysis's (`ttc.analysis.membar`, on the buffers of `ttc.analysis.allocation`), with its own
update: the async-proxy accesses of an op (the destination of `ttng.async_tma_copy_global_to_local` /
`ttng.async_tma_gather`, the shared source of a TMA store / reduce / scatter, of `ttng.tmem_copy`, operands A
and B of `ttng.warp_group_dot` / `ttng.tc_gen5_mma[_scaled]`) are checked against the generic accesses pending
since the last fence, and a fence goes before the op when they conflict (read after write, write after read or
write). Earlier async-proxy and mbarrier ops never call for one, and the async accesses themselves are not kept
as pending. Its other accesses (the mbarrier of a TMA copy, ...) are kept; a scratch buffer counts as read. A
`ttng.fence_async_shared` clears what is pending. Only for compute capability 90 and later (the option).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import BoolAttr, i1
from xdsl.ir import Operation

from ttc.analysis.membar import BlockInfo, Membar, Slice, insert_barriers, shared_effects
from ttc.ir.ttg import FenceAsyncSharedOp
from ttc.opt.passmanager import Pass, option

ASYNC_WRITES = {"ttng.async_tma_copy_global_to_local": "result", "ttng.async_tma_gather": "result"}
ASYNC_READS = {"ttng.async_tma_copy_local_to_global": ("src",), "ttng.async_tma_scatter": ("src",),
               "ttng.async_tma_reduce": ("src",), "ttng.tmem_copy": ("src",), "ttng.warp_group_dot": ("a", "b"),
               "ttng.tc_gen5_mma": ("a", "b"), "ttng.tc_gen5_mma_scaled": ("a", "b")}
ASYNC = {*ASYNC_WRITES, *ASYNC_READS}
IGNORED = ASYNC | {"ttng.arrive_barrier", "ttng.wait_barrier", "ttng.init_barrier",
           "ttng.inval_barrier"}


class ProxyFence(Membar):
    """The membar walk, placing proxy fences instead of barriers."""

    def _update(self, op: Operation, info: BlockInfo) -> None:
        if op.name == "ttng.fence_async_shared":
            info.sync()
            return
        cur, proxy = BlockInfo(), BlockInfo()
        if op.name == "tt.call":
            got = self.callee_info.get(op.callee.root_reference.data)
            if got is not None:
                cur = got.copy()
        else:
            dest = getattr(op, ASYNC_WRITES[op.name]) if op.name in ASYNC_WRITES else None
            sources = [getattr(op, f) for f in ASYNC_READS.get(op.name, ())]
            for value, kind in shared_effects(op):
                if value is dest:
                    into = proxy.writes
                elif any(value is s for s in sources):
                    into = proxy.reads
                else:
                    into = cur.writes if kind == "w" else cur.reads
                for b in self.alloc.buffers_of(value):
                    into.setdefault(Slice((b.offset, b.offset + b.size), value), set()).add(op)
            scratch = self.alloc.op_scratch.get(op) or self.alloc.op_virtual.get(op)
            if scratch is not None:
                cur.reads.setdefault(Slice((scratch.offset, scratch.offset + scratch.size)), set()).add(op)
        if op.name in ASYNC and \
                info.conflicts(proxy, skip=lambda earlier, _: earlier.name in IGNORED):
            fence = FenceAsyncSharedOp.build(properties={"bCluster": BoolAttr(False, i1)})
            fence.location = op.location
            op.parent_block().insert_op_before(fence, op)
            info.sync()
        info.join(cur)


@dataclass(frozen=True)
class ProxyFenceInsertion(Pass):
    """Insert fences across the generic and async proxies."""

    name = "triton-nvidia-gpu-proxy-fence-insertion"
    display = "TritonGPUProxyFenceInsertion"
    summary = "Insert fences across generic and async proxy"

    compute_capability: int = option(90, "device compute capability")

    def apply(self, ctx, module) -> None:
        if self.compute_capability >= 90:
            insert_barriers(module, analysis=ProxyFence)
