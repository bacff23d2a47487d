"""tt-translate: TTGIR -> LLVM IR -> PTX, as Triton's `make_llir` and `make_ptx` stages do.

    tt-translate IN --target=llvmir|ptx [--sm 90] [--ptx-version 80] [-o OUT]

The input is TTGIR (after the TTGIR passes; calls inlined) or LLVM IR text, told apart by content; TTGIR goes
all the way to PTX in one call with `--target=ptx`. LLVM IR is lowered and optimized (O3) for the NVPTX target;
PTX comes from LLVM's NVPTX backend. `--sm` defaults to the module's `ttg.target` (else 90), `--ptx-version` to
the newer of 8.0 and the oldest version supporting the GPU.

Kernel metadata (name, num_warps, threads_per_warp, shared, hash, target) is written to `OUT.json` with `-o`,
read from `IN.json` when present, and kept inside the output (`!ttc.metadata`, `// ttc.metadata:`).
The LLVM IR (`.llir`) and the PTX are stages of TRITON_KERNEL_DUMP and TRITON_KERNEL_OVERRIDE
(`<dir>/<hash>/<kernel>.<ext>`; see `ttc.driver.stages`).
Environment: LLVM_IR_ENABLE_DUMP=1 prints the LLVM IR before and after O3, NVPTX_ENABLE_DUMP=1 the PTX (stderr).
"""

from __future__ import annotations

import sys

from ttc.driver.cli import ArgumentParser, UsageError, end, parse_ptx_version, read_input, run, write_output
from ttc.driver.stages import environment_help


def _parser() -> ArgumentParser:
    p = ArgumentParser(prog="tt-translate", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
                       epilog=environment_help(".llir (--target=llvmir from TTGIR) and .ptx"))
    p.add_argument("file", metavar="FILE", nargs="?", default="-",
                   help="TTGIR or LLVM IR input ('-' for stdin; the default)")
    p.add_argument("--target", required=True, choices=("llvmir", "ptx"), help="What to produce: llvmir or ptx")
    p.add_argument("--sm", help="GPU architecture: 90, 90a, sm_90 (default: the module's ttg.target, else 90)")
    p.add_argument("--ptx-version", metavar="V", help="PTX ISA version, e.g. 8.0 or 80")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="Output file (default: stdout); written only on success, with OUT.json beside it")
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from ttc.driver import stages
    from ttc.ir.diagnostics import CompileError, Diagnostic
    from ttc.lowering import pipeline
    from ttc.lowering.metadata import KernelMetadata
    from ttc.lowering.target import TargetError

    path, text = read_input(args.file)
    if not text.strip():
        raise CompileError(Diagnostic(path, 0, 0, "the input is empty: expected TTGIR or LLVM IR"))
    options = pipeline.Options(sm=args.sm, ptx_version=parse_ptx_version(args.ptx_version))
    kind = pipeline.detect_kind(text)
    try:
        if kind == "ptx":
            raise UsageError(f"'{path}' is PTX already (assemble it with tt-as)")
        if kind == "ttgir" and path.endswith((".ll", ".llir")):
            raise CompileError(Diagnostic(path, 0, 0, "no LLVM IR here (no define, declare, target or ModuleID "
                                          "line); TTGIR files end in .ttgir"))
        if kind == "ttgir":  # the .llir stage: lowered here, unless an override file stands in for it
            mod, meta, tm, llir = stages.llir(pipeline.parse_ttgir(text, path, options), "tt-translate", options)
        else:
            sidecar = KernelMetadata.read_sidecar(None if args.file == "-" else args.file)
            (mod, meta, tm), llir = pipeline.parse_llvm(text, path, options, sidecar), None
    except TargetError as e:
        raise UsageError(str(e)) from None
    if args.target == "llvmir":
        result = str(mod) if llir is None else llir
    else:
        result = stages.ptx(mod, meta, tm, "tt-translate", llir)
    write_output(args.output, result)
    if args.output not in (None, "-"):
        meta.write_sidecar(args.output)
    return 0


def entry() -> None:
    end(run("tt-translate", main))


if __name__ == "__main__":
    entry()
