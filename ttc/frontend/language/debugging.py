"""Builtins for debugging and for compiler hints: `device_print` (and `print`), `device_assert`,
`debug_barrier` (a barrier of all the program's threads), `multiple_of`, `max_contiguous`, `max_constancy`,
`assume` (`llvm.intr.assume`: the compiler may take the scalar condition as true).
(`static_print` and `static_assert` run at compile time and are handled by the code generator.)"""

from __future__ import annotations

import string

from ttc.frontend.errors import LanguageError
from ttc.frontend.language.builtin import builtin
from ttc.frontend.values import Constexpr, unwrap


@builtin
def device_print(g, prefix, *args, hex=False):
    prefix = unwrap(prefix)
    if not isinstance(prefix, str):
        raise LanguageError(f"{prefix!r} is not string")
    if any(ch not in string.printable for ch in prefix):
        raise LanguageError(f"{prefix} is not an ascii string")
    values = [g.semantic.to_tensor(a) for a in args]
    g.semantic.device_print(prefix, values, unwrap(hex))


@builtin
def device_assert(g, cond, msg="", mask=None):
    msg = unwrap(msg)
    mask = unwrap(mask)
    if mask is not None:
        mask = g.semantic.to_tensor(mask)
    g.semantic.device_assert(g.semantic.to_tensor(cond), msg, mask)


@builtin
def assume(g, cond):
    g.semantic.assume(g.semantic.to_tensor(cond))


@builtin
def debug_barrier(g):
    g.semantic.debug_barrier()


def _hint_values(values) -> list[int]:
    if isinstance(values, Constexpr):
        values = [Constexpr(v) for v in values.value] if isinstance(values.value, (list, tuple)) else [values]
    out = []
    for i, d in enumerate(values):
        if not isinstance(d, Constexpr):
            raise LanguageError(f"values element {i} must have type `constexpr`")
        if not isinstance(d.value, int) or isinstance(d.value, bool):
            raise LanguageError(f"values element {i} must have type `constexpr[int]`, got `constexpr[{type(d.value).__name__}]`")
        out.append(d.value)
    return out


@builtin
def multiple_of(g, input, values):
    return g.semantic.multiple_of(input, _hint_values(values))


@builtin
def max_contiguous(g, input, values):
    return g.semantic.max_contiguous(input, _hint_values(values))


@builtin
def max_constancy(g, input, values):
    return g.semantic.max_constancy(input, _hint_values(values))


class StaticFunction:
    """`tl.static_print` / `tl.static_assert`: evaluated by the code generator at compile time."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"triton.language.{self.name}"


STATIC_PRINT = StaticFunction("static_print")
STATIC_ASSERT = StaticFunction("static_assert")
