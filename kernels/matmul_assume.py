"""The matmul of Triton's matmul tutorial, as users start from it: grouped program order, `tl.assume` facts
about program ids and strides (the unit strides are specialized to 1, so some facts are constants), offsets
hinted with `tl.max_contiguous(tl.multiple_of(...))`, and an activation chosen by a string constexpr."""
import triton
import triton.language as tl


@triton.jit
def _leaky(v):
    return tl.where(v >= 0, v, 0.01 * v)


@triton.jit
def matmul_assume_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                         stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
                         ACT: tl.constexpr):
    """c = act(a @ b) in f16, accumulated in f32; a is M x K, b is K x N."""
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    per_group = GROUP * tiles_n
    first_m = (pid // per_group) * GROUP
    rows = min(tiles_m - first_m, GROUP)
    tile_m = first_m + (pid % per_group) % rows
    tile_n = (pid % per_group) // rows
    tl.assume(tile_m >= 0)
    tl.assume(tile_n >= 0)
    tl.assume(stride_am > 0)
    tl.assume(stride_ak > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_bn > 0)
    tl.assume(stride_cm > 0)
    tl.assume(stride_cn > 0)
    offs_m = tl.max_contiguous(tl.multiple_of((tile_m * BM + tl.arange(0, BM)) % M, BM), BM)
    offs_n = tl.max_contiguous(tl.multiple_of((tile_n * BN + tl.arange(0, BN)) % N, BN), BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    if ACT == "leaky_relu":
        acc = _leaky(acc)
    c = acc.to(tl.float16)
    cm = tile_m * BM + tl.arange(0, BM)
    cn = tile_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + stride_cm * cm[:, None] + stride_cn * cn[None, :], c, mask=(cm[:, None] < M) & (cn[None, :] < N))
