"""PTX -> CUBIN with a `ptxas` executable (the one named, else `target.default_ptxas()`), or in process with
nvJitLink (`cuda.bindings.nvjitlink`, the `nvidia-nvjitlink` wheel: no GPU or CUDA toolkit needed) where there is
no ptxas.

Assembler errors come back as `AssemblerError` carrying the assembler's own log.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass


class AssemblerError(Exception):
    """The assembler rejected the PTX (the message is its log), or could not be run."""


@dataclass
class AsmOptions:
    arch: str  # sm_90, sm_90a
    opt_level: int | None = None
    maxrregcount: int | None = None
    lineinfo: bool = False


def _nvjitlink_options(o: AsmOptions) -> list[str]:
    opts = [f"-arch={o.arch}"]
    if o.opt_level is not None:
        opts.append(f"-O{o.opt_level}")
    if o.maxrregcount is not None:
        opts.append(f"-maxrregcount={o.maxrregcount}")
    if o.lineinfo:
        opts.append("-lineinfo")
    return opts


def _log(nvjitlink, handle, kind: str) -> str:
    size = getattr(nvjitlink, f"get_{kind}_log_size")(handle)
    if not size:
        return ""
    buf = bytearray(size)
    getattr(nvjitlink, f"get_{kind}_log")(handle, buf)
    return bytes(buf).rstrip(b"\0").decode("utf-8", "replace").strip()


def with_nvjitlink(ptx: str, name: str, o: AsmOptions) -> bytes:
    try:
        from cuda.bindings import nvjitlink
    except ImportError as e:
        raise AssemblerError(f"nvJitLink is not available ({e}); install cuda-bindings and nvidia-nvjitlink, "
                             "or pass --ptxas") from None
    data = ptx.encode("utf-8")
    opts = _nvjitlink_options(o)
    try:
        handle = nvjitlink.create(len(opts), opts)
    except Exception as e:  # a bad option, or the library could not be loaded
        raise AssemblerError(f"nvJitLink: {e}") from None
    try:
        try:
            nvjitlink.add_data(handle, nvjitlink.InputType.PTX, data, len(data), name)
            nvjitlink.complete(handle)
        except nvjitlink.nvJitLinkError as e:
            raise AssemblerError(_log(nvjitlink, handle, "error") or f"nvJitLink: {e}") from None
        size = nvjitlink.get_linked_cubin_size(handle)
        buf = bytearray(size)
        nvjitlink.get_linked_cubin(handle, buf)
        return bytes(buf)
    finally:
        nvjitlink.destroy(handle)


def with_ptxas(ptx: str, name: str, o: AsmOptions, ptxas: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="tt-as-") as tmp:
        src = os.path.join(tmp, os.path.basename(name) or "kernel.ptx")
        out = os.path.join(tmp, "out.cubin")
        with open(src, "w", encoding="utf-8") as f:
            f.write(ptx)
        cmd = [ptxas, f"-arch={o.arch}", src, "-o", out]
        if o.opt_level is not None:
            cmd.insert(1, f"-O{o.opt_level}")
        if o.maxrregcount is not None:
            cmd.insert(1, f"--maxrregcount={o.maxrregcount}")
        if o.lineinfo:
            cmd.insert(1, "-lineinfo")
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise AssemblerError(f"cannot run ptxas '{ptxas}': {e.strerror}") from None
        if proc.returncode != 0:
            log = (proc.stderr + proc.stdout).strip().replace(src, name)
            raise AssemblerError(log or f"ptxas exited with status {proc.returncode}")
        with open(out, "rb") as f:
            return f.read()


def assemble(ptx: str, name: str, o: AsmOptions, ptxas: str | None = None) -> bytes:
    return with_ptxas(ptx, name, o, ptxas) if ptxas else with_nvjitlink(ptx, name, o)


_PTXAS_LINE = re.compile(r"^ptxas[^,\n]*, line (\d+); (error|warning)\s*: (.*)$", re.M)


def located(log: str, filename: str, text: str) -> list | None:
    """The assembler's `..., line N; error : message` lines (and its located warnings) as `filename:N:col`
    diagnostics (column of the line's first character, with the line and a caret), or None when no error in the
    log has a line: then the log itself is the message."""
    from ttc.ir.diagnostics import Diagnostic, source_line

    found = []
    for m in _PTXAS_LINE.finditer(log):
        line = int(m.group(1))
        src = source_line(text, line)
        col = len(src) - len(src.lstrip()) + 1 if src else 1
        found.append(Diagnostic(filename, line, col, m.group(3).strip(), m.group(2), src))
    return found if any(d.severity == "error" for d in found) else None
