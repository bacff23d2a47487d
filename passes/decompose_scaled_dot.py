"""The decomposition of `tt.dot_scaled` for targets without native microscaled dots (Triton's
DecomposeScaledBlocked, part of tritongpu-accelerate-matmul; everything before sm100): each operand is upcast
to the compute type (bf16, or fp16 when either operand is fp16), multiplied by its scales, and an ordinary
`tt.dot` takes the products.

For an operand X (a: M x K, opIdx 0; b: K x N, opIdx 1) in the blocked layout the conversion gave it:

    e4m3 / e5m2 / other float:  %v = tt.fp_to_fp %X                        (its layout)
    e2m1 (i8, pairs along K):   %v = ttg.fp4_to_fp %X {axis = K}            (sizePerThread doubled along K)
    with a scale S (R x K/32 i8, R = M or N, its layout LS):
        %e = arith.extui S to i16; %s = arith.shli %e, 7; %f = tt.bitcast %s -> bf16   (2^(S - 127))
        %f3 = tt.expand_dims (convert_layout %f to slice(2, L3)) {axis = 2}; tt.broadcast to R x K/32 x 32;
        tt.reshape to R x K (for b: then tt.trans to K x N), in %v's layout   (L3: LS with a third dimension)
        %v = arith.mulf %v, %f3'   (after tt.fp_to_fp of %f3' when computing in fp16)
        the same chain of `arith.cmpi eq, S, 0xFF` selects NaN where the scale is NaN
    %d = tt.dot (convert_layout %va to dot_op 0), (convert_layout %vb to dot_op 1), %acc

The result keeps the dot_scaled's layout; tritongpu-accelerate-matmul then gives the dot its MMA layout (bf16
and fp16 dots with f32 accumulators: MMA v2) like any other.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (BFloat16Type, DenseArrayBase, DenseIntOrFPElementsAttr, Float16Type, FloatAttr,
                                   IntegerAttr, i1, i16, i32, i64)
from xdsl.ir import Operation, SSAValue

from ttc.diagnostics import CompileError, at_op
from ttc.ir.format import build_op
from ttc.ir.layout_utils import blocked, slice_of
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding
from ttc.ir.scaled import SCALE_GROUP
from ttc.ir.types import encoding, shape_of, tensor


def _op_class(name: str):
    from ttc.ir import std, tt, ttg
    for dialect in (std.ARITH, tt.TT, ttg.TTG):
        for cls in dialect.operations:
            if cls.name == name:
                return cls
    raise KeyError(name)


class _Emitter:
    def __init__(self, anchor: Operation):
        self.anchor, self.block = anchor, anchor.parent

    def op(self, name: str, operands, result_type, props=None) -> SSAValue:
        new = build_op(_op_class(name), list(operands), [result_type], props or {})
        new.location = self.anchor.location
        self.block.insert_op_before(new, self.anchor)
        return new.results[0]

    def convert(self, v: SSAValue, t) -> SSAValue:
        return v if v.type == t else self.op("ttg.convert_layout", [v], t)

    def splat_constant(self, t, value) -> SSAValue:
        e = t.element_type
        attr = (FloatAttr(value, e) if isinstance(e, (BFloat16Type, Float16Type)) else IntegerAttr(value, e))
        return self.op("arith.constant", [], t, {"value": DenseIntOrFPElementsAttr.from_list(t, [attr.value.data])})


def _doubled(enc: BlockedEncoding, axis: int) -> BlockedEncoding:
    spt = list(enc["sizePerThread"])
    spt[axis] *= 2
    return blocked(spt, enc["threadsPerWarp"], enc["warpsPerCTA"], enc["order"])


def _with_third_dim(enc: BlockedEncoding) -> BlockedEncoding:
    """A rank-3 blocked layout whose slice along dimension 2 is `enc` (the new dimension fastest, one thread)."""
    return blocked(list(enc["sizePerThread"]) + [1], list(enc["threadsPerWarp"]) + [1],
                   list(enc["warpsPerCTA"]) + [1], [2] + [o for o in enc["order"]])


def _spread(em: _Emitter, v: SSAValue, op_idx: int, target) -> SSAValue:
    """R x K/32 values (v) as the R x K tensor of the operand (a: M x K; b, transposed: K x N) in `target`."""
    r, g = shape_of(v.type)
    enc = encoding(v.type)
    e = v.type.element_type
    l3 = _with_third_dim(enc)
    v = em.convert(v, tensor([r, g], e, slice_of(2, l3)))
    v = em.op("tt.expand_dims", [v], tensor([r, g, 1], e, l3), {"axis": IntegerAttr(2, i32)})
    v = em.op("tt.broadcast", [v], tensor([r, g, SCALE_GROUP], e, l3))
    if op_idx == 0:
        return em.op("tt.reshape", [v], target)
    k, n = shape_of(target)
    rows = tensor([n, k], e, blocked([1, 1], enc["threadsPerWarp"], enc["warpsPerCTA"], [1, 0]))
    v = em.op("tt.reshape", [v], rows)
    return em.op("tt.trans", [v], tensor([k, n], e, encoding(target)),
                 {"order": DenseArrayBase.from_list(i32, [1, 0])})


def _operand(em: _Emitter, x: SSAValue, fmt: str, k_pack: bool, scale: SSAValue | None, op_idx: int, ctype):
    shape, enc = shape_of(x.type), encoding(x.type)
    k_axis = 1 if op_idx == 0 else 0
    if fmt == "e2m1":
        axis = k_axis if k_pack else 1 - k_axis
        out = list(shape)
        out[axis] *= 2
        v = em.op("ttg.fp4_to_fp", [x], tensor(out, ctype, _doubled(enc, axis)), {"axis": IntegerAttr(axis, i32)})
    elif x.type.element_type != ctype:
        v = em.op("tt.fp_to_fp", [x], tensor(shape, ctype, enc))
    else:
        v = x
    if scale is None:
        return v
    st = scale.type
    ext = em.op("arith.extui", [scale], tensor(shape_of(st), i16, encoding(st)))
    bits = em.op("arith.shli", [ext, em.splat_constant(ext.type, 7)], ext.type)
    factor = em.op("tt.bitcast", [bits], tensor(shape_of(st), BFloat16Type(), encoding(st)))
    factor = _spread(em, factor, op_idx, tensor(shape_of(v.type), BFloat16Type(), encoding(v.type)))
    if ctype != factor.type.element_type:
        factor = em.op("tt.fp_to_fp", [factor], v.type)
    prod = em.op("arith.mulf", [v, factor], v.type)
    nan = em.op("arith.cmpi", [scale, em.splat_constant(st, -1)], tensor(shape_of(st), i1, encoding(st)),
                {"predicate": IntegerAttr(0, i64)})
    nan = _spread(em, nan, op_idx, tensor(shape_of(v.type), i1, encoding(v.type)))
    quiet = em.splat_constant(v.type, float("nan"))
    return em.op("arith.select", [nan, quiet, prod], v.type)


def _unsupported(op: Operation, what: str):
    raise CompileError(at_op(op, None, f"'tt.dot_scaled' op {what} is not supported yet by its decomposition"))


def decompose(op: Operation) -> None:
    """Replace one `tt.dot_scaled` (with blocked layouts) by its upcasts and a `tt.dot`."""
    if len(shape_of(op.d.type)) != 2:
        _unsupported(op, "a batched (3D) product")
    for v in (op.a, op.b, op.a_scale, op.b_scale):
        if v is not None and not isinstance(encoding(v.type), BlockedEncoding):
            _unsupported(op, "an operand without a blocked layout (run convert-triton-to-tritongpu first)")
    fa, fb = op.formats
    ctype = Float16Type() if "fp16" in (fa, fb) else BFloat16Type()
    em = _Emitter(op)
    d_enc = encoding(op.d.type)
    a = _operand(em, op.a, fa, op.lhs_k_pack.value.data, op.a_scale, 0, ctype)
    b = _operand(em, op.b, fb, op.rhs_k_pack.value.data, op.b_scale, 1, ctype)
    a = em.convert(a, tensor(shape_of(a.type), ctype, DotOperandEncoding.make(opIdx=0, parent=d_enc)))
    b = em.convert(b, tensor(shape_of(b.type), ctype, DotOperandEncoding.make(opIdx=1, parent=d_enc)))
    d = em.op("tt.dot", [a, b, op.c], op.d.type,
              {"inputPrecision": IntegerAttr(2, i32), "maxNumImpreciseAcc": IntegerAttr(0, i32)})
    op.d.replace_all_uses_with(d)
    op.detach()
    op.erase()
