import triton
import triton.language as tl


@triton.jit
def host_desc(a_desc, out_desc, BLOCK: tl.constexpr):
    off = tl.program_id(0) * BLOCK
    a = a_desc.load([off, 0])
    out_desc.store([off, 0], a * 2)
    out_desc.atomic_add([off, 0], a)
    out_desc.atomic_max([off, 0], a)


@triton.jit
def make_desc(x_ptr, M, N, BLOCK_N: tl.constexpr):
    d = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[16, BLOCK_N],
                                  padding_option="nan")
    v = d.load([0, tl.program_id(0) * BLOCK_N])
    d.store([0, 0], v + 1.0)


@triton.jit
def helper(desc, off):
    return desc.load([off, 0])


@triton.jit
def desc_to_helper(a_desc, out_desc):
    out_desc.store([0, 0], helper(a_desc, 8))


@triton.jit
def bad_block(x_ptr, M, N):
    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [16, 48])
    d.store([0, 0], d.load([0, 0]))


@triton.jit
def bad_rank(x_ptr, M, N):
    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [16])


@triton.jit
def bad_offsets(a_desc):
    a_desc.load([0])


@triton.jit
def bad_store_shape(a_desc):
    a_desc.store([0, 0], tl.zeros([16, 16], tl.float32))


@triton.jit
def bad_stride(x_ptr, M, N):
    d = tl.make_tensor_descriptor(x_ptr, [M, N], [1, N], [16, 16])


@triton.jit
def gather_rows(a_desc, rows):
    a_desc.gather(tl.load(rows + tl.arange(0, 8)), 0)
