"""The import budget of each command: what a fresh process imports for a given input (issue 23).

Each case runs a command in a fresh Python process (as its console script would), records `sys.modules` at exit
and fails when a module it has no use for was imported: `tt-opt --version` imports nothing but its own module,
TTIR never loads the ttg/llvm/math dialects or the back end, nothing but the commands that launch or assemble
imports numpy, llvmlite or cuda. Start-up time follows the import set (bench/startup.py measures it).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "test" / "fixtures" / "triton"

# Runs the module named by argv[2] as `python -m` would, then writes the imported modules' names to argv[1].
PROBE = """import atexit, runpy, sys
out, module = sys.argv[1], sys.argv[2]
atexit.register(lambda: open(out, "w").write("\\n".join(sorted(sys.modules))))
sys.argv = [module] + sys.argv[3:]
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""

THIRD_PARTY = ("numpy", "llvmlite", "cuda", "jsonschema")
BACK_END = ("ttc.lowering.translate", "ttc.lowering.target", "ttc.runtime", "ttc.frontend")


def imported(tmp_path, module: str, *argv) -> set[str]:
    out = tmp_path / "modules.txt"
    proc = subprocess.run([sys.executable, "-c", PROBE, str(out), module, *map(str, argv)], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return set(out.read_text().split())


def offending(modules: set[str], forbidden) -> list[str]:
    return sorted(m for m in modules if any(m == f or m.startswith(f + ".") for f in forbidden))


def test_tt_opt_version_imports_only_itself(tmp_path):
    modules = imported(tmp_path, "ttc.tools.tt_opt", "--version")
    assert {m for m in modules if m.startswith(("ttc", "xdsl"))} == {"ttc", "ttc.driver", "ttc.driver.cli", "ttc.tools"}
    assert not offending(modules, THIRD_PARTY)
    assert "dataclasses" not in modules  # a sign of a heavier import creeping in
    assert "argparse" not in modules  # ttc.driver.cli imports it for the other commands' ArgumentParser only


LAYOUT_MODULES = ("ttc.ir.layouts", "ttc.ir.layout_utils", "ttc.ir.reshape_layout")  # verifiers: for a layout only


def test_tt_opt_ttir_loads_only_its_dialects(tmp_path):
    modules = imported(tmp_path, "ttc.tools.tt_opt", FIXTURES / "matmul.ttir", "-canonicalize", "-cse",
                       "-o", tmp_path / "out.ttir")
    assert not offending(modules, THIRD_PARTY + BACK_END + (
        "ttc.ir.ttg", "ttc.ir.llvm", "ttc.ir.gpu", "ttc.ir.nvws", "xdsl.dialects.llvm", "xdsl.dialects.math",
        "ttc.passes.remove_layout_conversions", "ttc.passes.make_ttgir", "ttc.opt.reproducer", "ttc.lowering.metadata",
        "ttc.opt.expected_diagnostics", "ttc.analysis",
        "xdsl.irdl.declarative_assembly_format_parser",  # xDSL's op formats are parsed on use (ttc._lazy_xdsl_formats)
        "importlib.abc",  # xDSL's IRDL finder's module, run only for .irdl files (ttc._IRDLFinder)
        "fractions", "sysconfig", "ttc.ir.memdesc", "ctypes") + LAYOUT_MODULES)  # imported where they are used
    assert "tempfile" not in modules  # `-o`'s temporary file is made without it (ttc.driver.cli._temporary)
    assert {"ttc.ir.tt", "ttc.ir.std", "ttc.passes.canonicalize", "ttc.passes.cse"} <= modules


def test_tt_opt_make_ttir_loads_no_ttgir(tmp_path):
    """-make-ttir (the pipe's second command) reads its target's capability without make_ttgir's module, which
    brings the TTGIR dialect and its layouts."""
    modules = imported(tmp_path, "ttc.tools.tt_opt", FIXTURES / "matmul.ttir", "-make-ttir", "-o", tmp_path / "o")
    assert not offending(modules, THIRD_PARTY + BACK_END + ("ttc.ir.ttg", "ttc.passes.make_ttgir",
                                                            "ttc.passes.convert_triton_to_tritongpu") + LAYOUT_MODULES)
    assert "ttc.passes.make_ttir" in modules


@pytest.mark.parametrize("kernel", ["softmax", "attention"])  # tt.reduce's and tt.trans's verifiers
def test_tt_opt_ttir_verifies_without_layout_modules(tmp_path, kernel):
    modules = imported(tmp_path, "ttc.tools.tt_opt", FIXTURES / f"{kernel}.ttir", "-canonicalize", "-cse",
                       "-o", tmp_path / "out.ttir")
    assert not offending(modules, LAYOUT_MODULES)


def test_tt_opt_ttgir_with_math(tmp_path):
    modules = imported(tmp_path, "ttc.tools.tt_opt", FIXTURES / "attention.ttgir", "-cse", "-o", tmp_path / "o")
    assert {"ttc.ir.ttg", "xdsl.dialects.math"} <= modules  # loaded because the file uses them
    assert not offending(modules, THIRD_PARTY + BACK_END + ("xdsl.dialects.llvm",))


def test_tt_frontend_builds_without_passes_or_back_end(tmp_path):
    modules = imported(tmp_path, "ttc.tools.tt_frontend", ROOT / "kernels" / "vector_add.py", "--kernel",
                       "add_kernel", "--signature", "*fp32:16,*fp32:16,*fp32:16,i32,1024", "-o", tmp_path / "a.ttir")
    assert not offending(modules, ("numpy", "llvmlite", "cuda", "ttc.lowering.translate", "ttc.runtime",
                                   "ttc.opt.passmanager", "ttc.ir.ttg", "xdsl.dialects.llvm", "xdsl.dialects.math")
                         + PLAIN_COMMAND_LINE + NO_OPENSSL)


# A plain command line is read by ttc.driver.cli.ArgumentParser itself: no argparse (with gettext), nor the locale and
# shutil (with bz2, lzma) that its first message and first help formatter import.
PLAIN_COMMAND_LINE = ("argparse", "gettext", "locale", "shutil")
NO_OPENSSL = ("hashlib", "_hashlib")  # the source hashes' SHA-256 is Python's own (ttc._Sha256Hashlib)


@pytest.mark.parametrize("kernel", ["vector_add", "matmul"])  # matmul's layout exchanges: no numpy either
def test_tt_translate_llvmir(tmp_path, kernel):
    modules = imported(tmp_path, "ttc.tools.tt_translate", FIXTURES / f"{kernel}.ttgir", "--target=llvmir",
                       "-o", tmp_path / "a.ll")
    assert "llvmlite" in modules
    assert not offending(modules, ("numpy", "cuda", "ttc.frontend", "ttc.runtime", "xdsl.dialects.math",
                                   "importlib.metadata",  # nvJitLink's version: from its .dist-info folder's name
                                   "subprocess", "argparse", "gettext", "locale") + NO_OPENSSL)  # ptxas --version: known


LLVMLITE_UNUSED = ("importlib.resources", "zipfile", "platform")  # ttc._LlvmliteResources; MCJIT's platform check
DRIVER = ("ttc.driver.compiler", "ttc.driver.cache", "tempfile")  # the one-process compile and Triton's cache


def test_tt_translate_ptx(tmp_path):
    """--target=ptx (the pipe's fifth command): llvmlite without importlib.resources or platform, the back-end
    stages without the compile driver and its cache, dataclasses without inspect (ttc._LazyModule)."""
    llir = tmp_path / "a.llir"
    subprocess.run([sys.executable, "-m", "ttc.tools.tt_translate", FIXTURES / "vector_add.ttgir", "--target=llvmir",
                    "-o", llir], check=True)
    modules = imported(tmp_path, "ttc.tools.tt_translate", llir, "--target=ptx", "-o", tmp_path / "a.ptx")
    assert "llvmlite.binding" in modules
    assert not offending(modules, ("numpy", "cuda", "xdsl", "ttc.ir.tt", "inspect", "subprocess", "argparse", "gettext",
                                   "locale") + LLVMLITE_UNUSED + DRIVER + NO_OPENSSL)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="no ptxas (nvJitLink's path imports its package)")
def test_tt_as_imports_no_compile_driver(tmp_path):
    modules = imported(tmp_path, "ttc.tools.tt_as", ROOT / "test" / "fixtures" / "triton_ptx" / "vector_add.ptx",
                       "--ptxas", shutil.which("ptxas"), "-o", tmp_path / "a.cubin")
    assert "ttc.driver.stages" in modules
    assert not offending(modules, ("numpy", "cuda", "llvmlite", "xdsl", "ttc.ir.tt", "inspect", "argparse",
                                   "gettext") + DRIVER[:2] + NO_OPENSSL)


COMMAND_LINES = {  # tool -> command lines, plain ones and others (help, errors, abbreviations, `--`, '-' values)
    "tt_translate": [["c.ttgir", "--target=llvmir", "-o", "d.ll"], ["--target", "ptx", "x"], ["--target=ptx"],
                     ["-", "--target=ptx"], ["x", "--target=foo"], ["--targ=ptx", "x"], ["x", "y", "--target=ptx"],
                     ["--target=ptx", "--sm", "90", "--ptx-version=8.0", "-o", "a", "b"], ["--target=ptx", "-o"],
                     ["--target=ptx", "-o", "-x"], ["--target=ptx", "--", "x"], ["--target=ptx", "-oout"],
                     ["--target=ptx", "--output=o", "--output", "p"], ["", "--target=ptx"], ["-o=x", "--target=ptx"],
                     ["--target=ptx", "--sm=a=b"], ["--target=ptx", "-o", ""]],
    "tt_as": [["e.ptx", "-o", "f.cubin"], ["e.ptx", "--opt-level", "3", "--maxrregcount=64", "--lineinfo", "--sass"],
              ["--opt-level=9"], ["--opt-level=x"], ["--maxrregcount", "0"], [], ["--lineinfo=1"],
              ["--sass", "--ptxas", "/usr/bin/ptxas"], ["a", "--opt-level", "-1"]],
    "tt_frontend": [["k.py", "--kernel", "k", "--signature", "*fp32", "-o", "a.ttir"], ["k.py", "-k", "k", "-s", "i32"],
                    ["k.py", "-k", "k"], ["k.py", "-k", "k", "-s", "x", "--no-sanitize-overflow", "--debug", "--arch", "80"],
                    ["k.py", "-k", "k", "-s", "x", "--sanitize-overflow", "--arch=x"], ["-k", "k", "-s", "x"],
                    ["a", "b", "-k", "k", "-s", "x"], ["k.py", "-k", "k", "-s", "x", "--mlir-print-debuginfo",
                                                       "--module-name", "m", "--sanitize-overflow=1"]],
    "tt_compile": [["k.py", "-k", "k", "-s", "x", "--stage", "ptx", "--opt-level", "4", "--num-warps=8",
                    "--no-sanitize-overflow", "-v"], ["k.py", "-k", "k", "--stage", "bad"],
                   ["k.py", "-k", "k", "--opt-level", "5"], ["k.py", "--kernel=k"]],
    "tt_run": [["k.cubin", "--spec", "s.json", "--check", "--warmup", "0", "--rep=5"],
               ["k", "--spec", "s", "--warmup", "-1"], ["k"], ["k.ptx", "--spec", "s", "--bench", "--json", "--against", "o"]],
    "tt_tune": [["k.py", "-k", "k", "--spec", "s", "-j", "2", "--limit", "3", "--warmup", "1.5"],
                ["k.py", "-k", "k", "--spec", "s"], ["k.py", "--spec", "s"], ["k.py", "-k", "k", "--spec", "s", "-j", "x"]],
}


@pytest.mark.parametrize("tool", sorted(COMMAND_LINES))
def test_plain_command_lines_read_as_argparse_reads_them(tool):
    """ttc.driver.cli.ArgumentParser: a command line it reads itself gives what argparse's parser (built from the
    same arguments) gives; the others (help, errors, abbreviations, ...) are left to argparse."""
    import importlib

    from ttc.driver.cli import UsageError

    module, plain = importlib.import_module(f"ttc.tools.{tool}"), 0
    for argv in COMMAND_LINES[tool]:
        ours = module._parser()._plain(argv)
        try:
            theirs = vars(module._parser().argparse().parse_args(argv))
        except (UsageError, SystemExit):
            theirs = None
        if ours is not None:
            assert vars(ours) == theirs, argv
            plain += 1
    assert plain >= 2 and plain < len(COMMAND_LINES[tool])


def test_source_hashes_without_openssl_are_hashlibs():
    """ttc._Sha256Hashlib: the source hashes' `hashlib.sha256` (ttc.lowering.metadata, ttc.frontend.driver) gives
    hashlib's digests (whole and in parts) without importing hashlib; anything else asked of it is hashlib's."""
    code = """import sys, ttc
import ttc.lowering.metadata as m, ttc.frontend.driver as d
assert "hashlib" not in sys.modules and "_hashlib" not in sys.modules
texts = ["", "tt.func @k", "x" * 100000, "\u00e9\u4e2d"]
ours = [m.source_hash(t) for t in texts]
h = d.hashlib.sha256()
for t in texts:
    h.update(t.encode())
assert type(m.hashlib).__name__ == "_Sha256Hashlib" and "hashlib" not in sys.modules
import hashlib
assert ours == [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
assert h.hexdigest() == hashlib.sha256("".join(texts).encode()).hexdigest()
assert m.hashlib.md5(b"a").hexdigest() == hashlib.md5(b"a").hexdigest() and m.hashlib is hashlib
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout == "ok\n", proc.stderr


def test_llvmlite_finds_its_library_where_importlib_resources_does():
    """ttc._LlvmliteResources gives llvmlite.binding.ffi the path importlib.resources would (and the library
    loads from it)."""
    code = """import sys, ttc
import llvmlite.binding.ffi as ffi
assert "importlib.resources" not in sys.modules and type(ffi._impres).__name__ == "_LlvmliteResources"
with ffi._impres.as_file(ffi._impres.files("llvmlite.binding") / "libllvmlite.so") as ours:
    pass
import importlib.resources as real
with real.as_file(real.files("llvmlite.binding") / "libllvmlite.so") as theirs:
    pass
assert type(ours) is type(theirs) and ours == theirs and str(ours) == str(theirs), (ours, theirs)
assert ffi.lib.LLVMPY_GetVersionInfo() > 0
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout == "ok\n", proc.stderr


# Every op and parametrized attribute class of every dialect ttc loads: its class dict (names in order, kinds of
# values) and OpDef or ParamAttrDef (repr, addresses left out) after a first use, printed; argv[1] "eager" runs
# xDSL's decorators as they are (without ttc.ir.lazy_defs), "lazy" checks
# op_arg_names of the deferred ops against their OpDefs first.
OPDEF_PROBE = """import re, sys, ttc, ttc.ir.lazy_defs
if sys.argv[1] == "eager":
    for name in ("xdsl.irdl.operations", "xdsl.irdl.attributes"):
        ttc._HOOKS.remove(ttc._HOOKS.hooks[name])
from xdsl.dialects.builtin import Builtin
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import IRDLOperation
from ttc.ir.dialects import DIALECTS
dialects = [load() for load in DIALECTS.values()] + [Builtin]
ops = {op for d in dialects for op in d.operations if issubclass(op, IRDLOperation)}
attrs = {a for d in dialects for a in d.attributes if issubclass(a, ParametrizedAttribute)}
assert (sys.argv[1] == "lazy") == any(op in ttc.ir.lazy_defs._PENDING_OPS for op in ops)
names = {op: ttc.ir.lazy_defs.op_arg_names(op) for op in ops} if sys.argv[1] == "lazy" else {}
for op in sorted(ops, key=lambda c: (c.__module__, c.__qualname__, c.name)):
    d = op.get_irdl_definition()
    if names:
        assert names[op] == ([n for n, _ in d.operands], [n for n, _ in d.results]), op
    text = f"{op.__module__}.{op.__qualname__} {[(k, type(v).__name__) for k, v in vars(op).items()]} {d!r}"
    print(re.sub("0x[0-9a-f]+", "0x", text))
for attr in sorted(attrs, key=lambda c: (c.__module__, c.__qualname__, c.name)):
    text = f"{attr.__module__}.{attr.__qualname__} {[(k, type(v).__name__) for k, v in vars(attr).items()]} "
    print(re.sub("0x[0-9a-f]+", "0x", text + repr(attr.get_irdl_definition())))
"""


def test_op_and_attribute_definitions_built_on_use_are_the_eager_ones():
    """ttc.ir.lazy_defs: each op and attribute class, built at its first use, is
    what xDSL's decorator made of it at definition (~230 ops, ~50 attributes: the same dict, in the same order,
    and the same definition)."""
    out = {}
    for mode in ("eager", "lazy"):
        proc = subprocess.run([sys.executable, "-c", OPDEF_PROBE, mode], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        out[mode] = proc.stdout.splitlines()
    assert len(out["eager"]) > 200 and out["lazy"] == out["eager"]


@pytest.mark.parametrize("module", [f"ttc.tools.tt_{name}" for name in
                                    ("compile", "as", "run", "frontend", "translate", "tune")])
def test_help_imports_no_compiler(tmp_path, module):
    modules = imported(tmp_path, module, "--help")
    assert not offending(modules, THIRD_PARTY + ("xdsl", "ttc.ir", "ttc.frontend", "ttc.lowering"))


def test_canonicalize_names_every_convert_pattern():
    """canonicalize registers ttg.convert_layout's patterns (ttc/ir/convert_layout_patterns.py) by name without
    importing them (TTIR never needs them): the names must be those the patterns are for."""
    from ttc.passes.canonicalize import CONVERT_PATTERN_OPS
    from ttc.ir.convert_layout_patterns import CONVERT_PATTERNS

    assert set(CONVERT_PATTERN_OPS) == set(CONVERT_PATTERNS)


def test_xdsl_formats_parse_on_use(tmp_path):
    """An op read with xDSL's own declarative format (cf.assert: ttc.ir.format has none) still parses and
    prints, its format parsed when first used."""
    src = tmp_path / "a.mlir"
    src.write_text('tt.func @f(%c: i1) {\n  cf.assert %c, "boom"\n  tt.return\n}\n')
    proc = subprocess.run([sys.executable, "-m", "ttc.tools.tt_opt", str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert '"cf.assert"(%arg0) <{msg = "boom"}> : (i1) -> ()' in proc.stdout


# Runs tt-opt (argv[3:]) with ttc._DataclassCode's files in argv[1] ("off" in argv[2]: without it), then writes
# the cache's hits and misses (or "off") to argv[2]'s file.
DC_PROBE = """import atexit, runpy, sys
import ttc
folder, stats = sys.argv[1], sys.argv[2]
ttc._DataclassCode.folder = folder
if folder == "off":
    ttc._HOOKS.remove(ttc._DataclassHook)
import dataclasses
cache = getattr(dataclasses.exec, "__self__", None) if "exec" in vars(dataclasses) else None
atexit.register(lambda: open(stats, "w").write("off" if cache is None else f"{cache.hits} {cache.misses}"))
sys.argv = ["tt-opt"] + sys.argv[3:]
runpy.run_module("ttc.tools.tt_opt", run_name="__main__", alter_sys=True)
"""


def _probe_runner(probe, stats):
    """run(where): the probe's tt-opt on matmul.ttir (-canonicalize -cse) with the cache at `where` ('off': none);
    returns (its output, what the probe wrote to the stats file)."""
    def run(where):
        proc = subprocess.run([sys.executable, "-c", probe, where, str(stats), str(FIXTURES / "matmul.ttir"),
                               "-canonicalize", "-cse"], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout, stats.read_text()

    return run


def test_dataclass_code_cache_same_code_and_used(tmp_path):
    """ttc._DataclassCode: a cold run fills the files, a warm one compiles no dataclass method, the output is
    the same with and without the cache, every cached code object equals what `exec` would have compiled from
    its text, and a damaged file is ignored and rewritten."""
    import marshal

    folder, stats = tmp_path / "dc", tmp_path / "stats"
    run = _probe_runner(DC_PROBE, stats)

    plain, off = run("off")
    assert off == "off"
    cold, counts = run(str(folder))
    hits, misses = map(int, counts.split())
    assert misses > 300 and cold == plain
    files = sorted(folder.iterdir())
    assert any(f.name.startswith("xdsl.dialects.builtin.") for f in files)
    warm, counts = run(str(folder))
    hits, misses = map(int, counts.split())
    assert (hits, misses) == (hits, 0) and hits > 600 and warm == plain
    for f in files:
        for text, code in marshal.loads(f.read_bytes()).items():
            ref = compile(text, "<string>", "exec")
            assert (code, code.co_filename, code.co_qualname) == (ref, ref.co_filename, ref.co_qualname), text
    damaged = next(f for f in files if f.name.startswith("xdsl.dialects.builtin."))
    damaged.write_bytes(damaged.read_bytes()[:100])
    again, counts = run(str(folder))
    assert again == plain and int(counts.split()[1]) > 0
    assert run(str(folder))[1].split()[1] == "0"


def test_commands_run_with_a_high_gc_threshold():
    """Every command's main runs with ttc.driver.cli.GC_THRESHOLD (rarer collections over the many long-lived
    objects of xDSL and the IR); the caller's threshold comes back afterwards, also after an error."""
    import gc

    from ttc.driver import cli

    seen = []

    def main(argv):
        seen.append(gc.get_threshold()[0])
        if argv:
            raise cli.UsageError("bad")

    before = gc.get_threshold()
    assert cli.run("t", main, []) == 0 and cli.run("t", main, ["x"]) == 1
    assert seen == [cli.GC_THRESHOLD] * 2 and cli.GC_THRESHOLD > 10 * before[0]
    assert gc.get_threshold() == before


def test_tt_tune_prepare_reads_signatures_without_the_frontend(tmp_path):
    """tt-tune's parent reads the kernel and the spec (`autotune.prepare`) before it can hand any config to the
    compile processes: it parses signatures (ttc.frontend.signature) but never imports the frontend's compiler,
    which only the compile processes run."""
    code = ("import sys\nfrom ttc.driver import autotune\n"
            f"autotune.prepare({str(ROOT / 'kernels/tuned/matmul.py')!r}, 'matmul_kernel', "
            f"{str(ROOT / 'kernels/tuned/matmul.json')!r})\n"
            "print('\\n'.join(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    modules = set(proc.stdout.split())
    assert "ttc.frontend.signature" in modules
    assert not offending(modules, ("ttc.frontend.driver", "ttc.frontend.codegen", "ttc.frontend.semantics"))


# Imports argv[2:] with ttc's dataclass hooks ("off" in argv[1]: without them), then writes every dataclass's
# (module, qualname, __doc__) to argv[1]'s file, and how many still held a ttc._DataclassDoc before the reads.
DOC_PROBE = """import gc, importlib, json, sys
import ttc
mode, out = sys.argv[1].split(":", 1)
if mode == "off":
    ttc._HOOKS.remove(ttc._DataclassHook)
for name in sys.argv[2:]:
    importlib.import_module(name)
classes = [o for o in gc.get_objects() if isinstance(o, type) and "__dataclass_fields__" in vars(o)]
lazy = sum(type(vars(c).get("__doc__")).__name__ == "_DataclassDoc" for c in classes)
docs = sorted([c.__module__, c.__qualname__, c.__doc__] for c in classes)
json.dump({"lazy": lazy, "docs": docs}, open(out, "w"))
"""


def test_dataclass_docs_computed_on_read_are_the_same(tmp_path):
    """ttc._DataclassDoc: every dataclass that tt-opt, the lowering and the compile driver define has the
    __doc__ that `dataclasses` would have given it at class creation (read after all imports are done), and
    most of xDSL's got theirs lazily."""
    import json

    modules = ["ttc.tools.tt_opt", "ttc.ir.parser", "ttc.ir.tt", "ttc.ir.ttg", "ttc.ir.llvm", "ttc.passes.canonicalize",
               "ttc.passes.cse", "ttc.lowering.translate", "ttc.driver.compiler", "xdsl.dialects.arith",
               "xdsl.dialects.scf", "xdsl.dialects.math"]
    result = {}
    for mode in ("off", "on"):
        out = tmp_path / f"{mode}.json"
        proc = subprocess.run([sys.executable, "-c", DOC_PROBE, f"{mode}:{out}", *modules], capture_output=True,
                              text=True, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        result[mode] = json.loads(out.read_text())
    assert result["off"]["lazy"] == 0 and result["on"]["lazy"] > 50
    assert len(result["on"]["docs"]) > 250 and result["on"]["docs"] == result["off"]["docs"]


# Runs tt-opt (argv[3:]) with ttc._RegexCode's file in folder argv[1] ("off": re's own compile), then writes the
# cache's hits and whether it has anything new to write (or "off") to argv[2].
RE_PROBE = """import atexit, runpy, sys
import ttc, re
folder, stats = sys.argv[1], sys.argv[2]
cache = re._compiler.compile.__self__
if folder == "off":
    re._compiler.compile = cache.compile_
cache.folder = folder
atexit.register(lambda: open(stats, "w").write("off" if folder == "off" else f"{cache.hits} {cache.dirty}"))
sys.argv = ["tt-opt"] + sys.argv[3:]
runpy.run_module("ttc.tools.tt_opt", run_name="__main__", alter_sys=True)
"""


def test_regex_code_cache_same_patterns_and_used(tmp_path):
    """ttc._RegexCode: a cold run writes the file, a warm one compiles none of xDSL's and ttc's literal patterns
    again, the output is the same with and without the cache, and every kept entry builds a Pattern equal (same
    flags, pattern and SRE code) to the one re compiles itself, with the same groups."""
    import marshal
    import re

    folder, stats = tmp_path / "dc", tmp_path / "stats"
    run = _probe_runner(RE_PROBE, stats)

    plain, off = run("off")
    assert off == "off"
    cold, counts = run(str(folder))
    assert cold == plain and counts == "0 True"  # all compiled anew, written at exit (after the probe's write)
    (path,) = folder.iterdir()
    warm, counts = run(str(folder))
    assert warm == plain and int(counts.split()[0]) >= 20 and counts.endswith("False")
    table = marshal.loads(path.read_bytes())
    compile_ = getattr(re._compiler.compile, "__self__", None)
    compile_ = compile_.compile_ if compile_ is not None else re._compiler.compile
    for (pattern, flags), args in table.items():
        ours, ref = re._compiler._sre.compile(pattern, *args), compile_(pattern, flags)
        assert ours == ref and (ours.groups, ours.groupindex) == (ref.groups, ref.groupindex), pattern


def test_bitwise_casts_import_ctypes_on_first_use():
    """ttc._LazyModule: xdsl.utils.bitwise_casts imports without ctypes, its helpers give the bits struct gives
    (ctypes imported at the first call, then the module's own `ctypes`), and a later `import ctypes` is the real
    module."""
    code = """import struct, sys
import ttc
import xdsl.utils.bitwise_casts as b
assert "ctypes" not in sys.modules and type(b.ctypes).__name__ == "_LazyModule"
for x in (0.0, -0.0, 1.5, -2.25, 1e308, float("inf"), float("nan"), 3.4e38, 1e-45):
    assert b.convert_f64_to_u64(x) == struct.unpack("<Q", struct.pack("<d", x))[0]
    assert b.convert_u64_to_f64(struct.unpack("<Q", struct.pack("<d", x))[0]) == x or x != x
    if abs(x) <= 3.4e38:
        assert b.convert_f32_to_u32(x) == struct.unpack("<I", struct.pack("<f", x))[0]
        assert b.convert_u32_to_f32(b.convert_f32_to_u32(x)) == struct.unpack("<f", struct.pack("<f", x))[0] or x != x
import ctypes
assert b.ctypes is ctypes is sys.modules["ctypes"] and ctypes.c_double(2.0).value == 2.0
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout == "ok\n", proc.stderr


# Every op's and parametrized attribute's definition (repr, addresses left out) of every dialect ttc loads, built;
# argv[1] "off" without ttc._memo_any_of; then how many AnyOf.get calls the memo answered.
ANY_OF_PROBE = """import re, sys, ttc
if sys.argv[1] == "off":
    ttc._HOOKS.remove(ttc._HOOKS.hooks["xdsl.irdl.constraints"])
import xdsl.irdl.constraints as constraints
get, hits = constraints.AnyOf.get, [0]
def counted(*args):
    result = get(*args)
    hits[0] += len(args) >= 3 and any(result is r for r in memo.values())
    return result
memo = next((c.cell_contents for c in get.__closure__ or () if type(c.cell_contents) is dict), {})
constraints.AnyOf.get = staticmethod(counted)
from xdsl.dialects.builtin import Builtin
from xdsl.ir import ParametrizedAttribute
from ttc.ir.dialects import DIALECTS
dialects = [load() for load in DIALECTS.values()] + [Builtin]
for d in dialects:
    for c in sorted(d.operations, key=lambda c: c.name) + sorted(d.attributes, key=lambda c: c.name):
        if hasattr(c, "get_irdl_definition"):
            print(c.name, re.sub("0x[0-9a-f]+", "0x", repr(c.get_irdl_definition())))
print("hits", hits[0], file=sys.stderr)
"""


def test_any_of_memo_gives_the_same_definitions():
    """ttc._memo_any_of: every op's and attribute's definition (its constraints' unions included) is the one
    xDSL builds without the memo, and the memo answered some of the unions."""
    out = {}
    for mode in ("off", "on"):
        proc = subprocess.run([sys.executable, "-c", ANY_OF_PROBE, mode], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        out[mode] = (proc.stdout.splitlines(), int(proc.stderr.split()[-1]))
    assert len(out["on"][0]) > 250 and out["on"][0] == out["off"][0]
    assert out["off"][1] == 0 and out["on"][1] > 5
