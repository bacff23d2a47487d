"""The inliner's simplification schedule (passes/inline.py, `inline_calls`): each function is simplified before
calls are inlined into it and, as in MLIR's inliner, again only when a call was inlined into it, or when the
first run did not reach its fixed point."""

import pytest

from ttc.ir.parser import parse
from ttc.passes.inline import inline_calls

MODULE = """
tt.func public @caller(%x: f32) -> f32 {
  %0 = tt.call @leaf(%x) : (f32) -> f32
  tt.return %0 : f32
}
tt.func private @leaf(%v: f32) -> f32 {
  %0 = arith.mulf %v, %v : f32
  tt.return %0 : f32
}
tt.func public @alone(%v: f32) -> f32 {
  %0 = arith.addf %v, %v : f32
  tt.return %0 : f32
}
"""


@pytest.mark.parametrize("settled, want", [
    (True, ["leaf", "caller", "caller", "alone"]),
    (False, ["leaf", "leaf", "caller", "caller", "alone", "alone"]),
])
def test_second_simplify_only_after_inlining_or_without_fixed_point(settled, want):
    seen = []

    def simplify(func):
        seen.append(func.sym_name.data)
        return settled

    assert inline_calls(parse(MODULE), simplify) == 1
    assert sorted(seen) == sorted(want)
