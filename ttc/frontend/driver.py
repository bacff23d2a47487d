"""Compile one `@jit` kernel of a source file, for one signature, to a TTIR module (what `tt-frontend` runs).

The module is what Triton's frontend builds (before any pass): the public kernel `tt.func`, then the private
helper functions in the order they were first called. It also carries `ttc.source_hash`, a sha256 of what
determined it: the kernel and helper sources, the signature, the constexpr values and module-level constants.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i32

from ttc.ir.diagnostics import CompileError, Diagnostic
from ttc.frontend.builder import file_loc
from ttc.frontend.codegen.calls import _Template
from ttc.frontend.codegen.compilation import Compilation
from ttc.frontend.codegen.generator import CodeGenerator
from ttc.frontend.descriptors import TensorDescDType, descriptor_prototype
from ttc.frontend.errors import LanguageError, position_of, to_compile_error
from ttc.frontend.options import Options
from ttc.frontend.signature import parse_signature, split_signature
from ttc.frontend.language.modules import resolve_module
from ttc.frontend.source import SourceModule
from ttc.frontend.values import Constexpr
from ttc.ir.dialects import building
from ttc.ir.kernel_module import HASH_ATTRIBUTE


def compile_source(text: str, path: str, kernel: str, signature: str, module_name: str | None = None,
                   options: Options | None = None) -> ModuleOp:
    """Compile `kernel` from source `text` (named `path` in locations and diagnostics)."""
    options = options or Options()
    module_name = module_name or Path(path).stem
    source = SourceModule(path, text, module_name, resolve_module)
    fn = source.functions.get(kernel)
    if fn is None:
        found = ", ".join(sorted(source.functions)) or "none"
        raise CompileError(Diagnostic(path, 0, 0, f"no @triton.jit function named '{kernel}' (found: {found})"))
    try:
        specs = parse_signature(signature, fn)
        for spec in specs:
            if spec.dtype is not None:
                options.check_dtype(spec.dtype)
    except LanguageError as e:
        e.position = position_of(fn.node, path, source.lines)
        raise to_compile_error(e) from None
    prototype, arg_attrs, n_args = [], {}, 0
    for spec in specs:
        if spec.constexpr:
            prototype.append(Constexpr(spec.value))
            continue
        if isinstance(spec.dtype, TensorDescDType):  # the handle, its shape and its strides
            prototype.append(descriptor_prototype(spec.dtype, lambda t: _Template(None, t)))
            n_args += len(prototype[-1])
            continue
        if spec.divisibility is not None:
            arg_attrs[n_args] = {"tt.divisibility": IntegerAttr(spec.divisibility, i32)}
        prototype.append(_Template(None, spec.dtype))
        n_args += 1
    module = ModuleOp([])
    module.location = file_loc(path, fn.node.lineno, 0)
    comp = Compilation(module, options)
    generator = CodeGenerator(comp, fn, prototype, fn.name, is_kernel=True, arg_attrs=arg_attrs)
    try:
        with building():
            generator.generate()
    except LanguageError as e:
        raise to_compile_error(e) from None
    module.attributes[HASH_ATTRIBUTE] = StringAttr(_source_hash(comp, kernel, signature, specs, source))
    return module


def compile_file(path: str, kernel: str, signature: str, module_name: str | None = None,
                 options: Options | None = None) -> ModuleOp:
    text = Path(path).read_text(encoding="utf-8")
    return compile_source(text, path, kernel, signature, module_name, options)


def _source_hash(comp: Compilation, kernel: str, signature: str, specs, source: SourceModule) -> str:
    h = hashlib.sha256()

    def add(*parts):
        for p in parts:
            h.update(str(p).encode("utf-8"))
            h.update(b"\0")

    add("ttc-frontend", kernel, ",".join(split_signature(signature)))
    for spec in specs:
        add(spec.name, repr(spec.value) if spec.constexpr else spec.dtype, spec.divisibility)
    for module_name, fn_name, text in comp.sources:
        add(module_name, fn_name, text)
    for name in sorted(source.scope):
        value = source.scope[name]
        if isinstance(value, (bool, int, float, str, tuple, Constexpr)) or value is None:
            add(name, repr(value.value if isinstance(value, Constexpr) else value))
    add(repr(comp.options))
    return h.hexdigest()
