"""Python operators in kernel code: `a + b`, `a < b`, `-a`, `a and b`, ... on tensors (Triton's tensor
operator methods, including which operand is converted to a constant first) and on compile-time values
(folded in Python).
"""

from __future__ import annotations

import ast
import operator

from ttc.frontend.dtypes import DType
from ttc.frontend.errors import LanguageError, UnsupportedError
from ttc.frontend.values import Constexpr, LangTuple, Tensor, unwrap

BINARY_METHODS = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv", ast.Mod: "mod",
    ast.Pow: "pow", ast.LShift: "lshift", ast.RShift: "rshift", ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor",
}
COMPARE_METHODS = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
_PY_OPERATORS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "lshift": operator.lshift,
    "rshift": operator.rshift, "and": operator.and_, "or": operator.or_, "xor": operator.xor, "eq": operator.eq,
    "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
    "logical_and": lambda a, b: a and b, "logical_or": lambda a, b: a or b,
}
_SYMBOLS = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**", "lshift": "<<",
    "rshift": ">>", "and": "&", "or": "|", "xor": "^", "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">",
    "ge": ">=", "logical_and": "and", "logical_or": "or",
}


class OperatorsMixin:
    def tensor_binary(self, method: str, self_: Tensor, other, reverse: bool):
        """`self_ <op> other` (or `other <op> self_` when `reverse`), as Triton's tensor methods do it."""
        s = self.semantic
        lhs, rhs = (other, self_) if reverse else (self_, other)
        if method in ("add", "sub", "mul"):
            return getattr(s, method)(unwrap(lhs), unwrap(rhs), True)
        if method in ("truediv", "floordiv", "mod"):
            return getattr(s, method)(unwrap(lhs), unwrap(rhs))
        if method in ("and", "or", "xor"):
            return getattr(s, method + "_")(unwrap(lhs), unwrap(rhs))
        if method == "lshift":
            return s.shl(unwrap(lhs), unwrap(rhs))
        if method == "rshift":
            shift = s.ashr if self_.dtype.is_int_signed() else s.lshr
            return shift(unwrap(lhs), unwrap(rhs))
        if method in COMPARE_METHODS.values():
            other = s.to_tensor(other)
            lhs, rhs = (other, self_) if reverse else (self_, other)
            return {"eq": s.equal, "ne": s.not_equal, "lt": s.less_than, "le": s.less_equal, "gt": s.greater_than,
                    "ge": s.greater_equal}[method](lhs, rhs)
        if method in ("logical_and", "logical_or"):
            other = s.to_tensor(other)
            lhs, rhs = (other, self_) if reverse else (self_, other)
            return getattr(s, method)(lhs, rhs)
        raise UnsupportedError(f"operator '{_SYMBOLS.get(method, method)}' is not supported on tensors")

    def apply_binary(self, method: str, lhs, rhs):
        if isinstance(lhs, Tensor):
            return self.tensor_binary(method, lhs, rhs, reverse=False)
        if isinstance(rhs, Tensor):
            # logical and/or have no reflected form: the tensor method runs with the operands swapped
            return self.tensor_binary(method, rhs, lhs, reverse=method not in ("logical_and", "logical_or"))
        if not isinstance(lhs, (Constexpr, LangTuple)) and isinstance(rhs, Constexpr):
            lhs = Constexpr(lhs)
        if isinstance(lhs, Constexpr):
            return Constexpr(self._fold(method, lhs.value, unwrap(rhs)))
        if isinstance(lhs, LangTuple):
            return self._tuple_binary(method, lhs, rhs)
        if isinstance(lhs, DType) and method in ("eq", "ne"):
            return Constexpr((lhs == unwrap(rhs)) == (method == "eq"))
        raise LanguageError(f"unsupported operand types for {_SYMBOLS.get(method, method)}: {_kind(lhs)} and {_kind(rhs)}")

    def _fold(self, method: str, a, b):
        try:
            return _PY_OPERATORS[method](a, b)
        except ZeroDivisionError:
            raise LanguageError(f"division by zero in compile-time expression ({a!r} {_SYMBOLS[method]} {b!r})") from None
        except TypeError:
            raise LanguageError(
                f"unsupported operand types for {_SYMBOLS[method]}: {_kind(a)} and {_kind(b)}"
            ) from None

    def _tuple_binary(self, method: str, lhs: LangTuple, rhs):
        if method == "add" and isinstance(rhs, LangTuple):
            return LangTuple(lhs.values + rhs.values)
        if method == "mul" and isinstance(rhs, Constexpr) and isinstance(rhs.value, int):
            return LangTuple(lhs.values * rhs.value)
        if method in ("eq", "ne") and isinstance(rhs, LangTuple):
            same = len(lhs) == len(rhs) and all(unwrap(a) == unwrap(b) for a, b in zip(lhs.values, rhs.values))
            return Constexpr(same == (method == "eq"))
        raise LanguageError(f"unsupported operand types for {_SYMBOLS.get(method, method)}: tuple and {_kind(rhs)}")

    def apply_unary(self, op: ast.unaryop, operand):
        s = self.semantic
        if isinstance(operand, Tensor):
            if isinstance(op, ast.USub):
                return s.minus(operand)
            if isinstance(op, ast.Invert):
                return s.invert(operand)
            if isinstance(op, ast.Not):
                return s.not_(operand)
            raise UnsupportedError("unary '+' is not supported on tensors")
        value = unwrap(operand)
        try:
            if isinstance(op, ast.Not):
                return Constexpr(not value)
            if isinstance(op, ast.USub):
                return Constexpr(-value)
            if isinstance(op, ast.UAdd):
                return Constexpr(+value)
            return Constexpr(~value)
        except TypeError:
            raise LanguageError(f"bad operand type for unary {type(op).__name__}: {_kind(operand)}") from None


def _kind(x) -> str:
    if isinstance(x, Tensor):
        return f"tensor<{x.type}>"
    x = unwrap(x)
    return type(x).__name__ if not isinstance(x, DType) else "dtype"
