import triton
import triton.language as tl


@triton.jit
def tma_matmul_kernel(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_PROGRAMS: tl.constexpr):
    # Persistent: NUM_PROGRAMS programs walk the C tiles, in groups of GROUP_M rows of tiles (so that
    # consecutive tiles share A rows); A is M x K, B is N x K (both K-contiguous), C = A @ B^T.
    # The descriptors clip the edge tiles: zeros are read past M, N and K, nothing is written past M and N.
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    k_steps = tl.cdiv(K, BLOCK_K)
    tiles_per_group = GROUP_M * tiles_n
    for tile in range(tl.program_id(0), tiles_m * tiles_n, NUM_PROGRAMS):
        group = tile // tiles_per_group
        first_m = group * GROUP_M
        rows = min(tiles_m - first_m, GROUP_M)
        tile_m = first_m + (tile % tiles_per_group) % rows
        tile_n = (tile % tiles_per_group) // rows
        off_m = tile_m * BLOCK_M
        off_n = tile_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(k_steps):
            a = a_desc.load([off_m, k * BLOCK_K])
            b = b_desc.load([off_n, k * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([off_m, off_n], acc.to(tl.float16))
