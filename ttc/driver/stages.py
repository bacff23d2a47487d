"""The back end's stages (`llir`, `ptx`, `cubin`: what tt-translate, tt-as and tt-compile share, importable
without the compile driver) and Triton's kernel dump and override directories, for the commands that produce a
stage.

Stages and their files: `.ttir` (`tt-opt -make-ttir`), `.ttgir` (`-make-ttgir`), `.llir` (`tt-translate
--target=llvmir`), `.ptx` (`--target=ptx`), `.cubin` (`tt-as`). A kernel's files are `<dir>/<hash>/<kernel>.<ext>`:
the hash is the `ttc.source_hash` that tt-frontend records and every stage keeps (for IR from elsewhere, a sha256
of the text the first command read), the kernel is the public `tt.func`.

- `TRITON_KERNEL_DUMP=1` (`TRITON_DUMP_DIR`, default `~/.triton/dump`): each produced stage is also written there.
- `TRITON_KERNEL_OVERRIDE=1` (`TRITON_OVERRIDE_DIR`, default `~/.triton/override`): when the stage's file exists
  there, the command emits that file instead of producing the stage, and says so in one line on stderr. MLIR
  stages are parsed and verified first (errors point into the override file); later stages run from it.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

from ttc.driver.cli import UsageError, env_on, write_output

PASS_STAGES = {"make-ttir": "ttir", "make-ttgir": "ttgir"}  # the tt-opt passes that produce a stage


def dump_dir() -> str | None:
    if not env_on("TRITON_KERNEL_DUMP"):
        return None
    return os.path.expanduser(os.environ.get("TRITON_DUMP_DIR") or "~/.triton/dump")


def override_dir() -> str | None:
    if not env_on("TRITON_KERNEL_OVERRIDE"):
        return None
    return os.path.expanduser(os.environ.get("TRITON_OVERRIDE_DIR") or "~/.triton/override")


def environment_help(produces: str) -> str:
    """The --help epilog of a command that produces the stages `produces` names."""
    return (f"Environment: TRITON_KERNEL_DUMP=1 writes the stage this command produces, {produces}, to "
            "$TRITON_DUMP_DIR/<hash>/<kernel>.<ext> (default ~/.triton/dump); TRITON_KERNEL_OVERRIDE=1 uses "
            "$TRITON_OVERRIDE_DIR/<hash>/<kernel>.<ext> instead when it exists (default ~/.triton/override).")


def active() -> bool:
    return dump_dir() is not None or override_dir() is not None


@dataclass
class Kernel:
    name: str
    hash: str

    def file(self, ext: str) -> str:
        return os.path.join(self.hash, f"{self.name}.{ext}")


def dump(kernel: Kernel, ext: str, data: str | bytes) -> None:
    directory = dump_dir()
    if directory is None or not kernel.name:
        return
    path = os.path.join(directory, kernel.file(ext))
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create dump directory '{os.path.dirname(path)}': {e.strerror}") from None
    write_output(path, data)


def override(tool: str, kernel: Kernel, ext: str) -> str | None:
    """The override file for this stage, announced on stderr, or None."""
    directory = override_dir()
    if directory is None or not kernel.name:
        return None
    path = os.path.join(directory, kernel.file(ext))
    if not os.path.exists(path):
        return None
    if not os.path.isfile(path):
        raise UsageError(f"override path '{path}' is not a file")
    sys.stderr.write(f"{tool}: overriding {kernel.name}.{ext} with {path}\n")
    return path


def read_override(path: str, binary: bool = False) -> str | bytes:
    try:
        with open(path, "rb" if binary else "r", encoding=None if binary else "utf-8") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read override file '{path}': {e.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"override file '{path}' is not UTF-8 text") from None


def missing_kernel(path: str, kernel: Kernel):
    """The error for an override file (LLVM IR, PTX, CUBIN) that does not define `kernel`."""
    from ttc.ir.diagnostics import CompileError, Diagnostic

    return CompileError(Diagnostic(path, 0, 0, f"override file does not define the kernel '{kernel.name}'"))


# ---------------------------------------------------------------- back-end stages (tt-translate, tt-as)


def _own_metadata(own, stage_meta, kernel):
    """The metadata an override file carries (else the stage's), with the stage's kernel name and hash: the file's
    place in the override directory says which kernel it is."""
    from dataclasses import replace

    return replace(own or stage_meta, name=kernel.name, hash=kernel.hash)


def override_llir(path: str, kernel: Kernel, stage_meta, options):
    """(module, metadata, target machine) of an LLVM IR override file: parsed and verified (errors point into
    the file), defining the kernel, its `!ttc.metadata` naming this kernel and hash."""
    from ttc.lowering import pipeline
    from ttc.lowering.metadata import KernelMetadata

    text = read_override(path)
    meta = _own_metadata(KernelMetadata.from_llvm_ir(text, path), stage_meta, kernel)
    mod, meta, tm = pipeline.parse_llvm(meta.into_llvm_ir(text), path, options, meta)
    if not any(f.name == kernel.name and not f.is_declaration for f in mod.functions):
        raise missing_kernel(path, kernel)
    return mod, meta, tm


def override_ptx(path: str, kernel: Kernel, stage_meta) -> str:
    """The PTX of an override file: defining the kernel, checked by assembling it (errors point into the file),
    with a metadata line naming this kernel and hash."""
    from ttc.ir.diagnostics import CompileError
    from ttc.lowering.cubin import AsmOptions, AssemblerError, assemble, located
    from ttc.lowering.metadata import KernelMetadata, ptx_entries

    text = read_override(path)
    meta = _own_metadata(KernelMetadata.from_ptx(text, path), stage_meta, kernel)
    if kernel.name not in ptx_entries(text):
        raise missing_kernel(path, kernel)
    try:
        assemble(text, path, AsmOptions(arch="sm_" + meta.target.split(":")[-1]))
    except AssemblerError as e:
        diags = located(str(e), path, text)
        if diags:
            raise CompileError(*diags) from None
        if "not available" not in str(e):  # no assembler here: tt-as will check it
            raise UsageError(f"override file '{path}' does not assemble: {e}") from None
    return meta.into_ptx(text)


def override_cubin(path: str, kernel: Kernel) -> bytes:
    """The CUBIN of an override file: an ELF file with the kernel's symbol."""
    from ttc.ir.diagnostics import CompileError, Diagnostic

    cubin = read_override(path, binary=True)
    if not cubin.startswith(b"\x7fELF"):
        raise CompileError(Diagnostic(path, 0, 0, "override file is not a CUBIN (an ELF file)"))
    if kernel.name and b"\0" + kernel.name.encode() + b"\0" not in cubin:  # a symbol of the ELF
        raise missing_kernel(path, kernel)
    return cubin


# ---------------------------------------------------------------- MLIR stages (tt-opt)


def module_kernel(module, fallback_hash: str) -> Kernel:
    """The module's kernel and its source hash (recorded on the module when it has none, so that later stages
    find the same directory)."""
    from xdsl.dialects.builtin import StringAttr

    from ttc.ir.kernel_module import HASH_ATTRIBUTE, kernel_func

    func = kernel_func(module)
    h = module.attributes.get(HASH_ATTRIBUTE)
    if not isinstance(h, StringAttr):
        h = module.attributes[HASH_ATTRIBUTE] = StringAttr(fallback_hash)
    return Kernel(func.sym_name.data if func is not None else "", h.data)


def override_module(tool: str, kernel: Kernel, ext: str):
    """(module, source) parsed and verified from the override file of this stage, or None."""
    from xdsl.dialects.builtin import StringAttr

    from ttc.ir.diagnostics import CompileError, Diagnostic, Source, at_op
    from ttc.ir.kernel_module import HASH_ATTRIBUTE, kernel_func
    from ttc.ir.parser import parse

    path = override(tool, kernel, ext)
    if path is None:
        return None
    text = read_override(path)
    source = Source(path, text, {}, by_position=True)
    module = parse(text, path, source=source)
    func = kernel_func(module)
    if func is None:
        raise CompileError(Diagnostic(path, 0, 0, f"override file defines no kernel (public tt.func), not the kernel '{kernel.name}'"))
    if func.sym_name.data != kernel.name:
        raise CompileError(at_op(func, source, f"override file defines '{func.sym_name.data}', not the kernel '{kernel.name}'"))
    source.by_position = False  # later passes report at the ops' own locations, as for any input
    module.attributes[HASH_ATTRIBUTE] = StringAttr(kernel.hash)  # its directory says which kernel it is
    return module, source


def dump_module(kernel: Kernel, ext: str, module) -> None:
    """The stage as Triton's dumps print it: with locations, NameLocs as SSA names."""
    if dump_dir() is None:
        return
    from ttc.ir.printer import print_ir

    dump(kernel, ext, print_ir(module, debuginfo=True, name_locs=True) + "\n")


def llir(ttgir, tool: str, options=None):
    """TTGIR (a parsed `ttc.lowering.pipeline.TTGIR`) -> (LLVM module, metadata, target machine, the module's
    text): lowered and optimized, or the `.llir` override (read with `options`, a `pipeline.Options`); dumped.
    The module is printed once, here: its text is the stage's file and what `ptx` compiles."""
    from ttc.lowering import pipeline

    stage_meta = ttgir.metadata()
    kernel = Kernel(stage_meta.name, stage_meta.hash)
    replaced = override(tool, kernel, "llir")
    if replaced is not None:
        mod, meta, tm = override_llir(replaced, kernel, stage_meta, options or pipeline.Options())
    else:
        mod, meta, tm = pipeline.lower(ttgir)
    text = str(mod)
    dump(kernel, "llir", text)
    return mod, meta, tm, text


def ptx(mod, meta, tm, tool: str, text: str | None = None) -> str:
    """LLVM module -> PTX (with its metadata line), or the `.ptx` override; dumped. The PTX is made from the
    module's text (`text`, else printed here), as Triton's make_ptx does: the in-memory module can differ from its
    text in what the text does not keep (the order of each value's uses, which instruction selection sees), so
    this way the `.llir` stage alone decides the PTX, whether it was lowered in this process or read from a file."""
    from ttc.lowering import pipeline, target

    kernel = Kernel(meta.name, meta.hash)
    replaced = override(tool, kernel, "ptx")
    if replaced:
        result = override_ptx(replaced, kernel, meta)
    else:
        result = pipeline.to_ptx(target.llvm().parse_assembly(str(mod) if text is None else text), meta, tm)
    dump(kernel, "ptx", result)
    return result


def ptx_arch(text: str) -> str | None:
    """The `.target` of PTX text (`sm_90a`), or None."""
    m = re.search(r"^\s*\.target\s+(sm_\w+)", text, re.M)
    return m.group(1) if m else None


def cubin(text: str, path: str, meta, options, tool: str, ptxas: str | None = None) -> bytes:
    """PTX -> CUBIN with nvJitLink (or `ptxas`), or the `.cubin` override; the CUBIN and its `.json` dumped.
    Assembler errors with a PTX line are CompileErrors at that line; others raise `AssemblerError`."""
    from ttc.ir.diagnostics import CompileError
    from ttc.lowering.cubin import AssemblerError, assemble, located

    kernel = Kernel(meta.name, meta.hash)
    replaced = override(tool, kernel, "cubin")
    if replaced is not None:
        binary = override_cubin(replaced, kernel)
    else:
        try:
            binary = assemble(text, os.path.basename(path), options, ptxas)
        except AssemblerError as e:
            diags = located(str(e), path, text)
            if diags:
                raise CompileError(*diags) from None
            raise
    dump(kernel, "cubin", binary)
    dump(kernel, "json", meta.file_text())
    return binary
