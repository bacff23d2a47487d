"""triton-combine: Triton's TritonCombineOps pass (lib/Dialect/Triton/Transforms/Combine.cpp and Combine.td).

Patterns, applied by MLIR's greedy driver (so the pass also folds ops, hoists and de-duplicates constants and
erases dead ops, as every `applyPatternsGreedily` pass does):

- `addf(d, dot(a, b, 0))` / `addf(dot(a, b, 0), d)` -> `dot(a, b, d)`, and the same for `addi`: the dot is
  updated in place (its accumulator set to `d`, moved right before the add) when the dot has this one use and a
  zero accumulator (splat or scalar, +0.0 or -0.0), and for `addf` its `maxNumImpreciseAcc` is 0. As in Triton,
  when the right operand is a dot that does not qualify, the left one is not tried.
- `addptr(addptr(p, a), b)` -> `addptr(p, addi(a, b))` when `a` and `b` have the same type and either are 64-bit
  integers or are both constants (scalar, splat, or `tt.splat` of a constant) whose sum does not overflow. The
  new ops get the fused location of both addptrs; `tt.divisibility`, `tt.contiguity`, `tt.constancy` and
  `tt.pointee_type` are carried over from the outer addptr, other discardable attributes are dropped.
- `select(c, load(p, splat(c), x), y)` -> `load(p, splat(c), y)` (cache, eviction, volatility, boundary check
  and padding kept).
- `reduce(mulf(broadcast(expand_dims(x, 2)), broadcast(expand_dims(y, 0))), 1)` with an `addf` (<= 32 bits)
  combiner -> `dot(x, y, splat(0.0))` in tf32 when the K dimension is at least 16. Triton builds the zero
  accumulator as an f32 splat whatever the element type; this port only rewrites f32 tensors (where that is
  valid IR) and only when the dot's type is the reduce's.
- `reshape` to 1-D whose users are all `tt.reduce` / `tt.histogram` gets `allow_reorder`.

- `reshape(descriptor_load(d))` that only drops leading unit dimensions of the load (its one use) -> the load
  itself, typed as the reshape's result (TMA loads may drop a descriptor block's leading unit dimensions).

The driver is `ttc.opt.greedy_rewrite.apply_xdsl_patterns`: `applyPatternsGreedily`'s default configuration, as in
Triton (see `ttc.opt.greedy_rewrite`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    f32,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from ttc.ir.fold import (
    constant_attr,
    elements_of,
    int_width,
    is_zero,
    to_signed,
)
from ttc.opt.greedy_rewrite import apply_xdsl_patterns, fused_location
from ttc.ir import std, tt
from ttc.ir.tensordesc import DescriptorLoadOp
from ttc.ir.types import elt, shape_of
from ttc.opt.passmanager import Pass

# ----------------------------------------------------------------------------- helpers


def defining(value: SSAValue, cls):
    """The op of class `cls` defining `value`, or None."""
    op = value.owner
    return op if isinstance(op, cls) else None





def _constant_int(value: SSAValue) -> int | None:
    """Triton's GetConstantIntValue: the signed value of a scalar or splat integer constant, looking
    through one `tt.splat`."""
    splat = defining(value, tt.SplatOp)
    if splat is not None:
        value = splat.src
    attr = constant_attr(value)
    e = elements_of(attr)
    if e is None or not e.splat or not isinstance(e.element_type, IntegerType):
        return None
    return to_signed(e.values[0], int_width(e.element_type))


def _addptr_offsets_combinable(first: SSAValue, second: SSAValue) -> bool:
    if first.type != second.type:
        return False
    et = elt(first.type)
    if not isinstance(et, IntegerType):
        return False
    width = int_width(et)
    if width == 64:
        return True
    a, b = _constant_int(first), _constant_int(second)
    if a is None or b is None:
        return False
    return -(1 << (width - 1)) <= a + b < (1 << (width - 1))


KEPT_DISCARDABLE = ("tt.divisibility", "tt.contiguity", "tt.constancy", "tt.pointee_type")

# ----------------------------------------------------------------------------- patterns


class CombineDotAdd(RewritePattern):
    """`add(d, dot(a, b, 0))` -> `dot(a, b, d)` (in place), for `arith.addf` and `arith.addi`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, (arith.AddfOp, arith.AddiOp)):
            return
        lhs, rhs = op.operands
        dot, other = defining(rhs, tt.DotOp), lhs
        if dot is None:
            dot, other = defining(lhs, tt.DotOp), rhs
            if dot is None:
                return
        if not dot.d.has_one_use():
            return
        if not is_zero(dot.c):
            return
        if isinstance(op, arith.AddfOp) and dot.maxNumImpreciseAcc.value.data != 0:
            return
        dot.operands = [dot.a, dot.b, other]
        dot.detach()
        rewriter.insert(dot, InsertPoint.before(op))
        rewriter.notify_op_modified(dot)
        rewriter.replace_all_uses_with(op.results[0], dot.d)


class CombineAddPtr(RewritePattern):
    """`addptr(addptr(p, a), b)` -> `addptr(p, addi(a, b))` (Combine.td's CombineAddPtrPattern)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.AddPtrOp, rewriter: PatternRewriter) -> None:
        inner = defining(op.ptr, tt.AddPtrOp)
        if inner is None or not _addptr_offsets_combinable(inner.offset, op.offset):
            return
        loc = fused_location(op, inner)
        add = arith.AddiOp(inner.offset, op.offset)
        add.location = loc
        new = tt.AddPtrOp.create(operands=[inner.ptr, add.results[0]], result_types=[op.result.type])
        new.location = loc
        for name in KEPT_DISCARDABLE:
            if name in op.attributes:
                new.attributes[name] = op.attributes[name]
        rewriter.replace(op, [add, new])


class CombineSelectMaskedLoad(RewritePattern):
    """`select(c, load(p, splat(c), x), y)` -> `load(p, splat(c), y)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: std.SelectOp, rewriter: PatternRewriter) -> None:
        load = defining(op.lhs, tt.LoadOp)
        if load is None or load.mask is None:
            return
        splat = defining(load.mask, tt.SplatOp)
        if splat is None or splat.src != op.cond:
            return
        props = {k: v for k, v in load.properties.items() if k != "operandSegmentSizes"}
        new = tt.LoadOp.build(operands=[load.ptr, [load.mask], [op.rhs]], result_types=[load.result.type],
                              properties=props)
        new.location = op.location
        rewriter.replace(op, [new])


class CombineBroadcastMulReduce(RewritePattern):
    """`sum(x[:, :, None] * y[None, :, :], 1)` -> `dot(x, y)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReduceOp, rewriter: PatternRewriter) -> None:
        if len(op.srcs) != 1 or len(op.combineOp.blocks) != 1:
            return
        body = list(op.combineOp.blocks.first.ops)
        if len(body) != 2 or not isinstance(body[0], arith.AddfOp) or elt(body[0].result.type).bitwidth > 32:
            return
        mul = defining(op.srcs[0], arith.MulfOp)
        if mul is None:
            return
        bl, br = defining(mul.lhs, tt.BroadcastOp), defining(mul.rhs, tt.BroadcastOp)
        if bl is None or br is None:
            return
        el, er = defining(bl.src, tt.ExpandDimsOp), defining(br.src, tt.ExpandDimsOp)
        if el is None or er is None or el.axis.value.data != 2 or er.axis.value.data != 0:
            return
        shape = shape_of(bl.result.type)  # Triton reads both shapes from the left broadcast
        if shape[2] < 16 or shape[0] < 16:
            return
        element = elt(bl.src.type)
        acc_type = TensorType(element, [shape[0], shape[2]])
        if element != f32 or op.result[0].type != acc_type:
            return
        zero = arith.ConstantOp(FloatAttr(0.0, f32))
        splat = tt.SplatOp.create(operands=[zero.result], result_types=[acc_type])
        dot = tt.DotOp.create(
            operands=[el.src, er.src, splat.result],
            result_types=[acc_type],
            properties={"inputPrecision": IntegerAttr(tt.INPUT_PRECISION["tf32"], i32), "maxNumImpreciseAcc": IntegerAttr(0, i32)},
        )
        for new in (zero, splat, dot):
            new.location = op.location
        rewriter.replace(op, [zero, splat, dot])


class CombineReshapeReduce(RewritePattern):
    """A 1-D `reshape` feeding only reductions and histograms may reorder elements: set `allow_reorder`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReshapeOp, rewriter: PatternRewriter) -> None:
        if op.allow_reorder is not None or len(shape_of(op.result.type)) != 1:
            return
        if any(not isinstance(u.operation, (tt.ReduceOp, tt.HistogramOp)) for u in op.result.uses):
            return
        op.allow_reorder = UnitAttr()
        rewriter.notify_op_modified(op)


class RankReduceDescriptorLoad(RewritePattern):
    """Triton's RankedReduceDescriptorLoads: a `reshape` of a `tt.descriptor_load` (its one use) that drops only
    leading dimensions of size 1 is folded into the load, whose result takes the reshape's type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReshapeOp, rewriter: PatternRewriter) -> None:
        load = defining(op.operands[0], DescriptorLoadOp)
        if load is None or not load.result.has_one_use():
            return
        src, dst = shape_of(load.result.type), shape_of(op.result.type)
        drop = len(src) - len(dst)
        if drop <= 0 or any(d != 1 for d in src[:drop]) or tuple(src[drop:]) != tuple(dst):
            return
        load.result._type = op.result.type
        rewriter.notify_op_modified(load)
        rewriter.replace_op(op, [], [load.result])


PATTERNS: tuple[RewritePattern, ...] = (
    CombineSelectMaskedLoad(),  # benefit 3 in Triton; the others have 1 and match other ops
    CombineDotAdd(),
    CombineAddPtr(),
    CombineBroadcastMulReduce(),
    CombineReshapeReduce(),
    RankReduceDescriptorLoad(),
)


@dataclass(frozen=True)
class TritonCombine(Pass):
    """Combine ops: dot + add, addptr chains, select of a masked load, broadcast-mul-reduce, reshape feeding
    reductions, rank-reducing descriptor loads (Triton's TritonCombineOps)."""

    name = "triton-combine"
    display = "TritonCombineOps"
    summary = "Combine ops: dot(a, b, 0) + d, addptr chains, select of masked loads, mul-reduce to dot"

    def apply(self, ctx, op) -> None:
        apply_xdsl_patterns(op, PATTERNS)
