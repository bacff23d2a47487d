"""tt-tune: Triton's autotuning from the command line; every config compiled in parallel, then timed on the GPU.

    tt-tune KERNEL.py --kernel NAME --spec SPEC.json [--target cuda:90] [--jobs N] [--configs FILE] [--limit N]
            [--interpret] [--json] [-o best.cubin]

The configs are the kernel's `@triton.autotune(configs=...)` (pruned by `prune_configs_by`), with its
`@triton.heuristics`, evaluated as Triton evaluates them (ttc.driver.autotune), or a `--configs` JSON file. The spec is
tt-run's; its signature lists the parameters that no config, heuristic or default sets, its grid and check
expressions may use every constexpr a config sets, and optional "flops" / "bytes" expressions give TFLOP/s and
GB/s. Results always go (whatever `cache_results` says) to Triton's autotune cache file (`$TRITON_CACHE_DIR/<hash>/<kernel>.autotune.json`): a second run
with the same source, spec, key, configs and target times nothing, and `tt-compile --autotuned --spec SPEC.json`
compiles its winner. TRITON_PRINT_AUTOTUNING=1 prints what Triton's autotuner prints. Errors in the decorators
or the spec are `file:line:col: error:` lines, exit 1.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
import time

from ttc.driver.cli import ArgumentParser, UsageError, end, env_on, run, write_output


def _parser() -> ArgumentParser:
    p = ArgumentParser(prog="tt-tune", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
                       epilog="environment: TRITON_CACHE_DIR (kernel and autotune cache), TRITON_PRINT_AUTOTUNING=1, "
                              "TRITON_ALWAYS_COMPILE=1 (compile and time again)")
    p.add_argument("file", metavar="KERNEL.py", help="the Python file with the kernel")
    p.add_argument("-k", "--kernel", required=True, help="name of the (autotuned) @triton.jit kernel")
    p.add_argument("--spec", required=True, help="tt-run's launch spec (JSON), with optional flops/bytes")
    p.add_argument("--target", default="cuda:90", help="the GPU target (default: cuda:90)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="compile processes (default: all cores)")
    p.add_argument("--configs", metavar="FILE", help='a JSON list of {"kwargs": {...}, "num_warps": N, '
                                                      '"num_stages": S, "maxnreg": R}, instead of the decorator\'s')
    p.add_argument("--limit", type=int, help="tune N configs, evenly spaced in the (pruned) list (cached as that "
                                              "list: tt-compile --autotuned reads full runs)")
    p.add_argument("--interpret", action="store_true",
                   help="no GPU: run and check every config in the interpreter; no timing (\"ms\": null)")
    p.add_argument("--warmup", type=float, help="warm-up time in ms (default: the decorator's, else 25)")
    p.add_argument("--rep", type=float, help="timed repetitions' time in ms (default: the decorator's, else 100)")
    p.add_argument("--json", dest="json_out", action="store_true", help="print the results as JSON")
    p.add_argument("-o", "--output", help="write the winner's CUBIN here, with OUT.json metadata beside it")
    return p


def _spec_diag(spec, e):
    from ttc.runtime import spec as specs

    return specs.diagnostic(spec.path, e)


def _evenly(items: list, n: int) -> list:
    if n >= len(items):
        return items
    if n == 1:
        return items[:1]
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


def _metric(spec, raw: dict, name: str, values: dict):
    """The spec's "flops" or "bytes" for one config, or None."""
    from ttc.runtime.errors import SpecError
    from ttc.runtime.expr import evaluate

    expr = raw.get(name)
    if expr is None:
        return None
    try:
        v = evaluate(expr, values) if isinstance(expr, str) else expr
    except SpecError as e:
        raise _spec_diag(spec, SpecError(e.message, name)) from None
    if isinstance(v, bool) or not isinstance(v, (int, float)) and not hasattr(v, "__float__"):
        raise _spec_diag(spec, SpecError(f"{expr!r} is {v!r}, not a number", name))
    return float(v)


def _config_text(c: dict) -> str:
    kw = " ".join(f"{k}={v}" for k, v in c["kwargs"].items())
    extra = "".join(f" {k}={c[k]}" for k in ("num_ctas", "maxnreg") if k in c)
    return f"{kw}{' ' if kw else ''}warps={c['num_warps']} stages={c['num_stages']}{extra}"


def _table(report: dict) -> str:
    """The configs sorted by time (failed and wrong ones last), then the winner."""
    rows = sorted(report["configs"], key=lambda c: (c["status"] != "ok", c["ms"] or [math.inf]))
    rate = "TFLOP/s" if any("tflops" in c for c in rows) else "GB/s" if any("gbps" in c for c in rows) else None
    width = max(len(_config_text(c)) for c in rows)
    num = lambda c, k: "-" if c.get(k) is None else str(c[k])  # noqa: E731
    head = f"{'config':<{width}}  {'regs':>4} {'spills':>6} {'shared':>7}  {'ms [p20, p80]':<26}" + (f" {rate:>8}" if rate else "")
    cached = " (autotune cache hit: nothing compiled or timed)" if report["cached"] else ""
    lines = [f"{report['kernel']}: {len(rows)} configs, key {tuple(report['key'])}, {report['target']}, "
             f"{report['mode']}{cached}", head.rstrip()]
    for c in rows:
        line = f"{_config_text(c):<{width}}  {num(c, 'n_regs'):>4} {num(c, 'spills'):>6} {num(c, 'shared'):>7}  "
        if c["status"] != "ok":
            lines.append(line + c["status"])
            continue
        ms = "ok, not timed" if c["ms"] is None else f"{c['ms'][0]:.4f} [{c['ms'][1]:.4f}, {c['ms'][2]:.4f}]"
        line += f"{ms:<26}"
        if rate and c["ms"] is not None:
            v = c.get("tflops" if rate == "TFLOP/s" else "gbps")
            line += f" {'-' if v is None else f'{v:.1f}':>8}"
        lines.append(line.rstrip())
    best = report["best"]
    ok = sum(c["status"] == "ok" for c in rows)
    if best is not None:
        lines.append(f"best: {_config_text(best)}: {best['ms'][0]:.4f} ms")
    elif report["mode"] == "interpret":
        lines.append(f"{ok} of {len(rows)} configs ran and checked in the interpreter; no timing, no winner")
    else:
        lines.append("no config compiled, launched and checked: no winner")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from ttc.runtime import tune

    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    if args.limit is not None and args.limit < 1:
        raise UsageError(f"--limit must be at least 1, not {args.limit}")
    if args.interpret and args.output:
        raise UsageError("-o writes the timed winner; --interpret times nothing")
    if not os.path.isfile(args.file):
        raise UsageError(f"cannot open input file '{args.file}': No such file or directory")
    started = time.perf_counter()
    # the compile processes first (forked: no other thread may run yet), which import the compiler while the
    # parent reads the kernel; then the GPU workers and the checking process, whose start (a second of imports,
    # CUDA context and the spec's random values) runs beside everything up to the first timing; a run that times
    # nothing (a cache hit, an error) kills them all
    cpu = None if args.interpret else tune.compile_pool(args.jobs, args.target)
    gpus = None if args.interpret else tune.GpuWorkers(args.spec)
    try:
        return _main(args, started, gpus, cpu)
    finally:
        if gpus is not None:
            gpus.stop(now=True)
        if cpu is not None:
            tune._kill(cpu)


def _reads_values(spec, raw: dict) -> bool:
    """Whether the grid, flops or bytes expressions read a pointer argument (then its values are drawn)."""
    from ttc.runtime import tune

    pointers = {a.name for a in spec.args + spec.buffers if a.is_ptr}
    exprs = [d for d in spec.grid if isinstance(d, str)] + [raw[k] for k in ("flops", "bytes") if isinstance(raw.get(k), str)]
    return any(tune._uses(e, pointers) for e in exprs)


def _main(args, started: float, gpus, cpu) -> int:
    from ttc.driver import autotune
    from ttc.ir.diagnostics import CompileError, Diagnostic
    from ttc.runtime import spec as specs
    from ttc.runtime import tune
    from ttc.runtime.errors import SpecError

    p = autotune.prepare(args.file, args.kernel, args.spec, args.configs)
    t, spec, raw, variants, key = p.tunable, p.spec, p.raw, p.variants, p.key
    # grids and metrics see the scalars and each config's values; the spec's random arrays only if they read them
    initial = p.initial() if _reads_values(spec, raw) else {a.name: a.value for a in spec.args if not a.is_ptr}
    at = t.autotuned
    reset, restore = (at.reset_to_zero, at.restore_value) if at else ([], [])
    if args.limit:
        variants = _evenly(variants, args.limit)

    warmup = args.warmup if args.warmup is not None else (at.warmup if at and at.warmup is not None else 25)
    rep = args.rep if args.rep is not None else (at.rep if at and at.rep is not None else 100)
    jobs, extras = [], []
    for v in variants:
        values = {**initial, **v.constexprs}
        try:
            specs.grid(spec, values)
        except SpecError as e:
            raise _spec_diag(spec, e) from None
        extras.append({"flops": _metric(spec, raw, "flops", values), "bytes": _metric(spec, raw, "bytes", values)})
        jobs.append({"signature": v.signature, "constexprs": v.constexprs, "reset_to_zero": tuple(reset),
                     "restore_value": tuple(restore), "warmup": warmup, "rep": rep,
                     "options": {"target": args.target, "num_warps": v.options["num_warps"],
                                 "num_stages": v.options["num_stages"], "num_ctas": v.options["num_ctas"],
                                 "maxrregcount": v.options["maxnreg"]}})

    mode = "interpret" if args.interpret else "cuda"
    cache_file = autotune.cache_path(t, p.spec_text, args.target, key, [v.config for v in variants])
    cached = None if args.interpret or env_on("TRITON_ALWAYS_COMPILE") else autotune.load_cached(cache_file)
    if cached is not None and len(cached.get("ttc_results", [])) != len(variants):
        cached = None
    if cached is not None:
        results = [dict(r) for r in cached["ttc_results"]]
    else:
        if gpus is not None and gpus.count() == 0:
            raise UsageError("no GPU: the CUDA driver finds no device (use --interpret to check the configs "
                             "in the interpreter)")
        try:
            results = tune.run(jobs, path=args.file, text=t.text, kernel=t.name, spec_path=args.spec,
                               n_jobs=args.jobs, gpus=gpus, progress=sys.stderr.isatty(), cpu=cpu)
        except tune.SpecFailure as e:
            raise _spec_diag(spec, SpecError(e.message, e.where)) from None
    elapsed = time.perf_counter() - started

    configs_out = []
    for v, r, x in zip(variants, results, extras):
        c = v.config.as_dict() | {"status": r["status"], "ms": r.get("ms")}
        for k_out, k_in in (("n_regs", "n_regs"), ("spills", "spill_bytes"), ("shared", "shared")):
            if r.get(k_in) is not None or r.get(k_out) is not None:
                c[k_out] = r.get(k_in, r.get(k_out))
        if c.get("shared") is None and r.get("compile", {}).get("shared") is not None:
            c["shared"] = r["compile"]["shared"]
        if c["ms"]:
            if x["flops"] is not None:
                c["tflops"] = x["flops"] / (c["ms"][0] * 1e-3) / 1e12
            if x["bytes"] is not None:
                c["gbps"] = x["bytes"] / (c["ms"][0] * 1e-3) / 1e9
        configs_out.append(c)
    timed = [(c, v) for c, v in zip(configs_out, variants) if c["status"] == "ok" and c["ms"]]
    best_c, best_v = min(timed, key=lambda cv: cv[0]["ms"]) if timed else (None, None)
    compiled = sum(1 for r in results if r.get("compile", {}).get("ok") and not r["compile"].get("cache_hit"))
    report = {"kernel": t.name, "key": list(key), "target": args.target, "mode": mode, "cached": cached is not None,
              "configs": configs_out, "best": best_c, "compiled": compiled, "seconds": elapsed,
              "autotune_cache": None if args.interpret else cache_file}

    if cached is None and not args.interpret:
        autotune.store(cache_file, key, [{"config": v.config, **{k: c.get(k) for k in
                                                                ("status", "ms", "n_regs", "spills", "shared")}}
                                         for v, c in zip(variants, configs_out)])
    printed = sys.stderr if args.json_out else sys.stdout
    if env_on("TRITON_PRINT_AUTOTUNING") and cached is None:
        for v, c in zip(variants, configs_out):
            printed.write(f"Autotuning kernel {t.name} with config {v.config}\n")
            if c["status"].startswith("failed"):
                printed.write(f"Autotuning failed with {c['status'][len('failed: '):]}\n")
        if best_v is not None:
            printed.write(f"Triton autotuning for function {t.name},\nwith key as {key},\n"
                          f"finished after {elapsed:.2f}s,\nbest config selected: {best_v.config};\n")
    if args.output:
        if best_v is None:
            raise UsageError("no config compiled, launched and checked: nothing to write")
        i = variants.index(best_v)
        cache_dir = results[i].get("compile", {}).get("cache_dir")
        if cache_dir is None:  # an autotune cache hit: the winner's compile is a kernel cache hit
            comp = tune.compile_one(args.file, t.text, t.name, jobs[i]["signature"], jobs[i]["options"])
            if not comp["ok"]:
                raise CompileError(Diagnostic(args.file, 0, 0, f"compiling the winner: {comp['error']}"))
            cache_dir = comp["cache_dir"]
        with open(os.path.join(cache_dir, f"{t.name}.cubin"), "rb") as f:
            write_output(args.output, f.read())
        shutil.copyfile(os.path.join(cache_dir, f"{t.name}.json"), args.output + ".json")
    if args.json_out:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        sys.stdout.write(_table(report))
        if args.output:
            sys.stdout.write(f"wrote {args.output} and {args.output}.json\n")
    bad = [c for c in configs_out if c["status"] != "ok"]
    return 0 if not bad or any(c["status"] == "ok" for c in configs_out) else 1


def entry() -> None:
    end(run("tt-tune", main))


if __name__ == "__main__":
    entry()
