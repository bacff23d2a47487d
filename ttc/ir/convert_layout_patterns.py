"""The canonicalization patterns of `ttg.convert_layout` and of the ops it feeds (Triton's
ConvertLayoutOp::getCanonicalizationPatterns and its CanonicalizeConvertFrom* patterns, lib/Dialect/TritonGPU/IR/
Ops.cpp), by op name: `-canonicalize` applies them once the ttg dialect is loaded, and
tritongpu-remove-layout-conversions between its own steps. Each pattern is `fn(op, rewriter) -> bool`."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from ttc.ir.fold import attr_of, constant_attr, make_constant, splat_value
from ttc.ir.layout_utils import infer_dst_encoding, is_expensive_view, layouts_equivalent, with_encoding
from ttc.ir.layouts import DotOperandEncoding, NvidiaMmaEncoding
from ttc.ir.ttg import ConvertLayoutOp
from ttc.ir.types import encoding


def _new_op_like(op: Operation, operands, result_types) -> Operation:
    new = op.clone(clone_operands=False) if not op.regions else op.clone()
    new.operands = list(operands)
    for r, t in zip(new.results, result_types):
        r._type = t
    return new


def convert(src: SSAValue, t) -> Operation:
    """A new `ttg.convert_layout` of `src` to type `t` (not inserted)."""
    return ConvertLayoutOp.create(operands=[src], result_types=[t])


def is_convert_trivial(cvt: Operation) -> bool:
    """Triton's isConvertTrivial: source and result layouts describe the same placement of elements (equal linear
    layouts)."""
    src, dst = cvt.operands[0].type, cvt.results[0].type
    return layouts_equivalent(list(src.get_shape()), encoding(src), encoding(dst))


def convert_from_convert(op: Operation, rw) -> bool:
    """Triton's CanonicalizeConvertFromConvert."""
    src_t, dst_t = op.operands[0].type, op.results[0].type
    if src_t == dst_t:
        rw.replace_op(op, [op.operands[0]])
        return True
    if isinstance(encoding(dst_t), DotOperandEncoding) and isinstance(encoding(src_t), NvidiaMmaEncoding):
        return False
    arg = op.operands[0].owner
    if not isinstance(arg, Operation):
        return False
    name = arg.name
    if name == "tt.reshape":
        # a reordering reshape produces any layout its view allows (none to or from a dot operand layout)
        if (arg.properties.get("allow_reorder") is None or arg.properties.get("efficient_layout") is not None
                or is_expensive_view(arg.operands[0].type, dst_t)
                or isinstance(encoding(src_t), DotOperandEncoding) or isinstance(encoding(dst_t), DotOperandEncoding)):
            return False
        new = _new_op_like(arg, [arg.results[0]], [dst_t])
        rw.replace_with_new(op, new)
        return True
    if name == "tt.histogram":
        rw.replace_with_new(op, _new_op_like(arg, arg.operands, [dst_t]))
        return True
    if name == "ttg.local_load":
        new = _new_op_like(arg, arg.operands, [dst_t])
        new.location = op.location
        rw.insert_before(new, arg)
        rw.replace_op(op, new.results)
        return True
    if name == "ttg.convert_layout":
        rw.replace_with_new(op, convert(arg.operands[0], dst_t))
        return True
    if name == "tt.splat":
        rw.replace_with_new(op, _new_op_like(arg, arg.operands, [dst_t]))
        return True
    if name == "tt.make_range":
        rw.replace_with_new(op, _new_op_like(arg, [], [dst_t]))
        return True
    if name == "arith.constant":
        v = splat_value(constant_attr(arg.results[0]))
        if v is not None and isinstance(src_t, TensorType):
            rw.replace_with_new(op, make_constant(attr_of(dst_t, [v]), dst_t))
            return True
    return False


def _operand_cvt(v: SSAValue) -> Operation | None:
    d = v.owner
    return d if isinstance(d, Operation) and d.name == "ttg.convert_layout" else None


def trans_of_convert(op: Operation, rw) -> bool:
    order = list(op.order.get_values())
    if order == list(range(len(order))):
        rw.replace_with_new(op, convert(op.operands[0], op.results[0].type))
        return True
    c = _operand_cvt(op.operands[0])
    if c is None or not is_convert_trivial(c):
        return False
    rw.replace_with_new(op, _new_op_like(op, [c.operands[0]], [op.results[0].type]))
    return True


def reshape_of_convert(op: Operation, rw) -> bool:
    """Triton's CanonicalizeConvertFromReshape: reshape(cvt(x)) -> reshape(x) for a trivial conversion, or for a
    reordering reshape when the view from x's layout moves no data."""
    c = _operand_cvt(op.operands[0])
    if c is None:
        return False
    if not is_convert_trivial(c) and (op.properties.get("allow_reorder") is None
                                      or is_expensive_view(c.operands[0].type, op.results[0].type)):
        return False
    rw.replace_with_new(op, _new_op_like(op, [c.operands[0]], [op.results[0].type]))
    return True


def histogram_of_convert(op: Operation, rw) -> bool:
    """Triton's CanonicalizeConvertFromHistogram: the histogram reads the conversion's source (its result layout
    is independent), its mask converted to the source's layout."""
    c = _operand_cvt(op.operands[0])
    if c is None:
        return False
    src = c.operands[0]
    operands = [src]
    if len(op.operands) > 1:
        m = op.operands[1]
        mask = convert(m, with_encoding(m.type, encoding(src.type)))
        mask.location = op.location
        rw.insert_before(mask, op)
        operands.append(mask.results[0])
    rw.replace_with_new(op, _new_op_like(op, operands, [op.results[0].type]))
    return True


def first_operand_of_convert(op: Operation, rw) -> bool:
    """histogram/local_alloc/local_store of a conversion use the conversion's source (their layouts are free)."""
    if not op.operands:
        return False
    c = _operand_cvt(op.operands[0])
    if c is None:
        return False
    operands = list(op.operands)
    operands[0] = c.operands[0]
    rw.replace_with_new(op, _new_op_like(op, operands, [r.type for r in op.results]))
    return True


def split_of_convert(op: Operation, rw) -> bool:
    c = _operand_cvt(op.operands[0])
    if c is None:
        return False
    if infer_dst_encoding(op, encoding(c.operands[0].type)) != encoding(op.results[0].type):
        return False
    rw.replace_with_new(op, _new_op_like(op, [c.operands[0]], [r.type for r in op.results]))
    return True


def gather_source_of_convert(op: Operation, rw) -> bool:
    """Triton's CanonicalizeConvertFromGatherSource: a gather without an optimized layout goes through shared
    memory, so its source's layout does not matter."""
    if op.properties.get("efficient_layout") is not None:
        return False
    c = _operand_cvt(op.operands[0])
    if c is None:
        return False
    rw.replace_with_new(op, _new_op_like(op, [c.operands[0], op.operands[1]], [op.results[0].type]))
    return True


CONVERT_PATTERNS = {
    "ttg.convert_layout": [convert_from_convert],
    "tt.trans": [trans_of_convert],
    "tt.reshape": [reshape_of_convert],
    "tt.histogram": [histogram_of_convert],
    "ttg.local_alloc": [first_operand_of_convert],
    "ttg.local_store": [first_operand_of_convert],
    "tt.split": [split_of_convert],
    "tt.gather": [gather_source_of_convert],
}
