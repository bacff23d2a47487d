"""Every Triton fixture round-trips: we print Triton's own text back (locations stripped, and with them)."""

import functools
from pathlib import Path

import pytest

from ttc.ir.printer import print_ir
from ttc.ir.parser import parse

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "triton"
DUMPS = sorted(p for p in FIXTURES.glob("*.tt*ir") if ".nodebug." not in p.name)


@functools.cache
def _parsed(path: Path):
    """A dump's module, parsed once for the three tests (they only print it)."""
    return parse(path.read_text(), str(path))


def _nodebug(p: Path) -> Path:
    return p.with_name(p.name.replace(".ttir", ".nodebug.ttir").replace(".ttgir", ".nodebug.ttgir"))


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.name)
def test_prints_triton_text_without_locations(path):
    module = _parsed(path)
    assert print_ir(module) == _nodebug(path).read_text()


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.name)
def test_prints_triton_dump_with_locations(path):
    module = _parsed(path)
    assert print_ir(module, debuginfo=True, name_locs=True) == path.read_text()


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.name)
def test_generic_form_reparses_to_the_same_ir(path):
    module = _parsed(path)
    generic = print_ir(module, generic=True)
    assert print_ir(parse(generic)) == print_ir(module)


# ------------------------------------------------------------------ the parser's and builder's fast paths

_CALLS = """module {
  tt.func private @f(%a: tensor<4x64xf32>, %b: tensor<2x!tt.ptr<f32>>) -> tensor<4x64xf32> {
    tt.return %a : tensor<4x64xf32>
  }
  tt.func @g(%a: tensor<4x64xf32>, %b: tensor<2x!tt.ptr<f32>>) {
    %0 = tt.call @f(%a, %b) : (tensor<4x64xf32>, tensor<2x!tt.ptr<f32>>) -> tensor<4x64xf32>
    %1 = tt.call @f(%0, %b) : (tensor<4x64xf32>, tensor<2x!tt.ptr<f32>>) -> tensor<4x64xf32>
    %2 = arith.addf %0, %1 : tensor<4x64xf32>
    tt.return
  }
}
"""


def test_ranked_tensor_types_are_read_without_xdsls_dimension_parser(monkeypatch):
    """TTParser._tensor_type makes the TensorType xDSL's `_parse_tensor_attrs` makes, without calling it;
    a tensor of rank 0 or with a dynamic dimension is still xDSL's to read."""
    from xdsl.parser.attribute_parser import AttrParser

    from ttc.ir.parser import TTParser

    monkeypatch.setattr(TTParser, "_tensor_type", lambda self, tok: None)
    expected = parse(_CALLS)
    monkeypatch.undo()
    calls = []
    xdsl_tensor = AttrParser._parse_tensor_attrs
    monkeypatch.setattr(AttrParser, "_parse_tensor_attrs", lambda self: calls.append(1) or xdsl_tensor(self))
    module = parse(_CALLS)
    assert calls == []
    assert print_ir(module) == print_ir(expected)
    types = lambda m: [r.type for op in m.walk() for r in op.results] + [a.type for op in m.walk() for r in op.regions
                                                                         for b in r.blocks for a in b.args]
    assert types(module) == types(expected)
    parse(_CALLS.replace("tensor<2x!tt.ptr<f32>>", "tensor<?x!tt.ptr<f32>>"), verify=False)
    parse(_CALLS.replace("tensor<2x!tt.ptr<f32>>", "tensor<!tt.ptr<f32>>"), verify=False)
    assert len(calls) == 2


def test_call_signatures_spelled_alike_share_one_function_type(monkeypatch):
    """TTParser.parse_optional_function_type: one FunctionType per input and output types (as MLIR's context
    uniques them), and a malformed one is still xDSL's to report."""
    from ttc.ir.diagnostics import CompileError
    from ttc.ir.parser import TTParser

    seen = []
    ours = TTParser.parse_optional_function_type
    monkeypatch.setattr(TTParser, "parse_optional_function_type", lambda self: seen.append(ours(self)) or seen[-1])
    parse(_CALLS)
    seen = [t for t in seen if t is not None]  # (None: where a function type may start and does not)
    assert len(seen) == 2 and seen[0] is seen[1]
    with pytest.raises(CompileError) as e:
        parse(_CALLS.replace(", tensor<2x!tt.ptr<f32>>) -> tensor<4x64xf32>\n    %1", ",) -> tensor<4x64xf32>\n    %1"))
    assert e.value.diags[0].render().startswith("<stdin>:6:49: error: type expected")  # as xDSL reports it


def test_ops_are_made_as_xdsls_create_makes_them(monkeypatch):
    """format._new_op, which parsing and build_op use for ops of a fixed shape: the same fields, uses and
    default properties as xDSL's `create`, without `Operation.__init__`."""
    from xdsl.ir import Operation

    from ttc.ir.format import _new_op, op_info

    module = parse(_CALLS)
    made = []
    init = Operation.__init__
    monkeypatch.setattr(Operation, "__init__", lambda self, **kw: made.append(self.name) or init(self, **kw))
    parse(_CALLS)
    assert "arith.addf" not in made
    monkeypatch.undo()
    add = next(op for op in module.walk() if op.name == "arith.addf")
    args = dict(operands=list(add.operands), result_types=[r.type for r in add.results],
                properties={}, attributes=dict(add.attributes))
    a = type(add).create(**args)
    b = _new_op(type(add), op_info(type(add)).fill, *args.values(), None)
    assert list(vars(a)) == list(vars(b))
    assert a.properties == b.properties == add.properties  # fastmath's default filled in
    assert a.location is b.location and a.operands == b.operands and [r.type for r in a.results] == [r.type for r in b.results]
    assert [u.operation for u in add.operands[0].uses][:2] == [b, a]  # linked first, as xDSL links a new use
