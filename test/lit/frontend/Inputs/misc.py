import triton
import triton.language as tl
from triton.language import load as tl_load

WIDTH = tl.constexpr(4)
EPS = 0.25


@triton.jit
def pair_sum(pair, k: tl.constexpr):
    a, b = pair
    return a + b * k, a


@triton.jit
def returns_const(x):
    return 3


@triton.jit
def misc(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl_load(x_ptr + offs)
    y = tl.softmax(x)
    i, j = tl.swizzle2d(tl.program_id(0), tl.program_id(1), n, n, WIDTH)
    s, first = pair_sum((x, y), WIDTH)
    c = returns_const(x)
    pid = tl.program_id(0)
    if pid < n:
        z = s + EPS
        w = z * 2
    else:
        z = s - EPS
        w = z
    q = tl.where(pid > 2, z, w) if BLOCK > 1 else z
    r = (pid > 1) and (pid < n) or pid == 0
    tl.store(y_ptr + offs, q + c + i + j + r)
    k = pid
    while k < n:
        k = k * 2 + tl.load(x_ptr + k).to(tl.int32)
    tl.store(y_ptr, k)
