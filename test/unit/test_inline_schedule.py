"""The inliner's simplification schedule (passes/inline.py, `inline_calls`): each function is simplified before
calls are inlined into it and, as in MLIR's inliner, again only when a call was inlined into it, or when the
first run did not reach its fixed point; not again where a function only forwards its arguments to a callee at
its fixed point. The inliner's moves of a callee's ops leave what copies leave."""

import pytest

from ttc.ir.parser import parse
from ttc.passes.inline import inline_calls

MODULE = """
tt.func public @caller(%x: f32) -> f32 {
  %0 = tt.call @leaf(%x) : (f32) -> f32
  %1 = arith.addf %0, %x : f32
  tt.return %1 : f32
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


# a callee called twice (copied, then moved at its last call) and one with a loop called once (moved); after the
# canonicalizer %c2 is merged into %c, so %c's use list is [mulf, addf] in the callee, where a copy's is
# [addf, mulf]: the moved ops get their operands anew to match
MOVED = """
tt.func public @k(%x: f32, %n: i32) -> f32 {
  %0 = tt.call @twice(%x) : (f32) -> f32
  %1 = tt.call @twice(%0) : (f32) -> f32
  %2 = tt.call @loop(%1, %n) : (f32, i32) -> f32
  tt.return %2 : f32
}
tt.func private @twice(%v: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %c2 = arith.constant 2.0 : f32
  %a = arith.mulf %v, %c2 : f32
  %b = arith.addf %a, %c : f32
  tt.return %b : f32
}
tt.func private @loop(%v: f32, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> (f32) : i32 {
    %s = arith.mulf %acc, %v : f32
    scf.yield %s : f32
  }
  tt.return %r : f32
}
"""


def _use_lists(module) -> list:
    """Every value's users in use-list order, as (op index in walk order, operand index)."""
    ops = list(module.walk())
    index = {op: i for i, op in enumerate(ops)}
    values = [v for op in ops for v in op.results]
    values += [a for op in ops for r in op.regions for b in r.blocks for a in b.args]
    return [[(index[u.operation], u.index) for u in v.uses] for v in values]


def test_moving_a_callee_at_its_last_call_leaves_what_copying_leaves(monkeypatch):
    import ttc.passes.inline as inline
    from ttc.ir.printer import print_ir
    from ttc.passes.canonicalize import Canonicalize

    def run(move: bool):
        module = parse(MOVED)
        if not move:
            real = inline.inline_call
            monkeypatch.setattr(inline, "inline_call", lambda call, callee, move=False: real(call, callee))
        moves = []
        real_call = inline.inline_call
        monkeypatch.setattr(inline, "inline_call", lambda c, f, move=False: moves.append(move) or real_call(c, f, move))
        assert inline.inline_calls(module, lambda f: Canonicalize().run(f)) == 3
        monkeypatch.undo()
        return print_ir(module), _use_lists(module), moves

    moved, copied = run(True), run(False)
    assert moved[2] == [False, True, True]  # the first call of @twice is copied, the others move
    assert moved[:2] == copied[:2]
    assert "tt.func private" not in moved[0]


def test_inliner_says_whether_every_function_is_at_its_fixed_point(monkeypatch):
    from ttc.passes.inline import Inliner
    import ttc.passes.canonicalize as canonicalize

    assert Inliner().inline(parse(MOVED)) is True
    monkeypatch.setattr(canonicalize.Canonicalize, "run", lambda self, op: False)
    assert Inliner().inline(parse(MOVED)) is False
    assert Inliner(default_pipeline="").inline(parse(MOVED)) is False


# forwarders as tl.sort and tl.topk are (`%r = tt.call @f(<the arguments>)`, `tt.return %r`), two deep, one of them
# called twice (copied, then moved); @k's own call is no forwarder (its arguments differ); @nop, nothing but a
# return, moves nothing
FORWARD = """
tt.func public @k(%x: f32) -> f32 {
  tt.call @nop() : () -> ()
  %c = arith.constant 3.0 : f32
  %0 = tt.call @outer(%x, %c) : (f32, f32) -> f32
  %1 = tt.call @outer(%0, %x) : (f32, f32) -> f32
  tt.return %1 : f32
}
tt.func private @outer(%a: f32, %b: f32) -> f32 {
  %0 = tt.call @inner(%a, %b) : (f32, f32) -> f32
  tt.return %0 : f32
}
tt.func private @inner(%a: f32, %b: f32) -> f32 {
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 1.0 : f32
  %0 = arith.mulf %a, %c1 : f32
  %1 = arith.addf %0, %b : f32
  %2 = arith.addf %1, %c2 : f32
  tt.return %2 : f32
}
tt.func private @nop() {
  tt.return
}
"""


def test_forwarder_of_a_settled_callee_is_not_simplified_again(monkeypatch):
    import ttc.passes.inline as inline
    from ttc.ir.printer import print_ir
    from ttc.passes.canonicalize import Canonicalize

    def run(skip: bool):
        if not skip:
            monkeypatch.setattr(inline, "_forwarding_call", lambda func: None)
        seen, settled = [], {}

        def simplify(func):
            seen.append(func.sym_name.data)
            return Canonicalize().run(func)

        module = parse(FORWARD)
        assert inline.inline_calls(module, simplify, settled) == 4
        monkeypatch.undo()
        return print_ir(module, debuginfo=True), _use_lists(module), seen, settled

    skipped, full = run(True), run(False)
    assert skipped[:2] == full[:2]  # the same IR, locations and use lists
    assert skipped[2] == ["nop", "inner", "outer", "k", "k"] and full[2] == ["nop", "inner", "outer", "outer", "k", "k"]
    assert all(skipped[3].values()) and len(skipped[3]) == 4

    # a callee not at its fixed point: its forwarder is simplified again
    seen = []
    inline.inline_calls(parse(FORWARD), lambda f: seen.append(f.sym_name.data) or f.sym_name.data != "inner")
    assert seen == ["nop", "inner", "inner", "outer", "outer", "k", "k"]


def test_stacked_locations_are_stack_location():
    from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, IntAttr, NameLoc, StringAttr
    from ttc.passes.inline import _stacked, stack_location

    def file(line):
        return FileLineColLoc(StringAttr("f.py"), IntAttr(line), IntAttr(0))

    inner = CallSiteLoc(NameLoc(StringAttr("x"), file(1)), CallSiteLoc(file(2), file(3)))
    for loc in (file(4), inner):
        made = _stacked(loc, file(9), {})
        assert type(made) is CallSiteLoc and made == stack_location(loc, file(9))
        assert [name for name, _ in CallSiteLoc.get_irdl_definition().parameters] == ["callee", "caller"]
