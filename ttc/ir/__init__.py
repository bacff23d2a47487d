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


def parse(text: str, filename: str = "<stdin>", verify: bool = True, source=None) -> ModuleOp:
    """Parse (and verify) one module of textual IR; errors raise `ttc.diagnostics.CompileError`.
    `source` (a `ttc.diagnostics.Source`) collects where each op was parsed, for later diagnostics."""
    from xdsl.utils.exceptions import ParseError

    from ttc.diagnostics import CompileError, Source, at_position
    from ttc.ir.parser import TTParser

    source = source or Source.of(filename, text)
    try:
        module = TTParser(context(), text, filename, source.positions).parse_module()
    except ParseError as e:
        msg = e.msg
        if msg.startswith("Operation ") and msg.endswith(" is not registered"):
            msg = f"custom op '{msg[len('Operation '):-len(' is not registered')]}' is unknown"
        raise CompileError(at_position(filename, text, e.span.start, msg)) from None
    if verify:
        verify_module(module, source)
    return module


def verify_module(module, source=None) -> None:
    """Verify every op; raise CompileError with one diagnostic per failing op (nested ops of a failing op
    are not checked)."""
    from xdsl.utils.exceptions import DiagnosticException, VerifyException

    from ttc.diagnostics import CompileError, at_op

    diags = []
    skip: set = set()
    for op in module.walk():
        if op.parent_op() in skip:
            skip.add(op)
            continue
        try:
            op.verify(verify_nested_ops=False)
        except (VerifyException, DiagnosticException, ValueError) as e:
            msg = " ".join(str(e).split())
            if not msg.startswith("'"):
                msg = f"'{op.name}' op {msg}"
            diags.append(at_op(op, source, msg))
            skip.add(op)
    if diags:
        raise CompileError(*diags)


__all__ = ["context", "parse", "print_ir"]
