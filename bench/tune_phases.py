"""Where tt-tune's time goes now that its phases overlap (issue 22: the whole run against Triton's autotuner).

Runs `tt-tune KERNEL --kernel K --spec SPEC --json` five times on the visible GPUs (set CUDA_VISIBLE_DEVICES=0
for one): twice as the command (a subprocess: its wall time, from an empty kernel cache, then with the kernel
cache warm and the autotune cache removed), once more as `python -c` calling tt-tune's entry from an empty cache
with its interpreter start (to the first statement), imports, `main` and exit (after main returned) timed on
CLOCK_MONOTONIC, then twice in this process with every phase time-stamped on one
clock (the parent's, the compile processes' and the GPU worker's: CLOCK_MONOTONIC is one clock for all
processes), again from an empty cache and then warm. For the in-process runs it prints, from the start of
`tt_tune.main`: the parent's prepare done; the GPU worker's start (spawned, imports and CUDA set-up done) and
its draw of the spec's values; the checking process's draw and the checks' references made; the first and last
compile done; the first config's timing started, the last finished, the last check finished (the checks run in
the checking process beside the timings); then per config (its timing: the work before do_bench, do_bench, the
work after it; its check; the GPU's wait since the previous config) and the total. Defaults: kernels/tuned/matmul.py at
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
    """tune.gpu_init with its start and end, and the worker's draw and do_bench timed."""
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
    real_bench = tune.do_bench

    def do_bench(*a, **kw):
        start = now()
        try:
            return real_bench(*a, **kw)
        finally:
            _marks.setdefault("do_bench", []).append([start, now()])

    tune.do_bench = do_bench
    _real("gpu_init")(device, spec_path)
    _marks["init"][1] = now()


def timed_gpu_one(task: dict) -> dict:
    start = now()
    out = _real("gpu_one")(task)
    out["bench"] = {"run": [start, now()], **{k: (list(v) if isinstance(v, list) else v) for k, v in _marks.items()}}
    _marks.pop("do_bench", None)
    return out


def timed_check_prepare(spec_path: str, reset_to_zero: tuple, config_names: frozenset) -> None:
    """tune.check_prepare (in the checking process) with its start, the values drawn and the references made."""
    start = now()
    _real("_spec")(spec_path, reset_to_zero)
    drawn = now()
    _real("check_prepare")(spec_path, reset_to_zero, config_names)
    _marks["check_prepare"] = [start, drawn, now()]


def timed_check_one(*args) -> dict:
    """tune.check_one with its [start, end] and the checking process's preparation under "bench"."""
    start = now()
    out = _real("check_one")(*args)
    out["bench"] = {"check": [start, now()], "prepare": _marks.get("check_prepare")}
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
    saved = (tune.gpu_init, tune.gpu_one, tune.check_prepare, tune.check_one, tune.compile_one, tune.run,
             autotune.prepare)
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

    # the pools pickle functions by name: __main__'s, which the spawned worker and checking process import as
    # __mp_main__
    main = sys.modules["__main__"]
    REAL.update(gpu_init=tune.gpu_init, gpu_one=tune.gpu_one, check_prepare=tune.check_prepare,
                check_one=tune.check_one, _spec=tune._spec, compile_one=tune.compile_one)
    tune.gpu_init, tune.gpu_one, tune.compile_one = main.timed_gpu_init, main.timed_gpu_one, main.timed_compile
    tune.check_prepare, tune.check_one = main.timed_check_prepare, main.timed_check_one
    tune.run, autotune.prepare = run, prepare
    argv = [args.file, "-k", args.kernel, "--spec", str(spec), "--json"] + (["-j", str(args.jobs)] if args.jobs else [])
    try:
        out = io.StringIO()
        start = now()
        with contextlib.redirect_stdout(out):
            rc = tt_tune.main(argv)
        end = now()
    finally:
        (tune.gpu_init, tune.gpu_one, tune.check_prepare, tune.check_one, tune.compile_one, tune.run,
         autotune.prepare) = saved
        REAL.clear()
    if rc != 0:
        raise SystemExit(f"tt-tune (in process) returned {rc}")
    results = marks["results"]
    at = lambda t: None if t is None else round(t - start, 3)  # noqa: E731
    compiled = sorted(r["compile"]["done"] for r in results if "done" in r.get("compile", {}))
    timed = sorted((r for r in results if "bench" in r), key=lambda r: r["bench"]["run"][0])
    worker = timed[-1]["bench"] if timed else {}
    checked = [r["check"]["bench"] for r in results if "bench" in r.get("check", {})]
    checks = sorted(c["check"] for c in checked)
    checker = next((c["prepare"] for c in checked if c.get("prepare")), [None, None, None])
    per = []
    for prev, r in zip([None] + timed, timed):
        b = r["bench"]
        c = r.get("check", {}).get("bench", {}).get("check")
        bench = b.get("do_bench") or [[b["run"][0], b["run"][0]]]
        per.append({"config": r.get("compile", {}).get("cache_dir", "?").rsplit("/", 1)[-1], "status": r["status"][:40],
                    "s": round(b["run"][1] - b["run"][0], 4), "do_bench": round(bench[-1][1] - bench[-1][0], 4),
                    "before": round(bench[-1][0] - b["run"][0], 4), "after": round(b["run"][1] - bench[-1][1], 4),
                    "check": round(c[1] - c[0], 4) if c else 0.0, "check_end": at(c[1]) if c else None,
                    "gpu_wait": round(b["run"][0] - prev["bench"]["run"][1], 4) if prev else None})
    first = timed[0]["bench"]["run"][0] if timed else None
    last = timed[-1]["bench"]["run"][1] if timed else None
    return {
        "total_s": round(end - start, 3), "prepare_done": at(marks.get("prepare")),
        "worker_started": at(worker.get("init", [None])[0]), "worker_ready": at(worker.get("init", [None, None])[1]),
        "values_drawn": at(worker.get("draw", [None, None])[1]),
        "checker_values_drawn": at(checker[1]), "references_made": at(checker[2]),
        "first_compile_done": at(compiled[0]) if compiled else None, "last_compile_done": at(compiled[-1]) if compiled else None,
        "first_timing_start": at(first), "last_timing_end": at(last),
        "last_check_end": at(max(c[1] for c in checks)) if checks else None, "run_done": at(marks.get("run done")),
        "per_config_s": round((last - first) / len(timed), 4) if timed else None,
        "per_config_median_s": statistics.median(p["s"] for p in per) if per else None,
        "do_bench_median_s": statistics.median(p["do_bench"] for p in per) if per else None,
        "before_median_s": statistics.median(p["before"] for p in per) if per else None,
        "after_median_s": statistics.median(p["after"] for p in per) if per else None,
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
        for k in ("prepare_done", "worker_started", "worker_ready", "values_drawn", "checker_values_drawn",
                  "references_made", "first_compile_done", "last_compile_done", "first_timing_start",
                  "last_timing_end", "last_check_end", "run_done"):
            print(f"  {k:20s} {r[k]}")
        print(f"  per config: {r['per_config_s']} s from the first timing's start to the last's end, over "
              f"{len(r['configs'])}; median {r['per_config_median_s']} s (before do_bench {r['before_median_s']}, "
              f"do_bench {r['do_bench_median_s']}, after {r['after_median_s']}; the check in the checking process "
              f"{r['check_median_s']})")
        for c in r["configs"]:
            print(f"    {c['config'][:12]:12s} {c['status']:40s} {c['s']:.3f} s: before {c['before']:.3f}, do_bench "
                  f"{c['do_bench']:.3f}, after {c['after']:.3f}; check {c['check']:.3f} (ended at {c['check_end']}), "
                  f"GPU waited {c['gpu_wait']}")
    Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
