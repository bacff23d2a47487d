"""The ops of Triton 3.6's TritonGPUOps.td that ttc/ir/ttg.py (which has `ttg.local_barrier`), ttc/ir/tma.py,
ttc/ir/warp_specialize.py and ttc/ir/tmem.py (which has `ttg.memdesc_reinterpret`) do not define, with Triton's
syntax and verifiers:

- `ttg.memdesc_reshape %d : !ttg.memdesc<32x1x4x64xf16, ...> -> !ttg.memdesc<128x64xf16, ...>`: a reshaped view.
  Its result layout must be the one Triton infers (MemDescReshapeOp::inferReturnTypes, ttc/ir/shared_ll.py), or
  one equivalent to it (the same linear layout).
- `ttg.predicate_stage %iv, %ub, %step maxStage 2 stage 0 : i32 -> i1`: the pipeliner's stage predicate.
- `ttg.mask` (generic syntax only, as in Triton: its region ends with `ttg.mask.return`): ops predicated by the
  pipeliner.
- `ttg.warp_id`: the warp's index, an i32.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import IntegerAttr, i1, i32
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import register, same_as
from ttc.ir.memdesc import MemDescType


@irdl_op_definition
class MemDescReshapeOp(IRDLOperation):
    name = "ttg.memdesc_reshape"
    src = operand_def(MemDescType)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    def verify_(self):
        from ttc.ir.verify_errors import OpDiagnostics
        from ttc.ir.shared_ll import UnsupportedSharedLayout, equivalent_memdesc, infer_reshape

        src, dst = self.src.type, self.result.type
        if src.element_type != dst.element_type:  # the SameOperandsAndResultElementType trait, checked first
            raise VerifyException("'ttg.memdesc_reshape' op requires the same element type for all operands and "
                                  "results")
        if math.prod(src.get_shape()) != math.prod(dst.get_shape()):
            raise OpDiagnostics("number of src and dst elements of reshape must be the same")
        rank = len(src.get_shape())
        if src.get_alloc_shape()[-rank:] != src.get_shape():
            raise OpDiagnostics("NYI: memdesc_reshape of memdesc_subslice")
        try:
            expected = infer_reshape(src, dst.get_shape())
            same = equivalent_memdesc(expected, dst)
        except UnsupportedSharedLayout as e:
            raise VerifyException(f"'ttg.memdesc_reshape' op cannot check the result layout: {e}") from None
        if not same:
            from ttc.ir.attr_printer import attr_text

            raise VerifyException(f"'ttg.memdesc_reshape' op result type must be equivalent to "
                                  f"'{attr_text(expected)}' (the reshaped source)")


register("ttg.memdesc_reshape", "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))")


@irdl_op_definition
class PredicateStageOp(IRDLOperation):
    name = "ttg.predicate_stage"
    iv = operand_def()
    ub = operand_def()
    step = operand_def()
    maxStage = prop_def(IntegerAttr)
    stage = prop_def(IntegerAttr)
    result = result_def(i1)
    traits = traits_def(Pure())

    def verify_(self):
        from xdsl.dialects.builtin import IndexType, IntegerType, Signedness

        t = self.iv.type
        if not (isinstance(t, IndexType) or isinstance(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS):
            raise VerifyException("'ttg.predicate_stage' op operand #0 must be signless integer or index")
        if not self.ub.type == self.step.type == t:
            raise VerifyException("'ttg.predicate_stage' op failed to verify that all of {iv, ub, step} have same type")


register("ttg.predicate_stage",
         "$iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv) `->` type($result)",
         infer={"ub": same_as("iv"), "step": same_as("iv"), "__int__maxStage": i32, "__int__stage": i32})


@irdl_op_definition
class MaskOp(IRDLOperation):
    name = "ttg.mask"
    pred = operand_def(i1)
    result = var_result_def()
    region = region_def("single_block")


@irdl_op_definition
class MaskReturnOp(IRDLOperation):
    name = "ttg.mask.return"
    result = var_operand_def()
    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    def verify_(self):
        if not isinstance(self.parent_op(), MaskOp):
            raise VerifyException("'ttg.mask.return' op expects parent op 'ttg.mask'")


register("ttg.mask.return", "$result attr-dict `:` type($result)")


@irdl_op_definition
class WarpIdOp(IRDLOperation):
    name = "ttg.warp_id"
    result = result_def(i32)
    traits = traits_def(Pure())


register("ttg.warp_id", "attr-dict", infer={"result": lambda T: i32})

TTG_EXTRA_OPS = [MemDescReshapeOp, PredicateStageOp, MaskOp, MaskReturnOp, WarpIdOp]
