import triton
import triton.language as tl


@triton.jit
def collatz_kernel(x_ptr, steps_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # For every element, count the Collatz steps needed to reach 1.
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=1)
    steps = tl.zeros([BLOCK_SIZE], dtype=tl.int32)
    while tl.max(x, axis=0) > 1:
        active = x > 1
        is_odd = (x % 2) == 1
        nxt = tl.where(is_odd, 3 * x + 1, x // 2)
        x = tl.where(active, nxt, x)
        steps += active.to(tl.int32)
    tl.store(steps_ptr + offsets, steps, mask=mask)
