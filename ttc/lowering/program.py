"""Program ids and counts: `tt.get_program_id` / `tt.get_num_programs` read the CTA id and grid size special
registers (`%ctaid.x`, `%nctaid.x`, ...); `gpu.barrier` (`tl.debug_barrier()`) and `ttg.local_barrier` (what the membar
analysis inserts) wait for all the program's threads (`bar.sync 0`); `llvm.intr.assume` (`tl.assume`) becomes LLVM's `llvm.assume`."""

from __future__ import annotations

from llvmlite import ir

from ttc.lowering import nvvm
from ttc.lowering.registry import lowering

_AXES = "xyz"


@lowering("tt.get_program_id")
def _program_id(ctx, op):
    ctx.set(op.result, nvvm.sreg(ctx.b, f"ctaid.{_AXES[op.axis.value.data]}"))


@lowering("tt.get_num_programs")
def _num_programs(ctx, op):
    ctx.set(op.result, nvvm.sreg(ctx.b, f"nctaid.{_AXES[op.axis.value.data]}"))


@lowering("gpu.barrier", "ttg.local_barrier")
def _barrier(ctx, op):
    ctx.barrier()


@lowering("llvm.intr.assume")
def _assume(ctx, op):
    nvvm.call(ctx.b, "llvm.assume", ir.VoidType(), [ctx.get(op.cond)])
