"""Diagnostics as MLIR prints them: `file:line:col: error: message`, the source line, and a caret.

Errors carry a location: the op's own `loc(...)` when it has a file location (as MLIR does), else the place
in the input where the op was parsed. `CompileError` is what every tool catches to print and exit 1.

Warnings and remarks do not stop a command: passes `emit` them, and the handler in force prints them on stderr
when `MLIR_ENABLE_DIAGNOSTICS` asks for them (as Triton: `warnings` shows warnings, `remarks` warnings and
remarks; errors always show), or `collect` gathers them (`--verify-diagnostics`).

A diagnostic can carry attached notes, printed after it as MLIR does (`file:line:col: note: ...`, the source
line only where the note's location differs from the one printed before it). `at_op` attaches two of them
when MLIR_ENABLE_DIAGNOSTICS asks: `operations` (MLIR's printOpOnDiagnostic: "see current operation: " and the
op printed generically, numbered within its function) and `stacktraces` (MLIR's printStackTraceOnDiagnostic:
where in ttc the diagnostic was made, innermost frame first).
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Diagnostic:
    file: str
    line: int  # 1-based; 0 when unknown
    col: int  # 1-based
    message: str
    severity: str = "error"
    source: str | None = None  # the text of the line, when known
    notes: list[Diagnostic] = field(default_factory=list)  # attached notes, printed after it

    def _render(self, with_source: bool = True) -> str:
        where = f"{self.file}:{self.line}:{self.col}: " if self.line else (f"{self.file}: " if self.file else "")
        text = f"{where}{self.severity}: {self.message}"
        if with_source and self.source is not None:  # tabs expanded, as LLVM's SourceMgr prints the line
            caret = len(self.source[: max(0, self.col - 1)].expandtabs(8))
            text += "\n" + self.source.expandtabs(8) + "\n" + " " * caret + "^"
        return text

    def render(self) -> str:
        """The diagnostic, then its notes; as MLIR's SourceMgrDiagnosticHandler, a note shows its source line
        only when its location differs from the previous one printed."""
        text = self._render()
        prev = (self.file, self.line, self.col)
        for note in self.notes:
            here = (note.file, note.line, note.col)
            text += "\n" + note._render(with_source=here != prev)
            prev = here
        return text

    def attach_note(self, message: str) -> Diagnostic:
        """A note at this diagnostic's own location (MLIR's `diag.attachNote()`), returned."""
        note = Diagnostic(self.file, self.line, self.col, message, "note", self.source)
        self.notes.append(note)
        return note


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


def file_location(loc):
    """The first file:line:col (a FileLineColLoc) inside a location (through names, call sites and fusions)."""
    from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc

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
    """A diagnostic for `op`: at its file location if it has one, else where it was parsed in `source`.
    With MLIR_ENABLE_DIAGNOSTICS=operations / stacktraces, notes are attached (see `attach_op_notes`)."""
    diag = _op_diagnostic(op, source, message, severity)
    if severity != "note":
        attach_op_notes(diag, op)
    return diag


def _op_diagnostic(op, source, message: str, severity: str) -> Diagnostic:
    if source is not None and source.by_position and op in source.positions:
        return at_position(source.name, source.text, source.positions[op], message, severity)
    loc = file_location(op.location)
    if loc is not None:
        path, line, col = loc.filename.data, loc.line.data, loc.column.data
        text = source_line(source.text, line) if source is not None and path == source.name else _read_line(path, line)
        return Diagnostic(path, line, col, message, severity, text)
    if source is not None and op in source.positions:
        return at_position(source.name, source.text, source.positions[op], message, severity)
    return Diagnostic(source.name if source else "", 0, 0, message, severity)


OPERATION_NOTE = "see current operation: "
TRACE_NOTE = "diagnostic emitted with trace:"


def attach_op_notes(diag: Diagnostic, op) -> Diagnostic:
    """Attach what MLIR_ENABLE_DIAGNOSTICS asks for to a diagnostic about `op`: `operations`, the op as it is
    now (MLIR's printOpOnDiagnostic; not under `collect`, as mlir-opt turns it off for --verify-diagnostics);
    `stacktraces`, where the diagnostic was made (MLIR's printStackTraceOnDiagnostic)."""
    wanted = enabled_diagnostics()
    if "operations" in wanted and not _collectors:
        text = op_text(op)
        if text is not None:
            diag.attach_note(OPERATION_NOTE + ("\n" + text if "\n" in text else text))
    if "stacktraces" in wanted:
        diag.attach_note(TRACE_NOTE + "\n" + python_trace())
    return diag


def op_text(op) -> str | None:
    """`op` as MLIR prints it for a diagnostic: generic form, local scope (values numbered within the nearest
    isolated-from-above ancestor, such as the tt.func), no attribute aliases, no locations."""
    from xdsl.traits import IsolatedFromAbove

    from ttc.ir.printer import Printer, _Names

    try:
        scope = op
        while not scope.has_trait(IsolatedFromAbove) and scope.parent_op() is not None:
            scope = scope.parent_op()
        printer = Printer(generic=True)
        printer.names = _Names(scope, True, False)
        return printer.op(op, 0)
    except Exception:  # an op in the middle of being rewritten: no note rather than a crash in the report
        return None


_HERE = os.path.abspath(__file__)
_ROOT = Path(_HERE).parents[2]  # the project (this is ttc/ir/diagnostics.py)
_PROJECT = tuple(str(_ROOT / d) + os.sep for d in ("ttc", "passes", "tools", "kernels", "test"))
_LIBRARY_PATHS = ("stdlib", "platstdlib", "purelib", "platlib", "scripts")
_libraries: tuple[str, ...] | None = None  # made on the first trace: sysconfig is not imported at start-up
MAX_FRAMES = 20


def _in_trace(path: str, name: str) -> bool:
    if path == _HERE or name.startswith("<"):
        return False
    if path.startswith(_PROJECT) or f"{os.sep}xdsl{os.sep}" in path:
        return True
    global _libraries
    if _libraries is None:  # the standard library, installed packages and console scripts: left out of traces
        import sysconfig

        _libraries = tuple({os.path.abspath(sysconfig.get_paths()[k]) + os.sep for k in _LIBRARY_PATHS})
    return not path.startswith(_libraries)


def python_trace() -> str:
    """The Python stack where the diagnostic is being made, innermost first, one line per frame
    (` #0 passes/coalesce.py:230 in Coalesce.apply`), without the frames of this module, of the standard
    library and of installed packages other than xDSL; paths of the project relative to its root."""
    frames = []
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        path = os.path.abspath(code.co_filename)
        if _in_trace(path, code.co_filename):
            try:
                shown_path = str(Path(path).relative_to(_ROOT))
            except ValueError:
                shown_path = path
            frames.append((shown_path, frame.f_lineno, getattr(code, "co_qualname", code.co_name)))
        frame = frame.f_back
    lines = [f" #{i} {p}:{n} in {name}" for i, (p, n, name) in enumerate(frames[:MAX_FRAMES])]
    if len(frames) > MAX_FRAMES:
        lines.append(f" ... {len(frames) - MAX_FRAMES} outer frames")
    return "\n".join(lines)


@dataclass
class Source:
    """An input text, its name for diagnostics, and where each parsed op started. `by_position`: report an op
    where it stands in this text even when its `loc(...)` names another file (an override file, whose errors
    must point into it)."""

    name: str
    text: str
    positions: dict
    by_position: bool = False

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


def reported(severity: str) -> bool:
    """Whether `emit` would do anything with a diagnostic of this severity now (a collector is listening,
    or it is shown): passes check it before making a remark that costs something to make."""
    return bool(_collectors) or shown(severity)


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
