"""The README's test command is exactly what CI runs (the README's and docs/' examples: test_docs_blocks.py)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    lines = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    ci = next(line for line in lines if "pytest" in line)
    assert ci in readme, f".ci/run's command {ci!r} is not the README's"
    assert lines[-1] == "bash test/upstream/ratchet.sh -j 2" and lines[-1] in readme  # then the upstream ratchet
