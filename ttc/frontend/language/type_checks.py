"""`isinstance` in a kernel, evaluated at compile time as Triton does (its arguments unwrapped from constexpr),
against the Python types a kernel can name (`int`, `float`) and the language's value classes `tl.tensor`,
`tl.tensor_descriptor` and `tl.tensor_descriptor_base`. Fused attention's `_maybe_make_tensor_desc` uses it to
take either a host descriptor or a pointer to make one from."""

from __future__ import annotations

import builtins

from ttc.frontend.descriptors import TensorDescriptor
from ttc.frontend.errors import LanguageError
from ttc.frontend.language.builtin import Builtin
from ttc.frontend.values import Constexpr, Tensor, unwrap


class LanguageClass:
    """A `triton.language` class a kernel can name: stands for the frontend's value classes."""

    def __init__(self, name: str, classes: tuple):
        self.name = name
        self.classes = classes

    def __repr__(self) -> str:
        return f"triton.language.{self.name}"


TENSOR = LanguageClass("tensor", (Tensor,))
TENSOR_DESCRIPTOR = LanguageClass("tensor_descriptor", (TensorDescriptor,))
TENSOR_DESCRIPTOR_BASE = LanguageClass("tensor_descriptor_base", (TensorDescriptor,))
LANGUAGE_CLASSES = {c.name: c for c in (TENSOR, TENSOR_DESCRIPTOR, TENSOR_DESCRIPTOR_BASE)}


def _classes(cls) -> tuple:
    if isinstance(cls, LanguageClass):
        return cls.classes
    if isinstance(cls, builtins.tuple):
        return builtins.tuple(c for part in cls for c in _classes(unwrap(part)))
    if isinstance(cls, type):
        return (cls,)
    if isinstance(getattr(cls, "fn", None), type):  # `int` and `float`, which kernels can also call
        return (cls.fn,)
    raise LanguageError(f"isinstance() arg 2 must be a type or a tuple of types, got {cls!r}")


def _isinstance(g, obj, cls):
    obj = obj.value if isinstance(obj, Constexpr) else obj  # a descriptor stays itself (unwrap makes it a tuple)
    return Constexpr(builtins.isinstance(obj, _classes(unwrap(cls))))


ISINSTANCE = Builtin(_isinstance, "isinstance")
