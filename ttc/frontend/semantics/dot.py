"""Matrix multiplication (`tl.dot`): operand checks, the accumulator type, input precision."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i32

from ttc.frontend import dtypes as T
from ttc.frontend.dtypes import BlockType
from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Tensor
from ttc.ir.tt import INPUT_PRECISION

_DOT_TYPES = (T.int8, T.uint8, T.float16, T.bfloat16, T.float32, T.float64)


class DotMixin:
    def _input_precision(self, precision: str) -> int:
        if precision.lower() not in self.options.allowed_dot_input_precisions:
            raise LanguageError(
                f"input_precision must be one of {self.options.allowed_dot_input_precisions}. Got {precision}"
            )
        return INPUT_PRECISION[precision.lower()]

    def dot(self, lhs: Tensor, rhs: Tensor, acc, input_precision, max_num_imprecise_acc, out_dtype) -> Tensor:
        if not lhs.is_block() or not rhs.is_block():
            raise LanguageError("tl.dot needs two tensors")
        both_fp8 = lhs.dtype.is_fp8() and rhs.dtype.is_fp8()
        if not both_fp8:
            if lhs.dtype not in _DOT_TYPES:
                raise LanguageError(f"Unsupported lhs dtype {lhs.dtype}")
            if rhs.dtype not in _DOT_TYPES:
                raise LanguageError(f"Unsupported rhs dtype {rhs.dtype}")
            if lhs.dtype != rhs.dtype:
                raise LanguageError(f"Both operands must be same dtype. Got {lhs.dtype} and {rhs.dtype}")
        if lhs.dtype.name == "fp8e4b15" or rhs.dtype.name == "fp8e4b15":
            raise LanguageError("tl.dot on fp8e4b15 operands is not supported")
        if input_precision is None:
            input_precision = self.options.default_dot_input_precision
        precision = self._input_precision(input_precision)
        lhs_rank, rhs_rank = len(lhs.shape), len(rhs.shape)
        if not (lhs_rank == rhs_rank == 2 or lhs_rank == rhs_rank == 3):
            raise LanguageError(f"Both inputs must be either 2D or 3D; (lhs: {list(lhs.shape)} vs rhs: {list(rhs.shape)})")
        if lhs.shape[-1] != rhs.shape[-2]:
            raise LanguageError(
                f"First input shape ({list(lhs.shape)}) and second input shape {list(rhs.shape)} are not compatible for "
                f"matmul (second index of first shape ({lhs.shape[-1]}) must be equal to first index of second shape "
                f"({rhs.shape[-2]})"
            )
        min_k = 32 if lhs.dtype.primitive_bitwidth == 8 else 16
        if lhs.shape[-1] < min_k:
            raise LanguageError(f"Input shapes should have M >= 1, N >= 1 and K >= {min_k}")
        b = self.builder
        if lhs.dtype.is_int():
            if lhs.dtype != T.int8:
                raise LanguageError("only int8 supported!")
            zero = b.int_constant(0, T.int32.to_ir())
            ret_scalar = T.int32
        elif out_dtype.is_bf16():
            raise LanguageError(
                "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`"
            )
        elif lhs.dtype.is_fp32() or lhs.dtype.is_bf16():
            zero = b.float_constant(0.0, T.float32.to_ir())
            ret_scalar = T.float32
        elif lhs.dtype.is_fp64():
            zero = b.float_constant(0.0, T.float64.to_ir())
            ret_scalar = T.float64
        else:
            zero = b.float_constant(0.0, (T.float16 if out_dtype.is_fp16() else T.float32).to_ir())
            ret_scalar = out_dtype
        m, n, k = lhs.shape[-2], rhs.shape[-1], lhs.shape[-1]
        ret_ty = BlockType(ret_scalar, [lhs.shape[0], m, n] if lhs_rank == 3 else [m, n])
        if acc is None:
            acc_handle = b.splat(zero, ret_ty.to_ir())
        else:
            if tuple(acc.shape) != ret_ty.shape or acc.dtype != out_dtype:
                raise LanguageError(
                    f"accumulator of type {acc.type} does not match the result type {BlockType(out_dtype, ret_ty.shape)}"
                )
            acc_handle = acc.handle
        if max_num_imprecise_acc is None:
            max_num_imprecise_acc = self.options.max_num_imprecise_acc_default if both_fp8 else 0
        elif both_fp8 and max_num_imprecise_acc > k:
            raise LanguageError(f"max_num_imprecise_acc ({max_num_imprecise_acc}) must be <= K ({k})")
        props = {"inputPrecision": IntegerAttr(precision, i32),
                 "maxNumImpreciseAcc": IntegerAttr(max_num_imprecise_acc, i32)}
        handle = b.value("tt.dot", [lhs.handle, rhs.handle, acc_handle], ret_ty.to_ir(), props)
        return Tensor(handle, ret_ty)
