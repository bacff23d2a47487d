"""Diagnostics as MLIR prints them: `file:line:col: error: message`, the source line, and a caret.

Errors carry a location: the op's own `loc(...)` when it has a file location (as MLIR does), else the place
in the input where the op was parsed. `CompileError` is what every tool catches to print and exit 1.

Warnings and remarks do not stop a command: passes `emit` them, and the handler in force prints them on stderr
when `MLIR_ENABLE_DIAGNOSTICS` asks for them (as Triton: `warnings` shows warnings, `remarks` warnings and
remarks; errors always show), or `collect` gathers them (`--verify-diagnostics`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc


@dataclass
class Diagnostic:
    file: str
    line: int  # 1-based; 0 when unknown
    col: int  # 1-based
    message: str
    severity: str = "error"
    source: str | None = None  # the text of the line, when known

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}: " if self.line else (f"{self.file}: " if self.file else "")
        text = f"{where}{self.severity}: {self.message}"
        if self.source is not None:
            text += "\n" + self.source + "\n" + " " * max(0, self.col - 1) + "^"
        return text


class CompileError(Exception):
    """One or more diagnostics; the tools print them and exit 1."""

    def __init__(self, *diags: Diagnostic):
        super().__init__("\n".join(d.message for d in diags))
        self.diags = list(diags)

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diags)


def line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def source_line(text: str, line: int) -> str | None:
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else None


def at_position(file: str, text: str, pos: int, message: str, severity: str = "error") -> Diagnostic:
    line, col = line_col(text, pos)
    return Diagnostic(file, line, col, message, severity, source_line(text, line))


def file_location(loc) -> FileLineColLoc | None:
    """The first file:line:col inside a location (through names, call sites and fusions)."""
    if isinstance(loc, FileLineColLoc):
        return loc
    if isinstance(loc, NameLoc):
        return file_location(loc.location)
    if isinstance(loc, CallSiteLoc):
        return file_location(loc.callee) or file_location(loc.caller)
    if isinstance(loc, FusedLoc):
        for child in loc.locations.data:
            if (found := file_location(child)) is not None:
                return found
    return None


def _read_line(path: str, line: int) -> str | None:
    try:
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                for i, text in enumerate(f, 1):
                    if i == line:
                        return text.rstrip("\n")
    except OSError:
        pass
    return None


def at_op(op, source, message: str, severity: str = "error") -> Diagnostic:
    """A diagnostic for `op`: at its file location if it has one, else where it was parsed in `source`."""
    loc = file_location(op.location)
    if loc is not None:
        path, line, col = loc.filename.data, loc.line.data, loc.column.data
        text = source_line(source.text, line) if source is not None and path == source.name else _read_line(path, line)
        return Diagnostic(path, line, col, message, severity, text)
    if source is not None and op in source.positions:
        return at_position(source.name, source.text, source.positions[op], message, severity)
    return Diagnostic(source.name if source else "", 0, 0, message, severity)


@dataclass
class Source:
    """An input text, its name for diagnostics, and where each parsed op started."""

    name: str
    text: str
    positions: dict

    @classmethod
    def of(cls, name: str, text: str) -> Source:
        return cls(name, text, {})


# ---------------------------------------------------------------- warnings and remarks

_collectors: list[list[Diagnostic]] = []


def enabled_diagnostics() -> set[str]:
    """The options of MLIR_ENABLE_DIAGNOSTICS (comma-separated): warnings, remarks, operations, stacktraces."""
    return {w.strip().lower() for w in os.environ.get("MLIR_ENABLE_DIAGNOSTICS", "").split(",") if w.strip()}


def shown(severity: str) -> bool:
    """Whether a diagnostic of this severity is printed: errors always, warnings with `warnings` or
    `remarks`, remarks with `remarks`."""
    if severity in ("error", "note"):
        return True
    wanted = enabled_diagnostics()
    if severity == "warning":
        return bool(wanted & {"warnings", "remarks"})
    return "remarks" in wanted


def emit(diag: Diagnostic) -> None:
    """Report a warning or remark: to the innermost `collect`, else to stderr when MLIR_ENABLE_DIAGNOSTICS
    shows its severity."""
    if _collectors:
        _collectors[-1].append(diag)
    elif shown(diag.severity):
        sys.stderr.write(diag.render() + "\n")


@contextlib.contextmanager
def collect():
    """Gather what `emit` reports inside the block, instead of printing it."""
    found: list[Diagnostic] = []
    _collectors.append(found)
    try:
        yield found
    finally:
        _collectors.pop()
