"""The OCP microscaling element formats at run time: fp8 e4m3 (`f8E4M3FN`: no infinities, 0x7F/0xFF NaN) and
e5m2 (`f8E5M2`, IEEE-like), fp4 e2m1 (two per byte, the first in the low nibble) and e8m0 scales (2^(s - 127),
0xFF NaN). The interpreter holds fp8 values as float32 (like bf16) and stores them as their byte; `decode`
and `encode` (round to nearest even, saturating to the largest finite value) convert between the two."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import Float8E4M3FNType, Float8E5M2Type

# format -> (exponent bits, mantissa bits, bias, has infinities)
FORMATS = {"e4m3": (4, 3, 7, False), "e5m2": (5, 2, 15, True), "e2m1": (2, 1, 1, False)}
FP8_TYPES = {Float8E4M3FNType: "e4m3", Float8E5M2Type: "e5m2"}


def decode(bits, fmt: str) -> np.ndarray:
    """float32 values of the codes `bits` (unsigned integers) in format `fmt`."""
    e_bits, m_bits, bias, inf = FORMATS[fmt]
    width = 1 + e_bits + m_bits
    b = np.asarray(bits).astype(np.int64) & ((1 << width) - 1)
    sign = np.where(b >> (width - 1), -1.0, 1.0)
    exp = (b >> m_bits) & ((1 << e_bits) - 1)
    man = b & ((1 << m_bits) - 1)
    normal = (1.0 + man / (1 << m_bits)) * np.exp2(exp.astype(np.float64) - bias)
    sub = man / (1 << m_bits) * 2.0 ** (1 - bias)
    v = sign * np.where(exp == 0, sub, normal)
    top = exp == (1 << e_bits) - 1
    if inf:
        v = np.where(top & (man == 0), sign * np.inf, np.where(top, np.nan, v))
    elif fmt == "e4m3":
        v = np.where(top & (man == (1 << m_bits) - 1), np.nan, v)
    return v.astype(np.float32)


def encode(values, fmt: str) -> np.ndarray:
    """The codes (uint8) of `values` rounded to nearest-even in format `fmt`, saturating: magnitudes past the
    largest finite value (infinities too) give it, NaN stays NaN (PTX's `cvt.rn.satfinite`, which Triton's
    downcasts to fp8 use)."""
    e_bits, m_bits, bias, inf = FORMATS[fmt]
    width = 1 + e_bits + m_bits
    codes = np.arange(1 << (width - 1), dtype=np.int64)
    table = decode(codes, fmt).astype(np.float64)
    finite = np.isfinite(table)
    codes, table = codes[finite], table[finite]
    order = np.argsort(table)
    codes, table = codes[order], table[order]
    x = np.asarray(values, dtype=np.float64)
    a = np.abs(x)
    i = np.clip(np.searchsorted(table, a), 1, len(table) - 1)
    lo, hi = table[i - 1], table[i]
    pick_hi = (a - lo > hi - a) | ((a - lo == hi - a) & (codes[i] % 2 == 0))
    code = np.where(a <= table[0], codes[0], np.where(pick_hi, codes[i], codes[i - 1]))
    code = np.where(a > table[-1], codes[-1], code)  # saturated, infinities too
    if fmt != "e2m1":
        code = np.where(np.isnan(x), ((1 << e_bits) - 1) << m_bits | (1 << m_bits) - 1, code)
    sign = np.signbit(x) & ~np.isnan(x)
    return (code | (sign.astype(np.int64) << (width - 1))).astype(np.uint8)


def fp8_format(t) -> str | None:
    """'e4m3' / 'e5m2' for the fp8 element types the interpreter knows, else None."""
    return FP8_TYPES.get(type(t))


def unpack_e2m1(packed, axis: int) -> np.ndarray:
    """float32 values of e2m1 pairs packed in bytes, the low nibble first along `axis` (which doubles)."""
    p = np.asarray(packed).astype(np.uint8)
    lo, hi = decode(p & 0xF, "e2m1"), decode(p >> 4, "e2m1")
    out = np.stack([lo, hi], axis=axis + 1)
    shape = list(p.shape)
    shape[axis] *= 2
    return out.reshape(shape)


def e8m0(scale) -> np.ndarray:
    """float32 values 2^(s - 127) of e8m0 scale bytes (0xFF: NaN)."""
    s = np.asarray(scale).astype(np.uint8).astype(np.int32)
    return np.where(s == 0xFF, np.nan, np.exp2(s.astype(np.float64) - 127)).astype(np.float32)
