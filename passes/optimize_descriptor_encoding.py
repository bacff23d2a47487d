"""triton-nvidia-optimize-descriptor-encoding: give every tensor descriptor the shared-memory layout its TMA
copies will use (Triton's TritonNvidiaGPUOptimizeDescriptorEncodingPass, for descriptors whose blocks are
loaded to registers or stored from them).

A descriptor's type gets Triton's default `#ttg.nvmma_shared` for its block (`NVMMASharedEncodingAttr::get` with
the rows contiguous): the swizzle is the widest of 128, 64 and 32 bytes that divides a row, none for blocks of
fewer than 8 rows or of one dimension; `rank = N` when the block is not 2-d. Kernel arguments (and the kernel's
type), `tt.make_tensor_descriptor` results and the descriptors control flow passes on (`arith.select`, `scf.if`
results, `scf.for`/`scf.while` carried values: the layout depends on the type alone, so they all agree) are
rewritten; a descriptor passed to a call is a located "not supported yet" error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import FunctionType

from ttc.diagnostics import CompileError, at_op
from ttc.ir.layouts import NVMMASharedEncoding
from ttc.ir.tensordesc import TensorDescType
from ttc.ir.types import bitwidth
from ttc.passmanager import Pass

# calls are inlined before this pass; one left over (noinline) keeps its descriptor types
_CALLS = {"tt.call"}


def tma_shared_encoding(desc: TensorDescType) -> NVMMASharedEncoding:
    """Triton's default NVMMA shared layout for the block of `desc` (rows contiguous)."""
    shape = desc.shape
    bits = bitwidth(desc.block_type.element_type)
    row_bytes = shape[-1] * bits // 8
    rows = math.prod(shape) // shape[-1]
    swizzle = 0
    if len(shape) >= 2 and rows >= 8:
        swizzle = next((w for w in (128, 64, 32) if row_bytes >= w and row_bytes % w == 0), 0)
    rank = len(shape) if len(shape) != 2 else None
    return NVMMASharedEncoding.make(swizzlingByteWidth=swizzle, transposed=len(shape) == 1, elementBitWidth=bits,
                                    rank=rank)


def _encode(value) -> None:
    t = value.type
    if isinstance(t, TensorDescType) and t.encoding is None:
        value._type = t.with_encoding(tma_shared_encoding(t))


@dataclass(frozen=True)
class OptimizeDescriptorEncoding(Pass):
    """Shared-memory layouts for tensor descriptors."""

    name = "triton-nvidia-optimize-descriptor-encoding"
    display = "TritonNvidiaGPUOptimizeDescriptorEncodingPass"
    summary = "Give tensor descriptors the NVMMA shared layout of their TMA copies"

    def apply(self, ctx, module) -> None:
        for op in module.walk():
            if op.name == "tt.func":
                entry = op.body.blocks.first
                if entry is None:
                    continue
                for a in entry.args:
                    _encode(a)
                ft = op.function_type
                op.properties["function_type"] = FunctionType.from_lists([a.type for a in entry.args],
                                                                         list(ft.outputs.data))
                continue
            if op.name in _CALLS:
                continue  # checked below
            # the layout depends on the descriptor's type alone, so a descriptor passed through control flow
            # (an `if` or `select` choosing one, a loop carrying it) gets the layout of the ones that reach it
            for r in op.results:
                _encode(r)
            for region in op.regions:
                for block in region.blocks:
                    for a in block.args:
                        _encode(a)
        for op in module.walk():
            if op.name in _CALLS and any(isinstance(v.type, TensorDescType) for v in list(op.operands) + list(op.results)):
                raise CompileError(at_op(op, None, f"'{op.name}' with a tensor descriptor is not supported yet "
                                                   "by triton-nvidia-optimize-descriptor-encoding"))
