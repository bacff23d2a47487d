"""`--verify-diagnostics`: check the diagnostics a file produces against its `expected-*` comments, as MLIR's
SourceMgrDiagnosticVerifierHandler does.

A line holding `expected-(error|warning|note|remark)(-re)? (@DESIGNATOR)? {{text}}` (one per line: the text runs
to the last `}}` of the line) expects a diagnostic of that severity whose message contains `text` on the
comment's own line; `@+N` / `@-N` move the expected line by N, `@above` is the nearest line above that holds
no expectation, `@below` the nearest one below, `@unknown` a diagnostic with no location. With `-re`, the
`{{regex}}` parts of `text` are regular expressions and the rest is literal. Each produced diagnostic (and each
note attached to one, except the stack traces of MLIR_ENABLE_DIAGNOSTICS=stacktraces, which are kept on an
unexpected diagnostic's report to show where it came from) must match an expectation on its line, which one
expectation may do for several diagnostics; a match of another severity is reported as a near miss; every
expectation must be met.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ttc.ir.diagnostics import TRACE_NOTE, Diagnostic

_EXPECT = re.compile(r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$")


@dataclass
class Expectation:
    severity: str
    line: int  # the line the diagnostic must be on (0: a diagnostic without location, `@unknown`)
    text: str
    at: tuple[int, int]  # where the comment is, for reporting (line, col)
    regex: re.Pattern | None = None
    met: bool = False

    def matches(self, message: str) -> bool:
        return bool(self.regex.search(message)) if self.regex is not None else self.text in message


def _regex(text: str) -> re.Pattern:
    """MLIR's computeRegex: literal text with `{{regex}}` parts."""
    out, rest = [], text
    while rest:
        i = rest.find("{{")
        if i < 0:
            out.append(re.escape(rest))
            break
        out.append(re.escape(rest[:i]))
        rest = rest[i + 2 :]
        j = rest.find("}}")
        if j < 0:
            raise ValueError("found start of regex with no end '}}'")
        out.append(f"({rest[:j]})")
        rest = rest[j + 2 :]
    return re.compile("".join(out))


def expectations(text: str, line_offset: int = 0) -> list[Expectation]:
    out: list[Expectation] = []
    below: list[Expectation] = []
    lines = text.split("\n")
    last_plain = line_offset + 1  # the last line without an expectation (the first line before any)
    for i, line in enumerate(lines, 1 + line_offset):
        m = _EXPECT.search(line.rstrip())
        if m is None:
            for e in below:
                e.line = i
            below.clear()
            last_plain = i
            continue
        e = Expectation(m.group(1), i, m.group(5), (i, m.start() + 1))
        if m.group(2):
            try:
                e.regex = _regex(e.text)
            except (ValueError, re.error) as err:
                e.text = f"{e.text} ({'invalid regex: ' if isinstance(err, re.error) else ''}{err})"
                e.regex = re.compile(r"(?!)")
        where = m.group(4)
        if where is None:
            pass
        elif where[0] in "+-":
            e.line = i + int(where)
        elif where == "unknown":
            e.line = 0
        elif where == "above":
            e.line = last_plain
        else:
            e.line = len(lines) + line_offset  # a dangling @below: the last line
            below.append(e)
        out.append(e)
    return out


def check(file: str, expected: list[Expectation], produced: list[Diagnostic]) -> list[Diagnostic]:
    """The mismatches, as error diagnostics (empty when the file behaves as its comments say)."""
    problems = []
    for d, traces in _with_notes(produced):
        near = None
        for e in expected:
            if e.line != d.line or not e.matches(d.message):
                continue
            if e.severity == d.severity:
                e.met = True
                break
            near = e
        else:
            if near is not None:
                message = f"'{d.severity}' diagnostic emitted when expecting a '{near.severity}'"
                problems.append(Diagnostic(file, near.at[0], near.at[1], message))
            else:
                message = f"unexpected {d.severity}: {d.message}"
                problems.append(Diagnostic(d.file, d.line, d.col, message, "error", d.source, traces))
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
