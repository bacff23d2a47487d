"""Microscaled matrix products: `tt.dot_scaled` (the op `tl.dot_scaled` builds: operands in an OCP MX element
format, each with an optional tensor of e8m0 scales, one per 32 consecutive K elements) and `ttg.fp4_to_fp`
(the upcast of packed e2m1 pairs that Triton's decomposition of `tt.dot_scaled` uses on targets without
native MX dots)."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, TensorType, i1, i8
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def, opt_operand_def,
                       prop_def, result_def, traits_def)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import register, same_as
from ttc.ir.types import elt, shape_of

# Triton's ScaleDotElemType enum
SCALE_DOT_ELEM_TYPE = {"e4m3": 0, "e5m2": 1, "e2m3": 2, "e3m2": 3, "e2m1": 4, "bf16": 5, "fp16": 6}
ELEM_TYPE_NAME = {v: k for k, v in SCALE_DOT_ELEM_TYPE.items()}
SCALE_GROUP = 32  # K elements per e8m0 scale


def _err(op, msg: str):
    raise VerifyException(f"'{op.name}' op {msg}")


def k_packing(fmt: str, k_pack: bool) -> tuple[int, int]:
    """How many elements one stored element holds along (K, the other dimension)."""
    pack = 2 if fmt == "e2m1" else 1
    return (pack, 1) if k_pack else (1, pack)


@irdl_op_definition
class DotScaledOp(IRDLOperation):
    name = "tt.dot_scaled"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    a_scale = opt_operand_def(TensorType)
    b_scale = opt_operand_def(TensorType)
    a_elem_type = prop_def(IntegerAttr)
    b_elem_type = prop_def(IntegerAttr)
    fastMath = prop_def(BoolAttr)
    lhs_k_pack = prop_def(BoolAttr, default_value=BoolAttr(True, i1))
    rhs_k_pack = prop_def(BoolAttr, default_value=BoolAttr(True, i1))
    d = result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    @property
    def formats(self) -> tuple[str, str]:
        return ELEM_TYPE_NAME[self.a_elem_type.value.data], ELEM_TYPE_NAME[self.b_elem_type.value.data]

    def dims(self) -> tuple[int, int, int]:
        """(M, N, K) in elements, packing undone."""
        fa, fb = self.formats
        (ka, ma), (kb, nb) = k_packing(fa, self.lhs_k_pack.value.data), k_packing(fb, self.rhs_k_pack.value.data)
        a, b = shape_of(self.a.type), shape_of(self.b.type)
        return a[-2] * ma, b[-1] * nb, a[-1] * ka

    def verify_(self):
        """Triton's DotScaledOp: its DotOpInterface check (K and M/N with e2m1 packing undone), then the scales'
        shapes (one per 32 elements of K, per 16 for f8E4M3FN scales)."""
        from ttc.ir.verify_errors import OpDiagnostics
        from ttc.ir.attr_printer import attr_text
        from ttc.ir.dot_interface import verify_dot_interface

        for v in (self.a_elem_type, self.b_elem_type):
            if v.value.data not in ELEM_TYPE_NAME:
                _err(self, f"unknown element type {v.value.data}")
        if self.d.type != self.c.type:
            _err(self, "failed to verify that result's type matches accumulator's type")
        fa, fb = self.formats
        (ka, ma), (kb, nb) = k_packing(fa, self.lhs_k_pack.value.data), k_packing(fb, self.rhs_k_pack.value.data)
        verify_dot_interface(self, self.a.type, self.b.type, self.c.type, (ka, kb), (ma, nb))
        a, c = shape_of(self.a.type), shape_of(self.c.type)
        rank = len(a)
        k = a[-1] * ka
        for scale, rows, what in ((self.a_scale, c[-2], "M"), (self.b_scale, c[-1], "N")):
            if scale is None:
                continue
            shape = shape_of(scale.type)
            if shape[rank - 2] != rows:
                raise OpDiagnostics(f"scales {what} dimension must match the operand {what} dimension")
            group = 16 if attr_text(elt(scale.type)) == "f8E4M3FN" else SCALE_GROUP
            if shape[rank - 1] != k // group:
                raise OpDiagnostics("scales K dimension must match the operand K divided by the scale factor")

register(
    "tt.dot_scaled",
    "$a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type "
    "attr-dict `:` type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)? `->` type($d)",
    infer={"c": same_as("d")},
    enums={"a_elem_type": SCALE_DOT_ELEM_TYPE, "b_elem_type": SCALE_DOT_ELEM_TYPE},
)


@irdl_op_definition
class Fp4ToFpOp(IRDLOperation):
    """Unpack e2m1 pairs (i8: the first element in the low nibble) along `axis` into a float tensor twice as
    long there (bf16 or f16)."""
    name = "ttg.fp4_to_fp"
    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self):
        s, r, axis = shape_of(self.src.type), shape_of(self.result.type), self.axis.value.data
        if not 0 <= axis < len(s):
            _err(self, f"axis {axis} out of range")
        if len(r) != len(s) or any(x != (2 * y if i == axis else y) for i, (x, y) in enumerate(zip(r, s))):
            _err(self, "result must be the source's shape with the axis doubled")
        if elt(self.src.type) != i8 or elt(self.result.type).name not in ("bf16", "f16"):
            _err(self, "packs i8 into bf16 or f16")


register("ttg.fp4_to_fp", "$src attr-dict `:` type($src) `->` type($result)")
