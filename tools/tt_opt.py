"""tt-opt: run passes and pipelines over TTIR/TTGIR text, with mlir-opt's and triton-opt's flags.

    tt-opt [FILE|-] [-o OUT] [-PASS[='opt=v ...']]... [--pass-pipeline='builtin.module(a,b{k=v})']

Flags follow LLVM's cl::opt conventions (one or two dashes, `=` or a following argument for values, a pass's
options as `-pass=opts` or `-pass{opts}`), so the command line is parsed here rather than by argparse (the other
commands' `ttc.driver.cli.ArgumentParser`): argparse would need every pass declared as an option before parsing
(the pass registry imported even for `--version`), reads an unknown `-oxyz` as `-o xyz`, and has no `{opts}` form.
Environment: MLIR_ENABLE_DUMP=1|<kernel>, MLIR_DUMP_PATH=<file>, MLIR_ENABLE_TIMING=1, MLIR_ENABLE_DIAGNOSTICS;
TRITON_KERNEL_DUMP/TRITON_DUMP_DIR and TRITON_KERNEL_OVERRIDE/TRITON_OVERRIDE_DIR for the stages `-make-ttir` and
`-make-ttgir` produce (`ttc.driver.stages`); TRITON_REPRODUCER_PATH for the reproducer a failing pass leaves
(`ttc.opt.reproducer`, replayed by `--run-reproducer FILE`).
"""

from __future__ import annotations

import os
import sys
import time

from ttc.driver.cli import UsageError, end, read_input, run, write_output

VERSION = "tt-opt (ttc) 0.1.0, Triton 3.6 IR syntax"

FLAGS = {  # flag -> (takes a value, help)
    "o": (True, "Output file (default: stdout); written only on success"),
    "pass-pipeline": (True, "A textual pipeline, e.g. 'builtin.module(canonicalize,cse)'"),
    "p": (True, "Alias for --pass-pipeline"),
    "allow-unregistered-dialect": (False, "Read ops of unknown dialects (generic form), as mlir-opt does"),
    "split-input-file": (False, "Split the input at '// -----' lines and process each chunk alone"),
    "verify-diagnostics": (None, "Check diagnostics against 'expected-error {{...}}' comments; =only-expected "
                           "ignores diagnostics no comment expects (=all, the default, reports them)"),
    "dump-pass-pipeline": (False, "Print the pipeline that will run (stderr), as mlir-opt does"),
    "mlir-print-op-generic": (False, "Print every op in the generic form"),
    "mlir-print-debuginfo": (False, "Print locations (as #loc aliases, like Triton's dumps)"),
    "mlir-use-nameloc-as-prefix": (False, "Name SSA values after their NameLoc (%offs rather than %3)"),
    "mlir-print-ir-before-all": (False, "Print the IR before every pass (stderr)"),
    "mlir-print-ir-after-all": (False, "Print the IR after every pass (stderr)"),
    "mlir-print-ir-after-change": (False, "With --mlir-print-ir-after*: only when the pass changed the IR"),
    "mlir-print-ir-before": (True, "Print the IR before the named passes (comma-separated)"),
    "mlir-print-ir-after": (True, "Print the IR after the named passes (comma-separated)"),
    "mlir-print-ir-module-scope": (False, "Name the operation in IR dump headers (as Triton's dumps do)"),
    "mlir-disable-threading": (False, "Run single-threaded (tt-opt always does; accepted for mlir-opt scripts)"),
    "mlir-timing": (False, "Print a per-pass timing report (stderr)"),
    "run-reproducer": (True, "Replay a reproducer file: its IR through the pipeline it names"),
    "print-source-map": (False, "Print the IR grouped by the Python source line each op came from"),
    "list-passes": (False, "List the passes with their summaries and options"),
    "version": (False, "Print the version"),
    "help": (False, "Print this help"),
    "h": (False, "Alias for --help"),
}


class Options:
    def __init__(self):
        self.input: str | None = None
        self.output: str | None = None
        self.passes: list = []
        self.flags: dict = {}


def parse_args(argv: list[str]) -> Options:
    """The command line; the pass manager (and with it xDSL) is imported only once a pass is named, so that
    `--version` and `--help` start as fast as Python does."""
    opts = Options()
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            if opts.input is not None:
                raise UsageError(f"too many positional arguments: '{opts.input}' and '{arg}'")
            opts.input = arg
            continue
        name, eq, value = arg.lstrip("-").partition("=")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if name in FLAGS:
            takes_value, _ = FLAGS[name]
            if takes_value is None:  # an optional value: `-flag` or `-flag=value`
                opts.flags[name] = value if eq else True
                continue
            if takes_value and not eq:
                if i >= len(argv):
                    raise UsageError(f"option '{arg}' requires a value")
                value = argv[i]
                i += 1
            elif not takes_value and eq:
                raise UsageError(f"option '-{name}' takes no value")
            if name == "o":
                opts.output = value
            elif name in ("pass-pipeline", "p"):
                from ttc.opt.passmanager import PassError, parse_pipeline

                try:
                    opts.passes += parse_pipeline(value)
                except PassError as e:
                    raise UsageError(str(e)) from None
            else:
                opts.flags[name] = value if takes_value else True
            continue
        from ttc.opt.passmanager import PassError, make_pass

        try:
            opts.passes.append(make_pass(name, value))
        except PassError as e:
            msg = str(e)
            if "does not refer to a registered pass" in msg:
                msg = f"unknown command line argument '{arg}'; try 'tt-opt --help' or 'tt-opt --list-passes'"
            raise UsageError(msg) from None
    return opts


def _help() -> str:
    lines = ["USAGE: tt-opt [options] [input file]", "", "OPTIONS:"]
    for name, (takes, text) in FLAGS.items():
        flag = ("-" if len(name) == 1 else "--") + name + ("=<value>" if takes else "[=<value>]" if takes is None else "")
        lines.append(f"  {flag:34} {text}")
    lines += ["", "PASSES (each also a flag, e.g. -cse; see --list-passes):"]
    from ttc.passes import all_passes

    for p in all_passes():
        lines.append(f"  -{p.name:33} {p.summary}")
    lines += [
        "",
        "ENVIRONMENT:",
        "  MLIR_ENABLE_DUMP=1|<kernel>  dump the IR before every pass (only modules holding tt.func @<kernel>)",
        "  MLIR_DUMP_PATH=<file>        write those dumps to <file> instead of stderr",
        "  MLIR_ENABLE_TIMING=1         per-pass timing report on stderr",
        "  MLIR_ENABLE_DIAGNOSTICS=warnings|remarks[,operations,stacktraces]  show warnings/remarks (errors always)",
        "  TRITON_KERNEL_DUMP=1         write the stages -make-ttir/-make-ttgir produce to",
        "                               $TRITON_DUMP_DIR/<hash>/<kernel>.ttir|.ttgir (default ~/.triton/dump)",
        "  TRITON_KERNEL_OVERRIDE=1     use $TRITON_OVERRIDE_DIR/<hash>/<kernel>.ttir|.ttgir instead of producing",
        "                               that stage, when the file exists (default ~/.triton/override)",
        "  TRITON_REPRODUCER_PATH=<file>  where a failing pass leaves its reproducer (else a temporary file)",
    ]
    return "\n".join(lines) + "\n"


def _list_passes() -> str:
    from ttc.passes import all_passes

    out = []
    for p in all_passes():
        out.append(f"  {p.name}: {p.summary}")
        for name, typ, default, help_text in p.options():
            d = str(default).lower() if isinstance(default, bool) else default
            out.append(f"    --{name}=<{typ.__name__}> (default: {d}) {help_text}".rstrip())
    return "Available passes:\n" + "\n".join(out) + "\n"


def split_chunks(text: str) -> list[tuple[int, str]]:
    """(first line index, chunk) for each `// -----`-separated chunk; chunks keep their line numbers."""
    chunks, start, cur = [], 0, []
    for i, line in enumerate(text.split("\n")):
        if line.strip().startswith("// -----"):
            chunks.append((start, "\n".join(cur)))
            start, cur = i + 1, []
        else:
            cur.append(line)
    chunks.append((start, "\n".join(cur)))
    return chunks


def main(argv: list[str]) -> int:
    opts = parse_args(argv)
    f = opts.flags
    if f.get("help") or f.get("h"):
        sys.stdout.write(_help())
        return 0
    if f.get("version"):
        sys.stdout.write(VERSION + "\n")
        return 0
    if f.get("list-passes"):
        sys.stdout.write(_list_passes())
        return 0

    import contextlib

    from ttc.driver import stages
    from ttc.ir.diagnostics import CompileError, Diagnostic, Source, collect
    from ttc.ir.printer import print_ir
    from ttc.ir.parser import parse
    from ttc.ir.dialects import context
    from ttc.opt.passmanager import PassManager, dump_enabled, instrumentation

    t0 = time.perf_counter()
    replay = f.get("run-reproducer")
    if replay and (opts.input is not None or opts.passes):
        raise UsageError("--run-reproducer takes the input and the pipeline from the reproducer file; give neither")
    name, text = read_input(replay or opts.input)
    instr = instrumentation(f)
    dump_file = None
    if dump_enabled() and os.environ.get("MLIR_DUMP_PATH"):
        try:  # each run starts the dump file afresh, as Triton does
            dump_file = open(os.environ["MLIR_DUMP_PATH"], "w", encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot open MLIR_DUMP_PATH '{os.environ['MLIR_DUMP_PATH']}': {e.strerror}") from None
        instr.stream = dump_file
    timing_flag = bool(f.get("mlir-timing"))
    timing = timing_flag or os.environ.get("MLIR_ENABLE_TIMING", "").lower() in ("1", "true", "on")

    chunks = split_chunks(text) if f.get("split-input-file") else [(0, text)]
    outputs, failures = [], []
    verify = f.get("verify-diagnostics")
    if verify not in (None, True, "all", "only-expected"):
        raise UsageError(f"invalid value '{verify}' for --verify-diagnostics: expected 'all' or 'only-expected'")
    only_expected = verify == "only-expected"
    verify = bool(verify)
    unregistered = bool(f.get("allow-unregistered-dialect"))
    parse_time = output_time = 0.0
    managers = []
    try:
        for index, (start, chunk) in enumerate(chunks):
            padded = "\n" * start + chunk
            source = Source.of(name, padded)
            produced = []
            pm = None
            with collect() if verify else contextlib.nullcontext([]) as emitted:
                try:
                    tp = time.perf_counter()
                    resources = {}
                    module = parse(padded, name, source=source, resources=resources, allow_unregistered=unregistered)
                    parse_time += time.perf_counter() - tp
                    passes = _reproducer_passes(replay, resources) if replay else opts.passes
                    if f.get("dump-pass-pipeline") and index == 0:
                        from ttc.opt.passmanager import pipeline_text

                        sys.stderr.write(f"Pass Manager with {len(passes)} passes:\n{pipeline_text(passes)}\n\n")
                    stage_hash = ""
                    if stages.active():
                        from ttc.lowering.metadata import source_hash

                        stage_hash = source_hash(padded)
                    pm = PassManager(passes, instr, source, stage_hash, input_verified=True)
                    managers.append(pm)
                    module = pm.run(module, context())
                    tp = time.perf_counter()
                    if f.get("print-source-map"):
                        from ttc.opt.source_map import render_source_map

                        outputs.append(render_source_map(module, pm.source))
                    else:
                        outputs.append(
                            print_ir(
                                module,
                                debuginfo=bool(f.get("mlir-print-debuginfo")),
                                generic=bool(f.get("mlir-print-op-generic")),
                                name_locs=bool(f.get("mlir-use-nameloc-as-prefix")),
                            )
                            + "\n"
                        )
                    output_time += time.perf_counter() - tp
                except CompileError as e:
                    from ttc.opt import reproducer

                    produced = e.diags
                    outputs.append("")  # a failed chunk prints nothing, as in mlir-opt
                    if not verify:
                        if pm is not None and pm.current is not None and not replay:
                            e.diags.append(reproducer.save(name, padded, pm, index, unregistered))
                        failures.append(e)
                except Exception as e:  # an internal error inside a pass: still a reproducer
                    if pm is None or pm.current is None or verify:
                        raise
                    from ttc.opt import reproducer

                    notes = [] if replay else [reproducer.save(name, padded, pm, index, unregistered)]
                    if os.environ.get("TTC_DEBUG") == "1":
                        sys.stderr.write("".join(n.render() + "\n" for n in notes))
                        raise
                    outputs.append("")
                    msg = f"internal error in pass '{pm.current.name}': {type(e).__name__}: {e} (set TTC_DEBUG=1 for a traceback)"
                    failures.append(CompileError(Diagnostic(name, 0, 0, msg), *notes))
            produced = emitted + produced
            if verify:
                from ttc.opt.expected_diagnostics import check, expectations

                problems = check(name, expectations(chunk, start), produced)
                if only_expected:  # MLIR's only-expected mode: diagnostics no comment names are let through
                    problems = [p for p in problems if not p.message.startswith("unexpected ")]
                if problems:
                    failures.append(CompileError(*problems))
    finally:
        if dump_file is not None:
            dump_file.close()
    result = "// -----\n".join(outputs)
    if failures:
        if opts.output in (None, "-"):
            write_output(None, result)  # the chunks that worked, as mlir-opt prints them
        _timing(timing, timing_flag, managers, t0, parse_time, output_time)
        raise CompileError(*[d for e in failures for d in e.diags])
    write_output(opts.output, result)
    _timing(timing, timing_flag, managers, t0, parse_time, output_time)
    return 0


def _reproducer_passes(path: str, resources: dict) -> list:
    from ttc.opt.passmanager import PassError, parse_pipeline
    from ttc.opt.reproducer import pipeline_of

    try:
        return parse_pipeline(pipeline_of(path, resources))
    except PassError as e:
        raise UsageError(f"'{path}': {e}") from None


def _timing(enabled, with_io, managers, t0, parse_time, output_time):
    """MLIR's timing report; --mlir-timing (mlir-opt) also times Parser and Output, MLIR_ENABLE_TIMING
    (Triton's pass manager) only the passes."""
    from ttc.opt.passmanager import PassManager

    if not enabled:
        return
    total = time.perf_counter() - t0
    merged = PassManager([])
    for pm in managers:
        merged.times += pm.times
    extra = [("Parser", parse_time), ("Output", output_time)] if with_io else None
    sys.stderr.write(merged.timing_report(total, extra))


def entry() -> None:
    end(run("tt-opt", main))


if __name__ == "__main__":
    entry()
