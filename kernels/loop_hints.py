"""Loop hints: `tl.range(..., loop_unroll_factor=, num_stages=, flatten=, disallow_acc_multi_buffer=,
warp_specialize=)` and `tl.static_range`. `row_sum_kernel` sums the rows of an M x K matrix (an unrolled K loop in
an outer loop with hints sm_90 cannot act on, a loop marked for flattening, a static loop); `hinted_matmul_kernel` is the
tutorial matmul with its K loop pipelined by a per-loop `num_stages`."""
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, w_ptr, out_ptr, M, K, REPEATS, TAPS,
                   BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr, HEAD: tl.constexpr):
    """out[m] = REPEATS * sum_k x[m, k] + sum_{t < TAPS} t * w[t] + sum_{t < HEAD} w[t]."""
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    total = tl.zeros([BLOCK_M], dtype=tl.float32)
    for r in tl.range(0, REPEATS, num_stages=1, disallow_acc_multi_buffer=True, warp_specialize=True):
        acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
        for k in tl.range(0, K, BLOCK_K, loop_unroll_factor=2):
            cols = k + tl.arange(0, BLOCK_K)
            acc += tl.load(x_ptr + rows[:, None] * K + cols[None, :], mask=row_ok[:, None] & (cols[None, :] < K),
                           other=0.0)
        total += tl.sum(acc, axis=1)
    for t in tl.range(0, TAPS, flatten=True):
        total += tl.load(w_ptr + t) * t
    for t in tl.static_range(HEAD):
        total += tl.load(w_ptr + t)
    tl.store(out_ptr + rows, total, mask=row_ok)


@triton.jit
def hinted_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         STAGES: tl.constexpr):
    """c = a @ b (f16 in, f32 accumulate, f16 out), row-major with unit inner strides."""
    offs_m = (tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=STAGES):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :], acc.to(tl.float16),
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))
