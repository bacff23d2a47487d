"""The PTX of every fixture and every kernel, written to a folder, to prove a change leaves generated code alone:
run it before and after, then `diff -r BEFORE AFTER` (or `cmp` file by file).

    python bench/ptx_snapshot.py OUT [--only a,b] [--blocks]

Fixtures: each test/fixtures/triton/<name>.ttgir and <name>.nodebug.ttgir through `tt-translate --target=ptx`'s
path (`pipeline.to_llvm`, `pipeline.to_ptx`), as OUT/fixtures/<file>.ptx (all targets; a fixture that does not
compile writes its error as <file>.error). Kernels: each kernels/<k>.json spec through `ttc.compile` (no cache)
to PTX, as OUT/kernels/<k>.ptx. `--blocks` also prints each one's largest basic block (instructions) in the
LLVM IR before O3 (with the linked libraries) and after it, and `LoweredKernel.largest_block` (what
`target.optimize` bounds SLP by), the largest first.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIXTURES = ROOT / "test" / "fixtures" / "triton"
KERNELS = ROOT / "kernels"


def largest_block(mod) -> int:
    return max((sum(1 for _ in bb.instructions) for f in mod.functions for bb in f.blocks), default=0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--only", help="comma-separated fixture file stems / kernel names")
    ap.add_argument("--blocks", action="store_true", help="print the largest basic block before/after O3")
    args = ap.parse_args()
    import ttc
    from ttc.ir.diagnostics import CompileError
    from ttc.lowering import pipeline, target

    only = set(args.only.split(",")) if args.only else None
    sizes: dict[str, tuple] = {}
    current = [""]
    if args.blocks:
        optimize = target.optimize

        def measured(mod, *a, **k):
            before = largest_block(mod)
            optimize(mod, *a, **k)
            sizes[current[0]] = (before, largest_block(mod), a[1] if len(a) > 1 else "-")

        target.optimize = measured
    out = Path(args.out)
    (out / "fixtures").mkdir(parents=True, exist_ok=True)
    (out / "kernels").mkdir(parents=True, exist_ok=True)
    for path in sorted(FIXTURES.glob("*.ttgir")):
        stem = path.name[:-len(".ttgir")]
        if only and stem not in only:
            continue
        current[0] = f"fixtures/{stem}"
        try:
            mod, meta, tm = pipeline.to_llvm(path.read_text(), str(path), pipeline.Options())
            (out / "fixtures" / f"{stem}.ptx").write_text(pipeline.to_ptx(mod, meta, tm))
        except CompileError as e:
            (out / "fixtures" / f"{stem}.error").write_text(e.render() + "\n")
    for spec_path in sorted(KERNELS.glob("*.json")):
        if only and spec_path.stem not in only:
            continue
        spec = json.loads(spec_path.read_text())
        current[0] = f"kernels/{spec_path.stem}"
        source = KERNELS / spec.get("source", f"{spec_path.stem}.py")
        options = ttc.Options(num_warps=spec.get("num_warps", 4))
        result = ttc.compile(str(source), spec["kernel"], spec["signature"], options, stage="ptx", use_cache=False)
        (out / "kernels" / f"{spec_path.stem}.ptx").write_text(result.ptx)
    if args.blocks:
        print(f"{'':<56} {'pre-O3':>6} {'O3':>6} {'bound':>6}")
        for name, (before, after, bound) in sorted(sizes.items(), key=lambda kv: -kv[1][0]):
            print(f"{name:<56} {before:6d} {after:6d} {bound:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
