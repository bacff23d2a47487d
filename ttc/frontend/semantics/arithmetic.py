"""Elementwise arithmetic: + - * / // % with pointer arithmetic and (i64) overflow checks, min/max/clamp,
bitwise and logical operators, shifts, comparisons, `where`, and the math functions of `tl.math`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, i32, i64

from ttc.frontend import dtypes as T
from ttc.frontend.builder import int_attr
from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Tensor
from ttc.ir.std import CMPF, CMPI

PROPAGATE_NAN_NONE, PROPAGATE_NAN_ALL = 0, 0xFFFF


class ArithmeticMixin:
    def _binary(self, name: str, a: Tensor, b: Tensor) -> Tensor:
        return Tensor(self.builder.value(name, [a.handle, b.handle], a.type.to_ir()), a.type)

    # ------------------------------------------------------------------ + - * with overflow checks

    def sanitize_overflow(self, lhs: Tensor, rhs: Tensor, op):
        """Triton's overflow check: redo the operation in i64 and compare with the range of the type."""
        sca = lhs.type.scalar
        if sca.int_bitwidth >= 64 or not self.options.sanitize_overflow:
            return
        lhs = self.cast(lhs, T.int64)
        rhs = self.cast(rhs, T.int64)
        ret = op(lhs, rhs, False)
        max_value = self.scalar_constant(sca.int_max(), T.int64)
        min_value = self.scalar_constant(sca.int_min(), T.int64)
        cond = self.and_(self.less_equal(ret, max_value), self.greater_equal(ret, min_value))
        self.device_assert(cond, f"int{sca.int_bitwidth} overflow detected for operation {op.__name__}", None)

    def add(self, input, other, sanitize_overflow: bool) -> Tensor:
        input, other = self.binary_operands(input, other, True, True)
        a, b = input.type.scalar, other.type.scalar
        if a.is_ptr() and b.is_ptr():
            raise LanguageError("cannot add pointers together")
        if b.is_ptr() and not a.is_ptr():
            input, other = other, input
            a, b = b, a
        if a.is_ptr():
            offset = other.handle
            if other.dtype.is_int_unsigned() and other.dtype.int_bitwidth < 64:
                offset = self.int_cast(other.handle, other.type.with_element_ty(T.int64).to_ir(), False)
            return Tensor(self.builder.value("tt.addptr", [input.handle, offset], input.type.to_ir()), input.type)
        if a.is_floating():
            return self._binary("arith.addf", input, other)
        if a.is_int():
            if sanitize_overflow:
                self.sanitize_overflow(input, other, self.add)
            return self._binary("arith.addi", input, other)
        raise LanguageError(f"unexpected type {a}")

    def sub(self, input, other, sanitize_overflow: bool) -> Tensor:
        input, other = self.binary_operands(input, other, True, False)
        a = input.type.scalar
        if a.is_ptr():
            return self.add(input, self.minus(other), sanitize_overflow=False)
        if a.is_floating():
            return self._binary("arith.subf", input, other)
        if a.is_int():
            if sanitize_overflow:
                self.sanitize_overflow(input, other, self.sub)
            return self._binary("arith.subi", input, other)
        raise LanguageError(f"unexpected type {a}")

    def mul(self, input, other, sanitize_overflow: bool) -> Tensor:
        input, other = self.binary_operands(input, other)
        a = input.type.scalar
        if a.is_floating():
            return self._binary("arith.mulf", input, other)
        if a.is_int():
            if sanitize_overflow:
                self.sanitize_overflow(input, other, self.mul)
            return self._binary("arith.muli", input, other)
        raise LanguageError(f"unexpected type {a}")

    # ------------------------------------------------------------------ division

    def truediv(self, input, other) -> Tensor:
        input, other = self.binary_operands(input, other, False, False, True, True)
        a, b = input.type.scalar, other.type.scalar
        if a.is_floating() and b.is_int():
            other = self.cast(other, a)
        elif a.is_int() and b.is_floating():
            input = self.cast(input, b)
        elif a.is_int() and b.is_int():
            input = self.cast(input, T.float32)
            other = self.cast(other, T.float32)
        elif a.is_floating() and b.is_floating():
            if a.fp_mantissa_width > b.fp_mantissa_width:
                other = self.cast(other, a)
            else:
                input = self.cast(input, b)
        else:
            raise LanguageError(f"unexpected type {a}")
        return self._binary("arith.divf", input, other)

    def floordiv(self, input, other) -> Tensor:
        input, other = self.binary_operands(input, other, False, False, True, True)
        a, b = input.type.scalar, other.type.scalar
        if a.is_int() and b.is_int():
            ret = self.integer_promote(a, b)
            input = self.cast(input, ret)
            other = self.cast(other, ret)
            return self._binary("arith.divsi" if ret.is_int_signed() else "arith.divui", input, other)
        raise LanguageError(f"unexpected type {a}")

    def fdiv(self, input: Tensor, other: Tensor, ieee_rounding: bool) -> Tensor:
        if not input.type.scalar.is_floating() or not other.type.scalar.is_floating():
            raise LanguageError("both operands of fdiv must have floating scalar type")
        input, other = self.binary_operands(input, other, False, False, False, True)
        return self._binary("arith.divf", input, other)

    def mod(self, input, other) -> Tensor:
        input, other = self.binary_operands(input, other, False, False, True, True)
        a, b = input.type.scalar, other.type.scalar
        if a.is_floating():
            return self._binary("arith.remf", input, other)
        if a.is_int():
            if a.is_int_signed() != b.is_int_signed():
                raise LanguageError(
                    f"Cannot mod {a!r} by {b!r} because they have different signedness;"
                    "this is unlikely to result in a useful answer. Cast them to the same signedness."
                )
            return self._binary("arith.remsi" if a.is_int_signed() else "arith.remui", input, other)
        raise LanguageError(f"unexpected type {a}")

    # ------------------------------------------------------------------ min, max, clamp

    def minimum(self, x, y, propagate_nan) -> Tensor:
        return self._min_max(x, y, propagate_nan, "min")

    def maximum(self, x, y, propagate_nan) -> Tensor:
        return self._min_max(x, y, propagate_nan, "max")

    def _min_max(self, x, y, propagate_nan, which: str) -> Tensor:
        x, y = self.binary_operands(x, y)
        dtype = x.dtype
        if dtype.is_floating():
            if propagate_nan == PROPAGATE_NAN_ALL:
                return self._binary(f"arith.{which}imumf", x, y)
            if propagate_nan == PROPAGATE_NAN_NONE:
                return self._binary(f"arith.{which}numf", x, y)
            raise LanguageError(f"Unexpected propagate_nan {propagate_nan}")
        if dtype.is_int_signed():
            return self._binary(f"arith.{which}si", x, y)
        if dtype.is_int_unsigned():
            return self._binary(f"arith.{which}ui", x, y)
        raise LanguageError(f"Unexpected dtype {dtype}")

    def clamp(self, x, min, max, propagate_nan) -> Tensor:
        min, max = self.binary_operands(min, max)
        x, min = self.binary_operands(x, min)
        x, max = self.binary_operands(x, max)
        if not x.dtype.is_floating():
            raise LanguageError(f"Unexpected dtype {x.dtype}. Only floating point clamp is supported")
        props = {"propagateNan": int_attr(propagate_nan, i32)}
        handle = self.builder.value("tt.clampf", [x.handle, min.handle, max.handle], x.type.to_ir(), props)
        return Tensor(handle, x.type)

    # ------------------------------------------------------------------ bitwise and logical

    def bitwise_operands(self, input, other) -> tuple[Tensor, Tensor]:
        input, other = self.binary_operands(input, other)
        a, b = input.type.scalar, other.type.scalar
        if not a.is_int() or not b.is_int():
            raise LanguageError(f"invalid operands of type {a!r} and {b!r}")
        ret = self.integer_promote(a, b)
        if ret != a:
            input = self.cast(input, ret)
        if ret != b:
            other = self.cast(other, ret)
        return input, other

    def and_(self, input, other) -> Tensor:
        return self._binary("arith.andi", *self.bitwise_operands(input, other))

    def or_(self, input, other) -> Tensor:
        return self._binary("arith.ori", *self.bitwise_operands(input, other))

    def xor_(self, input, other) -> Tensor:
        return self._binary("arith.xori", *self.bitwise_operands(input, other))

    def logical_and(self, input: Tensor, other: Tensor) -> Tensor:
        if input.dtype != T.int1:
            input = self.bitcast(input, T.int1)
        if other.dtype != T.int1:
            other = self.bitcast(other, T.int1)
        return self.and_(input, other)

    def logical_or(self, input: Tensor, other: Tensor) -> Tensor:
        if input.dtype != T.int1:
            input = self.bitcast(input, T.int1)
        if other.dtype != T.int1:
            other = self.bitcast(other, T.int1)
        return self.or_(input, other)

    def not_(self, input: Tensor) -> Tensor:
        if input.dtype != T.int1:
            input = self.bitcast(input, T.int1)
        return self.invert(input)

    def lshr(self, input, other) -> Tensor:
        return self._binary("arith.shrui", *self.bitwise_operands(input, other))

    def ashr(self, input, other) -> Tensor:
        return self._binary("arith.shrsi", *self.bitwise_operands(input, other))

    def shl(self, input, other) -> Tensor:
        return self._binary("arith.shli", *self.bitwise_operands(input, other))

    # ------------------------------------------------------------------ unary

    def minus(self, input: Tensor) -> Tensor:
        sca = input.type.scalar
        if sca.is_ptr():
            raise LanguageError(f"wrong type argument to unary minus ({sca!r})")
        zero = Tensor(self.builder.null_value(sca.to_ir()), sca)
        return self.sub(zero, input, True)

    def invert(self, input: Tensor) -> Tensor:
        sca = input.type.scalar
        if sca.is_ptr() or sca.is_floating():
            raise LanguageError(f"wrong type argument to unary invert ({sca!r})")
        ones = Tensor(self.builder.all_ones(sca.to_ir()), sca)
        return self.xor_(input, ones)

    # ------------------------------------------------------------------ comparisons

    def _compare(self, input, other, float_pred: str, signed_pred: str, unsigned_pred: str) -> Tensor:
        input, other = self.binary_operands(input, other)
        sca = input.type.scalar
        ty = input.type.with_element_ty(T.int1)
        if sca.is_floating():
            props = {"predicate": int_attr(CMPF[float_pred], i64)}
            return Tensor(self.builder.value("arith.cmpf", [input.handle, other.handle], ty.to_ir(), props), ty)
        if sca.is_int():
            pred = signed_pred if sca.is_int_signed() else unsigned_pred
            props = {"predicate": int_attr(CMPI[pred], i64)}
            return Tensor(self.builder.value("arith.cmpi", [input.handle, other.handle], ty.to_ir(), props), ty)
        raise LanguageError(f"unexpected type {sca}")

    def greater_than(self, input, other) -> Tensor:
        return self._compare(input, other, "ogt", "sgt", "ugt")

    def greater_equal(self, input, other) -> Tensor:
        return self._compare(input, other, "oge", "sge", "uge")

    def less_than(self, input, other) -> Tensor:
        return self._compare(input, other, "olt", "slt", "ult")

    def less_equal(self, input, other) -> Tensor:
        return self._compare(input, other, "ole", "sle", "ule")

    def equal(self, input, other) -> Tensor:
        return self._compare(input, other, "oeq", "eq", "eq")

    def not_equal(self, input, other) -> Tensor:
        return self._compare(input, other, "une", "ne", "ne")

    # ------------------------------------------------------------------ select

    def where(self, condition: Tensor, x, y) -> Tensor:
        condition = self.cast(condition, T.int1)
        x, y = self.binary_operands(x, y, True, True)
        if condition.is_block():
            condition, x = self.broadcast_impl_value(condition, x)
            x, y = self.broadcast_impl_value(x, y)
        else:
            condition, _ = self.broadcast_impl_value(condition, x)
        handle = self.builder.value("arith.select", [condition.handle, x.handle, y.handle], x.type.to_ir())
        return Tensor(handle, x.type)

    # ------------------------------------------------------------------ math

    def unary_math(self, name: str, x: Tensor) -> Tensor:
        return Tensor(self.builder.value(name, [x.handle], x.type.to_ir()), x.type)

    def fma(self, x: Tensor, y: Tensor, z: Tensor) -> Tensor:
        handle = self.builder.value("math.fma", [x.handle, y.handle, z.handle], x.type.to_ir())
        return Tensor(handle, x.type)

    # ------------------------------------------------------------------ assertions

    def device_assert(self, cond: Tensor, msg: str, mask):
        if not self.options.debug:
            return None
        if mask is not None:
            cond = self.or_(cond, self.not_(mask))
        self.builder.create("tt.assert", [cond.handle], [], {"message": StringAttr(msg)})
        return None
