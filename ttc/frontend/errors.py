"""Errors in kernel source, reported as `file:line:col: error: message` with the line and a caret.

`LanguageError` is what the language's semantics raise (bad types, bad shapes, unsupported constructs);
the code generator attaches the AST node being compiled when the error passes through it, and the callers
of helper functions add a note for each call site. `to_compile_error` turns it into the
`ttc.ir.diagnostics.CompileError` the command line prints.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ttc.ir.diagnostics import CompileError, Diagnostic


@dataclass
class SourcePosition:
    file: str
    line: int  # 1-based
    col: int  # 0-based, as Python's ast reports it
    text: str | None  # the source line
    library: bool = False  # inside ttc's own implementation of triton.language


class LanguageError(Exception):
    def __init__(self, message: str, node: ast.AST | None = None):
        super().__init__(message)
        self.message = message
        self.position: SourcePosition | None = None
        self.call_sites: list[SourcePosition] = []
        self.node = node


class UnsupportedError(LanguageError):
    """Python syntax or a Python feature the kernel language does not have."""


def position_of(node: ast.AST, file: str, lines: list[str], library: bool = False) -> SourcePosition:
    line = getattr(node, "lineno", 0)
    col = getattr(node, "col_offset", 0)
    text = lines[line - 1] if 0 < line <= len(lines) else None
    return SourcePosition(file, line, col, text, library)


def _column(text: str | None, col: int) -> int:
    """Python's col_offset counts UTF-8 bytes; the caret is placed by characters (1-based)."""
    if text is None:
        return col + 1
    return len(text.encode("utf-8")[:col].decode("utf-8", errors="ignore")) + 1


def _diag(pos: SourcePosition, message: str, severity: str) -> Diagnostic:
    return Diagnostic(pos.file, pos.line, _column(pos.text, pos.col), message, severity, pos.text)


def to_compile_error(err: LanguageError) -> CompileError:
    """The error at the innermost position in the user's code (ttc's own library code is skipped: an error
    inside `tl.sum` is reported where `tl.sum` was called), then a note for each enclosing call."""
    chain = ([err.position] if err.position is not None else []) + err.call_sites
    user = [p for p in chain if not p.library]
    if not user:
        return CompileError(Diagnostic("", 0, 0, err.message))
    first, rest = user[0], user[1:]
    diags = [_diag(first, err.message, "error")]
    diags += [_diag(p, "in the call from here", "note") for p in rest]
    return CompileError(*diags)
