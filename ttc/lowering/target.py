"""The NVPTX target through llvmlite: target machines for `sm_XX` with a PTX ISA version, LLVM's O3 pipeline,
and PTX emission.

`--sm 90` is a compute capability and names the GPU as Triton's `sm_arch_from_capability` does: `sm_90a` (the
arch-specific variant, which has wgmma) from 90 on, `sm_80` below; `sm_90` spelled so names that PTX target as it
is. The PTX version is a target feature (`+ptx87`), checked up front because LLVM aborts the process on a version
too old for the GPU. The default is Triton's `ptx_get_version` for the CUDA of the assembler in use
(`default_ptxas`, else nvJitLink: CUDA 12.8 gives PTX 8.7), capped at what this LLVM can write, and at least the
oldest version that supports the GPU.
"""

from __future__ import annotations

import os
import re
import sys
from functools import lru_cache

TRIPLE = "nvptx64-nvidia-cuda"
MIN_LLVM = 20  # the `ptx_kernel` calling convention and `nvvm.reqntid` upgrade


class TargetError(Exception):
    """A target the installed LLVM cannot compile for (bad --sm or --ptx-version)."""


@lru_cache(maxsize=1)
def llvm():
    import llvmlite.binding as binding

    if binding.llvm_version_info[0] < MIN_LLVM:
        raise TargetError(f"llvmlite is built on LLVM {'.'.join(map(str, binding.llvm_version_info))}; "
                          f"the NVPTX lowering needs LLVM {MIN_LLVM} or newer (llvmlite >= 0.45)")
    binding.initialize_all_targets()
    binding.initialize_all_asmprinters()
    # 32-bit shared (addrspace 3), const, local pointers, as Triton: shared-memory addresses stay in 32-bit
    # registers (no mul.wide / 64-bit adds); the target machine's data layout then says p3:32:32
    binding.set_option("", "--nvptx-short-ptr")
    # as Triton's make_ptx: `mad.wide` for a widening multiply feeding an add (its `nvptx-mad-wide-opt` flag), and
    # floating-point contraction allowed (its default enable_fp_fusion: FPOpFusion::Fast), so an fmul and an fadd
    # may become one fma and plain `mul.f32` / `add.f32` (not `.rn`) leave ptxas free to fuse
    binding.set_option("", "--nvptx-mad-wide-opt")
    binding.set_option("", "--nvptx-fma-level=1")
    return binding


# The most shared memory one block may use (opted in above 48 KiB), by compute capability (CUDA's programming
# guide, "Technical Specifications per Compute Capability").
MAX_SHARED_BYTES = {70: 98304, 72: 98304, 75: 65536, 80: 166912, 86: 101376, 87: 166912, 89: 101376, 90: 232448,
                    100: 232448, 103: 232448, 120: 101376}


def max_shared_bytes(capability: int) -> int:
    """Shared memory a block may use on `capability` (the nearest known one at or below it)."""
    known = [c for c in MAX_SHARED_BYTES if c <= capability]
    return MAX_SHARED_BYTES[max(known)] if known else 49152


def cpu_name(sm: str | int) -> str:
    """A capability as Triton names its GPU (`90` -> `sm_90a`, `80` -> `sm_80`); `90a`, `sm_90`, `sm_90a` as
    written."""
    s = str(sm).strip().lower()
    named = s.startswith("sm_")
    s = s[3:] if named else s
    if not re.fullmatch(r"[0-9]{2,3}[af]?", s):
        raise TargetError(f"invalid GPU architecture '{sm}' (expected e.g. 90, 90a or sm_90)")
    if not named and s.isdigit() and int(s) >= 90:
        s += "a"
    return "sm_" + s


def capability(cpu: str) -> int:
    """`sm_90a` -> 90."""
    return int(re.sub(r"[^0-9]", "", cpu))


def ptx_for_cuda(major: int, minor: int) -> int:
    """The newest PTX ISA version the CUDA release `major.minor` assembles, as Triton's `ptx_get_version` counts
    it (12.8 -> 87, 13.0 -> 90)."""
    if major >= 13:
        return 90 + (major - 13) * 10 + minor
    if major == 12:
        return 80 + minor - (minor >= 6)
    return 70 + minor if major == 11 else 63 + minor


NVJITLINK_DISTS = ("nvidia-nvjitlink", "nvidia-nvjitlink-cu13", "nvidia-nvjitlink-cu12")


@lru_cache(maxsize=None)
def dist_info(name: str) -> tuple[str, str] | None:
    """(version, `.dist-info` folder) of the installed distribution `name`, found as `importlib.metadata` finds it
    (the entries of sys.path in order, names compared normalized), from the folder's name: importing
    `importlib.metadata` costs ~20 ms (email, csv, socket, ...)."""
    want = re.sub(r"[-_.]+", "_", name).lower()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for n in names:
            if n.endswith(".dist-info"):
                dist, _, version = n[:-10].partition("-")
                if re.sub(r"[-_.]+", "_", dist).lower() == want and version:
                    return version, os.path.join(entry or ".", n)
    return None


MIN_PTXAS = (12, 0)  # the first ptxas that knows sm_90a


@lru_cache(maxsize=1)
def default_ptxas() -> str | None:
    """The ptxas that assembles when none is named, as Triton runs one: `$TRITON_PTXAS_PATH`, else `ptxas` on PATH,
    else `$CUDA_HOME/bin/ptxas`, else /usr/local/cuda/bin/ptxas (one of CUDA 12.0 or newer); None, for nvJitLink,
    where there is none or `$TTC_ASSEMBLER` is `nvjitlink`.

    ptxas comes first because nvJitLink always compiles PTX as relocatable device code (`ptxas --compile-only`),
    which costs registers a whole-program ptxas does not spend: the layer norm of 4096-wide rows gets 56 registers
    through nvJitLink 13.0 and 32 through ptxas 13.0, Triton's PTX the same, and runs 0.944x against 0.989x
    Triton's (bench/NOTES.md)."""
    if os.environ.get("TRITON_PTXAS_PATH"):
        return os.environ["TRITON_PTXAS_PATH"]
    if os.environ.get("TTC_ASSEMBLER", "").lower() == "nvjitlink":
        return None
    import shutil

    homes = [os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    for found in [shutil.which("ptxas")] + [os.path.join(h, "bin", "ptxas") for h in homes if h]:
        if found and os.access(found, os.X_OK) and (assembler_cuda(found) or (0, 0)) >= MIN_PTXAS:
            return found
    return None


@lru_cache(maxsize=None)
def assembler_cuda(ptxas: str | None) -> tuple[int, int] | None:
    """The CUDA release of the assembler tt-as uses: `ptxas --version`, else the installed nvJitLink (its wheel's
    version, read without loading the library); None when neither says."""
    if ptxas:
        return _ptxas_release(ptxas)
    for dist in NVJITLINK_DISTS:
        found = dist_info(dist)
        try:
            major, minor = found[0].split(".")[:2]
            return int(major), int(minor)
        except (TypeError, ValueError):
            continue
    return None


def _ptxas_release(ptxas: str) -> tuple[int, int] | None:
    """`ptxas --version`'s CUDA release, remembered across processes in PTX_VERSIONS under the file's identity
    (path, modification time, size: `_installed`), so a process that has seen this ptxas runs no subprocess
    (~10-30 ms of every command that needs the default assembler)."""
    try:
        key = "ptxas " + _installed(ptxas)
    except OSError:
        key = None
    known = _stored()
    if key is not None and key in known and (known[key] is None or _is_release(known[key])):
        return tuple(known[key]) if known[key] else None
    import subprocess  # here only: most commands find the release stored

    try:
        out = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return None
    m = re.search(r"release (\d+)\.(\d+)", out)
    release = (int(m.group(1)), int(m.group(2))) if m else None
    if key is not None:
        _store(known, key, list(release) if release else None)
    return release


def _is_release(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)


def _emit_probe(cpu: str, features: str) -> str:
    """The `.version` LLVM writes for an empty kernel (stderr silenced: LLVM warns there about unknown features)."""
    b = llvm()
    mod = b.parse_assembly(f'target triple = "{TRIPLE}"\ndefine ptx_kernel void @k() {{ ret void }}')
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            tm = b.Target.from_triple(TRIPLE).create_target_machine(cpu=cpu, features=features, opt=0)
            text = tm.emit_assembly(mod)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    m = re.search(r"^\.version (\d+)\.(\d+)", text, re.M)
    t = re.search(r"^\.target (\S+)", text, re.M)
    if not m or not t or t.group(1).rstrip(",") != cpu:
        raise TargetError(f"LLVM's NVPTX backend does not know GPU '{cpu}'")
    return f"{m.group(1)}{m.group(2)}"


@lru_cache(maxsize=None)
def min_ptx_version(cpu: str) -> int:
    return int(_emit_probe(cpu, ""))


@lru_cache(maxsize=None)
def llvm_writes(cpu: str, version: int) -> bool:
    return int(_emit_probe(cpu, f"+ptx{version}")) == version


def default_ptx_version(cpu: str, ptxas: str | None = None) -> int:
    """Triton's choice for the assembler's CUDA (8.0 when it is unknown), lowered to the newest version LLVM
    writes."""
    cuda = assembler_cuda(ptxas)
    want = ptx_for_cuda(*cuda) if cuda else 80
    while want > 80 and not llvm_writes(cpu, want):
        want -= 1 if want % 10 else 2  # 9.0 -> 8.8
    return want


# resolve_ptx_version's answers and ptxas releases, kept across processes (each costs LLVM probes or running
# `ptxas --version`: ~30 ms of every compile); see _known and _ptxas_release.
PTX_VERSIONS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "__pycache__",
                            "ptx_versions.json")


def _installed(path: str) -> str:
    """A file or folder as installed: its path, modification time and size (a reinstall changes them)."""
    st = os.stat(path)
    return f"{os.path.realpath(path)}:{st.st_mtime_ns}:{st.st_size}"


def _known(cpu: str, requested: int | None, ptxas: str | None) -> tuple[str | None, dict]:
    """The cache key of resolve_ptx_version's answer for these arguments, and the cached answers. The answer
    depends on the LLVM that llvmlite was built with and, by default, on the assembler's CUDA release, so the key
    names the installed llvmlite (its `.dist-info` folder) and the assembler (the nvJitLink wheel's, or the
    ptxas file); None where one is not found (then nothing is cached)."""
    try:
        llvmlite = dist_info("llvmlite")
        parts = [cpu, str(requested), _installed(llvmlite[1])]
        if requested is None:
            nvjitlink = next((d for d in map(dist_info, NVJITLINK_DISTS) if d), None)
            parts.append(_installed(ptxas) if ptxas else _installed(nvjitlink[1]) if nvjitlink else "no assembler")
    except (OSError, TypeError):
        return None, {}
    return " ".join(parts), _stored()


def _stored() -> dict:
    """The answers in PTX_VERSIONS ({} where it is missing or damaged)."""
    import json

    try:
        with open(PTX_VERSIONS, encoding="utf-8") as f:
            known = json.load(f)
    except (OSError, ValueError):
        known = {}
    return known if isinstance(known, dict) else {}


def _store(known: dict, key: str, value) -> None:
    """`known` with `key` set to `value`, written to PTX_VERSIONS at once (a rename: readers see the old file or the
    new one); nothing where it cannot be written."""
    import json

    known[key] = value
    try:
        os.makedirs(os.path.dirname(PTX_VERSIONS), exist_ok=True)
        with open(f"{PTX_VERSIONS}.{os.getpid()}", "w", encoding="utf-8") as f:
            json.dump(known, f, indent=0, sort_keys=True)
        os.replace(f"{PTX_VERSIONS}.{os.getpid()}", PTX_VERSIONS)
    except OSError:
        pass


@lru_cache(maxsize=None)
def resolve_ptx_version(cpu: str, requested: int | None, ptxas: str | None = None) -> int:
    """The PTX ISA version (as 80 for 8.0) to use for `cpu`, checked against what LLVM supports; remembered
    across processes in PTX_VERSIONS (`_known`)."""
    key, known = _known(cpu, requested, ptxas)
    if key is not None and isinstance(known.get(key), int):
        return known[key]
    version = _resolve_ptx_version(cpu, requested, ptxas)
    if key is not None:
        _store(_stored(), key, version)
    return version


def _resolve_ptx_version(cpu: str, requested: int | None, ptxas: str | None) -> int:
    low = min_ptx_version(cpu)
    if requested is None:
        return max(low, default_ptx_version(cpu, ptxas))
    if requested < low:
        raise TargetError(f"PTX ISA {requested // 10}.{requested % 10} does not support {cpu}; "
                          f"the oldest that does is {low // 10}.{low % 10}")
    if int(_emit_probe(cpu, f"+ptx{requested}")) != requested:
        raise TargetError(f"PTX ISA {requested // 10}.{requested % 10} is not supported by this LLVM's NVPTX backend")
    return requested


FP8_MMA_SYNC_PTX = 84  # mma.sync m16n8k32 with .e4m3/.e5m2 operands: PTX ISA 8.4
TENSORMAP_PTX = 83  # tensormap.replace, tensormap.cp_fenceproxy (descriptors made in the kernel)
TENSORMAP_WHY = "tensor maps made in the kernel (tensormap.replace)"


def ptx_for(cpu: str, requested: int | None, needed: int | None, why: str = "", ptxas: str | None = None) -> int:
    """`resolve_ptx_version`, at least `needed` (an instruction's minimum) when no version was requested; a
    requested version below `needed` is an error naming `why`."""
    ptx = resolve_ptx_version(cpu, requested, ptxas)
    if needed is None or ptx >= needed:
        return ptx
    if requested is not None:
        raise TargetError(f"{why} needs PTX ISA {needed // 10}.{needed % 10} or later, got --ptx-version {requested}")
    return resolve_ptx_version(cpu, needed)


def target_machine(cpu: str, ptx_version: int):
    b = llvm()
    return b.Target.from_triple(TRIPLE).create_target_machine(cpu=cpu, features=f"+ptx{ptx_version}", opt=3)


def data_layout(tm) -> str:
    return str(tm.target_data)


# SLP's time grows with a basic block's size times the trees it vectorizes there (each vectorized tree
# invalidates the block's instruction order, renumbered in full at the next query; llvmlite's LLVM, built with
# assertions, also checks the order in full): ~quadratic on one huge block (bench/NOTES.md: 20 s of O3 on a block
# of 42k instructions, 1 s without SLP). The largest block of any fixture or kernel before O3 is 3130
# (attention_w4_sm80; `bench/ptx_snapshot.py --blocks`), so no kernel there is affected.
SLP_MAX_BLOCK = 8192


def slp_vectorizes(largest_block: int) -> bool:
    """Whether O3 runs the SLP vectorizer on a module whose largest basic block (before O3, in instructions) is
    `largest_block`."""
    return largest_block <= SLP_MAX_BLOCK


def optimize(mod, tm, largest_block: int) -> None:
    """LLVM's O3 module pipeline (new pass manager) as Triton's optimize_module runs it for NVIDIA: the pass
    builder gets no target machine (`tm` is only for code generation), so the generic cost model applies and
    NVPTX's unrolling preferences (runtime and partial unrolling of loops with a run-time trip count) do not;
    the SLP vectorizer is on (pairs of f16 operations become f16x2 ones) unless the module's largest basic block
    (`LoweredKernel.largest_block`) is over SLP_MAX_BLOCK instructions."""
    b = llvm()
    tuning = b.PipelineTuningOptions(speed_level=3)
    tuning.slp_vectorization = slp_vectorizes(largest_block)
    pb = b.create_pass_builder(None, tuning)
    pb.getModulePassManager().run(mod, pb)


def emit_ptx(mod, tm) -> str:
    return tm.emit_assembly(mod)
