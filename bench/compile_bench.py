"""Compile time against Triton, on the CPU (no GPU needed): for every kernel in kernels/, in one run,

    triton       a fresh Python process that imports Triton 3.6 and calls triton.compile (empty cache), cuda:90
    cold         `tt-compile` in a fresh process with an empty cache
    warm         `tt-compile` again: a cache hit
    pipe         the six separate commands (tt-frontend, tt-opt -make-ttir, tt-opt -make-ttgir, tt-translate
                 --target=llvmir, tt-translate --target=ptx, tt-as), each a process, through files

each the median of `--runs` runs (after one that is not counted), with the same signature, num_warps and num_stages; then compile time against
module size (bench/module_size.py in its own process) with each stage's growth exponent.

    python bench/compile_bench.py [--runs 3] [--only matmul,softmax] [--sizes 100,300,1000,3000] [--json OUT]
                                  [--triton-python PATH]

Triton is never a dependency of ttc: the script installs `triton==3.6.0` into its own virtual environment
(`~/.cache/ttc-bench/triton-3.6.0`, or `--triton-python` names a Python that has it) and runs it there. The
targets (issue 13): cold at or below 1.0x Triton's fresh process, a hit under 0.1 s, the pipe at or below 2x.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRITON_VERSION = "3.6.0"
TRITON_ENV = Path.home() / ".cache" / "ttc-bench" / f"triton-{TRITON_VERSION}"

# Run by Triton's Python: compile one kernel of kernels/ as a user's script would, into an empty cache; prints the
# seconds of the triton.compile call. The kernel file runs as a module (Triton needs the real function); the
# signature is read as tt-frontend reads it (test/fixtures/make_fixtures.py's converter).
TRITON_DRIVER = r"""
import json, os, sys, tempfile, time
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-bench-cache-")
sys.path.insert(0, os.path.join(sys.argv[1], "test", "fixtures"))
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from make_fixtures import load_kernel_module, parse_signature
name, options = sys.argv[2], json.loads(sys.argv[3])
spec = json.load(open(os.path.join("kernels", name + ".json")))
fn = getattr(load_kernel_module(os.path.splitext(spec.get("source", name + ".py"))[0]), spec["kernel"])
signature, constexprs, attrs = parse_signature(fn.arg_names, spec["signature"])
t0 = time.perf_counter()
triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs),
               target=GPUTarget("cuda", 90, 32), options=options)
print(time.perf_counter() - t0)
"""


def triton_python(given: str | None) -> str:
    """A Python with Triton 3.6 in an environment of its own, installed on first use."""
    if given:
        return given
    python = TRITON_ENV / "bin" / "python"
    if not python.exists() or subprocess.run([str(python), "-c", "import triton"], capture_output=True).returncode:
        print(f"installing triton=={TRITON_VERSION} into {TRITON_ENV} (once)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(TRITON_ENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", f"triton=={TRITON_VERSION}"], check=True)
    return str(python)


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        sys.exit(f"compile_bench: {name} is not on PATH (pip install -e . in the active environment)")
    return path


def clean_environment() -> dict:
    """The environment without the variables that change what a compile does (dumps, overrides, timing), and
    with Python writing bytecode as it does for users (PYTHONDONTWRITEBYTECODE would recompile every module of
    ours at every start)."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("TRITON_", "MLIR_", "LLVM_IR_", "NVPTX_")) and k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode:
        raise RuntimeError(f"{' '.join(cmd[:3])} ... failed:\n{proc.stderr[-2000:]}")
    return seconds, proc.stdout


def bench_kernel(name: str, runs: int, python: str, tmp: Path) -> dict:
    spec = json.loads((ROOT / "kernels" / f"{name}.json").read_text())
    kernel, sig = spec["kernel"], spec["signature"]
    warps, stages = spec.get("num_warps", 4), spec.get("num_stages", 3)
    src = f"kernels/{spec.get('source', name + '.py')}"  # a file's second kernel: its spec names the file
    env = clean_environment()
    rows: dict[str, list[float]] = {"triton": [], "triton_call": [], "cold": [], "warm": [], "pipe": []}
    compile_cmd = [tool("tt-compile"), src, "--kernel", kernel, "--signature", sig, "--num-warps", str(warps),
                   "--num-stages", str(stages), "-o", str(tmp / f"{name}.cubin")]
    d = tmp / name
    d.mkdir(exist_ok=True)
    pipe = [
        [tool("tt-frontend"), src, "--kernel", kernel, "--signature", sig, "-o", f"{d}/a.ttir"],
        [tool("tt-opt"), f"{d}/a.ttir", "-make-ttir", "-o", f"{d}/b.ttir"],
        [tool("tt-opt"), f"{d}/b.ttir", f"-make-ttgir=target=cuda:90 num-warps={warps} num-stages={stages}",
         "-o", f"{d}/c.ttgir"],
        [tool("tt-translate"), f"{d}/c.ttgir", "--target=llvmir", "-o", f"{d}/d.llir"],
        [tool("tt-translate"), f"{d}/d.llir", "--target=ptx", "-o", f"{d}/e.ptx"],
        [tool("tt-as"), f"{d}/e.ptx", "-o", f"{d}/f.cubin"],
    ]
    options = json.dumps({"num_warps": warps, "num_stages": stages, "num_ctas": 1})
    for _ in range(runs + 1):  # the first run warms the file cache and writes bytecode: not counted
        seconds, out = timed([python, "-c", TRITON_DRIVER, str(ROOT), name, options])
        rows["triton"].append(seconds)
        rows["triton_call"].append(float(out.strip().splitlines()[-1]))
        cache = Path(tempfile.mkdtemp(prefix="tt-compile-cache-", dir=tmp))
        cache_env = {**env, "TRITON_CACHE_DIR": str(cache)}
        rows["cold"].append(timed(compile_cmd, cache_env)[0])
        rows["warm"].append(timed(compile_cmd, cache_env)[0])
        rows["pipe"].append(sum(timed(cmd, env)[0] for cmd in pipe))
    result = {"kernel": name, **{k: round(statistics.median(v[1:]), 3) for k, v in rows.items()}}
    result["cold_x"] = round(result["cold"] / result["triton"], 2)
    result["pipe_x"] = round(result["pipe"] / result["triton"], 2)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs of each measurement (the median is reported)")
    ap.add_argument("--only", help="comma-separated kernels of kernels/ (default: all)")
    ap.add_argument("--sizes", default="100,300,1000,3000",
                    help="block counts for the module-size run (bench/module_size.py); 'none' skips it")
    ap.add_argument("--json", help="write every result as JSON here")
    ap.add_argument("--triton-python", help="a Python that has triton 3.6 (default: installed on first use)")
    args = ap.parse_args()
    python = triton_python(args.triton_python)
    names = args.only.split(",") if args.only else sorted(p.stem for p in (ROOT / "kernels").glob("*.json"))
    header = f"{'kernel':16} {'triton':>7} {'(call)':>7} {'cold':>7} {'cold/tr':>8} {'warm':>7} {'pipe':>7} {'pipe/tr':>8}"
    print(f"compile time, seconds (median of {args.runs}; triton = fresh process, (call) = triton.compile alone)")
    print(header)
    results = []
    with tempfile.TemporaryDirectory(prefix="ttc-compile-bench-") as tmp:
        for name in names:
            r = bench_kernel(name, args.runs, python, Path(tmp))
            results.append(r)
            print(f"{name:16} {r['triton']:7.3f} {r['triton_call']:7.3f} {r['cold']:7.3f} {r['cold_x']:7.2f}x "
                  f"{r['warm']:7.3f} {r['pipe']:7.3f} {r['pipe_x']:7.2f}x", flush=True)
    cold_x = [r["cold_x"] for r in results]
    pipe_x = [r["pipe_x"] for r in results]
    warm = [r["warm"] for r in results]
    print(f"cold/triton: median {statistics.median(cold_x):.2f}x, max {max(cold_x):.2f}x (target <= 1.0x: "
          f"{'met' if max(cold_x) <= 1.0 else 'NOT met'}); hit: max {max(warm):.3f} s (target < 0.1 s: "
          f"{'met' if max(warm) < 0.1 else 'NOT met'}); pipe/triton: median {statistics.median(pipe_x):.2f}x, "
          f"max {max(pipe_x):.2f}x (target <= 2x: {'met' if max(pipe_x) <= 2.0 else 'NOT met'})")
    sizes = None
    if args.sizes != "none":
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            subprocess.run([sys.executable, str(ROOT / "bench" / "module_size.py"), "--blocks", args.sizes,
                            "--json", f.name], check=True, cwd=ROOT, env=clean_environment())
            sizes = json.loads(Path(f.name).read_text())
    if args.json:
        Path(args.json).write_text(json.dumps({"kernels": results, "module_size": sizes}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
