"""The decomposition of `tt.dot_scaled` for targets without native microscaled dots (Triton's
DecomposeScaledBlocked, part of tritongpu-accelerate-matmul; everything before sm100): each operand is upcast
to the compute type (bf16, or fp16 when either operand is fp16), multiplied by its scales, and an ordinary
`tt.dot` takes the products.

For an operand X (a: M x K, opIdx 0; b: K x N, opIdx 1) in the blocked layout the conversion gave it, as
Triton builds it (its scaleArg):

    e4m3 / e5m2 / other float:  %v = tt.fp_to_fp %X   (its layout; also bf16 -> bf16, folded after the dot's
                                                        rewrite, fold_identity_upcasts)
    e2m1 (i8, pairs along K):   %v = ttg.fp4_to_fp %X {axis = K}   (sizePerThread doubled along K)
    with scales S (R x K/32 i8, R = M or N; for b first tt.trans to K/32 x N):
        %e = arith.extui S to i16; %s = arith.shli %e, 7; %f = tt.bitcast %s -> bf16   (2^(S - 127); in f16,
        through i32 / f32 and arith.truncf)
        spread: convert_layout to a slice of the default blocked layout of S's shape x 1, tt.expand_dims,
        tt.broadcast to x 32, for b tt.trans [0, 2, 1] (the 32 next to K/32), tt.reshape to %v's shape in its
        inferred layout (a #ttg.linear one where no blocked layout fits), convert_layout to %v's layout
        %v = arith.mulf %v, spread(%f)
        %v = arith.select spread(arith.cmpi eq, S, 0xFF), NaN, %v
    %va / %vb: convert_layout to dot operand 0 / 1, each right after its operand
    %d = convert_layout (tt.dot %va, %vb, %acc)   (to its own type, as Triton's rewrite does)

The constants (7, 0xFF, NaN) go to the top of the function, the last made first, an equal one reused, as
Triton's greedy rewriter hoists them. The result keeps the dot_scaled's layout; tritongpu-accelerate-matmul
then gives the dot its MMA layout like any other.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (BFloat16Type, DenseArrayBase, DenseIntOrFPElementsAttr, Float16Type, Float32Type,
                                   FloatAttr, IntegerType,
                                   IntegerAttr, i1, i8, i32, i64)
from xdsl.ir import Operation, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.format import build_op
from ttc.ir.layout_utils import num_warps_of, slice_of, threads_per_warp_of, trans_encoding
from ttc.ir.layouts import blocked, default_blocked
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding
from ttc.ir.attr_printer import attr_text
from ttc.ir.reshape_layout import infer_reshape_encoding
from ttc.ir.scaled import SCALE_GROUP
from ttc.ir.types import elt, encoding, shape_of, tensor


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
        """A splat constant at the top of the function, as Triton's rewriter hoists (and uniques) the constants
        its patterns create: each new one goes first, an equal one already there is reused."""
        e = t.element_type
        attr = (FloatAttr(value, e) if isinstance(e, (BFloat16Type, Float16Type, Float32Type)) else IntegerAttr(value, e))
        dense = DenseIntOrFPElementsAttr.from_list(t, [attr.value.data])
        func = self.anchor
        while func.name != "tt.func":
            func = func.parent_op()
        entry = func.regions[0].blocks[0]
        t_text, dense_text = attr_text(t), None  # the value printed only for constants of the same type
        for op in entry.ops:
            if op.name != "arith.constant":
                break
            if attr_text(op.results[0].type) != t_text:
                continue
            dense_text = dense_text if dense_text is not None else attr_text(dense)
            if attr_text(op.properties["value"]) == dense_text:
                return op.results[0]
        new = build_op(_op_class("arith.constant"), [], [t], {"value": dense})
        new.location = self.anchor.location
        entry.insert_op_before(new, entry.first_op)
        return new.results[0]


def _doubled(enc: BlockedEncoding, axis: int) -> BlockedEncoding:
    spt = list(enc["sizePerThread"])
    spt[axis] *= 2
    return blocked(spt, enc["threadsPerWarp"], enc["warpsPerCTA"], enc["order"])


def _trans(em: _Emitter, v: SSAValue, order: list[int]) -> SSAValue:
    """`tt.trans` with the layout Triton infers for it."""
    shape = shape_of(v.type)
    enc = trans_encoding(encoding(v.type), order, shape)
    return em.op("tt.trans", [v], tensor([shape[o] for o in order], v.type.element_type, enc),
                 {"order": DenseArrayBase.from_list(i32, order)})


def _broadcast(em: _Emitter, v: SSAValue, dim: int) -> SSAValue:
    """Triton's broadcastScale: R x G values (one per group of SCALE_GROUP along `dim`) spread over the groups:
    into a slice of the default blocked layout of R x G x 1, tt.expand_dims, tt.broadcast to R x G x 32, the new
    dimension moved after `dim` (tt.trans where that moves it), and tt.reshape (its inferred layout)."""
    shape, e = list(shape_of(v.type)), v.type.element_type
    rank = len(shape)
    l3 = default_blocked(shape + [1], num_warps_of(em.anchor), threads_per_warp_of(em.anchor))
    v = em.convert(v, tensor(shape, e, slice_of(rank, l3)))
    v = em.op("tt.expand_dims", [v], tensor(shape + [1], e, l3), {"axis": IntegerAttr(rank, i32)})
    v = em.op("tt.broadcast", [v], tensor(shape + [SCALE_GROUP], e, l3))
    order = list(range(rank))
    order.insert(dim + 1, rank)
    if order != sorted(order):  # an identity tt.trans folds away
        v = _trans(em, v, order)
    out = list(shape)
    out[dim] *= SCALE_GROUP
    enc = infer_reshape_encoding(shape_of(v.type), encoding(v.type), out)
    return em.op("tt.reshape", [v], tensor(out, e, enc))


def _scale_to_16(em: _Emitter, s: SSAValue, ctype) -> SSAValue:
    """Triton's scaleTo16: e8m0 bytes as 2^(s - 127) in the compute type, by shifting them into the exponent
    field of bf16 (of f32, then truncated, when computing in f16)."""
    shape, enc = shape_of(s.type), encoding(s.type)
    wide = BFloat16Type() if isinstance(ctype, BFloat16Type) else Float32Type()
    bits = 16 if isinstance(wide, BFloat16Type) else 32
    ity = IntegerType(bits)
    ext = em.op("arith.extui", [s], tensor(shape, ity, enc))
    mantissa = 7 if bits == 16 else 23
    sh = em.op("arith.shli", [ext, em.splat_constant(ext.type, mantissa)], ext.type)
    f = em.op("tt.bitcast", [sh], tensor(shape, wide, enc))
    if wide != ctype:
        f = em.op("arith.truncf", [f], tensor(shape, ctype, enc))
    return f


def _operand(em: _Emitter, x: SSAValue, fmt: str, k_pack: bool, scale: SSAValue | None, op_idx: int, ctype):
    """Triton's scaleArg: the upcast operand, times its broadcast scales, NaN where a scale is 0xFF."""
    shape, enc = shape_of(x.type), encoding(x.type)
    k_axis = 1 if op_idx == 0 else 0
    if fmt == "e2m1":
        axis = k_axis if k_pack else 1 - k_axis
        out = list(shape)
        out[axis] *= 2
        v = em.op("ttg.fp4_to_fp", [x], tensor(out, ctype, _doubled(enc, axis)), {"axis": IntegerAttr(axis, i32)})
    else:  # also to the same type: Triton's rewriter folds that one only later (see fold_identity_upcasts)
        v = em.op("tt.fp_to_fp", [x], tensor(shape, ctype, enc))
    if scale is None:
        return v
    if op_idx == 1:  # b's scales come N x K/32, as a's: transposed to K/32 x N first
        scale = _trans(em, scale, [1, 0])
    factor = _broadcast(em, _scale_to_16(em, scale, ctype), k_axis)
    factor = em.convert(factor, v.type)
    prod = em.op("arith.mulf", [v, factor], v.type)
    st = scale.type
    nan = em.op("arith.cmpi", [scale, em.splat_constant(st, -1)], tensor(shape_of(st), i1, encoding(st)),
                {"predicate": IntegerAttr(0, i64)})
    nan = em.convert(_broadcast(em, nan, k_axis), tensor(shape_of(v.type), i1, encoding(v.type)))
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
    for v in (op.a_scale, op.b_scale):
        if v is not None and elt(v.type) != i8:
            _unsupported(op, "a scale that is not e8m0 (i8, one per 32 elements of K)")
    fa, fb = op.formats
    ctype = Float16Type() if "fp16" in (fa, fb) else BFloat16Type()
    em = _Emitter(op)
    d_enc = encoding(op.d.type)
    a = _operand(em, op.a, fa, op.lhs_k_pack.value.data, op.a_scale, 0, ctype)
    a = em.convert(a, tensor(shape_of(a.type), ctype, DotOperandEncoding.make(opIdx=0, parent=d_enc)))
    b = _operand(em, op.b, fb, op.rhs_k_pack.value.data, op.b_scale, 1, ctype)
    b = em.convert(b, tensor(shape_of(b.type), ctype, DotOperandEncoding.make(opIdx=1, parent=d_enc)))
    d = em.op("tt.dot", [a, b, op.c], op.d.type,
              {"inputPrecision": IntegerAttr(2, i32), "maxNumImpreciseAcc": IntegerAttr(0, i32)})
    op.d.replace_all_uses_with(em.op("ttg.convert_layout", [d], op.d.type))  # Triton's, even to the same type
    op.detach()
    op.erase()


def fold_identity_upcasts(module: Operation) -> None:
    """Fold the `tt.fp_to_fp`s to their own type the decomposition made for bf16/fp16 operands (as Triton's
    greedy rewriter does after the dot's rewrite has placed its shared operand after them)."""
    for op in [o for o in module.walk() if o.name == "tt.fp_to_fp" and o.operands[0].type == o.results[0].type]:
        op.results[0].replace_all_uses_with(op.operands[0])
        op.detach()
        op.erase()
