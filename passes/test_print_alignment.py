"""test-print-alignment: report, as remarks, what the axis analysis knows of every op result (triton-opt's
TestAxisInfoPass, over `ttc.analysis.axis_info`).

For every result of every op in a `tt.func` (nested ops first), a remark at the op: the op as printed, then
`=> contiguity = [..], divisibility = [..], constancy = [..], constant_value = N` (`<none>` when not a known
constant; constants shown as signed 64-bit integers, as Triton keeps them).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.traits import IsolatedFromAbove

from ttc.analysis import remark
from ttc.analysis.axis_info import AxisInfoAnalysis
from ttc.opt.passmanager import Pass


def axis_text(info) -> str:
    def dims(v):
        return "[" + ", ".join(str(x) for x in v) + "]"

    c = info.constant
    if c is not None:
        c &= (1 << 64) - 1
        c = c - (1 << 64) if c >= 1 << 63 else c
    return (f"contiguity = {dims(info.contiguity)}, divisibility = {dims(info.divisibility)}, "
            f"constancy = {dims(info.constancy)}, constant_value = {'<none>' if c is None else c}")


def _op_text(op) -> str:
    """The op as MLIR prints a value in a diagnostic: its defining op, values numbered in its function."""
    from ttc.ir.printer import Printer, _Names

    scope = op
    while not scope.has_trait(IsolatedFromAbove) and scope.parent_op() is not None:
        scope = scope.parent_op()
    printer = Printer()
    printer.names = _Names(scope, False, False)
    try:
        return printer.op(op, 0)
    except Exception:  # an attribute alias the local printer does not know: the op's name will do
        return op.name


@dataclass(frozen=True)
class TestPrintAlignment(Pass):
    """Print the result of the axis info (alignment) analysis."""

    name = "test-print-alignment"
    display = "TestAxisInfoPass"
    summary = "print the result of the alignment analysis pass"

    def apply(self, ctx, module) -> None:
        axis = AxisInfoAnalysis(module)
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            for op in func.walk(region_first=True):
                if op is func:
                    continue
                for r in op.results:
                    remark(op, f"{_op_text(op)} => {axis_text(axis.get(r))}")
