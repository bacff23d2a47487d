"""The standard library's sorting functions (tl.sort, tl.topk, tl.bitonic_merge, tl.flip, tl.interleave) and
tl.gather, compiled by tt-frontend and run in the interpreter against NumPy, over dtypes and directions; and
the compile-time helpers they use."""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ttc import frontend
from ttc.driver.cli import run
from ttc.frontend import dtypes as T
from ttc.frontend.language import compile_time
from ttc.ir.printer import print_ir
from ttc.ir.dialects import context
from ttc.opt.passmanager import make_pass
from ttc.tools.tt_run import main

SOURCE = '''
import triton
import triton.language as tl


@triton.jit
def sorts(x_ptr, asc_ptr, desc_ptr, top_ptr, merged_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    offs = rows * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    asc = tl.sort(x)
    tl.store(asc_ptr + offs, asc)
    tl.store(desc_ptr + offs, tl.sort(x, descending=True))
    tl.store(top_ptr + rows * K + tl.arange(0, K)[None, :], tl.topk(x, K))
    # bitonic rows (first half sorted up, second half down) merge into sorted ones
    halves = tl.reshape(x, (2 * M, N // 2))
    first = (tl.arange(0, 2 * M) % 2 == 0)[:, None]
    bitonic = tl.where(first, tl.sort(halves), tl.sort(halves, descending=True))
    tl.store(merged_ptr + offs, tl.bitonic_merge(tl.reshape(bitonic, (M, N)), descending=True))


@triton.jit
def flips(x_ptr, rows_ptr, cols_ptr, inter_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(rows_ptr + offs, x.flip(0))
    tl.store(cols_ptr + offs, tl.flip(x, -1))
    a = tl.load(x_ptr + tl.arange(0, N))
    b = tl.load(x_ptr + N + tl.arange(0, N))
    tl.store(inter_ptr + tl.arange(0, 2 * N), tl.interleave(a, b))


@triton.jit
def gathers(x_ptr, i_ptr, j_ptr, cols_ptr, rows_ptr, M: tl.constexpr, N: tl.constexpr, R: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(cols_ptr + offs, tl.gather(x, tl.load(i_ptr + offs), 1))
    roffs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(rows_ptr + roffs, x.gather(tl.load(j_ptr + roffs), 0))
'''


def interpret(tmp_path: Path, kernel: str, signature: str, spec: dict, ttgir: bool = False):
    """Run the kernel's frontend output (or, with `ttgir`, its -make-ttir -make-ttgir output) in the
    interpreter and check it."""
    module = frontend.compile_source(SOURCE, "sorting.py", kernel, signature)
    if ttgir:
        make_pass("make-ttir", "").apply(context(), module)
        make_pass("make-ttgir", "target=cuda:90 num-warps=4").apply(context(), module)
    ttir = tmp_path / f"{kernel}.ttir"
    ttir.write_text(print_ir(module))
    spec_path = tmp_path / f"{kernel}.json"
    spec_path.write_text(json.dumps({"grid": [1], "seed": 1, **spec}))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = run("tt-run", main, [str(ttir), "--spec", str(spec_path), "--interpret", "--check"])
    return rc, out.getvalue(), err.getvalue()


def checked(rc, out, err, names):
    assert rc == 0, out + err
    for n in names:
        assert re.search(rf"^{n}: ok \(", out, re.M), out


@pytest.mark.parametrize("ty,init", [("fp32", "randn"), ("fp16", "randn"), ("i32", {"randint": [-50, 50]}),
                                     ("u8", {"randint": [0, 256]}), ("i64", {"randint": [-(2**40), 2**40]})])
def test_sort_topk_bitonic_merge(tmp_path, ty, init):
    m, n, k = 4, 32, 8
    spec = {"args": [
        {"name": "x", "type": f"*{ty}", "shape": [m, n], "init": init},
        *({"name": name, "type": f"*{ty}", "shape": [m, w]} for name, w in
          (("asc", n), ("desc", n), ("top", k), ("merged", n)))],
        "check": {"asc": "np.sort(x, axis=1)", "desc": "np.sort(x, axis=1)[:, ::-1]",
                  "top": f"np.sort(x, axis=1)[:, ::-1][:, :{k}]", "merged": "np.sort(x, axis=1)[:, ::-1]"}}
    for ttgir in (False, True):
        checked(*interpret(tmp_path, "sorts", f"*{ty},*{ty},*{ty},*{ty},*{ty},{m},{n},{k}", spec, ttgir),
                ["asc", "desc", "top", "merged"])


@pytest.mark.parametrize("ty", ["fp32", "bf16", "i8"])
def test_flip_and_interleave(tmp_path, ty):
    m, n = 8, 16
    init = {"randint": [-100, 100]} if ty == "i8" else "randn"
    spec = {"args": [
        {"name": "x", "type": f"*{ty}", "shape": [m, n], "init": init},
        {"name": "rows", "type": f"*{ty}", "shape": [m, n]},
        {"name": "cols", "type": f"*{ty}", "shape": [m, n]},
        {"name": "inter", "type": f"*{ty}", "shape": [2 * n]}],
        "check": {"rows": "x[::-1]", "cols": "x[:, ::-1]", "inter": "np.stack([x[0], x[1]], axis=1).reshape(-1)"}}
    for ttgir in (False, True):
        checked(*interpret(tmp_path, "flips", f"*{ty},*{ty},*{ty},*{ty},{m},{n}", spec, ttgir),
                ["rows", "cols", "inter"])


def test_gather_along_both_axes(tmp_path):
    m, n, r = 8, 16, 32
    spec = {"args": [
        {"name": "x", "type": "*fp32", "shape": [m, n], "init": "randn"},
        {"name": "i", "type": "*i32", "shape": [m, n], "init": {"randint": [0, n]}},
        {"name": "j", "type": "*i64", "shape": [r, n], "init": {"randint": [0, m]}},
        {"name": "cols", "type": "*fp32", "shape": [m, n]},
        {"name": "rows", "type": "*fp32", "shape": [r, n]}],
        "check": {"cols": "np.take_along_axis(x, i, 1)", "rows": "np.take_along_axis(x, j, 0)"}}
    for ttgir in (False, True):
        checked(*interpret(tmp_path, "gathers", f"*fp32,*i32,*i64,*fp32,*fp32,{m},{n},{r}", spec, ttgir),
                ["cols", "rows"])
    # an index outside the axis is a fault at the gather
    spec["args"][1]["init"] = {"randint": [n, n + 1]}
    rc, out, err = interpret(tmp_path, "gathers", f"*fp32,*i32,*i64,*fp32,*fp32,{m},{n},{r}", spec)
    assert rc == 1 and re.search(r"error: gather index 16 is out of range for axis 1 of size 16", err), err


def test_compile_time_helpers():
    assert [compile_time.log2(n) for n in (1, 2, 3, 64, 100)] == [0, 1, 1, 6, 6]
    assert [compile_time.is_power_of_two(n) for n in (0, 1, 6, 64)] == [False, True, False, True]
    assert compile_time.int_dtype(16, True) is T.int16 and compile_time.int_dtype(64, False) is T.uint64
    assert compile_time.int_dtype(1, True) is T.int1
    assert [compile_time.flip_axis(d, (4, 8, 16)) for d in (None, 0, -1, -3)] == [2, 0, 2, 0]
