import triton
import triton.language as tl
from triton.language.random import randint as draw_bits


@triton.jit
def uniform(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.rand(seed, offs))


@triton.jit
def normal_rounds(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.randn(seed, offs, 7))


@triton.jit
def bits64(out_ptr, seed, base, BLOCK: tl.constexpr):
    offs = base + tl.arange(0, BLOCK)
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(out_ptr + tl.arange(0, BLOCK), a ^ b ^ c ^ d)


@triton.jit
def philox64(c_ptr, out_ptr, seed, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    c = tl.load(c_ptr + i)
    r0, r1, r2, r3 = tl.philox(seed, c, c, c, c, n_rounds=2)
    tl.store(out_ptr + i, tl.uint_to_uniform_float(r0 ^ r1 ^ r2 ^ r3))


@triton.jit
def float_seed(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.randint(seed, offs))


@triton.jit
def via_modules(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, draw_bits(seed, offs) ^ tl.random.randint(seed, offs))


@triton.jit
def four_streams(out_ptr, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    u0, u1, u2, u3 = tl.rand4x(seed, offs)
    n0, n1, n2, n3 = tl.randn4x(seed, offs)
    tl.store(out_ptr + offs, u0 + u1 + u2 + u3 + n0 + n1 + n2 + n3)
