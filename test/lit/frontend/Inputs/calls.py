import triton
import triton.language as tl


@triton.jit
def scale_and_shift(x, scale, shift: tl.constexpr = 1.0, ACTIVATION: tl.constexpr = 0):
    y = x * scale + shift
    if ACTIVATION == 1:
        y = tl.maximum(y, 0.0)
    return y


@triton.jit
def split_sign(x):
    return tl.where(x > 0, x, 0.0), tl.where(x < 0, x, 0.0)


@triton.jit
def clamp_or_zero(x, limit):
    if limit < 0:
        return x * 0
    return tl.minimum(x, limit)


@triton.jit
def offsets(pid, BLOCK: tl.constexpr):
    return pid * BLOCK + tl.arange(0, BLOCK)


@triton.jit
def kernel(x_ptr, out_ptr, s, limit, BLOCK: tl.constexpr):
    offs = offsets(tl.program_id(0), BLOCK)
    x = tl.load(x_ptr + offs)
    a = scale_and_shift(x, s)
    b = scale_and_shift(x, s, 2.0, ACTIVATION=1)
    c = scale_and_shift(a, s)
    pos, neg = split_sign(x)
    d = clamp_or_zero(x, limit)
    tl.store(out_ptr + offs, a + b + c + pos + neg + d)


@triton.jit(noinline=True)
def scalar_helper(v, w):
    return v + w


@triton.jit
def noinline_kernel(out_ptr, a, b):
    tl.store(out_ptr, scalar_helper(a, b))
