"""The Python builtins a kernel can use: `range` (a loop), `len`, `int`, `float` (evaluated at compile time),
`min`/`max` (compile-time on constexprs, `tl.minimum`/`tl.maximum` on tensors), `print`
(`tl.device_print`) and `isinstance` (compile time, type_checks.py)."""

from __future__ import annotations

import builtins
import math as pymath

from ttc.frontend.errors import LanguageError
from ttc.frontend.language.builtin import Builtin
from ttc.frontend.language.debugging import device_print
from ttc.frontend.language.iterators import PY_RANGE
from ttc.frontend.language.type_checks import ISINSTANCE
from ttc.frontend.semantics.arithmetic import PROPAGATE_NAN_NONE
from ttc.frontend.values import Constexpr, Tensor, unwrap


class CompileTimePython:
    """A Python builtin applied to compile-time values (`len(shape)`, `int(x)`, `float("inf")`)."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__

    def __call__(self, args: list, kwargs: dict):
        try:
            return Constexpr(self.fn(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()}))
        except (TypeError, ValueError) as e:
            raise LanguageError(f"{self.name}(): {e} (only compile-time values are accepted)") from None

    def __repr__(self) -> str:
        return self.name


def _fold(g, args, pick, combine, name: str):
    args = [unwrap(a) for a in args]
    if all(not isinstance(a, Tensor) for a in args):
        if any(isinstance(a, float) and (pymath.isnan(a) or (a == 0.0 and pymath.copysign(1.0, a) < 0)) for a in args):
            raise LanguageError(f"{name}() of NaN or -0.0 is not defined at compile time")
        return Constexpr(pick(args))
    if len(args) < 2:
        raise LanguageError(f"{name} requires at least 2 values")
    result = args[0]
    for a in args[1:]:
        result = combine(g, [result, a], {"propagate_nan": PROPAGATE_NAN_NONE})
    return result


def _min(g, *args):
    from ttc.frontend.language.math import minimum

    return _fold(g, args, builtins.min, minimum, "min")


def _max(g, *args):
    from ttc.frontend.language.math import maximum

    return _fold(g, args, builtins.max, maximum, "max")


PY_BUILTINS = {
    "range": PY_RANGE,
    "len": CompileTimePython(builtins.len),
    "int": CompileTimePython(builtins.int),
    "float": CompileTimePython(builtins.float),
    "min": Builtin(_min, "min"),
    "max": Builtin(_max, "max"),
    "print": device_print,
    "isinstance": ISINSTANCE,
}
