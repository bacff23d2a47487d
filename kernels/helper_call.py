import triton
import triton.language as tl


@triton.jit
def gelu_tanh(x):
    # tanh approximation of GELU, computed in fp32
    k0: tl.constexpr = 0.7978845608028654  # sqrt(2 / pi)
    k1: tl.constexpr = 0.044715
    inner = k0 * (x + k1 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0  # tanh(inner)
    return 0.5 * x * (1.0 + t)


@triton.jit
def bias_gelu_kernel(x_ptr, bias_ptr, out_ptr, n_elements, n_cols,
                     BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    b = tl.load(bias_ptr + offsets % n_cols, mask=mask, other=0.0)
    y = gelu_tanh(x + b)
    tl.store(out_ptr + offsets, y, mask=mask)
