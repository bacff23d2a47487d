"""The `tti` (TritonInstrument) dialect: the ops the concurrency sanitizer (passes/concurrency_sanitizer.py) puts
in a kernel, with Triton 3.6's syntax (TritonInstrumentOps.td) and the checks of their ODS type constraints,
worded as MLIR words them (Triton writes no verifier of its own for these ops).

    %b = tti.experimental_buffer_descriptors [0, 4096], [4096, 4096], shared_mem : tensor<2xi64, #blocked>
    %o = tti.experimental_memdesc_to_i32 %buf : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    tti.experimental_assert_in_thread %ok, "message" {check_any = false} : tensor<2xi1, #blocked>
    tti.experimental_lock_acquire %lock(, %pred)? : !tt.ptr<i32>
    tti.experimental_lock_release %lock(, %pred)? : !tt.ptr<i32>

`experimental_buffer_descriptors` packs each (offset, length) into an i64 (length in the high half); `memType`
(`shared_mem` 0, `tensor_mem` 1) says which memory the offsets are in.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, IntegerType, StringAttr, TensorType, i1, i32
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import register
from ttc.ir.memdesc import MemDescType
from ttc.ir.types import PointerType, elt, is_float, is_int

MEM_TYPE = {"shared_mem": 0, "tensor_mem": 1}

_I1 = "1-bit signless integer"
_MEMDESC = "memory descriptor type (`::mlir::triton::gpu::MemDescType`) in Triton IR type system"


def _check(op, what: str, index: int, t, ok: bool, summary: str) -> None:
    """MLIR's ODS type-constraint check: `'op' op operand #0 must be <summary>, but got '<type>'`."""
    if not ok:
        from ttc.ir.attr_printer import attr_text

        raise VerifyException(f"'{op.name}' op {what} #{index} must be {summary}, but got '{attr_text(t)}'")


def _is_i1(t) -> bool:
    return t == i1


@irdl_op_definition
class ExperimentalAssertInThreadOp(IRDLOperation):
    """Abort with `message` unless `condition` (all its values, or any of them with `check_any`) holds in the
    thread that holds them."""

    name = "tti.experimental_assert_in_thread"
    condition = operand_def()
    message = prop_def(StringAttr)
    check_any = prop_def(BoolAttr)
    traits = traits_def(MemoryWriteEffect())

    def verify_(self):
        t = self.condition.type
        _check(self, "operand", 0, t, _is_i1(t) or isinstance(t, TensorType) and elt(t) == i1,
               f"{_I1} or tensor of {_I1} values")


@irdl_op_definition
class ExperimentalBufferDescriptorsOp(IRDLOperation):
    """A tensor of buffer descriptors: `(length << 32) | offset` per (offset, length) pair."""

    name = "tti.experimental_buffer_descriptors"
    offsets = prop_def(DenseArrayBase)
    lengths = prop_def(DenseArrayBase)
    memType = prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        t = self.result.type
        ok = isinstance(t, TensorType) and (is_int(elt(t)) or is_float(elt(t)) or isinstance(elt(t), PointerType))
        _check(self, "result", 0, t, ok, "ranked tensor of floating-point or integer or ptr values")
        for name in ("offsets", "lengths"):
            if getattr(self, name).elt_type != i32:
                raise VerifyException(f"'{self.name}' op attribute '{name}' failed to satisfy constraint: i32 dense "
                                      "array attribute")
        if self.memType.value.data not in MEM_TYPE.values():
            raise VerifyException(f"'{self.name}' op attribute 'memType' failed to satisfy constraint: 32-bit "
                                  "signless integer attribute whose value is 0, or 1")


@irdl_op_definition
class ExperimentalMemDescToI32Op(IRDLOperation):
    """The base address of a memory descriptor, as i32 (to compare with buffer descriptors)."""

    name = "tti.experimental_memdesc_to_i32"
    memdesc = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        _check(self, "operand", 0, self.memdesc.type, isinstance(self.memdesc.type, MemDescType), _MEMDESC)
        t = self.result.type
        _check(self, "result", 0, t, isinstance(t, IntegerType) and t == i32, "32-bit signless integer")


class _LockOp(IRDLOperation):
    lock = operand_def()
    pred = opt_operand_def()
    traits = traits_def(MemoryWriteEffect())

    def verify_(self):
        t = self.lock.type
        ok = isinstance(t, PointerType) or isinstance(t, TensorType) and isinstance(elt(t), PointerType)
        _check(self, "operand", 0, t, ok, "ptr or ranked tensor of ptr values")
        if self.pred is not None:
            _check(self, "operand", 1, self.pred.type, _is_i1(self.pred.type), _I1)


@irdl_op_definition
class ExperimentalLockAcquireOp(_LockOp):
    """Enter a critical section: one thread takes the lock (spinning), `pred` permitting."""

    name = "tti.experimental_lock_acquire"


@irdl_op_definition
class ExperimentalLockReleaseOp(_LockOp):
    """Leave a critical section: one thread releases the lock, `pred` permitting."""

    name = "tti.experimental_lock_release"


register("tti.experimental_assert_in_thread", "$condition `,` $message attr-dict `:` type($condition)")
register("tti.experimental_buffer_descriptors", "$offsets `,` $lengths `,` $memType attr-dict `:` type($result)",
         infer={"__array__offsets": i32, "__array__lengths": i32}, enums={"memType": MEM_TYPE})
register("tti.experimental_memdesc_to_i32", "$memdesc attr-dict `:` type($memdesc)",
         infer={"result": lambda T: i32})
for _name in ("tti.experimental_lock_acquire", "tti.experimental_lock_release"):
    register(_name, "$lock (`,` $pred^)? attr-dict `:` type($lock)", infer={"pred": lambda T: i1})

TTI = Dialect("tti", [ExperimentalAssertInThreadOp, ExperimentalBufferDescriptorsOp, ExperimentalMemDescToI32Op,
                      ExperimentalLockAcquireOp, ExperimentalLockReleaseOp], [])
