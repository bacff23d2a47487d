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
