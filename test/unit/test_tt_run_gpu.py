"""tt-run on a GPU: each example kernel, compiled by the installed Triton for the GPU at hand, runs from its
.cubin and its .ptx (metadata in `<binary>.json`, as tt-run reads it) and passes its spec's checks; --bench
reports a timing. Skipped without a GPU, cuda-python or Triton."""

import importlib.util
import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ttc.driver.cli import run
from ttc.runtime.spec import kernel_source
from ttc.tools.tt_run import main

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted(p.stem for p in (ROOT / "kernels").glob("*.json"))


def _gpu_ready() -> str | None:
    """None when a GPU can be used, else why not."""
    try:
        from cuda.bindings import driver
    except ImportError:
        return "cuda-python is not installed"
    try:
        if driver.cuInit(0)[0] != driver.CUresult.CUDA_SUCCESS:
            return "cuInit failed"
        err, count = driver.cuDeviceGetCount()
        if err != driver.CUresult.CUDA_SUCCESS or count == 0:
            return "no CUDA device"
    except Exception as e:  # no driver library
        return f"no CUDA driver ({type(e).__name__})"
    if importlib.util.find_spec("triton") is None:
        return "Triton is not installed"
    return None


REASON = _gpu_ready()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"needs a GPU: {REASON or ''}")


def tt_run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = run("tt-run", main, [str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def _fixture_tools():
    spec = importlib.util.spec_from_file_location("make_fixtures", ROOT / "test" / "fixtures" / "make_fixtures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """kernel name -> {'cubin': path, 'ptx': path}, compiled by Triton for this GPU."""
    import os

    import triton
    from triton.compiler import ASTSource

    tools = _fixture_tools()
    target = triton.runtime.driver.active.get_current_target()
    out = tmp_path_factory.mktemp("gpu")
    cwd = os.getcwd()
    os.chdir(ROOT)  # kernel sources load by their repository-relative paths
    try:
        result = {}
        for name in KERNELS:
            spec = json.loads((ROOT / "kernels" / f"{name}.json").read_text())
            source = kernel_source(ROOT / "kernels" / f"{name}.json").stem
            fn = getattr(tools.load_kernel_module(source), spec["kernel"])
            signature, constexprs, attrs = tools.parse_signature(fn.arg_names, spec["signature"])
            k = triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs), target=target,
                               options={"num_warps": spec.get("num_warps", 4)})
            meta = {key: v for key, v in k.metadata._asdict().items()
                    if key in ("name", "num_warps", "shared", "global_scratch_size", "profile_scratch_size",
                               "tensordesc_meta", "launch_pdl")}
            paths = {}
            for ext in ("cubin", "ptx"):
                path = out / f"{name}.{ext}"
                data = k.asm[ext]
                path.write_bytes(data if isinstance(data, bytes) else data.encode())
                Path(str(path) + ".json").write_text(json.dumps(meta))
                paths[ext] = path
            result[name] = paths
        return result
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("ext", ["cubin", "ptx"])
@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_on_gpu(compiled, kernel, ext):
    spec = json.loads((ROOT / "kernels" / f"{kernel}.json").read_text())
    rc, out, err = tt_run(compiled[kernel][ext], "--spec", ROOT / "kernels" / f"{kernel}.json", "--check")
    assert rc == 0, out + err
    for name in spec["check"]:
        if name != "tolerance":
            assert re.search(rf"^{name}: ok \(", out, re.M), out


def test_ptx_without_metadata(compiled, tmp_path):
    """The kernel name comes from the PTX's only .entry and the block size from its .reqntid."""
    ptx = tmp_path / "add.ptx"
    ptx.write_bytes(compiled["vector_add"]["ptx"].read_bytes())
    spec = json.loads((ROOT / "kernels" / "vector_add.json").read_text())
    del spec["kernel"], spec["num_warps"]
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    rc, out, err = tt_run(ptx, "--spec", tmp_path / "spec.json", "--check")
    assert rc == 0 and "out: ok" in out, out + err


def test_bench_reports_a_timing(compiled):
    rc, out, err = tt_run(compiled["vector_add"]["cubin"], "--spec", ROOT / "kernels" / "vector_add.json", "--check",
                          "--bench", "--warmup", "2", "--rep", "5", "--json")
    assert rc == 0, err
    report = json.loads(out)
    assert report["mode"] == "cuda" and report["ok"] is True
    bench = report["bench"]
    assert bench["rep"] == 5 and bench["median_ms"] > 0 and bench["bytes"] == 3 * 50000 * 4 and bench["gbps"] > 0
    # vector add: a handful of registers, no spills, at least the 16 blocks of 128 threads an SM can hold at once
    assert 0 < bench["n_regs"] <= 64 and bench["spill_bytes"] == 0 and bench["blocks_per_sm"] >= 8
    # queued behind the spin kernel (the host's launch cost is out of the events), warmed up for 50 ms
    assert bench["queued"] is True and 0 < bench["batch_ms"] and bench["warmup"] >= 2 and bench["host_launch_us"] > 0


def test_out_of_bounds_is_a_cuda_error(compiled, tmp_path):
    """A buffer far too small makes the kernel fault; the error is CUDA's, by name."""
    spec = json.loads((ROOT / "kernels" / "vector_add.json").read_text())
    spec["args"][2]["shape"] = [1]
    spec["args"][3]["value"] = 50_000_000
    spec["grid"] = ["cdiv(n, 1024)", 1, 1]
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    # in a process of its own: a faulting kernel leaves its CUDA context unusable
    proc = subprocess.run([sys.executable, "-m", "ttc.tools.tt_run", str(compiled["vector_add"]["cubin"]), "--spec",
                           str(tmp_path / "spec.json")], capture_output=True, text=True)
    assert proc.returncode == 1
    assert re.match(r".*vector_add\.cubin: error: cu\w+ failed: CUDA_ERROR_\w+: ", proc.stderr), proc.stderr
