"""tt-run --interpret: every example kernel's real Triton 3.6 TTIR/TTGIR runs and matches its spec's checks (and
the fixture variants: fp16, bf16, i64, tf32, other block sizes and warps), plus focused tests of masking,
out-of-bounds reports, atomics, integer semantics, custom combine regions, branches, asserts and prints.

tt-run is called in-process (`ttc.driver.cli.run` with `tools/tt_run.main`), as the installed command does.
"""

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

from ttc.driver.cli import run
from ttc.tools.tt_run import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "test" / "fixtures" / "triton"
KERNELS = sorted(p.stem for p in (ROOT / "kernels").glob("*.json"))
MANIFEST = json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"]


def tt_run(*argv, cwd=ROOT):
    out, err = io.StringIO(), io.StringIO()
    import os

    old = os.getcwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            rc = run("tt-run", main, [str(a) for a in argv])
    finally:
        os.chdir(old)
    return rc, out.getvalue(), err.getvalue()


def write(path: Path, data) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1))
    return path


def assert_checks_pass(rc, out, err, names):
    assert rc == 0, out + err
    for name in names:
        assert re.search(rf"^{name}: ok \(", out, re.M), out


# ----------------------------------------------------------------------------- the example kernels


def test_every_kernel_has_fixtures():
    assert {"vector_add", "softmax", "matmul", "attention"} <= set(KERNELS)  # the glob found the specs
    for k in KERNELS:
        for stage in ("ttir", "ttgir", "source.ttir"):
            assert (FIXTURES / f"{k}.{stage}").is_file()


@pytest.mark.parametrize("stage", ["ttir", "ttgir", "source.ttir"])
@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_fixture(kernel, stage):
    spec = json.loads((ROOT / "kernels" / f"{kernel}.json").read_text())
    rc, out, err = tt_run(FIXTURES / f"{kernel}.{stage}", "--spec", ROOT / "kernels" / f"{kernel}.json",
                          "--interpret", "--check")
    assert_checks_pass(rc, out, err, [n for n in spec["check"] if n != "tolerance"])


# Variants of the fixtures (see MANIFEST.json), with the spec changes their signatures need.
SOFTMAX = "(lambda s: np.exp(s - s.max(axis=1, keepdims=True)) / np.exp(s - s.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True))"
# fp8 operands read from i8 buffers of positive codes (kernels/matmul_acc.py, FP8 = 1 / 2): their values, by the
# formats' definitions (e4m3: bias 7, 3 mantissa bits; e5m2: bias 15, 2), to check against
E4M3 = "(lambda x: np.where(x >> 3 == 0, (x & 7) / 8 * 2.0 ** -6, (1 + (x & 7) / 8) * 2.0 ** ((x >> 3) - 7)))"
E5M2 = "(lambda x: np.where(x >> 2 == 0, (x & 3) / 4 * 2.0 ** -14, (1 + (x & 3) / 4) * 2.0 ** ((x >> 2) - 15)))"
VARIANTS = {
    "dropout_b256_w2": dict(grid=["cdiv(n, 256)", 1, 1]),
    "random_streams_i32_w8": dict(
        types={"seed": "i32", "offset_base": "i32"}, values={"seed": 1234567, "offset_base": 1000},
        grid=["cdiv(n, 1024)", 1, 1],
        check={"bits": "np.stack(randint4x(seed, offset_base + np.arange(n, dtype=np.int32)))",
               "normal": "randn(seed, offset_base + np.arange(n, dtype=np.int32))",
               "tolerance": {"rtol": 0, "atol": 1e-05}}),
    "vector_add_w8_fp16": dict(types={"x": "*fp16", "y": "*fp16", "out": "*fp16"}),
    "vector_add_b256_nohint": dict(grid=["cdiv(n, 256)", 1, 1]),
    "vector_add_bf16_i64": dict(types={"x": "*bf16", "y": "*bf16", "out": "*bf16", "n": "i64"},
                                grid=["cdiv(n, 2048)", 1, 1]),
    "softmax_b1024_w8": {},
    "softmax_loop_s4": dict(spec="softmax_loop"),  # the tutorial's loop kernel: its own arguments
    "softmax_fp16_b512": dict(types={"out": "*fp16", "x": "*fp16"}, shapes={"out": [64, 256], "x": [64, 256]},
                              values={"in_stride": 256, "out_stride": 256},
                              check={"out": f"np.pad({SOFTMAX}(x[:, :250].astype(np.float32)), ((0, 0), (0, 6)))",
                                     "tolerance": {"rtol": 1e-2, "atol": 1e-3}}),
    "layer_norm_b1024_w8": dict(types={"x": "*fp16", "y": "*fp16", "w": "*fp16", "b": "*fp16"},
                                shapes={"x": [8, 320], "y": [8, 320], "w": [320], "b": [320], "mean": [8], "rstd": [8]},
                                values={"stride": 320, "N": 320}, grid=[8, 1, 1],
                                check={"mean": "x.astype(np.float32).mean(axis=1)",
                                       "rstd": "1 / np.sqrt(x.astype(np.float32).var(axis=1) + eps)",
                                       "y": "(lambda f: (f - f.mean(axis=1, keepdims=True)) / np.sqrt(f.var(axis=1, keepdims=True) + eps) * w + b)(x.astype(np.float32))",
                                       "tolerance": {"rtol": 1e-2, "atol": 1e-2}}),
    "layer_norm_bwd_fp16_w8": dict(
        types={n: "*fp16" for n in ("dx", "dy", "dw", "db", "x", "w")}, shapes={"dw": [16, 300], "db": [16, 300],
                                                                         "lock": [32]},
        check={"dx": "(lambda x, dy, w: (lambda xh, wdy: (wdy - (xh * (xh * wdy).mean(axis=1, keepdims=True)"
                     " + wdy.mean(axis=1, keepdims=True))) * rstd[:, None])((x - mean[:, None]) * rstd[:, None], w * dy))"
                     "(x.astype(np.float32), dy.astype(np.float32), w.astype(np.float32))",
               "dw": "np.stack([(dy.astype(np.float32) * (x.astype(np.float32) - mean[:, None]) * rstd[:, None])"
                     "[g::16].sum(axis=0) for g in range(16)])",
               "db": "np.stack([dy.astype(np.float32)[g::16].sum(axis=0) for g in range(16)])",
               "lock": "np.repeat([0, 1], 16)", "tolerance": {"rtol": 1e-2, "atol": 1e-2}}),
    "reduce_custom_b1024_w8": dict(shapes={"x": [37, 112]}, values={"stride_row": 112},
                                   check={"out": "np.abs(x[:, :100]).max(axis=1)"}),
    "cumsum_i32_b1024_w8": dict(types={"x": "*i32", "out": "*i32"}, shapes={"x": [4, 1008], "out": [4, 1008]},
                                inits={"x": {"randint": [-100, 100]}},
                                values={"n_cols": 1000, "stride_x": 1008, "stride_out": 1008}, grid=[4, 1, 1],
                                check={"out": "np.pad(np.cumsum(x[:, :1000], axis=1), ((0, 0), (0, 8)))"}),
    "histogram_b4096_w8": dict(grid=["cdiv(n, 4096)", 1, 1]),
    "while_loop_i64_w1": dict(types={"x": "*i64"}, grid=["cdiv(n, 128)", 1, 1]),
    "transpose_fp16_64x64_w8": dict(types={"x": "*fp16", "y": "*fp16"}, shapes={"x": [100, 80], "y": [70, 112]},
                                    values={"stride_xm": 80, "stride_ym": 112},
                                    grid=["cdiv(M, 64)", "cdiv(N, 64)", 1],
                                    check={"y": "np.pad(x[:, :70].T, ((0, 0), (0, 12)))"}),
    "sort_i32_16x128_k32_w8": dict(types={n: "*i32" for n in ("x", "asc", "desc", "top", "flipped", "pairs")},
                                   shapes={"x": [50, 128], "asc": [50, 128], "desc": [50, 128], "top": [50, 32],
                                           "flipped": [50, 128], "pairs": [50, 256]},
                                   values={"n_rows": 50}, inits={"x": {"randint": [-1000, 1000]}},
                                   grid=["cdiv(n_rows, 16)", 1, 1],
                                   check={"asc": "np.sort(x, axis=1)", "desc": "-np.sort(-x, axis=1)",
                                          "top": "-np.sort(-x, axis=1)[:, :32]", "flipped": "x[:, ::-1]",
                                          "pairs": "np.stack([np.sort(x, axis=1), -np.sort(-x, axis=1)], axis=2)"
                                                   ".reshape(50, 256)"}),
    "sort_fp16_1x256_k16": dict(types={n: "*fp16" for n in ("x", "asc", "desc", "top", "flipped", "pairs")},
                                shapes={"x": [5, 256], "asc": [5, 256], "desc": [5, 256], "top": [5, 16],
                                        "flipped": [5, 256], "pairs": [5, 512]},
                                values={"n_rows": 5}, grid=["n_rows", 1, 1],
                                check={"asc": "np.sort(x, axis=1)", "desc": "-np.sort(-x, axis=1)",
                                       "top": "-np.sort(-x, axis=1)[:, :16]", "flipped": "x[:, ::-1]",
                                       "pairs": "np.stack([np.sort(x, axis=1), -np.sort(-x, axis=1)], axis=2)"
                                                ".reshape(5, 512)"}),
    "gather_fp16_w8": dict(types={n: "*fp16" for n in ("table", "rows_out", "cols_out")},
                           shapes={"table": [64, 64], "ids": [128], "perm": [64, 64], "rows_out": [128, 64],
                                   "cols_out": [64, 64]},
                           inits={"ids": {"randint": [0, 64]}, "perm": {"randint": [0, 64]}}),
    "matmul_128x128x64_s3_w4_sm80": dict(grid=["cdiv(M, 128) * cdiv(N, 128)", 1, 1]),
    "matmul_128x128x64_s3_w8": dict(grid=["cdiv(M, 128) * cdiv(N, 128)", 1, 1]),
    "matmul_bf16_128x128x64_s3_w8": dict(types={"a": "*bf16", "b": "*bf16"}, grid=["cdiv(M, 128) * cdiv(N, 128)", 1, 1]),
    "matmul_128x256x64_s3_w8": dict(grid=["cdiv(M, 128) * cdiv(N, 256)", 1, 1]),
    "matmul_64x128x32_s4_w4": dict(grid=["cdiv(M, 64) * cdiv(N, 128)", 1, 1]),
    "matmul_64x64x32_s1": {},
    "matmul_fp32_tf32_64x64x32_s3": dict(types={"a": "*fp32", "b": "*fp32"}),
    "matmul_nohint_64x64x32": {},
    "block_ptr_matmul_128x128x64_s3_w8": dict(grid=["cdiv(M, 128) * cdiv(N, 128)", 1, 1]),
    # in-kernel descriptors over pointers; the blocks are atomically added into `out` (clipped at the edges)
    "tma_add_device_desc": dict(
        args=[{"name": n, "type": "*fp32", "shape": [200, 176], "init": "randn"} for n in ("x", "y", "out")]
        + [{"name": "M", "type": "i32", "value": 200}, {"name": "N", "type": "i32", "value": 176},
           {"name": "stride_m", "type": "i32", "value": 176}],
        grid=["cdiv(M, 32)", "cdiv(N, 32)", 1], check={"out": "out + x + y"}),
    # below sm90: the descriptors are passed as pointer, shapes, strides and padding flag (then as usual)
    "tma_add_sm80": {},
    "tma_add_device_desc_sm80": dict(
        args=[{"name": n, "type": "*fp32", "shape": [200, 176], "init": "randn"} for n in ("x", "y", "out")]
        + [{"name": "M", "type": "i32", "value": 200}, {"name": "N", "type": "i32", "value": 176},
           {"name": "stride_m", "type": "i32", "value": 176}],
        grid=["cdiv(M, 32)", "cdiv(N, 32)", 1], check={"out": "out + x + y"}),
    "matmul_acc_i8_sm80": {},
    "matmul_acc_tf32_sm80": dict(types={"a": "*fp32", "b": "*fp32", "c": "*fp32"}, inits={"a": "randn", "b": "randn"},
                                 check={"c": "a @ b", "tolerance": {"rtol": 1e-2, "atol": 5e-2}}),
    "matmul_acc_tf32": dict(types={"a": "*fp32", "b": "*fp32", "c": "*fp32"}, inits={"a": "randn", "b": "randn"},
                            check={"c": "a @ b", "tolerance": {"rtol": 1e-2, "atol": 5e-2}}),
    "matmul_acc_f16acc_sm80": dict(types={"a": "*fp16", "b": "*fp16", "c": "*fp16"}, inits={"a": "randn", "b": "randn"},
                                   check={"c": "a.astype(np.float32) @ b.astype(np.float32)",
                                          "tolerance": {"rtol": 1e-2, "atol": 0.25}}),
    "matmul_acc_e4m3": dict(types={"c": "*fp32"}, inits={"a": {"randint": [0x28, 0x48]}, "b": {"randint": [0x28, 0x48]}},
                            check={"c": "(lambda f: f(a) @ f(b))" + E4M3, "tolerance": {"rtol": 1e-5, "atol": 1e-5}}),
    "matmul_acc_f16acc": dict(types={"a": "*fp16", "b": "*fp16", "c": "*fp16"}, inits={"a": "randn", "b": "randn"},
                              check={"c": "a.astype(np.float32) @ b.astype(np.float32)",
                                     "tolerance": {"rtol": 1e-2, "atol": 0.25}}),
    # e4m3 into f16 accumulators: the products' sums of up to 96 terms of 0.06 .. 14 are f16 (11 bits)
    "matmul_acc_e4m3_f16acc": dict(types={"c": "*fp16"}, inits={"a": {"randint": [0x28, 0x48]}, "b": {"randint": [0x28, 0x48]}},
                                   check={"c": "(lambda f: f(a) @ f(b))" + E4M3, "tolerance": {"rtol": 1e-2, "atol": 0.5}}),
    "matmul_acc_e4m3_128x128x64_s3_w8": dict(
        types={"c": "*fp32"}, inits={"a": {"randint": [0x28, 0x48]}, "b": {"randint": [0x28, 0x48]}},
        grid=["cdiv(M, 128)", "cdiv(N, 128)", 1],
        check={"c": "(lambda f: f(a) @ f(b))" + E4M3, "tolerance": {"rtol": 1e-5, "atol": 1e-5}}),
    "matmul_acc_e4m3_sm89": dict(types={"c": "*fp32"}, inits={"a": {"randint": [0x28, 0x48]}, "b": {"randint": [0x28, 0x48]}},
                                 check={"c": "(lambda f: f(a) @ f(b))" + E4M3, "tolerance": {"rtol": 1e-5, "atol": 1e-5}}),
    "matmul_acc_e5m2_sm89": dict(types={"c": "*fp32"}, inits={"a": {"randint": [0x30, 0x48]}, "b": {"randint": [0x30, 0x48]}},
                                 check={"c": "(lambda f: f(a) @ f(b))" + E5M2, "tolerance": {"rtol": 1e-5, "atol": 1e-5}}),
    "matmul_acc_e5m2_sm80": dict(types={"c": "*fp32"}, inits={"a": {"randint": [0x30, 0x48]}, "b": {"randint": [0x30, 0x48]}},
                                 check={"c": "(lambda f: f(a) @ f(b))" + E5M2, "tolerance": {"rtol": 1e-5, "atol": 1e-5}}),
    "attention_w4_sm80": {},
    "attention_w8": {},
    # other kernels of a file than its spec's: a whole spec of their own (test/fixtures/specs)
    "loop_hints_matmul_s4": dict(spec="loop_hints_matmul"), "loop_hints_matmul_s4_sm80": dict(spec="loop_hints_matmul"),
    "dot_scaled_mxfp4_matmul": dict(spec="dot_scaled_mxfp4"), "dot_scaled_mxfp4_matmul_sm80": dict(spec="dot_scaled_mxfp4"),
    "attention_d128_m128_n64_w8_s3": dict(shapes={n: [200, 128] for n in ("q", "k", "v", "out")},
                                          values={n: 128 for n in ("stride_qm", "stride_kn", "stride_vn", "stride_om")}),
}


def variant_spec(name: str) -> dict:
    info = MANIFEST[name]
    base = Path(info["source"]).stem
    v = VARIANTS[name]
    own = FIXTURES.parent / "specs" / f"{v['spec']}.json" if "spec" in v else ROOT / "kernels" / f"{base}.json"
    spec = json.loads(own.read_text())
    spec["signature"], spec["num_warps"] = info["signature"], info["num_warps"]
    spec["kernel"] = info["kernel"]
    spec["args"] = v.get("args", spec["args"])  # another kernel of the file takes other arguments
    for a in spec["args"]:
        a["type"] = v.get("types", {}).get(a["name"], a["type"])
        if a["name"] in v.get("shapes", {}):
            a["shape"] = v["shapes"][a["name"]]
        if a["name"] in v.get("values", {}):
            a["value"] = v["values"][a["name"]]
        if a["name"] in v.get("inits", {}):
            a["init"] = v["inits"][a["name"]]
    spec["grid"] = v.get("grid", spec["grid"])
    spec["check"] = v.get("check", spec["check"])
    return spec


def test_variants_cover_the_manifest():
    # a variant's base spec is its source file's (a file's second kernel has a spec but no variants)
    bases = {Path(MANIFEST[v]["source"]).stem for v in VARIANTS}
    assert set(MANIFEST) == set(VARIANTS) | set(KERNELS) and bases <= set(KERNELS)


@pytest.mark.parametrize("stage", ["ttir", "ttgir"])
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_fixture(name, stage, tmp_path):
    spec = write(tmp_path / f"{name}.json", variant_spec(name))
    rc, out, err = tt_run(FIXTURES / f"{name}.{stage}", "--spec", spec, "--interpret", "--check")
    assert_checks_pass(rc, out, err, [n for n in json.loads(spec.read_text())["check"] if n != "tolerance"])


def test_wrong_output_fails_the_check(tmp_path):
    spec = json.loads((ROOT / "kernels" / "vector_add.json").read_text())
    spec["check"] = {"out": "x - y"}
    rc, out, err = tt_run(FIXTURES / "vector_add.ttir", "--spec", write(tmp_path / "s.json", spec), "--interpret", "--check")
    assert rc == 1
    assert re.search(r"^out: MISMATCH in \d+ of 50000 elements .*first at \[0\]: got ", out, re.M), out


def test_json_report_and_out_dir(tmp_path):
    spec = json.loads((ROOT / "kernels" / "layer_norm.json").read_text())
    spec["args"][1]["output"] = "y_out.npy"
    rc, out, err = tt_run(FIXTURES / "layer_norm.ttgir", "--spec", write(tmp_path / "s.json", spec), "--interpret",
                          "--check", "--json", "--out-dir", tmp_path / "o")
    assert rc == 0, err
    report = json.loads(out)
    assert report["kernel"] == "_layer_norm_fwd_fused" and report["grid"] == [48, 1, 1] and report["ok"] is True
    assert set(report["check"]) == {"mean", "rstd", "y"} and all(c["ok"] for c in report["check"].values())
    assert report["outputs"]["y"]["file"] == str(tmp_path / "o" / "y_out.npy")
    y = np.load(tmp_path / "o" / "y_out.npy")
    mean = np.load(tmp_path / "o" / "mean.npy")
    assert y.shape == (48, 300) and y.dtype == np.float32 and mean.shape == (48,)
    assert not (tmp_path / "o" / "x.npy").exists()  # inputs that are neither checked nor 'output' are not written
    # without --out-dir, 'output' paths are relative to the spec
    rc, out, err = tt_run(FIXTURES / "layer_norm.ttir", "--spec", tmp_path / "s.json", "--interpret")
    assert rc == 0 and np.array_equal(np.load(tmp_path / "y_out.npy"), y)


# ----------------------------------------------------------------------------- focused kernels


def kernel_run(tmp_path, ir: str, spec: dict, *flags):
    k = write(tmp_path / "k.ttir", ir)
    s = write(tmp_path / "k.json", spec)
    return tt_run(k, "--spec", s, "--interpret", *flags)


MASKED = """module {
  tt.func public @masked(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %out2: !tt.ptr<f32>, %n: i32) {
    %other = arith.constant dense<-1.000000e+00> : tensor<16xf32>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %nn = tt.splat %n : i32 -> tensor<16xi32>
    %m = arith.cmpi slt, %r, %nn : tensor<16xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %v = tt.load %xa, %m, %other : tensor<16x!tt.ptr<f32>>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %oa = tt.addptr %op, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %oa, %v : tensor<16x!tt.ptr<f32>>
    %w = tt.load %xa, %m : tensor<16x!tt.ptr<f32>>
    %o2 = tt.splat %out2 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %o2a = tt.addptr %o2, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %o2a, %w, %m : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_masked_load_with_other_and_masked_store(tmp_path):
    spec = {"grid": [1], "args": [
        {"name": "x", "type": "*fp32", "shape": [10], "init": "randn"},
        {"name": "out", "type": "*fp32", "shape": [16]},
        {"name": "out2", "type": "*fp32", "shape": [16], "init": 7},
        {"name": "n", "type": "i32", "value": 10}],
        "check": {"out": "np.concatenate([x, np.full(6, -1.0)])", "out2": "np.concatenate([x, np.full(6, 7.0)])"}}
    assert_checks_pass(*kernel_run(tmp_path, MASKED, spec, "--check"), ["out", "out2"])
    spec["args"][3]["value"] = 11  # lane 10 is now unmasked, one element past the end of x
    rc, out, err = kernel_run(tmp_path, MASKED, spec, "--check")
    assert rc == 1
    first = err.splitlines()[0]
    assert re.fullmatch(r".*k\.ttir:9:5: error: out-of-bounds load \(element \[10\] of the pointer tensor\): "
                        r"address 0x[0-9a-f]+, 0 bytes past the end of argument 'x' \(40 bytes\) \(in program \(0, 0, 0\)\)",
                        first), err
    assert err.splitlines()[1].strip().startswith("%v = tt.load")  # the source line and a caret follow


def test_out_of_bounds_load_reports_the_python_location(tmp_path):
    spec = json.loads((ROOT / "kernels" / "vector_add.json").read_text())
    spec["args"][0]["shape"] = [1000]
    rc, out, err = tt_run(FIXTURES / "vector_add.ttir", "--spec", write(tmp_path / "s.json", spec), "--interpret")
    assert rc == 1 and out == ""
    assert re.match(r"kernels/vector_add\.py:16:16: error: out-of-bounds load \(element \[1000\] of the pointer "
                    r"tensor\): address 0x[0-9a-f]+, 0 bytes past the end of argument 'x' \(4000 bytes\) "
                    r"\(in program \(0, 0, 0\)\)\n    x = tl.load\(x_ptr \+ offsets, mask=mask\)\n {15}\^", err), err
    # without debug locations, the error is where the op is in the IR file
    rc, out, err = tt_run(FIXTURES / "vector_add.nodebug.ttir", "--spec", tmp_path / "s.json", "--interpret")
    assert rc == 1 and re.match(r".*vector_add\.nodebug\.ttir:13:\d+: error: out-of-bounds load ", err), err


def test_out_of_bounds_store_and_negative_offsets(tmp_path):
    spec = json.loads((ROOT / "kernels" / "vector_add.json").read_text())
    spec["args"][2]["shape"] = [40000]
    rc, out, err = tt_run(FIXTURES / "vector_add.ttir", "--spec", write(tmp_path / "s.json", spec), "--interpret")
    assert rc == 1 and re.match(r"kernels/vector_add\.py:\d+:\d+: error: out-of-bounds store \(element \[64\] .*"
                                r"0 bytes past the end of argument 'out' \(160000 bytes\) \(in program \(39, 0, 0\)\)", err), err
    ir = MASKED.replace("%xa = tt.addptr %xp, %r", "%neg = arith.subi %r, %nn : tensor<16xi32>\n    %xa = tt.addptr %xp, %neg")
    spec = {"grid": [1], "args": [
        {"name": "x", "type": "*fp32", "shape": [10]}, {"name": "out", "type": "*fp32", "shape": [16]},
        {"name": "out2", "type": "*fp32", "shape": [16]}, {"name": "n", "type": "i32", "value": 16}]}
    rc, out, err = kernel_run(tmp_path, ir, spec)
    assert rc == 1 and "out-of-bounds load (element [0] of the pointer tensor): address" in err
    assert "64 bytes before the start of argument 'x' (40 bytes)" in err


ATOMICS = """module {
  tt.func public @atomics(%cnt: !tt.ptr<i32>, %old: !tt.ptr<i32>, %lock: !tt.ptr<i32>, %first: !tt.ptr<i32>, %x: !tt.ptr<f32>, %mx: !tt.ptr<f32>, %oldmx: !tt.ptr<f32>) {
    %ones = arith.constant dense<1> : tensor<8xi32>
    %c8 = arith.constant 8 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %cp = tt.splat %cnt : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %o = tt.atomic_rmw add, acq_rel, gpu, %cp, %ones : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>) -> tensor<8xi32>
    %base = arith.muli %pid, %c8 : i32
    %b = tt.splat %base : i32 -> tensor<8xi32>
    %idx = arith.addi %b, %r : tensor<8xi32>
    %op = tt.splat %old : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %oa = tt.addptr %op, %idx : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    tt.store %oa, %o : tensor<8x!tt.ptr<i32>>
    %p1 = arith.addi %pid, %c1 : i32
    %prev = tt.atomic_cas acq_rel, gpu, %lock, %c0, %p1 : (!tt.ptr<i32>, i32, i32) -> i32
    %fa = tt.addptr %first, %pid : !tt.ptr<i32>, i32
    tt.store %fa, %prev : !tt.ptr<i32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %idx : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %xv = tt.load %xa : tensor<8x!tt.ptr<f32>>
    %mp = tt.splat %mx : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %om = tt.atomic_rmw max, acq_rel, gpu, %mp, %xv : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>) -> tensor<8xf32>
    %omp = tt.splat %oldmx : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %oma = tt.addptr %omp, %idx : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %oma, %om : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_atomics_apply_in_order_with_duplicate_addresses(tmp_path):
    spec = {"grid": [4], "args": [
        {"name": "cnt", "type": "*i32", "shape": [1]}, {"name": "old", "type": "*i32", "shape": [32]},
        {"name": "lock", "type": "*i32", "shape": [1]}, {"name": "first", "type": "*i32", "shape": [4]},
        {"name": "x", "type": "*fp32", "shape": [32], "init": "randn"},
        {"name": "mx", "type": "*fp32", "shape": [1], "init": -1000},
        {"name": "oldmx", "type": "*fp32", "shape": [32]}],
        "check": {"cnt": "np.array([32])", "old": "np.arange(32)", "lock": "np.array([1])",
                  "first": "np.array([0, 1, 1, 1])", "mx": "x.max(keepdims=True)",
                  "oldmx": "np.maximum.accumulate(np.concatenate([[-1000.0], x]))[:-1]"}}
    assert_checks_pass(*kernel_run(tmp_path, ATOMICS, spec, "--check"), ["cnt", "old", "lock", "first", "mx", "oldmx"])


# name -> (IR computing %res from %v (tensor<16xi32>), expected NumPy expression over x)
INT_OPS = {
    "add": ("%c = arith.constant dense<2147483647> : tensor<16xi32>\n    %res = arith.addi %v, %c : tensor<16xi32>",
            "(x.astype(np.int64) + 2147483647 + 2**31) % 2**32 - 2**31"),
    "mul": ("%c = arith.constant dense<65537> : tensor<16xi32>\n    %res = arith.muli %v, %c : tensor<16xi32>",
            "(x.astype(np.int64) * 65537 + 2**31) % 2**32 - 2**31"),
    "divsi": ("%c = arith.constant dense<-7> : tensor<16xi32>\n    %res = arith.divsi %v, %c : tensor<16xi32>",
              "np.trunc(x / -7.0)"),
    "remsi": ("%c = arith.constant dense<7> : tensor<16xi32>\n    %res = arith.remsi %v, %c : tensor<16xi32>",
              "np.fmod(x, 7)"),
    "divui": ("%c = arith.constant dense<7> : tensor<16xi32>\n    %res = arith.divui %v, %c : tensor<16xi32>",
              "x.astype(np.int64) % 2**32 // 7"),
    "remui": ("%c = arith.constant dense<7> : tensor<16xi32>\n    %res = arith.remui %v, %c : tensor<16xi32>",
              "x.astype(np.int64) % 2**32 % 7"),
    "shrsi": ("%c = arith.constant dense<3> : tensor<16xi32>\n    %res = arith.shrsi %v, %c : tensor<16xi32>",
              "np.floor(x / 8.0)"),
    "shrui": ("%c = arith.constant dense<3> : tensor<16xi32>\n    %res = arith.shrui %v, %c : tensor<16xi32>",
              "x.astype(np.int64) % 2**32 // 8"),
    "shli": ("%c = arith.constant dense<31> : tensor<16xi32>\n    %res = arith.shli %v, %c : tensor<16xi32>",
             "np.where(x % 2 == 1, -2**31, 0)"),
    "trunc_ext": ("%t = arith.trunci %v : tensor<16xi32> to tensor<16xi8>\n    %res = arith.extsi %t : tensor<16xi8> to tensor<16xi32>",
                  "(x.astype(np.int64) + 128) % 256 - 128"),
    "trunc_extui": ("%t = arith.trunci %v : tensor<16xi32> to tensor<16xi8>\n    %res = arith.extui %t : tensor<16xi8> to tensor<16xi32>",
                    "x.astype(np.int64) % 256"),
    "cmp_unsigned": ("%c = arith.constant dense<0> : tensor<16xi32>\n    %b = arith.cmpi ugt, %v, %c : tensor<16xi32>\n"
                     "    %s = arith.cmpi slt, %v, %c : tensor<16xi32>\n    %e = arith.xori %b, %s : tensor<16xi1>\n"
                     "    %res = arith.extui %e : tensor<16xi1> to tensor<16xi32>", "x > 0"),
    "max_unsigned": ("%c = arith.constant dense<5> : tensor<16xi32>\n    %res = arith.maxui %v, %c : tensor<16xi32>",
                     "np.where((x >= 0) & (x < 5), 5, x)"),
    "fptosi_saturates": ("%f = arith.sitofp %v : tensor<16xi32> to tensor<16xf32>\n"
                         "    %c = arith.constant dense<1.000000e+10> : tensor<16xf32>\n"
                         "    %g = arith.mulf %f, %c : tensor<16xf32>\n"
                         "    %res = arith.fptosi %g : tensor<16xf32> to tensor<16xi32>",
                         "np.where(x > 0, 2**31 - 1, np.where(x < 0, -2**31, 0))"),
}


def int_kernel(body: str) -> str:
    return f"""module {{
  tt.func public @ints(%x: !tt.ptr<i32>, %out: !tt.ptr<i32>) {{
    %r = tt.make_range {{end = 16 : i32, start = 0 : i32}} : tensor<16xi32>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %xa = tt.addptr %xp, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    %v = tt.load %xa : tensor<16x!tt.ptr<i32>>
    {body}
    %op = tt.splat %out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %oa = tt.addptr %op, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    tt.store %oa, %res : tensor<16x!tt.ptr<i32>>
    tt.return
  }}
}}
"""


@pytest.mark.parametrize("name", sorted(INT_OPS))
def test_integer_semantics(name, tmp_path):
    body, expected = INT_OPS[name]
    x = np.array([2**31 - 1, -2**31, -1, 0, 1, 7, -7, -8, 13, -13, 255, 256, -129, 100000, -100000, 2**30 + 3], np.int32)
    np.save(tmp_path / "x.npy", x)
    spec = {"grid": [1], "args": [{"name": "x", "type": "*i32", "init": {"file": "x.npy"}},
                                  {"name": "out", "type": "*i32", "shape": [16]}],
            "check": {"out": expected}}
    assert_checks_pass(*kernel_run(tmp_path, int_kernel(body), spec, "--check"), ["out"])


COMBINE = """module {
  tt.func public @combine(%x: !tt.ptr<f32>, %a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %amax: !tt.ptr<i32>, %rec: !tt.ptr<f32>, %rev: !tt.ptr<f32>, %mx: !tt.ptr<f32>) {
    %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %c16 = arith.constant dense<16> : tensor<4x1xi32>
    %rows = tt.expand_dims %r4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %rowoff = arith.muli %rows, %c16 : tensor<4x1xi32>
    %cols = tt.expand_dims %r16 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %ro = tt.broadcast %rowoff : tensor<4x1xi32> -> tensor<4x16xi32>
    %co = tt.broadcast %cols : tensor<1x16xi32> -> tensor<4x16xi32>
    %off = arith.addi %ro, %co : tensor<4x16xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %off : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    %xv = tt.load %xa : tensor<4x16x!tt.ptr<f32>>
    %res:2 = "tt.reduce"(%xv, %co) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %pi: i32, %q: f32, %qi: i32):
      %gt = arith.cmpf ogt, %p, %q : f32
      %eq = arith.cmpf oeq, %p, %q : f32
      %lt = arith.cmpi slt, %pi, %qi : i32
      %t = arith.andi %eq, %lt : i1
      %pick = arith.ori %gt, %t : i1
      %v2 = arith.select %pick, %p, %q : f32
      %i2 = arith.select %pick, %pi, %qi : i32
      tt.reduce.return %v2, %i2 : f32, i32
    }) : (tensor<4x16xf32>, tensor<4x16xi32>) -> (tensor<4xf32>, tensor<4xi32>)
    %ap = tt.splat %amax : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %aa = tt.addptr %ap, %r4 : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    tt.store %aa, %res#1 : tensor<4x!tt.ptr<i32>>
    %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %pa2 = tt.addptr %pa, %r16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %av = tt.load %pa2 : tensor<16x!tt.ptr<f32>>
    %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %pb2 = tt.addptr %pb, %r16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %bv = tt.load %pb2 : tensor<16x!tt.ptr<f32>>
    %s:2 = "tt.scan"(%av, %bv) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a1: f32, %b1: f32, %a2: f32, %b2: f32):
      %aa12 = arith.mulf %a1, %a2 : f32
      %bb1 = arith.mulf %b1, %a2 : f32
      %bb12 = arith.addf %bb1, %b2 : f32
      tt.scan.return %aa12, %bb12 : f32, f32
    }) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
    %rp = tt.splat %rec : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %rp2 = tt.addptr %rp, %r16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %rp2, %s#1 : tensor<16x!tt.ptr<f32>>
    %rs = "tt.scan"(%xv) <{axis = 1 : i32, reverse = true}> ({
    ^bb0(%u: f32, %w: f32):
      %uw = arith.addf %u, %w : f32
      tt.scan.return %uw : f32
    }) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %vp = tt.splat %rev : !tt.ptr<f32> -> tensor<4x16x!tt.ptr<f32>>
    %vp2 = tt.addptr %vp, %off : tensor<4x16x!tt.ptr<f32>>, tensor<4x16xi32>
    tt.store %vp2, %rs : tensor<4x16x!tt.ptr<f32>>
    %m = "tt.reduce"(%xv) <{axis = 0 : i32}> ({
    ^bb0(%u: f32, %w: f32):
      %big = arith.cmpf ogt, %u, %w : f32
      %pick = scf.if %big -> (f32) {
        scf.yield %u : f32
      } else {
        scf.yield %w : f32
      }
      tt.reduce.return %pick : f32
    }) : (tensor<4x16xf32>) -> tensor<16xf32>
    %mp = tt.splat %mx : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %mp2 = tt.addptr %mp, %r16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %mp2, %m : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}
"""


def test_reduce_and_scan_with_custom_combine_regions(tmp_path):
    recurrence = "np.array([sum(b[j] * np.prod(a[j + 1:i + 1]) for j in range(i + 1)) for i in range(16)])"
    spec = {"grid": [1], "args": [
        {"name": "x", "type": "*fp32", "shape": [4, 16], "init": "randn"},
        {"name": "a", "type": "*fp32", "shape": [16], "init": "rand"},
        {"name": "b", "type": "*fp32", "shape": [16], "init": "randn"},
        {"name": "amax", "type": "*i32", "shape": [4]},
        {"name": "rec", "type": "*fp32", "shape": [16]},
        {"name": "rev", "type": "*fp32", "shape": [4, 16]},
        {"name": "mx", "type": "*fp32", "shape": [16]}],
        "check": {"amax": "x.argmax(axis=1)", "rec": recurrence, "rev": "np.cumsum(x[:, ::-1], axis=1)[:, ::-1]",
                  "mx": "x.max(axis=0)", "tolerance": {"rtol": 1e-5, "atol": 1e-5}}}
    assert_checks_pass(*kernel_run(tmp_path, COMBINE, spec, "--check"), ["amax", "rec", "rev", "mx"])


BRANCHES = """module {
  tt.func public @branches(%out: !tt.ptr<i32>) {
    %pid = tt.get_program_id x : i32
    %c2 = arith.constant 2 : i32
    %c0 = arith.constant 0 : i32
    %r = arith.remsi %pid, %c2 : i32
    %even = arith.cmpi eq, %r, %c0 : i32
    cf.cond_br %even, ^bb1(%pid : i32), ^bb2
  ^bb1(%v: i32):
    %c10 = arith.constant 10 : i32
    %w = tt.call @times(%v, %c10) : (i32, i32) -> i32
    cf.br ^bb3(%w : i32)
  ^bb2:
    %m1 = arith.constant -1 : i32
    cf.br ^bb3(%m1 : i32)
  ^bb3(%res: i32):
    %p = tt.addptr %out, %pid : !tt.ptr<i32>, i32
    tt.store %p, %res : !tt.ptr<i32>
    tt.return
  }
  tt.func private @times(%a: i32, %b: i32) -> i32 {
    %n = tt.get_num_programs x : i32
    %ab = arith.muli %a, %b : i32
    %abn = arith.addi %ab, %n : i32
    tt.return %abn : i32
  }
}
"""


def test_branches_between_blocks_and_calls(tmp_path):
    spec = {"grid": [6], "args": [{"name": "out", "type": "*i32", "shape": [6]}],
            "check": {"out": "np.array([6, -1, 26, -1, 46, -1])"}}
    assert_checks_pass(*kernel_run(tmp_path, BRANCHES, spec, "--check"), ["out"])


DEBUG = """module {
  tt.func public @debug(%x: !tt.ptr<i32>) {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %xa = tt.addptr %xp, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    %v = tt.load %xa : tensor<4x!tt.ptr<i32>>
    tt.print " v: " {hex = false, isSigned = array<i32: 1>} : %v : tensor<4xi32>
    %c0 = arith.constant dense<0> : tensor<4xi32>
    %pos = arith.cmpi sge, %v, %c0 : tensor<4xi32>
    tt.assert %pos, "x must not be negative" : tensor<4xi1>
    tt.return
  }
}
"""


def test_print_and_assert(tmp_path):
    np.save(tmp_path / "x.npy", np.array([3, 1, 4, 1], np.int32))
    spec = {"grid": [2], "args": [{"name": "x", "type": "*i32", "init": {"file": "x.npy"}}]}
    rc, out, err = kernel_run(tmp_path, DEBUG, spec)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[:5] == ["pid (0, 0, 0) idx (0) v: 3", "pid (0, 0, 0) idx (1) v: 1", "pid (0, 0, 0) idx (2) v: 4",
                         "pid (0, 0, 0) idx (3) v: 1", "pid (1, 0, 0) idx (0) v: 3"]
    np.save(tmp_path / "x.npy", np.array([3, 1, -4, 1], np.int32))
    rc, out, err = kernel_run(tmp_path, DEBUG, spec)
    assert rc == 1
    assert re.search(r"k\.ttir:10:5: error: device assertion failed at element \[2\]: x must not be negative "
                     r"\(in program \(0, 0, 0\)\)", err), err


def test_unsupported_op_is_reported_before_running(tmp_path):
    # the PTX evaluator (ttc/runtime/ptx.py) knows mov, not lop3: refused at the op, naming the instruction
    ir = int_kernel('%res = tt.elementwise_inline_asm "mov.b32 $0, $1;\\0A\\09lop3.b32 $0, $0, $1, $1, 0xf8;" '
                    '{constraints = "=r,r", packed_element = 1 : i32, pure = true} %v : tensor<16xi32> -> tensor<16xi32>')
    spec = {"grid": [1], "args": [{"name": "x", "type": "*i32", "shape": [16]}, {"name": "out", "type": "*i32", "shape": [16]}]}
    rc, out, err = kernel_run(tmp_path, ir, spec)
    assert rc == 1 and re.match(r".*k\.ttir:7:5: error: the interpreter cannot run this inline asm: cannot evaluate "
                                r"the instruction `lop3\.b32 \$0, \$0, \$1, \$1, 0xf8`", err), err
    assert not out


BLOCK_PTR = """module {
  tt.func public @blocks(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %cm2 = arith.constant -2 : i32
    %c5 = arith.constant 5 : i64
    %c6 = arith.constant 6 : i64
    %c1 = arith.constant 1 : i64
    %c8 = arith.constant 8 : i64
    %p = tt.make_tensor_ptr %x, [%c5, %c6], [%c6, %c1], [%c0, %cm2] {order = array<i32: 1, 0>} : <tensor<4x8xf32>>
    %p2 = tt.advance %p, [%c4, %c0] : <tensor<4x8xf32>>
    %v = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<4x8xf32>>
    %w = tt.load %p2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<4x8xf32>>
    %q = tt.make_tensor_ptr %out, [%c5, %c8], [%c8, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<4x8xf32>>
    %q2 = tt.advance %q, [%c4, %c0] : <tensor<4x8xf32>>
    tt.store %q, %v {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<4x8xf32>>
    tt.store %q2, %w {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<4x8xf32>>
    tt.return
  }
}
"""


def test_block_pointers_with_boundary_checks_and_padding(tmp_path):
    # %v covers rows 0-3, columns -2..5 of the 5x6 tensor x (NaN outside); %w rows 4-7 (zero outside).
    spec = {"grid": [1], "args": [{"name": "x", "type": "*fp32", "shape": [5, 6], "init": "arange"},
                                  {"name": "out", "type": "*fp32", "shape": [5, 8], "init": 9}],
            "check": {"out": "np.vstack([np.hstack([np.full((4, 2), np.nan), x[:4]]), np.hstack([np.zeros((1, 2)), x[4:]])])"}}
    assert_checks_pass(*kernel_run(tmp_path, BLOCK_PTR, spec, "--check"), ["out"])


def test_bf16_and_tf32_rounding():
    from ttc.runtime.dtypes import round_bf16, round_tf32

    big = np.finfo(np.float32).max
    x = np.array([1 + 2**-8, 1 + 3 * 2**-8, -(1 + 2**-7 + 2**-9), big, np.inf, np.nan], np.float32)
    r = round_bf16(x)  # 7 mantissa bits, ties to even, overflow to inf
    assert r[:5].tolist() == [1.0, 1 + 2**-6, -(1 + 2**-7), np.inf, np.inf] and np.isnan(r[5])
    assert round_tf32(np.float32(1 + 2**-11)) == 1.0 and round_tf32(np.float32(1 + 3 * 2**-11)) == np.float32(1 + 2**-9)


# ----------------------------------------------------------------------------- more ops, one kernel each

def elementwise_kernel(body: str, in_t: str, out_t: str) -> str:
    """A kernel loading 16 values %v of type in_t, computing %res (type out_t) with `body`, and storing it."""
    return f"""module {{
  tt.func public @ops(%x: !tt.ptr<{in_t}>, %out: !tt.ptr<{out_t}>) {{
    %r = tt.make_range {{end = 16 : i32, start = 0 : i32}} : tensor<16xi32>
    %xp = tt.splat %x : !tt.ptr<{in_t}> -> tensor<16x!tt.ptr<{in_t}>>
    %xa = tt.addptr %xp, %r : tensor<16x!tt.ptr<{in_t}>>, tensor<16xi32>
    %v = tt.load %xa : tensor<16x!tt.ptr<{in_t}>>
    {body}
    %op = tt.splat %out : !tt.ptr<{out_t}> -> tensor<16x!tt.ptr<{out_t}>>
    %oa = tt.addptr %op, %r : tensor<16x!tt.ptr<{out_t}>>, tensor<16xi32>
    tt.store %oa, %res : tensor<16x!tt.ptr<{out_t}>>
    tt.return
  }}
}}
"""


ULP = "2.0 ** (np.floor(np.log2(np.abs(x))) - {bits})"  # the spacing of a format with `bits` mantissa bits at x
# name -> (in type, out type, body, expected expression over x, tolerance)
MORE_OPS = {
    "fp_to_fp_rtz_f16": ("f32", "f32", "%h = tt.fp_to_fp %v, rounding = rtz : tensor<16xf32> -> tensor<16xf16>\n"
                         "    %res = arith.extf %h : tensor<16xf16> to tensor<16xf32>",
                         f"np.trunc(x / {ULP.format(bits=10)}) * {ULP.format(bits=10)}", 0.0),
    "truncf_bf16_rne": ("f32", "f32", "%h = arith.truncf %v : tensor<16xf32> to tensor<16xbf16>\n"
                        "    %res = arith.extf %h : tensor<16xbf16> to tensor<16xf32>",
                        f"np.round(x / {ULP.format(bits=7)}) * {ULP.format(bits=7)}", 0.0),
    "bf16_math_rounds_each_op": ("f32", "f32", "%h = arith.truncf %v : tensor<16xf32> to tensor<16xbf16>\n"
                                 "    %c = arith.constant dense<3.000000e+00> : tensor<16xbf16>\n"
                                 "    %m = arith.mulf %h, %c : tensor<16xbf16>\n"
                                 "    %res = arith.extf %m : tensor<16xbf16> to tensor<16xf32>",
                                 f"(lambda h: np.round(3 * h / (2.0 ** (np.floor(np.log2(np.abs(3 * h))) - 7))) * "
                                 f"2.0 ** (np.floor(np.log2(np.abs(3 * h))) - 7))(np.round(x / {ULP.format(bits=7)}) * {ULP.format(bits=7)})", 0.0),
    "bitcast_f32_i32": ("f32", "i32", "%res = tt.bitcast %v : tensor<16xf32> -> tensor<16xi32>", "x.view(np.int32)", 0.0),
    "clampf": ("f32", "f32", "%lo = arith.constant dense<-5.000000e-01> : tensor<16xf32>\n"
               "    %hi = arith.constant dense<5.000000e-01> : tensor<16xf32>\n"
               "    %res = tt.clampf %v, %lo, %hi, propagateNan = none : tensor<16xf32>", "np.clip(x, -0.5, 0.5)", 0.0),
    "precise_sqrt": ("f32", "f32", "%a = math.absf %v : tensor<16xf32>\n    %res = tt.precise_sqrt %a : tensor<16xf32>",
                     "np.sqrt(np.abs(x))", 0.0),
    "precise_divf": ("f32", "f32", "%c = arith.constant dense<3.000000e+00> : tensor<16xf32>\n"
                     "    %res = tt.precise_divf %v, %c : tensor<16xf32>", "x / np.float32(3)", 0.0),
    "libdevice_expf": ("f32", "f32", '%res = tt.extern_elementwise %v {libname = "", libpath = "", pure = true, '
                       'symbol = "__nv_expf"} : (tensor<16xf32>) -> tensor<16xf32>', "np.exp(x)", 1e-6),
    "libdevice_erff": ("f32", "f32", '%res = tt.extern_elementwise %v {libname = "", libpath = "", pure = true, '
                       'symbol = "__nv_erff"} : (tensor<16xf32>) -> tensor<16xf32>', "np.array([math.erf(v) for v in x])", 1e-6),
    "math_erf_exp2_rsqrt": ("f32", "f32", "%e = math.erf %v : tensor<16xf32>\n    %t = math.exp2 %e : tensor<16xf32>\n"
                            "    %res = math.rsqrt %t : tensor<16xf32>",
                            "1 / np.sqrt(2.0 ** np.array([math.erf(v) for v in x]))", 1e-6),
    "fma_f16": ("f16", "f16", "%res = math.fma %v, %v, %v : tensor<16xf16>",
                "(x.astype(np.float64) * x + x).astype(np.float16)", 0.0),
    "mulhiui": ("i32", "i32", "%c = arith.constant dense<-1640531527> : tensor<16xi32>\n    %res = tt.mulhiui %v, %c : tensor<16xi32>",
                "(np.array([((int(v) % 2**32) * 2654435769 >> 32) for v in x]) + 2**31) % 2**32 - 2**31", 0.0),
    "ctpop_ctlz_cttz": ("i32", "i32", "%a = math.ctpop %v : tensor<16xi32>\n    %b = math.ctlz %v : tensor<16xi32>\n"
                        "    %c = math.cttz %v : tensor<16xi32>\n    %k = arith.constant dense<100> : tensor<16xi32>\n"
                        "    %ak = arith.muli %a, %k : tensor<16xi32>\n    %akb = arith.addi %ak, %b : tensor<16xi32>\n"
                        "    %akk = arith.muli %akb, %k : tensor<16xi32>\n    %res = arith.addi %akk, %c : tensor<16xi32>",
                        "np.array([(u.bit_count() * 100 + 32 - u.bit_length()) * 100 + ((u & -u).bit_length() - 1 if u else 32) "
                        "for u in [int(v) % 2**32 for v in x]])", 0.0),
    "histogram": ("i32", "i32", "%res = tt.histogram %v : tensor<16xi32> -> tensor<16xi32>",
                  "np.bincount(x[(x >= 0) & (x < 16)], minlength=16)", 0.0),
    "ptr_int_roundtrip": ("i32", "i32", "%pi = tt.ptr_to_int %xa : tensor<16x!tt.ptr<i32>> -> tensor<16xi64>\n"
                          "    %c4 = arith.constant dense<4> : tensor<16xi64>\n    %pj = arith.addi %pi, %c4 : tensor<16xi64>\n"
                          "    %q = tt.int_to_ptr %pj : tensor<16xi64> -> tensor<16x!tt.ptr<i32>>\n"
                          "    %c15 = arith.constant dense<15> : tensor<16xi32>\n    %m = arith.cmpi slt, %r, %c15 : tensor<16xi32>\n"
                          "    %res = tt.load %q, %m : tensor<16x!tt.ptr<i32>>", "np.concatenate([x[1:], [0]])", 0.0),
    "shapes": ("i32", "i32", "%c3 = arith.constant dense<3> : tensor<16xi32>\n    %w = arith.muli %v, %c3 : tensor<16xi32>\n"
               "    %j = tt.join %v, %w : tensor<16xi32> -> tensor<16x2xi32>\n"
               "    %rs = tt.reshape %j : tensor<16x2xi32> -> tensor<2x16xi32>\n"
               "    %t = tt.trans %rs {order = array<i32: 1, 0>} : tensor<2x16xi32> -> tensor<16x2xi32>\n"
               "    %a, %b = tt.split %t : tensor<16x2xi32> -> tensor<16xi32>\n"
               "    %ab = tt.cat %a, %b : tensor<16xi32> -> tensor<32xi32>\n"
               "    %ab2 = tt.reshape %ab : tensor<32xi32> -> tensor<2x16xi32>\n"
               "    %abt = tt.trans %ab2 {order = array<i32: 1, 0>} : tensor<2x16xi32> -> tensor<16x2xi32>\n"
               "    %p, %q = tt.split %abt : tensor<16x2xi32> -> tensor<16xi32>\n"
               "    %res = arith.subi %p, %q : tensor<16xi32>",
               "(lambda r: r[0] - r[1])(np.stack([x, 3 * x], axis=1).reshape(2, 16))", 0.0),
}


@pytest.mark.parametrize("name", sorted(MORE_OPS))
def test_more_ops(name, tmp_path):
    in_t, out_t, body, expected, tol = MORE_OPS[name]
    spec_types = {"f32": "*fp32", "f16": "*fp16", "i32": "*i32"}
    init = {"randint": [-2**31, 2**31]} if in_t == "i32" else "randn"
    if name == "histogram":
        init = {"randint": [-3, 19]}
    spec = {"grid": [1], "seed": 3, "args": [{"name": "x", "type": spec_types[in_t], "shape": [16], "init": init},
                                             {"name": "out", "type": spec_types[out_t], "shape": [16]}],
            "check": {"out": expected, "tolerance": {"rtol": tol, "atol": 0.0}}}
    assert_checks_pass(*kernel_run(tmp_path, elementwise_kernel(body, in_t, out_t), spec, "--check"), ["out"])


SHARED = """#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @smem(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %other = arith.constant dense<-2.000000e+00> : tensor<8x8xf32, #blocked>
    %c8 = arith.constant dense<8> : tensor<8x1xi32, #blocked>
    %c6 = arith.constant dense<6> : tensor<8x8xi32, #blocked>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rc = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<8x1xi32, #blocked>
    %cols = tt.expand_dims %rc {axis = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x8xi32, #blocked>
    %ro = arith.muli %rows, %c8 : tensor<8x1xi32, #blocked>
    %rb = tt.broadcast %ro : tensor<8x1xi32, #blocked> -> tensor<8x8xi32, #blocked>
    %cb = tt.broadcast %cols : tensor<1x8xi32, #blocked> -> tensor<8x8xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<8x8xi32, #blocked>
    %m = arith.cmpi slt, %cb, %c6 : tensor<8x8xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %off : tensor<8x8x!tt.ptr<f32>, #blocked>, tensor<8x8xi32, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x8x8xf32, #shared, #smem, mutable>
    %s0 = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x8x8xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x8xf32, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %xa, %s0 mask %m other %other : tensor<8x8x!tt.ptr<f32>, #blocked> -> <8x8xf32, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %st = ttg.memdesc_trans %s0 {order = array<i32: 1, 0>} : !ttg.memdesc<8x8xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x8xf32, #shared1, #smem, mutable>
    %v = ttg.local_load %st token %w : !ttg.memdesc<8x8xf32, #shared1, #smem, mutable> -> tensor<8x8xf32, #blocked>
    %s1 = ttg.memdesc_index %buf[%c1] : !ttg.memdesc<2x8x8xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x8xf32, #shared, #smem, mutable>
    ttg.local_store %v, %s1 : tensor<8x8xf32, #blocked> -> !ttg.memdesc<8x8xf32, #shared, #smem, mutable>
    %u = ttg.local_load %s1 : !ttg.memdesc<8x8xf32, #shared, #smem, mutable> -> tensor<8x8xf32, #blocked>
    %a = ttg.local_alloc %v : (tensor<8x8xf32, #blocked>) -> !ttg.memdesc<8x8xf32, #shared, #smem>
    %b = ttg.local_load %a : !ttg.memdesc<8x8xf32, #shared, #smem> -> tensor<8x8xf32, #blocked>
    %sum = arith.addf %u, %b : tensor<8x8xf32, #blocked>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>, #blocked>
    %oa = tt.addptr %op, %off : tensor<8x8x!tt.ptr<f32>, #blocked>, tensor<8x8xi32, #blocked>
    tt.store %oa, %sum : tensor<8x8x!tt.ptr<f32>, #blocked>
    ttg.local_dealloc %buf : !ttg.memdesc<2x8x8xf32, #shared, #smem, mutable>
    USE_AFTER_FREE
    tt.return
  }
}
"""


def test_shared_memory_views_and_async_copies(tmp_path):
    spec = {"grid": [1], "args": [{"name": "x", "type": "*fp32", "shape": [8, 8], "init": "randn"},
                                  {"name": "out", "type": "*fp32", "shape": [8, 8]}],
            "check": {"out": "2 * np.where(np.arange(8) < 6, x, -2.0).T"}}
    assert_checks_pass(*kernel_run(tmp_path, SHARED.replace("USE_AFTER_FREE", ""), spec, "--check"), ["out"])
    late = "%late = ttg.local_load %s1 : !ttg.memdesc<8x8xf32, #shared, #smem, mutable> -> tensor<8x8xf32, #blocked>"
    rc, out, err = kernel_run(tmp_path, SHARED.replace("USE_AFTER_FREE", late), spec)
    assert rc == 1 and re.match(r".*k\.ttir:\d+:5: error: access to shared memory after its ttg.local_dealloc", err), err


# ----------------------------------------------------------------------------- spin locks

# Each program takes the lock, then adds 1 to `count` until it has seen 3 there (a loop whose values stay the same
# while memory changes, so it goes on: program 0 adds 4 times, the others once); it releases the lock only if
# `release` is set.
LOCK = """module {
  tt.func public @lock(%lock: !tt.ptr<i32>, %count: !tt.ptr<i32>, %release: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %true = arith.constant true
    scf.while : () -> () {
      %old = tt.atomic_cas acquire, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
      %held = arith.cmpi eq, %old, %c1 : i32
      scf.condition(%held)
    } do {
      scf.yield
    }
    %n = scf.while (%k = %c0) : (i32) -> i32 {
      %c = tt.atomic_rmw add, relaxed, gpu, %count, %c1, %true : (!tt.ptr<i32>, i32, i1) -> i32
      %more = arith.cmpi slt, %c, %c3 : i32
      scf.condition(%more) %k : i32
    } do {
    ^bb0(%k2: i32):
      scf.yield %k2 : i32
    }
    gpu.barrier
    %r = arith.cmpi ne, %release, %c0 : i32
    scf.if %r {
      %x = tt.atomic_rmw exch, release, gpu, %lock, %c0, %true : (!tt.ptr<i32>, i32, i1) -> i32
    }
    tt.return
  }
}
"""


def _lock_spec(lock: int, release: int) -> dict:
    return {"grid": [3], "args": [
        {"name": "lock", "type": "*i32", "shape": [1], "init": lock},
        {"name": "count", "type": "*i32", "shape": [1]},
        {"name": "release", "type": "i32", "value": release}],
        "check": {"lock": "np.zeros(1)", "count": "np.array([6])"}}


def test_spin_lock_taken_and_released_by_each_program(tmp_path):
    assert_checks_pass(*kernel_run(tmp_path, LOCK, _lock_spec(0, 1), "--check"), ["lock", "count"])


def test_spin_lock_that_no_program_releases_is_an_error_not_a_hang(tmp_path):
    # taken by program 0 and kept: program 1 would spin forever
    rc, out, err = kernel_run(tmp_path, LOCK, _lock_spec(0, 0))
    assert rc == 1 and re.match(r".*k\.ttir:7:5: error: this loop never ends: an iteration changed neither memory "
                                r"nor the loop's values \(a spin lock that no program releases\? programs run one at "
                                r"a time here\) \(in program \(1, 0, 0\)\)\n    scf.while", err), err
    # held before the launch: program 0 waits already; in the kernel's source, the error is at its `while`
    spec = json.loads((ROOT / "kernels" / "layer_norm_bwd.json").read_text())
    next(a for a in spec["args"] if a["name"] == "lock")["init"] = 1
    rc, out, err = tt_run(FIXTURES / "layer_norm_bwd.ttgir", "--spec", write(tmp_path / "s.json", spec), "--interpret")
    assert rc == 1 and re.match(r"kernels/layer_norm_bwd\.py:\d+:\d+: error: this loop never ends: .* \(in program "
                                r"\(0, 0, 0\)\)\n    while tl\.atomic_cas\(Lock, 0, 1", err), err
