"""Compile-time benchmark: -make-ttir plus -make-ttgir on the matmul and softmax kernels (median ms).

    python bench/pipelines.py [--runs N] [--json OUT]

Starts from our frontend's TTIR (compiled once) and times, in process, parsing it and running both pipelines,
so start-up is excluded (bench/startup.py measures that).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ("matmul", "softmax")


def main() -> int:
    from ttc.frontend.driver import compile_file
    from ttc.ir.printer import print_ir
    from ttc.ir.parser import parse
    from ttc.ir.dialects import context
    from ttc.opt.passmanager import make_pass

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--json", help="write the results as JSON here")
    args = ap.parse_args()
    results = []
    for name in KERNELS:
        spec = json.loads((ROOT / "kernels" / f"{name}.json").read_text())
        text = print_ir(compile_file(str(ROOT / "kernels" / f"{name}.py"), spec["kernel"], spec["signature"]))
        ttgir = make_pass("make-ttgir", f"target=cuda:90 num-warps={spec.get('num_warps', 4)}")
        ttir = make_pass("make-ttir")
        times = {"make-ttir": [], "make-ttgir": []}
        for _ in range(args.runs):
            module = parse(text)
            t0 = time.perf_counter()
            ttir.apply(context(), module)
            t1 = time.perf_counter()
            ttgir.apply(context(), module)
            t2 = time.perf_counter()
            times["make-ttir"].append((t1 - t0) * 1e3)
            times["make-ttgir"].append((t2 - t1) * 1e3)
        row = {"kernel": name, **{k: round(statistics.median(v), 2) for k, v in times.items()}}
        row["total"] = round(row["make-ttir"] + row["make-ttgir"], 2)
        results.append(row)
        print(f"{name:10} make-ttir {row['make-ttir']:8.2f} ms   make-ttgir {row['make-ttgir']:8.2f} ms   "
              f"total {row['total']:8.2f} ms  (median of {args.runs})")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
