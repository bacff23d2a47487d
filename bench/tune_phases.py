"""Where tt-tune's time goes, phase by phase, on one GPU (issue 22: the whole run against Triton's autotuner).

Runs what `tt-tune KERNEL.py --kernel K --spec SPEC` runs, in one process and one phase at a time, and times each:
the parent's preparation (`autotune.prepare`: the decorator, the spec's values, the configs), the compiles (all
configs on a process pool through the kernel cache: a second run of this script measures cache hits), the GPU
worker's start (`tune.gpu_init`: context, the L2 flush buffer, the spec's values and the checks' references),
then per config the parts of `tune.gpu_one`: loading the CUBIN with its arguments uploaded, the checked launch
with the outputs read back, the check, and `do_bench`. Prints one line per config and the totals.

    python3 bench/tune_phases.py kernels/tuned/matmul.py --kernel matmul_kernel --spec SPEC.json [--jobs N]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import time
from collections import defaultdict


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--kernel", required=True)
    p.add_argument("--spec", required=True)
    p.add_argument("--target", default="cuda:90")
    p.add_argument("--jobs", type=int, default=None)
    args = p.parse_args()

    t0 = time.perf_counter()
    from ttc.driver import autotune
    from ttc.runtime import cuda, tune

    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    prep = autotune.prepare(args.file, args.kernel, args.spec, None)
    t_prepare = time.perf_counter() - t0
    at = prep.tunable.autotuned
    reset, restore = (tuple(at.reset_to_zero), tuple(at.restore_value)) if at else ((), ())
    jobs = [{"signature": v.signature, "constexprs": v.constexprs, "options": {
        "target": args.target, "num_warps": v.options["num_warps"], "num_stages": v.options["num_stages"],
        "num_ctas": v.options["num_ctas"], "maxrregcount": v.options["maxnreg"]}} for v in prep.variants]

    t0 = time.perf_counter()
    with cf.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        compiled = list(pool.map(tune.compile_one, [args.file] * len(jobs), [prep.tunable.text] * len(jobs),
                                 [prep.tunable.name] * len(jobs), [j["signature"] for j in jobs],
                                 [j["options"] for j in jobs]))
    t_compile = time.perf_counter() - t0

    names = frozenset(k for j in jobs for k in j["constexprs"])
    t0 = time.perf_counter()
    tune.gpu_init(0, args.spec, reset, names)
    t_init = time.perf_counter() - t0

    phases: dict = defaultdict(float)

    def timed(name, fn):
        def wrapper(*a, **kw):
            start = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                phases[name] += time.perf_counter() - start
        return wrapper

    loaded = cuda.loaded

    class _Timed:  # `loaded(...)` as a context manager whose entry (allocation and upload) is timed
        def __init__(self, *a, **kw):
            self.cm = loaded(*a, **kw)

        def __enter__(self):
            start = time.perf_counter()
            k = self.cm.__enter__()
            phases["load+upload"] += time.perf_counter() - start
            k.outputs = timed("launch+read back", k.outputs)
            return k

        def __exit__(self, *exc):
            start = time.perf_counter()
            try:
                return self.cm.__exit__(*exc)
            finally:
                phases["free"] += time.perf_counter() - start

    cuda.loaded = _Timed
    tune._check = timed("check", tune._check)
    tune.do_bench = timed("do_bench", tune.do_bench)
    totals: dict = defaultdict(float)
    print(f"imports {t_import:.2f} s, prepare {t_prepare:.2f} s, compile {len(jobs)} configs {t_compile:.2f} s "
          f"({sum(1 for c in compiled if c.get('cache_hit'))} cache hits), GPU worker start {t_init:.2f} s")
    for job, comp in zip(jobs, compiled):
        if not comp["ok"]:
            print(f"{job['constexprs']}: failed to compile")
            continue
        phases.clear()
        task = {"spec": args.spec, "kernel": prep.tunable.name, "cache_dir": comp["cache_dir"],
                "shared": comp["shared"], "constexprs": job["constexprs"], "reset_to_zero": reset,
                "restore_value": restore, "warmup": 25, "rep": 100}
        start = time.perf_counter()
        out = tune.gpu_one(task)
        whole = time.perf_counter() - start
        phases["other"] = whole - sum(phases.values())
        for k, v in phases.items():
            totals[k] += v
        totals["config"] += whole
        print(f"{out['status'][:30]:30s} {whole:.3f} s: " + ", ".join(f"{k} {v:.3f}" for k, v in phases.items()))
    print("totals: " + ", ".join(f"{k} {v:.2f} s" for k, v in totals.items()))


if __name__ == "__main__":
    main()
