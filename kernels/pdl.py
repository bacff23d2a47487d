import triton
import triton.language as tl


@triton.jit
def pdl_kernel(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    # programmatic dependent launch: wait for the previous grid's writes before reading them, then let the
    # next grid start launching while this one finishes
    tl.extra.cuda.gdc_wait()
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.extra.cuda.gdc_launch_dependents()
    tl.store(out_ptr + offsets, x * 3 - 7, mask=mask)
