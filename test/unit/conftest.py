"""Session-wide set-up for the unit tests, safe under pytest-xdist (each worker is its own session).

- `TRITON_CACHE_DIR` points at a directory of this session (worker), so no test reads or fills the user's
  ~/.triton/cache and parallel workers never share a cache; a test wanting an empty cache still makes its own.
- `tool_path`: a PATH whose ttc commands, `filecheck` and `lit` are clients of test/toolserver.py, a fork
  server that imported ttc once, so a lit RUN line or a pipe costs a fork instead of a Python start-up
  (test_lit, test_compile, test_end_to_end, test_tt_tune's interpreter runs; the README's examples and
  entry-point tests keep the installed ones).
- Under xdist, the tests sharing a cached compile run on one worker (`pytest_xdist_make_scheduler`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[1] / "toolserver.py"


@pytest.fixture(scope="session", autouse=True)
def _session_cache_dir(tmp_path_factory):
    old = os.environ.get("TRITON_CACHE_DIR")
    os.environ["TRITON_CACHE_DIR"] = str(tmp_path_factory.mktemp("triton-cache"))
    yield
    if old is None:
        os.environ.pop("TRITON_CACHE_DIR", None)
    else:
        os.environ["TRITON_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def tool_path(tmp_path_factory) -> str:
    """PATH with the fork server's clients first (the commands behave as installed: argv, stdio, exit code)."""
    directory = tmp_path_factory.mktemp("toolserver")
    proc = subprocess.Popen([sys.executable, str(SERVER), str(directory)], stdout=subprocess.PIPE, text=True)
    if proc.stdout.readline().strip() != "ready":
        proc.kill()
        pytest.fail("test/toolserver.py did not start", pytrace=False)
    yield f"{directory / 'bin'}{os.pathsep}{os.environ['PATH']}"
    proc.terminate()  # it reaps its children first, so their CPU time is counted as the commands' would be
    proc.wait()


@pytest.fixture
def use_tool_server(tool_path, monkeypatch):
    """For a module whose subprocesses run ttc's commands: `pytestmark = pytest.mark.usefixtures(...)`."""
    monkeypatch.setenv("PATH", tool_path)


# Modules whose parametrized tests share a cached result per parameter (a fixture's compile or parse): under
# xdist each parameter's tests go to one worker, so each result is made once. (pytest-xdist's own
# `--dist loadgroup` reads marks through a node id that pytest 9 no longer lets it change.)
SHARED_BY_PARAM = {"test_frontend.py", "test_make_ttir.py", "test_make_ttgir.py", "test_roundtrip.py"}
# Modules whose tests share one module-scoped fixture that does the work of them all (test_docs_blocks's `started`
# runs every page's blocks): their tests form one unit, or each worker running one of them would run every page.
SHARED_BY_MODULE = {"test_docs_blocks.py"}


def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    if config.getvalue("dist") != "load":  # an explicit --dist is the caller's choice
        return None

    class ByParameter(LoadScopeScheduling):
        """Each test is its own unit of work, except that a module of SHARED_BY_PARAM's tests with the same
        parameters (`file.py[name]`) form one, and a module of SHARED_BY_MODULE is one."""

        def _split_scope(self, nodeid: str) -> str:
            path, _, rest = nodeid.partition("::")
            if Path(path).name in SHARED_BY_MODULE:
                return path
            if Path(path).name in SHARED_BY_PARAM and rest.endswith("]") and "[" in rest:
                return f"{path}[{rest.split('[', 1)[1]}"
            return nodeid

    return ByParameter(config, log)
