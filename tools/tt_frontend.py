"""tt-frontend: compile a `@triton.jit` kernel from a Python file to TTIR (Triton's frontend, without Triton).

    tt-frontend FILE.py --kernel NAME --signature "*fp32:16,*fp32:16,*fp32:16,i32,1024" [-o out.ttir]
                [--mlir-print-debuginfo] [--module-name NAME] [--debug] [--arch 90]

The file is read as source, never executed. The signature follows Triton's AOT compiler: one entry per
parameter, `*fp32:16` (pointer, 16-divisible), `i32:1` (specialized to 1), `1024` (a constexpr value).
The output is the module Triton's frontend builds, before any pass; `--mlir-print-debuginfo` prints the
locations (and names SSA values after variables) as Triton's dumps do.
"""

from __future__ import annotations

import sys

from ttc.driver.cli import ArgumentParser, end, read_input, run, write_output


def _parser() -> ArgumentParser:
    p = ArgumentParser(prog="tt-frontend", description=__doc__.split("\n\n")[0].split(": ", 1)[1])
    p.add_argument("file", metavar="FILE", help="The Python file with the kernel ('-' for stdin)")
    p.add_argument("-k", "--kernel", required=True, help="Name of the @triton.jit kernel to compile")
    p.add_argument("-s", "--signature", required=True,
                   help='Argument types and constexpr values, e.g. "*fp32:16,i32,1024"')
    p.add_argument("-o", "--output", metavar="OUT", help="Output file (default: stdout); written only on success")
    p.add_argument("--mlir-print-debuginfo", dest="debuginfo", action="store_true",
                   help="Print locations, as Triton's dumps do")
    p.add_argument("--module-name", metavar="NAME", help="Python module name of the file, the prefix of helper "
                                                         "function names (default: the file's stem)")
    p.add_argument("--debug", action="store_true",
                   help="Triton's debug mode: emit tt.assert for device_assert and overflow checks")
    p.add_argument("--sanitize-overflow", action="boolean_optional", default=True,
                   help="Compute integer overflow checks (Triton's default)")
    p.add_argument("--arch", type=int, default=90, help="CUDA compute capability (fp8 support and defaults depend "
                                                        "on it; default: 90)")
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from ttc.frontend import Options, compile_source
    from ttc.ir.verifier import verify_module
    from ttc.ir.printer import print_ir

    path, text = read_input(args.file)
    options = Options(debug=args.debug, sanitize_overflow=args.sanitize_overflow, arch=args.arch)
    name = args.module_name or ("__main__" if args.file in ("-", "") else None)  # stdin runs like a script
    module = compile_source(text, path, args.kernel, args.signature, name, options)
    verify_module(module)
    write_output(args.output, print_ir(module, debuginfo=args.debuginfo, name_locs=args.debuginfo))
    return 0


def entry() -> None:
    end(run("tt-frontend", main))


if __name__ == "__main__":
    entry()
