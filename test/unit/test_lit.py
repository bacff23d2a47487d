"""Runs each lit + FileCheck test file under test/lit as one pytest case, so one runner reports them all.
The RUN lines' commands are test/toolserver.py's clients (`tool_path`): the same entry points, forked from one
process that imported ttc, instead of a Python start-up per line; `lit test/lit` runs the installed ones."""

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

LIT_DIR = Path(__file__).resolve().parents[1] / "lit"
SUFFIXES = {".mlir", ".ttir", ".ttgir", ".test"}
FILES = sorted(p for p in LIT_DIR.rglob("*") if p.suffix in SUFFIXES and "Inputs" not in p.parts)


@functools.cache
def _has_gpu() -> bool:
    try:
        from cuda.bindings import driver

        return driver.cuInit(0)[0] == driver.CUresult.CUDA_SUCCESS and driver.cuDeviceGetCount()[1] > 0
    except Exception:
        return False


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(LIT_DIR)))
def test_lit(path, tmp_path, tool_path):
    lit = shutil.which("lit", path=tool_path) or pytest.fail("lit is not installed (pip install -e '.[test]')")
    env = {**os.environ, "PATH": tool_path, "TTC_LIT_OUT": str(tmp_path), "TTC_LIT_GPU": "1" if _has_gpu() else "0"}
    proc = subprocess.run([lit, "-v", str(path)], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        pytest.fail(proc.stdout[-8000:] + proc.stderr[-2000:], pytrace=False)
    if "UNSUPPORTED:" in proc.stdout:
        pytest.skip("lit: unsupported here (REQUIRES: cuda-gpu)")


def test_lit_files_exist():
    assert len(FILES) >= 1, f"no lit tests found under {LIT_DIR}"
