"""The README's test command is exactly what CI runs."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    lines = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    ci = next(line for line in lines if "pytest" in line)
    assert ci in readme, f".ci/run's command {ci!r} is not the README's"
    assert lines[-1] == "bash test/upstream/ratchet.sh -j 2" and lines[-1] in readme  # then the upstream ratchet


def test_debugging_workflow_example_runs(tmp_path):
    """The README's dump/edit/re-run example works as pasted (from a copy of the repository's kernels)."""
    import shutil
    import subprocess

    readme = (ROOT / "README.md").read_text()
    block = readme.split("Copy, paste and run this", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    shutil.copytree(ROOT / "kernels", tmp_path / "kernels")
    proc = subprocess.run(["bash", "-c", block], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]  # the last check finds x - y
    assert "error" not in proc.stderr, proc.stderr
    assert "tt-opt: overriding add_kernel.ttgir with" in proc.stderr
    assert "sub.f32" in proc.stdout and "out: MISMATCH" in proc.stdout
    assert sorted(p.name for p in (tmp_path / "dump").glob("*/*")) == [
        "add_kernel.cubin", "add_kernel.json", "add_kernel.llir", "add_kernel.ptx", "add_kernel.ttgir", "add_kernel.ttir"]


def test_tt_compile_example_runs(tmp_path):
    """The README's tt-compile example works as pasted: compiled, then a cache hit, then a stage."""
    import os
    import shutil
    import subprocess

    readme = (ROOT / "README.md").read_text()
    block = readme.split("## One command for every stage", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    shutil.copytree(ROOT / "kernels", tmp_path / "kernels")
    env = {**os.environ, "TRITON_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "tt-compile: compiled (frontend" in proc.stderr and "tt-compile: cache hit:" in proc.stderr
    assert (tmp_path / "softmax.cubin").read_bytes()[:4] == b"\x7fELF" and (tmp_path / "softmax.cubin.json").exists()
    assert proc.stdout.startswith("#blocked")
