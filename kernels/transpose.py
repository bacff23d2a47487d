import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym, stride_yn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # y[N, M] = x[M, N]^T, one BLOCK_M x BLOCK_N tile per program.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_n[None, :] * stride_xn
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tile = tl.load(x_ptrs, mask=mask, other=0.0)
    tile_t = tl.trans(tile)  # [BLOCK_N, BLOCK_M]
    y_ptrs = y_ptr + offs_n[:, None] * stride_ym + offs_m[None, :] * stride_yn
    mask_t = (offs_n[:, None] < N) & (offs_m[None, :] < M)
    tl.store(y_ptrs, tile_t, mask=mask_t)
