import triton
import triton.language as tl


@triton.jit
def assume_scale(x_ptr, out_ptr, n, stride, BLOCK: tl.constexpr):
    tl.assume(n > 0)
    tl.assume(stride > 0)  # stride specialized to 1: a constant promise
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs * stride, mask=offs < n) * 2, mask=offs < n)


@triton.jit
def assume_tensor(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.assume(offs >= 0)
