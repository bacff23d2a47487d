import ttc
import ttc.language as tl

BLOCK = tl.constexpr(128)
SCALE = 0.5
DTYPE = tl.float16


@ttc.jit
def double(x):
    return x * 2


@ttc.jit
def kernel(x_ptr, out_ptr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, (double(x) * SCALE).to(DTYPE))
