"""allocate-shared-memory: give every shared-memory buffer an offset and record the total (Triton's
AllocateSharedMemory, which Triton runs in make_llir).

Buffers are the `ttg.local_alloc` ops, the scratch space of ops that exchange data through shared memory
(reductions and scans across warps, gathers, histograms, layout conversions that move data between threads,
atomics whose result is broadcast, tensor maps) and, for a `tt.call`, the callee's shared memory; their sizes
and offsets come from `ttc.analysis.allocation` (buffers live at the same time never overlap). Each such op
gets `allocation.offset = N : i32`; the module gets `ttg.shared = TOTAL : i32` (the largest total over the
functions nothing calls, in bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, i32

from ttc.analysis.allocation import ModuleAllocation
from ttc.opt.passmanager import Pass


@dataclass(frozen=True)
class AllocateSharedMemory(Pass):
    """Assign shared-memory offsets and record the total shared memory size."""

    name = "allocate-shared-memory"
    display = "AllocateSharedMemoryPass"
    summary = "Assign shared-memory offsets (allocation.offset) and set ttg.shared"

    def apply(self, ctx, module) -> None:
        alloc = ModuleAllocation(module)
        for func, a in alloc.funcs.items():
            for op in func.walk():
                b = a.buffer_of(op)
                if b is None and len(op.results) == 1:
                    b = a.buffer_of(op.results[0])
                if b is not None:
                    op.attributes["allocation.offset"] = IntegerAttr(b.offset, i32)
        attrs = dict(module.attributes)
        attrs["ttg.shared"] = IntegerAttr(alloc.size, i32)
        module.attributes.clear()
        for k in sorted(attrs):
            module.attributes[k] = attrs[k]
