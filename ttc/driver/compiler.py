"""Every stage of a kernel in one process (`ttc.compile`, `tt-compile`), through the stage functions that the
separate commands use (the back end's in `ttc.driver.stages`, so that tt-translate and tt-as import
neither this module nor the cache), with Triton's kernel cache (`ttc.driver.cache`).

The stages and the commands that run them alone:

    frontend   Python -> TTIR             tt-frontend
    make-ttir, make-ttgir                 tt-opt (its pass manager, with the environment's dumps and timing)
    llir       TTGIR -> LLVM IR           tt-translate --target=llvmir
    ptx        LLVM IR -> PTX             tt-translate --target=ptx
    cubin      PTX -> CUBIN               tt-as

Modules pass from stage to stage in memory. A stage's text is what `TRITON_KERNEL_DUMP` writes for it (TTIR and
TTGIR with their locations, SSA values named after them, as Triton prints its dumps), which is also what the pipe
of separate commands gives with `--mlir-print-debuginfo --mlir-use-nameloc-as-prefix` on each `tt-opt`; LLVM IR,
PTX, CUBIN and the `.json` metadata are the commands' own outputs. The environment works as for the commands:
MLIR_ENABLE_DUMP / MLIR_DUMP_PATH / MLIR_ENABLE_TIMING / MLIR_ENABLE_DIAGNOSTICS for the passes,
LLVM_IR_ENABLE_DUMP, NVPTX_ENABLE_DUMP, TRITON_KERNEL_DUMP / TRITON_KERNEL_OVERRIDE for the stages,
TRITON_REPRODUCER_PATH for a failing pass's reproducer; TRITON_CACHE_DIR and TRITON_ALWAYS_COMPILE for the cache.
"""

from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import asdict, dataclass, field, replace

from ttc.driver import cache
from ttc.driver import stages
from ttc.driver.stages import cubin, llir, ptx, ptx_arch  # the back-end stages, shared with the commands
from ttc.driver.cli import UsageError, env_on

STAGES = ("ttir", "ttgir", "llir", "ptx", "cubin")  # what `stage=` may name, in order
# Variables under which a compile must run its passes, even when the cache holds the kernel: they ask for output
# that only running the stages gives (IR before each pass, timings, diagnostics, LLVM and PTX dumps).
RUN_STAGES_ENV = ("MLIR_ENABLE_DUMP", "MLIR_ENABLE_TIMING", "MLIR_ENABLE_DIAGNOSTICS", "LLVM_IR_ENABLE_DUMP",
                  "NVPTX_ENABLE_DUMP")


@dataclass(frozen=True)
class Options:
    """What changes a compile besides the source, the kernel and its signature (each one is in the cache key)."""

    target: str = "cuda:90"
    num_warps: int = 4
    num_stages: int = 3
    num_ctas: int = 1
    debug: bool = False  # the frontend's tt.assert for device_assert and overflow checks
    sanitize_overflow: bool = True
    module_name: str | None = None  # prefix of helper function names (default: the file's stem)
    ptx_version: int | None = None
    maxrregcount: int | None = None
    opt_level: int | None = None  # the assembler's
    lineinfo: bool = False
    ptxas: str | None = None  # assemble with this ptxas (default: target.default_ptxas(), else nvJitLink)
    launch_pdl: bool = False  # recorded in the metadata: tt-run launches with programmatic dependent launch

    def arch(self) -> int:
        """The compute capability the target names (`cuda:90` -> 90)."""
        m = re.fullmatch(r"cuda:(\d+)[af]?", self.target)
        if not m:
            raise UsageError(f"invalid target '{self.target}' (expected cuda:<capability>, e.g. cuda:90)")
        return int(m.group(1))


@dataclass
class Compiled:
    """A compiled kernel: each stage's text (TTIR and TTGIR as dumps print them), the CUBIN and its metadata.
    Stages after the one asked for are None. `cache_dir` is the cache entry it came from or went to."""

    name: str
    ttir: str | None = None
    ttgir: str | None = None
    llir: str | None = None
    ptx: str | None = None
    cubin: bytes | None = None
    metadata: object = None  # ttc.lowering.metadata.KernelMetadata, once the kernel is lowered
    cache_hit: bool = False
    cache_dir: str | None = None
    overridden: bool = False  # a TRITON_KERNEL_OVERRIDE file stood in for a stage (such results are not cached)
    times: dict = field(default_factory=dict)  # seconds per stage (empty on a cache hit)

    def stage(self, name: str):
        return getattr(self, name)


# ---------------------------------------------------------------- the stages, shared with the commands


def frontend(text: str, path: str, kernel: str, signature: str, *, module_name: str | None = None,
             debug: bool = False, sanitize_overflow: bool = True, arch: int = 90):
    """The TTIR module of `kernel` in the Python source `text` (tt-frontend), verified."""
    from ttc.frontend import Options as FrontendOptions
    from ttc.frontend import compile_source
    from ttc.ir.verifier import verify_module

    options = FrontendOptions(debug=debug, sanitize_overflow=sanitize_overflow, arch=arch)
    module = compile_source(text, path, kernel, signature, module_name, options)
    verify_module(module)
    return module


# ---------------------------------------------------------------- one process, with the cache


def dump_text(module) -> str:
    """A TTIR/TTGIR stage as TRITON_KERNEL_DUMP and the cache hold it."""
    from ttc.ir.printer import print_ir

    return print_ir(module, debuginfo=True, name_locs=True) + "\n"


def compile(path: str, kernel: str, signature: str, options: Options | None = None, *, stage: str = "cubin",
            text: str | None = None, use_cache: bool = True, tool: str = "ttc.compile") -> Compiled:
    """Compile `kernel` of the Python file `path` (or of `text`, named `path`) for `signature` (tt-frontend's
    syntax, `"*fp32:16,i32,1024"`) through every stage up to `stage`, or take it from the cache (`use_cache`;
    only complete compiles, `stage="cubin"`, are stored).

    Raises `ttc.ir.diagnostics.CompileError` for bad input (its `render()` is the `file:line:col: error:` text)."""
    options = options or Options()
    if stage not in STAGES:
        raise UsageError(f"unknown stage '{stage}' (expected one of {', '.join(STAGES)})")
    arch = options.arch()
    if options.ptxas is None:
        from ttc.lowering.target import default_ptxas

        options = replace(options, ptxas=default_ptxas())
    if text is None:
        from ttc.driver.cli import read_input

        path, text = read_input(path)
    key = cache.key(source=text, path=path, kernel=kernel, signature=",".join(e.strip() for e in signature.split(",")),
                    options=asdict(options), ptxas=cache.file_identity(options.ptxas))
    if use_cache and not cache.always_compile() and not any(env_on(v) for v in RUN_STAGES_ENV):
        hit = _from_cache(key, kernel, stage)
        if hit is not None:
            return hit
    from ttc.opt.passmanager import dump_enabled, instrumentation

    instr = instrumentation({})
    dump_path = os.environ.get("MLIR_DUMP_PATH") if dump_enabled() else None
    if dump_path:
        try:  # each compile starts the dump file afresh, as Triton does
            instr.stream = open(dump_path, "w", encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot open MLIR_DUMP_PATH '{dump_path}': {e.strerror}") from None
    # make-ttir's module is not verified (make-ttgir's is) where nothing prints or dumps the stages between; when
    # make-ttir or make-ttgir fails then, the compile runs again verifying each stage, so that the failure is
    # reported as that compile reports it (the stages are deterministic). The frontend's module is always
    # verified, as Triton verifies make_ir's: what the user wrote is checked where it was written.
    once = not (dump_path or instr.before or instr.after or stages.active() or env_on("MLIR_ENABLE_TIMING"))
    try:
        try:
            result = _compile(text, path, kernel, signature, options, arch, stage, tool, instr, verify_all=not once)
        except _Unverified:
            result = _compile(text, path, kernel, signature, options, arch, stage, tool, instr, verify_all=True)
    finally:
        if dump_path:
            instr.stream.close()
    if use_cache and stage == "cubin" and not result.overridden:
        files = {"ttir": result.ttir, "ttgir": result.ttgir, "llir": result.llir, "ptx": result.ptx,
                 "cubin": result.cubin, "json": result.metadata.file_text()}
        result.cache_dir = cache.store(key, kernel, files)
    return result


def preload(target: str = "cuda:90") -> None:
    """Import and set up what a cold compile for `target` needs before its first stage runs: the frontend, every
    pass of make-ttir and make-ttgir, the lowering, LLVM's NVPTX target and the default ptxas (its version is
    asked once per process). For processes started ahead of their first compile (tt-tune's compile pool, started
    while tt-tune reads the kernel): that compile then pays none of it."""
    from ttc.frontend import compile_source  # noqa: F401
    from ttc.ir.printer import print_ir  # noqa: F401
    from ttc.ir import layout_checks  # noqa: F401 (the verifier imports it on a TTGIR's first layout)
    from ttc.ir.verifier import verify_module  # noqa: F401
    from ttc.lowering import cubin, pipeline, target as targets, translate  # noqa: F401
    from ttc.opt import reproducer  # noqa: F401
    from ttc.opt.passmanager import make_pass
    from ttc.passes.make_ttir import PIPELINE

    for name in PIPELINE:
        make_pass(name)
    make_pass("make-ttgir", f"target={target}").passes()
    targets.llvm()
    targets.default_ptxas()


def _from_cache(key: str, kernel: str, stage: str) -> Compiled | None:
    """The cached kernel, dumped where TRITON_KERNEL_DUMP asks; None on a miss, or where an override file of the
    kernel's exists (the override must win)."""
    from ttc.lowering.metadata import KernelMetadata

    files = cache.lookup(key, kernel)
    if files is None:
        return None
    try:
        meta = KernelMetadata._parse(files["json"], cache.read(files["json"]).decode("utf-8"))
    except (OSError, UsageError, UnicodeDecodeError):
        return None  # a damaged entry is a miss, and the compile replaces it
    k = stages.Kernel(meta.name, meta.hash)
    if stages.override_dir() is not None and any(
            os.path.exists(os.path.join(stages.override_dir(), k.file(ext))) for ext in STAGES):
        return None
    result = Compiled(kernel, metadata=meta, cache_hit=True, cache_dir=os.path.dirname(files["json"]))
    wanted = STAGES if stages.dump_dir() is not None else STAGES[: STAGES.index(stage) + 1]
    try:
        for ext in wanted:
            data = cache.read(files[ext])
            setattr(result, ext, data if ext == "cubin" else data.decode("utf-8"))
    except (OSError, UnicodeDecodeError):
        return None
    if stages.dump_dir() is not None:
        for ext in STAGES:
            stages.dump(k, ext, result.stage(ext))
        stages.dump(k, "json", meta.file_text())
        for ext in STAGES[STAGES.index(stage) + 1:]:
            setattr(result, ext, None)
    return result


class _Unverified(Exception):
    """make-ttir or make-ttgir failed in a compile that had not verified make-ttir's module."""


def _compile(text, path, kernel, signature, options: Options, arch: int, stage: str, tool: str, instr,
             verify_all: bool = True) -> Compiled:
    """The stages up to `stage`. With `verify_all` off, make-ttir's module (unless it is the stage asked for) is
    not verified, and a failure of make-ttir or make-ttgir is raised as _Unverified, with no reproducer written
    (`compile` then runs again with `verify_all`)."""
    from ttc.ir.diagnostics import Source
    from ttc.lowering import pipeline, target
    from ttc.lowering.cubin import AsmOptions
    from ttc.ir.kernel_module import HASH_ATTRIBUTE
    from ttc.opt.passmanager import make_pass

    result = Compiled(kernel)
    times = result.times

    def timed(name, fn):
        t0 = time.perf_counter()
        value = fn()
        times[name] = time.perf_counter() - t0
        return value

    module = timed("frontend", lambda: frontend(text, path, kernel, signature, module_name=options.module_name,
                                                 debug=options.debug, sanitize_overflow=options.sanitize_overflow,
                                                 arch=arch))
    source = Source.of(path, text)
    pipelines = [("ttir", [make_pass("make-ttir", f"target={options.target}")]),
                 ("ttgir", [make_pass("make-ttgir", f"target={options.target} num-warps={options.num_warps} "
                                                    f"num-ctas={options.num_ctas} num-stages={options.num_stages}")])]
    stage_hash = "-" if stages.active() else ""  # the module carries its source hash: this is never used
    for ext, passes in pipelines:
        try:
            module, pm = timed(f"make-{ext}", lambda: _passes(module, passes, source, tool, stage_hash, instr, text,
                                                               path, kernel, signature, options, arch,
                                                               verify_all or ext in ("ttgir", stage), verify_all))
        except Exception as e:
            if verify_all:
                raise
            raise _Unverified() from e
        result.overridden |= pm.overridden
        source = pm.source
        setattr(result, ext, dump_text(module))
        if stage == ext:
            return result
    try:
        cpu = pipeline.kernel_cpu(module, arch, source)
        ttgir = pipeline.TTGIR(module, source, cpu, pipeline.ptx_version(module, cpu, options.ptx_version, options.ptxas),
                               module.attributes[HASH_ATTRIBUTE].data)
    except target.TargetError as e:
        raise UsageError(str(e)) from None
    overrides = stages.override_dir() is not None
    llir_options = pipeline.Options(ptx_version=options.ptx_version)
    mod, meta, tm, result.llir = timed("llir", lambda: llir(ttgir, tool, llir_options))
    meta.launch_pdl = options.launch_pdl
    if stage == "llir":
        result.metadata = meta
        return result
    result.ptx = timed("ptx", lambda: ptx(mod, meta, tm, tool, result.llir))
    if stage == "ptx":
        result.metadata = meta
        return result
    arch_name = ptx_arch(result.ptx) or cpu
    meta.target = f"cuda:{arch_name[3:]}"  # as tt-as records the PTX's own target
    asm = AsmOptions(arch=arch_name, opt_level=options.opt_level, maxrregcount=options.maxrregcount,
                     lineinfo=options.lineinfo)
    result.cubin = timed("cubin", lambda: cubin(result.ptx, f"{kernel}.ptx", meta, asm, tool, options.ptxas))
    result.metadata = meta
    if overrides:
        k = stages.Kernel(meta.name, meta.hash)
        result.overridden |= any(os.path.exists(os.path.join(stages.override_dir(), k.file(e))) for e in STAGES)
    return result


def _passes(module, passes, source, tool, stage_hash, instr, text, path, kernel, signature, options, arch,
            verify: bool = True, reproduce: bool = True):
    """Run a pipeline as tt-opt does, with its reproducer when a pass fails: the pipeline's input is made again
    (the stages are deterministic) and saved with the pipeline. `verify` off: the result is not verified;
    `reproduce` off: a failure is raised as it is (`compile` compiles again with both on)."""
    from ttc.opt import reproducer
    from ttc.ir.diagnostics import CompileError, Diagnostic
    from ttc.ir.dialects import context
    from ttc.opt.passmanager import PassManager

    pm = PassManager(passes, instr, source, stage_hash, tool, verify=verify)
    t0 = time.perf_counter()
    try:
        module = pm.run(module, context())
        if env_on("MLIR_ENABLE_TIMING"):  # a report per pipeline, as Triton prints one per pass manager
            sys.stderr.write(pm.timing_report(time.perf_counter() - t0))
        return module, pm
    except CompileError as e:
        if pm.current is None or not reproduce:
            raise
        e.diags.append(reproducer.save(path, _input_of(passes, text, path, kernel, signature, options, arch), pm))
        raise
    except Exception as e:
        if pm.current is None or not reproduce:
            raise
        note = reproducer.save(path, _input_of(passes, text, path, kernel, signature, options, arch), pm)
        if os.environ.get("TTC_DEBUG") == "1":
            sys.stderr.write(note.render() + "\n")
            raise
        msg = f"internal error in pass '{pm.current.name}': {type(e).__name__}: {e} (set TTC_DEBUG=1 for a traceback)"
        raise CompileError(Diagnostic(path, 0, 0, msg), note) from None


def _input_of(passes, text, path, kernel, signature, options, arch) -> str:
    """The module that `passes` ran on, made again, printed with its locations (for a reproducer)."""
    from ttc.ir.printer import print_ir
    from ttc.ir.dialects import context
    from ttc.opt.passmanager import Instrumentation, PassManager, make_pass

    module = frontend(text, path, kernel, signature, module_name=options.module_name, debug=options.debug,
                      sanitize_overflow=options.sanitize_overflow, arch=arch)
    if passes[0].name != "make-ttir":
        PassManager([make_pass("make-ttir")], Instrumentation()).run(module, context())
    return print_ir(module, debuginfo=True)
