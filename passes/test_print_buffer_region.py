"""test-print-buffer-region: report, as remarks, the buffer regions memory accesses touch (triton-opt's
TestBufferRegionPass, over `ttc.analysis.alias.buffer_regions`).

Every memory access (local loads and stores, async and TMA copies, mbarrier ops, dots, allocations that
store a value) with a memory-descriptor operand gets `Buffers: [offset, length], ...` for its first one
(regions sorted; shared memory in bytes, from `allocation.offset`). An op carrying the unit attribute
`test.print_all_used_regions` gets, for each kind that has any, `All Shared Regions: ...`,
`All Tensor Regions: ...` and `All Barrier Regions: ...`: every region the module's accesses use.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttc.analysis import remark
from ttc.analysis.alias import RegionError, buffer_regions, is_memory_access, used_regions
from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.memdesc import MemDescType
from ttc.opt.passmanager import Pass


def _text(regions) -> str:
    return ", ".join(f"[{o}, {n}]" for o, n in sorted(regions))


@dataclass(frozen=True)
class TestPrintBufferRegion(Pass):
    """Print the result of the buffer region analysis."""

    name = "test-print-buffer-region"
    display = "TestBufferRegionPass"
    summary = "print the result of the buffer region analysis pass"

    def apply(self, ctx, module) -> None:
        try:
            facts = buffer_regions(module)
        except RegionError as e:
            raise CompileError(at_op(e.op, None, str(e))) from None
        used = used_regions(module, facts)
        for op in module.walk(region_first=True):
            if not is_memory_access(op):
                continue
            memdesc = next((v for v in op.operands if isinstance(v.type, MemDescType)), None)
            if memdesc is not None:
                remark(op, "Buffers: " + _text(facts.get(memdesc, ())))
        for op in module.walk(region_first=True):
            if "test.print_all_used_regions" in op.attributes:
                for kind, label in (("shared", "Shared"), ("tensor", "Tensor"), ("barrier", "Barrier")):
                    if used[kind]:
                        remark(op, f"All {label} Regions: {_text(used[kind])}")
