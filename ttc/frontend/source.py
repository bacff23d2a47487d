"""A kernel source file read as source: its `@jit` functions and the module-level names they can use.

The file is parsed, never executed. Top-level statements are read in order: imports of the language
(`import triton`, `import triton.language as tl`, `from triton import language as tl`, `import ttc.language
as tl`, ...) bind namespaces; other imports bind placeholders (usable by host code only); `@triton.jit` /
`@ttc.jit` functions become `JitFunction`s; assignments of compile-time expressions become constants; any
other global is a placeholder that is an error to use from a kernel.
"""

from __future__ import annotations

import ast
import re

from ttc.ir.diagnostics import CompileError, Diagnostic
from ttc.frontend.jit import JitFunction
from ttc.frontend.language.namespace import CONSTEXPR, UnknownModule
from ttc.frontend.static_eval import NotStatic, NotStaticValue, evaluate
from ttc.frontend.values import Constexpr


_PY_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


class HostFunction:
    """A function defined in the file without `@jit`: host code, not callable from a kernel."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<host function {self.name}>"


class SourceModule:
    def __init__(self, path: str, text: str, name: str, resolve, library: bool = False):
        self.path = path  # as it appears in locations and diagnostics
        self.resolve = resolve  # module name -> the Namespace it imports as (None: not a kernel-language module)
        self.text = text
        self.name = name  # the module name, the prefix of helper function names
        self.library = library  # ttc's own implementation of triton.language
        self.lines = text.split("\n")
        self._segment_lines = _PY_LINE.findall(text)  # lines as Python splits them, with their ends
        try:
            self.tree = ast.parse(text, filename=path)
        except SyntaxError as e:
            line = e.lineno or 0
            source = self.lines[line - 1] if 0 < line <= len(self.lines) else None
            raise CompileError(Diagnostic(path, line, e.offset or 1, f"invalid syntax: {e.msg}", "error", source)) from None
        self.scope: dict = {}
        self.functions: dict[str, JitFunction] = {}
        for stmt in self.tree.body:
            self._read(stmt)

    def segment(self, node: ast.AST) -> str:
        """`ast.get_source_segment(self.text, node)`, without splitting the whole file again on every call."""
        lines, first, last = self._segment_lines, node.lineno - 1, node.end_lineno - 1
        if first == last:
            return lines[first].encode()[node.col_offset : node.end_col_offset].decode()
        return "".join([lines[first].encode()[node.col_offset :].decode(), *lines[first + 1 : last],
                        lines[last].encode()[: node.end_col_offset].decode()])

    # ------------------------------------------------------------------ top-level statements

    def _read(self, stmt: ast.stmt):
        resolve_module = self.resolve
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    self.scope[alias.asname] = resolve_module(alias.name) or UnknownModule(alias.name)
                else:
                    top = alias.name.split(".")[0]
                    self.scope[top] = resolve_module(top) or UnknownModule(top)
        elif isinstance(stmt, ast.ImportFrom):
            base = stmt.module or ""
            namespace = resolve_module(base) if stmt.level == 0 else None
            for alias in stmt.names:
                name = alias.asname or alias.name
                value = resolve_module(f"{base}.{alias.name}") if stmt.level == 0 else None
                if value is None and namespace is not None and namespace.has(alias.name):
                    value = namespace.lookup(alias.name)
                self.scope[name] = value if value is not None else UnknownModule(f"{base}.{alias.name}")
        elif isinstance(stmt, ast.FunctionDef):
            if self._is_jit(stmt):
                fn = JitFunction(stmt, self, noinline=self._noinline(stmt))
                self.functions[stmt.name] = fn
                self.scope[stmt.name] = fn
            else:
                self.scope[stmt.name] = HostFunction(stmt.name)
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                self._bind(target, stmt.value)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            self._bind(stmt.target, stmt.value)
        elif isinstance(stmt, (ast.ClassDef, ast.AsyncFunctionDef)):
            self.scope[stmt.name] = NotStaticValue(stmt.name, f"'{stmt.name}' is not a compile-time value")
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            self.scope[stmt.target.id] = NotStaticValue(stmt.target.id, f"global '{stmt.target.id}' is modified at run time")

    def _bind(self, target: ast.expr, value: ast.expr):
        if isinstance(target, ast.Name):
            try:
                self.scope[target.id] = evaluate(value, self.scope)
            except NotStatic as e:
                self.scope[target.id] = NotStaticValue(target.id, f"global '{target.id}' is not a compile-time constant ({e})")
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                if isinstance(elt, ast.Name):
                    self.scope[elt.id] = NotStaticValue(elt.id, f"global '{elt.id}' is not a compile-time constant")

    def _decorator_target(self, dec: ast.expr):
        if isinstance(dec, ast.Call):
            dec = dec.func
        try:
            return evaluate(dec, self.scope)
        except NotStatic:
            return None

    def _is_jit(self, fn: ast.FunctionDef) -> bool:
        from ttc.frontend.jit import jit

        return any(self._decorator_target(d) is jit for d in fn.decorator_list)

    def _noinline(self, fn: ast.FunctionDef) -> bool:
        from ttc.frontend.jit import jit

        for d in fn.decorator_list:
            if isinstance(d, ast.Call) and self._decorator_target(d) is jit:
                for kw in d.keywords:
                    if kw.arg == "noinline":
                        try:
                            return bool(evaluate(kw.value, self.scope))
                        except NotStatic:
                            return False
        return False

    # ------------------------------------------------------------------ queries

    def is_constexpr_annotation(self, annotation: ast.expr | None) -> bool:
        if annotation is None:
            return False
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            return annotation.value.split(".")[-1] == "constexpr"
        try:
            value = evaluate(annotation, self.scope)
        except NotStatic:
            return False
        return value is CONSTEXPR

    def global_value(self, name: str):
        """A global as a kernel sees it (Python constants become constexprs); KeyError if undefined."""
        value = self.scope[name]
        if isinstance(value, (bool, int, float, str, tuple)) or value is None:
            return Constexpr(value)
        return value
