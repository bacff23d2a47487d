"""tt-compile and ttc.compile: every stage equal to the pipe of separate commands, for every kernel in kernels/;
and Triton's kernel cache (hits, misses on every change of the key, TRITON_ALWAYS_COMPILE, dumps and overrides
on a hit, concurrent compiles into one cache)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

import ttc
from ttc.compiler import Options

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted(p.stem for p in (ROOT / "kernels").glob("*.json"))
PRINT = "--mlir-print-debuginfo --mlir-use-nameloc-as-prefix"  # TTIR/TTGIR as dumps (and tt-compile) print them


def _spec(kernel: str) -> dict:
    return json.loads((ROOT / "kernels" / f"{kernel}.json").read_text())


def _sh(cmd: str, env=None, cwd=ROOT) -> subprocess.CompletedProcess:
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, env=env, cwd=cwd)
    assert proc.returncode == 0, proc.stderr.decode()[-4000:]
    return proc


@pytest.mark.parametrize("kernel", KERNELS)
def test_tt_compile_equals_the_pipe(kernel, tmp_path):
    spec = _spec(kernel)
    src, warps, q = f"kernels/{kernel}.py", spec.get("num_warps", 4), shlex.quote
    d = tmp_path
    _sh(f"tt-frontend {src} --kernel {spec['kernel']} --signature {q(spec['signature'])} --mlir-print-debuginfo"
        f" | tt-opt -make-ttir {PRINT} -o {d}/k.ttir"
        f" && tt-opt {d}/k.ttir -make-ttgir='target=cuda:90 num-warps={warps}' {PRINT} -o {d}/k.ttgir"
        f" && tt-translate {d}/k.ttgir --target=llvmir -o {d}/k.llir"
        f" && tt-translate {d}/k.llir --target=ptx -o {d}/k.ptx && tt-as {d}/k.ptx -o {d}/k.cubin")
    env = dict(os.environ, TRITON_CACHE_DIR=str(d / "cache"))
    _sh(f"tt-compile {src} --kernel {spec['kernel']} --signature {q(spec['signature'])} --num-warps {warps}"
        f" -o {d}/c.cubin", env)
    assert (d / "c.cubin").read_bytes() == (d / "k.cubin").read_bytes()
    assert (d / "c.cubin.json").read_text() == (d / "k.cubin.json").read_text()
    # every stage, in process (the same compile: now a cache hit) and from the cache directory
    os.environ["TRITON_CACHE_DIR"] = str(d / "cache")
    try:
        result = ttc.compile(src, spec["kernel"], spec["signature"], Options(num_warps=warps),
                             text=(ROOT / src).read_text())
    finally:
        del os.environ["TRITON_CACHE_DIR"]
    for ext in ("ttir", "ttgir", "llir", "ptx"):
        assert result.stage(ext) == (d / f"k.{ext}").read_text(), ext
    assert result.cubin == (d / "k.cubin").read_bytes()
