"""Namespaces that kernel sources can import: `triton`, `triton.language` (and its `math` part), and ttc's
aliases `ttc` and `ttc.language`. A namespace maps names to language objects (builtins, dtypes, `@jit`
functions of the standard library, the `constexpr` marker, sub-namespaces); anything else is not part of the
language and is reported as such.
"""

from __future__ import annotations


class Namespace:
    def __init__(self, name: str, members: dict | None = None, lazy=None):
        self.name = name
        self._members = dict(members or {})
        self._lazy = lazy  # callable(name) -> value or None, for members defined by kernel-language sources

    def lookup(self, attr: str):
        if attr in self._members:
            return self._members[attr]
        if self._lazy is not None:
            value = self._lazy(attr)
            if value is not None:
                self._members[attr] = value
                return value
        raise AttributeError(attr)

    def has(self, attr: str) -> bool:
        try:
            self.lookup(attr)
            return True
        except AttributeError:
            return False

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


class ConstexprMarker:
    """`tl.constexpr`: as an annotation it marks compile-time parameters and variables; called, it wraps a
    value as a compile-time constant."""

    def __repr__(self) -> str:
        return "triton.language.constexpr"


CONSTEXPR = ConstexprMarker()


class UnknownModule:
    """A module a kernel file imports that is not part of the language (torch, numpy, ...): fine for host
    code, an error when a kernel uses it."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"
