"""libdevice, NVIDIA's bitcode math library (`__nv_erff`, `__nv_logf`, ...): finding `libdevice.10.bc` and
linking the functions a kernel calls into its LLVM module.

Search order: `$TTC_LIBDEVICE_PATH`, `$TRITON_LIBDEVICE_PATH`, cuda-pathfinder's places (`pathfinder_places`: the
`nvidia-cuda-nvcc` wheel, `$CONDA_PREFIX`, `$CUDA_PATH` / `$CUDA_HOME`), `/usr/local/cuda*/nvvm/libdevice`, and
the copy inside an installed `triton` package. Linked functions are made internal and the unused ones dropped
before O3 (`link`); `nvvm-reflect-ftz` is 1 as in Triton (libdevice's flush-to-zero variants). While a kernel is
lowered (`prefetching`), its first libdevice call starts parsing the library on a thread (`prefetch`).
"""

from __future__ import annotations

import glob
import importlib.util
import os
import site
import sys
import threading
from contextlib import contextmanager

NAME = "libdevice.10.bc"


class LibdeviceNotFound(Exception):
    pass


class NotBitcode(Exception):
    """A library to link (libdevice, or an extern's `libpath`) that cannot be read as LLVM bitcode."""


def _parse(b, path: str):
    try:
        with open(path, "rb") as f:
            return b.parse_bitcode(f.read())
    except OSError as e:
        raise NotBitcode(f"{path}: {e.strerror}") from None
    except RuntimeError as e:  # llvmlite's parse error: its last line says why
        raise NotBitcode(f"{path}: not an LLVM bitcode library ({str(e).strip().splitlines()[-1]})") from None


def candidates() -> list[str]:
    out = []
    for var in ("TTC_LIBDEVICE_PATH", "TRITON_LIBDEVICE_PATH"):
        if os.environ.get(var):
            out.append(os.environ[var])
    out += pathfinder_places()[:1]
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            out.append(os.path.join(home, "nvvm", "libdevice", NAME))
    out += sorted(glob.glob(f"/usr/local/cuda-*/nvvm/libdevice/{NAME}"), reverse=True)
    spec = importlib.util.find_spec("triton")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            out.append(os.path.join(loc, "backends", "nvidia", "lib", NAME))
    return out


# cuda-pathfinder's `find_bitcode_lib("device")` (1.9): these folders under each site-packages, then
# $CONDA_PREFIX, then $CUDA_PATH (else $CUDA_HOME), each + nvvm/libdevice.
PATHFINDER_SITE_DIRS = ("nvidia/cu13/nvvm/libdevice", "nvidia/cuda_nvcc/nvvm/libdevice")


def pathfinder_places() -> list[str]:
    """The libdevice that cuda-pathfinder's `find_bitcode_lib("device")` answers (a one-element list, or [] where
    it finds none), searched as it searches, without importing it: importing `cuda.pathfinder` costs ~180 M
    instructions (its dynamic-library catalogs) for a few `stat`s. test_lowering checks the two agree."""
    parents = list(site.getsitepackages())
    user = site.ENABLE_USER_SITE and site.getusersitepackages()
    if user:  # after a venv's own site-packages, else first
        parents.insert(1 if sys.prefix != sys.base_prefix else 0, user)
    places = [os.path.join(p, d) for d in PATHFINDER_SITE_DIRS for p in parents]
    home = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME")
    places += [os.path.join(p, "nvvm", "libdevice") for p in (os.environ.get("CONDA_PREFIX"), home) if p]
    for place in places:
        if os.path.isfile(os.path.join(place, NAME)):
            return [os.path.realpath(os.path.join(place, NAME))]
    return []


def find() -> str:
    for path in candidates():
        if path and os.path.isfile(path):
            return path
    raise LibdeviceNotFound(
        f"{NAME} not found: install the CUDA toolkit or the nvidia-cuda-nvcc wheel, or set TTC_LIBDEVICE_PATH")


# path -> (thread, [its parsed module or exception]), None once taken, while `prefetching`; None outside it
_parsing: dict | None = None


@contextmanager
def prefetching():
    """Lets `prefetch` start parsing while the block runs (`pipeline.lower` around the lowering and `link`); on
    leaving, waits for any parse `link` did not take, so no thread outlives it (a thread inside LLVM, holding
    llvmlite's lock, would deadlock a process forked meanwhile)."""
    global _parsing
    _parsing = {}
    try:
        yield
    finally:
        parsing, _parsing = _parsing, None
        for started in parsing.values():
            if started is not None:
                started[0].join()


def prefetch() -> None:
    """Start parsing libdevice on a thread, for `link` to take (`translate` calls this before lowering a kernel
    with an op that calls libdevice, the lowering at any other first call): llvmlite's LLVM calls release the GIL (ctypes) and take llvmlite's own lock, so the
    ~60 ms parse runs on another core while the rest of the kernel is lowered in Python, which makes no LLVM
    call. Nothing outside `prefetching`, or where libdevice is not found (`pipeline.lower` reports that)."""
    if _parsing != {}:  # not prefetching, or started
        return
    try:
        path = find()
    except LibdeviceNotFound:
        return
    from ttc.lowering.target import llvm

    b, box = llvm(), []  # initialized here, not on the thread

    def parse():
        try:
            box.append(_parse(b, path))
        except BaseException as e:  # raised again where `link` takes it, as if parsed there
            box.append(e)

    thread = threading.Thread(target=parse, name="ttc-libdevice", daemon=True)
    thread.start()
    _parsing[path] = (thread, box)


def _take(path: str):
    """The parsed library at `path`: the prefetched one, else parsed now."""
    started = (_parsing or {}).get(path)
    if started is not None:
        _parsing[path] = None  # taken: a module is linked once
        thread, box = started
        thread.join()
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]
    from ttc.lowering.target import llvm

    return _parse(llvm(), path)


def link(mod, paths: list[str], keep: set[str]) -> None:
    """Link bitcode libraries into `mod` (an llvmlite ModuleRef); everything defined but `keep` becomes
    internal, and what the kernel does not reach is deleted (LLVM's GlobalDCE).

    The deletion is for time: libdevice has ~350 functions and a kernel calls a few, but O3 simplifies every
    function (its early per-function passes) before its GlobalOpt deletes the unreachable ones, 2/3 of O3's time
    on causal_attention. It leaves O3's output alone: the passes before that GlobalOpt see one function at a time
    (the early simplification) or only what the kernel reaches (IPSCCP), and GlobalDCE keeps the survivors'
    order, which the printed module's order (functions, declarations, attribute groups) follows; Triton links
    with `LinkOnlyNeeded` for the same reason. (Linking only what is needed, with linkonce_odr functions, would
    change that order: the declarations come out in another order.)"""
    from ttc.lowering.target import llvm

    b = llvm()
    for path in paths:
        lib = _take(path)
        lib.triple = mod.triple
        lib.data_layout = mod.data_layout
        mod.link_in(lib)
    for fn in mod.functions:
        if not fn.is_declaration and fn.name not in keep:
            fn.linkage = "internal"
    pm = b.create_new_module_pass_manager()
    pm.add_global_dead_code_eliminate_pass()
    pm.run(mod, b.create_pass_builder(None, b.PipelineTuningOptions()))
