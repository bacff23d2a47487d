"""`-make-ttgir` against Triton's own make_ttgir output (test/fixtures/triton/*.ttgir, Triton 3.6).

For the memory-bound kernels two levels are checked separately:
- layouts: every tt.load / tt.store / tt.atomic_rmw gets, operand by operand, the same layout as in Triton's
  TTGIR (sizePerThread, threadsPerWarp, warpsPerCTA, order, compared as fields);
- text: the whole output equals Triton's (`<name>.nodebug.ttgir`) exactly.
Each fixture is listed with the level it reaches (all memory-bound ones reach `text`). Tensor-core kernels
(matmul, attention): on sm90 every dot gets Triton's MMA v3 (wgmma) layouts and shared operand layouts (the
`#ttg.nvidia_mma` and `#ttg.nvmma_shared` attributes equal Triton's); those listed in DOT_TEXT equal Triton's
text, the others are listed in DOT_DIFFERS with what still differs. On sm80 dots get MMA v2 layouts with Triton's
warpsPerCTA. All must run, verify and coalesce their global loads as Triton does.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from ttc.ir.printer import print_ir
from ttc.ir.parser import parse
from ttc.ir.dialects import context
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, NVMMASharedEncoding, SliceEncoding
from ttc.ir.attr_printer import attr_text
from ttc.lowering.mma_v2 import MmaKind, mma_v2_kind
from ttc.ir.types import elt, encoding
from ttc.opt.passmanager import make_pass

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "triton"
MANIFEST = json.loads((FIXTURES / "MANIFEST.json").read_text())["fixtures"]

# fixture -> the level our output reaches ("text" implies "layouts")
MEMORY_BOUND = {
    "tma_add": "text",  # TMA loads and stores through host descriptors
    "tma_add_device_desc": "text",  # descriptors made in the kernel (tensormaps in global scratch), a TMA reduce
    "tma_add_sm80": "text",  # below sm90 make-ttir rewrote the descriptors to masked pointer loads and stores
    "tma_add_device_desc_sm80": "text",
    "vector_add": "text",
    "fp8_downcast": "text",  # f32/f16 -> fp8 (rtne, satfinite) and f32 -> f16 rtz
    "desc_control_flow": "text",  # descriptors through arith.select, scf.if and scf.for
    "tma_bytes": "text",  # unswizzled nvmma_shared buffers (16-byte rows, a 5-d block)
    "vector_add_b256_nohint": "text",
    "vector_add_bf16_i64": "text",
    "vector_add_w8_fp16": "text",
    "softmax": "text",
    "softmax_b1024_w8": "text",
    "softmax_fp16_b512": "text",
    "softmax_loop_s4": "text",  # the fused-softmax tutorial: -inf row loads pipelined (cp.async, then a select)
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
    "inline_asm": "text",
    "pdl": "text",
    "libdevice_mod": "text",
    "layer_norm_bwd": "text",
    "layer_norm_bwd_dwdb": "text",
    "layer_norm_bwd_fp16_w8": "text",
    "atomic_ops": "text",
    "dropout": "text",
    "dropout_b256_w2": "text",
    "random_streams": "text",
    "random_streams_i32_w8": "text",
    "loop_hints": "text",
    "gather": "text",
    "sort": "text",
    "sort_i32_16x128_k32_w8": "text",
    "sort_fp16_1x256_k16": "text",
    "gather_fp16_w8": "text",
}
DESCRIPTORS = sorted(k for k in MANIFEST if "!tt.tensordesc" in (FIXTURES / f"{k}.ttir").read_text())
TENSOR_CORE = sorted(k for k in MANIFEST if k not in MEMORY_BOUND)
# sm90 dot fixtures whose whole -make-ttgir output equals Triton's text
DOT_TEXT = {"matmul_64x64x32_s1", "matmul_nohint_64x64x32", "matmul", "matmul_128x128x64_s3_w8",
            "matmul_128x256x64_s3_w8", "matmul_64x128x32_s4_w4", "matmul_fp32_tf32_64x64x32_s3", "block_ptr_matmul",
            "block_ptr_matmul_128x128x64_s3_w8", "attention", "attention_w8", "attention_d128_m128_n64_w8_s3",
            "loop_hints_matmul_s4", "matmul_acc_tf32", "tma_matmul", "tma_attention", "matmul_assume",
            "grouped_matmul", "causal_attention", "matmul_acc", "matmul_acc_e4m3", "matmul_acc_f16acc",
            "matmul_bf16_128x128x64_s3_w8", "matmul_acc_e4m3_f16acc", "matmul_acc_e4m3_128x128x64_s3_w8",
            "attention_bwd", "causal_attention_ptr", "dot_scaled", "dot_scaled_mxfp4_matmul",
            # tt.flatten: tile loop and K loop fused (tritongpu-fuse-nested-loops) and pipelined as one loop
            "tma_persistent_matmul", "desc_persistent_matmul",
            # descriptors made in the group loop: two tensormaps each, picked by loop-carried counters
            "grouped_tma_matmul"}
# sm90 dot fixtures that do not (yet): what differs
DOT_DIFFERS = {}
MEMORY_OPS = ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas", "ttng.async_tma_copy_global_to_local",
              "ttng.async_tma_copy_local_to_global", "ttng.async_tma_reduce", "ttg.local_load")


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


@functools.cache
def expected(name: str):
    """Triton's module for a fixture (parsed once; the tests only read it)."""
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
    assert all(("matmul" in name or "attention" in name or "dot_scaled" in name) for name in TENSOR_CORE)
    sm90 = {k for k in TENSOR_CORE if MANIFEST[k]["target"].startswith("cuda:90")}
    assert sm90 == DOT_TEXT | set(DOT_DIFFERS) and not DOT_TEXT & set(DOT_DIFFERS)


@pytest.mark.parametrize("name", sorted(DOT_TEXT))
def test_dot_kernel_equals_triton_text(name):
    got = print_ir(run(name))
    want = (FIXTURES / f"{name}.nodebug.ttgir").read_text()
    assert got.strip() == want.strip()


def _mma_attrs(module) -> list[str]:
    found = set()
    for op in module.walk():
        for v in list(op.operands) + list(op.results):
            t = v.type
            enc = encoding(t) if t.name == "tensor" else getattr(t, "encoding", None)
            while isinstance(enc, DotOperandEncoding):
                enc = enc["parent"]
            if isinstance(enc, (NvidiaMmaEncoding, NVMMASharedEncoding)):
                found.add(attr_text(enc))
    return sorted(found)


@pytest.mark.parametrize("name", sorted(DOT_TEXT | set(DOT_DIFFERS)))
def test_sm90_dots_get_tritons_mma_v3_and_shared_layouts(name):
    theirs = _mma_attrs(expected(name))
    assert theirs and all("versionMajor = 3" in t for t in theirs if "nvidia_mma" in t)
    assert _mma_attrs(run(name)) == theirs


@pytest.mark.parametrize("name", DESCRIPTORS)
def test_descriptors_before_sm90_are_not_supported_yet(name):
    # Triton rewrites descriptors to pointer loads in make_ttir before sm90 (not done here yet)
    from ttc.ir.diagnostics import CompileError

    module = parse((FIXTURES / f"{name}.nodebug.ttir").read_text(), f"{name}.nodebug.ttir")
    with pytest.raises(CompileError, match="is not supported yet by make-ttgir for cuda:80"):
        make_pass("make-ttgir", "target=cuda:80 num-warps=4").apply(context(), module)


@pytest.mark.parametrize("name", TENSOR_CORE)
def test_tensor_core_kernels_run_and_verify(name):
    text = print_ir(run(name))
    reparsed = parse(text, f"{name}.ttgir")  # parses and verifies
    dots = [op for op in reparsed.walk() if op.name == "tt.dot"]
    wgmma = [op for op in reparsed.walk() if op.name == "ttng.warp_group_dot"]
    assert dots or wgmma, "the kernel has a dot"
    cap = int(MANIFEST[name]["target"].split(":")[1])
    for d in wgmma:  # sm90's f16/bf16 and tf32 dots
        assert cap // 10 == 9 and encoding(d.d.type)["versionMajor"] == 3 and d.isAsync.value.data
    for d in dots:
        enc = encoding(d.results[0].type)
        a, b = (v.owner.src if v.owner.name == "tt.fp_to_fp" else v for v in (d.a, d.b))  # upcast fp8 operands
        kind = mma_v2_kind(elt(a.type), elt(b.type), elt(d.d.type), d.inputPrecision.value.data, cap)
        if isinstance(kind, MmaKind):
            assert isinstance(enc, NvidiaMmaEncoding) and enc["versionMajor"] == 2
            # kWidth: 32 / the narrowest width the operands were loaded with (Triton's computeOrigBitWidth), at least
            # the instruction's elements per register (an mxfp4 operand upcast to bf16 has 8)
            k_width = encoding(d.a.type)["kWidth"]
            assert k_width % kind.k_width == 0 and k_width <= 8
            assert encoding(d.a.type) == DotOperandEncoding.make(opIdx=0, parent=enc, kWidth=k_width)
            assert encoding(d.b.type) == DotOperandEncoding.make(opIdx=1, parent=enc, kWidth=k_width)
        else:
            assert isinstance(enc, BlockedEncoding)
    for op in reparsed.walk():
        for v in list(op.operands) + list(op.results):
            if v.type.name == "tensor":
                assert encoding(v.type) is not None, f"a tensor without layout in {op.name}"


# fixtures whose tensor-core layouts ttc does not produce yet: name -> why
NOT_YET: dict[str, str] = {}
# the same, for the MMA layouts only (their async copies are Triton's)
NOT_YET_LAYOUTS: dict[str, str] = {
    **NOT_YET,
}
SM8X = [k for k in TENSOR_CORE if MANIFEST[k]["target"].startswith("cuda:8")]


def _xfail(names, not_yet=NOT_YET):
    return [pytest.param(n, marks=pytest.mark.xfail(reason=not_yet[n], strict=True)) if n in not_yet else n
            for n in names]


@pytest.mark.parametrize("name", _xfail(SM8X, NOT_YET_LAYOUTS))
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


# Fixtures whose async copies a later pass of Triton's narrows (coalesce-async-copy, for wgmma's register operand;
# the sm80 variant of the mxfp4 one is compared):
NOT_COMPARED = {"dot_scaled", "dot_scaled_mxfp4_matmul",
                # its row loads (M, Delta) end in slices of the wgmma layouts, in ours (full make-ttgir) as in
                # Triton's, which the three passes before accelerate-matmul cannot know
                "attention_bwd", "causal_attention_ptr"}


@pytest.mark.parametrize("name", _xfail(SM8X))  # NOT_YET's kWidth: A's buffer swizzles by it, copies clip to it
def test_async_copy_layouts_equal_tritons(name):
    """Where Triton pipelines with cp.async (sm80/sm89), our pipeliner's copies read the same source layouts
    (coalesced, sizePerThread clipped to the buffer's vec: Triton's coalesce-async-copy; Triton pipelines more
    copies per kernel in attention, with the same layouts)."""
    def copies(module):
        return {layout_fields(encoding(op.operands[0].type)) for op in module.walk()
                if op.name == "ttg.async_copy_global_to_local"}

    assert copies(expected(name))
    assert copies(run(name)) == copies(expected(name))


@pytest.mark.parametrize("name", [k for k in TENSOR_CORE if k not in SM8X and k not in NOT_COMPARED])
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
    ours = {layout_fields(encoding(op.operands[0].type)) for op in module.walk()
            if op.name == "tt.load" and encoding(op.operands[0].type)}  # scalar loads have none
    theirs = {layout_fields(encoding(op.operands[0].type)) for op in expected(name).walk()
              if op.name in ("ttg.async_copy_global_to_local", "tt.load") and encoding(op.operands[0].type)}
    assert ours == theirs
