"""tt-as: assemble PTX into a CUBIN with ptxas as Triton does, or in process with nvJitLink where there is none.

    tt-as IN.ptx [-o OUT.cubin] [--sm 90] [--maxrregcount N] [--lineinfo] [--opt-level N] [--ptxas PATH] [--sass]

`--sm` defaults to the PTX's `.target`. The assembler: `--ptxas PATH`, else `$TRITON_PTXAS_PATH`, else `ptxas` on
PATH or in `$CUDA_HOME/bin` or /usr/local/cuda/bin (CUDA 12.0 or newer), else nvJitLink (also with
`TTC_ASSEMBLER=nvjitlink`): nvJitLink compiles PTX as relocatable code, which can take more registers. Assembler
errors point at the PTX line (`file:line:col: error: ...`, else printed as the assembler reports them), and the
exit status is 1. `--sass` prints the CUBIN's SASS (nvdisasm, from the nvidia-cuda-nvdisasm wheel that ttc
installs) instead of writing the CUBIN to stdout. The CUBIN is binary: it goes
to `-o`, or to stdout when that is not a terminal. Kernel metadata is read from `IN.json` or the PTX's
`// ttc.metadata:` line and written to `OUT.json`. The CUBIN is a stage of TRITON_KERNEL_DUMP and
TRITON_KERNEL_OVERRIDE (`<dir>/<hash>/<kernel>.cubin`, with `<kernel>.json` beside it; see `ttc.driver.stages`).
"""

from __future__ import annotations

import re
import sys

from ttc.driver.cli import ArgumentParser, UsageError, end, int_range, read_input, run, write_output
from ttc.driver.stages import environment_help


def _parser() -> ArgumentParser:
    p = ArgumentParser(prog="tt-as", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
                       epilog=environment_help(".cubin (with <kernel>.json)"))
    p.add_argument("file", metavar="FILE", nargs="?", default="-", help="PTX input ('-' for stdin; the default)")
    p.add_argument("-o", "--output", metavar="OUT", help="Output CUBIN (default: stdout if not a terminal)")
    p.add_argument("--sm", help="GPU architecture: 90, 90a, sm_90 (default: the PTX's .target)")
    p.add_argument("--maxrregcount", metavar="N", type=int_range(1), help="Registers per thread at most")
    p.add_argument("--lineinfo", action="store_true", help="Keep line information")
    p.add_argument("--opt-level", metavar="N", type=int_range(0, 4), help="Assembler optimization level (0-4)")
    p.add_argument("--ptxas", metavar="PATH",
                   help="Assemble with this ptxas (default: $TRITON_PTXAS_PATH, else one found, else nvJitLink)")
    p.add_argument("--sass", dest="show_sass", action="store_true", help="Print the SASS disassembly")
    return p


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


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from ttc.driver import stages
    from ttc.lowering.cubin import AsmOptions, AssemblerError
    from ttc.lowering.target import TargetError, cpu_name, default_ptxas

    path, text = read_input(args.file)
    if args.sm is not None:
        try:
            arch = cpu_name(args.sm)
        except TargetError as e:
            raise UsageError(str(e)) from None
    else:
        arch = stages.ptx_arch(text)
        if arch is None:
            raise UsageError(f"'{path}' has no .target directive; is it PTX? (or pass --sm)")
    options = AsmOptions(arch=arch, opt_level=args.opt_level, maxrregcount=args.maxrregcount, lineinfo=args.lineinfo)
    tool = args.ptxas or default_ptxas()
    meta = _metadata(path, text, arch)
    try:
        cubin = stages.cubin(text, path, meta, options, "tt-as", tool)
    except AssemblerError as e:  # a log without a PTX line: printed as the assembler wrote it
        sys.stderr.write(str(e).rstrip("\n") + "\n")
        return 1
    if args.show_sass:
        from ttc.lowering.disasm import DisassemblerFailed, DisassemblerNotFound, sass

        try:
            listing = sass(cubin)
        except (DisassemblerNotFound, DisassemblerFailed) as e:
            raise UsageError(str(e)) from None
        if args.output not in (None, "-"):
            write_output(args.output, cubin)
            meta.write_sidecar(args.output)
        write_output(None, listing)
        return 0
    if args.output in (None, "-"):
        if sys.stdout.isatty():
            raise UsageError("refusing to write a binary CUBIN to a terminal: use -o FILE, a pipe, or --sass")
        write_output(None, cubin)
        return 0
    write_output(args.output, cubin)
    meta.write_sidecar(args.output)
    return 0


def entry() -> None:
    end(run("tt-as", main))


if __name__ == "__main__":
    entry()
