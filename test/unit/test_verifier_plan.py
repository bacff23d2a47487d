"""The verifier checks IRDL definitions by a plan made once per op class (ttc/ir/verifier.py): on IR made invalid
in each way the plan checks, it reports what the op's own `verify_` reports, and on valid IR nothing."""

import pytest
from xdsl.dialects.builtin import DenseArrayBase, StringAttr, UnitAttr, i32, i64

from ttc.ir import verifier
from ttc.ir.parser import parse

TEXT = """
module {
  tt.func public @f(%p: !tt.ptr<f32>, %x: i32, %y: f32, %c: i1) -> i32 {
    %0 = arith.addi %x, %x : i32
    %1 = tt.load %p, %c : !tt.ptr<f32>
    tt.return %0 : i32
  }
  tt.func public @g(%x: i32) -> i32 {
    %0 = arith.addi %x, %x : i32
    tt.return %0 : i32
  }
}
"""


def _ops():
    m = parse(TEXT)
    f, g = list(m.body.ops)
    addi, load, ret = list(f.body.block.ops)
    return f, g, addi, load, ret


def _segments(*sizes):
    return DenseArrayBase.from_list(i32, sizes)


def _mutate(case):
    f, g, addi, load, ret = _ops()
    x, y, c = f.body.block.args[1:]
    if case == "operand count":
        addi.operands = [x]
        return addi
    if case == "operand type":
        addi.operands = [x, y]
        return addi
    if case == "result count":
        ret.operands = [x, x]
        return ret
    if case == "segments sum":
        load.properties["operandSegmentSizes"] = _segments(1, 1, 1)
        return load
    if case == "segments optional":
        load.operands = [load.ptr, c, c]
        load.properties["operandSegmentSizes"] = _segments(1, 2, 0)
        return load
    if case == "segments length":
        load.properties["operandSegmentSizes"] = _segments(1, 1)
        return load
    if case == "segments kind":
        load.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i64, [1, 1, 0])
        return load
    if case == "unknown property":
        load.properties["bogus"] = UnitAttr()
        return load
    if case == "missing property":
        del load.properties["cache"]
        return load
    if case == "property type":
        load.properties["cache"] = StringAttr("x")
        return load
    if case == "isolated":
        gadd = next(iter(g.body.block.ops))
        gadd.operands = [x, x]
        return g
    raise AssertionError(case)


@pytest.mark.parametrize("case", ["operand count", "operand type", "result count", "segments sum", "segments optional",
                                  "segments length", "segments kind", "unknown property", "missing property",
                                  "property type", "isolated"])
def test_plan_reports_what_verify_reports(case):
    op = _mutate(case)
    own = verifier._problems(op.verify_, op)
    assert own, case
    assert verifier._op_problems(op) == own


def test_valid_ops_pass_both_ways():
    m = parse(TEXT)
    for op in m.walk():
        assert verifier._problems(op.verify_, op) == []
        assert verifier._op_problems(op) == []
    assert all(verifier._irdl_plan(type(op)) is not None for op in m.walk())
