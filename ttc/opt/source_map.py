"""`tt-opt --print-source-map`: the IR grouped by the Python source location each op came from.

Reading an `MLIR_ENABLE_DUMP` by location: one group per `file:line:col`, headed by that location and the
source line itself (when the file can be read), then the ops from there, one line each, in IR order:

    kernels/vector_add.py:14:28
      | offsets = block_start + tl.arange(0, BLOCK_SIZE)
      %offsets_0 = tt.splat %block_start : i32 -> tensor<1024xi32, #blocked>
      %offsets_1 = arith.addi %offsets_0, %offsets : tensor<1024xi32, #blocked>

Groups are sorted by (file, line, col); ops with no file location come last, under `<unknown>`. An op is
shown as tt-opt prints it, with the module-wide SSA names (values take their NameLoc's name, as in Triton's
dumps) and without its location; an op with regions (tt.func, scf.for, tt.reduce, ...) shows its regions
as `{ ... }`, its body ops appearing in their own groups. A NameLoc stands for the location inside it; a
call site (`callsite(callee at caller)`, what inlining leaves) is grouped by its callee, its callers named
in the header: `helper.py:5:11 (inlined at kernel.py:20:8)`, or `(inlined at B, at C)` when the call at B
was itself inlined at C. Layout aliases (`#blocked = ...`) are listed first, as they head the IR.
"""

from __future__ import annotations

import os

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, ModuleOp, NameLoc
from xdsl.ir import Attribute, Operation, Region
from xdsl.traits import IsTerminator

from ttc.ir.printer import Printer

Where = tuple[str, int, int]  # file, line, col


def resolve(loc: Attribute) -> tuple[Where | None, tuple[Where, ...]]:
    """(the file location an op came from, the call sites it was inlined at, innermost first).

    A NameLoc is its inner location; `callsite(A at B)` is A inlined at B (B itself, when A has no file
    location); a FusedLoc is its first part that has a file location."""
    if isinstance(loc, FileLineColLoc):
        return (loc.filename.data, loc.line.data, loc.column.data), ()
    if isinstance(loc, NameLoc):
        return resolve(loc.location)
    if isinstance(loc, CallSiteLoc):
        callee, inner = resolve(loc.callee)
        caller, outer = resolve(loc.caller)
        if callee is None:
            return caller, outer
        return callee, inner + ((caller,) if caller is not None else ()) + outer
    if isinstance(loc, FusedLoc):
        for part in loc.locations.data:
            where, calls = resolve(part)
            if where is not None:
                return where, calls
    return None, ()


def _text(where: Where) -> str:
    return f"{where[0]}:{where[1]}:{where[2]}"


def header(where: Where | None, calls: tuple[Where, ...] = ()) -> str:
    """A group's first line: `file:line:col`, `file:line:col (inlined at B, at C)`, or `<unknown>`."""
    if where is None:
        return "<unknown>"
    text = _text(where)
    if calls:
        text += " (inlined at " + ", at ".join(_text(c) for c in calls) + ")"
    return text


class _Lines:
    """The lines of the files locations point into: the input itself from its text, others read once."""

    def __init__(self, source):
        self.files: dict[str, list[str] | None] = {}
        if source is not None:
            self.files[source.name] = source.text.split("\n")

    def get(self, path: str, line: int) -> str | None:
        if path not in self.files:
            self.files[path] = None
            try:
                if os.path.isfile(path):
                    with open(path, encoding="utf-8", errors="replace") as f:
                        self.files[path] = f.read().split("\n")
            except OSError:
                pass
        lines = self.files[path]
        if lines is None or not 0 < line <= len(lines):
            return None
        return lines[line - 1].strip() or None


class _OpPrinter(Printer):
    """The module printer, printing one op at a time: after `prepare(module)` has named every value and
    chosen the aliases as for the whole module, `line(op)` is the op's text with its regions as `{ ... }`."""

    def __init__(self, name_locs: bool):
        super().__init__(name_locs=name_locs)
        self.hidden: set[Operation] = set()  # terminators the module's text leaves out (an empty scf.yield)
        self._collapse = False

    def prepare(self, module: Operation) -> list[str]:
        """Print the module once (names, aliases, the terminators left out); return its alias definitions."""
        self.print(module)
        self._collapse = True
        return [f"{self.aliases[a]} = {self._alias_def(a)}" for a in self._sorted if not self._deferrable[a]]

    def region(self, region: Region, indent: int = 0, entry_args: bool = True, terminators: bool = True) -> str:
        if self._collapse:
            return "{ ... }"
        if not terminators:
            for block in region.blocks:
                last = block.last_op
                if last is not None and last.has_trait(IsTerminator):
                    self.hidden.add(last)
        return super().region(region, indent, entry_args, terminators)

    def line(self, op: Operation) -> str:
        return " ".join(part.strip() for part in self.op(op, 0).split("\n"))


def render_source_map(module: ModuleOp, source=None, *, name_locs: bool = True) -> str:
    """The source map of `module` (see the module docstring); `source` (a `ttc.ir.diagnostics.Source`) gives
    the lines of the input itself, for ops located in it. `name_locs`: name values after their NameLoc."""
    printer = _OpPrinter(name_locs)
    aliases = printer.prepare(module)
    groups: dict[tuple, list[str]] = {}
    for op in module.walk():
        if op is module or op in printer.hidden:
            continue
        where, calls = resolve(op.location)
        groups.setdefault((where, calls), []).append(printer.line(op))

    def order(key):
        where, calls = key
        return (where is None, where or ("", 0, 0), calls)

    lines = _Lines(source)
    out = aliases + [""] if aliases else []
    for where, calls in sorted(groups, key=order):
        out.append(header(where, calls))
        text = lines.get(where[0], where[1]) if where is not None else None
        if text is not None:
            out.append("  | " + text)
        out += ["  " + op_line for op_line in groups[(where, calls)]]
    return "\n".join(out) + "\n" if out else ""
