"""triton-reorder-broadcast: Triton's TritonReorderBroadcast pass (lib/Dialect/Triton/Transforms/ReorderBroadcast.cpp).

Elementwise ops are moved after the broadcasts and splats that feed them, so they compute on the smaller
tensors:

- `elementwise(splat(a), splat(b), dense<c>, ...)` -> `splat(elementwise(a, b, c, ...))` when every operand is
  a `tt.splat` or a splat constant (the constant becomes a scalar `arith.constant`);
- `elementwise(broadcast(a), splat(b), dense<c>, ...)` -> `broadcast(elementwise(a, splat'(b), dense'<c>, ...))`
  when one or more operands are broadcasts from the same shape and the others are splats or splat constants
  (re-made in the broadcast source's shape and layout).

The op must be free of memory effects (`tt.extern_elementwise` and `tt.elementwise_inline_asm` only when pure)
and have MLIR's Elementwise trait: every `arith` op but `arith.constant`, every `math` op, and Triton's
`tt.addptr`, `tt.bitcast`, `tt.fp_to_fp`, `tt.int_to_ptr`, `tt.ptr_to_int`, `tt.clampf`, `tt.precise_sqrt`,
`tt.precise_divf`, `tt.mulhiui`, `tt.extern_elementwise` and `tt.elementwise_inline_asm`. The new ops get the
location of the op they replace. Triton's canonicalization patterns of `tt.broadcast`
(`broadcast(broadcast(x))` -> `broadcast(x)`, `broadcast(splat(x))` -> `splat(x)`) and `tt.expand_dims`
(`expand_dims(splat(x))` -> `splat(x)`, `expand_dims(broadcast(x))` -> `broadcast(expand_dims(x))` for tensors
without layouts) run in the same greedy driver as the two patterns above (triton-combine's:
`ttc.opt.greedy_rewrite.apply_xdsl_patterns`), which also folds, hoists constants and erases dead ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from ttc.ir.fold import attr_of, constant_attr, elements_of
from ttc.opt.greedy_rewrite import apply_xdsl_patterns
from ttc.ir import tt
from ttc.ir.types import elt, encoding, shape_of
from ttc.passes.combine import defining
from ttc.opt.passmanager import Pass

_TT_ELEMENTWISE = {
    "tt.addptr", "tt.bitcast", "tt.fp_to_fp", "tt.int_to_ptr", "tt.ptr_to_int", "tt.clampf", "tt.precise_sqrt",
    "tt.precise_divf", "tt.mulhiui", "tt.extern_elementwise", "tt.elementwise_inline_asm",
}


def is_elementwise(op: Operation) -> bool:
    """MLIR's OpTrait::Elementwise, for the ops of this IR."""
    name = op.name
    if name.startswith("arith."):
        return name != "arith.constant"
    return name.startswith("math.") or name in _TT_ELEMENTWISE


def is_memory_effect_free(op: Operation) -> bool:
    if op.name in ("tt.extern_elementwise", "tt.elementwise_inline_asm"):
        return bool(op.pure.value.data)
    return True  # every other elementwise op is Pure


def _splat_constant(value: SSAValue):
    """The element of a splat tensor constant defining `value`, as its attribute's Elements, or None."""
    attr = constant_attr(value)
    if attr is None or not isinstance(attr.type, TensorType):
        return None
    e = elements_of(attr)
    return e if e is not None and e.splat else None


def _is_splat(value: SSAValue) -> bool:
    return defining(value, tt.SplatOp) is not None or _splat_constant(value) is not None


def _clone_with(op: Operation, operands, result_types) -> Operation:
    """`op` re-made with new operands and result types (properties and attributes kept)."""
    new = type(op).create(
        operands=list(operands),
        result_types=list(result_types),
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    new.location = op.location
    return new


def _located(new: Operation, like: Operation) -> Operation:
    new.location = like.location
    return new


class MoveSplatAfterElementwise(RewritePattern):
    """`elementwise(splat(a), splat(b), ...)` -> `splat(elementwise(a, b, ...))`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_elementwise(op) or not is_memory_effect_free(op) or not op.operands:
            return
        if not all(_is_splat(v) for v in op.operands):
            return
        if not all(isinstance(r.type, TensorType) for r in op.results):
            return
        new_ops: list[Operation] = []
        scalars = []
        for v in op.operands:
            splat = defining(v, tt.SplatOp)
            if splat is not None:
                scalars.append(splat.src)
                continue
            e = _splat_constant(v)
            const = _located(ConstantOp(attr_of(e.element_type, e.values), e.element_type), op)
            new_ops.append(const)
            scalars.append(const.results[0])
        scalar_op = _clone_with(op, scalars, [elt(r.type) for r in op.results])
        new_ops.append(scalar_op)
        splats = [
            _located(tt.SplatOp.create(operands=[s], result_types=[r.type]), op)
            for s, r in zip(scalar_op.results, op.results)
        ]
        rewriter.insert(new_ops + splats)
        for r, s in zip(op.results, splats):
            rewriter.replace_all_uses_with(r, s.result)


class MoveBroadcastAfterElementwise(RewritePattern):
    """`elementwise(broadcast(a), splat(b), ...)` -> `broadcast(elementwise(a, splat(b), ...))`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_elementwise(op) or not is_memory_effect_free(op):
            return
        src_shape = None
        for v in op.operands:
            b = defining(v, tt.BroadcastOp)
            if b is not None:
                if src_shape is None:
                    src_shape = shape_of(b.src.type)
                elif shape_of(b.src.type) != src_shape:
                    return  # broadcasts from different shapes cannot be reordered
            elif not _is_splat(v):
                return
        if src_shape is None:
            return
        first = next(defining(v, tt.BroadcastOp) for v in op.operands if defining(v, tt.BroadcastOp) is not None)
        src_type = first.src.type
        layout = src_type.encoding

        def small(t) -> TensorType:
            return TensorType(elt(t), list(src_shape), layout)

        new_ops: list[Operation] = []
        operands = []
        for v in op.operands:
            b = defining(v, tt.BroadcastOp)
            if b is not None:
                operands.append(b.src)
                continue
            splat = defining(v, tt.SplatOp)
            if splat is not None:
                new = tt.SplatOp.create(operands=[splat.src], result_types=[small(v.type)])
            else:
                e = _splat_constant(v)
                t = small(v.type)
                new = ConstantOp(attr_of(t, e.values), t)
            new_ops.append(_located(new, op))
            operands.append(new.results[0])
        inner = _clone_with(op, operands, [small(r.type) for r in op.results])
        new_ops.append(inner)
        broadcasts = [
            _located(tt.BroadcastOp.create(operands=[s], result_types=[r.type]), op)
            for s, r in zip(inner.results, op.results)
        ]
        rewriter.insert(new_ops + broadcasts)
        for r, b in zip(op.results, broadcasts):
            rewriter.replace_all_uses_with(r, b.result)


class CanonicalizeBroadcast(RewritePattern):
    """`broadcast(broadcast(x))` -> `broadcast(x)`, `broadcast(splat(x))` -> `splat(x)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.BroadcastOp, rewriter: PatternRewriter) -> None:
        inner = op.src.owner
        if isinstance(inner, tt.BroadcastOp):
            new = tt.BroadcastOp.create(operands=[inner.src], result_types=[op.result.type],
                                        attributes=dict(inner.attributes))
        elif isinstance(inner, tt.SplatOp):
            new = tt.SplatOp.create(operands=[inner.src], result_types=[op.result.type])
        else:
            return
        rewriter.replace(op, _located(new, op))


class CanonicalizeExpandDims(RewritePattern):
    """`expand_dims(splat(x))` -> `splat(x)`, `expand_dims(broadcast(x))` -> `broadcast(expand_dims(x))`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ExpandDimsOp, rewriter: PatternRewriter) -> None:
        inner = op.src.owner
        if isinstance(inner, tt.SplatOp):
            rewriter.replace(op, _located(tt.SplatOp.create(operands=[inner.src], result_types=[op.result.type]), op))
            return
        if not isinstance(inner, tt.BroadcastOp):
            return
        src = inner.src
        if encoding(src.type) is not None:
            return  # Triton infers the new layout through the layout dialect; not modelled here
        axis = op.axis.value.data
        shape = list(shape_of(src.type))
        shape.insert(axis, 1)
        expand = _located(
            tt.ExpandDimsOp.create(operands=[src], result_types=[TensorType(elt(src.type), shape)],
                                   properties={"axis": IntegerAttr(axis, op.axis.type)}),
            op,
        )
        broadcast = _located(tt.BroadcastOp.create(operands=[expand.result], result_types=[op.result.type]), inner)
        rewriter.replace(op, [expand, broadcast])


PATTERNS: tuple[RewritePattern, ...] = (
    CanonicalizeBroadcast(),
    CanonicalizeExpandDims(),
    MoveBroadcastAfterElementwise(),
    MoveSplatAfterElementwise(),
)


@dataclass(frozen=True)
class TritonReorderBroadcast(Pass):
    """Move elementwise ops after the broadcasts and splats feeding them (Triton's TritonReorderBroadcast)."""

    name = "triton-reorder-broadcast"
    display = "TritonReorderBroadcast"
    summary = "Move broadcasts and splats after elementwise operations"

    def apply(self, ctx, op) -> None:
        apply_xdsl_patterns(op, PATTERNS)
