"""Triton's random numbers in NumPy, bit for bit: the Philox generator of `triton.language.random`
(ttc/frontend/language/random.py is the kernel-language side) for checking kernels that call `tl.rand`,
`tl.randn`, `tl.randint` or `tl.randint4x`.

Spec check expressions can call `rand`, `randn`, `randint`, `randint4x`, `rand4x`, `randn4x`, `philox`,
`uint_to_uniform_float` and `pair_uniform_to_normal` (see expr.py). `seed` is an integer (its value; any width
and sign, as the kernel's seed argument holds it), `offset` an integer array whose dtype plays the kernel's
offset type: 32 bits or narrower fill the counter's low word, 64-bit offsets fill both words. The integer
results are uint32 arrays, the floats float32, computed with the same float32 operations as the kernel
(`randn`'s log, sqrt, cos and sin are NumPy's, which the device's approximate within a few ulp).
"""

from __future__ import annotations

import numpy as np

N_ROUNDS_DEFAULT = 10

# (key steps, round multipliers) for 32- and 64-bit words
_CONSTANTS = {
    32: ((0x9E3779B9, 0xBB67AE85), (0xD2511F53, 0xCD9E8D57)),
    64: ((0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B), (0xD2E7470EE14C6C93, 0xCA5A826395121157)),
}
_UINT = {32: np.uint32, 64: np.uint64}


def _mulhi(a, b, bits: int):
    """The high word of the 2*bits-bit product of unsigned a and b."""
    if bits == 32:
        return ((a.astype(np.uint64) * b.astype(np.uint64)) >> np.uint64(32)).astype(np.uint32)
    # 64 x 64 -> 128 bits from 32-bit halves
    m = np.uint64(0xFFFFFFFF)
    s = np.uint64(32)
    a_lo, a_hi, b_lo, b_hi = a & m, a >> s, b & m, b >> s
    lo_lo, hi_lo, lo_hi, hi_hi = a_lo * b_lo, a_hi * b_lo, a_lo * b_hi, a_hi * b_hi
    middle = (lo_lo >> s) + (hi_lo & m) + (lo_hi & m)  # fits: < 3 * 2**32
    return hi_hi + (hi_lo >> s) + (lo_hi >> s) + (middle >> s)


def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: int = N_ROUNDS_DEFAULT):
    """`n_rounds` Philox rounds on counter (c0, c1, c2, c3) and key (k0, k1), all uint32 or all uint64."""
    t = np.asarray(c0).dtype.type
    bits = {np.uint32: 32, np.uint64: 64}.get(t)
    if bits is None:
        raise TypeError(f"philox_impl: counters must be uint32 or uint64, not {np.asarray(c0).dtype}")
    (step0, step1), (mul0, mul1) = _CONSTANTS[bits]
    c0, c1, c2, c3, k0, k1 = (np.asarray(v).astype(t) for v in (c0, c1, c2, c3, k0, k1))
    mul0, mul1, step0, step1 = t(mul0), t(mul1), t(step0), t(step1)
    with np.errstate(over="ignore"):
        for _ in range(n_rounds):
            c0, c1, c2, c3 = (_mulhi(mul1, c2, bits) ^ c1 ^ k0, mul1 * c2,
                              _mulhi(mul0, c0, bits) ^ c3 ^ k1, mul0 * c0)
            k0, k1 = k0 + step0, k1 + step1
    return c0, c1, c2, c3


def _key(seed) -> np.uint64:
    if isinstance(seed, (float, np.floating)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"the seed must be an integer, not {type(seed).__name__}")
    return np.uint64(int(seed) % (1 << 64))


def philox(seed, c0, c1, c2, c3, n_rounds: int = N_ROUNDS_DEFAULT):
    """Philox keyed by `seed`; the counters' width (32 or 64 bits, any signedness) picks the word size."""
    cs = [np.asarray(c) for c in (c0, c1, c2, c3)]
    bits = cs[0].dtype.itemsize * 8
    if bits not in (32, 64) or any(c.dtype.itemsize * 8 != bits for c in cs):
        raise TypeError(f"philox: counters must all be 32 or all 64 bits wide, not {[str(c.dtype) for c in cs]}")
    seed = _key(seed)
    if bits == 32:
        k0, k1 = np.uint32(int(seed) & 0xFFFFFFFF), np.uint32(int(seed) >> 32)
    else:
        k0, k1 = seed, np.zeros((1,), np.uint64)
    word = _UINT[bits]
    return philox_impl(*[c.view(word) for c in cs], k0, k1, n_rounds)  # the counters' bits, as Triton's bitcast


def randint4x(seed, offset, n_rounds: int = N_ROUNDS_DEFAULT):
    """Four uint32 arrays of random bits for each offset."""
    offset = np.asarray(offset)
    if offset.dtype.kind not in "iub":
        raise TypeError(f"offsets must be integers, not {offset.dtype}")
    low = offset.astype(np.uint32)
    zero = np.zeros_like(low)
    high = (offset >> 32).astype(np.uint32) if offset.dtype.itemsize > 4 else zero
    return philox(seed, low, high, zero, zero, n_rounds)


def randint(seed, offset, n_rounds: int = N_ROUNDS_DEFAULT):
    """uint32 random bits for each offset (the first of `randint4x`'s four)."""
    return randint4x(seed, offset, n_rounds)[0]


def uint_to_uniform_float(x):
    """Random 32- or 64-bit integers to float32 in [0, 1)."""
    x = np.asarray(x)
    if x.dtype.kind not in "iu":
        raise TypeError(f"uint_to_uniform_float: expected 32- or 64-bit integers, not {x.dtype}")
    if x.dtype.itemsize == 4:
        x, scale = x.view(np.int32), np.float32(4.6566127342e-10)
    elif x.dtype.itemsize == 8:
        x, scale = x.view(np.int64), np.float32(1.0842020432385337e-19)
    else:
        raise TypeError(f"uint_to_uniform_float: expected 32- or 64-bit integers, not {x.dtype}")
    x = np.where(x < 0, -x - 1, x)  # no overflow: -x - 1 of the most negative value is the most positive
    return x.astype(np.float32) * scale


def rand(seed, offset, n_rounds: int = N_ROUNDS_DEFAULT):
    """float32 uniform in [0, 1) for each offset."""
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


def rand4x(seed, offset, n_rounds: int = N_ROUNDS_DEFAULT):
    return tuple(uint_to_uniform_float(i) for i in randint4x(seed, offset, n_rounds))


def pair_uniform_to_normal(u1, u2):
    """Box-Muller in float32: two uniforms to two standard normals."""
    f = np.float32
    u1 = np.maximum(f(1.0e-7), np.asarray(u1, np.float32))
    th = f(6.283185307179586) * np.asarray(u2, np.float32)
    r = np.sqrt(f(-2.0) * np.log(u1))
    return r * np.cos(th), r * np.sin(th)


def randn(seed, offset, n_rounds: int = N_ROUNDS_DEFAULT):
    """float32 standard normal for each offset."""
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    return pair_uniform_to_normal(uint_to_uniform_float(i1), uint_to_uniform_float(i2))[0]


def randn4x(seed, offset, n_rounds: int = N_ROUNDS_DEFAULT):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    return (*pair_uniform_to_normal(u1, u2), *pair_uniform_to_normal(u3, u4))


# what spec expressions can call
FUNCTIONS = {f.__name__: f for f in (rand, randn, randint, randint4x, rand4x, randn4x, philox,
                                     uint_to_uniform_float, pair_uniform_to_normal)}
