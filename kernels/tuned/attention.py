"""An autotuned flash-attention forward in the style of Triton's fused-attention tutorial: one program per block
of queries of one head, the configs a comprehension over BLOCK_M, BLOCK_N, stages and warps, pruned by a helper
that drops query blocks longer than the sequence (N_CTX is a constexpr the call passes, so the prune function
gets it as a keyword) and big tiles with few warps. Out = softmax(Q K^T * sm_scale) V per head."""
import triton
import triton.language as tl


def attention_configs():
    return [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_stages=stages, num_warps=warps)
            for bm in (64, 128) for bn in (32, 64, 128) for stages in (2, 3, 4) for warps in (4, 8)]


def _useful(config):
    return config.kwargs["BLOCK_M"] * config.kwargs["BLOCK_N"] < 128 * 128 or config.num_warps == 8


def prune_invalid(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK_M"] <= kwargs["N_CTX"] and _useful(c)]


@triton.autotune(configs=attention_configs(), key=["N_CTX", "HEAD_DIM"],
                 prune_configs_by={"early_config_prune": prune_invalid})
@triton.jit
def attn_fwd(Q, K, V, Out, sm_scale, stride_h, stride_m, N_CTX: tl.constexpr, HEAD_DIM: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1).to(tl.int64) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + head + offs_m[:, None] * stride_m + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BLOCK_N):
        cols = start_n + offs_n
        kv = head + cols[:, None] * stride_m + offs_d[None, :]
        k = tl.load(K + kv, mask=cols[:, None] < N_CTX, other=0.0)
        qk = tl.dot(q, tl.trans(k))
        qk = tl.where(cols[None, :] < N_CTX, qk * qk_scale, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + kv, mask=cols[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + head + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(tl.float16),
             mask=offs_m[:, None] < N_CTX)
