"""A kernel with a config that does not compile (a block that is not a power of two) and a config that computes
the wrong result (BLOCK 128 adds one), beside a good one."""
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=1) for b in (64, 96, 128)], key=["n"])
@triton.jit
def add_one(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x + 1.0 + (BLOCK == 128), mask=offs < n)
