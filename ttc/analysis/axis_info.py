"""Axis analysis: for every integer and pointer value (scalar or tensor), per dimension, its contiguity,
divisibility and constancy, and its constant value when known; Triton's AxisInfoAnalysis.

- contiguity[d]: the values come in runs of this many consecutive integers (+1 each) along dimension d;
- divisibility[d]: the first value of each run is a multiple of this power of two (for pointers: in bytes);
- constancy[d]: the values come in runs of this many equal values along dimension d.

Scalars have one dimension. Facts start from function arguments (`tt.divisibility`, `tt.contiguity`,
`tt.constancy` argument attributes; what call sites pass, for called functions), constants and `tt.make_range`,
and flow through splat, broadcast, expand_dims, addptr, add/sub/mul/div/rem, shifts, min/max, compares,
selects, loads and casts; `tt.divisibility`/`tt.contiguity`/`tt.constancy` attributes on an op (what
`tl.multiple_of` / `tl.max_contiguous` leave) override what is inferred for its result. Loop-carried values of
`scf.for`/`scf.while` and results of `scf.if` join (gcd) what flows in from every edge, iterated to a fixed
point from an optimistic start, as MLIR's sparse data-flow framework does. Anything else is pessimistic (1s).

`AxisInfoAnalysis(module)` runs over every function (callers before callees); `.get(value)` returns the
`AxisInfo` of a value. `access_width` and `mask_width` turn the facts into the width of vector accesses (Triton's
getVectorSize), for the global-memory lowering and the pipeliner, which must agree on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ttc.ir.types import PointerType, elt

MAX_DIVISOR = 1 << 62  # Triton's highestPowOf2Divisor<int64_t>(0): "unknown, as large as can be"


def _gcd(*xs: int) -> int:
    g = 0
    for x in xs:
        g = math.gcd(g, x)
    return g


def _i64(x: int) -> int:
    """`x` wrapped to a signed 64-bit integer, as Triton computes constants."""
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


def pow2_divisor(n: int) -> int:
    """Triton's highestPowOf2Divisor<int64_t>: the largest power of two dividing `n` (MAX_DIVISOR for 0 and
    for the most negative 64-bit integer)."""
    n = _i64(n)
    if n == 0 or n == -(1 << 63):
        return MAX_DIVISOR
    return n & -n


def _mul_div(a: int, b: int) -> int:
    """Triton's multiplyDivisor: a * b, saturating at MAX_DIVISOR."""
    if b and a > MAX_DIVISOR // b:
        return MAX_DIVISOR
    return a * b


@dataclass(frozen=True)
class AxisInfo:
    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]
    constant: int | None = None

    @property
    def rank(self) -> int:
        return len(self.contiguity)

    def __str__(self) -> str:
        c = "" if self.constant is None else f", constant_value = {self.constant}"
        return (f"contiguity = {list(self.contiguity)}, divisibility = {list(self.divisibility)}, "
                f"constancy = {list(self.constancy)}{c}")


def _filled(rank: int, c: int, d: int, k: int, constant=None) -> AxisInfo:
    return AxisInfo((c,) * rank, (d,) * rank, (k,) * rank, constant)


def _div_from_contiguity(a: AxisInfo, b: AxisInfo, d: int) -> int:
    """Triton's getDivisibilityFromContiguity: joining runs of different lengths may start a run in the middle
    of another, so the divisibility is bounded by the run lengths too."""
    ca, cb = a.contiguity[d], b.contiguity[d]
    if ca == cb or ca == MAX_DIVISOR or cb == MAX_DIVISOR:
        return _gcd(a.divisibility[d], b.divisibility[d])
    return _gcd(a.divisibility[d], b.divisibility[d], ca, cb)


def join(a: AxisInfo | None, b: AxisInfo | None) -> AxisInfo | None:
    """The facts that hold for a value that may be either `a` or `b` (None: no information yet)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if a.rank != b.rank:
        return a if a.rank < b.rank else b
    r = range(a.rank)
    const = a.constant if a.constant is not None and a.constant == b.constant else None
    return AxisInfo(
        tuple(_gcd(a.contiguity[d], b.contiguity[d]) for d in r),
        tuple(_div_from_contiguity(a, b, d) for d in r),
        tuple(_gcd(a.constancy[d], b.constancy[d]) for d in r),
        const,
    )


def rank_of_type(t: Attribute) -> int:
    if isinstance(t, TensorType):
        return len(t.get_shape())
    if isinstance(t, PointerType) and isinstance(t.pointee, TensorType):
        return len(t.pointee.get_shape())
    return 1


def _shape(v: SSAValue) -> tuple[int, ...]:
    t = v.type
    return tuple(t.get_shape()) if isinstance(t, TensorType) else (1,)


def _hint(attr: Attribute | None) -> tuple[int, ...] | None:
    """A `tt.divisibility`-style hint: an integer, or a dense vector of them."""
    if isinstance(attr, IntegerAttr):
        return (attr.value.data & ((1 << 64) - 1),)
    if isinstance(attr, DenseIntOrFPElementsAttr):
        vals = attr.get_values()
        return tuple(int(v) for v in vals)
    if isinstance(attr, ArrayAttr):
        return tuple(a.value.data for a in attr.data if isinstance(a, IntegerAttr))
    return None


def _with_hints(info: AxisInfo, attrs) -> AxisInfo:
    if "tt.contiguity" not in attrs and "tt.divisibility" not in attrs and "tt.constancy" not in attrs:
        return info  # most ops carry none
    contig, div, const = info.contiguity, info.divisibility, info.constancy
    rank = len(contig)

    def hint(name):  # an integer hint on a tensor holds for every dimension (Triton, for function arguments)
        h = _hint(attrs.get(name))
        return h * rank if h is not None and len(h) == 1 else h

    h = hint("tt.contiguity")
    if h is not None:
        contig = h
    h = hint("tt.divisibility")
    if h is not None:
        div = h
    h = hint("tt.constancy")
    if h is not None:
        const = h
    if (contig, div, const) == (info.contiguity, info.divisibility, info.constancy):
        return info
    return AxisInfo(contig, div, const, info.constant)


def _zext(value: int, t: Attribute) -> int:
    e = elt(t)
    width = 64 if isinstance(e, IndexType) else e.width.data if isinstance(e, IntegerType) else 64
    return value & ((1 << width) - 1)


# ----------------------------------------------------------------------------- transfer functions


def _binary(op, a: AxisInfo, b: AxisInfo, contiguity, divisibility, constancy, constant) -> AxisInfo:
    """Triton's BinaryOpVisitorImpl: a known constant result overrides the per-dimension rules."""
    c = constant(a, b)
    rank = a.rank
    if c is not None:
        c = _i64(c)
        t = op.results[0].type
        return AxisInfo((1,) * rank, (pow2_divisor(c),) * rank,
                        tuple(t.get_shape()) if isinstance(t, TensorType) else (1,) * rank, c)
    return AxisInfo(
        tuple(contiguity(a, b, d) for d in range(rank)),
        tuple(divisibility(a, b, d) for d in range(rank)),
        tuple(constancy(a, b, d) for d in range(rank)),
        None,
    )


def _both_const(a, b):
    return a.constant is not None and b.constant is not None


def _add_sub(op: Operation, a: AxisInfo, b: AxisInfo) -> AxisInfo:
    name = op.name
    elem_size = 1
    if name == "tt.addptr":
        from ttc.ir.layout_utils import pointee_bitwidth

        elem_size = max(1, pointee_bitwidth(op.operands[0].type) // 8)

    def contiguity(a, b, d):
        if name == "arith.subi":
            return _gcd(a.contiguity[d], b.constancy[d])
        return max(_gcd(a.constancy[d], b.contiguity[d]), _gcd(a.contiguity[d], b.constancy[d]))

    def divisibility(a, b, d):
        rhs = b.divisibility[d]
        if name == "tt.addptr":
            rhs = _mul_div(rhs, elem_size)
        return _gcd(a.divisibility[d], rhs)

    def constancy(a, b, d):
        return _gcd(a.constancy[d], b.constancy[d])

    def constant(a, b):
        if not _both_const(a, b):
            return None
        if name == "arith.addi":
            return a.constant + b.constant
        if name == "arith.subi":
            return a.constant - b.constant
        return a.constant + b.constant * elem_size

    return _binary(op, a, b, contiguity, divisibility, constancy, constant)


def _muli(op, a, b) -> AxisInfo:
    def contiguity(a, b, d):
        lc = a.contiguity[d] if b.constant == 1 else 1
        rc = b.contiguity[d] if a.constant == 1 else 1
        return max(lc, rc)

    def divisibility(a, b, d):
        ld = a.divisibility[d]
        if a.contiguity[d] > 1 and b.constant != 1:
            ld = 1
        rd = b.divisibility[d]
        if b.contiguity[d] > 1 and a.constant != 1:
            rd = 1
        return _mul_div(ld, rd)

    def constancy(a, b, d):
        return _gcd(a.constancy[d], b.constancy[d])

    def constant(a, b):
        if _both_const(a, b):
            return a.constant * b.constant
        return 0 if 0 in (a.constant, b.constant) else None

    return _binary(op, a, b, contiguity, divisibility, constancy, constant)


def _div(op, a, b) -> AxisInfo:
    shape = _shape(op.results[0])
    is_tensor = isinstance(op.results[0].type, TensorType)

    def contiguity(a, b, d):
        return a.contiguity[d] if b.constant == 1 else 1

    def constancy(a, b, d):
        if not is_tensor:
            return 1
        k = _gcd(a.constancy[d], b.constancy[d])
        if a.contiguity[d] == shape[d] and b.constancy[d] == shape[d]:
            k = max(k, _gcd(a.contiguity[d], a.divisibility[d], b.divisibility[d]))
        return k

    def divisibility(a, b, d):
        if a.constant == 0:
            return a.divisibility[d]
        if b.constant == 1:
            return a.divisibility[d]
        if b.constant is not None and b.constant != 0 and (abs(b.constant) & (abs(b.constant) - 1)) == 0 \
                and a.contiguity[d] == 1:
            return max(1, a.divisibility[d] // abs(b.constant))
        return 1

    def constant(a, b):
        if _both_const(a, b) and b.constant != 0:
            q = abs(a.constant) // abs(b.constant)  # C++ division truncates toward zero
            return q if (a.constant < 0) == (b.constant < 0) else -q
        return None

    return _binary(op, a, b, contiguity, divisibility, constancy, constant)


def _rem(op, a, b) -> AxisInfo:
    shape = _shape(op.results[0])
    is_tensor = isinstance(op.results[0].type, TensorType)

    def contiguity(a, b, d):
        if not is_tensor:
            return 1
        if a.contiguity[d] == shape[d] and b.constancy[d] == shape[d]:
            return _gcd(a.contiguity[d], a.divisibility[d], b.divisibility[d])
        return 1

    def divisibility(a, b, d):
        if b.constancy[d] > 1:
            return _gcd(a.divisibility[d], b.divisibility[d])
        return 1

    def constancy(a, b, d):
        if not is_tensor:
            return 1
        if b.constant == 1:
            return shape[d]
        return _gcd(a.constancy[d], b.constancy[d])

    def constant(a, b):
        if _both_const(a, b) and b.constant != 0:
            r = abs(a.constant) % abs(b.constant)  # C++ remainder: the dividend's sign
            return -r if a.constant < 0 else r
        if b.constant == 1:
            return 0
        return None

    return _binary(op, a, b, contiguity, divisibility, constancy, constant)


def _logical(op, a, b) -> AxisInfo:
    name = op.name

    def constant(a, b):
        if not _both_const(a, b):
            return None
        if name == "arith.andi":
            return a.constant & b.constant
        if name == "arith.ori":
            return a.constant | b.constant
        return a.constant ^ b.constant

    return _binary(op, a, b, lambda a, b, d: 1, lambda a, b, d: 1,
                   lambda a, b, d: _gcd(a.constancy[d], b.constancy[d]), constant)


def _shl(op, a, b) -> AxisInfo:
    def contiguity(a, b, d):
        return a.contiguity[d] if b.constant == 0 else 1

    def divisibility(a, b, d):
        shift = b.constant if b.constant is not None else 0
        ld = a.divisibility[d]
        if a.contiguity[d] > 1 and shift:
            ld = 1
        if shift < 0 or shift >= 63:
            return 1
        return _mul_div(ld, 1 << shift)

    def constant(a, b):
        if _both_const(a, b) and 0 <= b.constant < 64:
            return a.constant << b.constant
        return None

    return _binary(op, a, b, contiguity, divisibility, lambda a, b, d: _gcd(a.constancy[d], b.constancy[d]),
                   constant)


def _shr(op, a, b) -> AxisInfo:
    def contiguity(a, b, d):
        return a.contiguity[d] if b.constant == 0 else 1

    def divisibility(a, b, d):
        if b.constant is None:
            return 1
        shift = b.constant
        ld = a.divisibility[d]
        if a.contiguity[d] > 1 and shift:
            ld = 1
        if shift < 0 or shift >= 63:
            return 1
        return max(1, ld // (1 << shift))

    def constant(a, b):
        if _both_const(a, b) and 0 <= b.constant < 64:
            return a.constant >> b.constant
        return None

    return _binary(op, a, b, contiguity, divisibility, lambda a, b, d: _gcd(a.constancy[d], b.constancy[d]),
                   constant)


def _max_min(op, a, b) -> AxisInfo:
    rank = a.rank
    if _both_const(a, b):
        if op.name in ("arith.maxsi", "arith.maxui"):
            c = max(a.constant, b.constant)
        else:
            c = min(a.constant, b.constant)
        t = op.results[0].type
        return AxisInfo((1,) * rank, (pow2_divisor(c),) * rank,
                        tuple(t.get_shape()) if isinstance(t, TensorType) else (1,) * rank, c)
    return AxisInfo(
        tuple(_gcd(a.contiguity[d], b.contiguity[d]) for d in range(rank)),
        tuple(_div_from_contiguity(a, b, d) for d in range(rank)),
        tuple(_gcd(a.constancy[d], b.constancy[d]) for d in range(rank)),
        None,
    )


_CMP = {
    0: lambda x, y: x == y, 1: lambda x, y: x != y, 2: lambda x, y: x < y, 3: lambda x, y: x <= y,
    4: lambda x, y: x > y, 5: lambda x, y: x >= y,
}


def _cmpi(op, a, b) -> AxisInfo | None:
    if not isinstance(op.results[0].type, TensorType):
        return None
    shape = _shape(op.results[0])
    pred = op.predicate.value.data
    rank = len(shape)
    contiguity, divisibility, constancy = [], [], []
    constant = None
    for d in range(rank):
        if _both_const(a, b):
            k = shape[d]
            if pred in _CMP:
                constant = 1 if _CMP[pred](a.constant, b.constant) else 0
            else:  # unsigned predicates: compare the bit patterns
                ux, uy = a.constant & ((1 << 64) - 1), b.constant & ((1 << 64) - 1)
                constant = 1 if _CMP[pred - 4](ux, uy) else 0
        else:
            k = _gcd(a.constancy[d], b.constancy[d])
            gt_or_le = pred in (4, 8, 3, 7)
            lt_or_ge = pred in (2, 6, 5, 9)
            if gt_or_le and a.constancy[d] == shape[d]:
                k = max(k, _gcd(b.contiguity[d], a.divisibility[d], b.divisibility[d]))
            elif lt_or_ge and b.constancy[d] == shape[d]:
                k = max(k, _gcd(a.contiguity[d], a.divisibility[d], b.divisibility[d]))
        constancy.append(k)
        divisibility.append(1)
        contiguity.append(1)
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), constant)


def _select(op, cond: AxisInfo, a: AxisInfo, b: AxisInfo) -> AxisInfo:
    rank = a.rank
    if cond.constant is not None:
        return b if cond.constant == 0 else a
    i1_cond = not isinstance(op.operands[0].type, TensorType)
    contiguity, divisibility, constancy = [], [], []
    for d in range(rank):
        if i1_cond:
            constancy.append(_gcd(a.constancy[d], b.constancy[d]))
            contiguity.append(_gcd(a.contiguity[d], b.contiguity[d]))
        else:
            constancy.append(_gcd(a.constancy[d], b.constancy[d], cond.constancy[d]))
            contiguity.append(_gcd(a.contiguity[d], b.contiguity[d], cond.constancy[d]))
        divisibility.append(_div_from_contiguity(a, b, d))
    const = a.constant if a.constant is not None and a.constant == b.constant else None
    if const is not None:
        t = op.results[0].type
        constancy = list(t.get_shape()) if isinstance(t, TensorType) else [1] * rank
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), const)


def _constant(op) -> AxisInfo | None:
    from ttc.ir.fold import elements_of

    value = op.properties.get("value", op.attributes.get("value"))
    t = op.results[0].type
    if isinstance(value, IntegerAttr):
        v = _zext(value.value.data, t)
        return AxisInfo((1,), (pow2_divisor(v),), (1,), v)
    # integer splats only: a float tensor's elements are not decoded (bf16's one by one in Python)
    e = elements_of(value) if isinstance(t, TensorType) and isinstance(elt(t), (IntegerType, IndexType)) else None
    if e is not None and e.splat:
        v = _zext(int(e.values[0]), t)
        shape = tuple(t.get_shape())
        return AxisInfo((1,) * len(shape), (pow2_divisor(v),) * len(shape), shape, v)
    return None


def _splat(op, a: AxisInfo) -> AxisInfo:
    shape = _shape(op.results[0])
    return AxisInfo((1,) * len(shape), (a.divisibility[0],) * len(shape), shape, a.constant)


def _expand_dims(op, a: AxisInfo) -> AxisInfo:
    axis = op.axis.value.data
    if a.constant is not None:
        new_div = pow2_divisor(a.constant)
    else:
        new_div = 0
        for d in range(a.rank):
            new_div = _gcd(new_div, 1 if a.contiguity[d] > 1 else a.divisibility[d])
        new_div = new_div or 1
    contig, div, const = list(a.contiguity), list(a.divisibility), list(a.constancy)
    contig.insert(axis, 1)
    div.insert(axis, new_div)
    const.insert(axis, 1)
    return AxisInfo(tuple(contig), tuple(div), tuple(const), a.constant)


def _broadcast(op, a: AxisInfo) -> AxisInfo:
    src = _shape(op.operands[0])
    dst = _shape(op.results[0])
    r = range(len(dst))
    return AxisInfo(
        tuple(1 if src[d] == 1 else a.contiguity[d] for d in r),
        tuple(a.divisibility[d] for d in r),
        tuple(dst[d] if src[d] == 1 else a.constancy[d] for d in r),
        a.constant,
    )


def _load(op, ptr: AxisInfo, mask: AxisInfo | None) -> AxisInfo:
    r = range(ptr.rank)
    return AxisInfo(
        (1,) * ptr.rank,
        (1,) * ptr.rank,
        tuple(_gcd(ptr.constancy[d], mask.constancy[d] if mask is not None else 0) for d in r),
    )


_CASTS = ("arith.extsi", "arith.extui", "arith.trunci", "ttg.convert_layout", "tt.bitcast",
          "builtin.unrealized_conversion_cast")
_ADD_SUB = ("tt.addptr", "arith.addi", "arith.subi")
_BINARY = {
    **{n: _add_sub for n in _ADD_SUB},
    "arith.muli": _muli,
    "arith.divsi": _div, "arith.divui": _div,
    "arith.remsi": _rem, "arith.remui": _rem,
    "arith.andi": _logical, "arith.ori": _logical, "arith.xori": _logical,
    "arith.shli": _shl, "arith.shrui": _shr, "arith.shrsi": _shr,
    "arith.maxsi": _max_min, "arith.maxui": _max_min, "arith.minsi": _max_min, "arith.minui": _max_min,
    "arith.cmpi": _cmpi,
}


# ----------------------------------------------------------------------------- the analysis


class AxisInfoAnalysis:
    """Axis facts for every value of a module (or of one function)."""

    def __init__(self, root: Operation):
        self.info: dict[SSAValue, AxisInfo] = {}
        self.call_args: dict[str, list[list[AxisInfo]]] = {}
        # while the analysis runs (the IR does not change): each value's pessimistic facts, and each op's last
        # operand facts with what its transfer function made of them, so that a sweep recomputes an op only when
        # an operand's facts changed (the objects in `info` are replaced, never mutated)
        self._pess: dict[SSAValue, AxisInfo] = {}
        self._memo: dict[Operation, tuple[list[AxisInfo], AxisInfo | None]] = {}
        funcs = [op for op in root.walk() if op.name == "tt.func"]
        calls = {f: [op for op in f.walk() if op.name == "tt.call"] for f in funcs}
        for f in self._callers_first(funcs, calls):
            self._run_function(f, calls[f])
        del self._pess, self._memo

    # ---- queries

    def get(self, value: SSAValue) -> AxisInfo:
        info = self.info.get(value)
        if info is None:
            info = self._pessimistic(value)
        return info

    def contiguity(self, value: SSAValue) -> tuple[int, ...]:
        return self.get(value).contiguity

    def divisibility(self, value: SSAValue) -> tuple[int, ...]:
        return self.get(value).divisibility

    def constancy(self, value: SSAValue) -> tuple[int, ...]:
        return self.get(value).constancy

    # ---- functions

    @staticmethod
    def _callers_first(funcs: list[Operation], calls: dict[Operation, list[Operation]]) -> list[Operation]:
        by_name = {f.sym_name.data: f for f in funcs}
        callees: dict[Operation, list[Operation]] = {f: [] for f in funcs}
        for f in funcs:
            for op in calls[f]:
                g = by_name.get(op.callee.root_reference.data)
                if g is not None:
                    callees[f].append(g)
        order: list[Operation] = []
        seen: set = set()

        def visit(f):
            if f in seen:
                return
            seen.add(f)
            for g in callees[f]:
                visit(g)
            order.append(f)

        for f in funcs:
            visit(f)
        return list(reversed(order))

    def _arg_info(self, func: Operation, index: int, value: SSAValue) -> AxisInfo:
        rank = rank_of_type(value.type)
        info = _filled(rank, 1, 1, 1)
        attrs = {}
        if func.arg_attrs is not None:
            attrs = dict(func.arg_attrs.data[index].data)
        calls = self.call_args.get(func.sym_name.data)
        if calls and rank == 1:
            # Triton's ModuleAxisInfoAnalysis::update: the gcd of what every call site passes
            c = d = k = 0
            for args in calls:
                a = args[index]
                c, d, k = _gcd(c, a.contiguity[0]), _gcd(d, a.divisibility[0]), _gcd(k, a.constancy[0])
            info = AxisInfo((c,), (d,), (k,))
        return _with_hints(info, attrs)

    def _run_function(self, func: Operation, calls: list[Operation]) -> None:
        body = func.body.blocks.first
        if body is None:
            return
        for i, a in enumerate(body.args):
            self.info[a] = self._arg_info(func, i, a)
        changed = True
        sweeps = 0
        while changed and sweeps < 100:
            sweeps += 1
            self._changed = False
            self._region(func.body)
            changed = self._changed
        for op in calls:
            self.call_args.setdefault(op.callee.root_reference.data, []).append([self.get(v) for v in op.operands])

    def _set(self, value: SSAValue, info: AxisInfo | None) -> None:
        if info is None:
            return
        old = self.info.get(value)
        if old is info:  # join(a, a) is a
            return
        new = join(old, info)
        if new != old:
            self.info[value] = new
            self._changed = True

    def _pessimistic(self, value: SSAValue) -> AxisInfo:
        """Triton's getPessimisticValueState: 1s, or "unknown" (maximal) for values of control-flow ops, with
        any hints the defining op carries."""
        rank = rank_of_type(value.type)
        owner = value.owner
        if isinstance(owner, Block):
            parent = owner.parent_op()
            if owner is owner.parent.blocks.first and parent is not None and parent.name in (
                "scf.for", "scf.if", "scf.while"
            ):
                return _filled(rank, MAX_DIVISOR, MAX_DIVISOR, MAX_DIVISOR)
            return _filled(rank, 1, 1, 1)
        info = _filled(rank, 1, 1, 1)
        if owner.name in ("scf.for", "scf.if", "scf.while"):
            info = _filled(rank, MAX_DIVISOR, MAX_DIVISOR, MAX_DIVISOR)
        return _with_hints(info, owner.attributes)

    def _operand(self, v: SSAValue) -> AxisInfo:
        info = self.info.get(v)
        return info if info is not None else self._pessimistic_of(v)

    def _pessimistic_of(self, v: SSAValue) -> AxisInfo:
        info = self._pess.get(v)
        if info is None:
            info = self._pess[v] = self._pessimistic(v)
        return info

    def _region(self, region) -> None:
        for block in region.blocks:
            if block is not region.blocks.first:
                self._branch_target(block)
            for op in block.ops:
                self._op(op)

    def _branch_target(self, block: Block) -> None:
        for use in block.uses:
            term = use.operation
            vals = None
            if term.name == "cf.br":
                vals = list(term.operands)
            elif term.name == "cf.cond_br":
                vals = list(term.then_arguments) if term.then_block is block else list(term.else_arguments)
            if vals is not None:
                for a, v in zip(block.args, vals):
                    self._set(a, self._operand(v))
        for a in block.args:
            if a not in self.info:
                self._set(a, _filled(rank_of_type(a.type), 1, 1, 1))

    def _op(self, op: Operation) -> None:
        name = op.name
        if name == "scf.for":
            self._for(op)
            return
        if name == "scf.if":
            # a constant condition leaves the other region dead: its values keep no facts (pessimistic), as
            # MLIR's dead code analysis makes them
            known = self._operand(op.cond).constant
            live = [r for k, r in enumerate((op.true_region, op.false_region))
                    if r.blocks and (known is None or (k == 0) == (known != 0))]
            for reg in live:
                self._region(reg)
            for i, r in enumerate(op.results):
                for reg in live:
                    blk = reg.blocks.first
                    if blk is not None and blk.last_op is not None and blk.last_op.name == "scf.yield":
                        self._set(r, self._operand(blk.last_op.operands[i]))
            return
        if name == "scf.while":
            self._while(op)
            return
        if name == "ttg.warp_specialize":  # the partitions start from the captures
            for region in op.partition_regions():
                for a, v in zip(region.blocks.first.args, op.operands):
                    self._set(a, self._operand(v))
                self._region(region)
            self._region(op.regions[0])
            term = op.regions[0].blocks.last.last_op if op.regions[0].blocks else None
            if term is not None and term.name == "ttg.warp_yield":
                for r, v in zip(op.results, term.operands):
                    self._set(r, self._operand(v))
            return
        for region in op.regions:  # reductions, scans: their scalar combiners
            for block in region.blocks:
                for a in block.args:
                    if a not in self.info:
                        self._set(a, _filled(rank_of_type(a.type), 1, 1, 1))
            self._region(region)
        if not op.results:
            return
        ops = [self._operand(v) for v in op.operands]
        memo = self._memo.get(op)
        if memo is not None and all(a is b for a, b in zip(memo[0], ops)):
            info = memo[1]
        else:
            info = self._transfer(op, ops)
            if info is not None:
                info = _with_hints(info, op.attributes)
            self._memo[op] = (ops, info)
        if info is None:
            for r in op.results:
                self._set(r, self._pessimistic_of(r))
            return
        for r in op.results:
            self._set(r, info)

    def _for(self, op: Operation) -> None:
        body = op.body.blocks.first
        iv, iters = body.args[0], body.args[1:]
        lb, step = self._operand(op.lb), self._operand(op.step)
        self._set(iv, AxisInfo((1,), (_gcd(lb.divisibility[0], step.divisibility[0]),), (1,)))
        term = body.last_op
        for i, (a, init) in enumerate(zip(iters, op.iter_args)):
            self._set(a, self._operand(init))
            if term is not None and term.name == "scf.yield" and term.operands[i] in self.info:
                self._set(a, self.info[term.operands[i]])
        self._region(op.body)
        for i, (r, init) in enumerate(zip(op.results, op.iter_args)):
            self._set(r, self._operand(init))
            self._set(r, self._operand(term.operands[i]))

    def _while(self, op: Operation) -> None:
        before = op.before_region.blocks.first
        after = op.after_region.blocks.first
        cond = before.last_op
        yld = after.last_op
        for i, (a, init) in enumerate(zip(before.args, op.arguments)):
            self._set(a, self._operand(init))
            if yld is not None and yld.name == "scf.yield" and yld.operands[i] in self.info:
                self._set(a, self.info[yld.operands[i]])
        self._region(op.before_region)
        forwarded = list(cond.operands)[1:] if cond is not None else []
        for a, v in zip(after.args, forwarded):
            self._set(a, self._operand(v))
        self._region(op.after_region)
        for r, v in zip(op.results, forwarded):
            self._set(r, self._operand(v))

    def _transfer(self, op: Operation, ops: list[AxisInfo]) -> AxisInfo | None:
        name = op.name
        if name in _CASTS:
            if not ops:  # an unrealized cast from nothing: pessimistic
                return None
            t = op.results[0].type
            if isinstance(t, TensorType) and len(t.get_shape()) != ops[0].rank:
                return None  # an unrealized cast that would change the rank: pessimistic
            return ops[0]
        if name == "tt.make_range":  # a 32-bit start: 0 divides by 2^30
            s, e = op.start.value.data, op.end.value.data
            return AxisInfo((e - s,), (pow2_divisor(s) if s else 1 << 30,), (1,))
        if name == "tt.trans":
            order = list(op.order.get_values())
            a = ops[0]
            return AxisInfo(tuple(a.contiguity[d] for d in order), tuple(a.divisibility[d] for d in order),
                            tuple(a.constancy[d] for d in order), a.constant)
        if name == "ub.poison":
            rank = rank_of_type(op.results[0].type)
            return _filled(rank, MAX_DIVISOR, MAX_DIVISOR, MAX_DIVISOR)
        if name == "arith.constant":
            return _constant(op)
        if name in _BINARY:
            if len(ops) != 2 or ops[0].rank != ops[1].rank:
                return None
            return _BINARY[name](op, ops[0], ops[1])
        if name == "tt.splat":
            return _splat(op, ops[0])
        if name == "tt.expand_dims":
            return _expand_dims(op, ops[0])
        if name == "tt.broadcast":
            return _broadcast(op, ops[0])
        if name == "arith.select":
            if ops[1].rank != ops[2].rank:
                return None
            return _select(op, ops[0], ops[1], ops[2])
        if name == "tt.load":
            mask = ops[1] if op.mask is not None else None
            return _load(op, ops[0], mask)
        return None


# the pipeliner's schedule attributes (tritongpu-assign-latencies and -schedule-loops set nothing else), which the
# analysis does not read
_SCHEDULE_ATTRS = frozenset({"tt.latency", "loop.stage", "loop.cluster", "tt.scheduled_max_stage"})
_previous: tuple | None = None  # (root, fingerprint, analysis) of the last `reused` call, replaced whole


def _fingerprint(root: Operation) -> list:
    """Everything of `root`'s IR the analysis reads: each op in walk order with its block, operands, result types,
    successors, properties and attributes (but the schedule's), and its regions' blocks with their arguments."""
    out: list = []
    add = out.append
    for op in root.walk():
        attrs = op.attributes
        add(op)
        add(op.parent)
        add(tuple(op.operands))
        add(tuple([r.type for r in op.results]))
        add(dict(op.properties))
        add({k: v for k, v in attrs.items() if k not in _SCHEDULE_ATTRS} if attrs else {})
        if op.successors:
            add(tuple(op.successors))
        for r in op.regions:
            add(r)
            for blk in r.blocks:
                add(blk)
                add(tuple(blk.args))
                add(tuple([a.type for a in blk.args]))
    return out


def reused(root: Operation) -> AxisInfoAnalysis:
    """`AxisInfoAnalysis(root)`, or the one the previous call made where nothing the analysis reads has changed
    since: tritongpu-pipeline analyses the IR tritongpu-assign-latencies did, which tritongpu-schedule-loops
    only gave schedule attributes."""
    global _previous
    fp, previous = _fingerprint(root), _previous
    if previous is not None and previous[0] is root and previous[1] == fp:
        return previous[2]
    axis = AxisInfoAnalysis(root)
    _previous = (root, fp, axis)
    return axis


def access_width(axis: AxisInfoAnalysis, ptr: SSAValue, dim: int, contiguous: int, bits: int) -> int:
    """Triton's getVectorSize: how many `bits`-wide elements one access through the pointers `ptr` may take along
    `dim` (the layout's fastest dimension), `contiguous` being how many of a thread's registers run along it:
    consecutive, aligned to the access, at most 128 bits."""
    info = axis.get(ptr)
    max_multiple = max(info.divisibility[dim] // max(1, bits // 8), 1)
    return max(1, min(max_multiple, info.contiguity[dim], contiguous, max(1, 128 // bits)))


def mask_width(axis: AxisInfoAnalysis, mask: SSAValue | None, dim: int, vec: int) -> int:
    """`vec` narrowed to the runs of equal mask bits along `dim` (unchanged without a mask)."""
    if mask is None:
        return vec
    return max(1, min(vec, axis.get(mask).constancy[dim]))
