"""Dump/override directories (ttc.driver.stages) and reproducers (ttc.opt.reproducer) through tt-opt, run in process."""

import hashlib
from pathlib import Path

import pytest

from ttc.driver.cli import run

ROOT = Path(__file__).resolve().parents[2]
VECTOR_ADD_TTIR = ROOT / "test" / "fixtures" / "triton" / "vector_add.ttir"
MAKE_TTGIR = "-make-ttgir=target=cuda:90 num-warps=4"


def tt_opt(*argv, capsys):
    from tools.tt_opt import main

    code = run("tt-opt", main, [str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for var in ("TRITON_KERNEL_DUMP", "TRITON_DUMP_DIR", "TRITON_KERNEL_OVERRIDE", "TRITON_OVERRIDE_DIR",
                "TRITON_REPRODUCER_PATH", "TTC_DEBUG", "MLIR_ENABLE_DUMP"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def test_dump_defaults_to_home_and_hashes_foreign_ir(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
    code, out, err = tt_opt(VECTOR_ADD_TTIR, MAKE_TTGIR, capsys=capsys)
    assert code == 0, err
    digest = hashlib.sha256(VECTOR_ADD_TTIR.read_text().encode()).hexdigest()
    dumped = tmp_path / "home" / ".triton" / "dump" / digest / "add_kernel.ttgir"
    assert dumped.is_file()
    assert f'ttc.source_hash = "{digest}"' in out  # later stages find the same directory
    assert "loc(" in dumped.read_text()  # dumps carry locations, as Triton's do


def test_without_the_environment_nothing_changes(tmp_path, capsys):
    code, out, _ = tt_opt(VECTOR_ADD_TTIR, MAKE_TTGIR, capsys=capsys)
    assert code == 0 and "ttc.source_hash" not in out
    assert not (tmp_path / "home" / ".triton").exists()


def test_ttir_override_feeds_the_next_pass_of_the_same_command(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("TRITON_DUMP_DIR", str(tmp_path / "dump"))
    assert tt_opt(VECTOR_ADD_TTIR, "-make-ttir", capsys=capsys)[0] == 0
    (ttir,) = (tmp_path / "dump").glob("*/add_kernel.ttir")
    override = tmp_path / "override" / ttir.parent.name / "add_kernel.ttir"
    override.parent.mkdir(parents=True)
    override.write_text(ttir.read_text().replace("arith.addf", "arith.mulf"))
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "0")
    monkeypatch.setenv("TRITON_KERNEL_OVERRIDE", "1")
    monkeypatch.setenv("TRITON_OVERRIDE_DIR", str(tmp_path / "override"))
    code, out, err = tt_opt(VECTOR_ADD_TTIR, "-make-ttir", MAKE_TTGIR, capsys=capsys)
    assert code == 0, err
    assert err == f"tt-opt: overriding add_kernel.ttir with {override}\n"
    assert "arith.mulf" in out and "#ttg.blocked" in out and "arith.addf" not in out


def test_override_verifier_error_points_into_the_override_file(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("TRITON_DUMP_DIR", str(tmp_path / "dump"))
    assert tt_opt(VECTOR_ADD_TTIR, "-make-ttir", "--mlir-print-debuginfo", capsys=capsys)[0] == 0
    (ttir,) = (tmp_path / "dump").glob("*/add_kernel.ttir")
    override = tmp_path / "override" / ttir.parent.name / "add_kernel.ttir"
    override.parent.mkdir(parents=True)
    lines = ttir.read_text().splitlines()
    # an op that parses but does not verify: a range whose end is before its start
    bad = next(i for i, line in enumerate(lines) if "tt.make_range" in line)
    lines[bad] = lines[bad].replace("end = 1024", "end = 0")
    override.write_text("\n".join(lines) + "\n")
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "0")
    monkeypatch.setenv("TRITON_KERNEL_OVERRIDE", "1")
    monkeypatch.setenv("TRITON_OVERRIDE_DIR", str(tmp_path / "override"))
    code, _, err = tt_opt(VECTOR_ADD_TTIR, "-make-ttir", "-o", tmp_path / "out.ttir", capsys=capsys)
    assert code == 1
    assert f"{override}:{bad + 1}:" in err and "tt.make_range" in err, err
    assert not (tmp_path / "out.ttir").exists()


def test_modules_without_a_kernel_are_not_dumped(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("TRITON_DUMP_DIR", str(tmp_path / "dump"))
    src = tmp_path / "helpers.mlir"
    src.write_text("module {\n  tt.func private @helper() {\n    tt.return\n  }\n}\n")
    assert tt_opt(src, "-make-ttir", capsys=capsys)[0] == 0
    assert not (tmp_path / "dump").exists()


FAILING = """module {
  tt.func public @k(%arg0: !tt.ptr<tensor<128xf32>>, %out: !tt.ptr<f32>) {
    %0 = tt.load %arg0 : !tt.ptr<tensor<128xf32>>
    %1 = "tt.reduce"(%0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<128xf32>) -> f32
    tt.store %out, %1 : !tt.ptr<f32>
    tt.return
  }
}
"""


def test_a_raising_pass_leaves_a_reproducer(monkeypatch, tmp_path, capsys):
    from ttc.passes.cse import CSE

    def boom(self, ctx, module):
        raise RuntimeError("boom")

    monkeypatch.setattr(CSE, "apply", boom)
    src = tmp_path / "in.mlir"
    src.write_text(FAILING)
    repro = tmp_path / "repro.mlir"
    monkeypatch.setenv("TRITON_REPRODUCER_PATH", str(repro))
    code, out, err = tt_opt(src, "-canonicalize", "-cse", capsys=capsys)
    assert code == 1 and out == ""
    assert "internal error in pass 'cse': RuntimeError: boom" in err and "Traceback" not in err
    assert f"reproducer generated at '{repro}'" in err
    assert 'pipeline: "builtin.module(canonicalize{max-iterations=10 region-simplify=normal},cse)"' in repro.read_text()
    code, _, err2 = tt_opt("--run-reproducer", repro, capsys=capsys)
    assert code == 1 and "internal error in pass 'cse': RuntimeError: boom" in err2
    assert "reproducer generated" not in err2  # a replay does not write another one

    monkeypatch.setenv("TTC_DEBUG", "1")
    code, _, err3 = tt_opt(src, "-cse", capsys=capsys)
    assert code == 1 and "Traceback" in err3 and "RuntimeError: boom" in err3
    assert "reproducer generated at" in err3


def test_split_input_file_numbers_the_reproducers(monkeypatch, tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(FAILING + "// -----\n" + FAILING)
    repro = tmp_path / "repro.mlir"
    monkeypatch.setenv("TRITON_REPRODUCER_PATH", str(repro))
    code, _, err = tt_opt(src, "--split-input-file", "-triton-rewrite-tensor-pointer", capsys=capsys)
    assert code == 1
    assert repro.is_file() and (tmp_path / "repro.mlir.1").is_file()
    assert err.count("reproducer generated at") == 2


def test_expected_failures_leave_no_reproducer(monkeypatch, tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(FAILING.replace("%0 = tt.load %arg0 : !tt.ptr<tensor<128xf32>>",
                                   "%0 = tt.load %arg0 : !tt.ptr<tensor<128xf32>> // expected-error {{not rewritten}}"))
    monkeypatch.setenv("TRITON_REPRODUCER_PATH", str(tmp_path / "repro.mlir"))
    code, _, err = tt_opt(src, "--verify-diagnostics", "-triton-rewrite-tensor-pointer", capsys=capsys)
    assert code == 0, err
    assert not (tmp_path / "repro.mlir").exists()


def test_unwritable_dump_directory_is_a_clean_error(monkeypatch, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("TRITON_DUMP_DIR", str(blocker))
    code, _, err = tt_opt(VECTOR_ADD_TTIR, "-make-ttir", "-o", tmp_path / "out.ttir", capsys=capsys)
    assert code == 1 and "tt-opt: error: cannot create dump directory" in err
    assert not (tmp_path / "out.ttir").exists()


def test_an_override_takes_the_hash_of_its_directory(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("TRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("TRITON_DUMP_DIR", str(tmp_path / "dump"))
    assert tt_opt(VECTOR_ADD_TTIR, "-make-ttir", capsys=capsys)[0] == 0
    (ttir,) = (tmp_path / "dump").glob("*/add_kernel.ttir")
    digest = ttir.parent.name
    override = tmp_path / "override" / digest / "add_kernel.ttir"
    override.parent.mkdir(parents=True)
    override.write_text(ttir.read_text().replace(digest, "1" * 64))  # copied from another kernel's dump
    monkeypatch.setenv("TRITON_KERNEL_OVERRIDE", "1")
    monkeypatch.setenv("TRITON_OVERRIDE_DIR", str(tmp_path / "override"))
    code, out, err = tt_opt(VECTOR_ADD_TTIR, "-make-ttir", MAKE_TTGIR, capsys=capsys)
    assert code == 0, err
    assert f'ttc.source_hash = "{digest}"' in out and "1" * 64 not in out
    assert sorted(p.name for p in (tmp_path / "dump").iterdir()) == [digest]  # nothing dumped elsewhere


def test_output_to_a_directory_is_a_clean_error(tmp_path, capsys):
    code, _, err = tt_opt(VECTOR_ADD_TTIR, "-cse", "-o", tmp_path, capsys=capsys)
    assert code == 1 and err == f"tt-opt: error: cannot write '{tmp_path}': it is a directory\n"


def test_an_unwritable_reproducer_path_keeps_the_error(monkeypatch, tmp_path, capsys):
    src = tmp_path / "in.mlir"
    src.write_text(FAILING)
    monkeypatch.setenv("TRITON_REPRODUCER_PATH", str(tmp_path / "missing" / "repro.mlir"))
    code, _, err = tt_opt(src, "-triton-rewrite-tensor-pointer", capsys=capsys)
    assert code == 1
    assert "error: 'tt.load' op uses a block pointer" in err
    assert "no reproducer: cannot write" in err and "Traceback" not in err


def test_an_llir_override_stands_in_for_a_lowering_that_fails(monkeypatch, tmp_path):
    """The .llir override is used before lowering, so a hand-written LLVM IR can replace a lowering that fails."""
    import subprocess

    good = """module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"NUMCTAS} {
  tt.func public @k(%arg0: !tt.ptr<f32>) {
    tt.return
  }
}
"""
    ok, bad = tmp_path / "ok.ttgir", tmp_path / "bad.ttgir"
    ok.write_text(good.replace("NUMCTAS", ""))
    bad.write_text(good.replace("NUMCTAS", ', "ttg.num-ctas" = 2 : i32'))
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("TRITON_")}
    first = subprocess.run(["tt-translate", bad, "--target=llvmir"], capture_output=True, text=True, env=env)
    assert first.returncode == 1 and "only one CTA per program" in first.stderr
    llir = subprocess.run(["tt-translate", ok, "--target=llvmir"], capture_output=True, text=True, env=env, check=True)
    digest = hashlib.sha256(bad.read_text().encode()).hexdigest()
    (tmp_path / "override" / digest).mkdir(parents=True)
    (tmp_path / "override" / digest / "k.llir").write_text(llir.stdout)
    env.update(TRITON_KERNEL_OVERRIDE="1", TRITON_OVERRIDE_DIR=str(tmp_path / "override"))
    run = subprocess.run(["tt-translate", bad, "--target=ptx"], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("tt-translate: overriding k.llir with")
    assert ".visible .entry k(" in run.stdout and f'"hash": "{digest}"' in run.stdout


def test_bad_metadata_is_a_clean_error(tmp_path):
    import subprocess

    ptx = tmp_path / "k.ptx"
    ptx.write_text('// ttc.metadata: {"name": "k", "num_warps": [1]}\n.version 8.0\n.target sm_90\n.address_size 64\n'
                   ".entry k()\n{\n\tret;\n}\n")
    p = subprocess.run(["tt-as", ptx, "-o", tmp_path / "k.cubin"], capture_output=True, text=True)
    assert p.returncode == 1 and "Traceback" not in p.stderr and "internal error" not in p.stderr
    assert f"tt-as: error: {ptx}: bad ttc.metadata: metadata lacks threads_per_warp, shared, hash, target" in p.stderr
    assert not (tmp_path / "k.cubin").exists()


def test_ptx_kernels_are_found_with_or_without_visible():
    from ttc.lowering.metadata import ptx_entries

    assert ptx_entries(".entry k(\n.visible .entry add_kernel(\n.weak .entry w ()\n// .entry no(") == ["k", "add_kernel", "w"]
