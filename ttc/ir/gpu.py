"""MLIR's gpu dialect as Triton uses it: `gpu.barrier`, which `tl.debug_barrier()` builds and which stays
through TTIR and TTGIR until the lowering makes it a `bar.sync 0` of the whole program (CTA)."""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect

from ttc.ir.format import register


@irdl_op_definition
class BarrierOp(IRDLOperation):
    name = "gpu.barrier"
    # it orders memory accesses: no pass may move loads or stores across it, or drop it as unused
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


register("gpu.barrier", "attr-dict")

GPU = Dialect("gpu", [BarrierOp], [])
