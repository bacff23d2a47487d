"""The LLVM back end over Triton's own TTGIR: every memory-bound kernel fixture lowers to LLVM IR that LLVM
verifies, to PTX, and to a CUBIN that nvJitLink accepts; and the PTX has the instructions Triton's would."""

import re
from pathlib import Path

import llvmlite.binding as llvm
import pytest

from ttc.ir.diagnostics import CompileError
from ttc.lowering import libdevice, pipeline
from ttc.lowering.cubin import AsmOptions, AssemblerError, assemble
from ttc.lowering.metadata import KernelMetadata

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "test" / "fixtures" / "triton"
LIT = ROOT / "test" / "lit" / "tt-translate"
MEMORY_BOUND = [
    "vector_add", "vector_add_b256_nohint", "vector_add_bf16_i64", "vector_add_w8_fp16",
    "softmax", "softmax_b1024_w8", "softmax_fp16_b512", "layer_norm", "layer_norm_b1024_w8",
    "cumsum", "cumsum_i32_b1024_w8", "histogram", "histogram_b4096_w8", "reduce_custom", "reduce_custom_b1024_w8",
    "transpose", "transpose_fp16_64x64_w8", "while_loop", "while_loop_i64_w1", "helper_call", "sort", "gather",
]
_cache: dict = {}


def compile_fixture(name: str, path: Path | None = None):
    """(LLVM IR text, PTX, metadata) of a fixture, compiled once per test session."""
    if name not in _cache:
        path = path or FIXTURES / f"{name}.ttgir"
        mod, meta, tm = pipeline.to_llvm(path.read_text(), str(path), pipeline.Options())
        llvm_ir = str(mod)
        _cache[name] = (llvm_ir, pipeline.to_ptx(mod, meta, tm), meta)
    return _cache[name]


@pytest.mark.parametrize("name", MEMORY_BOUND)
def test_fixture_compiles_to_cubin(name):
    llvm_ir, ptx, meta = compile_fixture(name)
    mod = llvm.parse_assembly(llvm_ir)
    mod.verify()
    kernel = mod.get_function(meta.name)
    assert "ptx_kernel" in str(kernel).split("(")[0]
    assert f".visible .entry {meta.name}(" in ptx
    assert f".reqntid {32 * meta.num_warps}" in ptx
    cubin = assemble(ptx, f"{name}.ptx", AsmOptions(arch="sm_90a"))
    assert cubin[:4] == b"\x7fELF"


def test_metadata_travels_in_llvm_ir_and_ptx():
    llvm_ir, ptx, meta = compile_fixture("softmax")
    assert (meta.name, meta.num_warps, meta.threads_per_warp, meta.target) == ("softmax_kernel", 4, 32, "cuda:90a")
    assert meta.shared == 16  # one f32 partial per warp for the cross-warp reductions, as Triton
    assert KernelMetadata.from_llvm_ir(llvm_ir) == meta
    assert ptx.splitlines()[0].startswith("// ttc.metadata: ")
    assert KernelMetadata.from_ptx(ptx) == meta
    assert len(meta.hash) == 64


def test_vector_add_is_vectorized_like_triton():
    # n without a divisibility hint: the mask may change at any element, so 32-bit accesses, one compare each
    _, ptx, meta = compile_fixture("vector_add")
    assert "ld.global.v4" not in ptx and ptx.count("@%p") == 3 * 8 and ptx.count("setp.lt.s32") == 8
    assert meta.shared == 0
    # n divisible by 16: 128-bit accesses, each predicated on its first element's compare (two compares in all)
    text = (FIXTURES / "vector_add.nodebug.ttgir").read_text().replace("%arg3: i32)", "%arg3: i32 {tt.divisibility = 16 : i32})")
    mod, meta, tm = pipeline.to_llvm(text, "v.ttgir", pipeline.Options())
    ptx = pipeline.to_ptx(mod, meta, tm)
    assert ptx.count("ld.global.v4.b32") == 4 and ptx.count("st.global.v4.b32") == 2
    assert ptx.count("setp.lt.s32") == 2 and "xor.pred" not in ptx and "selp" not in ptx


def test_fp16_vector_add_packs_eight_halves():
    # with n divisible by 16: 4 f16 per thread in one 64-bit access, added in pairs (add.f16x2, by LLVM's SLP
    # vectorizer, as Triton runs it)
    text = (FIXTURES / "vector_add_w8_fp16.nodebug.ttgir").read_text().replace(
        "%arg3: i32)", "%arg3: i32 {tt.divisibility = 16 : i32})")
    mod, meta, tm = pipeline.to_llvm(text, "v.ttgir", pipeline.Options())
    ptx = pipeline.to_ptx(mod, meta, tm)
    assert ptx.count("ld.global.v2.b32") == 2 and ptx.count("add.f16x2") == 2 and "add.f16 " not in ptx


def test_cross_warp_reduction_uses_shuffles_and_barriers():
    _, ptx, meta = compile_fixture("softmax_b1024_w8")
    assert "shfl.sync.bfly.b32" in ptx
    assert "bar.sync" in ptx
    assert "st.shared" in ptx and "ld.shared" in ptx
    assert meta.shared == 32


def test_scan_uses_shuffle_up():
    _, ptx, _ = compile_fixture("cumsum")
    assert "shfl.sync.up.b32" in ptx
    assert "bar.sync" in ptx


def test_histogram_uses_global_atomics_and_converts_through_shared_memory():
    _, ptx, meta = compile_fixture("histogram")
    assert "atom.acq_rel.gpu.global.add.u32" in ptx
    assert meta.shared == 1024 * 8  # the tensor of pointers goes through shared memory


def test_transpose_converts_layout_through_shared_memory():
    _, ptx, meta = compile_fixture("transpose")
    assert meta.shared == 32 * 32 * 4  # XOR-swizzled rows (exchange_plan), no padding
    assert "bar.sync" in ptx


def test_exp_uses_ex2_approx():
    _, ptx, _ = compile_fixture("softmax")
    assert "ex2.approx.f32" in ptx


def test_fma_dot_kernel():
    llvm_ir, ptx, meta = compile_fixture("dot-fma", LIT / "dot-fma.ttgir")
    assert ptx.count("fma.rn.f32") == 8 * 16  # 8 accumulator elements per thread, K = 16
    assert meta.shared == 32 * 16 * 2  # the largest operand conversion through shared memory
    assemble(ptx, "dot.ptx", AsmOptions(arch="sm_90a"))


def _lower(text: str):
    return pipeline.to_llvm(text, "input.ttgir", pipeline.Options())


HEADER = ('#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n'
          'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
          '"ttg.threads-per-warp" = 32 : i32} {\n')


def test_uninlined_calls_are_reported():
    text = HEADER + """  tt.func private @f() {
    tt.return
  }
  tt.func public @k() {
    tt.call @f() : () -> ()
    tt.return
  }
}
"""
    with pytest.raises(CompileError) as e:
        _lower(text)
    assert "inlined" in e.value.render()
    assert "input.ttgir:7:" in e.value.render()


def test_hopper_wgmma_ttgir_lowers_for_sm_90a():
    # Triton's own sm_90 matmul TTGIR: wgmma from nvmma_shared buffers, 1024-byte aligned shared memory, sm_90a
    _, ptx, meta = compile_fixture("matmul")
    assert ".target sm_90a" in ptx and meta.target == "cuda:90a"
    assert ".extern .shared .align 1024 .b8 global_smem[];" in ptx
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16") == 2  # K = 32 per iteration


def test_unsupported_nvmma_buffers_are_reported_at_the_op():
    text = (FIXTURES / "matmul.ttgir").read_text().replace("swizzlingByteWidth = 64", "swizzlingByteWidth = 0")
    with pytest.raises(CompileError) as e:
        pipeline.to_llvm(text, "kernels/matmul.ttgir", pipeline.Options())
    msg = e.value.render()
    # unswizzled buffers are modelled (row-major, for TMA), but wgmma cannot read them yet: located at the dot
    assert ("kernels/matmul.py:47:35: error: wgmma operands from #ttg.nvmma_shared buffers without swizzling are "
            "not supported yet") in msg


def test_wgmma_needs_sm_90a():
    # capability 90 is sm_90a, as Triton names it; the plain sm_90 target, or an older GPU, is a located error
    text = (FIXTURES / "matmul.ttgir").read_text()
    assert pipeline.parse_ttgir(text, "m.ttgir", pipeline.Options(sm="90")).cpu == "sm_90a"
    for sm, cpu in (("sm_90", "sm_90"), ("80", "sm_80")):
        with pytest.raises(CompileError) as e:
            pipeline.to_llvm(text, "m.ttgir", pipeline.Options(sm=sm))
        assert ("kernels/matmul.py:47:35: error: ttng.warp_group_dot is lowered to wgmma, which needs sm_90a; "
                f"the target is {cpu}") in e.value.render()


def test_tma_needs_sm_90():
    text = (FIXTURES / "tma_add.nodebug.ttgir").read_text()
    with pytest.raises(CompileError) as e:
        pipeline.to_llvm(text, "t.ttgir", pipeline.Options(sm="80"))
    assert "t.ttgir:" in e.value.render() and "which needs sm_90 or later; the target is sm_80" in e.value.render()


def test_gpu_names_and_ptx_versions_as_triton():
    from ttc.lowering import target

    assert [target.cpu_name(s) for s in ("90", "90a", "sm_90", "80", "100", "sm_89")] == \
        ["sm_90a", "sm_90a", "sm_90", "sm_80", "sm_100a", "sm_89"]
    # Triton's ptx_get_version: CUDA 12.8 (Triton 3.6's ptxas) writes 8.7; 12.6 skips to 8.5; 13.x is 9.x
    assert [target.ptx_for_cuda(*v) for v in ((12, 0), (12, 5), (12, 6), (12, 8), (13, 0), (13, 1), (11, 8))] == \
        [80, 85, 85, 87, 90, 91, 78]


def test_ptx_version_cache_keyed_and_invalidated(tmp_path, monkeypatch):
    """resolve_ptx_version keeps its answers across processes (target.PTX_VERSIONS), keyed by the installed
    llvmlite and assembler: a stored answer is used without probing LLVM; another nvJitLink wheel or a changed
    ptxas is another key, probed afresh; a damaged file is ignored. dist_info finds what importlib.metadata does."""
    import json
    from importlib import metadata

    from ttc.lowering import target

    for dist in ("llvmlite",) + target.NVJITLINK_DISTS:
        try:
            want = metadata.version(dist)
        except metadata.PackageNotFoundError:
            want = None
        assert (target.dist_info(dist) or (None,))[0] == want
    store = tmp_path / "ptx_versions.json"
    monkeypatch.setattr(target, "PTX_VERSIONS", str(store))
    probes = []
    probe = target._emit_probe
    monkeypatch.setattr(target, "_emit_probe", lambda *a: probes.append(a) or probe(*a))

    def resolve(*args):
        for f in (target.resolve_ptx_version, target.min_ptx_version, target.llvm_writes, target.assembler_cuda):
            f.cache_clear()
        probes.clear()
        return target.resolve_ptx_version(*args)

    truth = target._resolve_ptx_version("sm_90a", None, None)
    assert resolve("sm_90a", None) == truth and probes
    (key, value), = json.loads(store.read_text()).items()
    assert value == truth and "llvmlite-" in key and "nvjitlink-" in key
    store.write_text(json.dumps({key: 77}))  # a planted answer: read, not probed
    assert resolve("sm_90a", None) == 77 and not probes
    store.write_text("{damaged")
    assert resolve("sm_90a", None) == truth and probes and json.loads(store.read_text()) == {key: truth}
    wheel = tmp_path / "nvidia_nvjitlink-12.4.127.dist-info"
    wheel.mkdir()
    found = target.dist_info
    monkeypatch.setattr(target, "dist_info", lambda d: ("12.4.127", str(wheel)) if d == "nvidia-nvjitlink" else found(d))
    assert resolve("sm_90a", None) == 84 and probes and len(json.loads(store.read_text())) == 2
    ptxas = tmp_path / "ptxas"
    ptxas.write_text("#!/bin/sh\necho 'Cuda compilation tools, release 12.0, V12.0.76'\n")
    ptxas.chmod(0o755)
    assert resolve("sm_90a", None, str(ptxas)) == 80 and probes
    assert resolve("sm_90a", None, str(ptxas)) == 80 and not probes
    ptxas.write_text("#!/bin/sh\necho 'Cuda compilation tools, release 12.3, V12.3.107'\n")
    assert resolve("sm_90a", None, str(ptxas)) == 83 and probes


def test_layouts_must_match_the_warp_count():
    text = HEADER.replace('"ttg.num-warps" = 4', '"ttg.num-warps" = 8') + """  tt.func public @k(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}
"""
    with pytest.raises(CompileError) as e:
        _lower(text)
    assert "4 warps" in e.value.render()


def test_bad_ptx_version_is_an_error():
    text = (FIXTURES / "vector_add.ttgir").read_text()
    with pytest.raises(CompileError) as e:
        pipeline.to_llvm(text, "v.ttgir", pipeline.Options(ptx_version=70))
    assert "does not support sm_90" in e.value.render()


def test_sm_and_ptx_version_reach_the_ptx():
    text = (FIXTURES / "vector_add.ttgir").read_text()
    mod, meta, tm = pipeline.to_llvm(text, "v.ttgir", pipeline.Options(sm="90a", ptx_version=83))
    ptx = pipeline.to_ptx(mod, meta, tm)
    assert ".version 8.3" in ptx and ".target sm_90a" in ptx
    assert meta.target == "cuda:90a"


def test_llvm_ir_input_goes_to_ptx():
    llvm_ir, _, meta = compile_fixture("vector_add")
    assert pipeline.detect_kind(llvm_ir) == "llvmir"
    mod, meta2, tm = pipeline.parse_llvm(llvm_ir, "v.ll", pipeline.Options(), None)
    assert meta2 == meta
    assert "ld.global.b32" in pipeline.to_ptx(mod, meta2, tm)  # n has no divisibility hint: 32-bit accesses


def test_assembler_errors_carry_the_log():
    bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { foo.bar %r1; ret; }\n"
    with pytest.raises(AssemblerError) as e:
        assemble(bad, "bad.ptx", AsmOptions(arch="sm_90"))
    assert "error" in str(e.value) and "foo" in str(e.value)


def _has_libdevice() -> bool:
    try:
        libdevice.find()
        return True
    except libdevice.LibdeviceNotFound:
        return False


@pytest.mark.skipif(not _has_libdevice(), reason="libdevice.10.bc is not installed")
def test_erf_links_libdevice():
    text = HEADER + """  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    %y = math.erf %x : tensor<128xf32, #blocked>
    tt.store %a, %y : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
"""
    mod, meta, tm = _lower(text)
    ir_text = str(mod)
    assert "@__nv_erff" not in ir_text  # linked, inlined and dropped
    assert [f.name for f in mod.functions if not f.is_declaration] == ["k"]
    assemble(pipeline.to_ptx(mod, meta, tm), "erf.ptx", AsmOptions(arch="sm_90a"))


@pytest.mark.skipif(not _has_libdevice(), reason="libdevice.10.bc is not installed")
def test_link_keeps_only_what_the_kernel_reaches():
    """libdevice.link deletes the library functions the kernel does not call before O3 (GlobalDCE), keeping the
    survivors in the order a whole-library link gives them: O3's output is unchanged, and its time is not spent
    on ~350 unused functions."""
    import llvmlite.binding as b

    kernel = ('target triple = "nvptx64-nvidia-cuda"\n'
              "declare double @__nv_cos(double)\ndeclare float @__nv_erff(float)\n"
              "define ptx_kernel void @k(ptr addrspace(1) %p) {\n  %x = load double, ptr addrspace(1) %p\n"
              "  %y = call double @__nv_cos(double %x)\n  store double %y, ptr addrspace(1) %p\n"
              "  %f = load float, ptr addrspace(1) %p\n  %g = call float @__nv_erff(float %f)\n"
              "  store float %g, ptr addrspace(1) %p\n  ret void\n}\n")
    whole = b.parse_assembly(kernel)
    with open(libdevice.find(), "rb") as f:
        whole.link_in(b.parse_bitcode(f.read()))
    mod = b.parse_assembly(kernel)
    libdevice.link(mod, [libdevice.find()], keep={"k"})
    names = [f.name for f in mod.functions]
    defined = [f.name for f in mod.functions if not f.is_declaration]
    assert sorted(defined) == ["__internal_trig_reduction_slowpathd", "__nv_cos", "__nv_erff", "k"]
    assert names == [f.name for f in whole.functions if f.name in set(names)]  # the whole link's order
    assert len(list(whole.functions)) > 500 > 50 > len(names)
    assert all(f.linkage == b.Linkage.internal for f in mod.functions if not f.is_declaration and f.name != "k")


@pytest.mark.skipif(not _has_libdevice(), reason="libdevice.10.bc is not installed")
def test_libdevice_parsed_on_a_thread_while_the_kernel_is_lowered(monkeypatch):
    """pipeline.lower starts parsing libdevice before it lowers a kernel with an op that calls it (or at any other
    first call), links the module that thread parsed, and leaves no thread behind; the LLVM IR is the same."""
    import threading

    text = HEADER + """  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    %y = OP %x : tensor<128xf64, #blocked>
    %z = arith.truncf %y : tensor<128xf64, #blocked> to tensor<128xf32, #blocked>
    tt.store %a, %z : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
"""
    taken, real_take = [], libdevice._take

    def take(path):
        started = libdevice._parsing.get(path)
        taken.append((started[0].name if started else None, threading.current_thread().name))
        return real_take(path)

    monkeypatch.setattr(libdevice, "_take", take)
    for op in ("math.erf", "math.exp"):  # erf always calls libdevice; exp only at f64, found as it is lowered
        kernel = text.replace("OP %x", f"{op} %w").replace("%y = ", "%w = arith.extf %x : tensor<128xf32, #blocked> "
                                                          "to tensor<128xf64, #blocked>\n    %y = ")
        with_thread = str(_lower(kernel)[0])
        assert taken.pop() == ("ttc-libdevice", "MainThread")
        assert libdevice._parsing is None and not [t for t in threading.enumerate() if t.name == "ttc-libdevice"]
        with monkeypatch.context() as m:
            m.setattr(libdevice, "prefetch", lambda: None)
            assert str(_lower(kernel)[0]) == with_thread
        assert taken.pop() == (None, "MainThread")
    libdevice.prefetch()  # outside pipeline.lower: nothing
    assert libdevice._parsing is None and not [t for t in threading.enumerate() if t.name == "ttc-libdevice"]


def test_a_library_that_is_not_bitcode_is_a_located_error(tmp_path, monkeypatch):
    """TTC_LIBDEVICE_PATH naming a file that is not LLVM bitcode, or an extern's libpath that does not exist: the
    kernel's file, the library's path and why, whether the parse ran on the prefetch thread or not."""
    text = HEADER + """  tt.func public @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %a : tensor<128x!tt.ptr<f32>, #blocked>
    %y = CALL
    tt.store %a, %y : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
"""
    garbage = tmp_path / "garbage.bc"
    garbage.write_text("not bitcode\n")
    monkeypatch.setenv("TTC_LIBDEVICE_PATH", str(garbage))
    erf = text.replace("CALL", "math.erf %x : tensor<128xf32, #blocked>")
    for prefetch in (libdevice.prefetch, lambda: None):
        monkeypatch.setattr(libdevice, "prefetch", prefetch)
        with pytest.raises(CompileError) as e:
            _lower(erf)
        assert f"{garbage}: not an LLVM bitcode library (" in e.value.render()
    missing = tmp_path / "missing.bc"
    extern = text.replace("CALL", f'tt.extern_elementwise %x {{libname = "m", libpath = "{missing}", pure = true, '
                          'symbol = "my_fn"} : (tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>')
    with pytest.raises(CompileError) as e:
        _lower(extern)
    assert f"{missing}: No such file or directory" in e.value.render()


@pytest.mark.filterwarnings("ignore:Multiple CUDA environment variables")
def test_libdevice_found_where_cuda_pathfinder_finds_it(tmp_path, monkeypatch):
    """pathfinder_places answers as cuda-pathfinder's find_bitcode_lib("device") does (without importing it):
    the nvcc wheel's folder in a site-packages (cu13 first), then $CONDA_PREFIX, then $CUDA_PATH / $CUDA_HOME."""
    pathfinder = pytest.importorskip("cuda.pathfinder._static_libs.find_bitcode_lib")
    from cuda.pathfinder._utils import env_vars, find_sub_dirs

    def place(*parts):
        d = tmp_path.joinpath(*parts, "nvvm", "libdevice")
        d.mkdir(parents=True, exist_ok=True)
        (d / libdevice.NAME).write_bytes(b"BC")

    def both():
        env_vars.get_cuda_path_or_home.cache_clear()
        find_sub_dirs.find_sub_dirs_cached.cache_clear()
        try:
            theirs = [pathfinder.locate_bitcode_lib("device").abs_path]
        except pathfinder.BitcodeLibNotFoundError:
            theirs = []
        return libdevice.pathfinder_places(), theirs

    monkeypatch.setattr("site.getsitepackages", lambda: [str(tmp_path / "sp1"), str(tmp_path / "sp2")])
    monkeypatch.setattr("site.ENABLE_USER_SITE", False)
    for var in ("CONDA_PREFIX", "CUDA_PATH", "CUDA_HOME"):
        monkeypatch.delenv(var, raising=False)
    ours, theirs = both()
    assert ours == theirs == []
    for var, parts in [("CUDA_HOME", ("home",)), ("CUDA_PATH", ("path",)), ("CONDA_PREFIX", ("conda",))]:
        place(*parts)
        monkeypatch.setenv(var, str(tmp_path.joinpath(*parts)))
        ours, theirs = both()
        assert ours == theirs == [str(tmp_path.joinpath(*parts, "nvvm", "libdevice", libdevice.NAME))]
    for parts in [("sp2", "nvidia", "cuda_nvcc"), ("sp1", "nvidia", "cuda_nvcc"), ("sp2", "nvidia", "cu13")]:
        place(*parts)
        ours, theirs = both()
        assert ours == theirs == [str(tmp_path.joinpath(*parts, "nvvm", "libdevice", libdevice.NAME))]
    monkeypatch.undo()
    assert libdevice.pathfinder_places() == both()[1]  # this machine's answer


def test_unstructured_control_flow_and_scalar_stores():
    """cf.cond_br / cf.br with block arguments become LLVM blocks with phis; a scalar store is made once."""
    text = HEADER + """  tt.func public @k(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %big = arith.cmpi sgt, %n, %c0 : i32
    cf.cond_br %big, ^bb1(%n : i32), ^bb2(%c1 : i32)
  ^bb1(%x: i32):
    %y = arith.muli %x, %x : i32
    cf.br ^bb2(%y : i32)
  ^bb2(%z: i32):
    tt.store %p, %z : !tt.ptr<i32>
    tt.return
  }
}
"""
    from ttc.ir.diagnostics import Source
    from ttc.ir.parser import parse
    from ttc.lowering.translate import lower_module

    unoptimized = lower_module(parse(text), source=Source.of("cf.ttgir", text), data_layout="", target="cuda:90",
                               source_hash="0").llvm_ir
    assert len(re.findall(r"= phi +i32 ", unoptimized)) == 2  # the two blocks with arguments
    mod, meta, tm = _lower(text)
    ptx = pipeline.to_ptx(mod, meta, tm)
    assert "st.global.b32" in ptx and "%tid.x" in ptx  # thread 0 stores
    assemble(ptx, "cf.ptx", AsmOptions(arch="sm_90a"))


SPLAT_STORE = """#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @splat_store(%p: !tt.ptr<bf16> {tt.divisibility = 16 : i32}) {
    %c = arith.constant dense<0x7FC0> : tensor<4096xbf16, #blocked>
    %r = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<bf16> -> tensor<4096x!tt.ptr<bf16>, #blocked>
    %a = tt.addptr %s, %r : tensor<4096x!tt.ptr<bf16>, #blocked>, tensor<4096xi32, #blocked>
    tt.store %a, %c : tensor<4096x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}
"""


def test_splat_constants_are_not_decoded_element_by_element(monkeypatch):
    """A splat tensor constant is lowered from its first element's bytes, and the axis analysis decodes no float
    constant: xDSL decodes bf16 elements one by one in Python (4096 of them, twice per lowering, before)."""
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    ttgir = pipeline.parse_ttgir(SPLAT_STORE, "splat.ttgir", pipeline.Options())

    def refuse(self):
        raise AssertionError("a splat constant's elements decoded one by one")

    monkeypatch.setattr(DenseIntOrFPElementsAttr, "get_values", refuse)
    mod, meta, tm = pipeline.lower(ttgir)
    assert re.search(r"mov\.b32\s+%r\d+, 2143322048;", pipeline.to_ptx(mod, meta, tm))  # 0x7FC07FC0: two bf16 NaNs
