"""tritongpu-global-scratch-memory-allocation: give each `ttg.global_scratch_alloc` its offset in the kernel's
global scratch buffer, as Triton's pass does before lowering.

Each function is allocated after the functions it calls. In one function, in post order, every
`ttg.global_scratch_alloc` (and every `tt.call`, taking the callee's size and alignment) gets the next offset
rounded up to its alignment, as `ttg.global_scratch_memory_offset`; liveness is ignored and padding is not
minimised, as in Triton. Allocations marked `third_party_allocation` (profilers') go to the profile scratch
buffer instead. A function gets `ttg.{global,profile}_scratch_memory_{size,alignment}` (its size rounded up to its
largest alignment), and the module gets those of its public function, the kernel. Zero-byte requests get no
offset.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i32
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from ttc.ir.diagnostics import CompileError, at_op
from ttc.opt.passmanager import Pass

_KINDS = ("global", "profile")


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step


class _Buffer:
    """The running offset and largest alignment of one scratch buffer of one function."""

    def __init__(self):
        self.offset, self.align = 0, 1

    def assign(self, op: Operation, nbytes: int, align: int, attr: str) -> None:
        if nbytes == 0:
            return
        self.offset = _round_up(self.offset, align)
        op.attributes[attr] = IntegerAttr(self.offset, i32)
        self.offset += nbytes
        self.align = max(self.align, align)


def _size_attrs(op: Operation, buffers: dict[str, _Buffer]) -> None:
    for kind, buf in buffers.items():
        op.attributes[f"ttg.{kind}_scratch_memory_size"] = IntegerAttr(_round_up(buf.offset, buf.align), i32)
        op.attributes[f"ttg.{kind}_scratch_memory_alignment"] = IntegerAttr(buf.align, i32)


def _allocate(func: Operation, stack: list[Operation]) -> None:
    calls = [op for op in func.walk() if op.name == "tt.call"]
    for call in calls:  # the callees first
        callee = SymbolTable.lookup_symbol(call, call.callee)
        if callee is None:
            raise CompileError(at_op(call, None, f"'tt.call' op '{call.callee.string_value()}' does not reference a valid function"))
        if "ttg.global_scratch_memory_size" not in callee.attributes:
            if callee in stack or callee is func:
                raise CompileError(at_op(call, None, "global scratch allocation: call cycle detected"))
            _allocate(callee, stack + [func])
    buffers = {kind: _Buffer() for kind in _KINDS}
    for op in func.walk():  # leaf ops: pre order is post order
        if op.name == "ttg.global_scratch_alloc":
            kind = "profile" if "third_party_allocation" in op.attributes else "global"
            buffers[kind].assign(op, op.nbytes.value.data, op.alignment.value.data, f"ttg.{kind}_scratch_memory_offset")
        elif op.name == "tt.call":
            callee = SymbolTable.lookup_symbol(op, op.callee)
            for kind in _KINDS:
                size = callee.attributes[f"ttg.{kind}_scratch_memory_size"].value.data
                align = callee.attributes[f"ttg.{kind}_scratch_memory_alignment"].value.data
                buffers[kind].assign(op, size, align, f"ttg.{kind}_scratch_memory_offset")
    _size_attrs(func, buffers)


@dataclass(frozen=True)
class GlobalScratchAllocation(Pass):
    """Assign global (and profile) scratch offsets to allocations and calls; sizes on functions and the module."""

    name = "tritongpu-global-scratch-memory-allocation"
    summary = "Assign global scratch memory offsets and sizes (Triton's GlobalScratchMemoryAllocation)"
    display = "TritonGPUGlobalScratchAllocationPass"

    def apply(self, ctx, module) -> None:
        kernel = None
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            if "ttg.global_scratch_memory_size" not in func.attributes:
                _allocate(func, [])
            visibility = func.properties.get("sym_visibility")
            if not (isinstance(visibility, StringAttr) and visibility.data != "public"):
                if kernel is not None:
                    raise CompileError(at_op(func, None, "global scratch allocation: more than one public function (kernel) in the module"))
                kernel = func
        if kernel is None:
            raise CompileError(at_op(module, None, "global scratch allocation: the module has no public function (kernel)"))
        for kind in _KINDS:
            for what in ("size", "alignment"):
                name = f"ttg.{kind}_scratch_memory_{what}"
                module.attributes[name] = kernel.attributes[name]
