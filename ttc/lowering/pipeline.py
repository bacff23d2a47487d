"""The back end's stages over text: TTGIR -> LLVM IR (lowered, libraries linked, O3) -> PTX.

`detect_kind` tells TTGIR from LLVM IR by content. `to_llvm` (`parse_ttgir`, then `lower`) parses and verifies
TTGIR, lowers it, verifies the LLVM module, links libdevice when called, and runs O3; `to_ptx` runs the NVPTX
backend. Metadata rides along
(see `ttc.lowering.metadata`). Environment, as Triton's: `LLVM_IR_ENABLE_DUMP=1` prints the LLVM IR before and
after O3, `NVPTX_ENABLE_DUMP=1` prints the PTX, both to stderr.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from ttc.driver.cli import env_on
from ttc.ir.diagnostics import CompileError, Diagnostic, Source, at_op, source_line
from ttc.lowering import libdevice, target
from ttc.lowering.metadata import KernelMetadata, source_hash
from ttc.ir.kernel_module import HASH_ATTRIBUTE

NVPTX_DUMP_HEADER = "// -----// NVPTX Dump //----- //"


def detect_kind(text: str) -> str:
    """'ttgir' or 'llvmir' (or 'ptx')."""
    if re.search(r"^\s*\.(version|target|entry|visible)\b", text, re.M):
        return "ptx"
    if re.search(r"^\s*(define|declare)\b|^target (triple|datalayout)\b|^; ModuleID|^source_filename\b", text, re.M):
        return "llvmir"
    return "ttgir"


@dataclass
class Options:
    sm: str | None = None  # None: the module's ttg.target, else 90
    ptx_version: int | None = None


def _sm_from_target(t: str | None) -> str:
    if t and t.startswith("cuda:"):
        return t[len("cuda:"):]
    return "90"


def _error(filename: str, message: str) -> CompileError:
    return CompileError(Diagnostic(filename, 0, 0, message))


@dataclass
class TTGIR:
    """A parsed TTGIR module with what its lowering needs to know before it starts."""

    module: object
    source: Source
    cpu: str  # sm_90
    ptx_version: int
    hash: str  # the module's ttc.source_hash, else a sha256 of its text

    def metadata(self) -> KernelMetadata:
        """The kernel's metadata as the module's attributes say it (the lowering adds its scratch memory)."""
        from ttc.ir.layout_utils import module_int
        from ttc.ir.kernel_module import kernel_func

        func = kernel_func(self.module)
        m = self.module
        return KernelMetadata(name=func.sym_name.data if func is not None else "",
                              num_warps=module_int(m, "ttg.num-warps", 4),
                              threads_per_warp=module_int(m, "ttg.threads-per-warp", 32),
                              shared=module_int(m, "ttg.shared", 0), hash=self.hash, target=f"cuda:{self.cpu[3:]}")




def needed_ptx(module) -> tuple[int | None, str]:
    """The PTX ISA version the kernel's instructions need beyond the GPU's minimum (fp8 mma.sync: 8.4; tensor maps
    made in the kernel: 8.3), and what needs it."""
    from ttc.ir.layouts import NvidiaMmaEncoding
    from ttc.ir.attr_printer import attr_text
    from ttc.ir.types import elt, encoding
    from ttc.lowering.mma_v2 import FP8

    needs = []
    for op in module.walk():
        if op.name == "ttng.tensormap_create":
            needs.append((target.TENSORMAP_PTX, target.TENSORMAP_WHY))
        elif (op.name == "tt.dot" and isinstance(encoding(op.results[0].type), NvidiaMmaEncoding)
                and attr_text(elt(op.operands[0].type)) in FP8):
            needs.append((target.FP8_MMA_SYNC_PTX, "fp8 mma.sync"))
    return max(needs) if needs else (None, "")


def ptx_version(module, cpu: str, requested: int | None, ptxas: str | None = None) -> int:
    """`requested`, else the default for the assembler in use (`ptxas`, else `target.default_ptxas()`, else
    nvJitLink), at least what the kernel's instructions need."""
    ptxas = ptxas or target.default_ptxas()
    return target.ptx_for(cpu, requested, *needed_ptx(module), ptxas=ptxas)


# Ops whose lowering writes instructions not every GPU has: op -> (instruction, GPUs with it, which they are).
_WGMMA = ("wgmma", "sm_90a", lambda cpu: cpu == "sm_90a")
_ARCH_90 = ("sm_90a or a later arch-specific target", lambda cpu: cpu.endswith("a") and target.capability(cpu) >= 90)
_SM_90 = ("sm_90 or later", lambda cpu: target.capability(cpu) >= 90)
_SM_80 = ("sm_80 or later", lambda cpu: target.capability(cpu) >= 80)
NEEDS_TARGET = {
    "ttng.warp_group_dot": _WGMMA, "ttng.warp_group_dot_wait": _WGMMA,
    "ttng.tensormap_create": ("tensormap.replace", *_ARCH_90),
    "ttng.async_tma_copy_global_to_local": ("cp.async.bulk.tensor", *_SM_90),
    "ttng.async_tma_copy_local_to_global": ("cp.async.bulk.tensor", *_SM_90),
    "ttng.async_tma_reduce": ("cp.reduce.async.bulk.tensor", *_SM_90),
    "ttng.async_tma_store_wait": ("cp.async.bulk.wait_group", *_SM_90),
    "ttng.barrier_expect": ("mbarrier.expect_tx", *_SM_90),
    "ttng.wait_barrier": ("mbarrier.try_wait", *_SM_90),
    "ttng.fence_async_shared": ("fence.proxy.async", *_SM_90),
    "ttng.tensormap_fenceproxy_acquire": ("fence.proxy.tensormap", *_SM_90),
    "ttg.async_copy_global_to_local": ("cp.async", *_SM_80),
}


def kernel_cpu(module, sm: str, source=None) -> str:
    """The GPU name for `sm` (a capability as Triton names it: 90 -> sm_90a); a located error at the first op
    whose instructions that GPU lacks (wgmma for `--sm sm_90` or `--sm 80`, say)."""
    cpu = target.cpu_name(sm)
    for op in module.walk():
        need = NEEDS_TARGET.get(op.name)
        if need is not None and not need[2](cpu):
            raise CompileError(at_op(op, source, f"{op.name} is lowered to {need[0]}, which needs {need[1]}; "
                                                 f"the target is {cpu}"))
    return cpu


def parse_ttgir(text: str, filename: str, options: Options) -> TTGIR:
    from ttc.ir.parser import parse
    from ttc.lowering.translate import module_target

    source = Source.of(filename, text)
    module = parse(text, filename, source=source)
    sm = options.sm if options.sm is not None else _sm_from_target(module_target(module))
    try:
        cpu = kernel_cpu(module, sm, source)
        ptx = ptx_version(module, cpu, options.ptx_version)
    except target.TargetError as e:
        raise _error(filename, str(e)) from None
    from xdsl.dialects.builtin import StringAttr  # xDSL only where TTGIR is read: not for LLVM IR -> PTX

    h = module.attributes.get(HASH_ATTRIBUTE)
    return TTGIR(module, source, cpu, ptx, h.data if isinstance(h, StringAttr) else source_hash(text))


def to_llvm(text: str, filename: str, options: Options):
    """TTGIR text -> (optimized llvmlite ModuleRef, metadata, target machine)."""
    return lower(parse_ttgir(text, filename, options))


def lower(ttgir: TTGIR):
    """Parsed TTGIR -> (optimized llvmlite ModuleRef, metadata, target machine)."""
    with libdevice.prefetching():  # libdevice parsed on a thread while the kernel is lowered, where it calls it
        return _lower(ttgir)


def _lower(ttgir: TTGIR):
    from ttc.lowering.translate import lower_module

    filename, cpu = ttgir.source.name, ttgir.cpu
    tm = target.target_machine(cpu, ttgir.ptx_version)
    lowered = lower_module(ttgir.module, source=ttgir.source, data_layout=target.data_layout(tm),
                           target=f"cuda:{cpu[3:]}", source_hash=ttgir.hash)
    b = target.llvm()
    try:
        mod = b.parse_assembly(lowered.llvm_ir)
        mod.verify()
    except RuntimeError as e:
        raise _error(filename, f"internal error: the lowered LLVM IR does not verify: {e}") from None
    libs = []
    if lowered.libdevice:
        try:
            libs.append(libdevice.find())
        except libdevice.LibdeviceNotFound as e:
            raise _error(filename, f"{', '.join(sorted(lowered.libdevice))} need libdevice: {e}") from None
    libs += sorted(set(lowered.externs.values()))
    if libs:
        try:
            libdevice.link(mod, libs, keep={lowered.metadata.name})
        except libdevice.NotBitcode as e:
            raise _error(filename, str(e)) from None
    if env_on("LLVM_IR_ENABLE_DUMP"):
        sys.stderr.write("; *** IR Dump Before O3 ***\n" + str(mod) + "\n")
    target.optimize(mod, tm, lowered.largest_block)
    if env_on("LLVM_IR_ENABLE_DUMP"):
        sys.stderr.write("; *** IR Dump After O3 ***\n" + str(mod) + "\n")
    return mod, lowered.metadata, tm


def parse_llvm(text: str, filename: str, options: Options, sidecar: KernelMetadata | None):
    """LLVM IR text -> (ModuleRef, metadata, target machine); metadata from the IR, else the sidecar, else what
    the IR says (kernel name, `.reqntid`)."""
    b = target.llvm()
    try:
        mod = b.parse_assembly(text)
        mod.verify()
    except RuntimeError as e:
        m = re.search(r"<string>:(\d+):(\d+): error: (.*)", str(e))
        if m:  # LLVM's own file:line:col, onto the input's name and line
            line, col = int(m.group(1)), int(m.group(2))
            raise CompileError(Diagnostic(filename, line, col, m.group(3), "error", source_line(text, line))) from None
        raise _error(filename, f"invalid LLVM IR: {e}".strip()) from None
    meta = KernelMetadata.from_llvm_ir(text, filename) or sidecar
    if meta is None:
        kernels = [f.name for f in mod.functions if not f.is_declaration]
        m = re.search(r'"nvvm\.reqntid"="(\d+)"', text) or re.search(r'!"reqntidx", i32 (\d+)', text)
        threads = int(m.group(1)) if m else 128
        meta = KernelMetadata(name=kernels[0] if kernels else "", num_warps=max(1, threads // 32),
                              threads_per_warp=32, shared=0, hash=source_hash(text), target="cuda:90")
    sm = options.sm if options.sm is not None else _sm_from_target(meta.target)
    try:
        cpu = target.cpu_name(sm)
        needs = [(target.TENSORMAP_PTX, target.TENSORMAP_WHY)] if "tensormap.replace" in text else []
        if re.search(r"mma\.sync\.aligned\.m16n8k32\.row\.col\.f32\.e[45]m[23]", text):
            needs.append((target.FP8_MMA_SYNC_PTX, "fp8 mma.sync"))
        ptx = target.ptx_for(cpu, options.ptx_version, *(max(needs) if needs else (None, "")),
                             ptxas=target.default_ptxas())
    except target.TargetError as e:
        raise _error(filename, str(e)) from None
    meta.target = f"cuda:{cpu[3:]}"
    return mod, meta, target.target_machine(cpu, ptx)


def to_ptx(mod, meta: KernelMetadata, tm) -> str:
    ptx = meta.ptx_line() + "\n" + target.emit_ptx(mod, tm)
    if env_on("NVPTX_ENABLE_DUMP"):
        sys.stderr.write(NVPTX_DUMP_HEADER + "\n" + ptx + "\n")
    return ptx
