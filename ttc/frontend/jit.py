"""`@jit` functions as the frontend sees them: a function definition read from a source file (never executed),
its parameters, and the name Triton gives it (`module.function`, the prefix of its mangled specializations).

`jit` is also a real (identity) decorator, so that ttc's own kernel-language sources import as Python.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


def jit(fn=None, **options):
    """The decorator that marks kernel-language functions. The frontend reads the source; at run time this
    returns the function unchanged."""
    if fn is None:
        return lambda f: f
    return fn


@dataclass
class Param:
    name: str
    constexpr: bool  # annotated `tl.constexpr`
    default: ast.expr | None  # the default value's expression, evaluated at each call


class JitFunction:
    """A kernel or a helper: its definition and the module it was read from."""

    def __init__(self, node: ast.FunctionDef, module, noinline: bool = False):
        self.node = node
        self.module = module  # ttc.frontend.source.SourceModule
        self.noinline = noinline
        self.name = node.name
        self.full_name = f"{module.name}.{node.name}"
        args = node.args
        defaults = [None] * (len(args.args) - len(args.defaults)) + list(args.defaults)
        self.params = [
            Param(a.arg, module.is_constexpr_annotation(a.annotation), d) for a, d in zip(args.args, defaults)
        ]

    @property
    def arg_names(self) -> list[str]:
        return [p.name for p in self.params]

    def source_text(self) -> str:
        return self.module.segment(self.node) or ""

    def __repr__(self) -> str:
        return f"JITFunction({self.module.name}:{self.name})"
