"""Element types at run time: how each MLIR element type is held as a NumPy value, stored in memory, and named in
a launch spec ('*fp32', 'i32'), and the rounding that gives every float type its own precision.

Values: iN -> intN (signless integers are held as signed NumPy ints; unsigned ops view the bits as uintN),
i1 -> bool, index -> int64, f16/f32/f64 -> float16/32/64, bf16 -> float32 holding values rounded to bf16,
fp8 (f8E4M3FN, f8E5M2) -> float32 holding values of the format (stored as their byte: `minifloat`),
pointers -> int64 addresses. Memory: the same, except bf16 (its 16 bits, uint16) and i1 (one byte, 0 or 1).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    TensorType,
    i1,
    i8,
    i16,
    i32,
    i64,
)

from ttc.ir.types import PointerType, elt
from ttc.runtime import minifloat
from ttc.runtime.errors import Unsupported
from ttc.runtime.minifloat import fp8_format

_INT = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_FLOAT = {Float16Type: np.float16, BFloat16Type: np.float32, Float32Type: np.float32, Float64Type: np.float64}


def is_bf16(t) -> bool:
    return isinstance(elt(t), BFloat16Type)


def is_float_type(t) -> bool:
    return type(elt(t)) in _FLOAT or fp8_format(elt(t)) is not None


def int_width(t) -> int:
    e = elt(t)
    return 64 if isinstance(e, IndexType) else e.width.data


def _by_identity(fn):
    """Cache `fn(t)` by the identity of the type object: hashing an xDSL type walks all its parameters, which
    costs more than the interpreter's ops. Each entry keeps its type alive, so an id is never reused."""
    cache: dict = {}

    def cached(t):
        hit = cache.get(id(t))
        if hit is None:
            hit = cache[id(t)] = (t, fn(t))
        return hit[1]

    cached.__doc__ = fn.__doc__
    return cached


@_by_identity
def value_dtype(t) -> np.dtype:
    """The NumPy dtype that holds values of element type `t` (or of the elements of tensor type `t`)."""
    e = elt(t)
    if isinstance(e, IntegerType):
        if e.width.data not in _INT:
            raise Unsupported(f"the interpreter does not support integer type {e} (widths 1, 8, 16, 32, 64 only)")
        return np.dtype(_INT[e.width.data])
    if isinstance(e, IndexType) or isinstance(e, PointerType):
        return np.dtype(np.int64)
    if type(e) in _FLOAT:
        return np.dtype(_FLOAT[type(e)])
    if fp8_format(e):
        return np.dtype(np.float32)
    raise Unsupported(f"the interpreter does not support element type {e}")


@_by_identity
def storage_dtype(t) -> np.dtype:
    """The NumPy dtype of element type `t` in memory (bf16 as its 16 bits, i1 as one byte)."""
    e = elt(t)
    if isinstance(e, BFloat16Type):
        return np.dtype(np.uint16)
    if e == i1 or fp8_format(e):
        return np.dtype(np.uint8)
    return value_dtype(e)


def unsigned_dtype(dtype: np.dtype) -> np.dtype:
    return np.dtype(np.uint8) if dtype == np.bool_ else np.dtype(_UINT[dtype.itemsize * 8])


def as_unsigned(x) -> np.ndarray:
    """The bits of an integer value read as unsigned (i1: 0 or 1)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x.astype(np.uint8)
    return x.view(unsigned_dtype(x.dtype))


def as_signed(x) -> np.ndarray:
    """An integer value read as signed (i1: true is -1, as LLVM reads it)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return -x.astype(np.int8)
    return x


def round_f32_mantissa(x, keep_bits: int) -> np.ndarray:
    """float32 values rounded (to nearest, ties to even) to `keep_bits` of mantissa: bf16 keeps 7, tf32 10."""
    x = np.asarray(x, dtype=np.float32)
    drop = 23 - keep_bits
    bits = x.view(np.uint32)
    half = np.uint32((1 << (drop - 1)) - 1)
    mask = np.uint32(~((1 << drop) - 1) & 0xFFFFFFFF)
    rounded = (bits + half + ((bits >> np.uint32(drop)) & np.uint32(1))) & mask
    rounded = np.where(np.isnan(x), (bits | np.uint32(0x00400000)) & mask, rounded)
    return rounded.astype(np.uint32).view(np.float32)


def round_bf16(x) -> np.ndarray:
    return round_f32_mantissa(x, 7)


def round_tf32(x) -> np.ndarray:
    return round_f32_mantissa(x, 10)


def fit(x, t) -> np.ndarray:
    """`x` converted to the value representation of element type `t` (ints wrap, floats round to `t`)."""
    dtype = value_dtype(t)
    if is_bf16(t):
        return round_bf16(np.asarray(x, dtype=np.float32))
    if fmt := fp8_format(elt(t)):
        return minifloat.decode(minifloat.encode(x, fmt), fmt)
    return np.asarray(x).astype(dtype, copy=False)


def to_storage(values, t) -> np.ndarray:
    """Values of element type `t` as they are laid out in memory."""
    if is_bf16(t):
        return (round_bf16(values).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    if elt(t) == i1:
        return np.asarray(values).astype(np.uint8)
    if fmt := fp8_format(elt(t)):
        return minifloat.encode(values, fmt)
    return np.asarray(values).astype(storage_dtype(t), copy=False)


def from_storage(raw, t) -> np.ndarray:
    """Memory contents of element type `t` as values."""
    if is_bf16(t):
        return (np.asarray(raw).astype(np.uint32) << np.uint32(16)).view(np.float32)
    if elt(t) == i1:
        return np.asarray(raw) != 0
    if fmt := fp8_format(elt(t)):
        return minifloat.decode(np.asarray(raw).view(np.uint8), fmt)
    return np.asarray(raw)


def zeros(t) -> np.ndarray:
    """A zero value of type `t` (a scalar type or a tensor type)."""
    shape = tuple(t.get_shape()) if isinstance(t, TensorType) else ()
    return np.zeros(shape, dtype=value_dtype(t))


# ----------------------------------------------------------------------------- spec type names

# Triton's signature names -> (MLIR element type, host NumPy dtype). Unsigned names are signless in the IR.
SPEC_TYPES = {
    "i1": (i1, np.bool_),
    "i8": (i8, np.int8),
    "i16": (i16, np.int16),
    "i32": (i32, np.int32),
    "i64": (i64, np.int64),
    "u8": (i8, np.uint8),
    "u16": (i16, np.uint16),
    "u32": (i32, np.uint32),
    "u64": (i64, np.uint64),
    "fp16": (Float16Type(), np.float16),
    "bf16": (BFloat16Type(), np.float32),
    "fp32": (Float32Type(), np.float32),
    "fp64": (Float64Type(), np.float64),
}


def spec_type(name: str):
    """('*fp32' | 'i32') -> (is_pointer, MLIR element type, host dtype), or None for an unknown name."""
    is_ptr = name.startswith("*")
    base = name[1:] if is_ptr else name
    if base not in SPEC_TYPES:
        return None
    t, host = SPEC_TYPES[base]
    return is_ptr, t, np.dtype(host)


def bit_width(t) -> int:
    """Bits of an element type as the interpreter stores it (pointers: 64)."""
    if isinstance(t, IntegerType):
        return t.width.data
    return 16 if is_bf16(t) else value_dtype(t).itemsize * 8  # pointers: 64
