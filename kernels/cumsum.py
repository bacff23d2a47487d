import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out,
                  BLOCK_SIZE: tl.constexpr):
    # One program per row: inclusive prefix sum along the columns.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    y = tl.cumsum(x, axis=0)
    tl.store(out_ptr + row * stride_out + cols, y, mask=mask)
