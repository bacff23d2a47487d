"""`ttc.opt.source_map` (tt-opt --print-source-map): resolving locations, and the edge cases of the rendering
(empty module, ops without a location, unreadable or short files, numeric ordering, value names)."""

from xdsl.dialects.builtin import ModuleOp, UnknownLoc

from ttc.ir.diagnostics import Source
from ttc.ir.parser import parse
from ttc.opt.source_map import header, render_source_map, resolve

LOCS = """
module {
  tt.func @k(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc("/no/k.py":3:4)
    %1 = arith.addi %0, %0 : i32 loc("n"("/no/k.py":4:5))
    %2 = arith.addi %1, %1 : i32 loc("bare")
    %3 = arith.addi %2, %2 : i32 loc(callsite(unknown at "/no/k.py":7:1))
    %4 = arith.addi %3, %3 : i32 loc(callsite("/no/h.py":1:2 at callsite("/no/g.py":5:6 at "/no/k.py":8:9)))
    %5 = arith.addi %4, %4 : i32 loc(callsite(callsite("/no/h.py":1:2 at "/no/g.py":5:6) at "/no/k.py":8:9))
    %6 = arith.addi %5, %5 : i32 loc(fused[unknown, "n"("/no/k.py":9:1), "/no/k.py":10:1])
    %7 = arith.addi %6, %6 : i32 loc(unknown)
    tt.return %7 : i32 loc("/no/k.py":11:4)
  } loc("/no/k.py":2:0)
} loc(unknown)
"""


def _ops(text):
    module = parse(text, "t.mlir")
    return module, [op for op in module.walk() if op.name == "arith.addi"]


def test_resolve_names_callsites_and_fusions():
    _, ops = _ops(LOCS)
    k, g, h = "/no/k.py", "/no/g.py", "/no/h.py"
    assert [resolve(op.location) for op in ops] == [
        ((k, 3, 4), ()),
        ((k, 4, 5), ()),  # a NameLoc is its inner location
        (None, ()),  # a NameLoc with nothing inside
        ((k, 7, 1), ()),  # callsite(unknown at X) is X
        ((h, 1, 2), ((g, 5, 6), (k, 8, 9))),  # call sites innermost first, however the callsites nest
        ((h, 1, 2), ((g, 5, 6), (k, 8, 9))),
        ((k, 9, 1), ()),  # a fusion is its first part with a file location
        (None, ()),
    ]
    assert header((h, 1, 2), ((g, 5, 6), (k, 8, 9))) == "/no/h.py:1:2 (inlined at /no/g.py:5:6, at /no/k.py:8:9)"
    assert header(None) == "<unknown>"


def test_groups_and_unknown_last():
    module, _ = _ops(LOCS)
    text = render_source_map(module, Source.of("t.mlir", LOCS))
    lines = text.splitlines()
    headers = [line for line in lines if not line.startswith(" ")]
    assert headers == [
        "/no/h.py:1:2 (inlined at /no/g.py:5:6, at /no/k.py:8:9)",
        "/no/k.py:2:0",
        "/no/k.py:3:4",
        "/no/k.py:4:5",
        "/no/k.py:7:1",
        "/no/k.py:9:1",
        "/no/k.py:11:4",  # numerically after 9, not as text
        "<unknown>",
    ]
    assert lines[lines.index("/no/h.py:1:2 (inlined at /no/g.py:5:6, at /no/k.py:8:9)") + 1 :][:2] == [
        "  %2 = arith.addi %1, %1 : i32",  # both ways of nesting the callsites: one group, in IR order
        "  %3 = arith.addi %2, %2 : i32",
    ]
    # values take their NameLoc's name (%n, %bare), as with --mlir-use-nameloc-as-prefix
    assert lines[-3:] == ["<unknown>", "  %bare = arith.addi %n, %n : i32", "  %4 = arith.addi %n_0, %n_0 : i32"]
    assert "  tt.func @k(%arg0: i32) -> i32 { ... }" in lines
    assert not any("loc(" in line or "module" in line for line in lines)
    assert render_source_map(module, Source.of("t.mlir", LOCS)) == text  # deterministic


def test_empty_module_and_ops_built_without_location():
    assert render_source_map(ModuleOp([])) == ""
    module, ops = _ops(LOCS)
    for op in module.walk():
        op.location = UnknownLoc()
    text = render_source_map(module)
    assert text.splitlines()[0] == "<unknown>"
    assert text.count("\n") == 1 + 1 + 8 + 1  # header, tt.func, the adds, tt.return


def test_source_lines(tmp_path):
    py = tmp_path / "kernel.py"
    py.write_text("def k(x):\n    y = x + 1\n\n")
    text = f"""module {{
  tt.func @k(%arg0: i32) -> i32 {{
    %0 = arith.addi %arg0, %arg0 : i32 loc("{py}":2:10)
    %1 = arith.addi %0, %0 : i32 loc("{py}":3:1)
    %2 = arith.addi %1, %1 : i32 loc("{py}":99:1)
    %3 = arith.addi %2, %2 : i32 loc("{tmp_path}":1:1)
    tt.return %3 : i32
  }} loc("{py}":1:0)
}}
"""
    module = parse(text, "in.mlir")
    lines = render_source_map(module, Source.of("in.mlir", text)).splitlines()
    assert lines == [
        f"{tmp_path}:1:1",  # a directory: no source line
        "  %3 = arith.addi %2, %2 : i32",
        f"{py}:1:0",
        "  | def k(x):",
        "  tt.func @k(%arg0: i32) -> i32 { ... }",
        f"{py}:2:10",
        "  | y = x + 1",  # stripped of its indentation
        "  %0 = arith.addi %arg0, %arg0 : i32",
        f"{py}:3:1",  # a blank line, a line past the end: no source line
        "  %1 = arith.addi %0, %0 : i32",
        f"{py}:99:1",
        "  %2 = arith.addi %1, %1 : i32",
        "in.mlir:7:5",  # tt.return has no location in the text: it is where it was parsed, in the input
        "  | tt.return %3 : i32",
        "  tt.return %3 : i32",
    ]


def test_value_names_follow_namelocs_by_default():
    text = """module {
  tt.func @k(%arg0: i32) -> i32 {
    %0 = arith.addi %arg0, %arg0 : i32 loc("offs"("/no/k.py":3:4))
    tt.return %0 : i32 loc("/no/k.py":4:4)
  } loc("/no/k.py":2:0)
}
"""
    module = parse(text, "t.mlir")
    assert "  %offs = arith.addi %arg0, %arg0 : i32" in render_source_map(module).splitlines()
    assert "  %0 = arith.addi %arg0, %arg0 : i32" in render_source_map(module, name_locs=False).splitlines()
