"""tt-translate: TTGIR -> LLVM IR -> PTX, as Triton's `make_llir` and `make_ptx` stages do.

    tt-translate IN --target=llvmir|ptx [--sm 90] [--ptx-version 80] [-o OUT]

The input is TTGIR (after the TTGIR passes; calls inlined) or LLVM IR text, told apart by content; TTGIR goes
all the way to PTX in one call with `--target=ptx`. LLVM IR is lowered and optimized (O3) for the NVPTX target;
PTX comes from LLVM's NVPTX backend. `--sm` defaults to the module's `ttg.target` (else 90), `--ptx-version` to
the newer of 8.0 and the oldest version supporting the GPU.

Kernel metadata (name, num_warps, threads_per_warp, shared, hash, target) is written to `OUT.json` with `-o`,
read from `IN.json` when present, and kept inside the output (`!ttc.metadata`, `// ttc.metadata:`).
The LLVM IR (`.llir`) and the PTX are stages of TRITON_KERNEL_DUMP and TRITON_KERNEL_OVERRIDE
(`<dir>/<hash>/<kernel>.<ext>`; see `ttc.stages`).
Environment: LLVM_IR_ENABLE_DUMP=1 prints the LLVM IR before and after O3, NVPTX_ENABLE_DUMP=1 the PTX (stderr).
"""

from __future__ import annotations

import enum
from typing import Optional

import typer

from ttc.cli import UsageError, read_input, run, write_output
from ttc.stages import environment_help

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, help=__doc__.split("\n\n")[0])


class Target(str, enum.Enum):
    llvmir = "llvmir"
    ptx = "ptx"


def parse_ptx_version(text: str | None) -> int | None:
    """`80` or `8.0` -> 80."""
    if text is None:
        return None
    t = text.strip()
    try:
        if "." in t:
            major, minor = t.split(".", 1)
            return int(major) * 10 + int(minor)
        return int(t)
    except ValueError:
        raise UsageError(f"invalid PTX version '{text}' (expected e.g. 8.0 or 80)") from None


def _own_metadata(own, stage_meta, kernel):
    """The metadata an override file carries (else the stage's), with the stage's kernel name and hash: the file's
    place in the override directory says which kernel it is."""
    from dataclasses import replace

    return replace(own or stage_meta, name=kernel.name, hash=kernel.hash)


def _override_llir(path: str, kernel, stage_meta, options):
    """(module, metadata, target machine) of an LLVM IR override file: parsed and verified (errors point into
    the file), defining the kernel, its `!ttc.metadata` naming this kernel and hash."""
    from ttc import stages
    from ttc.lowering import pipeline
    from ttc.lowering.metadata import KernelMetadata

    text = stages.read_override(path)
    meta = _own_metadata(KernelMetadata.from_llvm_ir(text, path), stage_meta, kernel)
    mod, meta, tm = pipeline.parse_llvm(meta.into_llvm_ir(text), path, options, meta)
    if not any(f.name == kernel.name and not f.is_declaration for f in mod.functions):
        raise stages.missing_kernel(path, kernel)
    return mod, meta, tm


def _override_ptx(path: str, kernel, stage_meta) -> str:
    """The PTX of an override file: defining the kernel, checked by assembling it (errors point into the file),
    with a metadata line naming this kernel and hash."""
    from ttc import stages
    from ttc.diagnostics import CompileError
    from ttc.lowering.cubin import AsmOptions, AssemblerError, assemble, located
    from ttc.lowering.metadata import KernelMetadata, ptx_entries

    text = stages.read_override(path)
    meta = _own_metadata(KernelMetadata.from_ptx(text, path), stage_meta, kernel)
    if kernel.name not in ptx_entries(text):
        raise stages.missing_kernel(path, kernel)
    try:
        assemble(text, path, AsmOptions(arch="sm_" + meta.target.split(":")[-1]))
    except AssemblerError as e:
        diags = located(str(e), path, text)
        if diags:
            raise CompileError(*diags) from None
        if "not available" not in str(e):  # no assembler here: tt-as will check it
            raise UsageError(f"override file '{path}' does not assemble: {e}") from None
    return meta.into_ptx(text)


@app.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=environment_help(".llir (--target=llvmir from TTGIR) and .ptx"))
def translate(
    file: str = typer.Argument("-", help="TTGIR or LLVM IR input ('-' for stdin)"),
    target: Target = typer.Option(..., "--target", help="What to produce: llvmir or ptx"),
    sm: Optional[str] = typer.Option(None, "--sm", help="GPU architecture: 90, 90a, sm_90 (default: the module's ttg.target, else 90)"),
    ptx_version: Optional[str] = typer.Option(None, "--ptx-version", help="PTX ISA version, e.g. 8.0 or 80"),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Output file (default: stdout); written only on success, with OUT.json beside it"),
):
    def main(_argv) -> int:
        from ttc import stages
        from ttc.lowering import pipeline
        from ttc.lowering.metadata import KernelMetadata
        from ttc.lowering.target import TargetError

        path, text = read_input(file)
        options = pipeline.Options(sm=sm, ptx_version=parse_ptx_version(ptx_version))
        kind = pipeline.detect_kind(text)
        try:
            if kind == "ptx":
                raise UsageError(f"'{path}' is PTX already (assemble it with tt-as)")
            if kind == "ttgir":  # the .llir stage: lowered here, unless an override file stands in for it
                ttgir = pipeline.parse_ttgir(text, path, options)
                stage_meta = ttgir.metadata()
                kernel = stages.Kernel(stage_meta.name, stage_meta.hash)
                replaced = stages.override("tt-translate", kernel, "llir")
                if replaced is not None:
                    mod, meta, tm = _override_llir(replaced, kernel, stage_meta, options)
                else:
                    mod, meta, tm = pipeline.lower(ttgir)
                stages.dump(kernel, "llir", str(mod))
            else:
                sidecar = KernelMetadata.read_sidecar(None if file == "-" else file)
                mod, meta, tm = pipeline.parse_llvm(text, path, options, sidecar)
        except TargetError as e:
            raise UsageError(str(e)) from None
        if target is Target.llvmir:
            result = str(mod)
        else:
            kernel = stages.Kernel(meta.name, meta.hash)
            replaced = stages.override("tt-translate", kernel, "ptx")
            result = _override_ptx(replaced, kernel, meta) if replaced else pipeline.to_ptx(mod, meta, tm)
            stages.dump(kernel, "ptx", result)
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
