"""Constant folding: what an op computes when some of its operands are known constants, and the constant ops
that hold such values.

`fold(op, constants)` follows MLIR's `fold` hooks for `arith` and Triton's for `tt` ops. It never changes the IR:
given one constant attribute (or None) per operand it returns, per result, a constant attribute or an existing
SSA value that the result equals (`addi %x, 0` is `%x`), or None when nothing is known. Both scalars and tensor
constants (`dense<...>`, splat or not) fold. Integers wrap at their width in two's complement; floats are rounded
to nearest-even in their own format (f16, bf16, f32, f64) exactly as LLVM's APFloat does, since each result is
computed exactly (or in double, which rounds innocuously for these formats) and rounded once. Folds that LLVM
refuses are refused here too: division by zero, signed division overflow, shifts by the width or more, inexact
`truncf`, out-of-range `fptosi`/`fptoui`.

`ConstantTable` is MLIR's OperationFolder: it keeps one constant op per (value, type) at the start of the entry
block of the nearest isolated-from-above op (the function), hoisting and de-duplicating constants as
MLIR's canonicalizer and SCCP do.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Callable

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnknownLoc,
    i1,
)
from xdsl.ir import Attribute, Block, BlockArgument, OpResult, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove

from ttc.ir.types import elt, shape_of

if TYPE_CHECKING:
    from fractions import Fraction

# ----------------------------------------------------------------------------- numbers

# precision (mantissa bits including the implicit one) and largest exponent of each float format
_FORMATS = {Float16Type: (11, 15), BFloat16Type: (8, 127), Float32Type: (24, 127), Float64Type: (53, 1023)}


def is_foldable_float(t: Attribute) -> bool:
    return type(t) in _FORMATS


def int_width(t: Attribute) -> int:
    if t.__class__ is IntegerType:  # the usual case, known without isinstance against an abstract class
        return t.width.data
    return 64 if isinstance(t, IndexType) else t.width.data


def wrap(v: int, width: int) -> int:
    """`v` modulo 2**width, as the unsigned bit pattern."""
    return v & ((1 << width) - 1)


def to_signed(v: int, width: int) -> int:
    """The two's complement value of the low `width` bits of `v`."""
    v = wrap(v, width)
    return v - (1 << width) if v >> (width - 1) else v


def round_float(x: int | float | Fraction, t: Attribute) -> float:
    """`x` rounded to nearest-even in float type `t` (inf when it overflows), as a Python float."""
    prec, emax = _FORMATS[type(t)]
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x) or x == 0.0 or prec == 53:
            return x
        if prec in (24, 11):  # C's (float)/half conversion: one correct rounding from double
            fmt = "<f" if prec == 24 else "<e"
            try:
                return struct.unpack(fmt, struct.pack(fmt, x))[0]
            except OverflowError:
                return math.copysign(math.inf, x)
    from fractions import Fraction  # here: fractions imports decimal, 1% of a short tt-opt's start-up

    q = Fraction(x)
    if q == 0:
        return 0.0
    negative = q < 0
    n, d = abs(q.numerator), q.denominator
    e = n.bit_length() - d.bit_length()  # floor(log2 |q|) is e or e - 1
    if (n << max(-e, 0)) < (d << max(e, 0)):
        e -= 1
    e = max(e, 1 - emax)  # below the normal range the quantum stays that of the smallest exponent
    qe = e - prec + 1  # exponent of one unit in the last place
    num, den = (n, d << qe) if qe >= 0 else (n << -qe, d)
    r, rem = divmod(num, den)
    if 2 * rem > den or (2 * rem == den and r & 1):
        r += 1
    if qe + r.bit_length() - 1 > emax:
        value = math.inf
    else:
        value = math.ldexp(r, qe)
    return -value if negative else value


def float_to_bits(x: float, t: Attribute) -> int:
    """The bit pattern of `x` (already representable) in float type `t`."""
    if isinstance(t, BFloat16Type):
        return struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    fmt, ifmt = {Float16Type: ("<e", "<H"), Float32Type: ("<f", "<I"), Float64Type: ("<d", "<Q")}[type(t)]
    return struct.unpack(ifmt, struct.pack(fmt, x))[0]


def bits_to_float(b: int, t: Attribute) -> float:
    if isinstance(t, BFloat16Type):
        return struct.unpack("<f", struct.pack("<I", b << 16))[0]
    fmt, ifmt = {Float16Type: ("<e", "<H"), Float32Type: ("<f", "<I"), Float64Type: ("<d", "<Q")}[type(t)]
    return struct.unpack(fmt, struct.pack(ifmt, b))[0]


# ----------------------------------------------------------------------------- constant values


class Elements:
    """A constant's value: its type and its elements (unsigned bit patterns for integers, Python floats for
    floats), one element for a scalar or a splat, else all of them in row-major order."""

    __slots__ = ("type", "values")

    def __init__(self, type_: Attribute, values: tuple):
        self.type, self.values = type_, values

    @property
    def splat(self) -> bool:
        return len(self.values) == 1

    @property
    def element_type(self) -> Attribute:
        return elt(self.type)

    def count(self) -> int:
        return math.prod(shape_of(self.type)) if isinstance(self.type, TensorType) else 1

    def expanded(self) -> tuple:
        return self.values * self.count() if self.splat else self.values


def _int_or_float(t: Attribute) -> bool:
    return isinstance(t, (IntegerType, IndexType)) or is_foldable_float(t)


def splat_element(attr: DenseIntOrFPElementsAttr):
    """The element of a dense constant whose elements all have the same bytes, decoded alone (get_values would
    unpack every one: bf16's one by one in Python); None for any other constant, or an empty one."""
    raw, n = attr.data.data, math.prod(attr.type.get_shape())
    if n == 0 or raw != raw[:len(raw) // n] * n:
        return None
    return attr.get_element_type().unpack(raw[:len(raw) // n], 1)[0]


def elements_of(attr: Attribute | None) -> Elements | None:
    """The value of an integer, float or dense constant attribute, or None for anything else."""
    if attr is None:  # an operand no constant defines: the usual case of the folders' identity checks
        return None
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, (IntegerType, IndexType)):
        return Elements(attr.type, (wrap(attr.value.data, int_width(attr.type)),))
    if isinstance(attr, FloatAttr) and is_foldable_float(attr.type):
        return Elements(attr.type, (attr.value.data,))
    if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(attr.type, TensorType):
        t = attr.type.element_type
        if not _int_or_float(t):
            return None
        raw = attr.data.data
        n = math.prod(attr.type.get_shape())
        if n == 0:
            return None
        one = splat_element(attr)
        values = (one,) if one is not None else attr.get_values()
        if isinstance(t, (IntegerType, IndexType)):
            values = tuple(wrap(v, int_width(t)) for v in values)
        return Elements(attr.type, tuple(values))
    return None


def attr_of(type_: Attribute, values) -> Attribute:
    """The constant attribute of `type_` holding `values` (one value for a scalar or a splat)."""
    t = elt(type_)
    if isinstance(t, (IntegerType, IndexType)):
        w = int_width(t)
        values = [to_signed(v, w) for v in values]
    if isinstance(type_, TensorType):
        return DenseIntOrFPElementsAttr.from_list(type_, list(values))
    if isinstance(t, (IntegerType, IndexType)):
        return IntegerAttr(values[0], t)
    return FloatAttr(values[0], t)


def splat_value(attr: Attribute | None):
    """The single element of a scalar or splat constant (integers as unsigned bit patterns), else None."""
    e = elements_of(attr)
    return e.values[0] if e is not None and e.splat else None


def is_int_value(attr: Attribute | None, v: int) -> bool:
    """Whether `attr` is an integer scalar or splat equal to `v` (taken modulo 2**width)."""
    if attr is None:  # no constant: the folders' usual case
        return False
    e = elements_of(attr)
    return (
        e is not None and e.splat and isinstance(e.element_type, (IntegerType, IndexType))
        and e.values[0] == wrap(v, int_width(e.element_type))
    )


def is_float_value(attr: Attribute | None, v: float) -> bool:
    """Whether `attr` is a float scalar or splat equal to `v`, the sign of zero included."""
    e = elements_of(attr)
    if e is None or not e.splat or not is_foldable_float(e.element_type):
        return False
    x = e.values[0]
    return x == v and math.copysign(1.0, x) == math.copysign(1.0, v)


def defining_op(value: SSAValue) -> Operation | None:
    """`value.owner` where an op defines `value`, else None. An op's result is known by its class: isinstance
    against xDSL's IR classes (abstract classes) is a Python-level call, and the folders and patterns ask this
    of most operands."""
    if value.__class__ is OpResult:
        return value.op
    if value.__class__ is BlockArgument:  # owned by its block
        return None
    op = value.owner
    return op if isinstance(op, Operation) else None


def constant_attr(value: SSAValue) -> Attribute | None:
    """The value of `value` when an `arith.constant` defines it."""
    op = defining_op(value)
    if op is not None and op.name == "arith.constant":
        return op.properties.get("value", op.attributes.get("value"))
    return None


def is_zero(value: SSAValue) -> bool:
    """MLIR's `m_Zero() || m_AnyZeroFloat()`: an integer 0 or a float +0.0/-0.0, scalar or splat constant."""
    attr = constant_attr(value)
    return is_int_value(attr, 0) or is_float_value(attr, 0.0) or is_float_value(attr, -0.0)


def _map(type_: Attribute, fn: Callable, *args: Elements):
    """Apply `fn` elementwise (all splats: once); None if any element refuses to fold."""
    if all(a.splat for a in args):
        r = fn(*(a.values[0] for a in args))
        return None if r is None else attr_of(type_, [r])
    out = []
    for xs in zip(*(a.expanded() for a in args)):
        r = fn(*xs)
        if r is None:
            return None
        out.append(r)
    return attr_of(type_, out)


# ----------------------------------------------------------------------------- arith: integers


def _sdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def _int_ops() -> dict[str, Callable[[int, int, int], int | None]]:
    """Each integer binary op on unsigned bit patterns of width w; None refuses to fold."""

    def srem(x, y, w):
        a, b = to_signed(x, w), to_signed(y, w)
        if b == 0:
            return None
        r = abs(a) % abs(b)  # the remainder takes the dividend's sign
        return wrap(-r if a < 0 else r, w)

    def ceildivsi(x, y, w):
        a, b = to_signed(x, w), to_signed(y, w)
        if b == 0:
            return None
        if -(1 << (w - 1)) in (a, b) and a != 0:
            return None  # MLIR negates the negative operands first and gives up when that overflows
        return wrap(-((-a) // b), w)

    def sdiv_like(f):
        def op(x, y, w):
            a, b = to_signed(x, w), to_signed(y, w)
            if b == 0:
                return None
            r = f(a, b)
            if not -(1 << (w - 1)) <= r < (1 << (w - 1)):  # INT_MIN / -1
                return None
            return wrap(r, w)

        return op

    def udiv_like(f):
        return lambda x, y, w: None if y == 0 else wrap(f(x, y), w)

    def shift(f):
        return lambda x, y, w: None if y >= w else wrap(f(x, y, w), w)

    return {
        "arith.addi": lambda x, y, w: wrap(x + y, w),
        "arith.subi": lambda x, y, w: wrap(x - y, w),
        "arith.muli": lambda x, y, w: wrap(x * y, w),
        "arith.divsi": sdiv_like(_sdiv),
        "arith.floordivsi": sdiv_like(lambda a, b: a // b),
        "arith.ceildivsi": ceildivsi,
        "arith.remsi": srem,
        "arith.divui": udiv_like(lambda x, y: x // y),
        "arith.ceildivui": udiv_like(lambda x, y: -((-x) // y)),
        "arith.remui": udiv_like(lambda x, y: x % y),
        "arith.andi": lambda x, y, w: x & y,
        "arith.ori": lambda x, y, w: x | y,
        "arith.xori": lambda x, y, w: x ^ y,
        "arith.shli": shift(lambda x, y, w: x << y),
        "arith.shrui": shift(lambda x, y, w: x >> y),
        "arith.shrsi": shift(lambda x, y, w: to_signed(x, w) >> y),
        "arith.maxsi": lambda x, y, w: x if to_signed(x, w) >= to_signed(y, w) else y,
        "arith.minsi": lambda x, y, w: x if to_signed(x, w) <= to_signed(y, w) else y,
        "arith.maxui": lambda x, y, w: max(x, y),
        "arith.minui": lambda x, y, w: min(x, y),
    }


INT_BINARY = _int_ops()

CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


def compare_ints(pred: str, x: int, y: int, w: int) -> bool:
    if pred in ("eq", "ne"):
        return (x == y) == (pred == "eq")
    if pred[0] == "s":
        x, y = to_signed(x, w), to_signed(y, w)
    return {"lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}[pred[1:]]


def _pred_on_equal(pred: str) -> bool:
    return pred in ("eq", "sle", "sge", "ule", "uge")


_SHIFTS = {
    # APInt's shifts: amounts of the width or more shift everything out
    "arith.shli": lambda x, y, w: wrap(x << y, w) if y < w else 0,
    "arith.shrui": lambda x, y, w: x >> y if y < w else 0,
    "arith.shrsi": lambda x, y, w: wrap(to_signed(x, w) >> min(y, w), w),
}


def _fold_shift(type_: Attribute, name: str, w: int, ea: Elements, eb: Elements):
    """Shifting by the width or more is poison; like MLIR, fold only when the last element's amount is in
    range (the others then take APInt's saturating result)."""
    if eb.values[-1] >= w:
        return None
    fn = _SHIFTS[name]
    return _map(type_, lambda x, y: fn(x, y, w), ea, eb)


def _fold_floordivsi(type_: Attribute, w: int, ea: Elements, eb: Elements):
    """Division by zero and INT_MIN / -1 are undefined; as MLIR's folder, whether to fold is decided by the
    last element alone (an earlier division by zero yields its dividend)."""
    refused = False

    def one(x, y):
        nonlocal refused
        a, b = to_signed(x, w), to_signed(y, w)
        if b == 0:
            refused = True
            return x
        refused = a == -(1 << (w - 1)) and b == -1
        return wrap(a // b, w)

    folded = _map(type_, one, ea, eb)
    return None if refused else folded


def _def(v: SSAValue, name: str) -> Operation | None:
    op = defining_op(v)
    return op if op is not None and op.name == name else None


def _fold_int_binary(op, c):
    lhs, rhs = op._operands
    a, b = c
    name = op.name
    e = elt(op.results[0].type)
    if not isinstance(e, (IntegerType, IndexType)):
        return None
    w = int_width(e)
    same = lhs is rhs
    # identities, as MLIR's folders
    if name == "arith.addi":
        if is_int_value(b, 0):
            return lhs
        for x, y in ((lhs, rhs), (rhs, lhs)):
            sub = defining_op(x)
            if sub is not None and sub.name == "arith.subi" and sub._operands[1] is y:
                return sub._operands[0]
    elif name == "arith.subi":
        if same:
            return attr_of(op.results[0].type, [0])
        if is_int_value(b, 0):
            return lhs
        add = defining_op(lhs)
        if add is not None and add.name == "arith.addi":
            if rhs is add._operands[1]:
                return add._operands[0]
            if rhs is add._operands[0]:
                return add._operands[1]
    elif name == "arith.muli":
        if is_int_value(b, 0):
            return rhs
        if is_int_value(b, 1):
            return lhs
    elif name in ("arith.divsi", "arith.divui", "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi"):
        if is_int_value(b, 1):
            return lhs
    elif name in ("arith.remsi", "arith.remui"):
        if is_int_value(b, 1):
            return attr_of(op.results[0].type, [0])
    elif name == "arith.andi":
        if is_int_value(b, 0):
            return rhs
        if is_int_value(b, -1):
            return lhs
        for x, y in ((lhs, rhs), (rhs, lhs)):  # and(x, not(x)) -> 0
            n = _def(y, "arith.xori")
            if n is not None and n._operands[0] is x and is_int_value(constant_attr(n._operands[1]), -1):
                return attr_of(op.results[0].type, [0])
        for prev, other in ((lhs, rhs), (rhs, lhs)):  # and(a, and(a, b)) -> and(a, b)
            p = _def(prev, "arith.andi")
            if p is not None and (other is p._operands[0] or other is p._operands[1]):
                return prev
    elif name == "arith.ori":
        if is_int_value(b, 0):
            return lhs
        if is_int_value(b, -1):
            return b
        for x, y in ((lhs, rhs), (rhs, lhs)):  # or(x, not(x)) -> all ones
            n = _def(y, "arith.xori")
            if n is not None and n._operands[0] is x and is_int_value(constant_attr(n._operands[1]), -1):
                return n._operands[1]
    elif name == "arith.xori":
        if is_int_value(b, 0):
            return lhs
        if same:
            return attr_of(op.results[0].type, [0])
        for prev, other in ((lhs, rhs), (rhs, lhs)):  # xor(xor(x, a), a) -> x, in any order
            p = _def(prev, "arith.xori")
            if p is not None:
                if p._operands[1] is other:
                    return p._operands[0]
                if p._operands[0] is other:
                    return p._operands[1]
    elif name in ("arith.shli", "arith.shrui", "arith.shrsi"):
        if is_int_value(b, 0):
            return lhs
    elif name in ("arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"):
        if same:
            return lhs
        smax, smin, umax = (1 << (w - 1)) - 1, -(1 << (w - 1)), -1
        keep_rhs, keep_lhs = {
            "arith.maxsi": (smax, smin), "arith.minsi": (smin, smax), "arith.maxui": (umax, 0), "arith.minui": (0, umax),
        }[name]
        if is_int_value(b, keep_rhs):
            return rhs
        if is_int_value(b, keep_lhs):
            return lhs
    folded = None
    if a is not None and b is not None and (ea := elements_of(a)) and (eb := elements_of(b)):
        if name in _SHIFTS:
            return _fold_shift(op.results[0].type, name, w, ea, eb)
        if name == "arith.floordivsi":
            return _fold_floordivsi(op.results[0].type, w, ea, eb)
        fn = INT_BINARY[name]
        folded = _map(op.results[0].type, lambda x, y: fn(x, y, w), ea, eb)
    if folded is None and same and name in ("arith.andi", "arith.ori"):
        return lhs  # MLIR's Idempotent trait fold, tried after the op's own
    return folded


def _fold_cmpi(op, c):
    lhs, rhs = op._operands
    if c[1] is None and lhs is not rhs:  # every fold below but that of equal operands needs a constant rhs
        return None
    pred = CMPI[op.predicate.value.data]
    rt = op.results[0].type
    if lhs is rhs:
        return attr_of(rt, [int(_pred_on_equal(pred))])
    a, b = c
    if is_int_value(b, 0):
        src = defining_op(lhs)
        if (src is not None and src.name in ("arith.extsi", "arith.extui") and pred == "ne"
                and elt(src._operands[0].type) == i1):
            return src._operands[0]
        if elt(lhs.type) == i1 and pred == "ne":
            return lhs
    if is_int_value(b, 1) and elt(lhs.type) == i1 and pred == "eq":
        return lhs
    ea, eb = elements_of(a), elements_of(b)
    if ea is None or eb is None:
        return None
    w = int_width(ea.element_type)
    return _map(rt, lambda x, y: int(compare_ints(pred, x, y, w)), ea, eb)


# ----------------------------------------------------------------------------- arith: floats

CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]


def compare_floats(pred: str, x: float, y: float) -> bool:
    if pred in ("false", "true"):
        return pred == "true"
    unordered = math.isnan(x) or math.isnan(y)
    if pred in ("ord", "uno"):
        return unordered == (pred == "uno")
    rel = {"eq": x == y, "gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y, "ne": x != y}[pred[1:]]
    return (not unordered and rel) if pred[0] == "o" else (unordered or rel)


def _float_arith(x: float, y: float, fn) -> float:
    """IEEE arithmetic as APFloat does it: a NaN operand is the result, invalid operations give the default
    (positive, quiet) NaN, division by zero gives a signed infinity."""
    if math.isnan(x):
        return x
    if math.isnan(y):
        return y
    try:
        r = fn(x, y)
    except ZeroDivisionError:
        if x == 0:
            return math.nan
        return math.copysign(math.inf, math.copysign(1.0, x) * math.copysign(1.0, y))
    return math.nan if math.isnan(r) else r


def _max_min(x: float, y: float, is_max: bool, propagate_nan: bool) -> float:
    if math.isnan(x):
        return x if propagate_nan else y
    if math.isnan(y):
        return y if propagate_nan else x
    if x == y == 0:  # signed zeros: +0 is the larger
        neg_x = math.copysign(1.0, x) < 0
        return (y if neg_x else x) if is_max else (x if neg_x else y)
    return max(x, y) if is_max else min(x, y)


FLOAT_BINARY = {
    "arith.addf": lambda x, y: _float_arith(x, y, lambda a, b: a + b),
    "arith.subf": lambda x, y: _float_arith(x, y, lambda a, b: a - b),
    "arith.mulf": lambda x, y: _float_arith(x, y, lambda a, b: a * b),
    "arith.divf": lambda x, y: _float_arith(x, y, lambda a, b: a / b),
    "arith.maximumf": lambda x, y: _max_min(x, y, True, True),
    "arith.minimumf": lambda x, y: _max_min(x, y, False, True),
    "arith.maxnumf": lambda x, y: _max_min(x, y, True, False),
    "arith.minnumf": lambda x, y: _max_min(x, y, False, False),
}


def _fold_float_binary(op, c):
    lhs, rhs = op._operands
    a, b = c
    name = op.name
    t = elt(op.results[0].type)
    if name == "arith.addf" and is_float_value(b, -0.0):
        return lhs
    if name == "arith.subf" and is_float_value(b, 0.0):
        return lhs
    if name in ("arith.mulf", "arith.divf") and is_float_value(b, 1.0):
        return lhs
    if name in ("arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf"):
        if lhs is rhs:
            return rhs
        if name == "arith.maximumf" and is_float_value(b, -math.inf):
            return lhs
        if name == "arith.minimumf" and is_float_value(b, math.inf):
            return lhs
        if name in ("arith.maxnumf", "arith.minnumf"):
            v = splat_value(b)
            if isinstance(v, float) and math.isnan(v):
                return lhs
    ea, eb = elements_of(a), elements_of(b)
    if ea is None or eb is None or not is_foldable_float(t):
        return None
    fn = FLOAT_BINARY[name]
    return _map(op.results[0].type, lambda x, y: round_float(fn(x, y), t), ea, eb)


def _fold_negf(op, c):
    src = defining_op(op._operands[0])
    if src is not None and src.name == "arith.negf":
        return src._operands[0]
    e = elements_of(c[0])
    if e is None:
        return None
    return _map(op.results[0].type, lambda x: -x, e)


def _fold_cmpf(op, c):
    """Scalars only, as MLIR: tensor comparisons of constants are left alone."""
    a, b = (x if isinstance(x, FloatAttr) and is_foldable_float(x.type) else None for x in c)
    # a NaN constant decides every comparison whatever the other operand is
    if a is not None and math.isnan(a.value.data):
        b = a
    if b is not None and math.isnan(b.value.data):
        a = b
    if a is None or b is None:
        return None
    pred = CMPF[op.predicate.value.data]
    return IntegerAttr(-1 if compare_floats(pred, a.value.data, b.value.data) else 0, i1)


# ----------------------------------------------------------------------------- arith: select and casts


def _fold_select(op, c):
    cond, tv, fv = op._operands
    if tv is fv:
        return tv
    if is_int_value(c[0], 1):
        return tv
    if is_int_value(c[0], 0):
        return fv
    for poisoned, other in ((tv, fv), (fv, tv)):
        if (d := defining_op(poisoned)) is not None and d.name == "ub.poison":
            return other
    if op.results[0].type == i1 and is_int_value(c[1], 1) and is_int_value(c[2], 0):
        return cond
    cmp = defining_op(cond)
    if cmp is not None and cmp.name == "arith.cmpi":
        pred = CMPI[cmp.predicate.value.data]
        a, b = cmp._operands
        if pred in ("eq", "ne") and ((a is tv and b is fv) or (a is fv and b is tv)):
            # select(a == b, a, b) is b; select(a != b, a, b) is a
            return fv if pred == "eq" else tv
    ec, et, ef = elements_of(c[0]), elements_of(c[1]), elements_of(c[2])
    if ec is None or et is None or ef is None:
        return None
    if not isinstance(op.results[0].type, TensorType):
        return None
    return _map(op.results[0].type, lambda k, x, y: x if k else y, ec, et, ef)


def _fold_cast(op, c):
    name = op.name
    src, dst = elt(op._operands[0].type), elt(op.results[0].type)
    rt = op.results[0].type
    if name == "arith.trunci":
        inner = defining_op(op._operands[0])
        if inner is not None and inner.name in ("arith.extsi", "arith.extui"):
            if elt(inner._operands[0].type) == dst:
                return inner._operands[0]
    if name == "arith.truncf":
        inner = defining_op(op._operands[0])
        if (inner is not None and inner.name == "arith.extf" and inner._operands[0].type == rt
                and _representable_by(elt(inner._operands[0].type), elt(inner.results[0].type))):
            return inner._operands[0]
    e = elements_of(c[0])
    fn = _cast_fn(name, src, dst) if e is not None else None
    folded = _map(rt, fn, e) if fn is not None else None
    if folded is None and op._operands[0].type == rt:
        return op._operands[0]  # a cast to the same type (MLIR's CastOpInterface fold, tried after the op's own)
    return folded


def _representable_by(small: Attribute, big: Attribute) -> bool:
    if not (is_foldable_float(small) and is_foldable_float(big)):
        return False
    (ps, es), (pb, eb) = _FORMATS[type(small)], _FORMATS[type(big)]
    return ps <= pb and es <= eb


def _cast_fn(name: str, src: Attribute, dst: Attribute):
    ints = (IntegerType, IndexType)
    if name in ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui"):
        if not (isinstance(src, ints) and isinstance(dst, ints)):
            return None
        wi, wo = int_width(src), int_width(dst)
        signed = name in ("arith.extsi", "arith.index_cast")
        return lambda x: wrap(to_signed(x, wi) if signed else x, wo)
    if name in ("arith.sitofp", "arith.uitofp"):
        if not (isinstance(src, ints) and is_foldable_float(dst)):
            return None
        wi = int_width(src)
        return lambda x: round_float(to_signed(x, wi) if name == "arith.sitofp" else x, dst)
    if name in ("arith.fptosi", "arith.fptoui"):
        if not (is_foldable_float(src) and isinstance(dst, ints)):
            return None
        wo = int_width(dst)
        lo, hi = (-(1 << (wo - 1)), 1 << (wo - 1)) if name == "arith.fptosi" else (0, 1 << wo)

        def to_int(x):
            if math.isnan(x) or math.isinf(x):
                return None
            v = int(x)  # truncates toward zero, exactly
            return wrap(v, wo) if lo <= v < hi else None

        return to_int
    if name in ("arith.extf", "arith.truncf"):
        if not (is_foldable_float(src) and is_foldable_float(dst)):
            return None

        def convert(x):
            if math.isnan(x):
                # only the default quiet NaN converts without loss (other payloads may not fit, a signalling
                # NaN makes the conversion invalid)
                prec = _FORMATS[type(src)][0]
                mantissa = float_to_bits(x, src) & ((1 << (prec - 1)) - 1)
                return math.copysign(math.nan, x) if mantissa == 1 << (prec - 2) else None
            r = round_float(x, dst)
            return r if r == x else None  # only exact conversions fold

        return convert
    if name == "arith.bitcast":
        if isinstance(src, ints) and isinstance(dst, ints):
            return lambda x: x
        if isinstance(src, ints) and is_foldable_float(dst):
            return lambda x: _float_from_bits(x, dst)
        if is_foldable_float(src) and isinstance(dst, ints):
            return lambda x: float_to_bits(x, src)
        if is_foldable_float(src) and is_foldable_float(dst):
            return lambda x: _float_from_bits(float_to_bits(x, src), dst)
    return None


def _float_from_bits(b: int, t: Attribute) -> float | None:
    """The float with bit pattern `b`; None for a NaN whose payload a Python float cannot carry into `t`."""
    r = bits_to_float(b, t)
    if math.isnan(r) and float_to_bits(r, t) != b:
        return None
    return r


def _fold_absf(op, c):
    e = elements_of(c[0])
    return None if e is None else _map(op.results[0].type, lambda x: math.fabs(x), e)


# ----------------------------------------------------------------------------- tt ops


def _resized(attr: Attribute | None, type_: Attribute) -> Attribute | None:
    """A dense constant given another shape (and layout): any splat, or the same elements in order."""
    e = elements_of(attr)
    if e is None or not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    if e.splat or math.prod(shape_of(type_)) == len(e.values):
        return attr_of(type_, e.values)
    return None


def _splat_only(attr: Attribute | None, type_: Attribute) -> Attribute | None:
    e = elements_of(attr)
    if e is None or not e.splat or not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    return attr_of(type_, e.values)


def _fold_splat(op, c):
    if isinstance(c[0], FloatAttr) and _is_fp8(c[0].type):  # an fp8 zero from tt.fp_to_fp's fold
        return attr_of(op.results[0].type, [c[0].value.data])
    e = elements_of(c[0])
    if e is None or isinstance(c[0], DenseIntOrFPElementsAttr):
        return None
    return attr_of(op.results[0].type, e.values)


def _fold_broadcast(op, c):
    if op.results[0].type == op._operands[0].type:
        return op._operands[0]
    return _splat_only(c[0], op.results[0].type)


def _fold_reshape(op, c):
    if op.results[0].type == op._operands[0].type and op.properties.get("allow_reorder") is None:
        return op._operands[0]
    return _resized(c[0], op.results[0].type)


def _fold_expand_dims(op, c):
    return _resized(c[0], op.results[0].type)


def _fold_trans(op, c):
    order = list(op.order.get_values())
    if order == list(range(len(order))) and op.results[0].type == op._operands[0].type:
        return op._operands[0]
    return _splat_only(c[0], op.results[0].type)


def _fold_addptr(op, c):
    return op._operands[0] if is_int_value(c[1], 0) else None


def _fold_advance(op, c):
    """advance(ptr, [0, 0, ...]) -> ptr"""
    return op._operands[0] if all(is_int_value(a, 0) for a in c[1:]) else None


def _fold_make_range(op, c):
    start, end = op.start.value.data, op.end.value.data
    if end == start + 1:
        return attr_of(op.results[0].type, [wrap(start, 32)])
    return None


_FP8_NEG_ZERO = {Float8E4M3FNType: True, Float8E5M2Type: True, Float8E4M3FNUZType: False,
                 Float8E5M2FNUZType: False, Float8E4M3B11FNUZType: False}


def _is_fp8(t: Attribute) -> bool:
    """An fp8 format with a zero (not e8m0); the FNUZ ones have no -0.0 (APFloat's getZero gives +0.0)."""
    return type(t) in _FP8_NEG_ZERO


def _fold_fp_to_fp(op, c):
    """Triton's FpToFpOp::fold: a conversion of +0.0 or -0.0 (fp8 results too: `other=0.0` of an fp8 load)."""
    if op._operands[0].type == op.results[0].type:
        return op._operands[0]
    dst = elt(op.results[0].type)
    if not (is_foldable_float(dst) or _is_fp8(dst)):
        return None
    for zero in (0.0, -0.0):
        if is_float_value(c[0], zero):
            has_neg_zero = not _is_fp8(dst) or _FP8_NEG_ZERO[type(dst)]
            return attr_of(op.results[0].type, [zero if has_neg_zero else 0.0])
    return None


def _fold_local_alloc(op, c):
    """Triton's LocalAllocOp::fold: an immutable buffer of what was just loaded from a buffer of its type is that
    buffer."""
    if not op._operands or op.results[0].type.mutable.data:
        return None
    load = _def(op._operands[0], "ttg.local_load")
    return load._operands[0] if load is not None and load._operands[0].type == op.results[0].type else None


def _fold_constant(op, c):
    return op.properties.get("value", op.attributes.get("value"))


_FOLDERS: dict[str, Callable] = {
    **{n: _fold_int_binary for n in INT_BINARY},
    **{n: _fold_float_binary for n in FLOAT_BINARY},
    "arith.cmpi": _fold_cmpi,
    "arith.cmpf": _fold_cmpf,
    "arith.select": _fold_select,
    "arith.negf": _fold_negf,
    **{f"arith.{n}": _fold_cast for n in (
        "extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi", "fptoui", "extf", "truncf", "index_cast",
        "index_castui", "bitcast")},
    "math.absf": _fold_absf,
    "arith.constant": _fold_constant,
    "tt.splat": _fold_splat,
    "tt.broadcast": _fold_broadcast,
    "tt.reshape": _fold_reshape,
    "tt.expand_dims": _fold_expand_dims,
    "tt.trans": _fold_trans,
    "tt.addptr": _fold_addptr,
    "tt.advance": _fold_advance,
    "tt.make_range": _fold_make_range,
    # no "tt.bitcast": Triton 3.6 keeps even a same-type tt.bitcast (uint_to_uniform_float's u32 -> i32) to the TTGIR
    "tt.fp_to_fp": _fold_fp_to_fp,
    "ttg.local_alloc": _fold_local_alloc,
    "ttg.memdesc_reinterpret": lambda op, c: op._operands[0],  # to its source when the types agree
}


def fold(op: Operation, constants: list[Attribute | None]) -> list[Attribute | SSAValue] | None:
    """What `op`'s results are, given the constant value (or None) of each operand: per result a constant
    attribute or an SSA value it equals. None when the op does not fold. The IR is not changed."""
    fn = _FOLDERS.get(op.name)
    if fn is None:
        return None
    return _fold_with(fn, op, constants)


def _fold_with(fn: Callable, op: Operation, constants: list[Attribute | None]) -> list[Attribute | SSAValue] | None:
    if len(op.results) != 1:
        return None
    r = fn(op, constants)
    if r is None:
        return None
    if isinstance(r, SSAValue) and r.type != op.results[0].type:
        return None
    return [r]


def has_folder(name: str) -> bool:
    """Whether `fold` can fold some op named `name`."""
    return name in _FOLDERS


def folds_in_place(op: Operation) -> bool:
    """Whether MLIR's folder for `op` would rewrite it in place (an ext of an ext, a trunc of an ext or trunc,
    a transpose of a transpose) before trying constants; the canonicalizer applies those rewrites as patterns,
    and SCCP, which only simulates, takes such ops as overdefined, as MLIR does."""
    name = op.name
    if not op._operands:
        return False
    src = defining_op(op._operands[0])
    if src is None:
        return False
    if name in ("arith.extsi", "arith.extui"):
        return src.name == name
    if name == "arith.trunci":
        if src.name == "arith.trunci":
            return True
        return src.name in ("arith.extsi", "arith.extui") and (
            int_width(elt(src._operands[0].type)) > int_width(elt(op.results[0].type)))
    if name == "arith.truncf" and src.name == "arith.extf":
        s, mid, dst = elt(src._operands[0].type), elt(src.results[0].type), elt(op.results[0].type)
        return _representable_by(s, mid) and is_foldable_float(dst) and s.bitwidth > dst.bitwidth
    if name == "tt.trans" and src.name == "tt.trans":
        order = list(op.order.get_values())
        return not (order == list(range(len(order))) and op.results[0].type == op._operands[0].type)
    return False


def fold_in_ir(op: Operation) -> list[Attribute | SSAValue] | None:
    """`fold` with the operands' constants read from the `arith.constant` ops that define them (not read for
    the ops that have no folder: most of those the greedy driver asks about)."""
    fn = _FOLDERS.get(op.name)
    if fn is None or len(op.results) != 1:
        return None
    constants = []
    for v in op._operands:  # constant_attr, inlined: the greedy driver asks this of most ops it pops
        d = v.op if v.__class__ is OpResult else defining_op(v)
        constants.append(d.properties.get("value", d.attributes.get("value"))
                         if d is not None and d.name == "arith.constant" else None)
    return _fold_with(fn, op, constants)


# ----------------------------------------------------------------------------- constant ops

CONSTANT_OPS = ("arith.constant", "ub.poison")


def is_constant_op(op: Operation) -> bool:
    return op.name in CONSTANT_OPS and len(op.results) == 1


def make_constant(attr: Attribute, type_: Attribute) -> Operation:
    """An `arith.constant` (a `ub.poison` for the poison attribute) of `type_` holding `attr`."""
    from xdsl.dialects.arith import ConstantOp
    from xdsl.dialects.ub import PoisonAttr, PoisonOp

    if isinstance(attr, PoisonAttr):
        return PoisonOp.create(result_types=[type_], properties={"value": attr})
    return ConstantOp(attr, type_)


def insertion_region(block: Block) -> Region:
    """Where constants used in `block` live: the body of the nearest isolated-from-above op (or top-level op)."""
    region = block.parent
    while True:
        parent = region.parent_op()
        if parent is None or parent.has_trait(IsolatedFromAbove) or parent.parent is None:
            return region
        region = parent.parent.parent


class ConstantTable:
    """MLIR's OperationFolder: the constants of each insertion region, unique per (op, value, type) and kept
    at the start of the region's entry block. `listener` (optional) hears of each replacement and erasure
    the table makes: `replaced(op, value)`, `erased(op)`, `inserted(op)`; `moved` says whether the table moved
    a constant or reset its location, which no listener hears of."""

    def __init__(self, listener=None):
        self.scopes: dict[Region, dict] = {}
        self.owned: dict[Operation, tuple[Region, tuple]] = {}
        self.listener = listener
        self.moved = False

    @staticmethod
    def _key(op: Operation) -> tuple:
        value = op.properties.get("value", op.attributes.get("value"))
        return (op.name, value, op.results[0].type)

    def insert_known(self, op: Operation) -> bool:
        """Register an existing constant op, hoisting it; False when it duplicated one already known (it is
        then replaced by that one and erased)."""
        block = op.parent
        if op in self.owned:
            if block.first_op is not op and op.prev_op not in self.owned:
                _move_to_front(op, block)
                op.location = UnknownLoc()
                self.moved = True
            return True
        region = insertion_region(block)
        table = self.scopes.setdefault(region, {})
        key = self._key(op)
        existing = table.get(key)
        if existing is not None:
            if self.listener:
                self.listener.replaced(op, existing.results[0])
            op.results[0].replace_all_uses_with(existing.results[0])
            if self.listener:
                self.listener.erased(op)
            op.detach()
            op.erase()
            existing.location = UnknownLoc()
            self.moved = True
            return False
        entry = region.blocks.first
        if block is not entry:
            _move_to_front(op, entry)
            op.location = UnknownLoc()
            self.moved = True
        elif entry.first_op is not op and op.prev_op not in self.owned:
            _move_to_front(op, entry)
            self.moved = True
        table[key] = op
        self.owned[op] = (region, key)
        return True

    def get_or_create(self, block: Block, attr: Attribute, type_: Attribute) -> SSAValue:
        """The constant `attr` of `type_` usable in `block`: an existing one, or a new constant op at the
        start of the insertion region's entry block."""
        region = insertion_region(block)
        table = self.scopes.setdefault(region, {})
        op = make_constant(attr, type_)
        key = (op.name, attr, type_)
        existing = table.get(key)
        if existing is not None:
            existing.location = UnknownLoc()
            self.moved = True
            return existing.results[0]
        entry = region.blocks.first
        if entry.first_op is None:
            entry.add_op(op)
        else:
            entry.insert_op_before(op, entry.first_op)
        table[key] = op
        self.owned[op] = (region, key)
        if self.listener:
            self.listener.inserted(op)
        return op.results[0]

    def forget(self, op: Operation) -> None:
        """`op` is about to be erased."""
        entry = self.owned.pop(op, None)
        if entry is not None:
            region, key = entry
            if self.scopes.get(region, {}).get(key) is op:
                del self.scopes[region][key]


def _move_to_front(op: Operation, block: Block) -> None:
    op.detach()
    if block.first_op is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, block.first_op)
