"""O3's SLP vectorizer is bounded by basic-block size (`target.optimize`, `SLP_MAX_BLOCK`): its time grows about
quadratically with one block's size, so a kernel whose largest block is over the bound is optimized without it.
The decision comes from `LoweredKernel.largest_block`; every fixture is far below the bound (its PTX unchanged).
The time itself is measured by bench/module_size.py, not here."""

import re
from pathlib import Path

import llvmlite.binding as llvm

from ttc.lowering import pipeline, target
from ttc.lowering.translate import lower_module

FIXTURE = Path(__file__).resolve().parents[2] / "test" / "fixtures" / "triton" / "tma_add.nodebug.ttgir"


def _o3_ir() -> str:
    mod, _, _ = pipeline.to_llvm(FIXTURE.read_text(), str(FIXTURE), pipeline.Options())
    return str(mod)


def test_largest_block_counts_the_lowered_kernels_biggest_block():
    ttgir = pipeline.parse_ttgir(FIXTURE.read_text(), str(FIXTURE), pipeline.Options())
    tm = target.target_machine(ttgir.cpu, ttgir.ptx_version)
    lowered = lower_module(ttgir.module, source=ttgir.source, data_layout=target.data_layout(tm),
                           target="cuda:90", source_hash=ttgir.hash)
    mod = llvm.parse_assembly(lowered.llvm_ir)
    sizes = [sum(1 for _ in bb.instructions) for f in mod.functions for bb in f.blocks]
    assert lowered.largest_block == max(sizes) > 100


def test_slp_pairs_f16_adds_below_the_bound():
    assert target.slp_vectorizes(target.SLP_MAX_BLOCK) and not target.slp_vectorizes(target.SLP_MAX_BLOCK + 1)
    assert re.search(r"fadd contract <\d+ x half>", _o3_ir())


def test_slp_is_off_when_the_largest_block_is_over_the_bound(monkeypatch):
    monkeypatch.setattr(target, "SLP_MAX_BLOCK", 100)
    ir = _o3_ir()
    assert "fadd contract half" in ir and not re.search(r"fadd contract <\d+ x half>", ir)
