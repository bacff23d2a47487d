"""Causal fused attention forward in the form of Triton's fused-attention tutorial: the inputs are host tensor
descriptors or plain pointers (a helper picks with `isinstance(x, tl.tensor_descriptor)` and makes a descriptor
in the kernel otherwise), one helper runs the blocks left of the diagonal and the diagonal block (a constexpr
picks which, with a `tl.multiple_of` range start), `tl.static_assert` checks the block shapes, and the
log-sum-exp of every row is stored for a backward pass. Q, K, V, O are (heads * seq_len) x HEAD_DIM."""
import triton
import triton.language as tl


@triton.jit
def _desc_or_make(x, shape, strides, block_shape):
    if isinstance(x, tl.tensor_descriptor):
        return x
    else:
        return tl.make_tensor_descriptor(x, shape, strides, block_shape)


@triton.jit
def _attend(acc, l_i, m_i, q, k_desc, v_desc, head_row, q_block, scale, offs_m, offs_n, BM: tl.constexpr,
            BN: tl.constexpr, DIAGONAL: tl.constexpr):
    if DIAGONAL:
        lo, hi = q_block * BM, (q_block + 1) * BM
        lo = tl.multiple_of(lo, BM)
    else:
        lo, hi = 0, q_block * BM
    for start in range(lo, hi, BN):
        start = tl.multiple_of(start, BN)
        s = tl.dot(q, k_desc.load([head_row + start, 0]).T)
        if DIAGONAL:
            s = s * scale + tl.where(offs_m[:, None] >= start + offs_n[None, :], 0, -1.0e6)
            m_new = tl.maximum(m_i, tl.max(s, 1))
            s -= m_new[:, None]
        else:
            m_new = tl.maximum(m_i, tl.max(s, 1) * scale)
            s = s * scale - m_new[:, None]
        p = tl.math.exp2(s)
        alpha = tl.math.exp2(m_i - m_new)
        acc = tl.dot(p.to(tl.float16), v_desc.load([head_row + start, 0]), acc * alpha[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def causal_attention_kernel(sm_scale, lse_ptr, heads, q_in, k_in, v_in, o_in, seq_len, HEAD_DIM: tl.constexpr,
                       BM: tl.constexpr, BN: tl.constexpr):
    tl.static_assert(BN <= HEAD_DIM)
    tl.static_assert(BM % BN == 0, "the diagonal block is whole key blocks")
    q_block = tl.program_id(0)
    head = tl.program_id(1)
    rows = heads * seq_len
    q_desc = _desc_or_make(q_in, [rows, HEAD_DIM], [HEAD_DIM, 1], [BM, HEAD_DIM])
    k_desc = _desc_or_make(k_in, [rows, HEAD_DIM], [HEAD_DIM, 1], [BN, HEAD_DIM])
    v_desc = _desc_or_make(v_in, [rows, HEAD_DIM], [HEAD_DIM, 1], [BN, HEAD_DIM])
    o_desc = _desc_or_make(o_in, [rows, HEAD_DIM], [HEAD_DIM, 1], [BM, HEAD_DIM])
    head_row = head * seq_len
    offs_m = q_block * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, HEAD_DIM], dtype=tl.float32)
    scale = sm_scale * 1.44269504  # exp2 instead of exp
    q = q_desc.load([head_row + q_block * BM, 0])
    acc, l_i, m_i = _attend(acc, l_i, m_i, q, k_desc, v_desc, head_row, q_block, scale, offs_m, offs_n, BM, BN,
                            DIAGONAL=False)
    acc, l_i, m_i = _attend(acc, l_i, m_i, q, k_desc, v_desc, head_row, q_block, scale, offs_m, offs_n, BM, BN,
                            DIAGONAL=True)
    m_i += tl.math.log2(l_i)
    tl.store(lse_ptr + head * seq_len + offs_m, m_i)
    o_desc.store([head_row + q_block * BM, 0], (acc / l_i[:, None]).to(tl.float16))
