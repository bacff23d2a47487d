import triton
import triton.language as tl


@triton.jit
def shapes(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    t = tl.trans(x)
    p = tl.permute(x, (1, 0))
    tt_ = x.T
    r = tl.reshape(x, (N, M))
    v = x.reshape(N, M, can_reorder=True)
    e = tl.expand_dims(rm, 1)
    e2 = tl.expand_dims(rm, (0, 2))
    b = tl.broadcast_to(e, (M, N))
    flat = tl.ravel(x)
    c = tl.cat(rm, rm, can_reorder=True)
    j = tl.join(x, x)
    lo, hi = tl.split(j)
    full = tl.full((M, N), 3, tl.int32)
    zl = tl.zeros_like(x)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], lo + hi + tl.trans(t + p + tt_) + b + full + zl)
    tl.store(out_ptr + tl.arange(0, M * N), flat + tl.reshape(r + v, (M * N,)))
    tl.store(out_ptr + tl.arange(0, 2 * M), c)
    tl.store(out_ptr + rm[None, :, None], e2)
