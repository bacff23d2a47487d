"""tt-as: assemble PTX into a CUBIN, in process with nvJitLink, or with ptxas when asked.

    tt-as IN.ptx [-o OUT.cubin] [--sm 90] [--maxrregcount N] [--lineinfo] [--opt-level N] [--ptxas PATH] [--sass]

`--sm` defaults to the PTX's `.target`. `--ptxas PATH` (or `$TRITON_PTXAS_PATH`) runs that ptxas instead of
nvJitLink. Assembler errors point at the PTX line (`file:line:col: error: ...`, else printed as the assembler
reports them), and the exit status is 1. `--sass` prints the CUBIN's SASS (nvdisasm, from the
nvidia-cuda-nvdisasm wheel that ttc installs) instead of writing the CUBIN to stdout. The CUBIN is binary: it goes
to `-o`, or to stdout when that is not a terminal. Kernel metadata is read from `IN.json` or the PTX's
`// ttc.metadata:` line and written to `OUT.json`. The CUBIN is a stage of TRITON_KERNEL_DUMP and
TRITON_KERNEL_OVERRIDE (`<dir>/<hash>/<kernel>.cubin`, with `<kernel>.json` beside it; see `ttc.driver.stages`).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Optional

import typer

from ttc.driver.cli import UsageError, read_input, run, write_output
from ttc.driver.stages import environment_help

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, help=__doc__.split("\n\n")[0])


def _metadata(path: str, text: str, arch: str):
    from ttc.lowering.metadata import KernelMetadata, ptx_entries, source_hash

    meta = KernelMetadata.read_sidecar(None if path == "<stdin>" else path) or KernelMetadata.from_ptx(text, path)
    if meta is None:
        entries = ptx_entries(text)
        threads = re.search(r"^\s*\.(?:reqntid|maxntid)\s+(\d+)", text, re.M)
        n = int(threads.group(1)) if threads else 128
        meta = KernelMetadata(name=entries[0] if entries else "", num_warps=max(1, n // 32), threads_per_warp=32,
                              shared=0, hash=source_hash(text), target="")
    meta.target = f"cuda:{arch[3:]}"
    return meta


@app.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=environment_help(".cubin (with <kernel>.json)"))
def assemble(
    file: str = typer.Argument("-", help="PTX input ('-' for stdin)"),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Output CUBIN (default: stdout if not a terminal)"),
    sm: Optional[str] = typer.Option(None, "--sm", help="GPU architecture: 90, 90a, sm_90 (default: the PTX's .target)"),
    maxrregcount: Optional[int] = typer.Option(None, "--maxrregcount", min=1, help="Registers per thread at most"),
    lineinfo: bool = typer.Option(False, "--lineinfo", help="Keep line information"),
    opt_level: Optional[int] = typer.Option(None, "--opt-level", min=0, max=4, help="Assembler optimization level (0-4)"),
    ptxas: Optional[str] = typer.Option(None, "--ptxas", help="Assemble with this ptxas (also $TRITON_PTXAS_PATH)"),
    show_sass: bool = typer.Option(False, "--sass", help="Print the SASS disassembly"),
):
    def main(_argv) -> int:
        from ttc.driver import compiler
        from ttc.lowering.cubin import AsmOptions, AssemblerError
        from ttc.lowering.target import TargetError, cpu_name

        path, text = read_input(file)
        if sm is not None:
            try:
                arch = cpu_name(sm)
            except TargetError as e:
                raise UsageError(str(e)) from None
        else:
            arch = compiler.ptx_arch(text)
            if arch is None:
                raise UsageError(f"'{path}' has no .target directive; is it PTX? (or pass --sm)")
        options = AsmOptions(arch=arch, opt_level=opt_level, maxrregcount=maxrregcount, lineinfo=lineinfo)
        tool = ptxas or os.environ.get("TRITON_PTXAS_PATH") or None
        meta = _metadata(path, text, arch)
        try:
            cubin = compiler.cubin(text, path, meta, options, "tt-as", tool)
        except AssemblerError as e:  # a log without a PTX line: printed as the assembler wrote it
            sys.stderr.write(str(e).rstrip("\n") + "\n")
            return 1
        if show_sass:
            from ttc.lowering.disasm import DisassemblerFailed, DisassemblerNotFound, sass

            try:
                listing = sass(cubin)
            except (DisassemblerNotFound, DisassemblerFailed) as e:
                raise UsageError(str(e)) from None
            if output not in (None, "-"):
                write_output(output, cubin)
                meta.write_sidecar(output)
            write_output(None, listing)
            return 0
        if output in (None, "-"):
            if sys.stdout.isatty():
                raise UsageError("refusing to write a binary CUBIN to a terminal: use -o FILE, a pipe, or --sass")
            write_output(None, cubin)
            return 0
        write_output(output, cubin)
        meta.write_sidecar(output)
        return 0

    code = run("tt-as", main, [])
    if code:
        raise typer.Exit(code)


def entry() -> None:
    app()


if __name__ == "__main__":
    entry()
