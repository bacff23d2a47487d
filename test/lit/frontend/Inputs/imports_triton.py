from triton import jit
from triton import language as tl
from triton.language import arange, load, store

BLOCK: tl.constexpr = 128
SCALE = 0.5
DTYPE = tl.float16


@jit
def double(x):
    return x * 2


@jit(noinline=False)
def kernel(x_ptr, out_ptr):
    offs = arange(0, BLOCK)
    x = load(x_ptr + offs)
    store(out_ptr + offs, (double(x) * SCALE).to(DTYPE))
