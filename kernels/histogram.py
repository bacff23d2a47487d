import triton
import triton.language as tl


@triton.jit
def histogram_kernel(x_ptr, hist_ptr, n_elements, num_bins,
                     BLOCK_SIZE: tl.constexpr):
    # Each program bins BLOCK_SIZE integer values and accumulates counts atomically.
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0)
    valid = mask & (x >= 0) & (x < num_bins)
    ones = tl.full([BLOCK_SIZE], 1, dtype=tl.int32)
    tl.atomic_add(hist_ptr + x, ones, mask=valid)
