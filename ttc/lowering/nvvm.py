"""NVVM intrinsics and inline PTX: declaring `llvm.nvvm.*` functions once per module and calling them.

Thread and block ids come from `llvm.nvvm.read.ptx.sreg.*`, CTA barriers from
`llvm.nvvm.barrier.cta.sync.aligned.all` (`bar.sync 0`), warp shuffles from `llvm.nvvm.shfl.sync.*.i32`.
`asm` calls inline PTX (side-effecting, as Triton's loads and stores are, so LLVM keeps them in order).
"""

from __future__ import annotations

import llvmlite.ir as ir

from ttc.lowering.types import i1, i32, void

FULL_MASK = 0xFFFFFFFF
SHFL_KINDS = {"bfly": 0x1F, "up": 0x0, "down": 0x1F, "idx": 0x1F}  # kind -> the `c` operand (clamp)
REG = {16: "h", 32: "r", 64: "l"}  # an integer width -> its inline-asm register constraint letter


def declare(module: ir.Module, name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
    fn = module.globals.get(name)
    if fn is None:
        fn = ir.Function(module, ir.FunctionType(ret, args), name)
    return fn


def call(b: ir.IRBuilder, name: str, ret: ir.Type, args: list[ir.Value]) -> ir.Value:
    return b.call(declare(b.module, name, ret, [a.type for a in args]), args)


def sreg(b: ir.IRBuilder, name: str) -> ir.Value:
    """A special register: `tid.x`, `ctaid.y`, `nctaid.z`, ..."""
    return call(b, f"llvm.nvvm.read.ptx.sreg.{name}", i32, [])


def barrier(b: ir.IRBuilder) -> None:
    call(b, "llvm.nvvm.barrier.cta.sync.aligned.all", void, [ir.Constant(i32, 0)])


def shfl(b: ir.IRBuilder, kind: str, value: ir.Value, lane_arg: ir.Value | int) -> ir.Value:
    """`shfl.sync.<kind>.b32` over the full warp on an i32 value."""
    if isinstance(lane_arg, int):
        lane_arg = ir.Constant(i32, lane_arg)
    args = [ir.Constant(i32, FULL_MASK), value, lane_arg, ir.Constant(i32, SHFL_KINDS[kind])]
    return call(b, f"llvm.nvvm.shfl.sync.{kind}.i32", i32, args)


def asm(b: ir.IRBuilder, text: str, constraints: str, ret: ir.Type, args: list[ir.Value]) -> ir.Value:
    fty = ir.FunctionType(ret, [a.type for a in args])
    return b.call(ir.InlineAsm(fty, text, constraints, side_effect=True), args)


def true(b=None) -> ir.Constant:
    return ir.Constant(i1, 1)
