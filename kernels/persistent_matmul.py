"""The persistent matmuls of Triton's persistent-matmul tutorial, as users start from them: a fixed number of
programs walk the C tiles with `tl.range(..., flatten=..., warp_specialize=...)`, a helper returns the tile's
(row, column) in grouped order, the epilogue recomputes it from its own counter, and with SUBTILE the f32
accumulator is stored as two halves (`reshape` to BM x 2 x BN/2, `permute`, `split`) through a descriptor of
half-width blocks. `tma_persistent_matmul_kernel` takes host descriptors, `desc_persistent_matmul_kernel` makes
them in the kernel from pointers. A is M x K, B is N x K (both K-contiguous): C = A @ B^T."""
import triton
import triton.language as tl


@triton.jit
def _tile_of(tile, tiles_per_group, tiles_m, GROUP_M: tl.constexpr):
    first_m = (tile // tiles_per_group) * GROUP_M
    rows = min(tiles_m - first_m, GROUP_M)
    return first_m + (tile % tiles_per_group) % rows, (tile % tiles_per_group) // rows


@triton.jit
def _store_tile(c_desc, acc, off_m, off_n, dtype: tl.constexpr, BN: tl.constexpr, SUBTILE: tl.constexpr):
    if SUBTILE:
        halves = tl.permute(tl.reshape(acc, (acc.shape[0], 2, BN // 2)), (0, 2, 1))
        left, right = tl.split(halves)
        c_desc.store([off_m, off_n], left.to(dtype))
        c_desc.store([off_m, off_n + BN // 2], right.to(dtype))
    else:
        c_desc.store([off_m, off_n], acc.to(dtype))


@triton.jit
def tma_persistent_matmul_kernel(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                                 BK: tl.constexpr, GROUP_M: tl.constexpr, FP8_OUT: tl.constexpr,
                                 SUBTILE: tl.constexpr, NUM_PROGRAMS: tl.constexpr, FLATTEN: tl.constexpr,
                                 WARP_SPECIALIZE: tl.constexpr):
    dtype = tl.float8e4nv if FP8_OUT else tl.float16
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    k_steps = tl.cdiv(K, BK)
    tiles_per_group = GROUP_M * tiles_n
    epilogue_tile = tl.program_id(0) - NUM_PROGRAMS
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_PROGRAMS, flatten=FLATTEN,
                         warp_specialize=WARP_SPECIALIZE):
        tile_m, tile_n = _tile_of(tile, tiles_per_group, tiles_m, GROUP_M)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(k_steps):
            a = a_desc.load([tile_m * BM, k * BK])
            b = b_desc.load([tile_n * BN, k * BK])
            acc = tl.dot(a, b.T, acc)
        epilogue_tile += NUM_PROGRAMS
        tile_m, tile_n = _tile_of(epilogue_tile, tiles_per_group, tiles_m, GROUP_M)
        _store_tile(c_desc, acc, tile_m * BM, tile_n * BN, dtype, BN, SUBTILE)


@triton.jit
def desc_persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                                  BK: tl.constexpr, GROUP_M: tl.constexpr, SUBTILE: tl.constexpr,
                                  NUM_PROGRAMS: tl.constexpr, FLATTEN: tl.constexpr):
    dtype = c_ptr.dtype.element_ty
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BM, BN // 2 if SUBTILE else BN])
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    k_steps = tl.cdiv(K, BK)
    tiles_per_group = GROUP_M * tiles_n
    epilogue_tile = tl.program_id(0) - NUM_PROGRAMS
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_PROGRAMS, flatten=FLATTEN):
        tile_m, tile_n = _tile_of(tile, tiles_per_group, tiles_m, GROUP_M)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(k_steps):
            acc = tl.dot(a_desc.load([tile_m * BM, k * BK]), b_desc.load([tile_n * BN, k * BK]).T, acc)
        epilogue_tile += NUM_PROGRAMS
        tile_m, tile_n = _tile_of(epilogue_tile, tiles_per_group, tiles_m, GROUP_M)
        _store_tile(c_desc, acc, tile_m * BM, tile_n * BN, dtype, BN, SUBTILE)
