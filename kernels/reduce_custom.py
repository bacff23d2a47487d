import triton
import triton.language as tl


@triton.jit
def _max_abs_combine(a, b):
    # Combine function for tl.reduce: keep the value with the larger magnitude.
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def max_abs_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                   BLOCK_SIZE: tl.constexpr):
    # One program per row: out[row] = max(|x[row, :]|)
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0)
    result = tl.reduce(x, 0, _max_abs_combine)
    tl.store(out_ptr + row, result, mask=row < n_rows)
