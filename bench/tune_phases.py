"""Where tt-tune's time goes now that its phases overlap (issue 22: the whole run against Triton's autotuner).

Runs `tt-tune KERNEL --kernel K --spec SPEC --json` five times on the visible GPUs (set CUDA_VISIBLE_DEVICES=0
for one): twice as the command (a subprocess: its wall time, from an empty kernel cache, then with the kernel
cache warm and the autotune cache removed), once more as `python -c` calling tt-tune's entry from an empty cache
with its interpreter start (to the first statement), imports, `main` and exit (after main returned) timed on
CLOCK_MONOTONIC, then twice in this process with every phase time-stamped on one
clock (the parent's, the compile processes' and the GPU worker's: CLOCK_MONOTONIC is one clock for all
processes), again from an empty cache and then warm. For the in-process runs it prints, from the start of
`tt_tune.main`: the parent's prepare done; the GPU worker's start (spawned, imports and CUDA set-up done), the
spec's values drawn and the checks' references made (in its checking thread); the first and last compile done;
the first config's timing started, the last finished, the last check finished (the checks run in the worker's
checking thread beside the timings) and collected; then per config (its timing, `do_bench`, its check, the GPU's
wait since the previous config) and the total. Defaults: kernels/tuned/matmul.py at
fp16 4096^3 with bench/tune_bench.py's spec.

    python3 bench/tune_phases.py [KERNEL.py --kernel NAME --spec SPEC.json] [--size 4096] [--jobs N] [--json PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
now = time.monotonic  # CLOCK_MONOTONIC: one clock for the parent, the compile processes and the GPU worker

# ----------------------------------------------------------------------------- in the workers (by reference)

_marks: dict = {}  # per GPU worker: phase -> [start, end] or list of durations
REAL: dict = {}  # tune's functions that in_process replaces (in a spawned worker: none, tune's own)


def _real(name: str):
    from ttc.runtime import tune

    return REAL.get(name) or getattr(tune, name)


def timed_gpu_init(device: int, spec_path: str) -> None:
    """tune.gpu_init with its start and end, and the worker's draw, references, checks and do_bench timed."""
    from ttc.runtime import tune

    _marks["init"] = [now(), None]

    def wrap(name, fn, many=False):
        def wrapper(*a, **kw):
            start = now()
            try:
                return fn(*a, **kw)
            finally:
                if many:
                    _marks.setdefault(name, []).append(now() - start)
                else:
                    _marks[name] = [start, now()]
        return wrapper

    tune._load = wrap("draw", tune._load)
    tune.do_bench = wrap("do_bench", tune.do_bench, many=True)
    real_check = tune._check

    def check(*a):
        start = now()
        try:
            return real_check(*a)
        finally:
            _marks.setdefault("checks", []).append([start, now()])

    tune._check = check
    real_reference = tune._reference

    def reference(*a):
        n = len(tune._references)
        start = now()
        r = real_reference(*a)
        if len(tune._references) > n:
            _marks.setdefault("references", [start, None])[1] = now()
        return r

    tune._reference = reference
    _real("gpu_init")(device, spec_path)
    _marks["init"][1] = now()


def timed_gpu_one(task: dict) -> dict:
    start = now()
    out = _real("gpu_one")(task)
    out["bench"] = {"run": [start, now()], **{k: (list(v) if isinstance(v, list) else v) for k, v in _marks.items()
                                              if k != "checks"}}
    _marks.pop("do_bench", None)
    return out


def timed_gpu_checks() -> dict:
    """tune.gpu_checks, with every check's [start, end] under "bench" (tune.run reads only the configs' ids)."""
    out = _real("gpu_checks")()
    out["bench"] = {"checks": _marks.pop("checks", []), "returned": now()}
    return out


def timed_compile(*args) -> dict:
    out = _real("compile_one")(*args)
    out["done"] = now()
    return out


# ----------------------------------------------------------------------------- the parent


SPLIT = """import sys, time
t0 = time.monotonic()
from ttc.driver.cli import run
from ttc.tools import tt_tune
t1 = time.monotonic()
rc = run("tt-tune", tt_tune.main, sys.argv[1:])
sys.stderr.write(f"\\nPHASES {t0} {t1} {time.monotonic()}\\n")
sys.exit(rc)
"""


def command(args, spec: Path, cache: Path, split: bool = False):
    """The command's wall time; `split`: (wall, to the first statement, imports, main, exit) through SPLIT."""
    env = {**os.environ, "TRITON_CACHE_DIR": str(cache)}
    argv = [args.file, "-k", args.kernel, "--spec", str(spec), "--json"] + (["-j", str(args.jobs)] if args.jobs else [])
    # -P: not the working directory first on sys.path (run from a checkout, its ttc/ would shadow the installed one)
    cmd = [sys.executable, "-P", "-c", SPLIT, *argv] if split else ["tt-tune", *argv]
    start = now()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    end = now()
    if proc.returncode != 0:
        raise SystemExit(f"tt-tune failed:\n{proc.stderr[-3000:]}")
    if not split:
        return end - start
    t0, t1, t2 = (float(t) for t in proc.stderr.rsplit("PHASES ", 1)[1].split())
    return {"wall_s": round(end - start, 3), "python_start_s": round(t0 - start, 3), "imports_s": round(t1 - t0, 3),
            "main_s": round(t2 - t1, 3), "exit_s": round(end - t2, 3)}


def in_process(args, spec: Path, cache: Path) -> dict:
    """tt_tune.main in this process, its workers' functions replaced by the timed ones above."""
    from ttc.driver import autotune
    from ttc.runtime import tune
    from ttc.tools import tt_tune

    os.environ["TRITON_CACHE_DIR"] = str(cache)
    marks: dict = {}
    saved = (tune.gpu_init, tune.gpu_one, tune.gpu_checks, tune.compile_one, tune.run, autotune.prepare)
    real_run, real_prepare = tune.run, autotune.prepare

    def run(jobs, **kw):
        marks["jobs"] = jobs
        marks["results"] = real_run(jobs, **kw)
        marks["run done"] = now()
        return marks["results"]

    def prepare(*a, **kw):
        p = real_prepare(*a, **kw)
        marks["prepare"] = now()
        return p

    # the pools pickle functions by name: __main__'s, which the spawned worker imports as __mp_main__
    main = sys.modules["__main__"]
    REAL.update(gpu_init=tune.gpu_init, gpu_one=tune.gpu_one, gpu_checks=tune.gpu_checks, compile_one=tune.compile_one)
    tune.gpu_init, tune.gpu_one, tune.compile_one = main.timed_gpu_init, main.timed_gpu_one, main.timed_compile
    tune.gpu_checks = main.timed_gpu_checks
    real_checks = tune.GpuWorkers.checks

    def checks(self):
        out = real_checks(self)
        marks["checks collected"] = now()
        marks["checks"] = out.pop("bench", {}).get("checks", [])
        return out

    tune.GpuWorkers.checks, tune.run, autotune.prepare = checks, run, prepare
    argv = [args.file, "-k", args.kernel, "--spec", str(spec), "--json"] + (["-j", str(args.jobs)] if args.jobs else [])
    try:
        out = io.StringIO()
        start = now()
        with contextlib.redirect_stdout(out):
            rc = tt_tune.main(argv)
        end = now()
    finally:
        tune.gpu_init, tune.gpu_one, tune.gpu_checks, tune.compile_one, tune.run, autotune.prepare = saved
        tune.GpuWorkers.checks = real_checks
        REAL.clear()
    if rc != 0:
        raise SystemExit(f"tt-tune (in process) returned {rc}")
    results = marks["results"]
    at = lambda t: None if t is None else round(t - start, 3)  # noqa: E731
    compiled = sorted(r["compile"]["done"] for r in results if "done" in r.get("compile", {}))
    timed = sorted((r for r in results if "bench" in r), key=lambda r: r["bench"]["run"][0])
    worker = timed[-1]["bench"] if timed else {}
    checks = sorted(marks.get("checks", []))  # one per timed config, in timing order (one checking thread)
    per = []
    for k, (prev, r) in enumerate(zip([None] + timed, timed)):
        b = r["bench"]
        c = checks[k] if k < len(checks) else None
        per.append({"config": r.get("compile", {}).get("cache_dir", "?").rsplit("/", 1)[-1], "status": r["status"][:40],
                    "s": round(b["run"][1] - b["run"][0], 4), "do_bench": round(sum(b.get("do_bench", [])), 4),
                    "check": round(c[1] - c[0], 4) if c else 0.0, "check_end": at(c[1]) if c else None,
                    "gpu_wait": round(b["run"][0] - prev["bench"]["run"][1], 4) if prev else None})
    first = timed[0]["bench"]["run"][0] if timed else None
    last = timed[-1]["bench"]["run"][1] if timed else None
    return {
        "total_s": round(end - start, 3), "prepare_done": at(marks.get("prepare")),
        "worker_started": at(worker.get("init", [None])[0]), "worker_ready": at(worker.get("init", [None, None])[1]),
        "values_drawn": at(worker.get("draw", [None, None])[1]),
        "references_made": at(worker.get("references", [None, None])[1]),
        "first_compile_done": at(compiled[0]) if compiled else None, "last_compile_done": at(compiled[-1]) if compiled else None,
        "first_timing_start": at(first), "last_timing_end": at(last),
        "last_check_end": at(checks[-1][1]) if checks else None, "checks_collected": at(marks.get("checks collected")),
        "run_done": at(marks.get("run done")),
        "per_config_s": round((last - first) / len(timed), 4) if timed else None,
        "per_config_median_s": statistics.median(p["s"] for p in per) if per else None,
        "do_bench_median_s": statistics.median(p["do_bench"] for p in per) if per else None,
        "check_median_s": statistics.median(p["check"] for p in per) if per else None,
        "configs": per}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "kernels" / "tuned" / "matmul.py"))
    ap.add_argument("--kernel", default="matmul_kernel")
    ap.add_argument("--spec", help="tt-tune's spec (default: bench/tune_bench.py's matmul spec at --size)")
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--json", default=os.path.join(os.environ.get("OUT", "."), "tune_phases.json"))
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tune_phases."))
    spec = Path(args.spec) if args.spec else work / "matmul.json"
    if not args.spec:
        sys.path.insert(0, str(ROOT / "bench"))
        from tune_bench import matmul_spec

        spec.write_text(json.dumps(matmul_spec(args.size)))

    def drop_autotune_cache(cache: Path) -> None:
        for f in glob.glob(str(cache / "*" / "*.autotune.json")):
            os.unlink(f)

    report = {"command_empty_s": command(args, spec, work / "cache-command")}
    drop_autotune_cache(work / "cache-command")
    report["command_warm_s"] = command(args, spec, work / "cache-command")
    print(f"tt-tune (the command): {report['command_empty_s']:.2f} s from an empty cache, "
          f"{report['command_warm_s']:.2f} s with the kernel cache warm", flush=True)
    r = report["command_split_empty"] = command(args, spec, work / "cache-split", split=True)
    print(f"the command from an empty cache, split: {r['wall_s']:.2f} s = interpreter start {r['python_start_s']:.3f} "
          f"+ imports {r['imports_s']:.3f} + main {r['main_s']:.3f} + exit {r['exit_s']:.3f}", flush=True)
    for name in ("empty", "warm"):
        if name == "warm":
            drop_autotune_cache(work / "cache-inproc")
        r = report[f"in_process_{name}"] = in_process(args, spec, work / "cache-inproc")
        print(f"\nin process, {name} kernel cache: total {r['total_s']:.2f} s (from the start of tt_tune.main)")
        for k in ("prepare_done", "worker_started", "worker_ready", "values_drawn", "references_made",
                  "first_compile_done", "last_compile_done", "first_timing_start", "last_timing_end", "last_check_end",
                  "checks_collected", "run_done"):
            print(f"  {k:20s} {r[k]}")
        print(f"  per config: {r['per_config_s']} s from the first timing's start to the last's end, over "
              f"{len(r['configs'])}; median {r['per_config_median_s']} s (do_bench {r['do_bench_median_s']}, "
              f"the check beside it {r['check_median_s']})")
        for c in r["configs"]:
            print(f"    {c['config'][:12]:12s} {c['status']:40s} {c['s']:.3f} s: do_bench {c['do_bench']:.3f}, "
                  f"check {c['check']:.3f} (ended at {c['check_end']}), GPU waited {c['gpu_wait']}")
    Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
