"""Builtins: kernel-language functions implemented in Python (Triton's `@builtin`s such as `tl.load`).

A builtin is called with the code generator (for its `semantic` and, for reductions, to call combine
functions) and the argument values as the kernel wrote them; a call whose arguments do not match the
function's parameters is a language error, not a Python one.
"""

from __future__ import annotations

import inspect
import sys

from ttc.frontend.errors import LanguageError


class Builtin:
    def __init__(self, fn, name: str | None = None):
        self.fn = fn
        self.name = name or fn.__name__.rstrip("_")
        params = list(inspect.signature(fn).parameters.values())[1:]
        self.signature = inspect.Signature(params)
        # positional arguments alone bind when their count is in this range (and no keyword-only parameter
        # lacks a default): most calls, which then skip inspect's binding
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.positional = (-1, -1) if any(p.kind == p.KEYWORD_ONLY and p.default is p.empty for p in params) else (
            sum(p.default is p.empty for p in positional),
            sys.maxsize if any(p.kind == p.VAR_POSITIONAL for p in params) else len(positional))

    def __call__(self, g, args: list, kwargs: dict):
        low, high = self.positional
        if kwargs or not low <= len(args) <= high:
            try:
                self.signature.bind(*args, **kwargs)
            except TypeError as e:
                raise LanguageError(f"{self.name}(): {e}") from None
        return self.fn(g, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<builtin {self.name}>"


def builtin(fn=None, *, name: str | None = None):
    if fn is None:
        return lambda f: Builtin(f, name)
    return Builtin(fn, name)
