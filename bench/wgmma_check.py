"""Triton's own sm_90 TTGIR (wgmma, nvmma_shared buffers, cp.async pipelines) through our back end, checked
against NumPy: every `cuda:90` dot fixture in test/fixtures/triton (matmul*, block_ptr_matmul*, attention*).

For each fixture a spec is made from its kernel's spec in kernels/ with the fixture's signature, num_warps and
block sizes (grid, tensor shapes and strides follow), at sizes that leave partial tiles. Then

    --interpret   tt-run FIXTURE.ttgir --interpret --check          (no GPU: what the TTGIR means)
    (default)     tt-translate --target=ptx, tt-as, tt-run X.cubin --check   (on the GPU)

    python3 bench/wgmma_check.py [--interpret] [--only matmul,attention] [--out DIR]

Prints one line per fixture (wgmma count in the PTX, registers and spills from tt-run's report); exits 1 if
any failed.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "test" / "fixtures" / "triton"


def dot_fixtures() -> list[str]:
    manifest = json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"]
    return sorted(k for k, m in manifest.items()
                  if m["target"].startswith("cuda:90") and ("matmul" in k or "attention" in k))


def spec_for(name: str) -> dict:
    m = json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"][name]
    base = Path(m["source"]).stem
    spec = json.loads((ROOT / "kernels" / f"{base}.json").read_text())
    sig = m["signature"].split(",")
    spec["signature"], spec["num_warps"] = m["signature"], m["num_warps"]
    if base == "matmul_acc":  # the accumulator in C's type: the dtype's spec (test/lit/tt-translate/Inputs)
        variant = ({"1": "matmul_acc_e4m3", "2": "matmul_acc_e5m2"}.get(sig[-1])
                   or {"*fp32": "matmul_acc_tf32", "*fp16": "matmul_acc_f16acc"}.get(sig[0].split(":")[0]))
        if variant:
            spec = json.loads((ROOT / "test" / "lit" / "tt-translate" / "Inputs" / f"{variant}.json").read_text())
        spec["signature"], spec["num_warps"] = m["signature"], m["num_warps"]
        spec["grid"] = [f"cdiv(M, {sig[-4]})", f"cdiv(N, {sig[-3]})", 1]
        return spec
    args = {a["name"]: a for a in spec["args"]}
    if base == "attention":
        head_dim, block_m = int(sig[-3]), int(sig[-2])
        spec["grid"] = [f"cdiv(seq_len, {block_m})", 1, 1]
        for t in "qkv":
            args[t]["shape"][1] = head_dim
        args["out"]["shape"][1] = head_dim
        for s in ("stride_qm", "stride_kn", "stride_vn", "stride_om"):
            args[s]["value"] = head_dim
    else:
        bm, bn = int(sig[-4]), int(sig[-3])
        spec["grid"] = [f"cdiv(M, {bm}) * cdiv(N, {bn})", 1, 1]
        M, N, K = 2 * bm + 8, 2 * bn - 16, 160
        args["a"]["shape"], args["b"]["shape"], args["c"]["shape"] = [M, K], [K, N], [M, N]
        for k, v in {"M": M, "N": N, "K": K, "stride_am": K, "stride_bk": N, "stride_cm": N}.items():
            args[k]["value"] = v
        if sig[0].startswith("*fp32"):
            args["a"]["type"] = args["b"]["type"] = "*fp32"
            spec["check"]["tolerance"] = {"rtol": 0.02, "atol": 0.1}  # tf32 inputs
    return spec


def run(cmd, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--interpret", action="store_true")
    p.add_argument("--only", default="")
    p.add_argument("--out", default=None)
    opts = p.parse_args(argv)
    out = Path(opts.out or tempfile.mkdtemp(prefix="wgmma_"))
    out.mkdir(parents=True, exist_ok=True)
    names = [n for n in dot_fixtures() if not opts.only or n in opts.only.split(",")]
    failed = []
    for name in names:
        ttgir = FIXTURES / f"{name}.nodebug.ttgir"
        spec = out / f"{name}.json"
        spec.write_text(json.dumps(spec_for(name), indent=2))
        info = ""
        if opts.interpret:
            r = run(["tt-run", str(ttgir), "--spec", str(spec), "--interpret", "--check"])
        else:
            ptx, cubin = out / f"{name}.ptx", out / f"{name}.cubin"
            r = run(["tt-translate", str(ttgir), "--target=ptx", "-o", str(ptx)])
            if r.returncode == 0:
                r = run(["tt-as", str(ptx), "-o", str(cubin)])
            if r.returncode == 0:
                info = f"{len(re.findall(r'wgmma.mma_async', ptx.read_text()))} wgmma; "
                r = run(["tt-run", str(cubin), "--spec", str(spec), "--check", "--bench", "--json"])
                try:
                    rep = json.loads(r.stdout)
                    b = rep.get("bench") or {}
                    info += f"{b.get('median_ms')} ms, {b.get('n_regs')} regs, {b.get('spill_bytes')} B spilled; "
                except ValueError:
                    pass
        ok = r.returncode == 0
        if not ok:
            failed.append(name)
        tail = (r.stdout + r.stderr).strip().splitlines()
        print(f"{name}: {'ok' if ok else 'FAILED'}: {info}{' | '.join(tail[-3:]) if not ok else ''}", flush=True)
    print(f"{len(names) - len(failed)} of {len(names)} passed" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
