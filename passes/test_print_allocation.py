"""test-print-allocation: report the shared-memory allocation of every function as remarks (triton-opt's
TestAllocationPass, over `ttc.analysis.allocation`).

For each `tt.func`: a remark with its name at the function; for every op (nested ops first) with a scratch
buffer, `scratch offset = O, size = S` (`virtual` for a call's, which holds the callee's shared memory), and
for every result with a buffer of its own (`ttg.local_alloc`), `offset = O, size = S`; then `size = N`, the
function's shared memory. Option `get-scratch-size-function=ValidConstant` gives every op 128 bytes of
scratch instead of what it needs (a check of the allocator with a custom size function).
"""

from __future__ import annotations

from dataclasses import dataclass

from ttc.analysis import remark
from ttc.analysis.allocation import ModuleAllocation
from ttc.analysis.scratch import scratch_bytes
from ttc.opt.passmanager import Pass, option


@dataclass(frozen=True)
class TestPrintAllocation(Pass):
    """Print the result of the allocation analysis."""

    name = "test-print-allocation"
    display = "TestAllocationPass"
    summary = "print the result of the allocation pass"

    get_scratch_size_function: str = option(
        "None", "Custom scratch size function to use: None (default), or ValidConstant (128 bytes for every op)")

    def __post_init__(self):
        if self.get_scratch_size_function not in ("None", "ValidConstant"):
            raise ValueError("option 'get-scratch-size-function' must be None or ValidConstant, got "
                             f"'{self.get_scratch_size_function}'")

    def apply(self, ctx, module) -> None:
        fn = scratch_bytes if self.get_scratch_size_function == "None" else (lambda op: 128)
        alloc = ModuleAllocation(module, fn)
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            remark(func, func.sym_name.data)
            a = alloc.funcs.get(func)
            if a is None:
                continue
            for op in func.walk(region_first=True):
                b = a.buffer_of(op)
                if b is not None:
                    remark(op, f"{'virtual' if b.kind == 'virtual' else 'scratch'} offset = {b.offset}, size = {b.size}")
                for r in op.results:
                    b = a.buffer_of(r)
                    if b is not None:
                        remark(op, f"offset = {b.offset}, size = {b.size}")
            remark(func, f"size = {a.size}")
