"""Grouped GEMM as in Triton's grouped-GEMM tutorial: one launch of NUM_PROGRAMS programs computes a group of
independent products C_g = A_g @ B_g of different sizes. The matrices are reached through tables of their
addresses (i64, cast back with `.to(tl.pointer_type(...))`), the sizes and leading dimensions through i32 tables
(3 per product). Each program walks the tiles of all products with a `while` loop per product.
`grouped_matmul_kernel` loads through pointers (hinted with `tl.multiple_of` on the loop-carried pointers);
`grouped_tma_matmul_kernel` makes the products' tensor descriptors in the kernel, inside an `if` inside the
product loop, and uses them in the `while` loop (there B_g is N x K and C_g = A_g @ B_g^T)."""
import triton
import triton.language as tl


@triton.jit
def grouped_matmul_kernel(a_table, b_table, c_table, sizes, lds, group_count, NUM_PROGRAMS: tl.constexpr,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    tile = tl.program_id(0)
    first_tile = 0
    for g in range(group_count):
        m = tl.load(sizes + g * 3)
        n = tl.load(sizes + g * 3 + 1)
        k = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(n, BN)
        tiles = tl.cdiv(m, BM) * tiles_n
        while tile >= first_tile and tile < first_tile + tiles:
            lda = tl.load(lds + g * 3)
            ldb = tl.load(lds + g * 3 + 1)
            ldc = tl.load(lds + g * 3 + 2)
            a_ptr = tl.load(a_table + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(b_table + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(c_table + g).to(tl.pointer_type(tl.float16))
            local = tile - first_tile
            rows = (local // tiles_n) * BM + tl.arange(0, BM)
            cols = (local % tiles_n) * BN + tl.arange(0, BN)
            ks = tl.arange(0, BK)
            a_ptrs = a_ptr + rows[:, None] * lda + ks[None, :]
            b_ptrs = b_ptr + ks[:, None] * ldb + cols[None, :]
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for _ in range(0, tl.cdiv(k, BK)):
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
                a_ptrs += BK
                b_ptrs += BK * ldb
            tl.store(c_ptr + rows[:, None] * ldc + cols[None, :], acc.to(tl.float16))
            tile += NUM_PROGRAMS
        first_tile = first_tile + tiles


@triton.jit
def grouped_tma_matmul_kernel(a_table, b_table, c_table, sizes, lds, group_count, NUM_PROGRAMS: tl.constexpr,
                              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, FP8: tl.constexpr):
    dtype = tl.float8e4nv if FP8 else tl.float16
    tile = tl.program_id(0)
    first_tile = 0
    for g in range(group_count):
        m = tl.load(sizes + g * 3)
        n = tl.load(sizes + g * 3 + 1)
        k = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(n, BN)
        tiles = tl.cdiv(m, BM) * tiles_n
        if tile >= first_tile and tile < first_tile + tiles:
            a_desc = tl.make_tensor_descriptor(tl.load(a_table + g).to(tl.pointer_type(dtype)), shape=[m, k],
                                               strides=[tl.load(lds + g * 3), 1], block_shape=[BM, BK])
            b_desc = tl.make_tensor_descriptor(tl.load(b_table + g).to(tl.pointer_type(dtype)), shape=[n, k],
                                               strides=[tl.load(lds + g * 3 + 1), 1], block_shape=[BN, BK])
            c_desc = tl.make_tensor_descriptor(tl.load(c_table + g).to(tl.pointer_type(dtype)), shape=[m, n],
                                               strides=[tl.load(lds + g * 3 + 2), 1], block_shape=[BM, BN])
            while tile >= first_tile and tile < first_tile + tiles:
                local = tile - first_tile
                off_m = (local // tiles_n) * BM
                off_n = (local % tiles_n) * BN
                acc = tl.zeros((BM, BN), dtype=tl.float32)
                for kk in range(0, tl.cdiv(k, BK)):
                    acc += tl.dot(a_desc.load([off_m, kk * BK]), b_desc.load([off_n, kk * BK]).T)
                c_desc.store([off_m, off_n], acc.to(dtype))
                tile += NUM_PROGRAMS
        first_tile = first_tile + tiles
