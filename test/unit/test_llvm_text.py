"""ttc.lowering.llvm_text writes exactly what llvmlite's str(module) writes, for every kernel's lowered module (a
drift in llvmlite's printing, which llvm_text mirrors for speed, fails here rather than in the LLVM IR stage)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ttc
from ttc.lowering import llvm_text, translate
from ttc.runtime.spec import kernel_source

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted(p.stem for p in (ROOT / "kernels").glob("*.json"))


@pytest.mark.parametrize("kernel", KERNELS)
def test_module_text_is_llvmlites(kernel, monkeypatch):
    spec = json.loads((ROOT / "kernels" / f"{kernel}.json").read_text())
    seen = []

    def capture(module):
        seen.append(module)
        return llvm_text.module_text(module)

    monkeypatch.setattr(translate, "module_text", capture)
    src = kernel_source(ROOT / "kernels" / f"{kernel}.json")
    ttc.compile(str(src), spec["kernel"], spec["signature"], ttc.Options(num_warps=spec.get("num_warps", 4)),
                stage="llir", use_cache=False)
    assert len(seen) == 1
    assert llvm_text.module_text(seen[0]) == str(seen[0])
