"""`-make-ttir` against Triton 3.6 itself: for every fixture X, the frontend's TTIR (`X.source.nodebug.ttir`)
through `-make-ttir` must print exactly the TTIR Triton's make_ttir printed (`X.nodebug.ttir`).
`test_same_ops_as_triton` also compares the ops as a multiset, which gives a readable difference when the
exact comparison fails.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path

import pytest

from ttc.ir.printer import print_ir
from ttc.ir.parser import parse
from ttc.ir.dialects import context
from ttc.opt.passmanager import PassManager, make_pass

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "triton"
MANIFEST = json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"]
NAMES = sorted(json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"])



@functools.cache  # the text, computed once for the tests that compare it
def _make_ttir(name: str, passes=("make-ttir",)) -> str:
    module = parse((FIXTURES / f"{name}.source.nodebug.ttir").read_text(), f"{name}.source.nodebug.ttir")
    target = "cuda:" + MANIFEST[name]["target"].split(":")[1]  # below sm_90, descriptors become pointer loads
    PassManager([make_pass(p, f"target={target}" if p == "make-ttir" else "") for p in passes]).run(module, context())
    return print_ir(module)


def _expected(name: str) -> str:
    return (FIXTURES / f"{name}.nodebug.ttir").read_text()


def _ops(text: str) -> Counter:
    """Every op of a module as (name, operand types, result types, properties, attributes), counted."""
    from ttc.ir.attr_printer import attr_text

    def show(d) -> tuple:
        return tuple(sorted((k, attr_text(v)) for k, v in d.items()))

    return Counter(
        (
            op.name,
            tuple(attr_text(v.type) for v in op.operands),
            tuple(attr_text(r.type) for r in op.results),
            show(op.properties),
            show(op.attributes),
        )
        for op in parse(text).walk()
    )


def test_every_fixture_is_covered():
    # every kernel spec has its fixture (test_frontend checks the spec side); every fixture has both files
    assert {"vector_add", "matmul", "attention"} <= set(NAMES)
    for name in NAMES:
        assert (FIXTURES / f"{name}.source.nodebug.ttir").exists() and (FIXTURES / f"{name}.nodebug.ttir").exists()


@pytest.mark.parametrize("name", NAMES)
def test_prints_exactly_what_triton_prints(name):
    assert _make_ttir(name) == _expected(name)


@pytest.mark.parametrize("name", NAMES)
def test_same_ops_as_triton(name):
    got, want = _ops(_make_ttir(name)), _ops(_expected(name))
    assert got == want, f"missing: {want - got}\nextra: {got - want}"


@pytest.mark.parametrize("name", ["block_ptr_matmul", "helper_call", "while_loop", "softmax"])
def test_make_ttir_is_its_passes_in_order(name):
    from ttc.passes.make_ttir import PIPELINE

    assert PIPELINE == (
        "inline", "triton-rewrite-tensor-pointer", "canonicalize", "triton-combine", "triton-reorder-broadcast",
        "cse", "symbol-dce", "triton-loop-unroll",
    )
    assert _make_ttir(name) == _make_ttir(name, PIPELINE)


def test_block_pointers_are_rewritten():
    text = _make_ttir("block_ptr_matmul")
    assert "tt.make_tensor_ptr" not in text and "tt.advance" not in text and "!tt.ptr<tensor<" not in text
    assert "tt.make_tensor_ptr" in (FIXTURES / "block_ptr_matmul.source.nodebug.ttir").read_text()


@pytest.mark.parametrize("name, canonicalize_runs", [("helper_call", False), ("block_ptr_matmul", True)])
def test_canonicalize_after_the_inliner_runs_only_where_it_can_change_something(name, canonicalize_runs, monkeypatch):
    # the inliner left every function at its fixed point; block pointers are rewritten in between (not in
    # helper_call); the output is the passes' in order either way (test_make_ttir_is_its_passes_in_order)
    import ttc.passes.make_ttir as make_ttir

    ran = []
    monkeypatch.setattr(make_ttir, "make_pass", lambda name, *a: ran.append(name) or make_pass(name, *a))
    module = parse((FIXTURES / f"{name}.source.nodebug.ttir").read_text())
    PassManager([make_pass("make-ttir")]).run(module, context())
    assert ("canonicalize" in ran) == canonicalize_runs
    assert print_ir(module) == _expected(name)
