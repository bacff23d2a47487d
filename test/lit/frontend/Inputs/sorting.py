import triton
import triton.language as tl


@triton.jit
def sorts(x_ptr, o_ptr, N: tl.constexpr):
    # rows of a 4xN block: sorted both ways, top 4, bitonic merge of a bitonic row
    offs = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, tl.sort(x))
    tl.store(o_ptr + offs, tl.sort(x, dim=1, descending=True))
    tl.store(o_ptr + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :], tl.topk(x, 4))
    tl.store(o_ptr + offs, tl.bitonic_merge(x))


@triton.jit
def flips(x_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(o_ptr + offs, tl.flip(x, 1))
    tl.store(o_ptr + offs, x.flip(0))
    tl.store(o_ptr + offs, tl.flip(x, -1))


@triton.jit
def interleaves(a_ptr, b_ptr, o_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    tl.store(o_ptr + tl.arange(0, 2 * N), tl.interleave(a, b))
    tl.store(o_ptr + tl.arange(0, 2), tl.interleave(tl.load(a_ptr), tl.load(b_ptr)))


@triton.jit
def gathers(x_ptr, i_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    idx = tl.load(i_ptr + offs)
    tl.store(o_ptr + offs, tl.gather(x, idx, 1))
    tl.store(o_ptr + offs, x.gather(idx.to(tl.int64), -1))
    tl.store(o_ptr + offs, tl.gather(x, idx.to(tl.uint8) & 3, axis=0))


@triton.jit
def sort_dim0(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(x_ptr + offs, tl.sort(tl.load(x_ptr + offs), dim=0))


@triton.jit
def topk_odd(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(x_ptr + tl.arange(0, 2), tl.topk(x, 3))


@triton.jit
def gather_ranks(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.gather(x, tl.arange(0, N), 1))


@triton.jit
def gather_dims(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    idx = tl.zeros([8, 8], tl.int32)
    tl.store(x_ptr + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :], tl.gather(x, idx, 0))


@triton.jit
def gather_float_index(x_ptr, N: tl.constexpr):
    offs = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.gather(x, x, 1))


@triton.jit
def flip_no_dim(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(x_ptr + tl.arange(0, N), tl.flip(x))


@triton.jit
def sort_scalar(x_ptr):
    tl.store(x_ptr, tl.sort(tl.load(x_ptr)))


@triton.jit
def sort_odd_rows(x_ptr):
    # block dimensions are powers of two: a 3-row block is refused where it is made
    x = tl.full([3, 64], 1.0, tl.float32)
    tl.store(x_ptr + tl.arange(0, 64), tl.sum(tl.sort(x), 0))
