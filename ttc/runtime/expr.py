"""A restricted Python expression evaluator for the spec's grid and check expressions.

An expression is parsed with `ast`, every node is checked against a whitelist (arithmetic, comparisons,
calls, subscripts, lambdas, comprehensions, conditional expressions, literals), names starting with `_` are
refused, and attribute access goes through `_get_attr`, which refuses private attributes, attributes of
anything but arrays, NumPy scalars, dtypes, ufuncs, numbers and containers (no frames, functions, strings or
classes), the array methods that touch files or raw memory, and NumPy functions outside `NUMPY_NAMES`. Statements, imports, assignments and builtins other than those in `BUILTINS` (which has Triton's random numbers, from philox.py, and `fp8_codes(x, 'e4m3')`,
the fp8 bytes a round-to-nearest-even saturating downcast gives) cannot be written.
"""

from __future__ import annotations

import ast
import math
import sys

import numpy as np

from ttc.runtime import minifloat, philox
from ttc.runtime.errors import SpecError

_NODES = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.keyword, ast.Name,
    ast.Load, ast.Store, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Dict,
    ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension, ast.Lambda,
    ast.arguments, ast.arg, ast.Starred,
    ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context,
)

NUMPY_NAMES = frozenset("""
abs absolute all allclose amax amin any arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin
argsort around array asarray bincount broadcast_to cbrt ceil clip concatenate copysign cos cosh count_nonzero
cumprod cumsum deg2rad diag diff divide dot dtype e einsum equal exp exp2 expand_dims expm1 eye fabs flip float_power
floor floor_divide fmax fmin fmod full full_like greater greater_equal histogram hypot identity inf isclose
isfinite isinf isnan ldexp left_shift less less_equal linspace log log10 log1p log2 logaddexp logaddexp2 logical_and
logical_not logical_or logical_xor matmul max maximum mean median min minimum mod moveaxis multiply nan nanmax
nanmin negative newaxis nonzero not_equal ones ones_like outer pad pi power prod rad2deg reciprocal remainder
repeat reshape right_shift rint roll round sign signbit sin sinh sort sqrt square squeeze stack std subtract sum
swapaxes take take_along_axis tan tanh tile trace transpose tril triu trunc unique var where zeros zeros_like
bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 bitwise_and bitwise_or
bitwise_xor invert bitwise_count iinfo finfo cumulative_sum vstack hstack dstack column_stack split array_split
convolve cross kron meshgrid indices ravel ndim shape size isscalar
""".split())

_ARRAY_DENIED = frozenset({"tofile", "dump", "dumps", "ctypes", "data", "base", "setflags", "resize", "fill",
                           "itemset", "put", "setfield", "byteswap"})


def cdiv(a, b):
    """Ceiling division, as `triton.cdiv`."""
    return -(-a // b)


BUILTINS = {
    "abs": abs, "all": all, "any": any, "bool": bool, "dict": dict, "enumerate": enumerate, "float": float,
    "int": int, "len": len, "list": list, "max": max, "min": min, "pow": pow, "range": range, "reversed": reversed,
    "round": round, "sorted": sorted, "sum": sum, "tuple": tuple, "zip": zip, "True": True, "False": False,
    "None": None, "cdiv": cdiv,
    **philox.FUNCTIONS,  # Triton's random numbers: rand(seed, offsets), randn, randint, randint4x, ...
    "fp8_codes": lambda values, fmt: minifloat.encode(values, fmt),  # fp8 bytes ('e4m3', 'e5m2'), rn + satfinite
}


class _Math:
    """`math.X` in expressions: the functions and constants of the math module."""

    def __getattr__(self, name):
        if name.startswith("_") or not hasattr(math, name):
            raise AttributeError(name)
        return getattr(math, name)


_ATTR_TYPES = (np.ndarray, np.generic, np.dtype, np.ufunc, np.iinfo, np.finfo, int, float, complex, list, tuple,
               dict, set, frozenset, _Math)


def _get_attr(obj, name: str):
    if name.startswith("_"):
        raise SpecError(f"private attribute '{name}' is not allowed")
    if obj is np:
        if name not in NUMPY_NAMES:
            raise SpecError(f"'np.{name}' is not available in spec expressions")
        return getattr(np, name)
    if not isinstance(obj, _ATTR_TYPES):
        raise SpecError(f"attributes of {type(obj).__name__} objects ('{name}') are not allowed")
    if isinstance(obj, (np.ndarray, np.generic)) and name in _ARRAY_DENIED:
        raise SpecError(f"array attribute '{name}' is not allowed")
    return getattr(obj, name)


class _Check(ast.NodeTransformer):
    def generic_visit(self, node):
        if not isinstance(node, _NODES):
            raise SpecError(f"{type(node).__name__} is not allowed")
        return super().generic_visit(node)

    def visit_Name(self, node):
        if node.id.startswith("_"):
            raise SpecError(f"name '{node.id}' is not allowed")
        return node

    def visit_arg(self, node):
        if node.arg.startswith("_"):
            raise SpecError(f"name '{node.arg}' is not allowed")
        return node

    def visit_keyword(self, node):
        if node.arg is None:
            raise SpecError("'**' arguments are not allowed")
        return self.generic_visit(node)

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            raise SpecError("assigning attributes is not allowed")
        call = ast.Call(ast.Name("_get_attr", ast.Load()), [node.value, ast.Constant(node.attr)], [])
        return ast.copy_location(call, node)


def compile_expr(text: str):
    """Check and compile `text`; a SpecError when it is not a valid, allowed expression."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise SpecError(f"invalid expression '{text}': {e.msg}") from None
    tree = ast.fix_missing_locations(_Check().visit(tree))
    return compile(tree, "<spec expression>", "eval")


def _import(name, *args, **kwargs):
    """NumPy's C code imports its helpers through the builtins of the running frame (ours): let it, and only it,
    import (user code cannot name `__import__`)."""
    if name.split(".")[0] != "numpy" and name not in sys.modules:
        raise ImportError(f"import of '{name}' is not allowed in spec expressions")
    return __import__(name, *args, **kwargs)


def evaluate(text: str, names: dict):
    """The value of expression `text` with `names` (and np, numpy, math, cdiv and a few builtins) in scope."""
    code = compile_expr(text)
    scope = {"__builtins__": {"__import__": _import}, **BUILTINS, "math": _Math(), "np": np, "numpy": np, "_get_attr": _get_attr, **names}
    try:
        return eval(code, scope)  # noqa: S307 - the tree was checked against the whitelist above
    except SpecError:
        raise
    except NameError as e:
        raise SpecError(f"unknown name '{e.name}' in '{text}'") from None
    except RecursionError:
        raise SpecError(f"'{text}' recursed too deeply") from None
    except Exception as e:  # the expression itself failed (a shape mismatch, a bad call, ...)
        raise SpecError(f"'{text}' failed: {type(e).__name__}: {e}") from None
