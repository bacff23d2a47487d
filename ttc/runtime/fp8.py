"""fp8 values in the interpreter: f8E4M3FN (Triton's fp8e4nv: 4 exponent bits, bias 7, no infinities, S.1111.111
is NaN, largest 448) and f8E5M2 (fp8e5: 5 exponent bits, bias 15, IEEE-like infinities and NaNs, largest 57344).

Values are held as float32 (like bf16), in memory as their byte. `decode` reads bytes, `encode` writes values
(round to nearest, ties to even; past the largest finite value e4m3 gives NaN, e5m2 infinity, as a plain
conversion does; Triton's fp_to_fp to fp8 rounds to nearest even too).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

FORMATS = {"f8E4M3FN": (4, 3, 7), "f8E5M2": (5, 2, 15)}  # exponent bits, mantissa bits, bias


def fp8_name(t) -> str | None:
    """'f8E4M3FN' / 'f8E5M2' for those element types, else None."""
    name = type(t).__name__
    return {"Float8E4M3FNType": "f8E4M3FN", "Float8E5M2Type": "f8E5M2"}.get(name)


@lru_cache(maxsize=None)
def table(name: str) -> np.ndarray:
    """The value (float32) of each of the 256 bytes."""
    e_bits, m_bits, bias = FORMATS[name]
    out = np.empty(256, dtype=np.float32)
    for byte in range(256):
        sign = -1.0 if byte & 0x80 else 1.0
        e = (byte >> m_bits) & ((1 << e_bits) - 1)
        m = byte & ((1 << m_bits) - 1)
        if name == "f8E4M3FN" and e == 15 and m == 7:
            v = np.nan
        elif name == "f8E5M2" and e == 31:
            v = np.inf if m == 0 else np.nan
        elif e == 0:
            v = m / (1 << m_bits) * 2.0 ** (1 - bias)
        else:
            v = (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)
        out[byte] = sign * v
    return out


def decode(raw, name: str) -> np.ndarray:
    return table(name)[np.asarray(raw).astype(np.uint8)]


def encode(values, name: str) -> np.ndarray:
    """The nearest byte of each value (ties to the even code), NaN to the format's NaN."""
    x = np.asarray(values, dtype=np.float32)
    t = table(name)
    finite = np.flatnonzero(np.isfinite(t) & (np.arange(256) < 128))  # the non-negative finite codes, ascending
    mags = t[finite]
    a = np.abs(x)
    i = np.clip(np.searchsorted(mags, a), 1, len(mags) - 1)
    lo, hi = mags[i - 1], mags[i]
    pick_hi = (a - lo > hi - a) | ((a - lo == hi - a) & (finite[i] % 2 == 0))
    code = np.where(pick_hi, finite[i], finite[i - 1]).astype(np.uint8)
    top = mags[-1]
    half_ulp = (top - mags[-2]) / 2
    over = a >= top + half_ulp
    special = 0x7F if name == "f8E4M3FN" else 0x7C  # NaN / +inf
    code = np.where(over, special, code)
    code = np.where(np.isnan(x), 0x7F, code).astype(np.uint8)
    return code | np.where(np.signbit(x), 0x80, 0).astype(np.uint8)


def round_fp8(values, name: str) -> np.ndarray:
    return decode(encode(values, name), name)
