"""tt-frontend against Triton's own frontend output: every fixture kernel (each kernels/*.json spec and its
variants in test/fixtures/triton/MANIFEST.json) compiles to exactly the module Triton 3.6 built (its
`.source.nodebug.ttir`, compared as text), with the same locations in the kernel's file (its `.source.ttir`),
and the result verifies and round-trips through ttc's parser.

The fixtures were made by importing kernels/<name>.py as module `ttc_fixture_kernels_<name>`, so helper
functions defined there are named after that module; we pass the same module name.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc, NameLoc, NoneAttr

from ttc.ir.diagnostics import CompileError
from ttc.frontend import compile_file, compile_source
from ttc.frontend.driver import HASH_ATTRIBUTE
from ttc.frontend.options import Options
from ttc.ir.verifier import verify_module
from ttc.ir.printer import print_ir
from ttc.ir.parser import parse
from ttc.runtime.spec import kernel_source

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "test" / "fixtures" / "triton"
MANIFEST = json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"]


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    # the fixtures' locations name kernels by their repository-relative path
    monkeypatch.chdir(ROOT)


@functools.cache
def _compile(name: str):
    """The frontend's module for a fixture, compiled once for the four tests that read it (none changes it)."""
    spec = MANIFEST[name]
    stem = Path(spec["source"]).stem
    arch = Options(arch=int(spec["target"].split(":")[1]))  # fp8 types and defaults depend on the target
    return compile_file(spec["source"], spec["kernel"], spec["signature"], module_name=f"ttc_fixture_kernels_{stem}",
                        options=arch)


def _without_hash(module):
    module = module.clone()
    del module.attributes[HASH_ATTRIBUTE]
    return module


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_matches_triton_frontend_exactly(name):
    module = _compile(name)
    verify_module(module)
    expected = (FIXTURES / f"{name}.source.nodebug.ttir").read_text()
    assert print_ir(_without_hash(module)) == expected


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_output_reparses(name):
    text = print_ir(_compile(name), debuginfo=True, name_locs=True)
    assert print_ir(parse(text), debuginfo=True, name_locs=True) == text


def _loc_text(loc) -> str:
    if isinstance(loc, FileLineColLoc):
        return f'"{loc.filename.data}":{loc.line.data}:{loc.column.data}'
    if isinstance(loc, NameLoc):
        inner = "" if isinstance(loc.location, NoneAttr) else f"({_loc_text(loc.location)})"
        return f'"{loc.desc.data}"{inner}'
    return "unknown"


def _user_locations(module) -> list:
    """(what, location) for the functions defined in the kernel's file, in order. The standard library's
    and random functions are skipped (their locations are in ttc's own sources, not Triton's), and so are what a
    printed dump cannot carry: arguments of loop regions and elided `scf.yield`s."""
    out = []
    for func in module.body.block.ops:
        if func.properties["sym_name"].data.startswith(("triton.language.standard.", "triton.language.random.")):
            continue
        out.append(("tt.func", _loc_text(func.location)))
        out += [("arg", _loc_text(a.location)) for a in func.body.blocks.first.args]
        for op in func.walk():
            if op is func or (op.name == "scf.yield" and not op.operands):
                continue
            out.append((op.name, _loc_text(op.location)))
    return out


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_locations_match_triton(name):
    expected = parse((FIXTURES / f"{name}.source.ttir").read_text())
    assert _user_locations(_compile(name)) == _user_locations(expected)


def test_every_kernel_spec_has_a_fixture():
    # one fixture per spec, named after it and compiled from the spec's source file (a file may hold several kernels)
    specs = {p.stem: kernel_source(p).relative_to(ROOT).as_posix() for p in (ROOT / "kernels").glob("*.json")}
    assert specs and {name: MANIFEST[name]["source"] for name in specs if name in MANIFEST} == specs


def test_vector_add_dump_with_locations_is_tritons():
    text = print_ir(_without_hash(_compile("vector_add")), debuginfo=True, name_locs=True)
    assert text == (FIXTURES / "vector_add.source.ttir").read_text()


# ----------------------------------------------------------------------------- source hash

KERNEL = """import triton
import triton.language as tl

SCALE = 2


@triton.jit
def helper(x):
    return x * SCALE


@triton.jit
def kernel(p, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, helper(tl.load(p + offs)))
"""


def _hash(text: str, signature: str) -> str:
    return compile_source(text, "k.py", "kernel", signature).attributes[HASH_ATTRIBUTE].data


def test_source_hash_is_stable_and_tracks_its_inputs():
    h = _hash(KERNEL, "*fp32,64")
    assert len(h) == 64 and h == _hash(KERNEL, "*fp32,64")
    assert _hash(KERNEL, "*fp32,128") != h  # a constexpr value
    assert _hash(KERNEL, "*fp16,64") != h  # a type
    assert _hash(KERNEL.replace("x * SCALE", "x + SCALE"), "*fp32,64") != h  # a helper's source
    assert _hash(KERNEL.replace("SCALE = 2", "SCALE = 3"), "*fp32,64") != h  # a global constant
    assert _hash(KERNEL + "\n\ndef unrelated():\n    pass\n", "*fp32,64") == h  # host code does not count


def test_source_hash_is_printed_and_parsed():
    module = compile_source(KERNEL, "k.py", "kernel", "*fp32,64")
    text = print_ir(module)
    assert text.startswith(f'module attributes {{{HASH_ATTRIBUTE} = "')
    assert parse(text).attributes[HASH_ATTRIBUTE] == module.attributes[HASH_ATTRIBUTE]


# ----------------------------------------------------------------------------- errors and independence


@pytest.mark.parametrize(
    "body, line, col, message",
    [
        ("    tl.store(p, nope)\n", 7, 17, "name 'nope' is not defined"),
        ("    for i in range(4):\n        break\n", 8, 9, "`break` is not supported in kernels"),
        ("    tl.store(p + tl.arange(0, 6), 1)\n", 7, 18, "arange's range must be a power of 2"),
    ],
)
def test_errors_point_at_the_source(body, line, col, message):
    text = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef kernel(p):\n" + body
    with pytest.raises(CompileError) as info:
        compile_source(text, "k.py", "kernel", "*i32")
    d = info.value.diags[0]
    assert (d.file, d.line, d.col, d.message) == ("k.py", line, col, message)
    assert d.source == text.split("\n")[line - 1]


def test_frontend_does_not_need_triton():
    code = (
        "import sys\n"
        "from ttc.frontend import compile_file\n"
        "compile_file('kernels/matmul.py', 'matmul_kernel', "
        "'*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32:1,i32,i32:1,i32,i32:1,64,64,32,8')\n"
        "assert not [m for m in sys.modules if m == 'triton' or m.startswith('triton.')]\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_make_ttir_of_our_frontend_is_tritons_ttir(name):
    """Issue acceptance: our frontend then -make-ttir gives Triton's own .ttir (printed without locations)."""
    from ttc.ir.dialects import context
    from ttc.opt.passmanager import make_pass

    module = _without_hash(_compile(name))
    target = "cuda:" + MANIFEST[name]["target"].split(":")[1]  # below sm_90, descriptors become pointer loads
    make_pass("make-ttir", f"target={target}").apply(context(), module)
    assert print_ir(module) == (FIXTURES / f"{name}.nodebug.ttir").read_text()
