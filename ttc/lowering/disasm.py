"""CUBIN -> SASS text for `tt-as --sass`: `nvdisasm -c` from the `nvidia-cuda-nvdisasm` wheel, one of ttc's
dependencies (found through cuda-pathfinder), else `$CUDA_HOME/bin` or `PATH`; failing those, `cuobjdump -sass`
(which itself needs nvdisasm), as `triton.tools.disasm` does it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile


class DisassemblerFailed(Exception):
    """The disassembler rejected the CUBIN (its message)."""


class DisassemblerNotFound(Exception):
    pass


def _find(tool: str) -> str | None:
    try:
        from cuda import pathfinder

        found = pathfinder.find_nvidia_binary_utility(tool)
        if found:
            return found
    except Exception:  # cuda-pathfinder missing or not knowing the tool: look elsewhere
        pass
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")):
        if home and os.path.isfile(os.path.join(home, "bin", tool)):
            return os.path.join(home, "bin", tool)
    return shutil.which(tool)


def sass(cubin: bytes) -> str:
    tools = [(t, _find(t)) for t in ("nvdisasm", "cuobjdump")]
    tools = [(t, p) for t, p in tools if p]
    if not tools:
        raise DisassemblerNotFound("--sass needs nvdisasm, which ttc's install brings (pip install "
                                   "nvidia-cuda-nvdisasm), or the CUDA toolkit's bin on PATH")
    tool, path = tools[0]
    with tempfile.TemporaryDirectory(prefix="tt-as-") as tmp:
        f = os.path.join(tmp, "kernel.cubin")
        with open(f, "wb") as fh:
            fh.write(cubin)
        cmd = [path, "-sass", f] if tool == "cuobjdump" else [path, "-c", f]
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise DisassemblerFailed(f"{tool} failed: {proc.stderr.strip()}")
    return proc.stdout
