"""libdevice, NVIDIA's bitcode math library (`__nv_erff`, `__nv_logf`, ...): finding `libdevice.10.bc` and
linking the functions a kernel calls into its LLVM module.

Search order: `$TTC_LIBDEVICE_PATH`, `$TRITON_LIBDEVICE_PATH`, cuda-pathfinder (the `nvidia-cuda-nvcc` wheel or
`$CUDA_HOME`), `/usr/local/cuda*/nvvm/libdevice`, and the copy inside an installed `triton` package. Linked
functions are made internal so that O3 drops what the kernel does not use; `nvvm-reflect-ftz` is 1 as in
Triton (libdevice's flush-to-zero variants).
"""

from __future__ import annotations

import glob
import importlib.util
import os

NAME = "libdevice.10.bc"


class LibdeviceNotFound(Exception):
    pass


def candidates() -> list[str]:
    out = []
    for var in ("TTC_LIBDEVICE_PATH", "TRITON_LIBDEVICE_PATH"):
        if os.environ.get(var):
            out.append(os.environ[var])
    try:
        from cuda import pathfinder

        out.append(pathfinder.find_bitcode_lib("device"))
    except Exception:  # not installed, or nothing found: the other places may still have it
        pass
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            out.append(os.path.join(home, "nvvm", "libdevice", NAME))
    out += sorted(glob.glob(f"/usr/local/cuda-*/nvvm/libdevice/{NAME}"), reverse=True)
    spec = importlib.util.find_spec("triton")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            out.append(os.path.join(loc, "backends", "nvidia", "lib", NAME))
    return out


def find() -> str:
    for path in candidates():
        if path and os.path.isfile(path):
            return path
    raise LibdeviceNotFound(
        f"{NAME} not found: install the CUDA toolkit or the nvidia-cuda-nvcc wheel, or set TTC_LIBDEVICE_PATH")


def link(mod, paths: list[str], keep: set[str]) -> None:
    """Link bitcode libraries into `mod` (an llvmlite ModuleRef); everything defined but `keep` becomes
    internal."""
    from ttc.lowering.target import llvm

    b = llvm()
    for path in paths:
        with open(path, "rb") as f:
            lib = b.parse_bitcode(f.read())
        lib.triple = mod.triple
        lib.data_layout = mod.data_layout
        mod.link_in(lib)
    for fn in mod.functions:
        if not fn.is_declaration and fn.name not in keep:
            fn.linkage = "internal"
