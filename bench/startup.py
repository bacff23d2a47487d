"""Start-up benchmark: wall and CPU time of `tt-opt` in fresh processes (issue 23's targets).

    python bench/startup.py [--runs N] [--json OUT] [--compare OTHER_TT_OPT]

Cases, each run N times in fresh processes, interleaved (so a load change on a shared machine hits all alike),
after one uncounted run that warms the file cache:
    version   `tt-opt --version`                                        target <= 0.10 s
    cse200    `tt-opt matmul.ttir -canonicalize -cse` (a 228-line TTIR)  target <= 0.25 s
    cse       `tt-opt vector_add.ttir -cse` (the first benchmark's case) target <  0.4 s
and `python -c pass` (Python's own start-up, the floor). The median, min and max wall time and the median CPU
time (user + system: steadier than wall time on a loaded machine) are reported. `--compare` runs another
tt-opt (e.g. another checkout's `.venv/bin/tt-opt`) in the same loop.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "test" / "fixtures" / "triton"
# The output goes to stdout (the benchmark's /dev/null): `-o /dev/null` made tt-opt before cold3 rename a
# temporary file onto /dev/null, which as root replaced the device with a regular file.
CASES = {  # name -> (arguments after tt-opt, target seconds)
    "version": (["--version"], 0.10),
    "cse200": ([str(FIXTURES / "matmul.ttir"), "-canonicalize", "-cse"], 0.25),
    "cse": ([str(FIXTURES / "vector_add.ttir"), "-cse"], 0.4),
}


def timed(cmd: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--json", help="write the results as JSON here")
    ap.add_argument("--compare", help="another tt-opt executable, run in the same loop")
    args = ap.parse_args()
    exe = shutil.which("tt-opt")
    if exe is None:
        print("tt-opt is not on PATH (pip install -e .)", file=sys.stderr)
        return 1
    commands = {"python": ([sys.executable, "-c", "pass"], None)}
    for tag, tool in [("", exe)] + ([("other ", args.compare)] if args.compare else []):
        for name, (argv, target) in CASES.items():
            commands[tag + name] = ([tool, *argv], target)
    for cmd, _ in commands.values():
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)  # warm the file cache
    walls = {k: [] for k in commands}
    cpus = {k: [] for k in commands}
    for _ in range(args.runs):
        for name, (cmd, _) in commands.items():
            wall, cpu = timed(cmd)
            walls[name].append(wall)
            cpus[name].append(cpu)
    results = []
    for name, (cmd, target) in commands.items():
        w, c = walls[name], cpus[name]
        r = {"case": name, "command": " ".join(Path(cmd[0]).name if i == 0 else a for i, a in enumerate(cmd)),
             "runs": args.runs, "median_s": round(statistics.median(w), 4), "min_s": round(min(w), 4),
             "max_s": round(max(w), 4), "cpu_median_s": round(statistics.median(c), 4), "target_s": target}
        results.append(r)
        verdict = "" if target is None else f"; target <= {target} s: {'met' if r['median_s'] <= target else 'NOT met'}"
        print(f"{name:14} median {r['median_s']:.3f} s (min {r['min_s']:.3f}, max {r['max_s']:.3f}), "
              f"cpu {r['cpu_median_s']:.3f} s{verdict}")
    print(f"({args.runs} runs each, interleaved)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
