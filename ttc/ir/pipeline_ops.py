"""`ttg.predicate_stage`: the predicate of one stage of a software-pipelined loop's kernel (Triton's
PredicateStageOp), `iv < ub - (maxStage - stage) * step`, left unresolved in the loop when the loop carries
`__test_keep_predicate_stage` (the pipeliner's test hook; ttc/ir/pipeline_expander.py)."""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i1, i32
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import register, same_as


@irdl_op_definition
class PredicateStageOp(IRDLOperation):
    name = "ttg.predicate_stage"
    iv = operand_def(IntegerType | IndexType)
    ub = operand_def(IntegerType | IndexType)
    step = operand_def(IntegerType | IndexType)
    maxStage = prop_def(IntegerAttr)
    stage = prop_def(IntegerAttr)
    result = result_def(i1)
    traits = traits_def(Pure())

    def verify_(self):
        if not self.iv.type == self.ub.type == self.step.type:
            raise VerifyException("'ttg.predicate_stage' op failed to verify that all of {iv, ub, step} have same "
                                  "type")


register("ttg.predicate_stage", "$iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict `:` type($iv) "
         "`->` type($result)", infer={"ub": same_as("iv"), "step": same_as("iv"), "__int__maxStage": i32,
                                      "__int__stage": i32})
