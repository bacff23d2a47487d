import triton
import triton.language as tl


@triton.jit
def tile_copy(src, dst, M, N, stride_m, stride_n, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    src_block = tl.make_block_ptr(src, shape=(M, N), strides=(stride_m, stride_n), offsets=(pid * BM, 0),
                                  block_shape=(BM, BN), order=(1, 0))
    dst_block = tl.make_block_ptr(dst, (M, N), (stride_m, stride_n), (pid * BM, 0), (BM, BN), (1, 0))
    for _ in range(0, N, BN):
        tile = tl.load(src_block, boundary_check=(1, 0), padding_option="nan")
        tl.store(dst_block, tile * 2, boundary_check=(0,))
        src_block = tl.advance(src_block, (0, BN))
        dst_block = dst_block.advance([0, BN])
    first = tl.load(src_block)
    tl.store(dst_block, first)


@triton.jit
def row_ptr(src, dst, n, B: tl.constexpr):
    p = tl.make_block_ptr(base=src, shape=[n], strides=[1], offsets=[0], block_shape=[B], order=[0])
    tl.store(dst + tl.arange(0, B), tl.load(p, boundary_check=[0], padding_option="zero"))
