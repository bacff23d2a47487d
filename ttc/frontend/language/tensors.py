"""Builtins that create tensors or change their shape or type: `program_id`, `arange`, `full`, `cast`/`.to`,
`broadcast_to`, `reshape`/`view`, `expand_dims`, `trans`/`permute`, `cat`, `join`, `split`, `gather`, `where`.
"""

from __future__ import annotations

from ttc.frontend.dtypes import DType
from ttc.frontend.errors import LanguageError, UnsupportedError
from ttc.frontend.language.builtin import builtin
from ttc.frontend.semantics.shapes import check_block_shape
from ttc.frontend.values import Constexpr, LangTuple, Tensor, unwrap


def unwrap_iterable(args: tuple):
    """`f(x, (a, b))` and `f(x, a, b)` mean the same for shape-like varargs."""
    if len(args) == 1:
        one = args[0]
        if isinstance(one, (LangTuple, list, tuple)) or (isinstance(one, Constexpr) and isinstance(one.value, (list, tuple))):
            return list(unwrap(one))
    return list(args)


def shape_of(shape) -> list[int]:
    return check_block_shape([unwrap(s) for s in unwrap(shape)])


def wrap_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise LanguageError(f"invalid axis {axis}. Expected {-ndim} <= axis < {ndim}")
    return axis if axis >= 0 else axis + ndim


def dtype_arg(x, what: str = "dtype") -> DType:
    x = unwrap(x)
    if not isinstance(x, DType):
        raise LanguageError(f"{what} must be a dtype such as tl.float32, got {x!r}")
    return x


def tensor_arg(g, x, what: str) -> Tensor:
    x = unwrap(x)
    if isinstance(x, Tensor):
        return x
    raise LanguageError(f"{what} must be a tensor, got {x!r}")


@builtin
def program_id(g, axis):
    return g.semantic.program_id(unwrap(axis))


@builtin
def num_programs(g, axis):
    return g.semantic.num_programs(unwrap(axis))


@builtin
def arange(g, start, end):
    return g.semantic.arange(unwrap(start), unwrap(end))


@builtin
def full(g, shape, value, dtype):
    shape = shape_of(shape)
    return g.semantic.full(shape, unwrap(value), dtype_arg(dtype))


@builtin
def cast(g, input, dtype, fp_downcast_rounding=None, bitcast=False):
    input = g.semantic.to_tensor(input)
    dtype = dtype_arg(dtype)
    if unwrap(bitcast):
        return g.semantic.bitcast(input, dtype)
    return g.semantic.cast(input, dtype, unwrap(fp_downcast_rounding))


@builtin
def broadcast(g, input, other):
    return LangTuple(g.semantic.broadcast_impl_value(tensor_arg(g, input, "input"), tensor_arg(g, other, "other")))


@builtin
def broadcast_to(g, input, *shape):
    return g.semantic.broadcast_impl_shape(tensor_arg(g, input, "input"), shape_of(unwrap_iterable(shape)))


@builtin
def trans(g, input, *dims):
    dims = [unwrap(d) for d in unwrap_iterable(dims)]
    if not dims:
        n = len(input.shape)
        if n < 2:
            raise LanguageError("tl.trans invoked with a 0- or 1-dimensional tensor")
        dims = list(range(n - 2)) + [n - 1, n - 2]
    return g.semantic.permute(tensor_arg(g, input, "input"), dims)


@builtin
def permute(g, input, *dims):
    return g.semantic.permute(tensor_arg(g, input, "input"), [unwrap(d) for d in unwrap_iterable(dims)])


@builtin
def cat(g, input, other, can_reorder=False):
    return g.semantic.cat(tensor_arg(g, input, "input"), tensor_arg(g, other, "other"), unwrap(can_reorder))


@builtin
def join(g, a, b):
    return g.semantic.join(g.semantic.to_tensor(a), g.semantic.to_tensor(b))


@builtin
def split(g, a):
    a = tensor_arg(g, a, "a")
    if len(a.shape) == 1:
        raise UnsupportedError("splitting a 2-element tensor into two scalars is not supported")
    return LangTuple(g.semantic.split(a))


@builtin
def gather(g, src, index, axis):
    return g.semantic.gather(tensor_arg(g, src, "src"), tensor_arg(g, index, "index"), unwrap(axis))


@builtin
def view(g, input, *shape):
    return g.semantic.reshape(tensor_arg(g, input, "input"), shape_of(unwrap_iterable(shape)), can_reorder=True)


@builtin
def reshape(g, input, *shape, can_reorder=False):
    shape = shape_of(unwrap_iterable(shape))
    if len(shape) == 0:
        raise UnsupportedError("reshaping a tensor to a scalar is not supported")
    return g.semantic.reshape(tensor_arg(g, input, "input"), shape, unwrap(can_reorder))


@builtin
def expand_dims(g, input, axis):
    input = g.semantic.to_tensor(input)
    axis = unwrap(axis)
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    ndim = len(input.shape) + len(axes)
    axes = [wrap_axis(unwrap(d), ndim) for d in axes]
    if len(set(axes)) != len(axes):
        raise LanguageError(f"expand_dims received duplicate axes, normalized axes = {axes}")
    for a in sorted(axes):
        input = g.semantic.expand_dims(input, a)
    return input


@builtin
def where(g, condition, x, y):
    condition = g.semantic.to_tensor(condition)
    return g.semantic.where(condition, unwrap(x), unwrap(y))


@builtin
def _promote_bfloat16_to_float32(g, t):
    from ttc.frontend import dtypes as T

    if t.type.scalar == T.bfloat16:
        return g.semantic.cast(t, T.float32)
    return t


@builtin
def to_tensor(g, x):
    # a Python or constexpr number becomes a scalar of its natural type (i32, u32, i64, u64, fp32)
    return g.semantic.to_tensor(unwrap(x))
