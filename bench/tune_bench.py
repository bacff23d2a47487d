"""tt-tune against Triton's autotuner and cuBLAS on the GPU (issue 22, acceptance 2).

For the autotuned matmuls of kernels/tuned (the tutorial-style grouped matmul, and the persistent TMA matmul) at
fp16 SIZE^3 (default 4096):
1. tt-tune from an empty cache (compile + time, wall time of the command), with every visible GPU, and again with
   the kernel cache warm and the autotune cache removed (the timing phase alone), once with 1 GPU and, when there
   are several, with all of them;
2. Triton's autotuner on the same source and config list (the first call of `kernel[grid](...)` from an empty
   Triton cache: its compiles and timings, one after another in one process);
3. the winners timed the same way (triton.testing.do_bench: L2 flushed, median of 100 ms of launches):
   tt-tune's CUBIN launched through the CUDA driver, Triton's winner through Triton, and torch.matmul (cuBLAS).
Prints a table and writes everything as JSON ($OUT/tune_bench.json, or --json PATH). Needs torch and Triton (the
device image has both) and ttc installed (`pip install -e .`; carry its wheels as bench/gpu_bench.py's notes say).

    python3 bench/tune_bench.py [--size 4096] [--only matmul,persistent_matmul] [--jobs N] [--json PATH]
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TUNED = ROOT / "kernels" / "tuned"


def matmul_spec(size: int) -> dict:
    s = size
    return {"kernel": "matmul_kernel", "signature": "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,"
            "i32:16,i32:1,i32:16,i32:1", "grid": ["cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)"],
            "flops": "2 * M * N * K",
            "args": [{"name": "a", "type": "*fp16", "shape": [s, s], "init": "randn"},
                     {"name": "b", "type": "*fp16", "shape": [s, s], "init": "randn"},
                     {"name": "c", "type": "*fp16", "shape": [s, s]},
                     *[{"name": n, "type": "i32", "value": v} for n, v in
                       (("M", s), ("N", s), ("K", s), ("stride_am", s), ("stride_ak", 1), ("stride_bk", s),
                        ("stride_bn", 1), ("stride_cm", s), ("stride_cn", 1))]],
            "check": {"c": "a.astype(np.float32) @ b.astype(np.float32)", "tolerance": {"rtol": 0.02, "atol": 0.5}}}


def persistent_spec(size: int, sms: int) -> dict:
    s = size
    return {"kernel": "matmul_descriptor_persistent", "signature": f"*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,{sms}",
            "grid": ["min(NUM_SMS, cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N))"], "flops": "2 * M * N * K",
            "args": [{"name": "a", "type": "*fp16", "shape": [s, s], "init": "randn"},
                     {"name": "b", "type": "*fp16", "shape": [s, s], "init": "randn"},
                     {"name": "c", "type": "*fp16", "shape": [s, s]},
                     *[{"name": n, "type": "i32", "value": s} for n in ("M", "N", "K")]],
            "check": {"c": "a.astype(np.float32) @ b.astype(np.float32).T", "tolerance": {"rtol": 0.02, "atol": 0.5}}}


def tt_tune(name: str, spec: Path, cache: Path, jobs: int, gpus: str | None, out: Path | None) -> dict:
    env = {**os.environ, "TRITON_CACHE_DIR": str(cache)}
    if gpus is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpus
    kernel = json.loads(spec.read_text())["kernel"]
    cmd = ["tt-tune", str(TUNED / f"{name}.py"), "-k", kernel, "--spec", str(spec), "--json", "-j", str(jobs)]
    if out is not None:
        cmd += ["-o", str(out)]
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"tt-tune failed:\n{proc.stderr[-3000:]}")
    report = json.loads(proc.stdout)
    return {"wall_s": wall, "best": report["best"], "compiled": report["compiled"],
            "ok": sum(c["status"] == "ok" for c in report["configs"]), "n": len(report["configs"]),
            "failed": [c["status"] for c in report["configs"] if c["status"] != "ok"]}


def drop_autotune_cache(cache: Path) -> None:
    for f in glob.glob(str(cache / "*" / "*.autotune.json")):
        os.unlink(f)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--only", default="matmul,persistent_matmul")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--json", default=os.path.join(os.environ.get("OUT", "."), "tune_bench.json"))
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tune_bench."))
    os.environ["TRITON_CACHE_DIR"] = str(work / "triton-cache")  # Triton's, before it is imported

    import torch

    gpus = torch.cuda.device_count()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    results = {"size": args.size, "gpus": gpus, "device": torch.cuda.get_device_name(0), "kernels": {}}
    specs = {"matmul": matmul_spec(args.size), "persistent_matmul": persistent_spec(args.size, sms)}
    for name in args.only.split(","):
        spec = work / f"{name}.json"
        spec.write_text(json.dumps(specs[name]))
        cache = work / f"ttc-cache-{name}"
        r = {"tt_tune": tt_tune(name, spec, cache, args.jobs, None, work / f"{name}.cubin")}
        drop_autotune_cache(cache)
        r["timing_1gpu"] = tt_tune(name, spec, cache, args.jobs, "0", None)
        if gpus > 1:
            drop_autotune_cache(cache)
            r["timing_all_gpus"] = tt_tune(name, spec, cache, args.jobs, None, None)
        results["kernels"][name] = r
        print(f"{name}: tt-tune {r['tt_tune']['wall_s']:.1f} s for {r['tt_tune']['n']} configs "
              f"({r['tt_tune']['ok']} ok); timing alone {r['timing_1gpu']['wall_s']:.1f} s on 1 GPU"
              + (f", {r['timing_all_gpus']['wall_s']:.1f} s on {gpus}" if gpus > 1 else ""), flush=True)

    import triton
    import triton.testing

    from ttc.runtime import spec as ttc_specs
    from ttc.runtime.cuda import loaded

    s = args.size
    a = torch.randn((s, s), device="cuda", dtype=torch.float16)
    b = torch.randn((s, s), device="cuda", dtype=torch.float16)
    flops = 2 * s ** 3
    tf = lambda ms: flops / (ms * 1e-3) / 1e12  # noqa: E731
    cublas = triton.testing.do_bench(lambda: torch.matmul(a, b))
    results["cublas_ms"] = cublas
    print(f"cuBLAS (torch.matmul): {cublas:.4f} ms = {tf(cublas):.0f} TFLOP/s")
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    for name, r in results["kernels"].items():
        mod_spec = importlib.util.spec_from_file_location(f"tuned_{name}", TUNED / f"{name}.py")
        mod = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(mod)
        c = torch.empty((s, s), device="cuda", dtype=torch.float16)
        if name == "matmul":
            kernel = mod.matmul_kernel
            grid = lambda META: (triton.cdiv(s, META["BLOCK_SIZE_M"]) * triton.cdiv(s, META["BLOCK_SIZE_N"]),)  # noqa: E731
            call = lambda: kernel[grid](a, b, c, s, s, s, a.stride(0), a.stride(1), b.stride(0), b.stride(1),  # noqa: E731
                                        c.stride(0), c.stride(1))
        else:
            kernel = mod.matmul_descriptor_persistent
            bt = b.T.contiguous()
            grid = lambda META: (min(sms, triton.cdiv(s, META["BLOCK_M"]) * triton.cdiv(s, META["BLOCK_N"])),)  # noqa: E731
            call = lambda: kernel[grid](a, bt, c, s, s, s, NUM_SMS=sms)  # noqa: E731
        t = time.perf_counter()
        call()
        torch.cuda.synchronize()
        r["triton_autotune_wall_s"] = time.perf_counter() - t
        r["triton_best"] = str(kernel.best_config)
        r["triton_ms"] = triton.testing.do_bench(call)
        spec_obj = ttc_specs.load(work / f"{name}.json")
        initial = ttc_specs.initial_values(spec_obj)
        best = r["tt_tune"]["best"]
        with loaded(str(work / f"{name}.cubin"), spec_obj, {**initial, **best["kwargs"], "NUM_SMS": sms}) as k:
            r["tt_tune_ms"] = triton.testing.do_bench(k.run_once)
        print(f"{name}: Triton's autotuner {r['triton_autotune_wall_s']:.1f} s, best {r['triton_best']}: "
              f"{r['triton_ms']:.4f} ms = {tf(r['triton_ms']):.0f} TFLOP/s; tt-tune's best "
              f"{best['kwargs']} w{best['num_warps']} s{best['num_stages']}: {r['tt_tune_ms']:.4f} ms = "
              f"{tf(r['tt_tune_ms']):.0f} TFLOP/s ({r['triton_ms'] / r['tt_tune_ms']:.2f}x Triton's, "
              f"{cublas / r['tt_tune_ms']:.2f}x cuBLAS); tt-tune wall / Triton's "
              f"{r['tt_tune']['wall_s'] / r['triton_autotune_wall_s']:.2f}"
              + (f"; timing phase {gpus} GPUs / 1: {r['timing_all_gpus']['wall_s'] / r['timing_1gpu']['wall_s']:.2f}"
                 if gpus > 1 else ""), flush=True)
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
