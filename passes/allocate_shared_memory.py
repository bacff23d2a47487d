"""allocate-shared-memory: give every shared-memory buffer an offset and record the total (Triton's
AllocateSharedMemory, which Triton runs in make_llir).

Buffers are the `ttg.local_alloc` ops and the scratch space of ops that exchange data through shared memory
(reductions across warps, scans, layout conversions that move data between threads, scalar atomics); their
sizes and offsets come from `ttc.analysis.allocation` (buffers live at the same time never overlap). Each such
op gets `allocation.offset = N : i32`; the module gets `ttg.shared = TOTAL : i32` (the largest total over its
functions, in bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, i32

from ttc.analysis.allocation import Allocation
from ttc.passmanager import Pass


@dataclass(frozen=True)
class AllocateSharedMemory(Pass):
    """Assign shared-memory offsets and record the total shared memory size."""

    name = "allocate-shared-memory"
    display = "AllocateSharedMemoryPass"
    summary = "Assign shared-memory offsets (allocation.offset) and set ttg.shared"

    def apply(self, ctx, module) -> None:
        total = 0
        for f in [op for op in module.walk() if op.name == "tt.func" and op.body.blocks.first is not None]:
            alloc = Allocation(f)
            for op, offset in alloc.offsets.items():
                op.attributes["allocation.offset"] = IntegerAttr(offset, i32)
            total = max(total, alloc.size)
        attrs = dict(module.attributes)
        attrs["ttg.shared"] = IntegerAttr(total, i32)
        module.attributes.clear()
        for k in sorted(attrs, key=lambda k: k):
            module.attributes[k] = attrs[k]
