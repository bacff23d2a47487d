"""Calls in kernel code: to builtins, to compile-time functions, to methods of tensors, and to `@jit` helpers,
which become `tt.call`s to private functions specialized on their argument types and constexpr arguments
(generated once per specialization, named as Triton names them).
"""

from __future__ import annotations

import ast
import sys

from xdsl.dialects.builtin import SymbolRefAttr

from ttc.frontend.descriptors import TensorDescriptor
from ttc.frontend.dtypes import DType
from ttc.frontend.errors import LanguageError, UnsupportedError
from ttc.frontend.jit import JitFunction
from ttc.frontend.language.builtin import Builtin
from ttc.frontend.language.compile_time import CompileTimeFunction
from ttc.frontend.language.debugging import STATIC_ASSERT, STATIC_PRINT
from ttc.frontend.language.iterators import IteratorKind
from ttc.frontend.language.namespace import ConstexprMarker, UnknownModule
from ttc.frontend.language.python_builtins import CompileTimePython
from ttc.frontend.mangling import mangle
from ttc.frontend.static_eval import NotStatic, evaluate
from ttc.frontend.values import Constexpr, LangTuple, Tensor, handles_of, is_compile_time, rebuild, unwrap


class BoundMethod:
    """`x.sum`, `x.to`: a builtin or `@jit` function with the tensor as its first argument."""

    def __init__(self, self_value, fn):
        self.self_value, self.fn = self_value, fn


class DTypeMethod:
    """`x.dtype.is_floating` and friends: Python methods of a dtype, evaluated at compile time."""

    def __init__(self, method, name: str):
        self.method, self.name = method, name


# builtins whose result must be used (Triton's must_use_result)
_MUST_USE = {"advance": "Note that tl.advance does not have any side effects. To move the block pointer, you need "
                        "to assign the result of tl.advance to a variable."}


class CallsMixin:
    def visit_Call(self, node: ast.Call):
        fn = unwrap(self.visit(node.func))
        if fn is STATIC_ASSERT:
            return self._static_assert(node)
        if fn is STATIC_PRINT:
            return self._static_print(node)
        name = fn.fn.name if isinstance(fn, BoundMethod) and isinstance(fn.fn, Builtin) else getattr(fn, "name", None)
        if isinstance(fn, (Builtin, BoundMethod)) and name in _MUST_USE and getattr(node, "_is_unused", False):
            raise LanguageError(f"The result of {ast.unparse(node.func)} is not being used. {_MUST_USE[name]}")
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise UnsupportedError("`**kwargs` in calls is not supported")
            key, value = self.visit(kw)
            kwargs[key] = value
        args = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                value = self.visit(arg.value)
                if not isinstance(value, LangTuple):
                    raise LanguageError("only tuples can be unpacked with * in calls")
                args.extend(value.values)
            else:
                args.append(self.visit(arg))
        return self.call_function(fn, args, kwargs)

    def call_function(self, fn, args: list, kwargs: dict):
        if isinstance(fn, BoundMethod):
            args = [fn.self_value, *args]
            fn = fn.fn
        if isinstance(fn, JitFunction):
            if fn.noinline:
                for a in args:
                    if isinstance(a, Tensor) and a.is_block() and a.numel != 1:
                        raise UnsupportedError(
                            f"Function {fn.name} is marked noinline, but was called with a non-scalar tensor argument"
                        )
            return self.call_jit_function(fn, args, kwargs)
        if isinstance(fn, Builtin):
            result = fn(self, args, kwargs)
            return LangTuple(result) if isinstance(result, tuple) else result
        if isinstance(fn, (CompileTimeFunction, CompileTimePython)):
            return fn(args, kwargs)
        if isinstance(fn, DTypeMethod):
            try:
                return Constexpr(fn.method(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()}))
            except TypeError as e:
                raise LanguageError(f"{fn.name}(): {e}") from None
        if isinstance(fn, ConstexprMarker):
            if len(args) != 1 or kwargs:
                raise LanguageError("tl.constexpr() takes exactly one argument")
            return args[0] if isinstance(args[0], Tensor) else Constexpr(args[0])
        if isinstance(fn, IteratorKind):
            raise LanguageError(f"{fn.name}(...) can only be used as the iterator of a for loop")
        if isinstance(fn, UnknownModule):
            raise LanguageError(f"'{fn.name}' is not part of the kernel language")
        from ttc.frontend.source import HostFunction

        if isinstance(fn, HostFunction):
            raise LanguageError(f"'{fn.name}' is not a @triton.jit function and cannot be called from a kernel")
        raise LanguageError(f"{_describe(fn)} is not callable")

    # ------------------------------------------------------------------ @jit helpers

    def _bind_arguments(self, fn: JitFunction, args: list, kwargs: dict) -> list:
        params = fn.params
        if len(args) > len(params):
            raise LanguageError(f"{fn.name}() takes {len(params)} arguments but {len(args)} were given")
        bound = dict(zip((p.name for p in params), args))
        for key, value in kwargs.items():
            if key not in {p.name for p in params}:
                raise LanguageError(f"{fn.name}() got an unexpected keyword argument '{key}'")
            if key in bound:
                raise LanguageError(f"{fn.name}() got multiple values for argument '{key}'")
            bound[key] = value
        out = []
        for p in params:
            if p.name in bound:
                out.append(bound[p.name])
            elif p.default is not None:
                try:
                    out.append(evaluate(p.default, fn.module.scope))
                except NotStatic as e:
                    raise LanguageError(f"default value of parameter '{p.name}' of {fn.name}: {e}") from None
            else:
                raise LanguageError(f"{fn.name}() missing required argument '{p.name}'")
        return out

    def call_jit_function(self, fn: JitFunction, args: list, kwargs: dict):
        values = [_as_argument(v) for v in self._bind_arguments(fn, args, kwargs)]
        constants: dict = {}
        tensors: list = []
        mangled: list = []

        def walk(path, v):
            if isinstance(v, TensorDescriptor):  # mangled as Triton does, by the handle's type
                tensors.append(v.handle)
                mangled.append(v.handle.type)
                return
            if isinstance(v, LangTuple):
                for i, x in enumerate(v.values):
                    walk(path + (i,), x)
            elif is_compile_time(v):
                constants[path] = v
            elif isinstance(v, Tensor):
                tensors.append(v)
                mangled.append(v.type)
            else:
                raise LanguageError(f"argument {fn.arg_names[path[0]]} of {fn.name}() cannot be {_describe(v)}")

        for i, v in enumerate(values):
            walk((i,), v)
        name = mangle(fn.full_name, mangled, constants)
        comp = self.comp
        if name not in comp.functions:
            prototype = [_template(v) for v in values]
            generator = type(self)(comp, fn, prototype, name, is_kernel=False)
            try:
                generator.generate()
            except LanguageError as e:
                if self.cur_node is not None:
                    e.call_sites.append(self.position(self.cur_node))
                raise
            comp.return_types[name] = generator.return_template
        elif name not in comp.return_types:
            raise UnsupportedError(f"recursive call of {fn.name}(): recursion is not supported")
        ret = comp.return_types[name]
        result_types = [t.handle_type for t in _result_leaves(ret)]
        callee = comp.callees.get(name)
        if callee is None:
            callee = comp.callees[name] = SymbolRefAttr(name)
        op = self.builder.create("tt.call", [handles_of(LangTuple(values))], [result_types], {"callee": callee})
        if ret is None:
            return None
        return rebuild(ret, list(op.results))

    # ------------------------------------------------------------------ compile-time statements

    def _static_assert(self, node: ast.Call):
        if not 0 < len(node.args) <= 2 or node.keywords:
            raise LanguageError("`static_assert` requires one or two positional arguments only")
        passed = unwrap(self.visit(node.args[0]))
        if not isinstance(passed, bool):
            raise LanguageError(
                "Assertion condition could not be determined at compile-time. Make sure that it depends only on "
                "`constexpr` values"
            )
        if not passed:
            message = unwrap(self.visit(node.args[1])) if len(node.args) == 2 else ""
            raise LanguageError("static_assert failed" + (f": {message}" if message else ""))
        return None

    def _static_print(self, node: ast.Call):
        kwargs = {}
        for kw in node.keywords:
            key, value = self.visit(kw)
            kwargs[key] = unwrap(value)
        args = [unwrap(self.visit(a)) for a in node.args]
        kwargs.setdefault("file", sys.stderr)
        print(*args, **kwargs)
        return Constexpr(None)


class _Template(Tensor):
    """A tensor argument or result of a function, without its value yet (only its type)."""

    @property
    def handle_type(self):
        return self.type.to_ir()


def _template(v):
    if isinstance(v, Tensor):
        return _Template(None, v.type)
    if isinstance(v, LangTuple):
        return v.with_values([_template(x) for x in v.values])
    return v if isinstance(v, Constexpr) else Constexpr(v)


def _result_leaves(ret) -> list:
    out = []

    def walk(v):
        if isinstance(v, Tensor):
            out.append(v if isinstance(v, _Template) else _Template(None, v.type))
        elif isinstance(v, LangTuple):
            for x in v.values:
                walk(x)

    if ret is not None:
        walk(ret)
    return out


def _as_argument(v):
    """Python values bound to parameters become constexprs, as Triton does for dtypes, numbers, bools and
    functions; None stays None."""
    if isinstance(v, tuple):
        return LangTuple([_as_argument(x) for x in v])
    if isinstance(v, (DType, float, int, bool, str, JitFunction)):
        return Constexpr(v)
    return v


def _describe(fn) -> str:
    if isinstance(fn, Tensor):
        return f"a tensor of type {fn.type}"
    if isinstance(fn, Constexpr):
        return f"the constant {fn.value!r}"
    return repr(fn)
