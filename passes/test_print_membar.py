"""test-print-membar: insert the CTA barriers Triton's membar analysis places between shared-memory accesses
(`ttg.local_barrier`), for every function of the module (triton-opt's TestMembarPass, with the NVIDIA filter
that lets mbarrier operations skip some; `ttc.analysis.membar`). The IR is printed as usual afterwards.
Buffers are placed by `ttc.analysis.allocation` (offsets already recorded by -allocate-shared-memory are not
read)."""

from __future__ import annotations

from dataclasses import dataclass

from ttc.analysis.membar import insert_barriers
from ttc.opt.passmanager import Pass


@dataclass(frozen=True)
class TestPrintMembar(Pass):
    """Insert the barriers of the membar analysis."""

    name = "test-print-membar"
    display = "TestMembarPass"
    summary = "print the result of the allocation pass"

    def apply(self, ctx, module) -> None:
        insert_barriers(module)
