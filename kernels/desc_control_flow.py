"""Tensor descriptors passed through control flow: a host descriptor picked by an `if` (an `arith.select`),
descriptors made in the kernel in the branches of an `if` (an `scf.if` yielding one), and a loop that swaps
two descriptors every iteration (`scf.for` carrying them), one from the host and one made in the kernel.
out = 2 * (the block of the descriptor first after the loop) + (the other's)."""
import triton
import triton.language as tl


@triton.jit
def desc_control_flow_kernel(x_desc, y_desc, out_desc, p_ptr, q_ptr, flag, steps, M, N, BM: tl.constexpr,
                             BN: tl.constexpr):
    row = tl.program_id(0) * BM
    if flag > 0:
        first = x_desc
    else:
        first = y_desc
    if flag > 0:
        second = tl.make_tensor_descriptor(q_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    else:
        second = tl.make_tensor_descriptor(p_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    for i in range(steps):
        first, second = second, first
    out_desc.store([row, 0], first.load([row, 0]) * 2 + second.load([row, 0]))
