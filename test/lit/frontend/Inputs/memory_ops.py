import triton
import triton.language as tl


@triton.jit
def masked_copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(src + offs, mask=mask, other=-1.5, cache_modifier=".cg", eviction_policy="evict_last")
    tl.store(dst + offs, x, mask=mask, cache_modifier=".cs", eviction_policy="evict_first")


@triton.jit
def scalar_ops(src, dst, flag_ptr):
    v = tl.load(src)
    tl.store(dst, v + 1)
    tl.store(dst + 1, 7)
    b = tl.load(flag_ptr, volatile=True)
    tl.store(flag_ptr, b)


@triton.jit
def broadcast_2d(src, dst, stride, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    ptrs = src + rm[:, None] * stride + rn[None, :]
    x = tl.load(ptrs, mask=rn[None, :] < stride, other=0)
    tl.store(dst + rm[:, None] * N + rn[None, :], x.to(tl.float16))
    tl.store(dst + rn, 0.0, mask=rn < 4)
