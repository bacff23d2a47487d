"""The parts of MLIR's llvm dialect that ttc reads and writes.

`llvm.intr.assume`, the one op Triton's frontend builds (`tl.assume(cond)`): a promise that the i1 `cond`
holds. It stays through TTIR and TTGIR (nothing may drop it as unused) and is lowered to LLVM's `llvm.assume`;
the interpreter checks the promise.

What half-lowered IR holds (Triton's analysis tests): the literal struct type `!llvm.struct<(i32, f32)>` and
`llvm.mlir.undef` (xDSL's definitions, which print as MLIR does); MLIR's custom form of
`builtin.unrealized_conversion_cast` (`%y = builtin.unrealized_conversion_cast %x : T to U`) is registered in
`ttc.ir`, as builtin is always loaded.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1
from xdsl.dialects.llvm import LLVMStructType, UndefOp
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, traits_def
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect

from ttc.ir.format import register


@irdl_op_definition
class AssumeOp(IRDLOperation):
    name = "llvm.intr.assume"
    cond = operand_def(i1)
    # MLIR gives the intrinsic unknown effects: it is never removed as dead, moved or merged
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


register("llvm.intr.assume", "$cond `:` type($cond) attr-dict")
register("llvm.mlir.undef", "attr-dict `:` type($res)")

LLVM = Dialect("llvm", [AssumeOp, UndefOp], [LLVMStructType])
