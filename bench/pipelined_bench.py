"""Software pipelining on the GPU: matmul 4096^3 fp16 in 128x128x64 tiles, 4 warps, three ways.

- `triton-sm80-ttgir`: Triton's own pipelined TTGIR for sm80 (test/fixtures/triton/matmul_128x128x64_s3_w4_sm80,
  num_stages=3: cp.async into 2-stage swizzled buffers, ldmatrix, mma.sync) through our back end
  (`tt-translate --sm 90`, `tt-as`);
- `ours`: kernels/matmul.py through our six commands at the same tile (make-ttgir's tritongpu-pipeline,
  num-stages=3);
- `triton`: the installed Triton compiling kernels/matmul.py at the same tile, num_stages=3 (on sm_90: wgmma).

Each of ours is checked against NumPy and timed with `tt-run --check --bench --json` (the registers, spills and
blocks per SM come from its report); Triton with CUDA events, as bench/gpu_bench.py does.

    python3 bench/pipelined_bench.py [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import gpu_bench as gb  # bench/ is on sys.path: these scripts run as python3 bench/NAME.py

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "test" / "fixtures" / "triton" / "matmul_128x128x64_s3_w4_sm80.nodebug.ttgir"
TILE = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", default=None, help="where to write the results (default $OUT/pipelined.json)")
    opts = p.parse_args(argv)
    d = dict(gb.bench_kernels()["matmul"])
    M, N = d["args"][0]["shape"][0], d["args"][1]["shape"][1]
    d["constexprs"] = TILE
    d["grid"] = [(M // 128) * (N // 128), 1, 1]
    d["spec"] = dict(d["spec"], grid=d["grid"], signature=gb._sig(d["args"], TILE))
    work = Path(tempfile.mkdtemp(prefix="pipelined_"))
    results = {}

    fixture_spec = dict(d["spec"], signature="*fp16:16,*fp16:16,*fp16:16,i32,i32:16,i32:16,i32:16,i32:1,i32:16,"
                                             "i32:1,i32:16,i32:1,128,128,64,8")
    (work / "fixture.json").write_text(json.dumps(fixture_spec))
    gb.run_checked(["tt-translate", str(FIXTURE), "--target=ptx", "--sm", "90", "-o", str(work / "fixture.ptx")])
    gb.run_checked(["tt-as", str(work / "fixture.ptx"), "-o", str(work / "fixture.cubin")])
    results["triton-sm80-ttgir"] = gb.run_ours(str(work / "fixture.cubin"), work / "fixture.json")

    (work / "ours.json").write_text(json.dumps(d["spec"]))
    compiled = gb.compile_ours("matmul", d, work)
    results["ours"] = gb.run_ours(compiled["cubin"], work / "ours.json")

    results["triton"] = gb.triton_bench("matmul", d)
    results["triton"].pop("ptx", None)

    flops = d["flops"]
    print("| kernel (4096^3 fp16, 128x128x64, 4 warps) | check | median ms | TFLOP/s | regs | spills | blocks/SM |")
    print("|---|---|---|---|---|---|---|")
    for name, r in results.items():
        if name == "triton":
            ms, ok, regs, spills, blocks = r["events"]["median_ms"], "-", r.get("n_regs"), r.get("n_spills"), "-"
        else:
            b = r.get("bench") or {}
            ms, ok = b.get("median_ms"), r.get("ok")
            regs, spills, blocks = b.get("n_regs"), b.get("spill_bytes"), b.get("blocks_per_sm")
            if ms is None:
                print(f"| {name} | FAILED: {r.get('error') or r.get('stderr')} |")
                continue
        print(f"| {name} | {ok} | {ms:.4f} | {flops / (ms * 1e-3) / 1e12:.1f} | {regs} | {spills} | {blocks} |")
    out = opts.json or (os.path.join(os.environ["OUT"], "pipelined.json") if os.environ.get("OUT") else None)
    if out:
        Path(out).write_text(json.dumps(results, indent=2, default=str))
    return 0 if all(r.get("ok", True) for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
