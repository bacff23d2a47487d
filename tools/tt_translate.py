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

import enum
from typing import Optional

import typer

from ttc.driver.cli import UsageError, parse_ptx_version, read_input, run, write_output
from ttc.driver.stages import environment_help

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, help=__doc__.split("\n\n")[0])


class Target(str, enum.Enum):
    llvmir = "llvmir"
    ptx = "ptx"


@app.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=environment_help(".llir (--target=llvmir from TTGIR) and .ptx"))
def translate(
    file: str = typer.Argument("-", help="TTGIR or LLVM IR input ('-' for stdin)"),
    target: Target = typer.Option(..., "--target", help="What to produce: llvmir or ptx"),
    sm: Optional[str] = typer.Option(None, "--sm", help="GPU architecture: 90, 90a, sm_90 (default: the module's ttg.target, else 90)"),
    ptx_version: Optional[str] = typer.Option(None, "--ptx-version", help="PTX ISA version, e.g. 8.0 or 80"),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Output file (default: stdout); written only on success, with OUT.json beside it"),
):
    def main(_argv) -> int:
        from ttc.driver import compiler
        from ttc.ir.diagnostics import CompileError, Diagnostic
        from ttc.lowering import pipeline
        from ttc.lowering.metadata import KernelMetadata
        from ttc.lowering.target import TargetError

        path, text = read_input(file)
        if not text.strip():
            raise CompileError(Diagnostic(path, 0, 0, "the input is empty: expected TTGIR or LLVM IR"))
        options = pipeline.Options(sm=sm, ptx_version=parse_ptx_version(ptx_version))
        kind = pipeline.detect_kind(text)
        try:
            if kind == "ptx":
                raise UsageError(f"'{path}' is PTX already (assemble it with tt-as)")
            if kind == "ttgir" and path.endswith((".ll", ".llir")):
                raise CompileError(Diagnostic(path, 0, 0, "no LLVM IR here (no define, declare, target or ModuleID "
                                              "line); TTGIR files end in .ttgir"))
            if kind == "ttgir":  # the .llir stage: lowered here, unless an override file stands in for it
                mod, meta, tm = compiler.llir(pipeline.parse_ttgir(text, path, options), "tt-translate", options)
            else:
                sidecar = KernelMetadata.read_sidecar(None if file == "-" else file)
                mod, meta, tm = pipeline.parse_llvm(text, path, options, sidecar)
        except TargetError as e:
            raise UsageError(str(e)) from None
        if target is Target.llvmir:
            result = str(mod)
        else:
            result = compiler.ptx(mod, meta, tm, "tt-translate")
        write_output(output, result)
        if output not in (None, "-"):
            meta.write_sidecar(output)
        return 0

    code = run("tt-translate", main, [])
    if code:
        raise typer.Exit(code)


def entry() -> None:
    app()


if __name__ == "__main__":
    entry()
