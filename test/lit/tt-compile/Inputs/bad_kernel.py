import triton
import triton.language as tl


@triton.jit
def bad_kernel(x_ptr, n, BLOCK: tl.constexpr):
    # a tl.arange whose range is not a power of two
    pid = tl.program_id(0)
    offs = tl.arange(0, 1000)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)
