"""canonicalize: MLIR's `-canonicalize` for Triton IR: folding, canonicalization patterns, constant hoisting and
dead code removal, greedily to a fixed point.

The driver is `ttc.opt.greedy_rewrite.GreedyDriver` (MLIR's GreedyPatternRewriteDriver, described there) in the
canonicalizer's configuration: top-down (ops queued in pre-order, popped in that order); at most
`max-iterations` iterations (10; -1: no limit); `region-simplify=normal` (MLIR's default: unreachable blocks
erased and region DCE run in every iteration) or `disabled`.

Patterns (besides the folds in `ttc.ir.fold`): constants moved to the right of commutative ops and of `arith.cmpi`;
ext/trunc chains, `trunci(shrsi)` of the dropped bits to `shrui`; MLIR's arith reassociations of scalar constants (`(x + c0) + c1` -> `x + (c0 + c1)` etc.),
`not(cmpi)`, `select` of `not`, nested selects; Triton's `tt.load`/`tt.store` with constant masks,
`broadcast`/`expand_dims`/`reshape` of `splat`, `broadcast(broadcast)`, `reshape(reshape)`, `trans(trans)`,
`expand_dims(broadcast)`; Triton's `ttg.convert_layout` canonicalization patterns (those of
remove-layout-conversions: a conversion to the same type, of a convert, reordering reshape, splat, make_range,
histogram, local_load or splat constant; reshape/trans/split/gather/histogram/local_alloc/local_store of a
conversion), and `ttng.tmem_store` of a conversion; `ttg.memdesc_subslice` of a subslice, `ttg.memdesc_trans` of a transpose; `scf.if` with a constant condition, unused results, results that are selects,
an empty else, a negated condition; `scf.for` with zero or one iteration, an empty body, or iteration arguments
that are forwarded, unused or duplicated; `cf.cond_br` on a constant or to the same block, `cf.br` to a block
with no other predecessor; a `gpu.barrier` right before another one (the later one stays).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Callable

from xdsl.dialects import arith, cf, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerType,
    IntegerAttr,
    TensorType,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ttc.ir.fold import (
    CMPI,
    attr_of,
    constant_attr,
    defining_op,
    elements_of,
    int_width,
    is_constant_op,
    is_int_value,
    make_constant,
    splat_value,
    wrap,
)
from ttc.opt.greedy_rewrite import COMMUTATIVE, GreedyDriver, Rewriter, fold_in_place, fused_location
from ttc.ir.types import elt, encoding, shape_of, tensor
from ttc.opt.passmanager import Pass, option

# ----------------------------------------------------------------------------- helpers for patterns


def _def(v: SSAValue, *names: str) -> Operation | None:
    op = defining_op(v)
    return op if op is not None and op.name in names else None


def _is_constant(v: SSAValue) -> bool:
    op = defining_op(v)
    return op is not None and is_constant_op(op)


def _scalar_int(v: SSAValue) -> IntegerAttr | None:
    a = constant_attr(v)
    return a if isinstance(a, IntegerAttr) else None





def _new_const(rw: Rewriter, attr: Attribute, anchor: Operation, loc) -> SSAValue:
    c = make_constant(attr, attr.type)
    c.location = loc
    rw.insert_before(c, anchor)
    return c.results[0]


def _int_op(name: str, lhs: SSAValue, rhs: SSAValue, flags=None) -> Operation:
    cls = {"arith.addi": arith.AddiOp, "arith.subi": arith.SubiOp, "arith.muli": arith.MuliOp}[name]
    op = cls(lhs, rhs)
    if flags is not None:
        op.properties["overflowFlags"] = flags
    return op


def _merge_flags(a: Operation, b: Operation):
    fa, fb = a.properties.get("overflowFlags"), b.properties.get("overflowFlags")
    if fa is None or fb is None:
        return None
    return arith.IntegerOverflowAttr(fa.data & fb.data)


def _int_attr(ref: IntegerAttr, value: int) -> IntegerAttr:
    return attr_of(ref.type, [wrap(value, int_width(ref.type))])


def _clone_with(op: Operation, operands, result_types=None, properties=None, regions=None) -> Operation:
    props = dict(op.properties) if properties is None else properties
    new = type(op).create(
        operands=list(operands),
        result_types=[r.type for r in op.results] if result_types is None else result_types,
        properties=props,
        attributes=dict(op.attributes),
        regions=regions or [],
    )
    new.location = op.location
    return new


# ----------------------------------------------------------------------------- arith patterns

def _constant_to_right(op: Operation, rw: Rewriter) -> bool:
    """Commutative ops and `arith.cmpi` (its predicate swapped) keep their constant operands last (MLIR's
    foldCommutative and CmpIOp::fold), as the greedy driver's `fold_in_place` does it."""
    operands = fold_in_place(op)
    if operands is None:
        return False
    rw.set_operands(op, operands)
    return True


_INVERT_PRED = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle", "ult": "uge",
                "uge": "ult", "ule": "ugt", "ugt": "ule"}


def _set_pred(op: Operation, pred: str) -> None:
    op.properties["predicate"] = IntegerAttr(CMPI.index(pred), op.predicate.type)


def _cmpi_of_exts(op: Operation, rw: Rewriter) -> bool:
    """cmpi eq/ne of two sign- (or zero-) extensions of the same type compares the sources."""
    pred = CMPI[op.predicate.value.data]
    if pred not in ("eq", "ne"):
        return False
    for ext in ("arith.extsi", "arith.extui"):
        a, b = _def(op._operands[0], ext), _def(op._operands[1], ext)
        if a and b and a._operands[0].type == b._operands[0].type:
            new = _clone_with(op, [a._operands[0], b._operands[0]])
            rw.replace_with_new(op, new).location = fused_location(op, a, b)
            return True
    return False


def _same_ext_chain(op: Operation, rw: Rewriter) -> bool:
    """extsi(extsi(x)) -> extsi(x), extui(extui(x)) -> extui(x) (in place, as MLIR's folders)."""
    inner = _def(op._operands[0], op.name)
    if inner is not None:
        rw.set_operands(op, [inner._operands[0]])
        return True
    return False


def _extsi_of_extui(op: Operation, rw: Rewriter) -> bool:
    inner = _def(op._operands[0], "arith.extui")
    if inner is None:
        return False
    new = rw.replace_with_new(op, _cast("arith.extui", inner._operands[0], op.results[0].type))
    new.location = fused_location(op, inner)
    return True


def _cast(name: str, src: SSAValue, type_: Attribute) -> Operation:
    from ttc.ir.std import ARITH

    cls = next(o for o in ARITH.operations if o.name == name)
    return cls.create(operands=[src], result_types=[type_])


def _bitcast_of_bitcast(op: Operation, rw: Rewriter) -> bool:
    inner = _def(op._operands[0], "arith.bitcast")
    if inner is None:
        return False
    new = rw.replace_with_new(op, _cast("arith.bitcast", inner._operands[0], op.results[0].type))
    new.location = fused_location(op, inner)
    return True


def _width(t: Attribute) -> int:
    return int_width(elt(t))


def _trunci_chain(op: Operation, rw: Rewriter) -> bool:
    inner = _def(op._operands[0], "arith.extsi", "arith.extui", "arith.trunci")
    if inner is None:
        return False
    src = inner._operands[0]
    if inner.name == "arith.trunci" or _width(src.type) > _width(op.results[0].type):
        rw.set_operands(op, [src])  # trunci(trunci(x)) / trunci(ext(x)) with x wider -> trunci(x)
        return True
    if _width(src.type) < _width(op.results[0].type):
        # trunci(ext(x)) that only drops extension bits -> ext(x)
        new = rw.replace_with_new(op, _cast(inner.name, src, op.results[0].type))
        new.location = fused_location(op, inner)
        return True
    return False


def _trunci_of_shrsi(op: Operation, rw: Rewriter) -> bool:
    # trunci(shrsi(x, c)) where c is exactly the number of bits the trunci drops -> trunci(shrui(x, c)): the kept
    # bits never include a copy of the sign (MLIR's TruncIShrSIToTrunciShrUI)
    inner = _def(op._operands[0], "arith.shrsi")
    if inner is None:
        return False
    x, amount = inner._operands
    c = constant_attr(amount)
    if not is_int_value(c, _width(x.type) - _width(op.results[0].type)):
        return False
    loc = fused_location(op, inner)
    shift = rw.insert_before(arith.ShRUIOp(x, _new_const(rw, c, op, loc)), op)
    shift.location = loc
    rw.set_operands(op, [shift.results[0]])
    return True


def _truncf_of_extf(op: Operation, rw: Rewriter) -> bool:
    from ttc.ir.fold import _representable_by

    inner = _def(op._operands[0], "arith.extf")
    if inner is None:
        return False
    src = inner._operands[0]
    s, mid, dst = elt(src.type), elt(inner.results[0].type), elt(op.results[0].type)
    if _representable_by(s, mid) and s.bitwidth > dst.bitwidth:
        rw.set_operands(op, [src])
        return True
    return False


def _reassociate_addi(op: Operation, rw: Rewriter) -> bool:
    c1 = _scalar_int(op._operands[1])
    if c1 is None:
        return False
    inner = _def(op._operands[0], "arith.addi", "arith.subi")
    if inner is None:
        return False
    x, y = inner._operands
    loc = fused_location(op, inner)
    if inner.name == "arith.addi" and (c0 := _scalar_int(y)) is not None:
        # addi(addi(x, c0), c1) -> addi(x, c0 + c1)
        new = _int_op("arith.addi", x, _new_const(rw, _int_attr(c1, c0.value.data + c1.value.data), op, loc),
                      _merge_flags(inner, op))
    elif inner.name == "arith.subi" and (c0 := _scalar_int(y)) is not None:
        # addi(subi(x, c0), c1) -> addi(x, c1 - c0)
        new = _int_op("arith.addi", x, _new_const(rw, _int_attr(c1, c1.value.data - c0.value.data), op, loc),
                      _merge_flags(inner, op))
    elif inner.name == "arith.subi" and (c0 := _scalar_int(x)) is not None:
        # addi(subi(c0, x), c1) -> subi(c0 + c1, x)
        new = _int_op("arith.subi", _new_const(rw, _int_attr(c1, c0.value.data + c1.value.data), op, loc), y,
                      _merge_flags(inner, op))
    else:
        return False
    rw.replace_with_new(op, new).location = loc
    return True


def _is_minus_one(v: SSAValue) -> bool:
    return is_int_value(constant_attr(v), -1)


def _addi_of_neg(op: Operation, rw: Rewriter) -> bool:
    """addi(x, muli(y, -1)) -> subi(x, y); addi(muli(x, -1), y) -> subi(y, x)."""
    lhs, rhs = op._operands
    mul = _def(rhs, "arith.muli")
    if mul is not None and _is_minus_one(mul._operands[1]):
        new = rw.replace_with_new(op, _int_op("arith.subi", lhs, mul._operands[0]))
        new.location = fused_location(op, mul)
        return True
    mul = _def(lhs, "arith.muli")
    if mul is not None and _is_minus_one(mul._operands[1]):
        new = rw.replace_with_new(op, _int_op("arith.subi", rhs, mul._operands[0]))
        new.location = fused_location(op, mul)
        return True
    return False


def _reassociate_subi(op: Operation, rw: Rewriter) -> bool:
    lhs, rhs = op._operands
    c_rhs, c_lhs = _scalar_int(rhs), _scalar_int(lhs)
    new = None
    if c_rhs is not None and (inner := _def(lhs, "arith.addi", "arith.subi")) is not None:
        x, y = inner._operands
        loc = fused_location(op, inner)
        c1 = c_rhs
        if inner.name == "arith.addi" and (c0 := _scalar_int(y)) is not None:
            # subi(addi(x, c0), c1) -> addi(x, c0 - c1)
            new = _int_op("arith.addi", x, _new_const(rw, _int_attr(c1, c0.value.data - c1.value.data), op, loc))
        elif inner.name == "arith.subi" and (c0 := _scalar_int(y)) is not None:
            # subi(subi(x, c0), c1) -> subi(x, c0 + c1)
            new = _int_op("arith.subi", x, _new_const(rw, _int_attr(c1, c0.value.data + c1.value.data), op, loc),
                          _merge_flags(inner, op))
        elif inner.name == "arith.subi" and (c0 := _scalar_int(x)) is not None:
            # subi(subi(c0, x), c1) -> subi(c0 - c1, x)
            new = _int_op("arith.subi", _new_const(rw, _int_attr(c1, c0.value.data - c1.value.data), op, loc), y,
                          _merge_flags(inner, op))
    elif c_lhs is not None and (inner := _def(rhs, "arith.addi", "arith.subi")) is not None:
        x, y = inner._operands
        loc = fused_location(op, inner)
        c1 = c_lhs
        if inner.name == "arith.addi" and (c0 := _scalar_int(y)) is not None:
            # subi(c1, addi(x, c0)) -> subi(c1 - c0, x)
            new = _int_op("arith.subi", _new_const(rw, _int_attr(c1, c1.value.data - c0.value.data), op, loc), x,
                          _merge_flags(inner, op))
        elif inner.name == "arith.subi" and (c0 := _scalar_int(y)) is not None:
            # subi(c1, subi(x, c0)) -> subi(c0 + c1, x)
            new = _int_op("arith.subi", _new_const(rw, _int_attr(c1, c0.value.data + c1.value.data), op, loc), x,
                          _merge_flags(inner, op))
        elif inner.name == "arith.subi" and (c0 := _scalar_int(x)) is not None:
            # subi(c1, subi(c0, x)) -> addi(x, c1 - c0)
            new = _int_op("arith.addi", y, _new_const(rw, _int_attr(c1, c1.value.data - c0.value.data), op, loc),
                          _merge_flags(inner, op))
    if new is None:
        inner = _def(lhs, "arith.subi")
        if inner is None or inner._operands[0] is not rhs:
            return False
        # subi(subi(a, b), a) -> subi(0, b)
        loc = fused_location(op, inner)
        zero = _new_const(rw, attr_of(rhs.type, [0]), op, loc)
        new = _int_op("arith.subi", zero, inner._operands[1], _merge_flags(inner, op))
    rw.replace_with_new(op, new).location = loc
    return True


def _reassociate_muli(op: Operation, rw: Rewriter) -> bool:
    c1 = _scalar_int(op._operands[1])
    inner = _def(op._operands[0], "arith.muli")
    if c1 is None or inner is None or (c0 := _scalar_int(inner._operands[1])) is None:
        return False
    if c0.type != op.results[0].type or c1.type != op.results[0].type:
        return False
    loc = fused_location(op, inner)
    new = _int_op("arith.muli", inner._operands[0],
                  _new_const(rw, _int_attr(c1, c0.value.data * c1.value.data), op, loc), _merge_flags(inner, op))
    rw.replace_with_new(op, new).location = loc
    return True


def _xori_not_cmpi(op: Operation, rw: Rewriter) -> bool:
    """not(cmpi(p, a, b)) -> cmpi(!p, a, b)."""
    cmp = _def(op._operands[0], "arith.cmpi")
    c = _scalar_int(op._operands[1])
    if cmp is None or c is None or c.type != i1 or c.value.data == 0:
        return False
    new = _clone_with(cmp, cmp._operands)
    _set_pred(new, _INVERT_PRED[CMPI[cmp.predicate.value.data]])
    rw.replace_with_new(op, new).location = fused_location(op, cmp)
    return True


_CMPF_TO_CMPI = {"ueq": "eq", "oeq": "eq", "ugt": "gt", "ogt": "gt", "uge": "ge", "oge": "ge", "ult": "lt",
                 "olt": "lt", "ule": "le", "ole": "le", "une": "ne", "one": "ne"}


def _cmpf_of_int_to_fp(op: Operation, rw: Rewriter) -> bool:
    """MLIR's CmpFIntToFPConst: `cmpf(sitofp(x) or uitofp(x), C)` compares integers, or is decided outright."""
    from ttc.ir.fold import CMPF, _FORMATS, round_float

    rhs = constant_attr(op._operands[1])
    if not isinstance(rhs, FloatAttr) or type(rhs.type) not in _FORMATS:
        return False
    r = rhs.value.data
    if math.isnan(r):
        return False
    conv = _def(op._operands[0], "arith.sitofp", "arith.uitofp")
    if conv is None or not isinstance(conv._operands[0].type, IntegerType):
        return False
    unsigned = conv.name == "arith.uitofp"
    x = conv._operands[0]
    w = x.type.width.data
    mant, emax = _FORMATS[type(rhs.type)]
    value_bits = w if unsigned else w - 1
    if w > mant:  # the conversion may round: give up where that could change the comparison
        if math.isinf(r):
            if emax < value_bits:
                return False
        elif r != 0 and mant <= math.frexp(r)[1] - 1 <= value_bits:
            return False
    fpred = CMPF[op.predicate.value.data]

    def decided(v: bool) -> bool:
        rw.replace_with_new(op, make_constant(IntegerAttr(-1 if v else 0, i1), i1))
        return True

    if fpred == "ord":
        return decided(True)
    if fpred == "uno":
        return decided(False)
    if fpred not in _CMPF_TO_CMPI:
        return False
    base = _CMPF_TO_CMPI[fpred]
    pred = base if base in ("eq", "ne") else ("u" if unsigned else "s") + base
    lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    if round_float(hi, rhs.type) < r:
        return decided(pred in ("ne", "slt", "sle", "ult", "ule"))
    if round_float(lo, rhs.type) > r:
        return decided(pred in ("ne", "sgt", "sge", "ugt", "uge"))
    if math.isinf(r):
        return False
    k = int(r)  # toward zero
    if not lo <= k <= hi:
        return False
    if r != 0 and round_float(k, rhs.type) != r:
        neg = r < 0
        if pred == "ne":
            return decided(True)
        if pred == "eq":
            return decided(False)
        if pred == "ule" and neg:
            return decided(False)
        if pred == "sle" and neg:
            pred = "slt"
        elif pred == "ult":
            if neg:
                return decided(False)
            pred = "ule"
        elif pred == "slt" and not neg:
            pred = "sle"
        elif pred == "ugt" and neg:
            return decided(True)
        elif pred == "sgt" and neg:
            pred = "sge"
        elif pred == "uge":
            if neg:
                return decided(True)
            pred = "ugt"
        elif pred == "sge" and not neg:
            pred = "sgt"
    c = _new_const(rw, attr_of(x.type, [wrap(k, w)]), op, op.location)
    from ttc.ir.std import CmpiOp

    new = CmpiOp.create(operands=[x, c], result_types=[i1], properties={"predicate": IntegerAttr(CMPI.index(pred), i64)})
    rw.replace_with_new(op, new)
    return True


def _negf_pair(op: Operation, rw: Rewriter) -> bool:
    """mulf(negf(x), negf(y)) -> mulf(x, y), and the same for divf (fastmath flags kept)."""
    a, b = _def(op._operands[0], "arith.negf"), _def(op._operands[1], "arith.negf")
    if a is None or b is None or a._operands[0].type != b._operands[0].type:
        return False
    new = _clone_with(op, [a._operands[0], b._operands[0]])
    rw.replace_with_new(op, new).location = fused_location(op, a, b)
    return True


def _select_to_extui(op: Operation, rw: Rewriter) -> bool:
    """select(c, 1, 0) -> extui(c); select(c, 0, 1) -> extui(not c), for scalar integers wider than i1."""
    t = op.results[0].type
    if not isinstance(t, IntegerType) or t.width.data == 1:
        return False
    cond, a, b = op._operands
    ca, cb = constant_attr(a), constant_attr(b)
    if is_int_value(ca, 1) and is_int_value(cb, 0):
        rw.replace_with_new(op, _cast("arith.extui", cond, t))
        return True
    if is_int_value(ca, 0) and is_int_value(cb, 1):
        one = make_constant(IntegerAttr(-1, i1), i1)
        one.location = op.location
        rw.insert_before(one, op)
        x = arith.XOrIOp(cond, one.results[0])
        x.location = op.location
        rw.insert_before(x, op)
        rw.replace_with_new(op, _cast("arith.extui", x.results[0], t))
        return True
    return False


def _select_patterns(op: Operation, rw: Rewriter) -> bool:
    cond, a, b = op._operands
    # select(not(c), a, b) -> select(c, b, a), for a scalar `not` only (MLIR's pattern matches an IntegerAttr)
    x = _def(cond, "arith.xori")
    if x is not None and _scalar_int(x._operands[1]) is not None and _is_minus_one(x._operands[1]):
        rw.replace_with_new(op, _clone_with(op, [x._operands[0], b, a])).location = fused_location(op, x)
        return True
    # select(c, select(c, a, b), d) -> select(c, a, d) and the mirror
    inner = _def(a, "arith.select")
    if inner is not None and inner._operands[0] is cond:
        rw.replace_with_new(op, _clone_with(op, [cond, inner._operands[1], b])).location = fused_location(op, inner)
        return True
    inner = _def(b, "arith.select")
    if inner is not None and inner._operands[0] is cond:
        rw.replace_with_new(op, _clone_with(op, [cond, a, inner._operands[2]])).location = fused_location(op, inner)
        return True
    # select(c, false, true) -> xori(c, true)
    ta, tb = _scalar_int(a), _scalar_int(b)
    if ta is not None and tb is not None and ta.type == i1 and tb.type == i1 and ta.value.data == 0 and tb.value.data != 0:
        true = _new_const(rw, IntegerAttr(-1, i1), op, op.location)
        rw.replace_with_new(op, arith.XOrIOp(cond, true))
        return True
    return False


# ----------------------------------------------------------------------------- tt and ttg patterns


def _splat_mask(mask: SSAValue | None):
    """True/False for a mask that is a splat `arith.constant` tensor, else None (as Triton: scalars don't count)."""
    if mask is None:
        return None
    attr = constant_attr(mask)
    e = elements_of(attr)
    if e is None or not isinstance(attr.type, TensorType) or not e.splat:
        return None
    return bool(e.values[0])


def _load_mask(op: Operation, rw: Rewriter) -> bool:
    known = _splat_mask(op.mask)
    if known is None:
        return False
    if known:
        props = {k: op.properties[k] for k in ("cache", "evict", "isVolatile") if k in op.properties}
        from ttc.ir.tt import LoadOp

        new = LoadOp.build(operands=[op.ptr, [], []], result_types=[op.results[0].type], properties=props)
        rw.replace_with_new(op, new)
        return True
    if op.other is None:
        return False
    rw.replace_op(op, [op.other])
    return True


def _store_mask(op: Operation, rw: Rewriter) -> bool:
    known = _splat_mask(op.mask)
    if known is None:
        return False
    if known:
        props = {k: op.properties[k] for k in ("cache", "evict") if k in op.properties}
        from ttc.ir.tt import StoreOp

        rw.replace_with_new(op, StoreOp.build(operands=[op.ptr, op.value, []], properties=props))
    else:
        rw.erase(op)
    return True


def _new_like(name: str, src: SSAValue, result_type: Attribute, properties=None) -> Operation:
    from ttc.ir import tt

    cls = next(o for o in tt.TT_OPS if o.name == name)
    return cls.create(operands=[src], result_types=[result_type], properties=properties or {})


def _broadcast_patterns(op: Operation, rw: Rewriter) -> bool:
    inner = _def(op._operands[0], "tt.splat", "tt.broadcast")
    if inner is None:
        return False
    # broadcast(splat(x)) -> splat(x); broadcast(broadcast(x)) -> broadcast(x)
    new = _new_like(inner.name, inner._operands[0], op.results[0].type)
    rw.replace_with_new(op, new).location = fused_location(op, inner)
    return True


def _expand_dims_patterns(op: Operation, rw: Rewriter) -> bool:
    inner = _def(op._operands[0], "tt.splat", "tt.broadcast")
    if inner is None:
        return False
    if inner.name == "tt.splat":
        rw.replace_with_new(op, _new_like("tt.splat", inner._operands[0], op.results[0].type))
        return True
    # expand_dims(broadcast(x)) -> broadcast(expand_dims(x)); a layout must be a slice along the axis (Triton's
    # inferExpandDimsOpEncoding gives its parent)
    src = inner._operands[0]
    axis = op.axis.value.data
    enc = encoding(src.type)
    if enc is not None:
        from ttc.ir.layouts import SliceEncoding

        if not isinstance(enc, SliceEncoding) or enc["dim"] != axis:
            return False
        enc = enc["parent"]
    shape = list(shape_of(src.type))
    shape.insert(axis, 1)
    expand = _new_like("tt.expand_dims", src, tensor(shape, elt(src.type), enc), {"axis": IntegerAttr(axis, op.axis.type)})
    expand.location = op.location
    rw.insert_before(expand, op)
    rw.replace_with_new(op, _new_like("tt.broadcast", expand.results[0], op.results[0].type)).location = inner.location
    return True


def _reshape_patterns(op: Operation, rw: Rewriter) -> bool:
    if op.properties.get("efficient_layout") is not None:
        return False
    inner = _def(op._operands[0], "tt.reshape", "tt.splat")
    if inner is None:
        return False
    if inner.name == "tt.reshape":
        props = {}
        if op.properties.get("allow_reorder") is not None or inner.properties.get("allow_reorder") is not None:
            props["allow_reorder"] = UnitAttr()
        rw.replace_with_new(op, _new_like("tt.reshape", inner._operands[0], op.results[0].type, props))
    else:
        rw.replace_with_new(op, _new_like("tt.splat", inner._operands[0], op.results[0].type))
    return True


def _trans_of_trans(op: Operation, rw: Rewriter) -> bool:
    inner = _def(op._operands[0], "tt.trans")
    if inner is None:
        return False
    outer, first = list(op.order.get_values()), list(inner.order.get_values())
    op.properties["order"] = DenseArrayBase.from_list(i32, [first[i] for i in outer])
    rw.set_operands(op, [inner._operands[0]])
    return True


def _memdesc_subslice_chain(op: Operation, rw: Rewriter) -> bool:
    """Triton's MemDescSubsliceOp::fold: subslice(subslice(x, a), b) -> subslice(x, a + b), in place."""
    inner = _def(op._operands[0], "ttg.memdesc_subslice")
    if inner is None:
        return False
    offsets = [a + b for a, b in zip(inner.offsets.get_values(), op.offsets.get_values())]
    op.properties["offsets"] = DenseArrayBase.from_list(i32, offsets)
    rw.set_operands(op, [inner._operands[0]])
    return True


def _tmem_store_of_convert(op: Operation, rw: Rewriter) -> bool:
    """Triton's CanonicalizeConvertFromTMEMStore: `ttng.tmem_store(convert_layout(x))` stores x when x's layout
    can go to tensor memory as it is."""
    cvt = _def(op.src, "ttg.convert_layout")
    from ttc.ir.tmem import layout_fits_tmem

    if cvt is None or not layout_fits_tmem(op, cvt._operands[0].type, op.dst.type):
        return False
    rw.set_operands(op, [cvt._operands[0] if v is op.src else v for v in op._operands])
    return True


def _memdesc_trans_fold(op: Operation, rw: Rewriter) -> bool:
    """Triton's MemDescTransOp::fold: the identity order is the source; trans(trans(x)) composes in place."""
    order = list(op.order.get_values())
    if order == list(range(len(order))):
        rw.replace_op(op, [op._operands[0]])
        return True
    inner = _def(op._operands[0], "ttg.memdesc_trans")
    if inner is None:
        return False
    first = list(inner.order.get_values())
    op.properties["order"] = DenseArrayBase.from_list(i32, [first[i] for i in order])
    rw.set_operands(op, [inner._operands[0]])
    return True


# ----------------------------------------------------------------------------- scf patterns


def _yield_of(region: Region) -> Operation:
    return region.blocks.first.last_op


def _if_negated_condition(op: Operation, rw: Rewriter) -> bool:
    """if (!c) A else B -> if c B else A (MLIR's IfOp::fold)."""
    if not op.false_region.blocks:
        return False
    x = _def(op.cond, "arith.xori")
    if x is None or not is_int_value(constant_attr(x._operands[1]), 1):
        return False
    tmp = Region()
    op.true_region.move_blocks(tmp)
    op.false_region.move_blocks(op.true_region)
    tmp.move_blocks(op.false_region)
    rw.set_operands(op, [x._operands[0]])
    return True


def _if_static_condition(op: Operation, rw: Rewriter) -> bool:
    c = constant_attr(op.cond)
    if not isinstance(c, IntegerAttr):
        return False
    if c.value.data:
        rw.replace_with_region(op, op.true_region)
    elif op.false_region.blocks:
        rw.replace_with_region(op, op.false_region)
    else:
        rw.erase(op)
    return True


def _new_if(op: Operation, cond: SSAValue, result_types) -> Operation:
    new = scf.IfOp.create(operands=[cond], result_types=list(result_types), regions=[Region(), Region()],
                          attributes=dict(op.attributes))
    new.location = op.location
    op.true_region.move_blocks(new.true_region)
    op.false_region.move_blocks(new.false_region)
    return new


def _set_yield(region: Region, values, rw: Rewriter) -> None:
    old = _yield_of(region)
    new = scf.YieldOp(*values)
    new.location = old.location
    new.attributes.update(old.attributes)
    old.parent.insert_op_before(new, old)
    rw.erase(old)


def _if_unused_results(op: Operation, rw: Rewriter) -> bool:
    used = [r for r in op.results if r.first_use is not None]
    if len(used) == len(op.results):
        return False
    then_vals, else_vals = list(_yield_of(op.true_region)._operands), list(_yield_of(op.false_region)._operands)
    new = _new_if(op, op.cond, [r.type for r in used])
    rw.insert_before(new, op)
    _set_yield(new.true_region, [then_vals[r.index] for r in used], rw)
    _set_yield(new.false_region, [else_vals[r.index] for r in used], rw)
    values = list(op.results)
    for i, r in enumerate(used):
        values[r.index] = new.results[i]
    rw.replace_op(op, values)
    return True


def _if_to_select(op: Operation, rw: Rewriter) -> bool:
    """Results whose yielded values are both defined outside the if become `arith.select`s."""
    if not op.results:
        return False
    then_vals, else_vals = list(_yield_of(op.true_region)._operands), list(_yield_of(op.false_region)._operands)

    def inside(v, region):
        return _parent_region(v) is region

    kept = [i for i, (t, f) in enumerate(zip(then_vals, else_vals)) if inside(t, op.true_region) or inside(f, op.false_region)]
    if len(kept) == len(op.results):
        return False
    new = _new_if(op, op.cond, [op.results[i].type for i in kept])
    rw.insert_before(new, op)
    values = []
    new_index = {i: k for k, i in enumerate(kept)}
    for i, (t, f) in enumerate(zip(then_vals, else_vals)):
        if i in new_index:
            values.append(new.results[new_index[i]])
        elif t is f:
            values.append(t)
        else:
            sel = _select(op.cond, t, f)
            sel.location = op.location
            rw.insert_before(sel, new)
            values.append(sel.results[0])
    _set_yield(new.true_region, [then_vals[i] for i in kept], rw)
    _set_yield(new.false_region, [else_vals[i] for i in kept], rw)
    rw.replace_op(op, values)
    return True


def _select(cond: SSAValue, t: SSAValue, f: SSAValue) -> Operation:
    from ttc.ir.std import SelectOp

    return SelectOp.create(operands=[cond, t, f], result_types=[t.type])


def _parent_region(v: SSAValue) -> Region | None:
    owner = v.owner
    block = owner if isinstance(owner, Block) else owner.parent
    return block.parent if block is not None else None


def _if_yield_condition(op: Operation, rw: Rewriter) -> bool:
    """Results yielding the same value on both sides, or true/false constants, are that value / the condition."""
    if not op.results:
        return False
    then_vals, else_vals = list(_yield_of(op.true_region)._operands), list(_yield_of(op.false_region)._operands)
    changed = False
    for t, f, r in zip(then_vals, else_vals, op.results):
        if r.first_use is None:
            continue
        if t is f:
            rw.replace_value(r, t)
            changed = True
            continue
        ct, cf_ = constant_attr(t), constant_attr(f)
        if not (isinstance(ct, IntegerAttr) and isinstance(cf_, IntegerAttr) and ct.type == i1):
            continue
        if ct.value.data and not cf_.value.data:
            rw.replace_value(r, op.cond)
            changed = True
        elif not ct.value.data and cf_.value.data:
            true = _new_const(rw, IntegerAttr(-1, i1), op, op.location)
            x = arith.XOrIOp(op.cond, true)
            x.location = op.location
            rw.insert_before(x, op)
            rw.replace_value(r, x.results[0])
            changed = True
    return changed


def _if_empty_else(op: Operation, rw: Rewriter) -> bool:
    if op.results or not op.false_region.blocks:
        return False
    block = op.false_region.blocks.first
    if block.first_op is not block.last_op:
        return False
    for b in list(op.false_region.blocks):
        for o in list(b.ops):
            rw.erase(o)
        op.false_region.detach_block(b)
        b.erase()
    rw.modified(op)
    return True


def _is_true(v: SSAValue) -> bool:
    return is_int_value(constant_attr(v), 1)


def _merge_yields(dst: Block, src: Block, rw: Rewriter) -> None:
    """Append `src`'s ops to `dst` (both end in scf.yield); one yield of both yields' values ends `dst`."""
    first, second = dst.last_op, src.last_op
    values = [*first._operands, *second._operands]
    for o in list(src.ops):
        o.detach()
        dst.add_op(o)
        rw.modified(o)
    new = scf.YieldOp(*values)
    new.location = second.location
    dst.add_op(new)
    rw.erase(first)
    rw.erase(second)
    src.parent.detach_block(src)
    src.erase()


def _combine_ifs(op: Operation, rw: Rewriter) -> bool:
    """MLIR's CombineIfs: an if right after another on the same (or the negated) condition joins it."""
    prev = op.prev_op
    if prev is None or prev.name != "scf.if":
        return False
    next_then = next_else = None
    if op.cond is prev.cond:
        next_then = op.true_region.blocks.first
        next_else = op.false_region.blocks.first
    x = _def(op.cond, "arith.xori")
    if x is not None and x._operands[0] is prev.cond and _is_true(x._operands[1]):
        next_else = op.true_region.blocks.first
        next_then = op.false_region.blocks.first
    x = _def(prev.cond, "arith.xori")
    if x is not None and x._operands[0] is op.cond and _is_true(x._operands[1]):
        next_else = op.true_region.blocks.first
        next_then = op.false_region.blocks.first
    if next_then is None and next_else is None:
        return False
    prev_then = list(_yield_of(prev.true_region)._operands)
    prev_else = list(_yield_of(prev.false_region)._operands) if prev.false_region.blocks else []
    # uses of prev's results inside the next if's branches see the values yielded on that side
    for r, t, e in zip(prev.results, prev_then, prev_else):
        for use in list(r.uses):
            user = use.operation
            for block, v in ((next_then, t), (next_else, e)):
                if block is not None and block.parent.is_ancestor(user):
                    ops = list(user._operands)
                    ops[use.index] = v
                    rw.set_operands(user, ops)
                    break
    combined = scf.IfOp.create(operands=[prev.cond], result_types=[*(r.type for r in prev.results),
                               *(r.type for r in op.results)], regions=[Region(), Region()])
    combined.location = op.location
    rw.insert_before(combined, op)
    prev.true_region.move_blocks(combined.true_region)
    if next_then is not None:
        _merge_yields(combined.true_region.blocks.first, next_then, rw)
    prev.false_region.move_blocks(combined.false_region)
    if next_else is not None:
        if not combined.false_region.blocks:
            next_else.parent.move_blocks(combined.false_region)
        else:
            _merge_yields(combined.false_region.blocks.first, next_else, rw)
    n = len(prev.results)
    rw.replace_op(prev, combined.results[:n])
    rw.replace_op(op, combined.results[n:])
    return True


def _combine_nested_ifs(op: Operation, rw: Rewriter) -> bool:
    """MLIR's CombineNestedIfs: `if a { if b { X } }` (else branches only yielding) is `if a && b { X }`."""
    then_block = op.true_region.blocks.first
    inner = then_block.first_op
    if inner is None or inner.next_op is not then_block.last_op or inner.name != "scf.if":
        return False
    else_block = op.false_region.blocks.first
    if else_block is not None and else_block.first_op is not else_block.last_op:
        return False
    inner_else = inner.false_region.blocks.first
    if inner_else is not None and inner_else.first_op is not inner_else.last_op:
        return False
    then_y = list(_yield_of(op.true_region)._operands)
    else_y = list(_yield_of(op.false_region)._operands) if else_block is not None else []
    to_select = []
    for i, v in enumerate(then_y):
        if v.owner is inner:
            if _yield_of(inner.false_region)._operands[v.index] is not else_y[i]:
                return False
            then_y[i] = _yield_of(inner.true_region)._operands[v.index]
            continue
        if _parent_region(v) is op.true_region:
            return False
        to_select.append(i)
    both = arith.AndIOp(op.cond, inner.cond)
    both.location = op.location
    rw.insert_before(both, op)
    new = scf.IfOp.create(operands=[both.results[0]], result_types=[r.type for r in op.results],
                          regions=[Region(), Region()])
    new.location = op.location
    rw.insert_before(new, op)
    results = list(new.results)
    for i in to_select:
        sel = _select(op.cond, then_y[i], else_y[i])
        sel.location = op.location
        rw.insert_before(sel, new)
        results[i] = sel.results[0]
    inner.true_region.move_blocks(new.true_region)
    _set_yield(new.true_region, then_y, rw)
    if else_y:
        block = Block()
        new.false_region.add_block(block)
        y = scf.YieldOp(*else_y)
        y.location = op.location
        block.add_op(y)
    rw.replace_op(op, results)
    return True


def _if_condition_propagation(op: Operation, rw: Rewriter) -> bool:
    """Inside the then (else) region the condition is true (false)."""
    if _is_constant(op.cond):
        return False
    changed = False
    consts: dict[bool, SSAValue] = {}
    for use in list(op.cond.uses):
        user = use.operation
        for region, value in ((op.true_region, True), (op.false_region, False)):
            if region.is_ancestor(user):
                if value not in consts:
                    consts[value] = _new_const(rw, IntegerAttr(-1 if value else 0, i1), op, op.location)
                ops = list(user._operands)
                ops[use.index] = consts[value]
                rw.set_operands(user, ops)
                changed = True
                break
    return changed


def _const_int(v: SSAValue) -> int | None:
    a = constant_attr(v)
    if isinstance(a, IntegerAttr):
        return a.value.data
    return None


def _for_trivial(op: Operation, rw: Rewriter) -> bool:
    """MLIR's SimplifyTrivialLoops."""
    if "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes:
        return False
    inits = list(op.iter_args)
    if op.lb is op.ub:
        rw.replace_op(op, inits)
        return True
    lb, ub = _const_int(op.lb), _const_int(op.ub)
    if lb is None or ub is None:
        return False
    diff = ub - lb
    if diff <= 0:
        rw.replace_op(op, inits)
        return True
    step = _const_int(op.step)
    if step is None:
        return False
    body = op.body.blocks.first
    if step >= diff:
        rw.replace_with_region(op, op.body, [op.lb, *inits])
        return True
    term = body.last_op
    if body.first_op is not term:
        return False
    yielded = list(term._operands)
    if any(_inside(v, op) for v in yielded):
        return False
    rw.replace_op(op, yielded)
    return True


def _inside(v: SSAValue, op: Operation) -> bool:
    owner = v.owner
    o = owner.parent_op() if isinstance(owner, Block) else owner
    while o is not None:
        if o is op:
            return True
        o = o.parent_op()
    return False


def _for_iter_args(op: Operation, rw: Rewriter) -> bool:
    """MLIR's ForOpIterArgsFolder: drop iteration arguments that are forwarded unchanged, whose initial value is
    what is yielded, that nothing uses, or that repeat another one's (init, yield) pair."""
    body = op.body.blocks.first
    term = body.last_op
    inits, args, results, yielded = list(op.iter_args), list(body.args[1:]), list(op.results), list(term._operands)
    keep: list[int] = []
    replacement: dict[int, tuple[str, object]] = {}
    seen: dict[tuple, int] = {}
    for i, (init, arg, res, y) in enumerate(zip(inits, args, results, yielded)):
        if y is arg or y is init or (arg.first_use is None and res.first_use is None):
            replacement[i] = ("init", init)
            continue
        key = (id(init), id(y))
        if key in seen:
            replacement[i] = ("dup", seen[key])
            continue
        seen[key] = i
        keep.append(i)
    if not replacement:
        return False
    new = scf.ForOp.create(
        operands=[op.lb, op.ub, op.step, *[inits[i] for i in keep]],
        result_types=[results[i].type for i in keep],
        regions=[Region()],
        attributes=dict(op.attributes),
        properties=dict(op.properties),
    )
    new.location = op.location
    rw.insert_before(new, op)
    op.body.move_blocks(new.body)
    # the block keeps the induction variable and the kept arguments; the others become their replacements
    for i in sorted(replacement, reverse=True):
        kind, what = replacement[i]
        arg = args[i]
        rw.replace_value(arg, what if kind == "init" else args[what])
    yielded = list(term._operands)  # an argument yielded for another one has just been replaced
    for i in sorted(replacement, reverse=True):
        body.erase_arg(args[i])
    # the yield's operands as they are now: a kept argument may yield a dropped one, which took its replacement
    _set_for_yield(body, [term._operands[i] for i in keep], rw)
    values = []
    new_index = {i: k for k, i in enumerate(keep)}
    for i in range(len(results)):
        if i in replacement:
            kind, what = replacement[i]
            values.append(what if kind == "init" else new.results[new_index[what]])
        else:
            values.append(new.results[new_index[i]])
    rw.replace_op(op, values)
    return True


def _set_for_yield(block: Block, values, rw: Rewriter) -> None:
    old = block.last_op
    new = scf.YieldOp(*values)
    new.location = old.location
    block.insert_op_before(new, old)
    rw.erase(old)


# ----------------------------------------------------------------------------- cf patterns


def _br(dest: Block, args, like: Operation) -> Operation:
    new = cf.BranchOp(dest, *args)
    new.location = like.location
    return new


def _cond_br(cond: SSAValue, then_block: Block, then_args, else_block: Block, else_args, like: Operation) -> Operation:
    new = cf.ConditionalBranchOp(cond, then_block, list(then_args), else_block, list(else_args))
    new.attributes.update(like.attributes)
    new.location = like.location
    return new


def _cond_br_constant(op: Operation, rw: Rewriter) -> bool:
    c = constant_attr(op.cond)
    if not isinstance(c, IntegerAttr):
        return False
    dest, args = (op.then_block, op.then_arguments) if c.value.data else (op.else_block, op.else_arguments)
    rw.replace_with_new(op, _br(dest, list(args), op))
    return True


def _collapse(dest: Block, args: list[SSAValue]):
    """MLIR's collapseBranch: a successor that only branches on is skipped; None when it does more."""
    br = dest.first_op
    if br is None or br is not dest.last_op or br.name != "cf.br":
        return None
    if any(u.operation is not br for a in dest.args for u in a.uses):
        return None
    if br.successor is dest:
        return None
    forwarded = [args[v.index] if isinstance(v.owner, Block) and v.owner is dest else v for v in br._operands]
    return br.successor, forwarded


def _cond_br_pass_through(op: Operation, rw: Rewriter) -> bool:
    then_dest, then_args = op.then_block, list(op.then_arguments)
    else_dest, else_args = op.else_block, list(op.else_arguments)
    t = _collapse(then_dest, then_args)
    e = _collapse(else_dest, else_args)
    if t is None and e is None:
        return False
    if t is not None:
        then_dest, then_args = t
    if e is not None:
        else_dest, else_args = e
    rw.replace_with_new(op, _cond_br(op.cond, then_dest, then_args, else_dest, else_args, op))
    return True


def _predecessors(block: Block) -> list[Block]:
    return [u.operation.parent for u in block.uses]


def _cond_br_identical_successors(op: Operation, rw: Rewriter) -> bool:
    dest = op.then_block
    if dest is not op.else_block:
        return False
    t, f = list(op.then_arguments), list(op.else_arguments)
    if all(a is b for a, b in zip(t, f)):
        rw.replace_with_new(op, _br(dest, t, op))
        return True
    if any(p is not op.parent for p in _predecessors(dest)):
        return False
    merged = []
    for a, b in zip(t, f):
        if a is b:
            merged.append(a)
        else:
            sel = _select(op.cond, a, b)
            sel.location = op.location
            rw.insert_before(sel, op)
            merged.append(sel.results[0])
    rw.replace_with_new(op, _br(dest, merged, op))
    return True


def _cond_br_same_condition(op: Operation, rw: Rewriter) -> bool:
    """A cond_br whose only predecessor branched on the same condition goes the way that one went."""
    preds = _predecessors(op.parent)
    if len(preds) != 1:
        return False
    pred = preds[0].last_op
    if pred.name != "cf.cond_br" or pred.cond is not op.cond:
        return False
    if op.parent is pred.then_block:
        rw.replace_with_new(op, _br(op.then_block, list(op.then_arguments), op))
    else:
        rw.replace_with_new(op, _br(op.else_block, list(op.else_arguments), op))
    return True


def _cond_br_truth(op: Operation, rw: Rewriter) -> bool:
    """In a successor reached only from this branch, the condition is known."""
    changed = False
    for dest, value in ((op.then_block, True), (op.else_block, False)):
        if len(_predecessors(dest)) != 1:
            continue
        const = None
        for use in list(op.cond.uses):
            user = use.operation
            if user.parent is dest:
                if const is None:
                    const = _new_const(rw, IntegerAttr(-1 if value else 0, i1), op, op.location)
                ops = list(user._operands)
                ops[use.index] = const
                rw.set_operands(user, ops)
                changed = True
    return changed


def _br_pass_through(op: Operation, rw: Rewriter) -> bool:
    c = _collapse(op.successor, list(op._operands))
    if c is None:
        return False
    rw.replace_with_new(op, _br(c[0], c[1], op))
    return True


def _br_to_single_pred(op: Operation, rw: Rewriter) -> bool:
    dest = op.successor
    block = op.parent
    if dest is block or dest.first_use is None or dest.first_use._next_use is not None:
        return False
    if dest is dest.parent.blocks.first:
        return False
    args = list(op._operands)
    for a, v in zip(dest.args, args):
        rw.replace_value(a, v)
    rw.erase(op)
    for o in list(dest.ops):
        o.detach()
        block.add_op(o)
        rw.modified(o)
    dest.parent.detach_block(dest)
    for a in reversed(dest.args):
        dest.erase_arg(a)
    dest.erase()
    return True


def _barrier_before_barrier(op: Operation, rw: Rewriter) -> bool:
    if op.next_op is None or op.next_op.name != "gpu.barrier":
        return False
    rw.erase(op)
    return True


# ----------------------------------------------------------------------------- registry

PATTERNS: dict[str, list[Callable[[Operation, Rewriter], bool]]] = {}


def _add(names, *fns) -> None:
    for n in [names] if isinstance(names, str) else names:
        PATTERNS.setdefault(n, []).extend(fns)


_add(sorted(COMMUTATIVE), _constant_to_right)
_add("arith.addi", _reassociate_addi, _addi_of_neg)
_add("arith.subi", _reassociate_subi)
_add("arith.muli", _reassociate_muli)
_add("arith.xori", _xori_not_cmpi)
_add("arith.cmpi", _constant_to_right, _cmpi_of_exts)
_add("arith.cmpf", _cmpf_of_int_to_fp)
_add("arith.select", _select_patterns, _select_to_extui)
_add(["arith.mulf", "arith.divf"], _negf_pair)
_add(["arith.extsi", "arith.extui"], _same_ext_chain)
_add("arith.extsi", _extsi_of_extui)
_add("arith.trunci", _trunci_chain, _trunci_of_shrsi)
_add("arith.bitcast", _bitcast_of_bitcast)
_add("arith.truncf", _truncf_of_extf)
_add("tt.load", _load_mask)
_add("tt.store", _store_mask)
_add("tt.broadcast", _broadcast_patterns)
_add("tt.expand_dims", _expand_dims_patterns)
_add("tt.reshape", _reshape_patterns)
_add("tt.trans", _trans_of_trans)


def _convert_patterns(op: Operation, rw: Rewriter) -> bool:
    """Triton's ConvertLayoutOp canonicalization patterns (ttc/ir/convert_layout_patterns.py), each
    about an op fed by (or feeding) a ttg.convert_layout: none can match before the ttg dialect is loaded, so
    TTIR never imports them."""
    if "ttc.ir.ttg" not in sys.modules:
        return False
    from ttc.ir.convert_layout_patterns import CONVERT_PATTERNS

    return any(fn(op, rw) for fn in CONVERT_PATTERNS[op.name])


def _warp_specialize(op: Operation, rw: Rewriter) -> bool:
    from ttc.ir import warp_specialize

    return warp_specialize.canonicalize(op, rw)


# The names CONVERT_PATTERNS has patterns for (test_canonicalize_lazy checks the list against it).
CONVERT_PATTERN_OPS = ("ttg.convert_layout", "tt.trans", "tt.reshape", "tt.histogram", "ttg.local_alloc",
                       "ttg.local_store", "tt.split", "tt.gather")
for _name in CONVERT_PATTERN_OPS:
    _add(_name, _convert_patterns)
_add("ttng.tmem_store", _tmem_store_of_convert)
_add("ttg.memdesc_subslice", _memdesc_subslice_chain)
_add("ttg.memdesc_trans", _memdesc_trans_fold)
_add("scf.if", _if_negated_condition, _combine_ifs, _combine_nested_ifs, _if_condition_propagation, _if_to_select, _if_empty_else,
     _if_static_condition, _if_unused_results, _if_yield_condition)
_add("scf.for", _for_iter_args, _for_trivial)
_add("cf.cond_br", _cond_br_constant, _cond_br_pass_through, _cond_br_identical_successors,
     _cond_br_same_condition, _cond_br_truth)
_add("cf.br", _br_to_single_pred, _br_pass_through)
_add("gpu.barrier", _barrier_before_barrier)
_add("ttg.warp_specialize", _warp_specialize)


# ----------------------------------------------------------------------------- the pass

REGION_SIMPLIFY = ("disabled", "normal")


@dataclass(frozen=True)
class Canonicalize(Pass):
    """Canonicalize operations."""

    name = "canonicalize"
    display = "Canonicalizer"
    summary = "Canonicalize operations"

    max_iterations: int = option(10, "Max. iterations between applying patterns / simplifying regions (-1: no limit)")
    region_simplify: str = option("normal", "Region simplification after each iteration: disabled or normal")

    def __post_init__(self):
        if self.region_simplify not in REGION_SIMPLIFY:
            raise ValueError(f"option 'region-simplify' must be one of {', '.join(REGION_SIMPLIFY)}, "
                             f"got '{self.region_simplify}'")

    def apply(self, ctx, op) -> bool:
        """False when the IR is left as it was (the pass manager then skips the verifier)."""
        return self.drive(op)[1]

    def run(self, op) -> bool:
        """`apply`; True when every region reached its fixed point (an iteration that changed nothing), so that
        running again on the same IR changes nothing."""
        return self.drive(op)[0]

    def drive(self, op, drivers: list | None = None) -> tuple[bool, bool]:
        """(whether every region reached its fixed point, whether the IR changed); `drivers` receives the drivers,
        one per region (for `GreedyDriver.inherit`)."""
        made = [GreedyDriver(PATTERNS, top_down=True, max_iterations=self.max_iterations,
                             region_simplify=self.region_simplify == "normal") for _ in op.regions]
        if drivers is not None:
            drivers += made
        converged = all([d.run(region) for d, region in zip(made, op.regions)])
        return converged, any(d.touched for d in made)
