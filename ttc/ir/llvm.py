"""The one op of MLIR's llvm dialect that Triton's frontend builds: `llvm.intr.assume` (`tl.assume(cond)`), a
promise that the i1 `cond` holds. It stays through TTIR and TTGIR (nothing may drop it as unused) and is lowered
to LLVM's `llvm.assume`; the interpreter checks the promise."""

from __future__ import annotations

from xdsl.dialects.builtin import i1
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

LLVM = Dialect("llvm", [AssumeOp], [])
