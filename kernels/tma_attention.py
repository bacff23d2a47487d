import triton
import triton.language as tl


@triton.jit
def tma_attn_fwd_kernel(q_desc, k_desc, v_desc, o_desc, sm_scale, seq_len, HEAD_DIM: tl.constexpr,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Single-head, non-causal fused attention forward through host tensor descriptors:
    # O = softmax(Q @ K^T * sm_scale) @ V, one BLOCK_M block of queries per program.
    # The descriptors clip the edge tiles (rows past seq_len read as zeros and are not stored);
    # key columns past seq_len are masked to -inf before the softmax.
    off_m = tl.program_id(0) * BLOCK_M
    q = q_desc.load([off_m, 0])
    m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
    l_i = tl.full([BLOCK_M], 1.0, dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # exp2 instead of exp: log2(e) folded into the scale
    offs_n = tl.arange(0, BLOCK_N)
    for start_n in range(0, seq_len, BLOCK_N):
        k = k_desc.load([start_n, 0])
        qk = tl.dot(q, k.T)
        qk = tl.where((start_n + offs_n)[None, :] < seq_len, qk * qk_scale, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = v_desc.load([start_n, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    o_desc.store([off_m, 0], acc.to(tl.float16))
