"""Benchmarks against Triton on the GPU (issue 8).

For each kernel in kernels/ at a realistic size: compile it with our six commands (each timed, wall time of the
command), check it against NumPy and time it with `tt-run --check --bench --json` (CUDA events, median of 100
launches after 10 warm-up ones), then compile and time the SAME source with the installed Triton (same grid,
num_warps, constexprs; `triton.compile` timed stage by stage), and measure device-to-device copy bandwidth with
torch. Prints one table and writes everything as JSON ($OUT/bench.json, or --json PATH).

    python3 bench/gpu_bench.py [--json PATH] [--only vector_add,softmax] [--no-gpu]

--no-gpu writes the specs and runs only our compile stages (what works on a machine without a GPU).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "bench" / "specs"

# --------------------------------------------------------------------------------------------------- the specs
N2 = 4096


def _ptr(name, dtype, shape, init="randn"):
    return {"name": name, "type": f"*{dtype}", "shape": shape, "init": init}


def _i32(name, value):
    return {"name": name, "type": "i32", "value": value}


def _hint(value: int) -> str:
    """The specialisation Triton's JIT gives an i32 argument: ':16' when divisible by 16, ':1' when 1."""
    return ":1" if value == 1 else (":16" if value % 16 == 0 else "")


def _sig(args, constexprs):
    parts = []
    for a in args:
        if a["type"].startswith("*"):
            parts.append(a["type"] + ":16")
        elif a["type"] == "i32":
            parts.append("i32" + _hint(a["value"]))
        else:
            parts.append(a["type"])
    return ",".join(parts + [str(c) for c in constexprs.values()])


def bench_kernels() -> dict:
    """name -> {module, kernel, constexprs, spec}: bench-size launch specs, signatures as Triton's JIT specialises."""
    k = {}
    n = 1 << 26
    args = [_ptr("x", "fp32", [n]), _ptr("y", "fp32", [n]), _ptr("out", "fp32", [n], "zeros"), _i32("n", n)]
    k["vector_add"] = dict(kernel="add_kernel", constexprs={"BLOCK_SIZE": 1024}, num_warps=4,
                           grid=[n // 1024, 1, 1], args=args, check={"out": "x + y"},
                           bytes=3 * 4 * n)
    M = N = N2
    args = [_ptr("out", "fp32", [M, N], "zeros"), _ptr("x", "fp32", [M, N]), _i32("in_stride", N),
            _i32("out_stride", N), _i32("n_cols", N)]
    k["softmax"] = dict(kernel="softmax_kernel", constexprs={"BLOCK_SIZE": 4096}, num_warps=8, grid=[M, 1, 1],
                        args=args, bytes=2 * 4 * M * N,
                        check={"out": "np.exp(x - x.max(axis=1, keepdims=True)) / "
                                      "np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)",
                               "tolerance": {"rtol": 1e-05, "atol": 1e-06}})
    args = [_ptr("x", "fp32", [M, N]), _ptr("y", "fp32", [M, N], "zeros"), _ptr("w", "fp32", [N], "rand"),
            _ptr("b", "fp32", [N]), _ptr("mean", "fp32", [M], "zeros"), _ptr("rstd", "fp32", [M], "zeros"),
            _i32("stride", N), _i32("N", N), {"name": "eps", "type": "fp32", "value": 1e-05}]
    k["layer_norm"] = dict(kernel="_layer_norm_fwd_fused", constexprs={"BLOCK_SIZE": 4096}, num_warps=8,
                           grid=[M, 1, 1], args=args, bytes=2 * 4 * M * N + 2 * 4 * N + 2 * 4 * M,
                           check={"mean": "x.mean(axis=1)", "rstd": "1.0 / np.sqrt(x.var(axis=1) + eps)",
                                  "y": "(x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True)"
                                       " + eps) * w + b", "tolerance": {"rtol": 0.0001, "atol": 0.0001}})
    args = [_ptr("x", "fp32", [M, N]), _ptr("out", "fp32", [M, N], "zeros"), _i32("n_cols", N),
            _i32("stride_x", N), _i32("stride_out", N)]
    # fp32 prefix sums over 4096 randn values: the error grows with the running sum's size (~sqrt(4096)=64)
    k["cumsum"] = dict(kernel="cumsum_kernel", constexprs={"BLOCK_SIZE": 4096}, num_warps=8, grid=[M, 1, 1],
                       args=args, bytes=2 * 4 * M * N,
                       check={"out": "np.cumsum(x.astype(np.float64), axis=1)",
                              "tolerance": {"rtol": 0.0001, "atol": 0.001}})
    args = [_ptr("x", "fp32", [M, N]), _ptr("y", "fp32", [N, M], "zeros"), _i32("M", M), _i32("N", N),
            _i32("stride_xm", N), _i32("stride_xn", 1), _i32("stride_ym", M), _i32("stride_yn", 1)]
    k["transpose"] = dict(kernel="transpose_kernel", constexprs={"BLOCK_M": 64, "BLOCK_N": 64}, num_warps=4,
                          grid=[M // 64, N // 64, 1], args=args, check={"y": "x.T"}, bytes=2 * 4 * M * N)
    K = N2
    args = [_ptr("a", "fp16", [M, K]), _ptr("b", "fp16", [K, N]), _ptr("c", "fp16", [M, N], "zeros"),
            _i32("M", M), _i32("N", N), _i32("K", K), _i32("stride_am", K), _i32("stride_ak", 1),
            _i32("stride_bk", N), _i32("stride_bn", 1), _i32("stride_cm", N), _i32("stride_cn", 1)]
    k["matmul"] = dict(kernel="matmul_kernel",
                       constexprs={"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8},
                       num_warps=4, grid=[(M // 64) * (N // 64), 1, 1], args=args, flops=2 * M * N * K,
                       bytes=2 * (M * K + K * N + M * N),
                       check={"c": "a.astype(np.float32) @ b.astype(np.float32)",
                              "tolerance": {"rtol": 0.01, "atol": 0.05}})
    for name, d in k.items():
        d["spec"] = {"kernel": d["kernel"], "signature": _sig(d["args"], d["constexprs"]),
                     "num_warps": d["num_warps"], "grid": d["grid"], "args": d["args"], "check": d["check"],
                     "seed": 0}
    return k


def write_specs(kernels: dict) -> None:
    SPECS.mkdir(parents=True, exist_ok=True)
    for name, d in kernels.items():
        (SPECS / f"{name}.json").write_text(json.dumps(d["spec"], indent=2) + "\n")


# ------------------------------------------------------------------------------------------ our compile, staged
def compile_ours(name: str, d: dict, work: Path) -> dict:
    """Run the six commands one at a time (file to file) and time each one; returns {stage: s, 'cubin': path}."""
    spec = d["spec"]
    src = ROOT / "kernels" / f"{name}.py"
    f = {s: work / f"{name}.{s}" for s in ("ttir0", "ttir", "ttgir", "ll", "ptx")}
    cubin = work / f"{name}.cubin"
    stages = [
        ("frontend", ["tt-frontend", str(src), "--kernel", spec["kernel"], "--signature", spec["signature"]],
         None, f["ttir0"]),
        ("make-ttir", ["tt-opt", "-make-ttir"], f["ttir0"], f["ttir"]),
        ("make-ttgir", ["tt-opt", f"-make-ttgir=target=cuda:90 num-warps={spec['num_warps']}"], f["ttir"], f["ttgir"]),
        ("llvmir", ["tt-translate", "--target=llvmir"], f["ttgir"], f["ll"]),
        ("ptx", ["tt-translate", "--target=ptx"], f["ll"], f["ptx"]),
        ("cubin", ["tt-as", "-", "-o", str(cubin)], f["ptx"], None),
    ]
    times = {}
    for stage, cmd, inp, out in stages:
        fin = open(inp, "rb") if inp else subprocess.DEVNULL
        fout = open(out, "wb") if out else subprocess.PIPE
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdin=fin, stdout=fout, stderr=subprocess.PIPE)
        times[stage] = time.perf_counter() - t0
        if inp:
            fin.close()
        if out:
            fout.close()
        if proc.returncode != 0:
            raise RuntimeError(f"{stage} failed ({proc.returncode}): {proc.stderr.decode()[-3000:]}")
    times["total"] = sum(times.values())
    return {"stages_s": times, "cubin": str(cubin), "ptx": str(f["ptx"])}


def run_checked(cmd: list[str]) -> None:
    """Run one of our commands; raise with its stderr if it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr[-3000:]}")


def run_ours(cubin: str, spec_path: Path, check: bool = True, against: str | None = None) -> dict:
    proc = subprocess.run(["tt-run", cubin, "--spec", str(spec_path)] + ["--check"] * check + ["--bench", "--json"]
                          + ["--against", against] * bool(against), capture_output=True, text=True)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"ok": False, "error": (proc.stdout + proc.stderr)[-3000:], "rc": proc.returncode}
    report["rc"] = proc.returncode
    if proc.returncode != 0:
        report["stderr"] = proc.stderr[-3000:]
    return report


# ------------------------------------------------------------------------------------------------------ Triton
def _load_module(name: str):
    spec = importlib.util.spec_from_file_location(f"kernels_{name}", ROOT / "kernels" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _torch_args(d: dict):
    import torch

    g = torch.Generator(device="cuda").manual_seed(0)
    out = []
    for a in d["args"]:
        if a["type"].startswith("*"):
            dt = {"*fp32": torch.float32, "*fp16": torch.float16, "*bf16": torch.bfloat16, "*i8": torch.int8}[a["type"]]
            shape = a["shape"]
            if isinstance(a["init"], dict) and "randint" in a["init"]:
                lo, hi = a["init"]["randint"]
                out.append(torch.randint(lo, hi, shape, device="cuda", dtype=dt, generator=g))
            elif a["init"] == "randn":
                out.append(torch.randn(shape, device="cuda", dtype=torch.float32, generator=g).to(dt))
            elif a["init"] == "rand":
                out.append(torch.rand(shape, device="cuda", dtype=torch.float32, generator=g).to(dt))
            else:
                out.append(torch.zeros(shape, device="cuda", dtype=dt))
        else:
            out.append(a["value"])
    return out


def cuda_event_time(fn, warmup=10, rep=100) -> dict:
    """tt-run's method (an event pair around each launch, median), with the stream held by a sleep kernel while
    the launches are queued so that Python's launch overhead cannot open gaps between them."""
    import torch

    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(rep)]
    torch.cuda._sleep(int(2e8))  # ~0.1 s at ~2 GHz: longer than queueing 100 launches
    for b, e in ev:
        b.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    t = [b.elapsed_time(e) for b, e in ev]
    return {"median_ms": statistics.median(t), "min_ms": min(t)}


class StageTimer:
    def __init__(self):
        self.times = {}

    def hook(self, backend, stages, options, language, capability):
        for key, fn in list(stages.items()):
            def wrapped(src, metadata, _fn=fn, _key=key):
                t0 = time.perf_counter()
                r = _fn(src, metadata)
                self.times[_key] = time.perf_counter() - t0
                return r
            stages[key] = wrapped


def triton_bench(name: str, d: dict) -> dict:
    import torch
    import triton
    import triton.compiler as tc
    from triton import knobs

    mod = _load_module(name)
    fn = getattr(mod, d["kernel"])
    args = _torch_args(d)
    grid = tuple(d["grid"])
    captured = {}
    orig = tc.compile

    def capture(*a, **kw):
        captured.setdefault("call", (a, kw))
        return orig(*a, **kw)

    tc.compile = capture
    try:
        ck = fn[grid](*args, **d["constexprs"], num_warps=d["num_warps"], num_stages=3)
    finally:
        tc.compile = orig
    torch.cuda.synchronize()
    res = {}
    # correctness of Triton's result on the same inputs, in torch (quick sanity, not the NumPy check)
    res["ptx"] = ck.asm.get("ptx", "") if hasattr(ck, "asm") else ""
    res["n_regs"] = getattr(ck, "n_regs", None)
    res["n_spills"] = getattr(ck, "n_spills", None)

    def launch():
        fn[grid](*args, **d["constexprs"], num_warps=d["num_warps"], num_stages=3)

    res["events"] = cuda_event_time(launch)
    try:
        res["do_bench_ms"] = triton.testing.do_bench(launch, warmup=25, rep=100, return_mode="median")
    except Exception as e:  # noqa: BLE001
        res["do_bench_error"] = str(e)
    # compile time: the same ASTSource recompiled (cache bypassed), stage by stage, median of 3
    if "call" in captured:
        a, kw = captured["call"]
        timer = StageTimer()
        runs = []
        old_hook, old_always = knobs.runtime.add_stages_inspection_hook, knobs.compilation.always_compile
        knobs.runtime.add_stages_inspection_hook = timer.hook
        knobs.compilation.always_compile = True
        try:
            for _ in range(3):
                timer.times = {}
                t0 = time.perf_counter()
                orig(*a, **kw)
                total = time.perf_counter() - t0
                st = dict(timer.times)
                st["frontend+other"] = total - sum(st.values())
                st["total"] = total
                runs.append(st)
        finally:
            knobs.runtime.add_stages_inspection_hook = old_hook
            knobs.compilation.always_compile = old_always
        res["compile_s"] = {k: statistics.median(r.get(k, 0.0) for r in runs) for k in runs[0]}
    return res


def copy_bandwidth() -> dict:
    import torch

    n = 1 << 28  # 1 GiB of fp32
    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    t = cuda_event_time(lambda: y.copy_(x), warmup=5, rep=50)
    t["bytes"] = 2 * 4 * n
    t["gbps"] = t["bytes"] / (t["median_ms"] * 1e-3) / 1e9
    return t


# -------------------------------------------------------------------------------------------------------- main
def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", default=None, help="where to write the results (default $OUT/bench.json)")
    p.add_argument("--only", default=None, help="comma-separated kernel names")
    p.add_argument("--no-gpu", action="store_true", help="specs and our compile stages only")
    opts = p.parse_args(argv)
    out_path = opts.json or (os.path.join(os.environ["OUT"], "bench.json") if os.environ.get("OUT") else None)

    kernels = bench_kernels()
    write_specs(kernels)
    if opts.only:
        kernels = {k: v for k, v in kernels.items() if k in opts.only.split(",")}
    results = {"kernels": {}, "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    if not opts.no_gpu:
        import torch
        import triton

        results["device"] = torch.cuda.get_device_name(0)
        results["triton"] = triton.__version__
        results["torch"] = torch.__version__
        results["copy"] = copy_bandwidth()
        print(f"copy bandwidth: {results['copy']['gbps']:.0f} GB/s ({results['copy']['median_ms']:.3f} ms for 2 GiB)",
              flush=True)

    work = Path(tempfile.mkdtemp(prefix="gpu_bench_"))
    for name, d in kernels.items():
        r = {"spec": str(SPECS / f"{name}.json"), "grid": d["grid"], "num_warps": d["num_warps"],
             "constexprs": d["constexprs"], "signature": d["spec"]["signature"]}
        results["kernels"][name] = r
        t0 = time.perf_counter()
        try:
            r["ours_compile"] = compile_ours(name, d, work)
        except Exception as e:  # noqa: BLE001
            r["ours_compile_error"] = str(e)
            print(f"{name}: our compile FAILED: {e}", flush=True)
            continue
        print(f"{name}: compiled in {r['ours_compile']['stages_s']['total']:.2f} s "
              + " ".join(f"{k}={v:.2f}" for k, v in r["ours_compile"]["stages_s"].items()), flush=True)
        r["ours_ptx"] = Path(r["ours_compile"]["ptx"]).read_text()
        if opts.no_gpu:
            continue
        run = run_ours(r["ours_compile"]["cubin"], SPECS / f"{name}.json")
        r["ours_run"] = run
        ok = run.get("ok")
        b = run.get("bench") or {}
        print(f"{name}: ours check {'ok' if ok else 'FAILED'} median {b.get('median_ms', float('nan')):.4f} ms "
              f"({time.perf_counter() - t0:.1f} s)", flush=True)
        if not ok:
            print(json.dumps({k: v for k, v in run.items() if k != "outputs"}, indent=1)[-3000:], flush=True)
        try:
            r["triton"] = triton_bench(name, d)
            print(f"{name}: triton events {r['triton']['events']['median_ms']:.4f} ms, do_bench "
                  f"{r['triton'].get('do_bench_ms', float('nan')):.4f} ms, compile "
                  f"{r['triton'].get('compile_s', {}).get('total', float('nan')):.2f} s", flush=True)
        except Exception as e:  # noqa: BLE001
            import traceback

            r["triton_error"] = traceback.format_exc()[-3000:]
            print(f"{name}: Triton FAILED: {e}", flush=True)
        if out_path:  # write as we go, so a timeout still leaves the finished kernels
            _write(out_path, results)

    print_tables(results, kernels)
    if out_path:
        _write(out_path, results)
        print(f"wrote {out_path}")
    return 0


def _write(path, results):
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(results, indent=1, default=str) + "\n")


def print_tables(results: dict, kernels: dict) -> None:
    copy = results.get("copy", {}).get("gbps")
    rows = []
    print("\n| kernel | size | ours ms | Triton ms (events) | Triton ms (do_bench) | ours/Triton throughput |"
          " ours GB/s or TFLOP/s | Triton GB/s or TFLOP/s | ours % of copy BW | check |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, r in results["kernels"].items():
        d = kernels[name]
        size = "x".join(str(s) for s in d["args"][0]["shape"]) if name != "matmul" else "4096^3 fp16"
        ob = (r.get("ours_run") or {}).get("bench") or {}
        tr = r.get("triton") or {}
        om = ob.get("median_ms")
        tm = (tr.get("events") or {}).get("median_ms")
        tdb = tr.get("do_bench_ms")

        def thr(ms):
            if ms is None:
                return None
            return d["flops"] / (ms * 1e-3) / 1e12 if "flops" in d else d["bytes"] / (ms * 1e-3) / 1e9

        unit = " TFLOP/s" if "flops" in d else " GB/s"
        f = (lambda v, fmt: "n/a" if v is None else format(v, fmt))
        ratio = tm / om if om and tm else None
        pct = (d["bytes"] / (om * 1e-3) / 1e9 / copy * 100) if om and copy else None
        chk = (r.get("ours_run") or {}).get("ok")
        row = {"kernel": name, "ours_ms": om, "triton_ms": tm, "triton_do_bench_ms": tdb, "ratio": ratio,
               "ours_thr": thr(om), "triton_thr": thr(tm), "unit": unit.strip(), "pct_copy": pct, "check": chk}
        rows.append(row)
        print(f"| {name} | {size} | {f(om, '.4f')} | {f(tm, '.4f')} | {f(tdb, '.4f')} | {f(ratio, '.3f')}x | "
              f"{f(thr(om), '.1f')}{unit} | {f(thr(tm), '.1f')}{unit} | {f(pct, '.1f')}% | "
              f"{'ok' if chk else ('n/a' if chk is None else 'FAIL')} |")
    results["table"] = rows
    if copy:
        print(f"\ncopy bandwidth (torch y.copy_(x), 1 GiB, read+written): {copy:.0f} GB/s")
    stages = ["frontend", "make-ttir", "make-ttgir", "llvmir", "ptx", "cubin", "total"]
    tstages = ["frontend+other", "ttir", "ttgir", "llir", "ptx", "cubin", "total"]
    print("\ncompile time, s (ours: wall time of each command incl. Python start-up; Triton: triton.compile in "
          "process, cache bypassed, median of 3)")
    print("| kernel | " + " | ".join(f"ours {s}" for s in stages) + " | " + " | ".join(f"Triton {s}" for s in tstages)
          + " |")
    print("|---|" + "---|" * (len(stages) + len(tstages)))
    for name, r in results["kernels"].items():
        os_ = (r.get("ours_compile") or {}).get("stages_s", {})
        ts = (r.get("triton") or {}).get("compile_s", {})
        print(f"| {name} | " + " | ".join(f"{os_[s]:.2f}" if s in os_ else "n/a" for s in stages) + " | "
              + " | ".join(f"{ts[s]:.3f}" if s in ts else "n/a" for s in tstages) + " |")


if __name__ == "__main__":
    sys.exit(main())
