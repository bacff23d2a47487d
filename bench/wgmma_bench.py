"""wgmma on the GPU: Triton's own sm_90 TTGIR through our back end against Triton, same launch, one run.

Kernels (fp16, f32 accumulation): matmul 4096^3 at 64x64x32 / 4 warps (fixture `matmul`) and at 128x128x64 /
8 warps (fixture `matmul_128x128x64_s3_w8`), both num_stages 3; attention forward L = 4096, D = 64, 128x64 blocks,
4 warps (fixture `attention`). Ours: the fixture's TTGIR (Triton's make_ttgir output for the same source and
options) through `tt-translate --target=ptx` and `tt-as`, checked against NumPy and timed by `tt-run --check
--bench --json`; Triton: the same source, constexprs, num_warps and num_stages compiled by the installed Triton
and timed with the same CUDA-event method (bench/gpu_bench.py); and Triton's back end on the same TTGIR file
(`triton.compile(FIXTURE.ttgir)`, its CUBIN launched by `tt-run --bench` with its metadata .json), which
separates our back end's share of a gap from the TTGIR's (Triton's JIT specialises the bench's sizes, e.g.
`seq_len` divisible by 16, where the fixture was compiled without). Registers and spills beside each. Our PTX
is also assembled with Triton's bundled ptxas (`tt-as --ptxas`) instead of nvJitLink, which separates the
assembler's share (register allocation decides how many CTAs fit on an SM). And the kernel's source through our
own passes (`tt-compile`, make-ttgir's MMA v3 and sm90 pipeline) at the same constexprs, warps and stages; the
bf16 64x64x32 row has no Triton fixture, so only that column and Triton's JIT are timed for it. fp8 e4m3 rows:
kernels/matmul_acc.py with FP8 = 1 (A and B are i8 buffers of fp8 codes, bitcast in the kernel; C f32), the same
source, constexprs and launch for Triton; our check reads codes of both signs (e4m3fn has no -1 byte: it is NaN)
from .npy files, Triton's side times random positive codes (tensor cores take the same time).

    python3 bench/wgmma_bench.py [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

import gpu_bench as gb  # bench/ is on sys.path: these scripts run as python3 bench/NAME.py

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "test" / "fixtures" / "triton"


def triton_backend(ttgir: Path, spec: Path, work: Path) -> dict:
    """Triton compiles the TTGIR file itself (cuda:90); its CUBIN runs through tt-run like ours."""
    import triton
    from triton.backends.compiler import GPUTarget

    os.environ["TRITON_CACHE_DIR"] = str(work / "triton-cache")
    k = triton.compile(str(ttgir), target=GPUTarget("cuda", 90, 32))
    cubin = work / f"{ttgir.stem}.triton.cubin"
    save_triton_cubin(k, cubin)
    return gb.run_ours(str(cubin), spec)


def save_triton_cubin(k, cubin: Path) -> None:
    """A Triton CompiledKernel (cuda:90) as tt-run launches it: the CUBIN, and its metadata as CUBIN.json."""
    cubin.write_bytes(k.asm["cubin"])
    meta = dict(k.metadata._asdict())
    meta["target"] = {"backend": "cuda", "arch": 90, "warp_size": 32}
    Path(str(cubin) + ".json").write_text(json.dumps(meta, default=str))


def triton_ptxas() -> str:
    """The ptxas that Triton ships (and compiles with)."""
    import triton

    return str(Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "ptxas")


def configs() -> list[tuple[str, str, str, dict]]:
    """(label, fixture, kernel module, launch description as gpu_bench's)."""
    out = []
    mm = gb.bench_kernels()["matmul"]
    M, N = mm["args"][0]["shape"][0], mm["args"][1]["shape"][1]
    for dtype, fixture, (bm, bn, bk), warps in (
            ("fp16", "matmul", (64, 64, 32), 4), ("fp16", "matmul_128x128x64_s3_w8", (128, 128, 64), 8),
            ("bf16", None, (64, 64, 32), 4), ("bf16", "matmul_bf16_128x128x64_s3_w8", (128, 128, 64), 8)):
        args = [dict(a, type=f"*{dtype}") if a["name"] in ("a", "b") else a for a in mm["args"]]
        cx = {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8}
        d = dict(mm, args=args, constexprs=cx, num_warps=warps, grid=[(M // bm) * (N // bn), 1, 1])
        d["spec"] = dict(mm["spec"], args=args, grid=d["grid"], num_warps=warps, signature=gb._sig(args, cx))
        out.append((f"matmul 4096^3 {dtype} {bm}x{bn}x{bk} w{warps}", fixture, "matmul", d))
    for fixture, (bm, bn, bk), warps in (("matmul_acc_e4m3", (64, 64, 32), 4),
                                         ("matmul_acc_e4m3_128x128x64_s3_w8", (128, 128, 64), 8)):
        out.append((f"matmul 4096^3 fp8 e4m3 {bm}x{bn}x{bk} w{warps}", fixture, "matmul_acc",
                    e4m3_matmul(M, N, mm["args"][0]["shape"][1], (bm, bn, bk), warps)))
    L, D = 4096, 64
    args = [gb._ptr(n, "fp16", [L, D], "zeros" if n == "out" else "randn") for n in ("q", "k", "v", "out")]
    args += [{"name": "sm_scale", "type": "fp32", "value": 0.125}, gb._i32("seq_len", L)]
    for t in ("q", "k", "v", "o"):
        args += [gb._i32(f"stride_{t}{'n' if t in 'kv' else 'm'}", D), gb._i32(f"stride_{t}k", 1)]
    cx = {"HEAD_DIM": D, "BLOCK_M": 128, "BLOCK_N": 64}
    check = json.loads((ROOT / "kernels" / "attention.json").read_text())["check"]
    d = dict(kernel="attn_fwd_kernel", constexprs=cx, num_warps=4, grid=[L // 128, 1, 1], args=args,
             flops=4 * L * L * D, check=check)
    d["spec"] = {"kernel": d["kernel"], "signature": gb._sig(args, cx), "num_warps": 4, "grid": d["grid"],
                 "args": args, "check": check, "seed": 0}
    out.append((f"attention L={L} D={D} 128x64 w4", "attention", "attention", d))
    return out


# e4m3fn values of byte codes (bias 7, 3 mantissa bits, the sign in bit 7), as NumPy over the i8 arguments
E4M3 = ("(lambda x: (lambda u: np.where(u >> 7, -1.0, 1.0) * np.where(u & 127 < 8, (u & 7) / 8 * 2.0 ** -6, "
        "(1 + (u & 7) / 8) * 2.0 ** (((u & 127) >> 3) - 7)))(x.astype(np.uint8).astype(np.int64)))")


def e4m3_codes(shape, seed: int) -> np.ndarray:
    """fp8 e4m3 codes of magnitude 0.25 .. 3.75 (0x28 .. 0x47) and random sign, as int8."""
    rng = np.random.default_rng(seed)
    return (rng.integers(0x28, 0x48, size=shape) | (rng.integers(0, 2, size=shape) << 7)).astype(np.uint8).view(np.int8)


def e4m3_matmul(M: int, N: int, K: int, tile, warps: int) -> dict:
    """kernels/matmul_acc.py's fp8 e4m3 form (FP8 = 1) at M x N x K: the launch for Triton (random positive
    codes) and the spec for ours (signed codes from the .npy files that main writes beside it)."""
    bm, bn, bk = tile
    mats = {"a": [M, K], "b": [K, N]}
    args = [gb._ptr(n, "i8", shape, {"randint": [0x28, 0x48]}) for n, shape in mats.items()]
    args += [gb._ptr("c", "fp32", [M, N], "zeros"), gb._i32("M", M), gb._i32("N", N), gb._i32("K", K),
             gb._i32("stride_am", K), gb._i32("stride_ak", 1), gb._i32("stride_bk", N), gb._i32("stride_bn", 1),
             gb._i32("stride_cm", N), gb._i32("stride_cn", 1)]
    cx = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "FP8": 1}
    grid = [M // bm, N // bn, 1]
    # Hopper's fp8 wgmma adds its products at less than f32 precision: errors of a few units on sums of about
    # +-150 (a wrong element or tile is off by about that much)
    check = {"c": f"(lambda f: f(a) @ f(b))({E4M3})", "tolerance": {"rtol": 1e-2, "atol": 4.0}}
    spec_args = [dict(a, init={"file": f"e4m3_{a['name']}_{M}x{N}x{K}.npy"}) if a["name"] in mats else a for a in args]
    d = dict(kernel="matmul_acc_kernel", constexprs=cx, num_warps=warps, grid=grid, args=args, flops=2 * M * N * K,
             check=check, files={f"e4m3_{n}_{M}x{N}x{K}.npy": (shape, i) for i, (n, shape) in enumerate(mats.items())})
    d["spec"] = {"kernel": d["kernel"], "signature": gb._sig(args, cx), "num_warps": warps, "grid": grid,
                 "args": spec_args, "check": check, "seed": 0}
    return d


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", default=None, help="where to write the results (default $OUT/wgmma.json)")
    opts = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="wgmma_bench_"))
    rows, results = [], {}
    for i, (label, fixture, module, d) in enumerate(configs()):
        stem = fixture or f"config{i}"
        spec = work / f"{stem}.json"
        spec.write_text(json.dumps(d["spec"]))
        for name, (shape, seed) in d.get("files", {}).items():
            if not (work / name).exists():
                np.save(work / name, e4m3_codes(shape, seed))
        ptx, cubin = work / f"{stem}.ptx", work / f"{stem}.cubin"
        no_fixture = {"ok": None, "error": "no Triton fixture for this configuration"}
        ours = via_ptxas = same = no_fixture
        if fixture:
            try:
                # the PTX version for Triton's ptxas (8.7), which both assemblers below take
                gb.run_checked(["env", f"TRITON_PTXAS_PATH={triton_ptxas()}", "tt-translate",
                                str(FIXTURES / f"{fixture}.nodebug.ttgir"), "--target=ptx", "-o", str(ptx)])
                gb.run_checked(["tt-as", str(ptx), "-o", str(cubin)])
                ours = gb.run_ours(str(cubin), spec)
            except RuntimeError as e:
                ours = {"ok": False, "error": str(e)}
            try:
                cubin2 = work / f"{stem}.ptxas.cubin"
                gb.run_checked(["tt-as", str(ptx), "--ptxas", triton_ptxas(), "-o", str(cubin2)])
                via_ptxas = gb.run_ours(str(cubin2), spec)
            except RuntimeError as e:
                via_ptxas = {"ok": False, "error": str(e)}
        try:
            cubin3 = work / f"{stem}.e2e.cubin"
            gb.run_checked(["tt-compile", str(ROOT / "kernels" / f"{module}.py"), "--kernel", d["spec"]["kernel"],
                            "--signature", d["spec"]["signature"], "--num-warps", str(d["num_warps"]),
                            "--num-stages", "3", "--target", "cuda:90", "-o", str(cubin3)])
            e2e = gb.run_ours(str(cubin3), spec)
        except RuntimeError as e:
            e2e = {"ok": False, "error": str(e)}
        theirs = gb.triton_bench(module, d)
        theirs.pop("ptx", None)
        if fixture:
            try:
                same = triton_backend(FIXTURES / f"{fixture}.nodebug.ttgir", spec, work)
            except Exception as e:  # noqa: BLE001  (reported in the table)
                same = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        results[label] = {"ours": ours, "ours_triton_ptxas": via_ptxas, "ours_end_to_end": e2e, "triton": theirs,
                          "triton_backend_same_ttgir": same}
        pb = via_ptxas.get("bench") or {}
        eb = e2e.get("bench") or {}
        b = ours.get("bench") or {}
        sb = same.get("bench") or {}
        ms, tms = b.get("median_ms"), theirs["events"]["median_ms"]
        tf = (lambda t: f"{d['flops'] / (t * 1e-3) / 1e12:.1f}") if ms else (lambda t: "-")
        rows.append(f"| {label} | {ours.get('ok')} | {ms if ms is None else f'{ms:.4f}'} | {tms:.4f} | "
                    f"{(tms / ms if ms else 0):.3f}x | {tf(ms) if ms else '-'} | {tf(tms)} | "
                    f"{b.get('n_regs')}/{theirs.get('n_regs')} | {b.get('spill_bytes')}/{theirs.get('n_spills')} |"
                    + f" {sb.get('median_ms') or same.get('error') or same.get('stderr')} | {sb.get('n_regs')} |"
                    + f" {pb.get('median_ms') or via_ptxas.get('error') or via_ptxas.get('stderr')} | {pb.get('n_regs')} |"
                    + f" {e2e.get('ok')} | {eb.get('median_ms') or e2e.get('error') or e2e.get('stderr')} |"
                    + f" {(tms / eb['median_ms']) if eb.get('median_ms') else 0:.3f}x | {eb.get('n_regs')} |"
                    + ("" if ms or not fixture else f" {ours.get('error') or ours.get('stderr')}"))
    print("| kernel | check | ours ms | Triton ms | Triton/ours | ours TFLOP/s | Triton TFLOP/s | regs | spills "
          "| Triton's back end, same TTGIR: ms | its regs | ours with Triton's ptxas: ms | its regs "
          "| ours end to end: check | ms | Triton/ours | regs |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    out = opts.json or (os.path.join(os.environ["OUT"], "wgmma.json") if os.environ.get("OUT") else None)
    if out:
        Path(out).write_text(json.dumps(results, indent=2, default=str))
    return 0 if all(r["ours"].get("ok") is not False and r["ours_end_to_end"].get("ok") for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
