"""Which `mma.sync.aligned.mMnNkK` a `tt.dot` runs on (MMA v2, Triton's sm80/sm89 tensor-core path), or why it
runs on none: shared by tritongpu-accelerate-matmul (which gives the dot the layouts) and the lowering (dot.py).

    operands         accumulator  instruction (PTX ISA, warp-level mma)                   target  kWidth
    f16 x f16        f32          mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32      sm_80   2
    bf16 x bf16      f32          mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32    sm_80   2
    f16 x f16        f16          mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16      sm_80   2
    f32 x f32 (tf32) f32          mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32     sm_80   1
    i8 x i8          i32          mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32  sm_80  4
    f8E4M3FN/f8E5M2  f32          mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 (etc.)  sm_89, sm_120  4
    f8E4M3FN/f8E5M2  f32          as f16 x f16 -> f32 after tt.fp_to_fp (other targets)  sm_80   4
    f64 x f64        f64          mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64       sm_80   1

kWidth (the `#ttg.dot_op` field) is at least the operand elements per 32-bit register, 32 / bits (`k_width`); Triton
sets it from the narrowest width the operands were loaded with (computeOrigBitWidth), so 16-bit operands may have
kWidth 4 or 8 (loaded as 8 or 4 bits) and 8-bit ones 8. fp8 dots run natively on sm_89 and sm_120 only (Triton's
mmav2SupportsFp8Operands: elsewhere the PTX instruction is emulated); on other targets they run as f16 -> f32
(Triton's decomposition): the operands keep the fp8 kWidth 4, are converted (`tt.fp_to_fp`, exact) in that layout.
A thread's kWidth consecutive k feed the instruction's 32-bit registers in order, so each mma.sync sums over a
permutation of K that A and B share (dot.py's `k_chunks`). In every case but f64 A's fragment is four 32-bit
registers (rows m, m+8 by K halves), B's two (K halves), and C's four 32-bit values (f16: two registers of two
halves) at (m, n), (m, n+1), (m+8, n), (m+8, n+1), lowest index in the low bits (dot.py, test_mma_layouts.py).
f64 (Triton's Ampere form): the m8n8k4 instruction twice per 16x8 accumulator tile and k step of 4, rows m (c0,
c1) and m+8 (c2, c3), each thread's one f64 of A at (g, t) and of B at (t, g); the layouts are tf32's (kWidth 1).
Integer mma saturates on overflow (`.satfinite`, as Triton emits it); tf32 reads the top 19 bits of each f32
(the hardware ignores the low 13 mantissa bits; Triton emits no rounding either).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IntegerType

from ttc.ir.attr_printer import attr_text

TF32 = 0  # INPUT_PRECISION["tf32"] in ttc/ir/tt.py
FP8 = {"f8E4M3FN": "e4m3", "f8E5M2": "e5m2"}


@dataclass(frozen=True)
class MmaKind:
    k: int            # the instruction's K
    a: str            # PTX type of A's elements: f16 bf16 tf32 s8 e4m3 e5m2 f64
    b: str            # of B's
    c: str            # of the accumulator: f32 f16 s32 f64
    capability: int   # the first target that has it
    upcast: str = ""  # fp8 where not native: the fp8 type the operands are converted from to f16 (kWidth 4)

    @property
    def bits(self) -> int:
        return {"f16": 16, "bf16": 16, "tf32": 32, "f64": 64}.get(self.a, 8)

    @property
    def k_width(self) -> int:
        """The smallest kWidth: elements per 32-bit register (1 for f64); 4 for fp8 upcast to f16."""
        return 4 if self.upcast else max(32 // self.bits, 1)

    @property
    def ptx(self) -> str:
        sat = ".satfinite" if self.c == "s32" else ""
        shape = "m8n8k4" if self.c == "f64" else f"m16n8k{self.k}"
        return f"mma.sync.aligned.{shape}.row.col{sat}.{self.c}.{self.a}.{self.b}.{self.c}"


def _ptx_type(t, precision: int) -> str | None:
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "tf32" if precision == TF32 else None
    if isinstance(t, Float64Type):
        return "f64"
    if isinstance(t, IntegerType) and t.width.data == 8:
        return "s8"
    return FP8.get(attr_text(t))


def mma_v2_kind(a_type, b_type, c_type, precision: int, capability: int, shape=None) -> MmaKind | str:
    """The MMA v2 instruction for element types a x b -> c at `precision` on `capability`, or a sentence saying
    why there is none. `shape` (M, N, K), when given, must be a multiple of the instruction's m16n8kK tile."""
    a, b = _ptx_type(a_type, precision), _ptx_type(b_type, precision)
    c = {Float32Type: "f32", Float16Type: "f16", Float64Type: "f64"}.get(type(c_type))
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
        elif capability in (89, 120):
            kind = MmaKind(32, a, b, "f32", 89)
        else:  # as Triton: the operands upcast to f16, in their fp8 dot operand layout (kWidth 4)
            kind = MmaKind(16, "f16", "f16", "f32", 80, upcast=a)
    elif a == "s8":
        kind = MmaKind(32, a, b, "s32", 80) if c == "s32" else f"s8 mma.sync accumulates in s32 only, not {names}"
    elif a == "f64":
        kind = MmaKind(4, a, b, "f64", 80) if c == "f64" else f"f64 mma.sync accumulates in f64 only, not {names}"
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
