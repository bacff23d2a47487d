"""tt-run: launch a kernel as a JSON spec describes, on the CPU interpreter or on a GPU, and check its outputs.

    tt-run KERNEL --spec spec.json [--out-dir D] [--check] [--bench [--warmup N --rep N]] [--json] [--interpret]
    tt-run KERNEL --against OTHER --spec spec.json [--check] [--bench ...] [--json]

With --interpret, KERNEL is TTIR or TTGIR (.ttir, .ttgir, .mlir) executed with NumPy; otherwise it is a .cubin
or .ptx launched through the CUDA driver (needs cuda-python: pip install 'ttc[gpu]'). --against OTHER runs a
second binary of the same kernel (another compiler's, with its `.json` metadata beside it, or a hand-edited
PTX) on its own copy of the arguments: --check checks both, and says for each checked output whether OTHER's
is KERNEL's bit for bit (a float sum in another order rounds differently); --bench times both in one sequence
with their launches interleaved, so that a difference of a few percent is not the GPU's clocks or power state
changing between two runs; the report ends with OTHER's time over KERNEL's. Errors are one line
(`spec.json: error: args[2].type: ...`, `file:line:col: error: out-of-bounds load ...`) and exit 1.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

from ttc.driver.cli import ArgumentParser, UsageError, end, int_range, run, write_output

IR_SUFFIXES = (".ttir", ".ttgir", ".mlir")
BINARY_SUFFIXES = (".cubin", ".ptx")


def _outputs_to_write(spec, out_dir: str | None) -> dict:
    """Pointer argument name -> path of the .npy to write. Arguments with "output" always; with --out-dir,
    also the checked ones (every pointer argument when the spec names none) as D/<name>.npy."""
    named = {a.name for a in spec.args + spec.buffers if a.is_ptr and (a.output or a.name in spec.checks)}
    if not named:
        named = {a.name for a in spec.args if a.is_ptr}
    paths = {}
    for a in spec.args + spec.buffers:
        if not a.is_ptr:
            continue
        if a.output:
            paths[a.name] = Path(out_dir) / a.output if out_dir else spec.path.parent / a.output
        elif out_dir and a.name in named:
            paths[a.name] = Path(out_dir) / f"{a.name}.npy"
    return paths


def _save(path: Path, array) -> None:
    import numpy as np

    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    try:
        os.makedirs(path.parent, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create '{path.parent}': {e.strerror}") from None
    write_output(str(path), buf.getvalue())


def _bench_line(b: dict) -> str:
    queued = "" if b.get("queued", True) else " (NOT queued: the host's launch cost is in the events)"
    return (f"bench: median {b['median_ms']:.4f} ms over {b['rep']} launches{queued}, "
            f"{b['batch_ms']:.4f} ms each back to back, {b['gbps']:.1f} GB/s "
            f"({b['bytes']} bytes of pointer arguments); {b['n_regs']} registers per thread, "
            f"{b['spill_bytes']} bytes of local memory, {b['blocks_per_sm']} blocks per SM")


def _ratios(kernel: dict, other: dict) -> dict:
    """OTHER's time over KERNEL's, by median and back to back (> 1: KERNEL is faster)."""
    return {k: other[f"{k}_ms"] / kernel[f"{k}_ms"] if kernel[f"{k}_ms"] > 0 else 0.0 for k in ("median", "batch")}


def _parser() -> ArgumentParser:
    p = ArgumentParser(prog="tt-run",
                       description="Launch KERNEL as the JSON spec describes; check and save its outputs.")
    p.add_argument("kernel", metavar="KERNEL", help=".ttir/.ttgir/.mlir (with --interpret), or .cubin/.ptx")
    p.add_argument("--spec", metavar="SPEC", required=True, help="The launch spec (JSON): args, grid, checks.")
    p.add_argument("--out-dir", metavar="DIR", help="Write the outputs (checked or 'output' args) as DIR/<name>.npy.")
    p.add_argument("--check", action="store_true", help="Compare outputs with the spec's checks; exit 1 on a mismatch.")
    p.add_argument("--bench", action="store_true", help="Time the launch with CUDA events (GPU only).")
    p.add_argument("--warmup", metavar="N", type=int_range(0),
                   help="Untimed launches before timing, and at least 50 ms of them [10].")
    p.add_argument("--rep", metavar="N", type=int_range(1), help="Timed launches [100].")
    p.add_argument("--against", metavar="OTHER", help="Another .cubin/.ptx of the kernel, run and timed beside it.")
    p.add_argument("--json", dest="json_out", action="store_true", help="Print the result as JSON.")
    p.add_argument("--interpret", action="store_true", help="Execute TTIR/TTGIR on the CPU with NumPy.")
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    kernel, spec, out_dir, check, bench = args.kernel, args.spec, args.out_dir, args.check, args.bench
    warmup, rep, json_out, interpret, against = args.warmup, args.rep, args.json_out, args.interpret, args.against

    import numpy as np

    from ttc.runtime import check as checks
    from ttc.runtime import spec as specs
    from ttc.runtime.errors import SpecError

    if (warmup is not None or rep is not None) and not bench:
        raise UsageError("--warmup and --rep go with --bench")
    suffix = Path(kernel).suffix
    if interpret:
        if suffix not in IR_SUFFIXES:
            raise UsageError(f"--interpret runs TTIR/TTGIR ({', '.join(IR_SUFFIXES)}), not '{kernel}'")
        if bench:
            raise UsageError("--bench times GPU launches; it does not go with --interpret")
        if against:
            raise UsageError("--against runs a second GPU binary; it does not go with --interpret")
    elif suffix in IR_SUFFIXES:
        raise UsageError(f"'{kernel}' is IR: pass --interpret to run it on the CPU")
    elif suffix not in BINARY_SUFFIXES:
        raise UsageError(f"'{kernel}' is neither IR ({', '.join(IR_SUFFIXES)}) nor a GPU binary (.cubin, .ptx)")
    for path in [kernel] + ([against] if against else []):
        if not os.path.isfile(path):
            raise UsageError(f"could not open input file '{path}': No such file or directory")
    if against and Path(against).suffix not in BINARY_SUFFIXES:
        raise UsageError(f"--against takes a GPU binary (.cubin, .ptx), not '{against}'")

    the_spec = specs.load(spec)
    printed = sys.stderr if json_out else sys.stdout  # device prints stay out of the JSON
    try:
        initial = specs.initial_values(the_spec)
        with np.errstate(all="ignore"):
            if interpret:
                from ttc.runtime.launch import interpret as launch

                outcome, other = launch(kernel, the_spec, initial, printed), None
            else:
                from ttc.runtime.cuda import launch_all

                outcomes = launch_all([kernel] + ([against] if against else []), the_spec, initial, bench=bench,
                                      warmup=10 if warmup is None else warmup, rep=100 if rep is None else rep)
                outcome, other = outcomes[0], outcomes[1] if against else None
            results = checks.run_checks(the_spec, initial, outcome.outputs) if check else []
            other_results = checks.run_checks(the_spec, initial, other.outputs) if check and other else []
    except SpecError as e:
        raise specs.diagnostic(the_spec.path, e) from None

    written = {}
    for name, path in _outputs_to_write(the_spec, out_dir).items():
        _save(path, outcome.outputs[name])
        written[name] = str(path)
    ok = all(r.ok for r in results + other_results)
    grid = outcome.grid
    mode = "interpret" if interpret else "cuda"
    if json_out:
        report = {
            "kernel": outcome.kernel, "file": kernel, "mode": mode, "grid": list(grid),
            "seconds": outcome.seconds, "launch_pdl": outcome.launch_pdl,
            "outputs": {n: {"shape": list(v.shape), "dtype": str(v.dtype), "file": written.get(n)}
                        for n, v in outcome.outputs.items()},
            "ok": ok,
        }
        if check:
            report["check"] = {r.name: r.as_dict() for r in results}
        if outcome.bench is not None:
            report["bench"] = outcome.bench
        if other is not None:
            report["against"] = {"file": against, "kernel": other.kernel, "seconds": other.seconds,
                                 "ok": all(r.ok for r in other_results)}
            if check:
                report["against"]["check"] = {r.name: r.as_dict() for r in other_results}
                report["against"]["bit_differences"] = {
                    r.name: checks.bit_differences(outcome.outputs[r.name], other.outputs[r.name])[0]
                    for r in other_results}
            if other.bench is not None:
                report["against"]["bench"] = other.bench
                report["against"]["ratio"] = _ratios(outcome.bench, other.bench)
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        how = "interpreted" if interpret else "ran on the GPU"
        how += " with programmatic dependent launch" if outcome.launch_pdl else ""
        lines = [f"{outcome.kernel}: grid ({', '.join(map(str, grid))}), {how} in {outcome.seconds * 1e3:.3f} ms"]
        lines += [r.text() for r in results]
        if outcome.bench is not None:
            lines.append(_bench_line(outcome.bench))
        if other is not None:
            lines.append(f"against {against}: {other.kernel} ran in {other.seconds * 1e3:.3f} ms")
            lines += [r.text() for r in other_results]
            lines += [checks.same_bits_text(r.name, outcome.outputs[r.name], other.outputs[r.name], kernel)
                      for r in other_results]
            if other.bench is not None:
                r = _ratios(outcome.bench, other.bench)
                lines.append(_bench_line(other.bench))
                lines.append(f"time {against} / {kernel}: median {r['median']:.3f}, back to back {r['batch']:.3f} "
                             f"(> 1: {kernel} is faster)")
        lines += [f"wrote {p}" for p in written.values()]
        sys.stdout.write("\n".join(lines) + "\n")
    return 0 if ok else 1


def entry() -> None:
    end(run("tt-run", main))


if __name__ == "__main__":
    entry()
