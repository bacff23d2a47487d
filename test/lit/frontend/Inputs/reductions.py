import triton
import triton.language as tl


@triton.jit
def _pair_max(a, ia, b, ib):
    keep = a > b
    return tl.where(keep, a, b), tl.where(keep, ia, ib)


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def reduce_all(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    s0 = tl.sum(x, axis=0)
    s1 = tl.sum(x, 1, keep_dims=True)
    mx = tl.max(x, axis=1)
    mn = tl.min(x)
    am = tl.argmax(x, axis=1)
    an = tl.argmin(x, 0, tie_break_left=False)
    total = tl.sum(s0) + tl.sum(s1) + tl.sum(mx) + mn + tl.sum(am) + tl.sum(an)
    tl.store(out_ptr, total)


@triton.jit
def int_reduce(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    v = tl.xor_sum(x, axis=0) + tl.max(x, 0) + tl.sum(x, axis=0, dtype=tl.int64) + x.sum(0)
    tl.store(out_ptr, v)


@triton.jit
def scans(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    a = tl.cumsum(x, axis=0)
    b = tl.cumprod(x, 0, reverse=True)
    c = tl.associative_scan(x, 0, _mul)
    idx = offs
    v, i = tl.reduce((x, idx), 0, _pair_max)
    h = tl.histogram(offs, 8)
    tl.store(out_ptr + offs, a + b + c + v + i)
    tl.store(out_ptr + tl.arange(0, 8), h.to(tl.float32))
