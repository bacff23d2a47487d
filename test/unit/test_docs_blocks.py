"""Every `sh` and `python` block of README.md and docs/*.md runs as written, from the root of a fresh copy of the
checkout: the blocks of a page in order, in one shell (as if pasted into one terminal), each line under `set -e`;
the pages side by side, each in its own copy.
A comment `# => TEXT` on a line of a block says that TEXT appears in that block's output (stdout and stderr).
Afterwards `git status` of the copy must be clean: no file changed, no new file that .gitignore does not cover.

Words after the language in a fence mark blocks this test does not run: `gpu` (needs a GPU; run when one is
there), `ci` (CI's own commands, which .ci/run runs), `slow` (benchmarks of minutes). The README's set-up prefix
(venv, pip install) is the environment this suite runs in, so a block's copy of it is not run again.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))
SETUP = "python3 -m venv .venv && . .venv/bin/activate && pip install -q -e '.[test]' && "
FENCE = re.compile(r"^```([A-Za-z]+)([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
EXPECT = re.compile(r"#\s*=>\s*(.+?)\s*$", re.M)


def _has_gpu() -> bool:
    if os.environ.get("TTC_LIT_GPU") in ("0", "1"):  # as test/lit/lit.cfg.py decides
        return os.environ["TTC_LIT_GPU"] == "1"
    try:
        from cuda.bindings import driver

        return driver.cuInit(0)[0] == driver.CUresult.CUDA_SUCCESS and driver.cuDeviceGetCount()[1] > 0
    except Exception:
        return False


def blocks(page: str):
    """(language, the fence's other words, text, line of the fence) of each block of a page."""
    text = (ROOT / page).read_text()
    for m in FENCE.finditer(text):
        yield m.group(1), set(m.group(2).split()), m.group(3), text.count("\n", 0, m.start()) + 1


def runnable(page: str, gpu: bool):
    for lang, words, body, line in blocks(page):
        if lang in ("sh", "bash", "python") and not words & {"ci", "slow"} and (gpu or "gpu" not in words):
            yield lang, body.replace(SETUP, ""), line


def _checkout_copy(dest: Path) -> dict:
    """The checkout's files as a fresh clone has them (tracked, and new ones not ignored), in a git repository
    of their own; returns each file's (size, mtime) to find changes later."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    state = {}
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
            st = (dest / name).stat()
            state[name] = (st.st_size, st.st_mtime_ns)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    return state


def test_every_page_has_its_blocks_recognised():
    """A typo in a fence (```shell, ```Python) would silently leave a block out."""
    for page in PAGES:
        for lang, words, _, line in blocks(page):
            assert lang in ("sh", "bash", "python", "text"), f"{page}:{line}: fence language '{lang}'"
            assert words <= {"gpu", "ci", "slow"}, f"{page}:{line}: unknown fence words {words}"


def _start(page: str, tmp: Path, gpu: bool):
    """Start a page's blocks in a copy of the checkout, in the background: the pages run side by side."""
    work, home = tmp / "clone", tmp / "home"
    work.mkdir()
    home.mkdir()
    before = _checkout_copy(work)
    todo = list(runnable(page, gpu))
    script = ["set -e"]
    for i, (lang, body, _) in enumerate(todo):
        script.append(f"echo '@@block {i}'")
        script.append(body if lang != "python" else f"python3 - <<'TTC_DOCS_PY'\n{body}TTC_DOCS_PY")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRITON_", "MLIR_", "LLVM_IR_", "NVPTX_"))}
    env.update(HOME=str(home), PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    log = open(tmp / "output", "w+")
    proc = subprocess.Popen(["bash", "-c", "\n".join(script)], cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    return proc, log, work, before, todo


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    gpu = _has_gpu()
    runs = {p: _start(p, tmp_path_factory.mktemp("docs"), gpu) for p in PAGES if any(runnable(p, gpu))}
    yield runs
    for proc, log, *_ in runs.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()


@pytest.mark.parametrize("page", [p for p in PAGES if any(runnable(p, True))])
def test_blocks_run_as_written(page, started):
    if page not in started:
        pytest.skip("only GPU blocks, and no GPU")
    proc, log, work, before, todo = started[page]
    proc.wait()
    log.seek(0)
    output = log.read()
    outputs = re.split(r"^@@block \d+\n", output, flags=re.M)[1:]
    where = f"{page}:{todo[len(outputs) - 1][2]}" if outputs else page
    assert proc.returncode == 0, f"the block at {where} failed (exit {proc.returncode}):\n{output[-4000:]}"
    assert len(outputs) == len(todo)
    for (_, body, line), out in zip(todo, outputs):
        for want in EXPECT.findall(body):
            assert want in out, f"{page}:{line}: '{want}' is not in the block's output:\n{out[-3000:]}"
    changed = [n for n, state in before.items()
               if not (work / n).is_file() or ((work / n).stat().st_size, (work / n).stat().st_mtime_ns) != state]
    new = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=work, capture_output=True,
                         text=True, check=True).stdout.split()
    assert not changed, f"{page}'s blocks changed files of the checkout: {changed}"
    assert not set(new) - set(before), f"{page}'s blocks left files git does not ignore: {sorted(set(new) - set(before))}"
