"""triton-nvidia-optimize-descriptor-encoding: give every tensor descriptor the shared-memory layout its TMA
copies will use (Triton's TritonNvidiaGPUOptimizeDescriptorEncodingPass, for descriptors whose blocks are
loaded to registers or stored from them).

A descriptor's type gets Triton's default `#ttg.nvmma_shared` for its block (`NVMMASharedEncodingAttr::get` with
the rows contiguous): the swizzle is the widest of 128, 64 and 32 bytes that divides a row, none for blocks of
fewer than 8 rows or of one dimension; `rank = N` when the block is not 2-d. Kernel arguments (and the kernel's
type) and `tt.make_tensor_descriptor` results are rewritten; a descriptor reaching anything else (a loop's
carried value, a call) is a located "not supported yet" error.
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

# ops that take a descriptor whose type this pass sets at its definition
_USERS = {"tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_reduce"}


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
            elif op.name == "tt.make_tensor_descriptor":
                _encode(op.results[0])
        for op in module.walk():
            for v in list(op.operands) + list(op.results):
                if isinstance(v.type, TensorDescType) and v.type.encoding is None:
                    raise CompileError(at_op(op, None, f"'{op.name}' with a tensor descriptor is not supported yet "
                                                       "by triton-nvidia-optimize-descriptor-encoding"))
            if op.name not in _USERS and op.name not in ("tt.func", "tt.make_tensor_descriptor"):
                if any(isinstance(r.type, TensorDescType) for r in op.results) or any(
                        isinstance(a.type, TensorDescType) for r in op.regions for b in r.blocks for a in b.args):
                    raise CompileError(at_op(op, None, f"'{op.name}' carrying a tensor descriptor is not supported "
                                                       "yet by triton-nvidia-optimize-descriptor-encoding"))
