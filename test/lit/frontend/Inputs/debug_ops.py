import triton
import triton.language as tl


@triton.jit
def debug_ops(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 16, "BLOCK too small")
    offs = tl.multiple_of(tl.arange(0, BLOCK), 16)
    offs = tl.max_contiguous(offs, [16])
    x = tl.load(x_ptr + offs)
    x = tl.max_constancy(x, 4)
    tl.device_print("x", x)
    print("n=", n)
    tl.device_assert(x > 0, "x must be positive")
    assert n > 0, "n must be positive"
    tl.store(out_ptr + offs, x)
