"""Triton's IR in Python: the tt, ttg and ttng dialects on xDSL, read and written in Triton's own syntax.

`parse(text, filename)` reads a module (verifying it), `print_ir(module)` prints it as MLIR does.
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp

from ttc.ir.printer import print_ir


@lru_cache(maxsize=1)
def _dialects():
    from ttc.ir import std, tt, ttg

    return [Builtin, std.ARITH, std.MATH, std.SCF, std.CF, std.UB, tt.TT, ttg.TTG, ttg.TTNG]


def context() -> Context:
    ctx = Context()
    for d in _dialects():
        ctx.load_dialect(d)
    return ctx


def parse(text: str, filename: str = "<stdin>", verify: bool = True) -> ModuleOp:
    """Parse one module of textual IR; raises ParseError/VerifyException (see ttc.diagnostics)."""
    from ttc.ir.parser import TTParser

    module = TTParser(context(), text, filename).parse_module()
    if verify:
        module.verify()
    return module


__all__ = ["context", "parse", "print_ir"]
