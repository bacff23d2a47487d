"""Compile time against module size: generated kernels of about 1k to 50k ops through every stage, with the
growth exponent of each stage's time (time ~ ops^k; k near 1 is linear).

    python bench/module_size.py [--blocks 100,300,1000,3000,6000] [--json OUT] [--cpu] [--profile STAGE --blocks N]

`kernel_source(blocks)` writes a Triton kernel whose body repeats a block of loads, elementwise arithmetic, selects
and a masked store `blocks` times, each block with its own offsets and constants so that no pass folds it away;
the op count is that of the module after `-make-ttgir`. The stages are timed in one process, each from the
previous stage's module (as `ttc.compile` runs them): frontend, make-ttir, make-ttgir, LLVM IR (our lowering to
LLVM IR text, before llvmlite parses and optimizes it), then llvmlite's parse + O3 and the PTX back end.
`--cpu` times each stage by the process's CPU time, not the wall clock (on a machine shared with other work the
wall clock counts the waits for a core). `--profile STAGE` runs cProfile over one stage and prints the top
functions by cumulative time. The garbage collector runs with the commands' threshold
(ttc.driver.cli.GC_THRESHOLD).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import sys
import tempfile
import time

BLOCK = """\
    x{k} = tl.load(X + offs + {k}, mask=mask, other=0.0)
    a = a * x{k} + {c}
    b = tl.where(a > b, a - {c}, b * x{k})
    a = tl.maximum(a, b) - x{k} * {c}
    tl.store(Z + offs + {k}, a + b, mask=mask)
"""


def kernel_source(blocks: int) -> str:
    body = "".join(BLOCK.format(k=k, c=f"{1.0 + (k % 997) / 1024:.6f}") for k in range(blocks))
    return ("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
            "def big_kernel(X, Z, n, BLOCK: tl.constexpr):\n"
            "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
            "    mask = offs < n\n"
            "    a = tl.load(X + offs, mask=mask, other=0.0)\n"
            "    b = a * 0.5\n" + body)


SIGNATURE = "*fp32:16,*fp32:16,i32,256"


def count_ops(module) -> int:
    return sum(1 for _ in module.walk())


def run_stages(path: str, profile: str | None = None, clock=time.perf_counter) -> dict:
    """Seconds per stage, and the op count after make-ttgir, for the kernel in `path`."""
    import cProfile
    import pstats

    from ttc.ir.diagnostics import Source
    from ttc.frontend.driver import compile_file
    from ttc.ir.dialects import context
    from ttc.lowering import pipeline, target
    from ttc.lowering.translate import lower_module
    from ttc.opt.passmanager import PassManager, make_pass

    times: dict = {}
    state: dict = {}

    def timed(name, fn):
        prof = cProfile.Profile() if profile == name else None
        t0 = clock()
        if prof:
            prof.enable()
        result = fn()
        if prof:
            prof.disable()
        times[name] = clock() - t0
        if prof:
            pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(40)
        return result

    module = timed("frontend", lambda: compile_file(path, "big_kernel", SIGNATURE))
    timed("make-ttir", lambda: PassManager([make_pass("make-ttir")]).run(module, context()))
    timed("make-ttgir", lambda: PassManager([make_pass("make-ttgir", "target=cuda:90 num-warps=4")]).run(module, context()))
    state["ops"] = count_ops(module)
    tm = target.target_machine("sm_90", target.resolve_ptx_version("sm_90", None))
    source = Source.of(path, "")
    lowered = timed("llvm-ir", lambda: lower_module(module, source=source, data_layout=target.data_layout(tm),
                                                    target="cuda:90", source_hash="0"))

    def optimize():
        mod = target.llvm().parse_assembly(lowered.llvm_ir)
        target.optimize(mod, tm, lowered.largest_block)
        return mod

    mod = timed("llvm-o3", optimize)
    timed("ptx", lambda: target.emit_ptx(mod, tm))
    return {"ops": state["ops"], **{k: round(v, 4) for k, v in times.items()}}


def exponent(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(time) against log(ops)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(t, 1e-6)) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", default="100,300,1000,3000,6000", help="comma-separated block counts")
    ap.add_argument("--json", help="write the rows and exponents as JSON here")
    ap.add_argument("--cpu", action="store_true", help="time by the process's CPU time, not the wall clock")
    ap.add_argument("--profile", help="cProfile this stage (frontend, make-ttir, make-ttgir, llvm-ir, llvm-o3, ptx)")
    args = ap.parse_args()
    from ttc.driver.cli import GC_THRESHOLD

    gc.set_threshold(GC_THRESHOLD)  # as every command runs (ttc.driver.cli.run)
    rows = []
    with tempfile.TemporaryDirectory(prefix="ttc-module-size-") as tmp:
        for blocks in (int(b) for b in args.blocks.split(",")):
            path = os.path.join(tmp, f"big_{blocks}.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(kernel_source(blocks))
            clock = time.process_time if args.cpu else time.perf_counter
            row = {"blocks": blocks, **run_stages(path, args.profile, clock)}
            rows.append(row)
            print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    stages = [k for k in rows[0] if k not in ("blocks", "ops")]
    exps = {s: round(exponent([(r["ops"], r[s]) for r in rows]), 2) for s in stages} if len(rows) > 1 else {}
    if exps:
        print("growth exponent (time ~ ops^k): " + ", ".join(f"{s} {k}" for s, k in exps.items()))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": rows, "exponents": exps}, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
