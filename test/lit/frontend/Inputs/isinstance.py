import triton
import triton.language as tl


@triton.jit
def _as_desc(x):
    if isinstance(x, tl.tensor_descriptor):
        return x
    else:
        return tl.make_tensor_descriptor(x, [16, 16], [16, 1], [16, 16])


@triton.jit
def kinds(d, p, out, N: tl.constexpr):
    tl.static_assert(isinstance(p, (tl.tensor, float)) and not isinstance(p, tl.tensor_descriptor))
    tl.static_assert(isinstance(N, int) and not isinstance(N, tl.tensor))
    tl.store(out, isinstance(d, tl.tensor_descriptor_base))
    _as_desc(d).store([0, 0], _as_desc(p).load([0, 0]))


@triton.jit
def bad_class(p):
    tl.static_assert(isinstance(p, 3))


@triton.jit
def int_descs(a, b):
    b.store([0, 0], a.load([0, 0]).to(tl.uint8))
