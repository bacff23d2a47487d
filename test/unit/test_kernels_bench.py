"""bench/kernels_bench.py's CPU side: `--scale` rewrites each SCALABLE kernel's spec into a valid, larger one
(grid, scalars and arrays in step), and `best_of` keeps the fastest of the rounds."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import kernels_bench as kb  # noqa: E402

from ttc.runtime import spec as specs  # noqa: E402


@pytest.mark.parametrize("name", sorted(kb.SCALABLE))
def test_scaled_spec_is_valid_and_larger(name, tmp_path):
    raw = json.loads((ROOT / "kernels" / f"{name}.json").read_text())
    big = kb.scaled_spec(raw, kb.SCALABLE[name], 10)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(big))
    spec = specs.load(path)
    small = specs.load(ROOT / "kernels" / f"{name}.json")
    values = lambda s: {a.name: specs.scalar_value(a) for a in s.args if not a.is_ptr}  # noqa: E731
    grid, grid0 = specs.grid(spec, values(spec)), specs.grid(small, values(small))
    assert 9 * grid0[0] <= grid[0] <= 10 * grid0[0]
    for name_ in kb.SCALABLE[name].get("rows", []):
        assert spec.arg(name_).shape[0] == 10 * small.arg(name_).shape[0]
    for name_ in kb.SCALABLE[name].get("programs", []):
        assert spec.arg(name_).shape[0] == grid[0]
    assert raw == json.loads((ROOT / "kernels" / f"{name}.json").read_text())  # the spec itself is untouched


def test_scaling_a_computed_grid_needs_values():
    raw = json.loads((ROOT / "kernels" / "vector_add.json").read_text())
    with pytest.raises(ValueError, match="not a number"):
        kb.scaled_spec(raw, {"grid": True}, 2)


def test_best_of_keeps_the_faster_round():
    slow = {"ok": True, "bench": {"median_ms": 0.02}}
    fast = {"ok": True, "bench": {"median_ms": 0.01}}
    r = kb.best_of(slow, fast)
    assert r["bench"]["median_ms"] == 0.01 and r["rounds_ms"] == [0.02, 0.01] and r["ok"]
    assert kb.best_of(fast, dict(slow, ok=False))["ok"] is False
    unchecked = {"ok": None, "bench": {"median_ms": 0.005}}  # a later round times without --check
    r = kb.best_of(kb.best_of(dict(slow, check={"y": {"ok": True}}, bit_differences={"y": 0}), fast), unchecked)
    assert r["ok"] and r["check"] == {"y": {"ok": True}} and r["rounds_ms"] == [0.02, 0.01, 0.005]
    assert r["bit_differences"] == {"y": 0}  # the checked round's comparison with the other side, kept
    failed = {"ok": False, "error": "x"}
    assert kb.best_of(failed, fast) is failed and kb.best_of(fast, failed) is failed


def test_round_ratios_pair_the_sides_round_by_round():
    ours = {"rounds_ms": [1.0, 2.0, 0.5]}
    theirs = {"rounds_ms": [1.1, 1.8, 0.5]}
    assert kb.round_ratios({"ours": ours, "triton": theirs}) == pytest.approx([1.1, 0.9, 1.0])
    assert kb.round_ratios({"ours": {}, "triton": theirs}) == []


def test_rounds_below_one_is_refused():
    with pytest.raises(SystemExit) as e:
        kb.main(["--rounds", "0", "--no-gpu"])
    assert e.value.code == 2


def test_launch_pair_splits_one_report_into_both_sides(monkeypatch):
    """`tt-run FIRST --against SECOND --json`: the top level is FIRST's, "against" SECOND's; each side's ok
    is its own checks'; no report (a launch failed) gives None, so that the round runs the sides apart."""
    calls = []

    def fake(cubin, spec, check=True, against=None):
        calls.append((cubin, against, check))
        return {"ok": False, "rc": 1, "bench": {"median_ms": 1.0}, "check": {"out": {"ok": True}}, "outputs": {},
                "against": {"file": against, "ok": False, "bench": {"median_ms": 2.0}, "check": {"out": {"ok": False}}}}

    monkeypatch.setattr(kb.gb, "run_ours", fake)
    pair = kb.launch_pair({"ours": "o.cubin", "triton": "t.cubin"}, ("triton", "ours"), "s.json", check=True)
    assert calls == [("t.cubin", "o.cubin", True)]
    assert pair["triton"]["bench"]["median_ms"] == 1.0 and pair["triton"]["ok"] and "against" not in pair["triton"]
    assert "rc" not in pair["triton"]  # the exit status 1 is the other side's failed check
    assert pair["ours"]["bench"]["median_ms"] == 2.0 and pair["ours"]["ok"] is False
    monkeypatch.setattr(kb.gb, "run_ours", lambda *a, **k: {"ok": False, "error": "cuModuleLoadData failed"})
    assert kb.launch_pair({"ours": "o.cubin", "triton": "t.cubin"}, ("ours", "triton"), "s.json", check=False) is None


def test_paired_outputs_compared_bit_for_bit(monkeypatch, capsys):
    """A checked pair carries tt-run's per-output count of elements whose bits differ to both sides, and the
    table ends with the kernels whose outputs are not Triton's bit for bit."""
    monkeypatch.setattr(kb.gb, "run_ours", lambda *a, **k: {
        "ok": True, "bench": {"median_ms": 1.0}, "check": {"y": {"ok": True}},
        "against": {"ok": True, "bench": {"median_ms": 1.0}, "check": {"y": {"ok": True}}, "bit_differences": {"y": 3}}})
    pair = kb.launch_pair({"ours": "o.cubin", "triton": "t.cubin"}, ("ours", "triton"), "s.json", check=True)
    assert pair["ours"]["bit_differences"] == pair["triton"]["bit_differences"] == {"y": 3}
    same = {"ours": {"ok": True, "bit_differences": {"y": 0}}, "triton": {"ok": True}}
    kb.print_table({"kernels": {"softmax": {"ours": pair["ours"], "triton": pair["triton"]}, "add": same}})
    assert capsys.readouterr().out.splitlines()[-1] == "outputs the same bits as Triton's: 1 of 2 kernels; differ: softmax (y 3)"
