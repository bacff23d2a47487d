import triton
import triton.language as tl


@triton.jit
def random_streams_kernel(bits_ptr, normal_ptr, n_elements, seed, offset_base, BLOCK_SIZE: tl.constexpr):
    # Four streams of random bits and one of standard normals per element, from Philox counters that start
    # at offset_base: with a 64-bit offset_base past 2**32 the counter's high word is used too.
    pid = tl.program_id(0)
    idx = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = idx < n_elements
    offsets = offset_base + idx
    r0, r1, r2, r3 = tl.randint4x(seed, offsets)
    tl.store(bits_ptr + idx, r0, mask=mask)
    tl.store(bits_ptr + n_elements + idx, r1, mask=mask)
    tl.store(bits_ptr + 2 * n_elements + idx, r2, mask=mask)
    tl.store(bits_ptr + 3 * n_elements + idx, r3, mask=mask)
    tl.store(normal_ptr + idx, tl.randn(seed, offsets), mask=mask)
