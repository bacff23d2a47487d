import triton
import triton.language as tl


@triton.jit
def tma_add_kernel(x_desc, y_desc, out_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Each program adds one BLOCK_M x BLOCK_N tile; the descriptors clip the edge tiles
    # (out-of-range elements load as 0 and are not stored).
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    x = x_desc.load([off_m, off_n])
    y = y_desc.load([off_m, off_n])
    out_desc.store([off_m, off_n], x + y)


@triton.jit
def tma_add_device_desc_kernel(x_ptr, y_ptr, out_ptr, M, N, stride_m, BLOCK_M: tl.constexpr,
                               BLOCK_N: tl.constexpr):
    # The same add with descriptors made in the kernel (tl.make_tensor_descriptor), plus an accumulate
    # into `out` through the descriptor's atomic add.
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[stride_m, 1], block_shape=[BLOCK_M, BLOCK_N])
    y_desc = tl.make_tensor_descriptor(y_ptr, [M, N], [stride_m, 1], [BLOCK_M, BLOCK_N])
    out_desc = tl.make_tensor_descriptor(out_ptr, [M, N], [stride_m, 1], [BLOCK_M, BLOCK_N])
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    out_desc.atomic_add([off_m, off_n], x_desc.load([off_m, off_n]) + y_desc.load([off_m, off_n]))
