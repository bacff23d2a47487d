"""tt-frontend: compile a `@triton.jit` kernel from a Python file to TTIR (Triton's frontend, without Triton).

    tt-frontend FILE.py --kernel NAME --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" [-o out.ttir]
                [--mlir-print-debuginfo] [--module-name NAME] [--debug] [--arch 90]

The file is read as source, never executed. The signature follows Triton's AOT compiler: one entry per
parameter, `*fp32:16` (pointer, 16-divisible), `i32:1` (specialized to 1), `1024` (a constexpr value).
The output is the module Triton's frontend builds, before any pass; `--mlir-print-debuginfo` prints the
locations (and names SSA values after variables) as Triton's dumps do.
"""

from __future__ import annotations

from typing import Optional

import typer

from ttc.driver.cli import read_input, run, write_output

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, help=__doc__.split("\n\n")[0])


@app.command(context_settings={"help_option_names": ["-h", "--help"]})
def frontend(
    file: str = typer.Argument(..., help="The Python file with the kernel ('-' for stdin)"),
    kernel: str = typer.Option(..., "--kernel", "-k", help="Name of the @triton.jit kernel to compile"),
    signature: str = typer.Option(..., "--signature", "-s", help='Argument types and constexpr values, e.g. "*fp32:16,i32,1024"'),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Output file (default: stdout); written only on success"),
    debuginfo: bool = typer.Option(False, "--mlir-print-debuginfo", help="Print locations, as Triton's dumps do"),
    module_name: Optional[str] = typer.Option(None, "--module-name", help="Python module name of the file, the prefix of helper function names (default: the file's stem)"),
    debug: bool = typer.Option(False, "--debug", help="Triton's debug mode: emit tt.assert for device_assert and overflow checks"),
    sanitize_overflow: bool = typer.Option(True, "--sanitize-overflow/--no-sanitize-overflow", help="Compute integer overflow checks (Triton's default)"),
    arch: int = typer.Option(90, "--arch", help="CUDA compute capability (fp8 support and defaults depend on it)"),
):
    def main(_argv) -> int:
        from ttc.frontend import Options, compile_source
        from ttc.ir.verifier import verify_module
        from ttc.ir.printer import print_ir

        path, text = read_input(file)
        options = Options(debug=debug, sanitize_overflow=sanitize_overflow, arch=arch)
        name = module_name or ("__main__" if file in ("-", "") else None)  # stdin runs like a script
        module = compile_source(text, path, kernel, signature, name, options)
        verify_module(module)
        write_output(output, print_ir(module, debuginfo=debuginfo, name_locs=debuginfo))
        return 0

    code = run("tt-frontend", main, [])
    if code:
        raise typer.Exit(code)


def entry() -> None:
    app()


if __name__ == "__main__":
    entry()
