import triton
import triton.language as tl


@triton.jit
def dropout_kernel(x_ptr, out_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    # Low-memory dropout: the keep mask is not stored but regenerated from (seed, offset) by Philox,
    # so a backward pass can rebuild it from the seed alone.
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    keep = tl.rand(seed, offsets) > p
    # scale the kept values by 1 / (1 - p), rounded as IEEE division so the result is exact
    out = tl.where(keep, tl.math.div_rn(x, 1.0 - p), 0.0)
    tl.store(out_ptr + offsets, out, mask=mask)
