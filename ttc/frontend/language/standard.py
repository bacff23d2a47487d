"""`triton.language.standard` written in the kernel language: the library functions that Triton compiles
like user helpers (each call becomes a `tt.call` to a private function named
`triton.language.standard.<name>__<argument types>__<constexpr arguments>`).

The frontend reads this file as source, under the module name `triton.language.standard`; parameter lists
follow Triton's, since the mangled names spell out constexpr arguments by position. (Importing it as Python
works too: `jit` is an identity decorator.)
"""

from ttc.frontend.jit import jit
from ttc.frontend.language import core, math
from ttc.frontend.language.compile_time import pick_sum_dtype as _pick_sum_dtype


@jit
def cdiv(x, div):
    # ceil(x / div) for positive integers
    return (x + (div - 1)) // div


@jit
def sigmoid(x):
    return 1 / (1 + math.exp(-x))


@jit
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    if dim is not None:
        axis: core.constexpr = dim
    else:
        axis: core.constexpr = 0
    shifted = x - max(x, axis, keep_dims=keep_dims)
    e = math.exp(shifted)
    return math.fdiv(e, sum(e, axis, keep_dims=keep_dims), ieee_rounding)


@jit
def ravel(x, can_reorder=False):
    return core.reshape(x, [x.numel], can_reorder=can_reorder)


@jit
def swizzle2d(i, j, size_i, size_j, size_g):
    # row-major (i, j) -> column-major order inside groups of size_g rows
    linear = i * size_j + j
    group_size = size_g * size_j
    group = linear // group_size
    first_row = group * size_g
    size_g = core.minimum(size_i - first_row, size_g)
    linear = linear % group_size
    return first_row + linear % size_g, linear // size_g


@jit
def zeros(shape, dtype):
    return core.full(shape, 0, dtype)


@jit
def zeros_like(input):
    return zeros(input.shape, input.dtype)


# ----------------------------------------------------------------------------- max / argmax / min / argmin
# The combine functions of argmax/argmin keep (value, index) pairs; with tie_break_left, equal values keep
# the smaller index.


@jit
def _argmax_combine(value1, index1, value2, index2, tie_break_left):
    if tie_break_left:
        tie = value1 == value2 and index1 < index2
    else:
        tie = False
    take_first = value1 > value2 or tie
    return core.where(take_first, value1, value2), core.where(take_first, index1, index2)


@jit
def _argmax_combine_tie_break_left(value1, index1, value2, index2):
    return _argmax_combine(value1, index1, value2, index2, True)


@jit
def _argmax_combine_tie_break_fast(value1, index1, value2, index2):
    return _argmax_combine(value1, index1, value2, index2, False)


@jit
def _elementwise_max(a, b):
    return core.maximum(a, b)


@jit
def max(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False):
    input = core._promote_bfloat16_to_float32(input)
    if not return_indices:
        if input.dtype.primitive_bitwidth < 32:
            # reduce narrow types in 32 bits
            if input.dtype.is_floating():
                input = input.to(core.float32)
            else:
                core.device_assert(input.dtype.is_int(), "max needs an integer or floating-point input")
                input = input.to(core.int32)
        return core.reduce(input, axis, _elementwise_max, keep_dims=keep_dims)
    elif return_indices_tie_break_left:
        return core._reduce_with_indices(input, axis, _argmax_combine_tie_break_left, keep_dims=keep_dims)
    else:
        return core._reduce_with_indices(input, axis, _argmax_combine_tie_break_fast, keep_dims=keep_dims)


@jit
def argmax(input, axis, tie_break_left=True, keep_dims=False):
    values, indices = max(input, axis, return_indices=True, return_indices_tie_break_left=tie_break_left,
                          keep_dims=keep_dims)
    return indices


@jit
def _argmin_combine(value1, index1, value2, index2, tie_break_left):
    if tie_break_left:
        tie = value1 == value2 and index1 < index2
    else:
        tie = False
    take_first = value1 < value2 or tie
    return core.where(take_first, value1, value2), core.where(take_first, index1, index2)


@jit
def _argmin_combine_tie_break_left(value1, index1, value2, index2):
    return _argmin_combine(value1, index1, value2, index2, True)


@jit
def _argmin_combine_tie_break_fast(value1, index1, value2, index2):
    return _argmin_combine(value1, index1, value2, index2, False)


@jit
def _elementwise_min(a, b):
    return core.minimum(a, b)


@jit
def min(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False):
    input = core._promote_bfloat16_to_float32(input)
    if not return_indices:
        if input.dtype.primitive_bitwidth < 32:
            if input.dtype.is_floating():
                input = input.to(core.float32)
            else:
                core.device_assert(input.dtype.is_int(), "min needs an integer or floating-point input")
                input = input.to(core.int32)
        return core.reduce(input, axis, _elementwise_min, keep_dims=keep_dims)
    elif return_indices_tie_break_left:
        return core._reduce_with_indices(input, axis, _argmin_combine_tie_break_left, keep_dims=keep_dims)
    else:
        return core._reduce_with_indices(input, axis, _argmin_combine_tie_break_fast, keep_dims=keep_dims)


@jit
def argmin(input, axis, tie_break_left=True, keep_dims=False):
    values, indices = min(input, axis, return_indices=True, return_indices_tie_break_left=tie_break_left,
                          keep_dims=keep_dims)
    return indices


# ----------------------------------------------------------------------------- sums and bitwise reductions


@jit
def _sum_combine(a, b):
    return a + b


@jit
def sum(input, axis=None, keep_dims=False, dtype: core.constexpr = None):
    accumulate_as: core.constexpr = _pick_sum_dtype(input.dtype, dtype)
    if accumulate_as is not None:
        input = input.to(accumulate_as)
    return core.reduce(input, axis, _sum_combine, keep_dims=keep_dims)


@jit
def _xor_combine(a, b):
    return a ^ b


@jit
def xor_sum(input, axis=None, keep_dims=False):
    core.static_assert(input.type.scalar.is_int(), "xor_sum only supported for integers")
    return core.reduce(input, axis, _xor_combine, keep_dims=keep_dims)


@jit
def _or_combine(x, y):
    return x | y


@jit
def reduce_or(input, axis, keep_dims=False):
    core.static_assert(input.type.scalar.is_int(), "reduce_or only supported for integers")
    return core.reduce(input, axis, _or_combine, keep_dims=keep_dims)


# ----------------------------------------------------------------------------- scans


@jit
def cumsum(input, axis=0, reverse=False, dtype: core.constexpr = None):
    input = core._promote_bfloat16_to_float32(input)
    accumulate_as: core.constexpr = _pick_sum_dtype(input.dtype, dtype)
    if accumulate_as is not None:
        input = input.to(accumulate_as)
    return core.associative_scan(input, axis, _sum_combine, reverse)


@jit
def _prod_combine(a, b):
    return a * b


@jit
def cumprod(input, axis=0, reverse=False):
    input = core._promote_bfloat16_to_float32(input)
    return core.associative_scan(input, axis, _prod_combine, reverse)
