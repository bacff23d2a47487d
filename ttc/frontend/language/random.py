"""`triton.language.random` written in the kernel language: Philox counter-based random numbers
(`randint`, `randint4x`, `rand`, `rand4x`, `randn`, `randn4x` and their building blocks `philox`,
`philox_impl`, `uint_to_uniform_float`, `pair_uniform_to_normal`).

Like standard.py, the frontend reads this file as source under the module name `triton.language.random`,
so each call becomes a `tt.call` to `triton.language.random.<name>__<argument types>__<constexprs>` with
the body Triton builds. Parameter lists and the order of operations follow Triton 3.6's, because the
mangled names spell constexpr arguments by position and the TTIR has to match op for op. The same
generator in NumPy, for checking results, is ttc/runtime/philox.py.

Philox-4x32-10: the state (c0, c1, c2, c3) is the counter (the offset, in c0 and c1), the key (k0, k1) is
the 64-bit seed; each round multiplies two words by the round constants, swaps halves and bumps the key by
the Weyl constants.
"""

from ttc.frontend.jit import jit
from ttc.frontend.language import core, math

N_ROUNDS_DEFAULT = core.constexpr(10)


@jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: core.constexpr = N_ROUNDS_DEFAULT):
    # Philox rounds on counter (c0, c1, c2, c3) with key (k0, k1); 32- or 64-bit words
    if c0.dtype == core.uint32:
        KEY_STEP_0: core.constexpr = 0x9E3779B9  # golden ratio
        KEY_STEP_1: core.constexpr = 0xBB67AE85  # sqrt(3) - 1
        ROUND_MUL_0: core.constexpr = 0xD2511F53
        ROUND_MUL_1: core.constexpr = 0xCD9E8D57
    else:
        core.static_assert(c0.dtype == core.uint64, "dtype not supported in philox_impl")
        KEY_STEP_0: core.constexpr = 0x9E3779B97F4A7C15
        KEY_STEP_1: core.constexpr = 0xBB67AE8584CAA73B
        ROUND_MUL_0: core.constexpr = 0xD2E7470EE14C6C93
        ROUND_MUL_1: core.constexpr = 0xCA5A826395121157
    for _ in core.static_range(n_rounds):
        m0 = ROUND_MUL_0
        m1 = ROUND_MUL_1
        old0, old2 = c0, c2
        # the high halves of the products mix into the other words, the low halves move over
        c0 = math.umulhi(m1, old2) ^ c1 ^ k0
        c2 = math.umulhi(m0, old0) ^ c3 ^ k1
        c1 = core.mul(m1, old2, sanitize_overflow=False)
        c3 = core.mul(m0, old0, sanitize_overflow=False)
        k0 = core.add(k0, KEY_STEP_0, sanitize_overflow=False)
        k1 = core.add(k1, KEY_STEP_1, sanitize_overflow=False)
    return c0, c1, c2, c3


@jit
def philox(seed, c0, c1, c2, c3, n_rounds: core.constexpr = N_ROUNDS_DEFAULT):
    # the seed (any integer) becomes the key: its two 32-bit halves for 32-bit counters, itself for 64-bit
    seed = core.to_tensor(seed)
    core.static_assert(seed.dtype.is_int(), f"the random seed must be an integer, not {seed.dtype}")
    seed = seed.to(core.uint64)
    c0 = core.to_tensor(c0)
    c1 = core.to_tensor(c1)
    c2 = core.to_tensor(c2)
    c3 = core.to_tensor(c3)
    if core.constexpr(c0.dtype.primitive_bitwidth) == 32:
        word = core.uint32
        key_hi = ((seed >> 32) & 0xffffffff).to(core.uint32)
        key_lo = (seed & 0xffffffff).to(core.uint32)
    else:
        core.static_assert(core.constexpr(c0.dtype.primitive_bitwidth) == 64, "bitwidth not supported in philox")
        word = core.uint64
        key_hi = core.full((1, ), 0, dtype=word)
        key_lo = seed
    c0 = c0.to(word, bitcast=True)
    c1 = c1.to(word, bitcast=True)
    c2 = c2.to(word, bitcast=True)
    c3 = c3.to(word, bitcast=True)
    return philox_impl(c0, c1, c2, c3, key_lo, key_hi, n_rounds)


@jit
def randint(seed, offset, n_rounds: core.constexpr = N_ROUNDS_DEFAULT):
    # one block of random uint32 for a scalar seed and a block of offsets
    first, _, _, _ = randint4x(seed, offset, n_rounds)
    return first


@jit
def randint4x(seed, offset, n_rounds: core.constexpr = N_ROUNDS_DEFAULT):
    # four blocks of random uint32: the offset is the counter's low (and, for 64-bit offsets, high) word
    low = offset.to(core.uint32)
    zero = low * 0
    if core.constexpr(offset.dtype.primitive_bitwidth) > 32:
        high = (offset >> 32).to(core.uint32)
    else:
        high = zero
    return philox(seed, low, high, zero, zero, n_rounds)


@jit
def uint_to_uniform_float(x):
    # a random 32- or 64-bit integer to a float in [0, 1): fold the sign away (x < 0 -> -x - 1), then scale
    # by the largest factor that keeps the biggest integer below 1.0 after rounding
    if core.constexpr(x.dtype == core.uint32) or core.constexpr(x.dtype == core.int32):
        x = x.to(core.int32, bitcast=True)
        scale = 4.6566127342e-10
    else:
        core.static_assert(core.constexpr(x.dtype == core.uint64) or core.constexpr(x.dtype == core.int64))
        x = x.to(core.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    x = core.where(x < 0, -x - 1, x)
    return x * scale


@jit
def rand(seed, offset, n_rounds: core.constexpr = N_ROUNDS_DEFAULT):
    # one block of float32 uniform in [0, 1)
    bits = randint(seed, offset, n_rounds)
    return uint_to_uniform_float(bits)


@jit
def rand4x(seed, offsets, n_rounds: core.constexpr = N_ROUNDS_DEFAULT):
    # four blocks of float32 uniform in [0, 1)
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    u3 = uint_to_uniform_float(i3)
    u4 = uint_to_uniform_float(i4)
    return u1, u2, u3, u4


@jit
def pair_uniform_to_normal(u1, u2):
    # Box-Muller: two uniforms to two independent standard normals (u1 kept away from 0 for the log)
    u1 = core.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = math.sqrt(-2.0 * math.log(u1))
    return r * math.cos(th), r * math.sin(th)


@jit
def randn(seed, offset, n_rounds: core.constexpr = N_ROUNDS_DEFAULT):
    # one block of float32 standard normals
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    n1, _ = pair_uniform_to_normal(u1, u2)
    return n1


@jit
def randn4x(seed, offset, n_rounds: core.constexpr = N_ROUNDS_DEFAULT):
    # four blocks of float32 standard normals
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4
