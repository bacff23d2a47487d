"""`-make-ttgir` against Triton's own make_ttgir output (test/fixtures/triton/*.ttgir, Triton 3.6).

For the memory-bound kernels two levels are checked separately:
- layouts: every tt.load / tt.store / tt.atomic_rmw gets, operand by operand, the same layout as in Triton's
  TTGIR (sizePerThread, threadsPerWarp, warpsPerCTA, order, compared as fields);
- text: the whole output equals Triton's (`<name>.nodebug.ttgir`) exactly.
Each fixture is listed with the level it reaches (all memory-bound ones reach `text`). Tensor-core kernels
(matmul, attention) need passes that are not part of this pipeline (MMA v3, pipelining, ...): for them the
pipeline must run, verify, give f16/bf16 dots MMA v2 layouts (with Triton's warpsPerCTA where Triton uses v2
too: the sm80 fixtures) and other dots blocked ones, and coalesce their global loads as Triton does before
those passes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ttc.ir import context, parse, print_ir
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, SliceEncoding
from ttc.ir.printer import attr_text
from ttc.lowering.mma_v2 import MmaKind, mma_v2_kind
from ttc.ir.types import elt, encoding
from ttc.passmanager import make_pass

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "triton"
MANIFEST = json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"]

# fixture -> the level our output reaches ("text" implies "layouts")
MEMORY_BOUND = {
    "vector_add": "text",
    "vector_add_b256_nohint": "text",
    "vector_add_bf16_i64": "text",
    "vector_add_w8_fp16": "text",
    "softmax": "text",
    "softmax_b1024_w8": "text",
    "softmax_fp16_b512": "text",
    "layer_norm": "text",
    "layer_norm_b1024_w8": "text",
    "cumsum": "text",
    "cumsum_i32_b1024_w8": "text",
    "histogram": "text",
    "histogram_b4096_w8": "text",
    "reduce_custom": "text",
    "reduce_custom_b1024_w8": "text",
    "transpose": "text",
    "transpose_fp16_64x64_w8": "text",
    "while_loop": "text",
    "while_loop_i64_w1": "text",
    "helper_call": "text",
}
TENSOR_CORE = sorted(k for k in MANIFEST if k not in MEMORY_BOUND)
MEMORY_OPS = ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas")


def options(name: str) -> str:
    m = MANIFEST[name]
    cap = m["target"].split(":")[1]
    return f"target=cuda:{cap} num-warps={m['num_warps']} num-stages={m['num_stages']}"


_cache: dict[str, object] = {}


def run(name: str):
    """Our -make-ttgir output module for a fixture (cached)."""
    if name not in _cache:
        module = parse((FIXTURES / f"{name}.nodebug.ttir").read_text(), f"{name}.nodebug.ttir")
        make_pass("make-ttgir", options(name)).apply(context(), module)
        _cache[name] = module
    return _cache[name]


def expected(name: str):
    return parse((FIXTURES / f"{name}.nodebug.ttgir").read_text(), f"{name}.nodebug.ttgir")


def layout_fields(enc) -> tuple:
    if isinstance(enc, BlockedEncoding):
        return ("blocked", tuple(enc["sizePerThread"]), tuple(enc["threadsPerWarp"]), tuple(enc["warpsPerCTA"]),
                tuple(enc["order"]))
    if isinstance(enc, SliceEncoding):
        return ("slice", enc["dim"], layout_fields(enc["parent"]))
    if isinstance(enc, DotOperandEncoding):
        return ("dot_op", enc["opIdx"], layout_fields(enc["parent"]))
    return (str(enc),)


def memory_layouts(module) -> list:
    out = []
    for op in module.walk():
        if op.name in MEMORY_OPS:
            out.append((op.name, [layout_fields(encoding(v.type)) for v in op.operands if encoding(v.type) is not None]))
    return out


@pytest.mark.parametrize("name", sorted(MEMORY_BOUND))
def test_memory_access_layouts_match_triton(name):
    got, want = memory_layouts(run(name)), memory_layouts(expected(name))
    assert want, "the fixture has global memory accesses"
    assert got == want


@pytest.mark.parametrize("name", sorted(k for k, level in MEMORY_BOUND.items() if level == "text"))
def test_output_equals_triton_text(name):
    got = print_ir(run(name))
    want = (FIXTURES / f"{name}.nodebug.ttgir").read_text()
    assert got.strip() == want.strip()


def test_every_memory_bound_fixture_is_listed():
    # a new fixture must be given a level here (or be a tensor-core kernel)
    assert all(name in MANIFEST for name in MEMORY_BOUND)
    assert all(("matmul" in name or "attention" in name) for name in TENSOR_CORE)


@pytest.mark.parametrize("name", TENSOR_CORE)
def test_tensor_core_kernels_run_and_verify(name):
    text = print_ir(run(name))
    reparsed = parse(text, f"{name}.ttgir")  # parses and verifies
    dots = [op for op in reparsed.walk() if op.name == "tt.dot"]
    assert dots, "the kernel has a dot"
    cap = int(MANIFEST[name]["target"].split(":")[1])
    for d in dots:
        enc = encoding(d.results[0].type)
        a, b = (v.owner.src if v.owner.name == "tt.fp_to_fp" else v for v in (d.a, d.b))  # upcast fp8 operands
        kind = mma_v2_kind(elt(a.type), elt(b.type), elt(d.d.type), d.inputPrecision.value.data, cap)
        if isinstance(kind, MmaKind):
            assert isinstance(enc, NvidiaMmaEncoding) and enc["versionMajor"] == 2
            assert encoding(d.a.type) == DotOperandEncoding.make(opIdx=0, parent=enc, kWidth=kind.k_width)
            assert encoding(d.b.type) == DotOperandEncoding.make(opIdx=1, parent=enc, kWidth=kind.k_width)
        else:
            assert isinstance(enc, BlockedEncoding)
    for op in reparsed.walk():
        for v in list(op.operands) + list(op.results):
            if v.type.name == "tensor":
                assert encoding(v.type) is not None, f"a tensor without layout in {op.name}"


# fixtures whose tensor-core layouts ttc does not produce yet: name -> why
NOT_YET: dict[str, str] = {}
SM8X = [k for k in TENSOR_CORE if MANIFEST[k]["target"].startswith("cuda:8")]


def _xfail(names):
    return [pytest.param(n, marks=pytest.mark.xfail(reason=NOT_YET[n], strict=True)) if n in NOT_YET else n
            for n in names]


@pytest.mark.parametrize("name", _xfail(SM8X))
def test_mma_v2_layouts_equal_tritons(name):
    """On sm80 Triton uses MMA v2 too: the same #mma layouts (warpsPerCTA from warpsPerTileV2), dot operand
    layouts (kWidth) and operand buffers' swizzled shared layouts."""
    def mmas(module):
        return sorted({attr_text(encoding(op.results[0].type)) for op in module.walk() if op.name == "tt.dot"})

    def operands(module):
        return sorted({attr_text(encoding(v.type)) for op in module.walk() if op.name == "tt.dot" for v in op.operands[:2]})

    def buffers(module):
        return sorted({attr_text(op.results[0].type.encoding) for op in module.walk() if op.name == "ttg.local_alloc"})

    theirs = mmas(expected(name))
    assert theirs and all("versionMajor = 2" in t for t in theirs)
    assert mmas(run(name)) == theirs
    assert operands(run(name)) == operands(expected(name))
    assert buffers(run(name)) == buffers(expected(name))


@pytest.mark.parametrize("name", _xfail(SM8X))
def test_async_copy_layouts_equal_tritons(name):
    """Where Triton pipelines with cp.async (sm80/sm89), our pipeliner's copies read the same source layouts
    (coalesced, sizePerThread clipped to the buffer's vec: Triton's coalesce-async-copy; Triton pipelines more
    copies per kernel in attention, with the same layouts)."""
    def copies(module):
        return {layout_fields(encoding(op.operands[0].type)) for op in module.walk()
                if op.name == "ttg.async_copy_global_to_local"}

    assert copies(expected(name))
    assert copies(run(name)) == copies(expected(name))


@pytest.mark.parametrize("name", [k for k in TENSOR_CORE if k not in SM8X])
def test_tensor_core_kernels_coalesce_like_triton(name):
    """Triton's tensor-core passes keep the layouts coalescing gives global loads (as the sources of the async
    copies the pipeliner makes): after our convert + coalesce + remove-layout-conversions, the loads' pointer
    layouts are exactly those."""
    module = parse((FIXTURES / f"{name}.nodebug.ttir").read_text(), f"{name}.nodebug.ttir")
    m = MANIFEST[name]
    cap = m["target"].split(":")[1]
    for p, o in (("convert-triton-to-tritongpu", f"target=cuda:{cap} num-warps={m['num_warps']}"),
                 ("tritongpu-coalesce", ""), ("tritongpu-remove-layout-conversions", "")):
        make_pass(p, o).apply(context(), module)
    ours = {layout_fields(encoding(op.operands[0].type)) for op in module.walk() if op.name == "tt.load"}
    theirs = {layout_fields(encoding(op.operands[0].type)) for op in expected(name).walk()
              if op.name in ("ttg.async_copy_global_to_local", "tt.load") and encoding(op.operands[0].type)}
    assert ours == theirs
