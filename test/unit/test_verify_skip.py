"""The pass manager's verifier runs after a pass unless the pass says it left the IR as it was (canonicalize's
drivers touched nothing, cse replaced nothing) and that IR is known valid (ttc/opt/passmanager.py); the
canonicalize driver counts constant moves as changes; write_output leaves a device or pipe in place; xDSL's
IRDL dialect finder stands in lazily (ttc/__init__.py)."""

import os
import stat
import subprocess
import sys
import threading

import pytest

from ttc.driver.cli import write_output
from ttc.ir.dialects import context
from ttc.ir.parser import parse
from ttc.ir.printer import print_ir
from ttc.opt.cse import cse
from ttc.opt.passmanager import PassManager, make_pass

CANONICAL = """
tt.func public @f(%x: i32) -> i32 {
  %c1_i32 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1_i32 : i32
  tt.return %0 : i32
}
"""

# canonicalize changes only where the constant is: it hoists it to the start of the function
HOIST_ONLY = """
tt.func public @f(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  %c1_i32 = arith.constant 1 : i32
  %1 = arith.addi %0, %c1_i32 : i32
  tt.return %1 : i32
}
"""

DUPLICATE = """
tt.func public @f(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  %1 = arith.muli %x, %x : i32
  %2 = arith.addi %0, %1 : i32
  tt.return %2 : i32
}
"""


@pytest.fixture
def verifications(monkeypatch):
    """How many times the pass manager verified the module."""
    import ttc.ir.verifier as verifier

    count = []
    real = verifier.verify_module
    monkeypatch.setattr(verifier, "verify_module", lambda *a, **k: (count.append(1), real(*a, **k))[1])
    return count


def run(text: str, passes: list[str], input_verified: bool = True):
    module = parse(text)
    before = print_ir(module)
    PassManager([make_pass(p) for p in passes], input_verified=input_verified).run(module, context())
    return before, print_ir(module)


def test_unchanged_passes_are_not_verified_again(verifications):
    before, after = run(CANONICAL, ["canonicalize", "cse"])
    assert before == after
    assert verifications == []


def test_unverified_input_is_verified_once(verifications):
    run(CANONICAL, ["canonicalize", "cse"], input_verified=False)
    assert len(verifications) == 1


def test_a_hoisted_constant_counts_as_a_change(verifications):
    before, after = run(HOIST_ONLY, ["canonicalize"])
    assert before != after
    assert len(verifications) == 1


def test_cse_that_merges_is_verified(verifications):
    before, after = run(DUPLICATE, ["canonicalize", "cse"])
    assert after.count("arith.muli") == 1 < before.count("arith.muli")
    assert len(verifications) == 1  # canonicalize left DUPLICATE as it was; cse changed it


def test_cse_reports_whether_it_changed_anything():
    assert cse(parse(CANONICAL)) is False
    assert cse(parse(DUPLICATE)) is True


def test_passes_without_a_verdict_are_always_verified(verifications, monkeypatch):
    p = make_pass("canonicalize")  # as a pass whose apply returns None (xDSL's ModulePass protocol)
    module = parse(CANONICAL)
    pm = PassManager([p], input_verified=True)
    monkeypatch.setattr(type(p), "apply", lambda self, ctx, op: None)
    pm.run(module, context())
    assert len(verifications) == 1


def test_write_output_leaves_a_pipe_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    write_output(str(fifo), "text\n")
    reader.join(10)
    assert got == [b"text\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # not replaced by a regular file


PROBE = """
import sys
import ttc, xdsl.dialects
assert "importlib.abc" not in sys.modules, "the IRDL finder's module was imported at start-up"
try:
    import no_such_module_anywhere
except ModuleNotFoundError:
    pass
assert "importlib.abc" not in sys.modules, "a failed import loaded the IRDL finder's module"
try:
    import probe_dialect  # probe_dialect.irdl is in the working directory: xDSL's loader reads it
except Exception as e:
    print(type(e).__name__)
"""


def test_irdl_finder_runs_xdsl_loader_only_for_irdl_files(tmp_path):
    (tmp_path / "probe_dialect.irdl").write_text("this is not IRDL\n")
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ParseError"  # xDSL's IRDL parser ran on the file
