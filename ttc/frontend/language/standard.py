"""`triton.language.standard` written in the kernel language: the library functions that Triton compiles
like user helpers (each call becomes a `tt.call` to a private function named
`triton.language.standard.<name>__<argument types>__<constexpr arguments>`).

The frontend reads this file as source, under the module name `triton.language.standard`; parameter lists
follow Triton's, since the mangled names spell out constexpr arguments by position. (Importing it as Python
works too: `jit` is an identity decorator.)
"""

from ttc.frontend.jit import jit
from ttc.frontend.language import core, math
from ttc.frontend.language.compile_time import flip_axis as _flip_axis
from ttc.frontend.language.compile_time import int_dtype as _int_dtype
from ttc.frontend.language.compile_time import is_power_of_two as _is_power_of_two
from ttc.frontend.language.compile_time import log2 as _log2
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


# ----------------------------------------------------------------------------- sort / topk / flip / interleave
# Bitonic sorting on a "hypercube": a block of 2**n elements reshaped to n dimensions of size 2, so that
# partners at distance 2**i along the sorted axis are the two entries of one dimension. Swapping them is an
# xor with the xor-reduction over that dimension (x ^ (x ^ y) == y), done on the integer bits.


@jit
def _indicator(n_dims: core.constexpr, j: core.constexpr):
    # [0, 1] along hypercube dimension j (counted from the innermost), broadcastable against the cube
    position = core.arange(0, 2)
    position = core.reshape(position, [1] * (n_dims - j - 1) + [2] + [1] * j)
    return position


@jit
def _compare_and_swap(x, flip, i: core.constexpr):
    n_dims: core.constexpr = _log2(x.numel)
    bits_type = _int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True)
    bits = x.to(bits_type, bitcast=True)
    partner_bits = bits ^ xor_sum(bits, n_dims - 1 - i, True)
    partner = partner_bits.to(x.dtype, bitcast=True)
    # the right-hand entry of a pair keeps the larger value unless this block sorts downwards
    is_right = _indicator(n_dims, i)
    return core.where((x > partner) != (flip ^ is_right), partner, x)


@jit
def _bitonic_merge_hypercube(x, stage: core.constexpr, order: core.constexpr):
    # order: 0 ascending, 1 descending, 2 alternating between blocks of 2**stage elements
    if order == 2:
        flip = _indicator(_log2(x.numel), stage)
    else:
        flip = order
    for i in core.static_range(stage):
        x = _compare_and_swap(x, flip, stage - 1 - i)
    return x


@jit
def _bitonic_merge(x, stage: core.constexpr, order: core.constexpr, n_dims: core.constexpr):
    cube = core.reshape(x, [2] * _log2(x.numel))
    cube = _bitonic_merge_hypercube(cube, stage, order)
    return core.reshape(cube, x.shape)


@jit
def sort_impl(x, k: core.constexpr = None, dim: core.constexpr = None, descending: core.constexpr = core.CONSTEXPR_0):
    # sorts the last dimension (the only one supported); with k, keeps the k first elements of the order
    core.static_assert(len(x.shape) > 0, "sort and topk need a tensor, not a scalar")
    axis: core.constexpr = len(x.shape) - 1 if dim is None else dim
    core.static_assert(axis == len(x.shape) - 1, "only minor dimension is currently supported")
    log_n: core.constexpr = _log2(x.shape[axis])
    core.static_assert(k is None or _is_power_of_two(k), "topk needs a power-of-two k")
    log_k: core.constexpr = log_n if k is None else _log2(k)
    n_dims: core.constexpr = _log2(x.numel)
    cube = core.reshape(x, [2] * n_dims if n_dims else [1])
    # bitonic sort of runs of 2**log_k elements (alternating directions until the last stage)
    for stage in core.static_range(1, log_k + 1):
        cube = _bitonic_merge_hypercube(cube, stage, 2 if stage < log_n else descending)
    # top-k: fold pairs of sorted runs with max/min, then re-merge the surviving run
    for stage in core.static_range(log_k + 1, log_n + 1):
        if descending:
            cube = max(cube, axis=(_log2(cube.numel) - 1 - log_k))
        else:
            cube = min(cube, axis=(_log2(cube.numel) - 1 - log_k))
        cube = _bitonic_merge_hypercube(cube, log_k, 2 if stage < log_n else descending)
    return core.reshape(cube, x.shape[:-1] + [2**log_k])


@jit
def sort(x, dim: core.constexpr = None, descending: core.constexpr = core.CONSTEXPR_0):
    return sort_impl(x, dim=dim, descending=descending)


@jit
def topk(x, k: core.constexpr, dim: core.constexpr = None):
    return sort_impl(x, k=k, dim=dim, descending=True)


@jit
def bitonic_merge(x, dim: core.constexpr = None, descending: core.constexpr = core.CONSTEXPR_0):
    axis: core.constexpr = len(x.shape) - 1 if dim is None else dim
    core.static_assert(axis == len(x.shape) - 1, "only minor dimension is currently supported")
    n_dims: core.constexpr = _log2(x.shape[-1])
    return _bitonic_merge(x, n_dims, descending, n_dims)


@jit
def flip(x, dim=None):
    core.static_assert(-len(x.shape) <= dim and dim < len(x.shape))
    axis: core.constexpr = _flip_axis(dim, x.shape)
    core.static_assert(_is_power_of_two(x.shape[axis]))
    steps: core.constexpr = _log2(x.shape[axis])
    # split the axis into `steps` dimensions of 2 and swap the two halves of each (xor trick, as in sorting)
    bits_type = _int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True)
    cube = core.reshape(x.to(bits_type, bitcast=True), x.shape[:axis] + [2] * steps + x.shape[axis + 1:])
    for i in core.static_range(steps):
        cube = cube ^ xor_sum(cube, axis + i, True)
    return core.reshape(cube, x.shape).to(x.dtype, bitcast=True)


@jit
def interleave(a, b):
    pairs = core.join(a, b)
    if len(pairs.shape) == 1:
        # two scalars: the pair is the result
        return pairs
    else:
        return core.reshape(pairs, pairs.shape[:-2] + [2 * pairs.shape[-2]])
