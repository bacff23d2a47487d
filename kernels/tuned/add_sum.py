"""A memory-bound autotuned kernel: out = x + y, and the sum of out added into one float with an atomic. The
configs sweep the block size and warps; `@triton.heuristics` decides from the tuned BLOCK_SIZE whether the
blocks tile n exactly (no masks); `reset_to_zero` clears the total before every launch, as the autotuner does."""
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": block}, num_warps=warps)
             for block in (512, 1024, 2048, 4096) for warps in (2, 4, 8) if block >= 128 * warps],
    key=["n_elements"],
    reset_to_zero=["total_ptr"],
)
@triton.heuristics({"EVEN": lambda args: args["n_elements"] % args["BLOCK_SIZE"] == 0})
@triton.jit
def add_sum_kernel(x_ptr, y_ptr, out_ptr, total_ptr, n_elements, BLOCK_SIZE: tl.constexpr, EVEN: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    if EVEN:
        out = tl.load(x_ptr + offsets) + tl.load(y_ptr + offsets)
        tl.store(out_ptr + offsets, out)
    else:
        mask = offsets < n_elements
        out = tl.load(x_ptr + offsets, mask=mask, other=0.0) + tl.load(y_ptr + offsets, mask=mask, other=0.0)
        tl.store(out_ptr + offsets, out, mask=mask)
    tl.atomic_add(total_ptr, tl.sum(out, axis=0))
