"""Our PTX against Triton's, from the same TTGIR: every sm90 fixture (test/fixtures/triton, which covers every
kernel in kernels/), instruction counts and an instruction histogram diff.

    python bench/ptx_compare.py [--only a,b] [--diff NAME] [--json PATH]    # ours vs the checked-in Triton PTX
    python bench/ptx_compare.py --regs [--ptxas PATH] [--only a,b]          # registers/spills, same ptxas for both
    python bench/ptx_compare.py --libdevice .../triton/backends/nvidia/lib/libdevice.10.bc ...  # same libdevice too
    /tmp/tritonvenv/bin/python bench/ptx_compare.py --oracle [--only a,b]   # (re)make Triton's PTX (Triton 3.6.0)

The oracle compiles each fixture's `<name>.nodebug.ttgir` with Triton's own back end (`triton.compile` on the
TTGIR file: its make_llir, make_ptx for GPUTarget("cuda", 90, 32); no GPU needed) and writes
test/fixtures/triton_ptx/<name>.ptx. Ours is `tt-translate --target=ptx` of the same file, in process.
An instruction is a statement of a function body (inline asm included): a line ending in `;` that is not a
directive (`.reg`, `.loc`, ...); its key in the histogram is the mnemonic without its predicate guard
(`ld.global.v4.b32`). test/unit/test_ptx_quality.py holds our count to 1.03x Triton's.

--regs assembles both PTX files with one ptxas (`--ptxas`, else the one on PATH) as Triton's make_cubin does
(`-lineinfo -v --gpu-name=sm_90a`; ours assembles the same way but for -lineinfo, which changes no register count)
and prints each kernel's registers and spill bytes (stores + loads), flagging ours over Triton's + 2.

--libdevice links ours with that libdevice.10.bc (as TTC_LIBDEVICE_PATH does) instead of the one found on this
machine (the CUDA toolkit's): with Triton's bundled copy both PTX come from the same math library, so a kernel
calling `__nv_*` functions compares the two lowerings and not two libdevice builds (CUDA 13's `__nv_tanhf`, for
one, has no |x| >= 0.6 branch, which changes what O3 makes of libdevice_mod).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "test" / "fixtures" / "triton"
TRITON_PTX = ROOT / "test" / "fixtures" / "triton_ptx"
LIMIT = 1.03

_STATEMENT = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.:]*)[^;]*;\s*$")
_BUTTERFLY = re.compile(r"shfl\.sync\.bfly\.b32\s+%r\d+,\s*%r\d+,\s*(\d+),")


def sm90_fixtures() -> list[str]:
    manifest = json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"]
    return sorted(k for k, v in manifest.items() if v.get("target", "cuda:90:32").split(":")[1] == "90")


def histogram(ptx: str) -> collections.Counter:
    """Mnemonic -> count over the PTX's function bodies."""
    counts = collections.Counter()
    for line in ptx.splitlines():
        line = line.split("//", 1)[0]
        m = _STATEMENT.match(line)
        if m:
            counts[m.group(1)] += 1
    return counts


def ours(name: str) -> str:
    from ttc.lowering import pipeline

    path = FIXTURES / f"{name}.nodebug.ttgir"
    mod, meta, tm = pipeline.to_llvm(path.read_text(), str(path), pipeline.Options())
    return pipeline.to_ptx(pipeline.target.llvm().parse_assembly(str(mod)), meta, tm)


def theirs(name: str) -> str:
    return (TRITON_PTX / f"{name}.ptx").read_text()


def butterflies(ptx: str) -> list[int]:
    """The lane distances of the PTX's `shfl.sync.bfly` shuffles, in order: a float reduction's rounding."""
    return [int(d) for d in _BUTTERFLY.findall(ptx)]


def compare(name: str) -> dict:
    p_a, p_b = ours(name), theirs(name)
    a, b = histogram(p_a), histogram(p_b)
    n_a, n_b = sum(a.values()), sum(b.values())
    return {"ours": n_a, "triton": n_b, "ratio": round(n_a / n_b, 4), "ours_hist": dict(a), "triton_hist": dict(b),
            "ours_bfly": butterflies(p_a), "triton_bfly": butterflies(p_b)}


def diff_lines(r: dict, top: int = 15) -> list[str]:
    a, b = collections.Counter(r["ours_hist"]), collections.Counter(r["triton_hist"])
    keys = sorted(set(a) | set(b), key=lambda k: (-abs(a[k] - b[k]), k))
    return [f"  {a[k] - b[k]:+5d}  {k:<40} ours {a[k]:5d}  triton {b[k]:5d}" for k in keys[:top] if a[k] != b[k]]


REG_SLACK = 2
_PTXAS_INFO = re.compile(r"Used (\d+) registers")
_SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


def ptxas_usage(ptx: str, ptxas: str) -> tuple[int, int]:
    """(registers, spill store + load bytes) of the PTX's kernel, from `ptxas -v`."""
    with tempfile.TemporaryDirectory(prefix="ptx-regs-") as tmp:
        src = Path(tmp) / "k.ptx"
        src.write_text(ptx)
        proc = subprocess.run([ptxas, "-lineinfo", "-v", "--gpu-name=sm_90a", str(src), "-o", str(src) + ".o"],
                              capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    if proc.returncode != 0 or not _PTXAS_INFO.search(log):
        raise RuntimeError(f"ptxas failed: {log.strip()[:300]}")
    spill = _SPILL.search(log)
    return int(_PTXAS_INFO.search(log).group(1)), int(spill.group(1)) + int(spill.group(2)) if spill else 0


def regs(names: list[str], ptxas: str, results: dict) -> int:
    """Registers and spills of ours vs Triton's per fixture; returns how many are over Triton's + REG_SLACK."""
    print(f"{'fixture':<36} {'regs':>5} {'triton':>6} {'spill':>6} {'triton':>6}")
    over = []
    for name in names:
        try:
            (ra, sa), (rb, sb) = ptxas_usage(ours(name), ptxas), ptxas_usage(theirs(name), ptxas)
        except Exception as e:
            results[name] = {"error": str(e).splitlines()[0]}
            print(f"{name:<36} error: {results[name]['error']}")
            over.append(name)
            continue
        results[name] = {"regs": ra, "triton_regs": rb, "spill": sa, "triton_spill": sb}
        flag = "  > +2" if ra > rb + REG_SLACK or sa > sb else ""
        over += [name] if flag else []
        print(f"{name:<36} {ra:5d} {rb:6d} {sa:6d} {sb:6d}{flag}")
    print(f"{len(names) - len(over)} of {len(names)} within Triton's + {REG_SLACK} registers (no more spills); "
          f"over: {', '.join(over) or 'none'}")
    return len(over)


def oracle(names: list[str]) -> int:
    import triton
    from triton.backends.compiler import GPUTarget

    assert triton.__version__ == "3.6.0", f"the oracle is Triton 3.6.0, not {triton.__version__}"
    TRITON_PTX.mkdir(exist_ok=True)
    for name in names:
        k = triton.compile(str(FIXTURES / f"{name}.nodebug.ttgir"), target=GPUTarget("cuda", 90, 32))
        # the `.file` Triton names after the TTGIR it parsed: repository-relative, as every fixture's paths are
        (TRITON_PTX / f"{name}.ptx").write_text(k.asm["ptx"].replace(str(ROOT) + "/", ""))
        print(f"wrote {name}.ptx", file=sys.stderr)
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--oracle", action="store_true", help="write Triton's PTX (run with Triton 3.6.0 installed)")
    p.add_argument("--only", default=None, help="comma-separated fixture names")
    p.add_argument("--diff", default=None, help="print the histogram diff of these fixtures (comma-separated; 'all')")
    p.add_argument("--json", default=None, help="write every result here")
    p.add_argument("--regs", action="store_true", help="registers and spills of both with the same ptxas")
    p.add_argument("--libdevice", default=None, help="link ours with this libdevice.10.bc (e.g. Triton's copy)")
    p.add_argument("--ptxas", default=None, help="the ptxas for --regs (default: the one on PATH)")
    opts = p.parse_args(argv)
    names = opts.only.split(",") if opts.only else sm90_fixtures()
    if opts.oracle:
        return oracle(names)
    sys.path.insert(0, str(ROOT))
    if opts.libdevice:
        if not Path(opts.libdevice).is_file():
            print(f"error: --libdevice: no file {opts.libdevice}", file=sys.stderr)
            return 1
        os.environ["TTC_LIBDEVICE_PATH"] = opts.libdevice
    results, worse = {}, 0
    if opts.regs:
        ptxas = opts.ptxas or shutil.which("ptxas")
        if not ptxas:
            print("error: --regs needs a ptxas (none on PATH; pass --ptxas)", file=sys.stderr)
            return 1
        regs(names, ptxas, results)
        if opts.json:
            Path(opts.json).write_text(json.dumps(results, indent=1, sort_keys=True))
        return 0
    want_diff = set(names) if opts.diff == "all" else set((opts.diff or "").split(","))
    print(f"{'fixture':<36} {'ours':>6} {'triton':>6} {'ratio':>6}")
    for name in names:
        try:
            r = results[name] = compare(name)
        except Exception as e:  # a fixture we cannot lower: reported, counted as over the limit
            results[name] = {"error": str(e).splitlines()[0]}
            print(f"{name:<36} error: {results[name]['error']}")
            worse += 1
            continue
        flag = "" if r["ratio"] <= LIMIT else "  > 1.03"
        worse += bool(flag)
        print(f"{name:<36} {r['ours']:6d} {r['triton']:6d} {r['ratio']:6.3f}{flag}")
        if name in want_diff:
            print("\n".join(diff_lines(r)))
    total_a = sum(r.get("ours", 0) for r in results.values())
    total_b = sum(r.get("triton", 0) for r in results.values() if "ours" in r)
    print(f"{len(names) - worse} of {len(names)} within {LIMIT}x; total {total_a} / {total_b} = {total_a / total_b:.3f}")
    if opts.json:
        Path(opts.json).write_text(json.dumps(results, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
