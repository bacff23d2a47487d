"""Type conversions: Python numbers to IR constants, Triton's implicit promotion of binary operands
(PyTorch-like scalar rules, then C's usual arithmetic conversions), and explicit casts and bitcasts.
"""

from __future__ import annotations

import numbers

from ttc.frontend import dtypes as T
from ttc.frontend.dtypes import BlockType, DType, PointerDType
from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Constexpr, Tensor

_MIN_NORMAL_F32 = 2.0**-126
_MAX_F32 = (2 - 2**-23) * 2.0**127


class ConversionMixin:
    # ------------------------------------------------------------------ constants

    def to_tensor(self, x) -> Tensor:
        """A compile-time value as a scalar constant (ints as i32 when they fit, floats as f32 when they
        fit); tensors are returned unchanged."""
        if isinstance(x, Tensor):
            return x
        if isinstance(x, Constexpr):
            return self.to_tensor(x.value)
        if isinstance(x, bool):
            return Tensor(self.builder.int_constant(int(x), T.int1.to_ir()), T.int1)
        if isinstance(x, int):
            if -(2**31) <= x < 2**31:
                dtype = T.int32
            elif 2**31 <= x < 2**32:
                dtype = T.uint32
            elif -(2**63) <= x < 2**63:
                dtype = T.int64
            elif 2**63 <= x < 2**64:
                dtype = T.uint64
            else:
                raise LanguageError(f"Nonrepresentable integer {x}.")
            return self.scalar_constant(x, dtype)
        if isinstance(x, float):
            a = abs(x)
            fits = a == float("inf") or a == 0.0 or x != x or _MIN_NORMAL_F32 <= a <= _MAX_F32
            return self.scalar_constant(x, T.float32 if fits else T.float64)
        raise LanguageError(f"cannot convert {_describe(x)} to a tensor")

    def scalar_constant(self, value, dtype: DType) -> Tensor:
        ir = dtype.to_ir()
        if value == 0:
            return Tensor(self.builder.null_value(ir), dtype)
        if dtype.is_int():
            return Tensor(self.builder.int_constant(int(value), ir), dtype)
        if dtype.is_standard_floating():
            return Tensor(self.builder.float_constant(_bf16_text_rounding(value) if dtype.is_bf16() else value, ir), dtype)
        raise LanguageError(f"cannot make a constant of type {dtype}")

    def make_scalar(self, value, dtype: DType) -> Tensor:
        if isinstance(value, Tensor):
            if value.numel != 1:
                raise LanguageError("only accepts size-1 tensor")
            return self.cast(value, dtype)
        return self.scalar_constant(value, dtype)

    # ------------------------------------------------------------------ implicit promotion

    def integer_promote(self, a: DType, b: DType) -> DType:
        a_rank, b_rank = a.int_bitwidth, b.int_bitwidth
        a_signed, b_signed = a.is_int_signed(), b.is_int_signed()
        if a_signed == b_signed:
            return a if a_rank > b_rank else b
        if not a_signed:
            return a if a_rank >= b_rank else b
        return b if b_rank >= a_rank else a

    def computation_type(self, a: DType, a_is_scalar: bool, b: DType, b_is_scalar: bool, div_or_mod: bool) -> DType:
        if a_is_scalar != b_is_scalar:
            scalar, tensor = (a, b) if a_is_scalar else (b, a)
            if scalar.kind() <= tensor.kind():
                if div_or_mod and tensor in (T.float16, T.bfloat16):
                    return T.float32
                return tensor
        if a.is_fp64() or b.is_fp64():
            return T.float64
        if a.is_fp32() or b.is_fp32():
            return T.float32
        if a.is_fp16() or b.is_fp16():
            return T.float32 if div_or_mod else T.float16
        if a.is_bf16() and b.is_bf16():
            return T.float32 if div_or_mod else T.bfloat16
        if a.is_bf16() or b.is_bf16():
            return T.float32
        if a.is_fp8() and b.is_fp8():
            return a if a == b else T.float16
        if not a.is_int() or not b.is_int():
            raise LanguageError(f"unexpected types {a} and {b}")
        if div_or_mod and a.is_int_signed() != b.is_int_signed():
            raise LanguageError(
                f"Cannot use /, //, or % with {a!r} and {b!r} because they have different signedness; "
                "this is unlikely to result in a useful answer. Cast them to the same signedness."
            )
        return self.integer_promote(a, b)

    def _check_pointer_operands(self, a: DType, b: DType, allow_ptr_a: bool):
        if a.is_ptr():
            if not allow_ptr_a:
                raise LanguageError(f"invalid operands of type {a!r} and {b!r}")
            if b.is_ptr() and a != b:
                raise LanguageError(f"invalid operands of type {a!r} and {b!r}")
            if b.is_floating():
                raise LanguageError(f"invalid operands of type {a!r} and {b!r}")

    def binary_operands(self, lhs, rhs, allow_lhs_ptr=False, allow_rhs_ptr=False, arithmetic_check=True,
                        div_or_mod=False) -> tuple[Tensor, Tensor]:
        """Triton's binary_op_type_checking_impl: convert Python numbers, promote to a common type (unless
        `arithmetic_check` is off), broadcast to a common shape."""
        lhs_is_scalar = isinstance(lhs, numbers.Number)
        rhs_is_scalar = isinstance(rhs, numbers.Number)
        lhs_scalar, rhs_scalar = lhs, rhs
        if lhs_is_scalar:
            lhs = self.to_tensor(lhs)
        if rhs_is_scalar:
            rhs = self.to_tensor(rhs)
        lhs, rhs = self._require_tensor(lhs), self._require_tensor(rhs)
        lhs_ty, rhs_ty = lhs.type.scalar, rhs.type.scalar
        self._check_pointer_operands(lhs_ty, rhs_ty, allow_lhs_ptr)
        self._check_pointer_operands(rhs_ty, lhs_ty, allow_rhs_ptr)
        if arithmetic_check and not lhs_ty.is_ptr() and not rhs_ty.is_ptr():
            ret = self.computation_type(lhs_ty, lhs_is_scalar, rhs_ty, rhs_is_scalar, div_or_mod)
            if (lhs_is_scalar and lhs_scalar < 0 or rhs_is_scalar and rhs_scalar < 0) and ret.is_int_unsigned():
                raise LanguageError(
                    "Cannot perform a binary operation between an unsigned tensor and a negative scalar. "
                    "Perform a explicit cast on one of them."
                )
            if ret.is_int():
                for is_scalar, scalar in ((lhs_is_scalar, lhs_scalar), (rhs_is_scalar, rhs_scalar)):
                    if is_scalar and not ret.int_min() <= scalar <= ret.int_max():
                        raise LanguageError(f"Scalar {scalar} is out of range for type {ret}")
            lhs = self.scalar_constant(lhs_scalar, ret) if lhs_is_scalar else self.cast(lhs, ret)
            rhs = self.scalar_constant(rhs_scalar, ret) if rhs_is_scalar else self.cast(rhs, ret)
        return self.broadcast_impl_value(lhs, rhs)

    def _require_tensor(self, x) -> Tensor:
        if not isinstance(x, Tensor):
            raise LanguageError(f"expected a tensor or a number, got {_describe(x)}")
        return x

    # ------------------------------------------------------------------ explicit conversions

    def bitcast(self, input: Tensor, dst: DType) -> Tensor:
        src = input.type
        if src.is_block():
            dst = src.with_element_ty(dst.scalar)
        if src == dst:
            return input
        src_sca, dst_sca = src.scalar, dst.scalar
        if src_sca.is_ptr() or dst_sca.is_ptr():
            return self.cast(input, dst)
        if src_sca.primitive_bitwidth != dst_sca.primitive_bitwidth:
            raise LanguageError(
                f"Cannot bitcast data-type of size {src_sca.primitive_bitwidth} to data-type of size "
                f"{dst_sca.primitive_bitwidth}"
            )
        return Tensor(self.builder.value("tt.bitcast", [input.handle], dst.to_ir()), dst)

    def cast(self, input: Tensor, dst: DType, fp_downcast_rounding: str | None = None) -> Tensor:
        self.options.check_dtype(dst)
        src = input.type
        src_sca, dst_sca = src.scalar, dst.scalar
        if src_sca == dst_sca:
            return input
        if src.is_block():
            dst = src.with_element_ty(dst_sca)
        rounding = _rounding_mode(fp_downcast_rounding)
        custom_rounding = False
        if dst_sca.is_floating() and src_sca.is_floating() and dst_sca.primitive_bitwidth < src_sca.primitive_bitwidth:
            if rounding is None:
                rounding = "rtne"
            elif rounding != "rtne":
                custom_rounding = True
        elif rounding is not None:
            raise LanguageError(
                "fp_downcast_rounding should be set only for truncating fp conversions. "
                f"Source scalar type is {src_sca} and destination type is {dst_sca}"
            )
        if src_sca.name == "fp8e4b15" or dst_sca.name == "fp8e4b15":
            raise LanguageError("conversions to and from fp8e4b15 are not supported")
        if (src_sca.is_fp8() and dst_sca.is_floating()) or (src_sca.is_floating() and dst_sca.is_fp8()) or custom_rounding:
            from ttc.ir.tt import ROUNDING
            from xdsl.dialects.builtin import IntegerAttr, i32

            props = {"rounding": IntegerAttr(ROUNDING[rounding], i32)} if rounding is not None else {}
            return Tensor(self.builder.value("tt.fp_to_fp", [input.handle], dst.to_ir(), props), dst)
        if (src_sca.is_fp16() and not dst_sca.is_fp32()) or (src_sca.is_bf16() and not dst_sca.is_fp32()):
            return self.cast(self.cast(input, T.float32), dst_sca)
        b = self.builder
        if src_sca.is_floating() and dst_sca.is_floating():
            name = "arith.truncf" if src_sca.primitive_bitwidth > dst_sca.primitive_bitwidth else "arith.extf"
            return Tensor(b.value(name, [input.handle], dst.to_ir()), dst)
        if src_sca.is_int() and dst_sca.is_int() and (
            src_sca.int_bitwidth != dst_sca.int_bitwidth or src_sca.is_int_signed() != dst_sca.is_int_signed()
        ):
            if dst_sca.is_bool():
                return self.not_equal(input, Tensor(b.null_value(input.dtype.to_ir()), input.dtype))
            sign_extend = src_sca.is_int_signed() and not src_sca.is_bool()
            return Tensor(self.int_cast(input.handle, dst.to_ir(), sign_extend), dst)
        if src_sca.is_standard_floating() and dst_sca.is_int():
            if dst_sca.is_bool():
                return self.not_equal(input, Tensor(b.null_value(input.dtype.to_ir()), input.dtype))
            name = "arith.fptosi" if dst_sca.is_int_signed() else "arith.fptoui"
            return Tensor(b.value(name, [input.handle], dst.to_ir()), dst)
        if src_sca.is_int() and dst_sca.is_standard_floating():
            name = "arith.uitofp" if src_sca.is_bool() or not src_sca.is_int_signed() else "arith.sitofp"
            return Tensor(b.value(name, [input.handle], dst.to_ir()), dst)
        if src_sca.is_ptr() and dst_sca.is_int():
            if dst_sca.int_bitwidth == 64:
                return Tensor(b.value("tt.ptr_to_int", [input.handle], dst.to_ir()), dst)
            if dst_sca.int_bitwidth == 1:
                return self.not_equal(self.cast(input, T.int64), Tensor(b.int_constant(0, T.int64.to_ir()), T.int64))
        if src_sca.is_int() and dst_sca.is_ptr():
            return Tensor(b.value("tt.int_to_ptr", [input.handle], dst.to_ir()), dst)
        if src_sca.is_ptr() and dst_sca.is_ptr():
            return Tensor(b.value("tt.bitcast", [input.handle], dst.to_ir()), dst)
        raise LanguageError(f"cannot cast {input!r} to {dst_sca}")

    def int_cast(self, handle, ir_type, signed: bool):
        """Triton's create_int_cast: a bitcast between equal widths, else trunc/extsi/extui."""
        from xdsl.dialects.builtin import TensorType

        src = handle.type.element_type if isinstance(handle.type, TensorType) else handle.type
        dst = ir_type.element_type if isinstance(ir_type, TensorType) else ir_type
        src_w, dst_w = src.width.data, dst.width.data
        if src_w == dst_w:
            name = "arith.bitcast"
        elif src_w > dst_w:
            name = "arith.trunci"
        else:
            name = "arith.extsi" if signed else "arith.extui"
        return self.builder.value(name, [handle], ir_type)


def _rounding_mode(mode: str | None) -> str | None:
    if mode is None:
        return None
    if mode in ("rtne", "rtz"):
        return mode
    raise LanguageError(f"Invalid rounding mode: {mode}. Supported rounding modes are 'rtne' and 'rtz'.")


def _bf16_text_rounding(value: float) -> float:
    """Triton builds bf16 constants from `std::to_string(float)`: six decimals, then parsed."""
    import struct

    f = struct.unpack("<f", struct.pack("<f", float(value)))[0]
    if f != f or f in (float("inf"), float("-inf")):
        return f
    return float(f"{f:.6f}")


def _describe(x) -> str:
    if isinstance(x, Tensor):
        return f"a tensor of type {x.type}"
    if isinstance(x, (DType, PointerDType, BlockType)):
        return f"the type {x}"
    if isinstance(x, Constexpr):
        return f"{x.value!r} of type {type(x.value).__name__}"
    return f"{x!r} of type {type(x).__name__}"

