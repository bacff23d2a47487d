"""ttc.opt.cse (xDSL's CSE driver with each op's key hashed once) against xDSL's own `cse`: the same module out of
every source TTIR fixture named below, and something merged in each."""

from pathlib import Path

import pytest
from xdsl.transforms.common_subexpression_elimination import cse as xdsl_cse

from ttc.ir.parser import parse
from ttc.ir.printer import print_ir
from ttc.opt.cse import cse

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "triton"


@pytest.mark.parametrize("name", ["sort.source.ttir", "attention.source.ttir", "matmul.source.ttir",
                                  "layer_norm.source.ttir", "softmax.source.ttir", "while_loop.source.ttir"])
def test_same_module_as_xdsl_cse(name):
    text = (FIXTURES / name).read_text()
    ours, theirs = parse(text, name), parse(text, name)
    cse(ours)
    xdsl_cse(theirs)
    out = print_ir(ours, debuginfo=True)
    assert out == print_ir(theirs, debuginfo=True)
    assert out != print_ir(parse(text, name), debuginfo=True)  # CSE merged something
