"""`ttc.ir.diagnostics`: attached notes and how they render, MLIR_ENABLE_DIAGNOSTICS's `operations` and
`stacktraces` on diagnostics made for ops, `emit`/`collect`/`reported`, and attached notes under
`--verify-diagnostics` (`ttc.opt.expected_diagnostics`)."""

import pytest

from ttc.ir.diagnostics import (
    OPERATION_NOTE,
    TRACE_NOTE,
    Diagnostic,
    Source,
    at_op,
    collect,
    emit,
    op_text,
    reported,
    shown,
)
from ttc.opt.expected_diagnostics import check, expectations
from ttc.ir.parser import parse

TEXT = """tt.func @k(%arg0: i32) -> i32 {
  %c = arith.constant true
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = scf.if %c -> (i32) {
    %2 = arith.muli %0, %0 : i32
    scf.yield %2 : i32
  } else {
    scf.yield %0 : i32
  }
  tt.return %1 : i32
}
"""


@pytest.fixture
def module():
    source = Source.of("t.mlir", TEXT)
    return parse(TEXT, "t.mlir", source=source), source


def _op(module, name):
    return next(op for op in module.walk() if op.name == name)


@pytest.fixture
def env(monkeypatch):
    def set_(value):
        if value is None:
            monkeypatch.delenv("MLIR_ENABLE_DIAGNOSTICS", raising=False)
        else:
            monkeypatch.setenv("MLIR_ENABLE_DIAGNOSTICS", value)

    set_(None)
    return set_


def test_render_without_notes_is_unchanged():
    d = Diagnostic("f.mlir", 2, 3, "bad", "error", "  %0 = x")
    assert d.render() == "f.mlir:2:3: error: bad\n  %0 = x\n  ^"
    assert Diagnostic("f.mlir", 0, 0, "bad").render() == "f.mlir: error: bad"


def test_notes_render_after_with_source_only_where_the_location_changes():
    d = Diagnostic("f.mlir", 2, 3, "bad", "warning", "  %0 = x")
    d.attach_note("same place")
    d.notes.append(Diagnostic("f.mlir", 5, 1, "elsewhere", "note", "y"))
    d.notes.append(Diagnostic("f.mlir", 5, 1, "there again", "note", "y"))
    assert d.render().split("\n") == [
        "f.mlir:2:3: warning: bad",
        "  %0 = x",
        "  ^",
        "f.mlir:2:3: note: same place",
        "f.mlir:5:1: note: elsewhere",
        "y",
        "^",
        "f.mlir:5:1: note: there again",
    ]


def test_no_notes_by_default(module, env):
    m, source = module
    d = at_op(_op(m, "arith.addi"), source, "bad")
    assert d.notes == [] and (d.file, d.line, d.col) == ("t.mlir", 3, 3)


def test_operations_attaches_the_op_printed_generically(module, env):
    m, source = module
    env("operations")
    d = at_op(_op(m, "arith.muli"), source, "bad", "remark")
    assert [n.message for n in d.notes] == [
        OPERATION_NOTE + '%3 = "arith.muli"(%1, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32'
    ]
    n = d.notes[0]
    assert (n.file, n.line, n.col, n.severity) == ("t.mlir", 5, 5, "note")
    # the note follows at the same location: no second source line
    assert d.render().split("\n")[3].startswith("t.mlir:5:5: note: see current operation: %3 = ")


def test_operations_prints_an_op_with_regions_on_its_own_lines(module, env):
    m, source = module
    env("operations")
    d = at_op(_op(m, "scf.if"), source, "bad")
    text = d.notes[0].message
    assert text.startswith(OPERATION_NOTE + '\n%2 = "scf.if"(%0) ({\n')
    assert '"scf.yield"(%1) : (i32) -> ()' in text


def test_notes_are_not_attached_to_notes(module, env):
    m, source = module
    env("operations,stacktraces")
    assert at_op(_op(m, "arith.addi"), source, "see this", "note").notes == []


def test_stacktraces_attach_the_python_stack(module, env):
    m, source = module
    env(" Stacktraces ")
    d = at_op(_op(m, "arith.addi"), source, "bad")
    assert len(d.notes) == 1 and d.notes[0].message.startswith(TRACE_NOTE + "\n")
    frames = d.notes[0].message.split("\n")[1:]
    assert frames[0].startswith(" #0 test/unit/test_diagnostics.py:")
    assert frames[0].endswith(" in test_stacktraces_attach_the_python_stack")
    assert not any("diagnostics.py:" in f and "test_" not in f for f in frames)  # not the module's own frames


def test_operations_is_off_under_collect(module, env):
    """As mlir-opt turns printOpOnDiagnostic off for --verify-diagnostics; stack traces stay."""
    m, source = module
    env("operations,stacktraces")
    with collect():
        d = at_op(_op(m, "arith.addi"), source, "bad")
    assert [n.message.split("\n")[0] for n in d.notes] == [TRACE_NOTE]


def test_op_text_of_a_detached_op(module):
    m, _ = module
    op = _op(m, "arith.muli").clone()
    text = op_text(op)  # values it cannot number print as MLIR's <<UNKNOWN SSA VALUE>>
    assert '= "arith.muli"(' in text and text.count("UNKNOWN SSA VALUE") == 3


@pytest.mark.parametrize(
    "value, warning, remark",
    [(None, False, False), ("warnings", True, False), ("remarks", True, True), ("operations,stacktraces", False, False)],
)
def test_shown_and_reported(env, value, warning, remark):
    env(value)
    assert shown("error") and shown("warning") == warning and shown("remark") == remark
    assert reported("warning") == warning
    with collect():
        assert reported("remark")


def test_emit_prints_with_notes(module, env, capsys):
    m, source = module
    env("remarks,operations")
    emit(at_op(_op(m, "arith.addi"), source, "look", "remark"))
    err = capsys.readouterr().err.split("\n")
    assert err[0] == "t.mlir:3:3: remark: look"
    assert err[3].startswith("t.mlir:3:3: note: see current operation: %1 = \"arith.addi\"(%arg0, %arg0)")


def test_verify_checks_attached_notes_and_keeps_traces_on_unexpected_ones():
    d = Diagnostic("t.mlir", 3, 3, "look", "remark")
    d.attach_note("extra")
    d.attach_note(TRACE_NOTE + "\n #0 x.py:1 in f")
    text = "\n\n// expected-remark {{look}}\n// expected-note @-1 {{extra}}\n"  # one expectation a line, as MLIR
    assert check("t.mlir", expectations(text), [d]) == []
    problems = check("t.mlir", expectations("\n\n// expected-note {{extra}}\n"), [d])
    assert [p.message for p in problems] == ["unexpected remark: look"]
    assert [n.message for n in problems[0].notes] == [TRACE_NOTE + "\n #0 x.py:1 in f"]
    problems = check("t.mlir", expectations("\n\n// expected-remark {{look}}\n"), [d])
    assert [p.message for p in problems] == ["unexpected note: extra"]
