"""Which assembler tt-as, tt-compile and tt-translate's PTX version follow: a named ptxas, $TRITON_PTXAS_PATH, a ptxas
found on PATH (CUDA 12.0 or newer), else nvJitLink (target.default_ptxas)."""

import os
import stat

import pytest

from ttc.lowering import target


def _fake_ptxas(folder, release: str) -> str:
    path = folder / "ptxas"
    path.write_text(f"#!/bin/sh\necho 'Cuda compilation tools, release {release}, V{release}.0'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
def clean(monkeypatch, tmp_path):
    for var in ("TRITON_PTXAS_PATH", "TTC_ASSEMBLER", "CUDA_HOME", "CUDA_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    (tmp_path / "bin").mkdir()
    monkeypatch.setattr(target, "PTX_VERSIONS", str(tmp_path / "ptx_versions.json"))
    target.default_ptxas.cache_clear()
    target.assembler_cuda.cache_clear()
    yield tmp_path
    target.default_ptxas.cache_clear()
    target.assembler_cuda.cache_clear()


def test_a_ptxas_on_path_is_used(clean):
    found = _fake_ptxas(clean / "bin", "12.8")
    assert target.default_ptxas() == found
    assert target.assembler_cuda(found) == (12, 8)


def test_a_ptxas_too_old_for_sm90a_is_not(clean, monkeypatch):
    _fake_ptxas(clean / "bin", "11.8")
    monkeypatch.setattr(target, "MIN_PTXAS", (12, 0))
    assert target.default_ptxas() in (None, "/usr/local/cuda/bin/ptxas")  # this machine's toolkit may follow
    assert target.default_ptxas() != str(clean / "bin" / "ptxas")


def test_triton_ptxas_path_wins_and_nvjitlink_can_be_asked_for(clean, monkeypatch):
    _fake_ptxas(clean / "bin", "12.8")
    monkeypatch.setenv("TRITON_PTXAS_PATH", "/opt/triton/ptxas")
    assert target.default_ptxas() == "/opt/triton/ptxas"
    monkeypatch.delenv("TRITON_PTXAS_PATH")
    monkeypatch.setenv("TTC_ASSEMBLER", "nvjitlink")
    target.default_ptxas.cache_clear()
    assert target.default_ptxas() is None


def test_cuda_home_is_searched(clean, monkeypatch):
    (clean / "cuda" / "bin").mkdir(parents=True)
    found = _fake_ptxas(clean / "cuda" / "bin", "13.0")
    monkeypatch.setenv("CUDA_HOME", str(clean / "cuda"))
    assert target.default_ptxas() == found


def test_ptxas_version_is_asked_once_per_ptxas_file(clean):
    """`ptxas --version` runs in the first process that meets a ptxas file, not in later ones (its release is kept
    in PTX_VERSIONS under the file's path, size and modification time); a changed file is asked again."""
    runs = clean / "runs"
    path = clean / "bin" / "ptxas"

    def write(release):
        path.write_text(f"#!/bin/sh\necho run >> {runs}\necho 'Cuda compilation tools, release {release}, V{release}.0'\n")
        path.chmod(0o755)

    def fresh_process():  # what a new process has: no answer in memory
        target.default_ptxas.cache_clear()
        target.assembler_cuda.cache_clear()
        return target.default_ptxas(), target.assembler_cuda(str(path))

    write("12.8")
    assert fresh_process() == (str(path), (12, 8)) and runs.read_text() == "run\n"
    assert fresh_process() == (str(path), (12, 8)) and runs.read_text() == "run\n"
    write("13.0")  # another size: another file
    assert fresh_process() == (str(path), (13, 0)) and runs.read_text() == "run\nrun\n"
    assert fresh_process() == (str(path), (13, 0)) and runs.read_text() == "run\nrun\n"
