"""Which `mma.sync.aligned.m16n8kK` a `tt.dot` runs on (MMA v2, Triton's sm80/sm89 tensor-core path), or why it
runs on none: shared by tritongpu-accelerate-matmul (which gives the dot the layouts) and the lowering (dot.py).

    operands         accumulator  instruction (PTX ISA, warp-level mma)                   target  kWidth
    f16 x f16        f32          mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32      sm_80   2
    bf16 x bf16      f32          mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32    sm_80   2
    f16 x f16        f16          mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16      sm_80   2
    f32 x f32 (tf32) f32          mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32     sm_80   1
    i8 x i8          i32          mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32  sm_80  4
    f8E4M3FN/f8E5M2  f32          mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 (etc.)  sm_89  4
    f8E5M2 x f8E5M2  f32          as f16 x f16 -> f32 after tt.fp_to_fp (before sm_89)   sm_80   4

kWidth (the `#ttg.dot_op` field) is the operand elements per 32-bit register, 32 / bits, as Triton sets it.
Before sm89 an f8E5M2 dot runs as f16 -> f32 (Triton's decomposition): its operands keep the fp8 kWidth 4, are
converted (`tt.fp_to_fp`, exact) in that layout, and each thread's 4 consecutive k of a register group feed two
f16x2 registers: the instruction sums over a permutation of K that A and B share. In
every case A's fragment is four 32-bit registers (rows m, m+8 by K halves), B's two (K halves), and C's four
32-bit values (f16: two registers of two halves) at (m, n), (m, n+1), (m+8, n), (m+8, n+1); the K extent of a
register is its kWidth consecutive elements, lowest index in the low bits (dot.py, test_mma_layouts.py).
Integer mma saturates on overflow (`.satfinite`, as Triton emits it); tf32 reads the top 19 bits of each f32
(the hardware ignores the low 13 mantissa bits; Triton emits no rounding either).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IntegerType

from ttc.ir.printer import attr_text

TF32 = 0  # INPUT_PRECISION["tf32"] in ttc/ir/tt.py
FP8 = {"f8E4M3FN": "e4m3", "f8E5M2": "e5m2"}


@dataclass(frozen=True)
class MmaKind:
    k: int            # the instruction's K
    a: str            # PTX type of A's elements: f16 bf16 tf32 s8 e4m3 e5m2
    b: str            # of B's
    c: str            # of the accumulator: f32 f16 s32
    capability: int   # the first target that has it
    upcast: str = ""  # fp8 before sm89: the fp8 type the operands are converted from to f16 (kWidth 4)

    @property
    def bits(self) -> int:
        return {"f16": 16, "bf16": 16, "tf32": 32}.get(self.a, 8)

    @property
    def k_width(self) -> int:
        return 4 if self.upcast else 32 // self.bits

    @property
    def ptx(self) -> str:
        sat = ".satfinite" if self.c == "s32" else ""
        return f"mma.sync.aligned.m16n8k{self.k}.row.col{sat}.{self.c}.{self.a}.{self.b}.{self.c}"


def _ptx_type(t, precision: int) -> str | None:
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "tf32" if precision == TF32 else None
    if isinstance(t, IntegerType) and t.width.data == 8:
        return "s8"
    return FP8.get(attr_text(t))


def mma_v2_kind(a_type, b_type, c_type, precision: int, capability: int, shape=None) -> MmaKind | str:
    """The MMA v2 instruction for element types a x b -> c at `precision` on `capability`, or a sentence saying
    why there is none. `shape` (M, N, K), when given, must be a multiple of the instruction's m16n8kK tile."""
    a, b = _ptx_type(a_type, precision), _ptx_type(b_type, precision)
    c = {Float32Type: "f32", Float16Type: "f16"}.get(type(c_type))
    if isinstance(c_type, IntegerType) and c_type.width.data == 32:
        c = "s32"
    names = f"{attr_text(a_type)} x {attr_text(b_type)} -> {attr_text(c_type)}"
    if a is None or b is None:
        return f"mma.sync has no {names} form"
    if (a in FP8.values()) != (b in FP8.values()) or (a not in FP8.values() and a != b):
        return f"mma.sync multiplies operands of one type (two fp8 types may mix), not {names}"
    if a in FP8.values():
        if c != "f32":
            kind = f"fp8 mma.sync accumulates in f32 only, not {names}"
        elif capability < 89:  # as Triton: the operands upcast to f16, in their fp8 dot operand layout (kWidth 4)
            kind = MmaKind(16, "f16", "f16", "f32", 80, upcast=a) if a == b == "e5m2" else (
                f"fp8 mma.sync needs sm_89 or later, and ttc upcasts only e5m2 operands to f16 before it, not {names}")
        else:
            kind = MmaKind(32, a, b, "f32", 89)
    elif a == "s8":
        kind = MmaKind(32, a, b, "s32", 80) if c == "s32" else f"s8 mma.sync accumulates in s32 only, not {names}"
    elif a == "tf32":
        kind = MmaKind(8, a, b, "f32", 80) if c == "f32" else f"tf32 mma.sync accumulates in f32 only, not {names}"
    elif c == "f32" or (c == "f16" and a == "f16"):
        kind = MmaKind(16, a, b, c, 80)
    else:
        kind = f"{a} mma.sync accumulates in f32{' or f16' if a == 'f16' else ''} only, not {names}"
    if isinstance(kind, str):
        return kind
    if capability < kind.capability:
        return f"{kind.ptx} needs sm_{kind.capability} or later"
    if shape is not None:
        M, N, K = shape
        if M % 16 or N % 8 or K % kind.k:
            return f"the dot's {M}x{N}x{K} is not a whole number of {kind.ptx.split('.')[3]} tiles (16x8x{kind.k})"
    return kind
