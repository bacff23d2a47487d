"""Kernel signatures in the syntax of Triton's AOT compiler (`triton/tools/compile.py`), one entry per parameter:

* a type: `*fp32` (pointer), `*kfp16` (pointer to const), `i32`, `u8`, `fp32`, `bf16`, `i1`, ...;
* `:16` after a pointer or integer type: the value is divisible by 16 (`tt.divisibility = 16` on the argument);
* `:1` after an integer type: the argument is the constant 1 (specialized away, as Triton's JIT does for 1s);
* a bare value (`1024`, `0.5`, `True`, `False`): the value of a constexpr parameter;
* `tensordesc<fp16[64, 64]>`: a tensor descriptor of 64x64 fp16 blocks (its handle, then its shape as i32s and
  its strides as i64s, are the kernel's arguments), as Triton's JIT spells a `TensorDescriptor` argument.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttc.frontend.descriptors import TensorDescDType, parse_descriptor_type
from ttc.frontend.dtypes import DType, from_signature_name
from ttc.frontend.errors import LanguageError


@dataclass
class ArgSpec:
    name: str
    dtype: DType | None = None  # a run-time argument of this type
    value: object = None  # the value of a compile-time argument
    constexpr: bool = False
    divisibility: int | None = None


def _literal(text: str):
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":  # a string constexpr: 'leaky_relu'
        return text[1:-1]
    if text in ("True", "False"):
        return text == "True"
    for parse in (int, float):
        try:
            return parse(text)
        except ValueError:
            pass
    return None


def split_signature(text: str) -> list[str]:
    """The entries of a signature: split at commas outside `<...>` and `[...]` (descriptor types have some)."""
    entries, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<[":
            depth += 1
        elif c in ">]":
            depth -= 1
        elif c == "," and depth == 0:
            entries.append(text[start:i].strip())
            start = i + 1
    entries.append(text[start:].strip())
    return entries if text.strip() else []


def parse_signature(text: str, fn) -> list[ArgSpec]:
    """The argument specs of `fn` (a JitFunction); errors are LanguageErrors at the kernel's definition."""
    entries = split_signature(text)
    params = fn.params
    if len(entries) != len(params):
        names = ", ".join(p.name for p in params)
        raise LanguageError(
            f"signature has {len(entries)} entries but kernel '{fn.name}' has {len(params)} parameters ({names})"
        )
    specs = []
    for param, entry in zip(params, entries):
        kind, _, hint = entry.partition(":")
        value = _literal(kind)
        if value is not None:
            if hint:
                raise LanguageError(f"signature entry '{entry}' for '{param.name}': a constant takes no ':' hint")
            specs.append(ArgSpec(param.name, value=value, constexpr=True))
            continue
        if param.constexpr:
            raise LanguageError(
                f"parameter '{param.name}' is a tl.constexpr: its signature entry must be a value, not '{entry}'"
            )
        dtype = parse_descriptor_type(kind) or from_signature_name(kind)
        if dtype is None:
            raise LanguageError(f"unknown type '{kind}' in signature entry '{entry}' for '{param.name}'")
        spec = ArgSpec(param.name, dtype=dtype)
        if hint and isinstance(dtype, TensorDescDType):
            raise LanguageError(f"signature entry '{entry}': a descriptor takes no ':' hint")
        if hint:
            if hint not in ("1", "16"):
                raise LanguageError(f"signature entry '{entry}': only ':1' and ':16' hints are supported")
            if not (dtype.is_ptr() or dtype.is_int()):
                raise LanguageError(f"signature entry '{entry}': ':{hint}' applies to pointers and integers only")
            if hint == "1":
                if dtype.is_ptr():
                    raise LanguageError(f"signature entry '{entry}': a pointer cannot be specialized to 1")
                spec = ArgSpec(param.name, value=1, constexpr=True)
            else:
                spec.divisibility = 16
        specs.append(spec)
    return specs
