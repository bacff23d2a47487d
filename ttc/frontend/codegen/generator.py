"""The code generator: walks one `@jit` function's AST and builds its `tt.func`, the way Triton's
`CodeGenerator` does (same op order, same locations: each op gets the location of the last AST node entered,
wrapped in a NameLoc while the right-hand side of `name = ...` is compiled).

One generator compiles one function (the kernel, or one specialization of a helper); calls to helpers
start new generators that add their functions to the same module. Expressions and statements are here;
operators, calls and control flow are in the mixins.
"""

from __future__ import annotations

import ast
import copy
import os

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, DictionaryAttr, FunctionType, StringAttr, i1
from xdsl.ir import Block, Region

from ttc.frontend.builder import Builder, file_loc, name_loc, op_class
from ttc.frontend.codegen.access import AccessMixin
from ttc.frontend.codegen.calls import CallsMixin
from ttc.frontend.codegen.compilation import Compilation
from ttc.frontend.codegen.control_flow import ControlFlowMixin
from ttc.frontend.codegen.operators import BINARY_METHODS, COMPARE_METHODS, OperatorsMixin
from ttc.frontend.dtypes import DType
from ttc.frontend.errors import LanguageError, SourcePosition, UnsupportedError, position_of
from ttc.frontend.jit import JitFunction
from ttc.frontend.language.debugging import device_assert
from ttc.frontend.language.namespace import CONSTEXPR
from ttc.frontend.language.python_builtins import PY_BUILTINS
from ttc.frontend.semantics import Semantic
from ttc.frontend.static_eval import NotStaticValue
from ttc.frontend.values import Constexpr, LangSlice, LangTuple, Tensor, handles_of, rebuild, type_of, unwrap
from ttc.ir.dialects import prebuilt

_UNSUPPORTED = {
    ast.Break: "`break` is not supported in kernels",
    ast.Continue: "`continue` is not supported in kernels",
    ast.Try: "`try` is not supported in kernels",
    ast.Raise: "`raise` is not supported in kernels",
    ast.Lambda: "lambda functions are not supported in kernels",
    ast.With: "`with` is not supported in kernels",
    ast.Delete: "`del` is not supported in kernels",
    ast.Global: "`global` is not supported in kernels",
    ast.Nonlocal: "`nonlocal` is not supported in kernels",
    ast.ClassDef: "class definitions are not supported in kernels",
    ast.Dict: "dictionaries are not supported in kernels",
    ast.Set: "sets are not supported in kernels",
    ast.DictComp: "comprehensions other than tuple comprehensions are not supported in kernels",
    ast.SetComp: "comprehensions other than tuple comprehensions are not supported in kernels",
    ast.GeneratorExp: "generator expressions are not supported in kernels",
    ast.Yield: "`yield` is not supported in kernels",
    ast.YieldFrom: "`yield` is not supported in kernels",
    ast.NamedExpr: "assignment expressions (:=) are not supported in kernels",
    ast.Import: "imports inside kernels are not supported",
    ast.ImportFrom: "imports inside kernels are not supported",
    ast.AsyncFunctionDef: "nested function definitions are not supported",
}

VOID = "void"  # the return type of a function that returns nothing


def _function_type(inputs: list, outputs: list) -> FunctionType:
    """`FunctionType.from_lists` without xDSL's parameter checks (`prebuilt`): the types are the frontend's own."""
    return prebuilt(FunctionType, ArrayAttr(tuple(inputs)), ArrayAttr(tuple(outputs)))


class CodeGenerator(ast.NodeVisitor, OperatorsMixin, CallsMixin, ControlFlowMixin, AccessMixin):
    def __init__(self, comp: Compilation, fn: JitFunction, prototype: list, function_name: str, is_kernel: bool,
                 arg_attrs: dict | None = None):
        self.comp = comp
        self.fn = fn
        self.source = fn.module
        self.prototype = prototype  # one value per parameter; tensors without handles, constexprs
        self.arg_attrs = arg_attrs or {}  # tensor argument index -> {name: attribute}
        self.function_name = function_name
        self.is_kernel = is_kernel
        self.builder = Builder()
        self.file_attr = StringAttr(self.source.path)  # the file of every location, made once
        self.builder.loc = file_loc(self.file_attr, fn.node.lineno, 0)
        self.semantic = Semantic(self.builder, comp.options)
        self.lscope: dict = {}
        self.local_defs: dict = {}
        self.ret_type = None  # None until a return is seen, then VOID or a template value
        self.name_prefix: str | None = None
        self.cur_node = None
        self.scf_stack: list = []
        self.func_op = None

    # ------------------------------------------------------------------ entry points

    def generate(self):
        self.comp.record_source(self.fn)
        self.comp.in_progress.add(self.function_name)
        try:
            self.visit(self.fn.node)
        finally:
            self.comp.in_progress.discard(self.function_name)
        return self.func_op

    def position(self, node) -> SourcePosition:
        return position_of(node, self.source.path, self.source.lines, self.source.library)

    # ------------------------------------------------------------------ visiting with locations

    def visit(self, node):
        if node is None:
            return None
        last_node, last_loc = self.cur_node, self.builder.loc
        self.cur_node = node
        if hasattr(node, "lineno") and hasattr(node, "col_offset"):
            here = file_loc(self.file_attr, node.lineno, node.col_offset)
            if self.name_prefix is not None:
                here = name_loc(self.name_prefix, here)
            self.builder.loc = here
            last_loc = here
        try:
            result = super().visit(node)
        except LanguageError as e:
            if e.position is None and hasattr(node, "lineno"):
                e.position = self.position(node)
            raise
        except (ArithmeticError, AttributeError, IndexError, KeyError, TypeError, ValueError) as e:
            if os.environ.get("TTC_DEBUG") == "1" or not hasattr(node, "lineno"):
                raise
            # a case the frontend does not handle: report it where it happened rather than as a traceback
            error = LanguageError(f"internal error while compiling this: {type(e).__name__}: {e}")
            error.position = self.position(node)
            raise error from e
        self.cur_node = last_node
        self.builder.loc = last_loc
        return result

    def generic_visit(self, node):
        message = _UNSUPPORTED.get(type(node), f"unsupported syntax in a kernel: {type(node).__name__}")
        raise UnsupportedError(message)

    def visit_compound_statement(self, stmts):
        for stmt in stmts:
            self.visit(stmt)
            if isinstance(stmt, ast.Return):
                break

    # ------------------------------------------------------------------ names and locations

    def set_value(self, name: str, value):
        self.lscope[name] = value
        self.local_defs[name] = value

    def set_name_loc(self, handle, name: str):
        """Name an IR value after a variable: wrap the location of its op (or block argument) in a NameLoc."""
        from xdsl.ir import BlockArgument, Operation

        if isinstance(handle, BlockArgument):
            handle.location = name_loc(name, handle.location)
        elif isinstance(handle.owner, Operation):
            handle.owner.location = name_loc(name, handle.owner.location)

    def set_name_loc_of(self, value, name: str):
        for h in handles_of(value):
            self.set_name_loc(h, name)

    def lookup(self, name: str):
        if name in self.lscope:
            return self.lscope[name]
        if name in self.source.scope:
            value = self.source.global_value(name)
            if isinstance(value, NotStaticValue):
                raise LanguageError(f"{value.reason}; a kernel can only use compile-time globals")
            return value
        if name in PY_BUILTINS:
            return PY_BUILTINS[name]
        raise LanguageError(f"name '{name}' is not defined")

    # ------------------------------------------------------------------ functions

    def visit_FunctionDef(self, node: ast.FunctionDef):
        if self.func_op is not None:
            raise UnsupportedError("nested function definitions are not supported")
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise UnsupportedError("*args, **kwargs, keyword-only and positional-only parameters are not supported")
        arg_names = [p.arg for p in a.args]
        b = self.builder
        arg_types = [t.type.to_ir() for t in _leaves(self.prototype)]
        func = op_class("tt.func").build(
            properties={
                "sym_name": StringAttr(self.function_name),
                "function_type": _function_type(arg_types, []),
                "sym_visibility": StringAttr("public" if self.is_kernel else "private"),
            },
            attributes={"noinline": BoolAttr(self.fn.noinline, i1)},
            regions=[Region(Block(arg_types=arg_types))],
        )
        func.location = b.loc
        entry = func.body.blocks.first
        for arg in entry.args:
            arg.location = b.loc
        if self.arg_attrs:
            func.properties["arg_attrs"] = ArrayAttr(
                [DictionaryAttr(self.arg_attrs.get(i, {})) for i in range(len(arg_types))]
            )
        self.comp.module.body.block.add_op(func)
        self.comp.functions[self.function_name] = func
        self.func_op = func
        values = rebuild(LangTuple(self.prototype), list(entry.args)).values
        for name, value in zip(arg_names, values):
            self.set_name_loc_of(value, name)
            self.set_value(name, value)
        b.set_insertion_point_to_start(entry)
        self.visit_compound_statement(node.body)
        if self.ret_type is None or self.ret_type == VOID:
            self.ret_type = VOID
            b.create("tt.return", [[]], [])
        else:
            leaves = _leaves([self.ret_type])
            func.properties["function_type"] = _function_type(arg_types, [t.type.to_ir() for t in leaves])
            b.create("tt.return", [[b.poison(t.type.to_ir()) for t in leaves]], [])

    @property
    def return_template(self):
        """What the generated function returns: None (nothing), or a value whose tensors have no handles."""
        return None if self.ret_type == VOID else self.ret_type

    def visit_Return(self, node: ast.Return):
        value = self._decay(self.visit(node.value))
        b = self.builder
        if value is None:
            ret_type = VOID
            b.create("tt.return", [[]], [])
        else:
            ret_type = _template_of(value)
            b.create("tt.return", [handles_of(value)], [])
        if self.ret_type is None:
            self.ret_type = ret_type
        elif not _same_return(self.ret_type, ret_type):
            raise LanguageError(f"Inconsistent return types: {_show(self.ret_type)} and {_show(ret_type)}")
        # anything after a return goes to a new (unreachable) block
        b.create_block()

    def _decay(self, value):
        """Returned compile-time values become constants (`return 0` returns an i32 tensor)."""
        if isinstance(value, LangTuple):
            return value.with_values([self._decay(v) for v in value.values])
        if isinstance(value, Constexpr):
            return self.semantic.to_tensor(value)
        return value

    # ------------------------------------------------------------------ statements

    def visit_Pass(self, node):
        return None

    def visit_Expr(self, node: ast.Expr):
        node.value._is_unused = True
        self.visit(node.value)

    def visit_Assert(self, node: ast.Assert):
        test = self.visit(node.test)
        msg = self.visit(node.msg) if node.msg is not None else ""
        return device_assert(self, [test, msg], {})

    def _sanitize(self, value):
        """Assigned values: numbers become scalar constants (Triton turns `x = 0` into an i32 constant)."""
        if isinstance(value, LangTuple):
            return value.with_values([Constexpr(None) if v is None else self._sanitize(v) for v in value.values])
        value = unwrap(value) if isinstance(value, Constexpr) else value
        if value is not None and not isinstance(value, (Tensor, DType, LangTuple)):
            value = self.semantic.to_tensor(value)
        return value

    def visit_Assign(self, node):
        targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
        if len(targets) != 1:
            raise UnsupportedError("chained assignments (a = b = ...) are not supported")
        target = targets[0]
        if isinstance(target, ast.Name):
            self.name_prefix = target.id
            try:
                values = self._sanitize(self.visit(node.value))
            finally:
                self.name_prefix = None
        else:
            values = self._sanitize(self.visit(node.value))
        self._assign(target, values)

    def _assign(self, target, value):
        if isinstance(target, ast.Subscript):
            raise UnsupportedError("assigning to an element (x[i] = ...) is not supported in triton")
        if isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, LangTuple) or len(value) != len(target.elts):
                n = len(value) if isinstance(value, LangTuple) else 1
                raise LanguageError(f"cannot unpack {n} value(s) into {len(target.elts)} names")
            for t, v in zip(target.elts, value.values):
                self._assign(t, v)
            return
        if not isinstance(target, ast.Name):
            raise UnsupportedError("only names and tuples of names can be assigned to")
        self.set_value(target.id, value)

    def visit_AnnAssign(self, node: ast.AnnAssign):
        if node.value is None:
            raise UnsupportedError("annotations without a value are not supported")
        if not isinstance(node.target, ast.Name):
            raise UnsupportedError("only names can be annotated")
        annotation = self._annotation(node.annotation)
        target = node.target.id
        value = self.visit(node.value)
        if annotation is CONSTEXPR:
            if target in self.lscope:
                raise LanguageError(f"{target} is already defined. constexpr cannot be reassigned.")
            if isinstance(value, Tensor):
                raise LanguageError(f"{target} is annotated tl.constexpr but its value is not known at compile time")
            self.lscope[target] = value if isinstance(value, Constexpr) else Constexpr(value)
            return self.lscope[target]
        # like Triton, a non-constexpr annotated assignment evaluates its value a second time
        return self.visit_Assign(node)

    def _annotation(self, node):
        try:
            return unwrap(self.visit(node))
        except LanguageError:
            return None

    def visit_AugAssign(self, node: ast.AugAssign):
        load = copy.deepcopy(node.target)
        load.ctx = ast.Load()
        rhs = ast.BinOp(load, node.op, node.value)
        assign = ast.Assign(targets=[node.target], value=rhs)
        for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(node, attr):
                setattr(rhs, attr, getattr(node, attr))
                setattr(assign, attr, getattr(node, attr))
        self.visit(assign)
        return self.visit(load)

    # ------------------------------------------------------------------ expressions

    def visit_Name(self, node: ast.Name):
        if isinstance(node.ctx, ast.Store):
            return node.id
        return self.lookup(node.id)

    def visit_Constant(self, node: ast.Constant):
        return Constexpr(node.value)

    def visit_Tuple(self, node: ast.Tuple):
        return LangTuple([self.visit(e) for e in node.elts])

    def visit_List(self, node: ast.List):
        return LangTuple([self.visit(e) for e in node.elts])

    def visit_ListComp(self, node: ast.ListComp):
        if len(node.generators) != 1:
            raise UnsupportedError("nested comprehensions are not supported")
        comp = node.generators[0]
        if comp.ifs or not isinstance(comp.target, ast.Name):
            raise UnsupportedError("only simple tuple comprehensions ([f(x) for x in t]) are supported")
        items = self.visit(comp.iter)
        if not isinstance(items, LangTuple):
            raise UnsupportedError("only tuple comprehensions are supported")
        results = []
        for item in items.values:
            self.set_value(comp.target.id, item)
            results.append(self.visit(node.elt))
        return LangTuple(results)

    def visit_JoinedStr(self, node: ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
                continue
            evaluated = self.visit(value.value)
            if isinstance(evaluated, Tensor):
                raise UnsupportedError("Cannot evaluate f-string containing non-constexpr conversion values")
            fmt = "{}" if value.conversion < 0 else "{!" + chr(value.conversion) + "}"
            parts.append(fmt.format(unwrap(evaluated)))
        return Constexpr("".join(parts))

    def visit_keyword(self, node: ast.keyword):
        return node.arg, self.visit(node.value)

    def visit_Slice(self, node: ast.Slice):
        return LangSlice(self.visit(node.lower), self.visit(node.upper), self.visit(node.step))

    def visit_BinOp(self, node: ast.BinOp):
        lhs = self.visit(node.left)
        rhs = self.visit(node.right)
        method = BINARY_METHODS.get(type(node.op))
        if method is None:
            raise UnsupportedError(f"binary operator '{type(node.op).__name__}' is not supported")
        return self.apply_binary(method, lhs, rhs)

    def visit_UnaryOp(self, node: ast.UnaryOp):
        return self.apply_unary(node.op, self.visit(node.operand))

    def visit_Compare(self, node: ast.Compare):
        if len(node.ops) != 1:
            raise UnsupportedError("simultaneous multiple comparison is not supported")
        lhs = self.visit(node.left)
        rhs = self.visit(node.comparators[0])
        op = node.ops[0]
        if isinstance(op, ast.Is):
            return Constexpr(unwrap(lhs) is unwrap(rhs))
        if isinstance(op, ast.IsNot):
            return Constexpr(unwrap(lhs) is not unwrap(rhs))
        method = COMPARE_METHODS.get(type(op))
        if method is None:
            raise UnsupportedError(f"comparison operator '{type(op).__name__}' is not supported")
        return self.apply_binary(method, lhs, rhs)

    def visit_BoolOp(self, node: ast.BoolOp):
        method = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
        nontrivial = []
        value = None
        for sub in node.values:
            value = self.visit(sub)
            if not isinstance(value, Tensor):
                truth = bool(unwrap(value))
                if not truth and method == "logical_and":
                    return value
                if truth and method == "logical_or":
                    return value
            else:
                nontrivial.append(value)
        if not nontrivial:
            nontrivial.append(value)
        while len(nontrivial) >= 2:
            rhs = nontrivial.pop()
            lhs = nontrivial.pop()
            nontrivial.append(self.apply_binary(method, lhs, rhs))
        return nontrivial[0]


def _leaves(values) -> list:
    out = []

    def walk(v):
        if isinstance(v, Tensor):
            out.append(v)
        elif isinstance(v, LangTuple):
            for x in v.values:
                walk(x)

    for v in values:
        walk(v)
    return out


def _same_return(a, b) -> bool:
    if a == VOID or b == VOID:
        return a == b
    return type_of(a) == type_of(b)


def _template_of(value):
    from ttc.frontend.codegen.calls import _template

    return _template(value)


def _show(t) -> str:
    if t == VOID:
        return "void"
    return str(type_of(t))
