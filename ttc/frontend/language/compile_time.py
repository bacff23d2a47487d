"""Functions that run at compile time on constexpr values (Triton's `@constexpr_function`), for use by the
standard library written in the kernel language."""

from __future__ import annotations

from ttc.frontend import dtypes as T
from ttc.frontend.values import Constexpr, unwrap


class CompileTimeFunction:
    """Called from kernel code with constexpr arguments; returns a constexpr."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__

    def __call__(self, args: list, kwargs: dict):
        result = self.fn(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
        return result if isinstance(result, Constexpr) else Constexpr(result)

    def __repr__(self) -> str:
        return f"<compile-time function {self.name}>"


def pick_sum_dtype(in_dtype, dtype):
    """The accumulation type of `sum`/`cumsum`: `dtype` if given, else i32/u32 for narrower integers,
    else None (keep the input type)."""
    if dtype is not None:
        return dtype
    if in_dtype.is_int_signed():
        return T.int32 if in_dtype.int_bitwidth < 32 else None
    if in_dtype.is_int_unsigned():
        return T.uint32 if in_dtype.int_bitwidth < 32 else None
    return None


def log2(n):
    """floor(log2(n)) for n >= 1 (0 for n <= 1)."""
    return max(int(n).bit_length() - 1, 0)


def is_power_of_two(n):
    return n > 0 and n & (n - 1) == 0


def int_dtype(bitwidth, signed):
    """The integer type of a bit width: what `.to(..., bitcast=True)` turns floats into for bit tricks."""
    if bitwidth == 1:
        return T.int1
    return T.BY_LANGUAGE_NAME[f"{'' if signed else 'u'}int{bitwidth}"]


def flip_axis(dim, shape):
    """The axis `tl.flip` works on: the last one by default, negative axes counted from the end."""
    if dim is None:
        return len(shape) - 1
    return dim + len(shape) if dim < 0 else dim


COMPILE_TIME_FUNCTIONS = {
    "_pick_sum_dtype": CompileTimeFunction(pick_sum_dtype),
    "_log2": CompileTimeFunction(log2),
    "_is_power_of_two": CompileTimeFunction(is_power_of_two),
    "_int_dtype": CompileTimeFunction(int_dtype),
    "_flip_axis": CompileTimeFunction(flip_axis),
}
