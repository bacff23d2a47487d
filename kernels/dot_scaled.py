"""Block-scaled matmul (microscaling, OCP MX): C = (A * 2^(SA - 127)) @ (B * 2^(SB - 127)), where every run of 32
consecutive K elements of a row of A (a column of B) shares one e8m0 scale byte. In the style of Triton's
block-scaled matmul tutorial, with pointer loads (Hopper has no native MX dot: Triton upcasts the operands to
bf16, applies the scales and runs an ordinary dot). `mxfp8_matmul_kernel`: e4m3 x e4m3, both scaled;
`mxfp4_matmul_kernel`: e2m1 (two per byte, the first in the low nibble, packed along K) with scales x bf16."""
import triton
import triton.language as tl


@triton.jit
def mxfp8_matmul_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M, N, K,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """a: M x K e4m3 bytes, b: K x N e4m3 bytes, a_scale: M x K/32, b_scale: N x K/32 (e8m0), c: M x N fp32;
    row-major, M, N, K multiples of the blocks."""
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_s = tl.arange(0, BLOCK_K // 32)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_n[None, :]
    a_scale_ptrs = a_scale_ptr + offs_m[:, None] * (K // 32) + offs_s[None, :]
    b_scale_ptrs = b_scale_ptr + offs_n[:, None] * (K // 32) + offs_s[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K // BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        a_scale = tl.load(a_scale_ptrs)
        b_scale = tl.load(b_scale_ptrs)
        acc = tl.dot_scaled(a, a_scale, "e4m3", b, b_scale, "e4m3", acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
        a_scale_ptrs += BLOCK_K // 32
        b_scale_ptrs += BLOCK_K // 32
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)


@triton.jit
def mxfp4_matmul_kernel(a_ptr, a_scale_ptr, b_ptr, c_ptr, M, N, K,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """a: M x K/2 bytes of e2m1 pairs, a_scale: M x K/32 (e8m0), b: K x N bf16, c: M x N fp32."""
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_ak = tl.arange(0, BLOCK_K // 2)
    offs_k = tl.arange(0, BLOCK_K)
    offs_s = tl.arange(0, BLOCK_K // 32)
    a_ptrs = a_ptr + offs_m[:, None] * (K // 2) + offs_ak[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_n[None, :]
    a_scale_ptrs = a_scale_ptr + offs_m[:, None] * (K // 32) + offs_s[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K // BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        a_scale = tl.load(a_scale_ptrs)
        acc = tl.dot_scaled(a, a_scale, "e2m1", b, None, "bf16", acc)
        a_ptrs += BLOCK_K // 2
        b_ptrs += BLOCK_K * N
        a_scale_ptrs += BLOCK_K // 32
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)
