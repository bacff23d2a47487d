"""Every pass of both pipelines keeps each kernel's meaning: for every kernel in kernels/, our frontend's TTIR
is run through -make-ttir and then -make-ttgir one pass at a time, and the interpreter's outputs after each pass
that changed the IR are identical to the outputs before the first pass. It also checks the end result of the
whole chain (Python -> TTIR -> TTGIR) against each spec's NumPy reference."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

from ttc.frontend.driver import compile_file
from ttc.ir.printer import print_ir
from ttc.ir.parser import parse
from ttc.ir.dialects import context
from ttc.opt.passmanager import make_pass
from ttc.passes.make_ttgir import pipeline as ttgir_pipeline
from ttc.passes.make_ttir import PIPELINE as TTIR_PIPELINE
from ttc.runtime import spec as specs
from ttc.runtime.check import run_checks
from ttc.runtime.launch import interpret

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted(p.stem for p in (ROOT / "kernels").glob("*.json"))


def _run(ir_text: str, spec, tmp_path: Path, tag: str) -> dict:
    path = tmp_path / f"{tag}.ttgir"
    path.write_text(ir_text)
    outcome = interpret(str(path), spec, specs.initial_values(spec), io.StringIO())
    return outcome.outputs


@pytest.mark.slow  # the interpreter after each of ~40 passes, every kernel
@pytest.mark.parametrize("kernel", KERNELS)
def test_every_pass_keeps_the_results(kernel, tmp_path):
    raw = json.loads((ROOT / "kernels" / f"{kernel}.json").read_text())
    spec = specs.load(ROOT / "kernels" / f"{kernel}.json")
    source = specs.kernel_source(ROOT / "kernels" / f"{kernel}.json")
    module = compile_file(str(source), raw["kernel"], raw["signature"])
    text = print_ir(module)
    reference = outputs = _run(text, spec, tmp_path, "frontend")
    steps = [(n, "") for n in TTIR_PIPELINE] + ttgir_pipeline("cuda:90", raw.get("num_warps", 4), 1)
    module = parse(text)
    ctx = context()
    for i, (name, options) in enumerate(steps):
        make_pass(name, options).apply(ctx, module)
        after = print_ir(module)
        if after == text:
            continue
        text = after
        outputs = _run(text, spec, tmp_path, f"{i}-{name}")
        for arg, want in reference.items():
            assert np.array_equal(outputs[arg], want, equal_nan=True), f"'{arg}' changed after pass {i} ({name})"
    # the final text's outputs are the last run's (the interpreter is deterministic: running it again gave the same)
    failures = [r for r in run_checks(spec, specs.initial_values(spec), outputs) if not r.ok]
    assert not failures, failures
