"""Evaluate module-level expressions of a kernel file without running it: the values of global constants
(`BLOCK = 128`, `SCALE: tl.constexpr = 0.5`, `X = tl.constexpr(4)`, `DT = tl.float16`), imports, and the
default values of `@jit` function parameters.

Only constant-foldable expressions are evaluated: literals, names bound to such values, attributes of
language namespaces, arithmetic, comparisons, boolean operators, tuples and lists, and `tl.constexpr(...)`.
Anything else is `NotStatic`: fine in host code, an error if a kernel uses it.
"""

from __future__ import annotations

import ast
import operator

from ttc.frontend.dtypes import DType
from ttc.frontend.language.namespace import CONSTEXPR, Namespace
from ttc.frontend.values import Constexpr, unwrap


class NotStatic(Exception):
    """The expression cannot be evaluated at compile time."""


_BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
_COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}


def evaluate(node: ast.expr, scope: dict):
    """The value of `node` (Python numbers, strings, None, tuples, dtypes, namespaces, constexprs)."""
    try:
        return _eval(node, scope)
    except NotStatic:
        raise
    except (ArithmeticError, TypeError, ValueError) as e:
        raise NotStatic(str(e)) from None


def _eval(node, scope):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in scope:
            raise NotStatic(f"name '{node.id}' is not defined")
        value = scope[node.id]
        if isinstance(value, NotStaticValue):
            raise NotStatic(value.reason)
        return value
    if isinstance(node, ast.Attribute):
        base = _eval(node.value, scope)
        if isinstance(base, Namespace):
            try:
                return base.lookup(node.attr)
            except AttributeError:
                raise NotStatic(f"module '{base.name}' has no attribute '{node.attr}'") from None
        raise NotStatic(f"cannot evaluate attribute '{node.attr}' at compile time")
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_eval(e, scope) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_plain(_eval(node.operand, scope)))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_plain(_eval(node.left, scope)), _plain(_eval(node.right, scope)))
    if isinstance(node, ast.BoolOp):
        values = [_plain(_eval(v, scope)) for v in node.values]
        result = values[0]
        for v in values[1:]:
            result = (result and v) if isinstance(node.op, ast.And) else (result or v)
        return result
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        return _COMPARE[type(node.ops[0])](_plain(_eval(node.left, scope)), _plain(_eval(node.comparators[0], scope)))
    if isinstance(node, ast.IfExp):
        return _eval(node.body, scope) if _plain(_eval(node.test, scope)) else _eval(node.orelse, scope)
    if isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1:
        fn = _eval(node.func, scope)
        if fn is CONSTEXPR:
            return Constexpr(_plain(_eval(node.args[0], scope)))
    raise NotStatic(f"cannot evaluate `{ast.unparse(node)}` at compile time")


def _plain(x):
    x = unwrap(x)
    if isinstance(x, (int, float, str, bool, type(None), tuple, DType)):
        return x
    raise NotStatic(f"cannot compute with {x!r} at compile time")


class NotStaticValue:
    """A global whose value is not known at compile time (a host-side object, a call's result, ...)."""

    def __init__(self, name: str, reason: str):
        self.name, self.reason = name, reason

    def __repr__(self) -> str:
        return f"<non-constant global {self.name}>"
