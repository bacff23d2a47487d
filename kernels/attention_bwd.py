"""The key/value half of the causal fused-attention backward pass, in the form of Triton's fused-attention
tutorial: each program owns a block of BN keys of one head and walks the query blocks that attend to it, first
the diagonal block in smaller steps of BM // SLICE rows with the causal mask, then the rest unmasked; per step
P^T = exp2(K Q^T * scale * log2(e) - M), dV += P^T dO, dP^T = V dO^T, dS^T = P^T (dP^T - Delta), dK += dS^T Q.
The head's base offsets are i64 (`.to(tl.int64)`), the steps' sizes constexprs made in the kernel
(`X: tl.constexpr = ...`), and the block shapes checked with `tl.static_assert`.
M is the forward pass's log2-sum-exp of each scaled row, Delta the row sums of O * dO (its preprocessing)."""
import triton
import triton.language as tl


@triton.jit
def _kv_steps(dk, dv, Q, k, v, DO, M, Delta, scale, stride_tok, stride_d, BM: tl.constexpr, BN: tl.constexpr,
              HEAD_DIM: tl.constexpr, start_n, start_m, steps, MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BM)
    offs_n = start_n + tl.arange(0, BN)
    offs_d = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_d[:, None] * stride_d
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_d[None, :] * stride_d
    tl.static_assert(BN % BM == 0)
    curr_m = start_m
    for _ in range(steps):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BM)
        m = tl.load(M + offs_m)
        pT = tl.math.exp2(tl.dot(k, qT) * scale - m[None, :])
        if MASK:
            pT = tl.where(offs_m[None, :] >= offs_n[:, None], pT, 0.0)
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(tl.float16), do)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = (pT * (dpT - tl.load(Delta + offs_m)[None, :])).to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += BM
        qT_ptrs += BM * stride_tok
        do_ptrs += BM * stride_tok
    return dk, dv


@triton.jit
def attention_bwd_kernel(Q, K, V, sm_scale, DO, DK, DV, M, Delta, stride_z, stride_h, stride_tok, stride_d, H,
                         seq_len, BM: tl.constexpr, BN: tl.constexpr, SLICE: tl.constexpr, HEAD_DIM: tl.constexpr):
    LOG2E: tl.constexpr = 1.4426950408889634
    bh = tl.program_id(2)
    head = (stride_h * (bh % H) + stride_z * (bh // H)).to(tl.int64)
    rows = (bh * seq_len).to(tl.int64)
    Q += head
    K += head
    V += head
    DO += head
    DK += head
    DV += head
    M += rows
    Delta += rows
    offs_d = tl.arange(0, HEAD_DIM)
    start_n = tl.program_id(0) * BN
    offs_n = start_n + tl.arange(0, BN)
    kv_offs = offs_n[:, None] * stride_tok + offs_d[None, :] * stride_d
    k = tl.load(K + kv_offs)
    v = tl.load(V + kv_offs)
    dk = tl.zeros([BN, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BN, HEAD_DIM], dtype=tl.float32)
    DIAG_BM: tl.constexpr = BM // SLICE
    dk, dv = _kv_steps(dk, dv, Q, k, v, DO, M, Delta, sm_scale * LOG2E, stride_tok, stride_d, DIAG_BM, BN,
                       HEAD_DIM, start_n, start_n, BN // DIAG_BM, MASK=True)
    dk, dv = _kv_steps(dk, dv, Q, k, v, DO, M, Delta, sm_scale * LOG2E, stride_tok, stride_d, BM, BN, HEAD_DIM,
                       start_n, start_n + BN, (seq_len - start_n - BN) // BM, MASK=False)
    tl.store(DV + kv_offs, dv.to(tl.float16))
    tl.store(DK + kv_offs, (dk * sm_scale).to(tl.float16))
