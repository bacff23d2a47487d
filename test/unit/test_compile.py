"""tt-compile and ttc.compile: every stage equal to the pipe of separate commands, for every kernel in kernels/;
and Triton's kernel cache (hits, misses on every change of the key, TRITON_ALWAYS_COMPILE, dumps and overrides
on a hit, concurrent compiles into one cache)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

import pytest

import ttc
from ttc.driver.compiler import Options
from ttc.runtime.spec import kernel_source

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted(p.stem for p in (ROOT / "kernels").glob("*.json"))
PRINT = "--mlir-print-debuginfo --mlir-use-nameloc-as-prefix"  # TTIR/TTGIR as dumps (and tt-compile) print them
pytestmark = pytest.mark.usefixtures("use_tool_server")  # the commands forked from one process (conftest)


def _spec(kernel: str) -> dict:
    return json.loads((ROOT / "kernels" / f"{kernel}.json").read_text())


def _sh(cmd: str, env=None, cwd=ROOT) -> subprocess.CompletedProcess:
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, env=env, cwd=cwd)
    assert proc.returncode == 0, proc.stderr.decode()[-4000:]
    return proc


@pytest.mark.slow
@pytest.mark.parametrize("kernel", KERNELS)
def test_tt_compile_equals_the_pipe(kernel, tmp_path, monkeypatch):
    spec = _spec(kernel)
    src = kernel_source(ROOT / "kernels" / f"{kernel}.json").relative_to(ROOT).as_posix()
    warps, q = spec.get("num_warps", 4), shlex.quote
    d = tmp_path
    _sh(f"tt-frontend {src} --kernel {spec['kernel']} --signature {q(spec['signature'])} --mlir-print-debuginfo"
        f" | tt-opt -make-ttir {PRINT} -o {d}/k.ttir"
        f" && tt-opt {d}/k.ttir -make-ttgir='target=cuda:90 num-warps={warps}' {PRINT} -o {d}/k.ttgir"
        f" && tt-translate {d}/k.ttgir --target=llvmir -o {d}/k.llir"
        f" && tt-translate {d}/k.llir --target=ptx -o {d}/k.ptx && tt-as {d}/k.ptx -o {d}/k.cubin")
    env = dict(os.environ, TRITON_CACHE_DIR=str(d / "cache"))
    _sh(f"tt-compile {src} --kernel {spec['kernel']} --signature {q(spec['signature'])} --num-warps {warps}"
        f" -o {d}/c.cubin", env)
    assert (d / "c.cubin").read_bytes() == (d / "k.cubin").read_bytes()
    assert (d / "c.cubin.json").read_text() == (d / "k.cubin.json").read_text()
    # every stage, in process (the same compile: now a cache hit) and from the cache directory
    monkeypatch.setenv("TRITON_CACHE_DIR", str(d / "cache"))
    result = ttc.compile(src, spec["kernel"], spec["signature"], Options(num_warps=warps), text=(ROOT / src).read_text())
    for ext in ("ttir", "ttgir", "llir", "ptx"):
        assert result.stage(ext) == (d / f"k.{ext}").read_text(), ext
    assert result.cubin == (d / "k.cubin").read_bytes()


# ---------------------------------------------------------------- the cache

SIG = "*fp32:16,*fp32:16,*fp32:16,i32,i32,512"


@pytest.fixture
def kernel_dir(tmp_path):
    """A copy of kernels/helper_call.py (a kernel calling a jit helper), an empty cache, and tt-compile for it."""
    (tmp_path / "k.py").write_text((ROOT / "kernels" / "helper_call.py").read_text())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRITON_", "MLIR_", "LLVM_IR_", "NVPTX_"))}
    env["TRITON_CACHE_DIR"] = str(tmp_path / "cache")
    return tmp_path, env


def _tt_compile(where, env, *args, sig=SIG, extra_env=None, ok=True):
    tmp = where
    cmd = ["tt-compile", "k.py", "--kernel", "bias_gelu_kernel", "--signature", sig, "-o", "out.cubin", "-v", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp, env={**env, **(extra_env or {})})
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def _hit(proc) -> bool:
    return "tt-compile: cache hit" in proc.stderr


def test_second_compile_is_a_hit_with_the_same_output(kernel_dir):
    tmp, env = kernel_dir
    assert not _hit(_tt_compile(tmp, env))
    first = (tmp / "out.cubin").read_bytes(), (tmp / "out.cubin.json").read_text()
    (tmp / "out.cubin").unlink()
    assert _hit(_tt_compile(tmp, env))
    assert ((tmp / "out.cubin").read_bytes(), (tmp / "out.cubin.json").read_text()) == first
    entries = list((tmp / "cache").iterdir())
    assert len(entries) == 1 and len(entries[0].name) == 52  # Triton's base32 sha256 names
    names = sorted(p.name for p in entries[0].iterdir())
    assert names == ["__grp__bias_gelu_kernel.json"] + [f"bias_gelu_kernel.{e}" for e in
                                                         ("cubin", "json", "llir", "ptx", "ttgir", "ttir")]
    group = json.loads((entries[0] / "__grp__bias_gelu_kernel.json").read_text())["child_paths"]
    assert group["bias_gelu_kernel.cubin"] == str(entries[0] / "bias_gelu_kernel.cubin")
    # a stage asked for from a hit is that stage's cached file
    proc = _tt_compile(tmp, env, "--stage", "ttgir", "-o", "out.ttgir")
    assert _hit(proc) and (tmp / "out.ttgir").read_text() == (entries[0] / "bias_gelu_kernel.ttgir").read_text()


@pytest.mark.parametrize("change", [
    ("helper", None), ("kernel", None), ("signature", None), ("--num-warps", "8"), ("--num-stages", "2"),
    ("--target", "cuda:80"), ("--no-sanitize-overflow", None), ("--maxrregcount", "64"), ("--ptx-version", "8.3"),
    ("--launch-pdl", None),
])
def test_any_change_of_the_key_misses(kernel_dir, change):
    tmp, env = kernel_dir
    _tt_compile(tmp, env)
    assert _hit(_tt_compile(tmp, env))
    what, value = change
    args, sig = [], SIG
    if what == "helper":  # the jit function the kernel calls
        src = tmp / "k.py"
        src.write_text(src.read_text().replace("0.5 * x * (1.0 + t)", "0.5 * x * (1.0 + t) + 0.0"))
    elif what == "kernel":
        src = tmp / "k.py"
        src.write_text(src.read_text().replace("mask=mask, other=0.0)\n    b", "mask=mask, other=1.0)\n    b"))
    elif what == "signature":
        sig = SIG.replace("512", "256")
    else:
        args = [what] + ([value] if value else [])
    assert not _hit(_tt_compile(tmp, env, *args, sig=sig))
    assert _hit(_tt_compile(tmp, env, *args, sig=sig))


def test_always_compile_bypasses_the_cache(kernel_dir):
    tmp, env = kernel_dir
    _tt_compile(tmp, env)
    proc = _tt_compile(tmp, env, extra_env={"TRITON_ALWAYS_COMPILE": "1"})
    assert not _hit(proc) and "tt-compile: compiled" in proc.stderr


def test_a_hit_still_dumps(kernel_dir):
    tmp, env = kernel_dir
    _tt_compile(tmp, env, extra_env={"TRITON_KERNEL_DUMP": "1", "TRITON_DUMP_DIR": str(tmp / "dump1")})
    proc = _tt_compile(tmp, env, extra_env={"TRITON_KERNEL_DUMP": "1", "TRITON_DUMP_DIR": str(tmp / "dump2")})
    assert _hit(proc)
    (d1,), (d2,) = list((tmp / "dump1").iterdir()), list((tmp / "dump2").iterdir())
    assert d1.name == d2.name  # the source hash, as the separate commands name it
    files = sorted(p.name for p in d1.iterdir())
    assert files == [f"bias_gelu_kernel.{e}" for e in ("cubin", "json", "llir", "ptx", "ttgir", "ttir")]
    for name in files:
        assert (d1 / name).read_bytes() == (d2 / name).read_bytes(), name
    # MLIR_ENABLE_DUMP asks for the IR before every pass: only a compile gives it
    proc = _tt_compile(tmp, env, extra_env={"MLIR_ENABLE_DUMP": "1"})
    assert not _hit(proc) and "// -----// IR Dump Before" in proc.stderr


def test_an_override_beats_a_hit(kernel_dir):
    tmp, env = kernel_dir
    _tt_compile(tmp, env, extra_env={"TRITON_KERNEL_DUMP": "1", "TRITON_DUMP_DIR": str(tmp / "dump")})
    original = (tmp / "out.cubin").read_bytes()
    (hash_dir,) = list((tmp / "dump").iterdir())
    override = tmp / "override" / hash_dir.name
    override.mkdir(parents=True)
    ttgir = (hash_dir / "bias_gelu_kernel.ttgir").read_text()
    assert "arith.addf" in ttgir
    (override / "bias_gelu_kernel.ttgir").write_text(ttgir.replace("arith.addf", "arith.subf", 1))
    on = {"TRITON_KERNEL_OVERRIDE": "1", "TRITON_OVERRIDE_DIR": str(tmp / "override")}
    proc = _tt_compile(tmp, env, extra_env=on)
    assert not _hit(proc) and "overriding bias_gelu_kernel.ttgir" in proc.stderr
    assert (tmp / "out.cubin").read_bytes() != original
    # the overridden kernel is not the key's: the cache still gives the original
    assert _hit(_tt_compile(tmp, env)) and (tmp / "out.cubin").read_bytes() == original
    # with the variable on but no file of this kernel's, the hit stands
    (override / "bias_gelu_kernel.ttgir").unlink()
    assert _hit(_tt_compile(tmp, env, extra_env=on))


def test_a_damaged_entry_is_a_miss(kernel_dir):
    tmp, env = kernel_dir
    _tt_compile(tmp, env)
    (entry,) = list((tmp / "cache").iterdir())
    (entry / "bias_gelu_kernel.ptx").unlink()
    assert not _hit(_tt_compile(tmp, env))
    assert _hit(_tt_compile(tmp, env))


def test_concurrent_compiles_leave_complete_identical_files(kernel_dir):
    tmp, env = kernel_dir
    n = 6
    procs = [subprocess.Popen(["tt-compile", "k.py", "--kernel", "bias_gelu_kernel", "--signature", SIG,
                               "-o", f"out{i}.cubin"], cwd=tmp, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for i in range(n)]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()
    outputs = {(tmp / f"out{i}.cubin").read_bytes() for i in range(n)}
    assert len(outputs) == 1
    (entry,) = list((tmp / "cache").iterdir())
    assert sorted(p.name for p in entry.iterdir()) == ["__grp__bias_gelu_kernel.json"] + [
        f"bias_gelu_kernel.{e}" for e in ("cubin", "json", "llir", "ptx", "ttgir", "ttir")]  # no temporary files
    assert (entry / "bias_gelu_kernel.cubin").read_bytes() in outputs
    assert _hit(_tt_compile(tmp, env))


def test_ttc_compile_in_process(kernel_dir, monkeypatch):
    tmp, _ = kernel_dir
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp / "cache"))
    text = (tmp / "k.py").read_text()
    first = ttc.compile("k.py", "bias_gelu_kernel", SIG, text=text)
    assert not first.cache_hit and set(first.times) == {"frontend", "make-ttir", "make-ttgir", "llir", "ptx", "cubin"}
    again = ttc.compile("k.py", "bias_gelu_kernel", SIG, ttc.Options(), text=text)
    assert again.cache_hit and again.cubin == first.cubin and again.ttir == first.ttir
    assert again.metadata == first.metadata and again.cache_dir == first.cache_dir
    partial = ttc.compile("k.py", "bias_gelu_kernel", SIG, ttc.Options(num_warps=2), text=text, stage="ttgir")
    assert partial.ttgir and partial.llir is None and partial.cubin is None
    assert '"ttg.num-warps" = 2' in partial.ttgir


def test_errors_are_located_and_write_nothing(kernel_dir):
    tmp, env = kernel_dir
    src = tmp / "k.py"
    src.write_text(src.read_text().replace("y = gelu_tanh(x + b)", "y = gelu_tanh(x + undefined_name)"))
    proc = _tt_compile(tmp, env, ok=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("k.py:23:23: error: name 'undefined_name' is not defined") and "^" in proc.stderr
    assert not (tmp / "out.cubin").exists() and not (tmp / "cache").exists()
    proc = _tt_compile(tmp, env, "--num-warps", "3", ok=False)
    assert proc.returncode == 1 and proc.stderr.startswith("tt-compile: error: --num-warps must be a power of two")
    proc = _tt_compile(tmp, env, "--stage", "sass", ok=False)
    assert proc.returncode == 1 and proc.stderr.startswith("tt-compile: error: argument --stage: invalid choice")


def test_a_failing_pass_leaves_a_reproducer_that_replays(kernel_dir, monkeypatch):
    from ttc.ir.diagnostics import CompileError
    from ttc.passes.coalesce import Coalesce

    tmp, _ = kernel_dir
    monkeypatch.setenv("TRITON_REPRODUCER_PATH", str(tmp / "repro.mlir"))

    def broken(self, ctx, module):
        raise RuntimeError("coalesce broke")

    monkeypatch.setattr(Coalesce, "apply", broken)
    with pytest.raises(CompileError) as failure:
        ttc.compile("k.py", "bias_gelu_kernel", SIG, text=(tmp / "k.py").read_text(), use_cache=False)
    text = failure.value.render()
    assert "k.py: error: internal error in pass 'make-ttgir': RuntimeError: coalesce broke" in text
    assert f"reproducer generated at '{tmp / 'repro.mlir'}'" in text
    repro = (tmp / "repro.mlir").read_text()
    assert "pipeline: \"builtin.module(make-ttgir{target=cuda:90 num-warps=4" in repro
    assert 'loc("k.py":' in repro and "tt.func public @bias_gelu_kernel" in repro
    monkeypatch.undo()
    proc = subprocess.run(["tt-opt", "--run-reproducer", str(tmp / "repro.mlir")], capture_output=True, text=True)
    assert proc.returncode == 0 and "#ttg.blocked" in proc.stdout, proc.stderr


def test_make_ttir_is_verified_again_only_when_a_later_pipeline_fails(kernel_dir, monkeypatch):
    """ttc.compile verifies the frontend's module and make-ttgir's, not make-ttir's; when make-ttir or make-ttgir
    fails, it compiles again verifying every stage, which reports what such a compile reports: here a broken
    make-ttir (its function left without a terminator) at make-ttir, with make-ttir's reproducer, as with
    MLIR_ENABLE_TIMING (which prints between the pipelines, so every stage is verified)."""
    from ttc.ir import verifier
    from ttc.ir.diagnostics import CompileError
    from ttc.passes.make_ttir import MakeTTIR

    tmp, _ = kernel_dir
    monkeypatch.setenv("TRITON_REPRODUCER_PATH", str(tmp / "repro.mlir"))
    text = (tmp / "k.py").read_text()
    verified = []
    verify = verifier.verify_module
    monkeypatch.setattr(verifier, "verify_module", lambda m, s=None: verified.append(m) or verify(m, s))
    good = ttc.compile("k.py", "bias_gelu_kernel", SIG, text=text, use_cache=False, stage="ttgir")
    assert len(verified) == 2 and good.ttgir
    apply = MakeTTIR.apply

    def broken(self, ctx, module):
        apply(self, ctx, module)
        ret = next(op for op in module.walk() if op.name == "tt.return")
        ret.detach()
        ret.erase()

    monkeypatch.setattr(MakeTTIR, "apply", broken)
    renders = []
    for timing in ("", "1"):
        monkeypatch.setenv("MLIR_ENABLE_TIMING", timing)
        verified.clear()
        with pytest.raises(CompileError) as failure:
            ttc.compile("k.py", "bias_gelu_kernel", SIG, text=text, use_cache=False)
        renders.append(failure.value.render())
    assert renders[0] == renders[1]
    assert "block with no terminator" in renders[0] and "while executing 'make-ttir'" in renders[0]


def test_timing_and_ir_dumps_from_the_environment(kernel_dir):
    tmp, env = kernel_dir
    proc = _tt_compile(tmp, env, extra_env={"MLIR_ENABLE_TIMING": "1"})
    assert proc.stderr.count("... Execution time report ...") == 2  # one per pass manager: make-ttir, make-ttgir
    proc = _tt_compile(tmp, env, extra_env={"MLIR_ENABLE_DUMP": "1", "MLIR_DUMP_PATH": str(tmp / "dump.mlir")})
    dump = (tmp / "dump.mlir").read_text()
    assert "// -----// IR Dump Before MakeTTIR (make-ttir) ('builtin.module' operation) //----- //" in dump
    assert "// -----// IR Dump Before MakeTTGIR (make-ttgir) ('builtin.module' operation) //----- //" in dump
    proc = _tt_compile(tmp, env, "--stage", "llir", "-o", "k.llir", extra_env={"LLVM_IR_ENABLE_DUMP": "1"})
    assert "; *** IR Dump After O3 ***" in proc.stderr and (tmp / "k.llir.json").exists()


def test_the_cache_key_reads_every_source_of_the_compiler():
    """The compiler's part of the cache key hashes every source file of `ttc` and `ttc.passes`, in every folder
    (a change anywhere in the compiler is a miss), and nothing else."""
    from ttc.driver.cache import source_files

    root = Path(__file__).resolve().parents[2]
    files = {os.path.relpath(p, root) for p in source_files()}
    want = {os.path.relpath(p, root) for folder in ("ttc", "passes") for p in (root / folder).rglob("*.py")
            if "__pycache__" not in p.parts}
    assert want <= files and {"ttc/ir/tt.py", "ttc/driver/cache.py", "passes/pipeliner/expander.py"} <= files
    assert all(f.startswith(("ttc/", "passes/")) for f in files)


def test_preload_leaves_a_compile_nothing_to_import(tmp_path):
    """`compiler.preload` (tt-tune's compile processes run it while the parent reads the kernel) imports what a
    cold compile of a dot kernel up to PTX imports: the compile after it imports nothing of ttc, xDSL or llvmlite."""
    code = f"""
import sys
from ttc.driver import compiler
compiler.preload("cuda:90")
before = set(sys.modules)
compiler.compile("kernels/matmul.py", "matmul_kernel", {_spec("matmul")["signature"]!r},
                 compiler.Options(num_warps=4, num_stages=3), stage="ptx", use_cache=False)
print(sorted(m for m in set(sys.modules) - before if m.split(".")[0] in ("ttc", "xdsl", "llvmlite")))
"""
    proc = subprocess.run([os.sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "TRITON_CACHE_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "[]", proc.stdout
