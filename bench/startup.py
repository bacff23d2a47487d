"""Start-up benchmark: median wall time of `tt-opt` on a small file (target: under 0.4 s).

    python bench/startup.py [--runs N] [--json OUT]

Runs `tt-opt test/fixtures/triton/vector_add.ttir -cse -o /dev/null` N times in fresh processes and reports
the median, min and max. Start-up (imports, dialect registration) dominates on a file this small.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INPUT = ROOT / "test" / "fixtures" / "triton" / "vector_add.ttir"
TARGET_S = 0.4


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--json", help="write the result as JSON here")
    args = ap.parse_args()
    exe = shutil.which("tt-opt")
    if exe is None:
        print("tt-opt is not on PATH (pip install -e .)", file=sys.stderr)
        return 1
    cmd = [exe, str(INPUT), "-cse", "-o", "/dev/null"]
    subprocess.run(cmd, check=True)  # warm the file cache and bytecode
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True)
        times.append(time.perf_counter() - t0)
    result = {
        "benchmark": "tt-opt start-up",
        "input": str(INPUT.relative_to(ROOT)),
        "runs": args.runs,
        "median_s": round(statistics.median(times), 4),
        "min_s": round(min(times), 4),
        "max_s": round(max(times), 4),
        "target_s": TARGET_S,
    }
    print(f"tt-opt start-up: median {result['median_s']:.3f} s (min {result['min_s']:.3f}, max {result['max_s']:.3f}, "
          f"{args.runs} runs); target < {TARGET_S} s: {'met' if result['median_s'] < TARGET_S else 'NOT met'}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
