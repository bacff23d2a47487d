import triton
import triton.language as tl


@triton.jit
def formats(a_ptr, b_ptr, s_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m, n, k = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])            # e5m2 bytes (uint8)
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])            # e4m3 bytes
    s = tl.load(s_ptr + n[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    c = tl.dot_scaled(a, None, "e5m2", b, s, "e4m3")
    tl.store(c_ptr + m[:, None] * N + n[None, :], c)


@triton.jit
def fp4_along_n(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m, n, k = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])            # fp16
    b = tl.load(b_ptr + k[:, None] * (N // 2) + tl.arange(0, N // 2)[None, :])  # e2m1 pairs along N
    acc = tl.full((M, N), 1.0, tl.float32)
    c = tl.dot_scaled(a, None, "fp16", b, None, "e2m1", acc, fast_math=True, rhs_k_pack=False)
    tl.store(c_ptr + m[:, None] * N + n[None, :], c)


@triton.jit
def bad_format(a_ptr, c_ptr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    c = tl.dot_scaled(a, None, "e3m3", a, None, "e4m3")
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], c)


@triton.jit
def bad_scale_shape(a_ptr, s_ptr, c_ptr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    s = tl.load(s_ptr + r[:, None] + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, s, "e4m3", a, None, "e4m3")
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], c)


@triton.jit
def fp4_not_bytes(a_ptr, c_ptr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    c = tl.dot_scaled(a, None, "e2m1", a, None, "bf16")
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], c)
