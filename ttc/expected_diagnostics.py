"""`--verify-diagnostics`: check the diagnostics a file produces against its `expected-*` comments, as MLIR.

`// expected-error {{text}}` expects an error on the comment's own line whose message contains `text`;
`@+N`/`@-N` move the expected line by N, `@above`/`@below` to the nearest line before/after that holds no
expectation; `expected-warning`, `expected-note` and
`expected-remark` work the same way. Every produced diagnostic must be expected (one expectation may meet several, as in MLIR) and every expectation met;
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
    """The expectations of a file; as MLIR, `@below` names the next line that holds no expectation, `@above`
    the last one before it that holds none."""
    out = []
    last_plain, pending = line_offset, []
    for i, line in enumerate(text.split("\n"), 1 + line_offset):
        found = list(_EXPECT.finditer(line))
        if not found:
            for e in pending:
                e.line = i
            pending, last_plain = [], i
            continue
        for m in found:
            where = m.group(2)
            e = Expectation(m.group(1), i, m.group(3), (i, m.start() + 1))
            if where == "@above":
                e.line = last_plain
            elif where == "@below":
                pending.append(e)
            elif where:
                e.line = i + int(where[1:])
            out.append(e)
    return out


def check(file: str, expected: list[Expectation], produced: list[Diagnostic]) -> list[Diagnostic]:
    """The mismatches, as error diagnostics (empty when the file behaves as its comments say)."""
    problems = []
    for d, traces in _with_notes(produced):
        match = next(
            (e for e in expected if e.severity == d.severity and e.line == d.line and e.text in d.message),
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
