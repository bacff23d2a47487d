"""tt-as and tt-translate as commands: TTGIR -> PTX -> CUBIN through files and pipes, metadata sidecars,
assembler errors, ptxas, and the SASS listing."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTOR_ADD = ROOT / "test" / "fixtures" / "triton" / "vector_add.ttgir"
BAD_PTX = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { foo.bar %r1; ret; }\n"


def tool(name, *args, stdin=None, env=None):
    return subprocess.run([sys.executable, "-m", f"ttc.tools.{name}", *map(str, args)], input=stdin,
                          capture_output=True, env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def ptx_file(tmp_path_factory):
    d = tmp_path_factory.mktemp("ptx")
    out = d / "add.ptx"
    p = tool("tt_translate", VECTOR_ADD, "--target=ptx", "-o", out)
    assert p.returncode == 0, p.stderr.decode()
    return out


def test_files_and_sidecars(ptx_file, tmp_path):
    meta = json.loads(Path(str(ptx_file) + ".json").read_text())
    assert meta["name"] == "add_kernel" and meta["num_warps"] == 4 and meta["target"] == "cuda:90a"
    cubin = tmp_path / "add.cubin"
    p = tool("tt_as", ptx_file, "-o", cubin)
    assert p.returncode == 0, p.stderr.decode()
    assert cubin.read_bytes()[:4] == b"\x7fELF"
    assert json.loads(Path(str(cubin) + ".json").read_text()) == meta


def test_sidecar_of_the_input_wins(ptx_file, tmp_path):
    ptx = tmp_path / "k.ptx"
    shutil.copy(ptx_file, ptx)
    meta = json.loads(Path(str(ptx_file) + ".json").read_text())
    Path(str(ptx) + ".json").write_text(json.dumps(dict(meta, shared=4096)))
    p = tool("tt_as", ptx, "-o", tmp_path / "k.cubin", "--sm", "90a")
    assert p.returncode == 0, p.stderr.decode()
    out = json.loads(Path(str(tmp_path / "k.cubin") + ".json").read_text())
    assert out["shared"] == 4096 and out["target"] == "cuda:90a"


def test_pipe_from_ttgir_to_cubin():
    ptx = tool("tt_translate", VECTOR_ADD, "--target=ptx")
    assert ptx.returncode == 0, ptx.stderr.decode()
    assert ptx.stdout.startswith(b"// ttc.metadata: ")
    p = tool("tt_as", "-", stdin=ptx.stdout)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout[:4] == b"\x7fELF"


def test_llvm_ir_file_to_ptx_keeps_metadata(tmp_path):
    ll = tmp_path / "add.ll"
    assert tool("tt_translate", VECTOR_ADD, "--target=llvmir", "-o", ll).returncode == 0
    assert "!ttc.metadata" in ll.read_text()
    p = tool("tt_translate", ll, "--target=ptx", "--ptx-version", "8.4")
    assert p.returncode == 0, p.stderr.decode()
    assert b".version 8.4" in p.stdout and b'"name": "add_kernel"' in p.stdout


def test_assembler_errors_exit_1(tmp_path):
    bad = tmp_path / "bad.ptx"
    bad.write_text(BAD_PTX)
    out = tmp_path / "bad.cubin"
    p = tool("tt_as", bad, "-o", out)
    err = p.stderr.decode()
    assert p.returncode == 1
    assert "error" in err and "foo" in err and "Traceback" not in err
    assert not out.exists()


def test_not_ptx_is_a_usage_error(tmp_path):
    p = tool("tt_as", "-", stdin=b"hello\n")
    assert p.returncode == 1 and b"tt-as: error:" in p.stderr


def test_missing_ptxas_is_reported(ptx_file, tmp_path):
    p = tool("tt_as", ptx_file, "-o", tmp_path / "x.cubin", "--ptxas", tmp_path / "no-such-ptxas")
    assert p.returncode == 1 and b"cannot run ptxas" in p.stderr


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="no ptxas on PATH")
def test_ptxas_from_the_environment(ptx_file, tmp_path):
    out = tmp_path / "p.cubin"
    p = tool("tt_as", ptx_file, "-o", out, "--maxrregcount", "64", "--opt-level", "3",
             env={"TRITON_PTXAS_PATH": shutil.which("ptxas")})
    assert p.returncode == 0, p.stderr.decode()
    assert out.read_bytes()[:4] == b"\x7fELF"
    bad = tmp_path / "bad.ptx"
    bad.write_text(BAD_PTX)
    p = tool("tt_as", bad, "-o", tmp_path / "b.cubin", "--ptxas", shutil.which("ptxas"))
    assert p.returncode == 1 and b"foo" in p.stderr


def test_sass_listing(ptx_file):
    """nvdisasm comes with the install (the nvidia-cuda-nvdisasm wheel), so --sass works without a toolkit."""
    p = tool("tt_as", ptx_file, "--sass")
    assert p.returncode == 0, p.stderr.decode()
    assert b"LDG.E" in p.stdout and b"STG.E" in p.stdout  # vector add, no hint on n: one element per access
