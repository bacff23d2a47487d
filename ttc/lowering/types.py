"""LLVM types for Triton's element types: what one register of a tensor (or a scalar) becomes.

Integers keep their width (`i1` too), `f16`/`bf16`/`f32`/`f64` become `half`/`bfloat`/`float`/`double`, and
`!tt.ptr<T>` becomes an opaque `ptr addrspace(1)` (global memory; address space 3 is shared memory).
llvmlite has no `bfloat`, so `BFloatType` adds it.
"""

from __future__ import annotations

import struct

import llvmlite.ir as ir
from llvmlite.ir.types import _BaseFloatType
from xdsl.dialects.builtin import (BFloat16Type, Float8E4M3FNType, Float8E5M2Type, Float16Type, Float32Type, Float64Type,
                                   IndexType, IntegerType)

from ttc.ir.tensordesc import TensorDescType
from ttc.ir.types import AsyncTokenType, PointerType, elt

GLOBAL = 1
SHARED = 3


class BFloatType(_BaseFloatType):
    """LLVM's `bfloat`: constants print as `0xR` and the 16 bits, rounded to nearest even from f32."""

    null = "0xR0000"
    intrinsic_name = "bf16"

    def __str__(self):
        return "bfloat"

    def format_constant(self, value):
        return f"0xR{bf16_bits(value):04X}"


BFloatType._create_instance()

i1 = ir.IntType(1)
i8 = ir.IntType(8)
i16 = ir.IntType(16)
i32 = ir.IntType(32)
i64 = ir.IntType(64)
f16 = ir.HalfType()
bf16 = BFloatType()
f32 = ir.FloatType()
f64 = ir.DoubleType()
void = ir.VoidType()
gptr = ir.PointerType(addrspace=GLOBAL)
sptr = ir.PointerType(addrspace=SHARED)


def bf16_bits(value: float) -> int:
    bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return 0x7FC0  # NaN
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


class UnsupportedType(Exception):
    pass


def llvm_type(t) -> ir.Type:
    """The LLVM type of a scalar, or of one element of a tensor (an async token: an i32 that carries nothing; a
    tensor descriptor: a pointer)."""
    if isinstance(t, AsyncTokenType):
        return i32
    if isinstance(t, TensorDescType):  # the generic address of its tensor map (a parameter's or in global scratch)
        return ir.PointerType()
    e = elt(t)
    if isinstance(e, IntegerType):
        return ir.IntType(e.width.data)
    if isinstance(e, IndexType):
        return i64
    if isinstance(e, Float32Type):
        return f32
    if isinstance(e, Float16Type):
        return f16
    if isinstance(e, BFloat16Type):
        return bf16
    if isinstance(e, Float64Type):
        return f64
    if isinstance(e, (Float8E4M3FNType, Float8E5M2Type)):
        return ir.IntType(8)  # fp8 values live in i8 registers, as in Triton's lowering
    if isinstance(e, PointerType):
        if e.address_space.data != GLOBAL:
            raise UnsupportedType(f"pointers to address space {e.address_space.data} are not supported")
        return gptr
    raise UnsupportedType(f"type {e} is not supported by the LLVM lowering")


def is_float_type(t: ir.Type) -> bool:
    return isinstance(t, (ir.HalfType, BFloatType, ir.FloatType, ir.DoubleType))


def bits_of(t: ir.Type) -> int:
    """Storage bits of a register type (i1 counts as 8: it is stored as a byte)."""
    if isinstance(t, ir.IntType):
        return max(8, t.width) if t.width == 1 else t.width
    if isinstance(t, (ir.HalfType, BFloatType)):
        return 16
    if isinstance(t, ir.FloatType):
        return 32
    if isinstance(t, ir.DoubleType):
        return 64
    if isinstance(t, ir.PointerType):
        return 64
    raise UnsupportedType(f"no size for {t}")


def int_of(bits: int) -> ir.IntType:
    return ir.IntType(bits)
