"""Every kernel of kernels/ on the GPU: our compiler against Triton 3.6, both CUBINs launched by the same harness.

For each kernels/<name>.json spec (its kernel, signature, num_warps, num_stages (3 when the spec has none),
launch_pdl; the source file is the spec's "source" key, else <name>.py), at the spec's own (test-sized) shapes:
- ours: `tt-compile SOURCE --kernel K --signature S --num-warps W --num-stages N --target cuda:90
  [--launch-pdl] -o ours.cubin` (OUT.json metadata beside it);
- Triton: the installed Triton compiles the same source, kernel, signature, num_warps and num_stages (launch_pdl
  as the spec says) for GPUTarget("cuda", 90, 32), the signature turned into `triton.compiler.ASTSource` by
  test/fixtures/make_fixtures.py's own code; `k.asm["cubin"]` and its metadata (CUBIN.json) are written as
  bench/wgmma_bench.py's `save_triton_cubin` writes them. This runs in a subprocess of `--triton-python`
  (default: this Python), so the bench itself needs no Triton where it only compiles ours;
- each CUBIN then goes through `tt-run CUBIN --spec SPEC --check --bench --json` (the spec's NumPy check; CUDA
  events around each launch, median of 100 after 10 warm-up ones; registers and local-memory bytes from the
  driver). Tensor-descriptor arguments get their tensor maps from each binary's own tensordesc_meta; launch_pdl
  kernels launch with programmatic dependent launch on both sides.
Both CUBINs are timed in `--rounds` rounds (default 2), each one `tt-run FIRST --against SECOND` process that
loads both, checks both in the first round (the later ones only time) and interleaves their timed launches, so
both meet the same clocks and power state; ours is FIRST in even rounds, Triton's in odd ones. (`--separate`:
each side a tt-run process of its own, ours first in even rounds, the method before the tenth session; a round
whose paired process fails to launch falls back to it, so that each side's own error shows.) Each side's time is
the lowest of its round medians; with 3 or more rounds the table also gives each round's Triton/ours and their
spread (the median ratio over rounds, min-max), what a difference of a few percent is judged by.

`--scale N` times the kernels of `SCALABLE` at N times their spec's problem size (the spec rewritten into the
work directory: the listed scalars and the leading dimension of the listed arrays multiplied, or the grid when
it is a number; arrays with one entry per program follow the grid), the others are skipped: at the spec's own
sizes a kernel runs a few microseconds, mostly launch latency, at N = 100-1000 it is bandwidth-bound.

Prints a markdown table (checks, median ms, Triton/ours: > 1 means ours is faster, registers, spills) and writes
every result as JSON (--json PATH, default $OUT/kernels_bench.json when $OUT is set). Exit status 1 when one of
our checks fails (or our compile does).

    python3 bench/kernels_bench.py [--only vector_add,softmax] [--scale N] [--rounds 2] [--separate] [--ptxas PATH]
        [--json PATH]
    python3 bench/kernels_bench.py --no-gpu [--triton-python ~/.cache/ttc-bench/triton-3.6.0/bin/python]

--no-gpu compiles both sides and stops before the launch: it lines each binary's parameters (from its PTX) up
with the spec's arguments and its tensordesc_meta with the spec's descriptors, as tt-run would before launching;
its exit status is 1 when either side fails to compile or to line up.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import gpu_bench as gb  # bench/ is on sys.path: these scripts run as python3 bench/NAME.py

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "kernels"
TARGET = ("cuda", 90, 32)


def jobs(only: list[str] | None) -> list[dict]:
    """One job per kernels/*.json: what both compilers are given."""
    from ttc.runtime.spec import kernel_source

    out = []
    for path in sorted(KERNELS.glob("*.json")):
        if only and path.stem not in only:
            continue
        spec = json.loads(path.read_text())
        source = kernel_source(path)
        if source.parent.resolve() != KERNELS.resolve():  # make_fixtures loads kernels/<stem>.py
            raise SystemExit(f"{path}: the source {source} is not in kernels/")
        out.append({"name": path.stem, "spec": str(path), "source": str(source), "kernel": spec["kernel"],
                    "signature": spec["signature"], "num_warps": spec.get("num_warps", 4),
                    "num_stages": spec.get("num_stages", 3), "launch_pdl": bool(spec.get("launch_pdl"))})
    if only and (unknown := set(only) - {j["name"] for j in out}):
        raise SystemExit(f"no kernels/<name>.json for: {', '.join(sorted(unknown))}")
    return out


# ------------------------------------------------------------------------------------------------ --scale N
# kernel -> what grows with the problem: "values" (scalars multiplied), "rows" (arrays whose leading dimension
# is multiplied), "grid" (the grid's x, a number in the spec, multiplied), "programs" (arrays with one entry per
# program: leading dimension = the scaled grid's x)
SCALABLE = {
    "vector_add": {"values": ["n"], "rows": ["x", "y", "out"]},
    "histogram": {"values": ["n"], "rows": ["x"]},
    "atomic_ops": {"values": ["n"], "rows": ["h", "b", "f", "d", "l", "old"], "programs": ["s"]},
    "layer_norm": {"grid": True, "rows": ["x", "y", "mean", "rstd"]},
    "cumsum": {"grid": True, "rows": ["x", "out"]},
    "softmax": {"grid": True, "rows": ["out", "x"]},
}


def scaled_spec(spec: dict, rule: dict, n: int) -> dict:
    """A copy of `spec` with its problem `n` times larger, as `rule` (an entry of SCALABLE) says."""
    from ttc.runtime.expr import evaluate

    spec = json.loads(json.dumps(spec))
    args = {a["name"]: a for a in spec["args"]}
    for name in rule.get("values", []):
        args[name]["value"] *= n
    for name in rule.get("rows", []):
        args[name]["shape"][0] *= n
    if rule.get("grid"):
        if not isinstance(spec["grid"][0], int):
            raise ValueError(f"the grid's x is {spec['grid'][0]!r}, not a number")
        spec["grid"][0] *= n
    scalars = {a["name"]: a["value"] for a in spec["args"] if "value" in a}
    programs = spec["grid"][0] if isinstance(spec["grid"][0], int) else evaluate(spec["grid"][0], scalars)
    for name in rule.get("programs", []):
        args[name]["shape"][0] = int(programs)
    return spec


# ------------------------------------------------------------------------------------------------------- ours
def compile_ours(job: dict, work: Path, ptx: bool, ptxas: str | None = None) -> dict:
    base = ["tt-compile", job["source"], "--kernel", job["kernel"], "--signature", job["signature"],
            "--num-warps", str(job["num_warps"]), "--num-stages", str(job["num_stages"]), "--target", "cuda:90"]
    base += ["--launch-pdl"] if job["launch_pdl"] else []
    base += ["--ptxas", ptxas] if ptxas else []
    cubin = work / f"{job['name']}.ours.cubin"
    t0 = time.perf_counter()
    gb.run_checked(base + ["-o", str(cubin)])
    r = {"cubin": str(cubin), "compile_s": time.perf_counter() - t0}
    if ptx:  # the same compile from the cache, stopped at PTX: the parameter list the launch will see
        r["ptx"] = str(cubin.with_suffix(".ptx"))
        gb.run_checked(base + ["--stage", "ptx", "-o", r["ptx"]])
    return r


# ----------------------------------------------------------------------------------------------------- Triton
def compile_triton(jobs_: list[dict], work: Path, python: str, script: str = __file__) -> dict:
    """name -> {cubin, ptx, compile_s} or {error}: every job compiled by Triton in one subprocess of `python`
    running `script --triton-worker` (this file's triton_worker, or another bench's)."""
    todo, done = work / "triton_jobs.json", work / "triton_results.json"
    todo.write_text(json.dumps([dict(j, out=str(work / f"{j['name']}.triton.cubin")) for j in jobs_]))
    env = dict(os.environ, TRITON_CACHE_DIR=str(work / "triton-cache"))
    proc = subprocess.run([python, script, "--triton-worker", str(todo), str(done)], capture_output=True,
                          text=True, env=env)
    if proc.returncode != 0 or not done.is_file():
        err = f"the Triton compile subprocess ({python}) failed ({proc.returncode}): {proc.stderr[-3000:]}"
        return {j["name"]: {"error": err} for j in jobs_}
    return json.loads(done.read_text())


def triton_worker(todo: str, done: str) -> int:
    """Runs under a Python with Triton (not necessarily ours): compiles each job, CUBIN + CUBIN.json + PTX."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    sys.path.insert(0, str(ROOT / "test" / "fixtures"))
    import make_fixtures as mf
    from wgmma_bench import save_triton_cubin

    os.chdir(ROOT)  # make_fixtures loads kernels/<stem>.py by its repository-relative path
    results = {}
    for job in json.loads(Path(todo).read_text()):
        try:
            fn = getattr(mf.load_kernel_module(Path(job["source"]).stem), job["kernel"])
            signature, constexprs, attrs = mf.parse_signature(fn.arg_names, job["signature"])
            src = ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs)
            options = {"num_warps": job["num_warps"], "num_ctas": 1, "num_stages": job["num_stages"]}
            if job["launch_pdl"]:
                options["launch_pdl"] = True
            t0 = time.perf_counter()
            k = triton.compile(src, target=GPUTarget(*TARGET), options=options)
            cubin = Path(job["out"])
            save_triton_cubin(k, cubin)
            cubin.with_suffix(".ptx").write_text(k.asm["ptx"])
            results[job["name"]] = {"cubin": str(cubin), "ptx": str(cubin.with_suffix(".ptx")),
                                    "compile_s": time.perf_counter() - t0, "triton": triton.__version__}
        except Exception as e:  # noqa: BLE001  (reported in the row)
            results[job["name"]] = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-3000:]}
    Path(done).write_text(json.dumps(results, indent=1))
    return 0


# --------------------------------------------------------------------------------------------------- launching
def lineup(cubin: str, ptx: str, spec_path: str) -> dict:
    """What tt-run does before the driver is called: the spec read, the metadata found, the binary's parameters
    (here from its PTX, on the GPU from cuFuncGetParamInfo) lined up with the spec's arguments, one
    tensordesc_meta entry per descriptor. Raises where the launch would fail."""
    from ttc.runtime import binary, cuda, dtypes, tensormap
    from ttc.runtime import spec as specs

    spec = specs.load(spec_path)
    meta = binary.metadata(cubin, spec.path)
    entry = next((e for e in binary.ptx_entries(Path(ptx).read_text()) if e.name == spec.kernel), None)
    if entry is None:
        raise RuntimeError(f"no kernel {spec.kernel} in {ptx}")
    kept, extra = cuda._match(spec, entry.param_sizes)
    descs = [a for a in kept if a.is_desc and not a.decomposed]
    if len(meta.get("tensordesc_meta") or []) < len(descs):
        raise RuntimeError(f"{len(descs)} descriptors but {len(meta.get('tensordesc_meta') or [])} tensordesc_meta")
    for a, desc in zip(descs, meta.get("tensordesc_meta") or []):  # cuTensorMapEncodeTiled's arguments, as launched
        tensormap.tensormap_args(1 << 20, a.shape, dtypes.storage_dtype(a.elt).itemsize, desc, a.strides)
    return {"params": len(entry.param_sizes), "scratch_params": extra, "descriptors": len(descs),
            "metadata": bool(meta), "launch_pdl": bool(meta.get("launch_pdl", False)),
            "shared": meta.get("shared")}


def launch(cubin: str, spec: str, check: bool = True) -> dict:
    r = gb.run_ours(cubin, Path(spec), check=check)
    r.pop("outputs", None)
    return r


def launch_pair(cubins: dict, sides: tuple, spec: str, check: bool) -> dict | None:
    """One `tt-run FIRST --against SECOND` process (sides[0] first): each side's report in `launch`'s form, or
    None when the process gave no report (a launch failed: the caller runs the sides apart to see whose)."""
    r = gb.run_ours(cubins[sides[0]], Path(spec), check=check, against=cubins[sides[1]])
    other = r.get("against")
    if other is None or "bench" not in r or "bench" not in other:
        return None
    first = {k: v for k, v in r.items() if k not in ("against", "outputs", "rc", "stderr")}  # the pair's exit
    # status and stderr are both sides': each side's ok comes from its own checks
    for side in (first, other):
        side["ok"] = all(c["ok"] for c in (side.get("check") or {}).values())
        if "bit_differences" in other:  # per checked output, the elements whose bits differ between the sides
            side["bit_differences"] = other["bit_differences"]
    return {sides[0]: first, sides[1]: other}


def best_of(first: dict, later: dict) -> dict:
    """Rounds of one binary: the one with the lowest median (the first round's check kept: later rounds only
    time), every round's median in `rounds_ms`; a run without a timing (it failed) wins, so that its error
    shows."""
    if not (first.get("bench") and later.get("bench")):
        return first if not first.get("bench") else later
    rounds = first.get("rounds_ms") or [first["bench"]["median_ms"]]
    a = min((first, later), key=lambda r: r["bench"]["median_ms"])
    ok = bool(first.get("ok")) and later.get("ok") is not False
    kept = {k: first[k] for k in ("check", "bit_differences") if k in first}  # what only the checked round has
    return dict(a, ok=ok, **kept, rounds_ms=rounds + [later["bench"]["median_ms"]])


def round_ratios(r: dict) -> list[float]:
    """Triton/ours of each round (the two sides' medians of the same round)."""
    ours, theirs = r["ours"].get("rounds_ms") or [], r["triton"].get("rounds_ms") or []
    return [t / o for o, t in zip(ours, theirs) if o and t]


# -------------------------------------------------------------------------------------------------------- main
def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", default=None, help="where to write the results (default $OUT/kernels_bench.json)")
    p.add_argument("--only", default=None, help="comma-separated kernel names (kernels/<name>.json)")
    p.add_argument("--no-gpu", action="store_true", help="both compiles and the parameter line-up; no launch")
    p.add_argument("--scale", type=int, default=1, help="problem size multiplier (kernels of SCALABLE only)")
    p.add_argument("--rounds", type=int, default=2,
                   help="timed rounds alternating which side runs first; each side keeps its best median (>= 3: "
                        "the table adds each round's ratio, median and min-max)")
    p.add_argument("--separate", action="store_true",
                   help="time each side in a tt-run process of its own, not both interleaved in one")
    p.add_argument("--ptxas", default=None,
                   help="assemble our PTX with this ptxas (e.g. Triton's) instead of nvJitLink: the assembler's share")
    p.add_argument("--triton-python", default=sys.executable,
                   help="the Python that compiles with Triton (default: this one)")
    p.add_argument("--triton-worker", nargs=2, metavar=("JOBS", "RESULTS"), help=argparse.SUPPRESS)
    opts = p.parse_args(argv)
    if opts.rounds < 1:
        p.error(f"--rounds must be at least 1, not {opts.rounds}")
    if opts.triton_worker:
        return triton_worker(*opts.triton_worker)
    out_path = opts.json or (os.path.join(os.environ["OUT"], "kernels_bench.json") if os.environ.get("OUT") else None)

    todo = jobs(opts.only.split(",") if opts.only else None)
    work = Path(tempfile.mkdtemp(prefix="kernels_bench_"))
    if opts.scale != 1:
        todo = [j for j in todo if j["name"] in SCALABLE]
        for j in todo:
            big = scaled_spec(json.loads(Path(j["spec"]).read_text()), SCALABLE[j["name"]], opts.scale)
            j["spec"] = str(work / f"{j['name']}.x{opts.scale}.json")
            Path(j["spec"]).write_text(json.dumps(big, indent=1))
    os.environ["TRITON_CACHE_DIR"] = str(work / "ours-cache")  # ours: a fresh cache; Triton's has its own
    results = {"started": time.strftime("%Y-%m-%d %H:%M:%S"), "work": str(work), "no_gpu": opts.no_gpu,
               "scale": opts.scale, "rounds": opts.rounds, "separate": opts.separate, "ptxas": opts.ptxas, "kernels": {}}
    t0 = time.perf_counter()
    theirs = compile_triton(todo, work, opts.triton_python)
    print(f"Triton compiled {sum('cubin' in t for t in theirs.values())}/{len(todo)} kernels in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)
    for job in todo:
        name = job["name"]
        r = results["kernels"][name] = {"job": job, "triton_compile": theirs.get(name, {"error": "not compiled"})}
        try:
            r["ours_compile"] = compile_ours(job, work, ptx=opts.no_gpu, ptxas=opts.ptxas)
        except RuntimeError as e:
            r["ours_compile"] = {"error": str(e)}
        order = [[("ours", "triton"), ("triton", "ours")][i % 2] for i in range(1 if opts.no_gpu else opts.rounds)]
        for rnd, sides in enumerate(order):
            both = {s: r[f"{s}_compile"].get("cubin") for s in sides}
            pair = None
            if not (opts.no_gpu or opts.separate) and all(both.values()):
                pair = launch_pair(both, sides, job["spec"], check=rnd == 0)
            if pair is not None:
                for side in sides:
                    if rnd == 0:
                        r[side] = pair[side]
                    elif r[side].get("bench"):
                        r[side] = best_of(r[side], pair[side])
                continue
            for side in sides:
                c = r[f"{side}_compile"]
                if "cubin" not in c:
                    r[side] = {"ok": False, "skipped": f"{side} compile failed: {_one_line(c['error'])[:200]}"}
                elif opts.no_gpu:
                    try:
                        r[side] = {"ok": None, "lineup": lineup(c["cubin"], c["ptx"], job["spec"])}
                    except Exception as e:  # noqa: BLE001
                        r[side] = {"ok": False, "error": f"{type(e).__name__}: {e}"}
                elif rnd == 0:
                    r[side] = launch(c["cubin"], job["spec"])
                elif r[side].get("bench"):
                    r[side] = best_of(r[side], launch(c["cubin"], job["spec"], check=False))
        print(f"{name}: " + "; ".join(f"{s} {_status(r[s])}" for s in ("ours", "triton")), flush=True)
        if out_path:  # as we go, so a timeout still leaves the finished kernels
            _write(out_path, results)
    print_table(results)
    if out_path:
        _write(out_path, results)
        print(f"wrote {out_path}")
    failed = [n for n, r in results["kernels"].items()
              if r["ours"].get("ok") is False or (opts.no_gpu and r["triton"].get("ok") is False)]
    if failed:
        print(f"FAILED: {', '.join(failed)}")
    return 1 if failed else 0


def _one_line(err: str) -> str:
    """The line of a compile's stderr that says what went wrong: the first 'error:' line, else the last line."""
    lines = [ln.strip() for ln in err.splitlines() if ln.strip()] or ["?"]
    return next((ln for ln in lines if "error:" in ln), lines[-1])


def _problem(r: dict) -> str | None:
    """Why a side has no timing, in one line: skipped, the error, or the checks that failed."""
    if r.get("skipped"):
        return "skipped: " + r["skipped"]
    why = r.get("error") or r.get("stderr")
    if not why and r.get("ok") is False:
        bad = {n: c for n, c in (r.get("check") or {}).items() if not c.get("ok")}
        why = "check failed: " + ", ".join(f"{n} ({c.get('mismatches')}/{c.get('size')} wrong, max abs err "
                                           f"{c.get('max_abs')})" for n, c in bad.items())
    return " ".join(why.split()).replace("|", "/") if why else None


def _status(r: dict) -> str:
    if (why := _problem(r)) is not None:
        return ("FAILED: " if not r.get("skipped") else "") + why[:300]
    if r.get("ok") is None:
        return f"compiled, {r['lineup']['params']} parameters lined up"
    return f"ok {(r.get('bench') or {}).get('median_ms', float('nan')):.4f} ms"


def _write(path, results):
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(results, indent=1, default=str) + "\n")


def print_table(results: dict) -> None:
    def chk(r):
        return "skip" if r.get("skipped") else ("compiled" if r.get("ok") is None else ("ok" if r["ok"] else "FAIL"))

    f = (lambda v, fmt: "-" if v is None else format(v, fmt))
    print("\n| kernel | check ours/Triton | ours ms | Triton ms | Triton/ours | rounds: median (min-max) | "
          "batch ms ours/Triton | regs ours/Triton | spills ours/Triton (bytes) | note |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, r in results["kernels"].items():
        ob, tb = r["ours"].get("bench") or {}, r["triton"].get("bench") or {}
        om, tm = ob.get("median_ms"), tb.get("median_ms")
        note = "; ".join(f"{s}: {_problem(r[s])[:160]}" for s in ("ours", "triton") if _problem(r[s]))
        if "lineup" in r["ours"] and "lineup" in r["triton"]:  # --no-gpu: what the launch would pass
            note = note or "parameters ours/Triton: " + "/".join(
                f"{r[s]['lineup']['params']} ({r[s]['lineup']['scratch_params']} scratch)" for s in ("ours", "triton"))
        ratios = round_ratios(r)
        spread = (f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})" if len(ratios) >= 3
                  else "-")
        print(f"| {name} | {chk(r['ours'])}/{chk(r['triton'])} | {f(om, '.4f')} | {f(tm, '.4f')} | "
              f"{f(tm / om if om and tm else None, '.3f')} | {spread} | {f(ob.get('batch_ms'), '.4f')}/{f(tb.get('batch_ms'), '.4f')} | "
              f"{f(ob.get('n_regs'), 'd')}/{f(tb.get('n_regs'), 'd')} | "
              f"{f(ob.get('spill_bytes'), 'd')}/{f(tb.get('spill_bytes'), 'd')} | {note} |")
    bits = {n: r["ours"]["bit_differences"] for n, r in results["kernels"].items() if "bit_differences" in r["ours"]}
    if bits:  # paired runs compare the two sides' outputs bit for bit (a float sum in another order rounds apart)
        differ = {n: d for n, d in bits.items() if any(d.values())}
        print(f"\noutputs the same bits as Triton's: {len(bits) - len(differ)} of {len(bits)} kernels" + (
            "; differ: " + ", ".join(f"{n} ({', '.join(f'{o} {k}' for o, k in d.items() if k)})"
                                     for n, d in differ.items()) if differ else ""))


if __name__ == "__main__":
    sys.exit(main())
