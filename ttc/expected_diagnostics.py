"""`--verify-diagnostics`: check the diagnostics a file produces against its `expected-*` comments, as MLIR.

`// expected-error {{text}}` expects an error on the comment's own line whose message contains `text`;
`@+N`/`@-N` move the expected line by N, `@above`/`@below` by one; `expected-warning`, `expected-note` and
`expected-remark` work the same way. Every produced diagnostic must be expected and every expectation met;
notes attached to a diagnostic are checked as diagnostics of their own (as MLIR's verifier does), except the
stack traces of MLIR_ENABLE_DIAGNOSTICS=stacktraces, which are kept on an unexpected diagnostic's report to
show where it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ttc.diagnostics import TRACE_NOTE, Diagnostic

_EXPECT = re.compile(r"expected-(error|warning|note|remark)\s*(@[+-]\d+|@above|@below)?\s*\{\{(.*?)\}\}")


@dataclass
class Expectation:
    severity: str
    line: int  # the line the diagnostic must be on
    text: str
    at: tuple[int, int]  # where the comment is, for reporting (line, col)
    met: bool = False


def expectations(text: str, line_offset: int = 0) -> list[Expectation]:
    out = []
    for i, line in enumerate(text.split("\n"), 1 + line_offset):
        for m in _EXPECT.finditer(line):
            where = m.group(2)
            target = i
            if where == "@above":
                target = i - 1
            elif where == "@below":
                target = i + 1
            elif where:
                target = i + int(where[1:])
            out.append(Expectation(m.group(1), target, m.group(3), (i, m.start() + 1)))
    return out


def check(file: str, expected: list[Expectation], produced: list[Diagnostic]) -> list[Diagnostic]:
    """The mismatches, as error diagnostics (empty when the file behaves as its comments say)."""
    problems = []
    for d, traces in _with_notes(produced):
        match = next(
            (e for e in expected if not e.met and e.severity == d.severity and e.line == d.line and e.text in d.message),
            None,
        )
        if match is None:
            message = f"unexpected {d.severity}: {d.message}"
            problems.append(Diagnostic(d.file, d.line, d.col, message, "error", d.source, traces))
        else:
            match.met = True
    for e in expected:
        if not e.met:
            problems.append(Diagnostic(file, e.at[0], e.at[1], f'expected {e.severity} "{e.text}" was not produced'))
    return problems


def _with_notes(produced: list[Diagnostic]):
    """(diagnostic, its stack-trace notes) for each diagnostic and each of its other attached notes."""
    for d in produced:
        traces = [n for n in d.notes if n.message.startswith(TRACE_NOTE)]
        yield d, traces
        for n in d.notes:
            if not n.message.startswith(TRACE_NOTE):
                yield n, []
