"""tt-compile: every stage of a kernel in one process, from Python to CUBIN, with Triton's kernel cache.

    tt-compile KERNEL.py --kernel NAME --signature SIG [--target cuda:90] [--num-warps N] [--num-stages S]
               [--stage ttir|ttgir|llir|ptx|cubin] [-o OUT] [-v]
    tt-compile KERNEL.py --kernel NAME --autotuned --spec SPEC.json [--configs FILE] [-o OUT]

The output is what the pipe of separate commands gives (tt-frontend | tt-opt -make-ttir | tt-opt -make-ttgir |
tt-translate | tt-as), through the same stage code (`ttc.driver.compiler`): the CUBIN by default, with `OUT.json`
metadata beside it for tt-run; `--stage` stops early (TTIR and TTGIR are printed as Triton's dumps print them,
with locations). A cache hit (`$TRITON_CACHE_DIR`, default `~/.triton/cache`) skips every stage;
`TRITON_ALWAYS_COMPILE=1` compiles anyway. A hit never hides a requested dump (TRITON_KERNEL_DUMP copies the
cached stages; MLIR_ENABLE_DUMP, MLIR_ENABLE_TIMING, MLIR_ENABLE_DIAGNOSTICS, LLVM_IR_ENABLE_DUMP and
NVPTX_ENABLE_DUMP compile) and never beats an override (TRITON_KERNEL_OVERRIDE with a file of the kernel's
compiles). `--autotuned` compiles the winner that `tt-tune` stored in Triton's autotune cache for the kernel, the
spec, the configs and the target (its signature, warps, stages and registers).
"""

from __future__ import annotations

import argparse
import sys

from ttc.driver.cli import ArgumentParser, UsageError, end, parse_ptx_version, run, write_output

STAGES = ("ttir", "ttgir", "llir", "ptx", "cubin")
ENVIRONMENT = """environment:
  TRITON_CACHE_DIR        the kernel cache (default ~/.triton/cache); TRITON_ALWAYS_COMPILE=1 bypasses it
  TRITON_KERNEL_DUMP=1    write every stage to $TRITON_DUMP_DIR/<hash>/<kernel>.<ext> (also on a cache hit)
  TRITON_KERNEL_OVERRIDE=1  use $TRITON_OVERRIDE_DIR/<hash>/<kernel>.<ext> for the stages found there
  MLIR_ENABLE_DUMP, MLIR_DUMP_PATH, MLIR_ENABLE_TIMING, MLIR_ENABLE_DIAGNOSTICS  as tt-opt
  LLVM_IR_ENABLE_DUMP, NVPTX_ENABLE_DUMP  as tt-translate; TRITON_PTXAS_PATH as tt-as
  TRITON_REPRODUCER_PATH  where a failing pass leaves its reproducer
"""


def _parser() -> ArgumentParser:
    p = ArgumentParser(prog="tt-compile", description=__doc__.split("\n\n")[0].split(": ", 1)[1],
                       epilog=ENVIRONMENT, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="KERNEL.py", help="the Python file with the kernel ('-' for stdin)")
    p.add_argument("-k", "--kernel", required=True, help="name of the @triton.jit kernel")
    p.add_argument("-s", "--signature", help='argument types and constexpr values, e.g. "*fp32:16,i32,1024"')
    p.add_argument("--autotuned", action="store_true",
                   help="compile the winner tt-tune stored for --spec (and --configs) in the autotune cache")
    p.add_argument("--spec", help="with --autotuned: the spec tt-tune was given")
    p.add_argument("--configs", metavar="FILE", help="with --autotuned: the --configs file tt-tune was given")
    p.add_argument("--target", default="cuda:90", help="the GPU target (default: cuda:90)")
    p.add_argument("--num-warps", type=int, help="warps per program (default: 4)")
    p.add_argument("--num-stages", type=int, help="software pipelining stages (default: 3)")
    p.add_argument("--stage", choices=STAGES, default="cubin", help="the last stage to run (default: cubin)")
    p.add_argument("-o", "--output", help="output file (default: stdout; a CUBIN only when it is not a terminal); "
                                          "written only on success, with OUT.json beside LLVM IR, PTX and CUBIN")
    p.add_argument("--debug", action="store_true", help="Triton's debug mode (tt.assert for device_assert)")
    p.add_argument("--no-sanitize-overflow", dest="sanitize_overflow", action="store_false",
                   help="skip Triton's integer overflow checks")
    p.add_argument("--module-name", help="Python module name of the file, the prefix of helper names")
    p.add_argument("--ptx-version", help="PTX ISA version, e.g. 8.0 or 80")
    p.add_argument("--maxrregcount", type=int, help="registers per thread at most")
    p.add_argument("--opt-level", type=int, choices=range(5), help="assembler optimization level")
    p.add_argument("--lineinfo", action="store_true", help="keep line information in the CUBIN")
    p.add_argument("--launch-pdl", action="store_true",
                   help="record launch_pdl in the metadata, as Triton's launch_pdl=True: tt-run then launches the kernel "
                        "with programmatic dependent launch (for gdc_wait / gdc_launch_dependents)")
    p.add_argument("--ptxas", help="assemble with this ptxas (default: $TRITON_PTXAS_PATH, else ptxas on PATH or in CUDA_HOME, else nvJitLink)")
    p.add_argument("-v", "--verbose", action="store_true", help="say on stderr whether the cache was hit, and the stage times")
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from ttc.driver import compiler
    from ttc.driver.cli import read_input
    from ttc.lowering.cubin import AssemblerError

    if args.autotuned:
        if args.spec is None:
            raise UsageError("--autotuned needs --spec (the spec tt-tune was given)")
        if args.signature or args.num_warps or args.num_stages or args.maxrregcount:
            raise UsageError("--autotuned takes the signature, warps, stages and registers from tt-tune's winner")
        if args.file == "-":
            raise UsageError("--autotuned reads the kernel from a file, not stdin")
        from ttc.driver import autotune

        best = autotune.cached_winner(args.file, args.kernel, args.spec, args.target, args.configs)
        args.signature = best.signature
        args.num_warps, args.num_stages = best.options["num_warps"], best.options["num_stages"]
        args.maxrregcount, num_ctas = best.options["maxnreg"], best.options["num_ctas"]
        if args.verbose:
            sys.stderr.write(f"tt-compile: autotuned config: {best.config}\n")
    else:
        num_ctas = 1
    if not args.autotuned and (args.spec or args.configs):
        raise UsageError("--spec and --configs go with --autotuned")
    if args.signature is None:
        raise UsageError("the following arguments are required: -s/--signature")
    args.num_warps = 4 if args.num_warps is None else args.num_warps
    args.num_stages = 3 if args.num_stages is None else args.num_stages
    if args.num_warps < 1 or args.num_warps & (args.num_warps - 1):
        raise UsageError(f"--num-warps must be a power of two, not {args.num_warps}")
    if args.num_stages < 1:
        raise UsageError(f"--num-stages must be at least 1, not {args.num_stages}")
    options = compiler.Options(target=args.target, num_warps=args.num_warps, num_stages=args.num_stages,
                               num_ctas=num_ctas, debug=args.debug, sanitize_overflow=args.sanitize_overflow,
                               module_name=args.module_name or ("__main__" if args.file == "-" else None),
                               ptx_version=parse_ptx_version(args.ptx_version), maxrregcount=args.maxrregcount,
                               opt_level=args.opt_level, lineinfo=args.lineinfo, ptxas=args.ptxas,
                               launch_pdl=args.launch_pdl)
    if args.stage == "cubin" and args.output in (None, "-") and sys.stdout.isatty():
        raise UsageError("refusing to write a binary CUBIN to a terminal: use -o FILE, a pipe, or --stage ptx")
    path, text = read_input(args.file)
    try:
        result = compiler.compile(path, args.kernel, args.signature, options, stage=args.stage, text=text,
                                  tool="tt-compile")
    except AssemblerError as e:  # a log without a PTX line: printed as the assembler wrote it
        sys.stderr.write(str(e).rstrip("\n") + "\n")
        return 1
    if args.verbose:
        where = result.cache_dir or "not cached"
        if result.cache_hit:
            sys.stderr.write(f"tt-compile: cache hit: {where}\n")
        else:
            stages = " ".join(f"{name} {seconds:.3f}s" for name, seconds in result.times.items())
            sys.stderr.write(f"tt-compile: compiled ({stages}); cache: {where}\n")
    write_output(args.output, result.stage(args.stage))
    if args.output not in (None, "-") and args.stage in ("llir", "ptx", "cubin"):
        result.metadata.write_sidecar(args.output)
    return 0


def entry() -> None:
    end(run("tt-compile", main))


if __name__ == "__main__":
    entry()
