"""Tensor descriptors in the `tt` dialect: the `!tt.tensordesc<tensor<...>>` type and the ops that make and
use one (`tt.make_tensor_descriptor`, `tt.descriptor_load`, `tt.descriptor_store`, `tt.descriptor_reduce`),
with Triton's syntax and verifiers.

A descriptor names a block (its type's tensor) of a strided tensor in global memory; loads read zeros and
stores skip elements outside the tensor's shape (what NVIDIA's TMA does with a tensor map).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, IntegerType, Signedness, TensorType, i32, i64
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import register
from ttc.ir.types import NO_ENCODING, PointerType, elt, shape_of, tensor

# TT_DescriptorReduceKindAttr
REDUCE_KIND = {"add": 1, "min": 2, "max": 3, "inc": 4, "dec": 5, "and": 6, "or": 7, "xor": 8}


@irdl_attr_definition
class TensorDescType(ParametrizedAttribute, TypeAttribute):
    """`!tt.tensordesc<tensor<64x64xf16(, #shared)>>`: a descriptor of blocks of that type (signed integers
    are spelled `si32` in it, as Triton records the signedness there)."""

    name = "tt.tensordesc"
    block_type: Attribute

    def __init__(self, block_type: Attribute):
        super().__init__(block_type)

    @classmethod
    def parse_parameters(cls, parser) -> list[Attribute]:
        parser.parse_punctuation("<")
        block = parser.parse_type()
        parser.parse_punctuation(">")
        return [block]

    @classmethod
    def parse_stripped(cls, parser) -> TensorDescType:
        return TensorDescType(*cls.parse_parameters(parser))

    def print_parameters(self, printer) -> None:
        from ttc.ir.types import _XdslShim

        printer.print_string(self.mlir_stripped(_XdslShim(printer)))

    def mlir_stripped(self, p) -> str:
        return f"<{p.type(self.block_type)}>"

    def mlir(self, p) -> str:
        return "!tt.tensordesc" + self.mlir_stripped(p)

    def verify(self) -> None:
        if not isinstance(self.block_type, TensorType):
            raise VerifyException(f"!tt.tensordesc needs a tensor type, got {self.block_type}")

    @property
    def shape(self) -> tuple[int, ...]:
        return shape_of(self.block_type)

    @property
    def encoding(self):
        enc = self.block_type.encoding
        return None if enc == NO_ENCODING else enc

    def value_type(self, enc=None) -> TensorType:
        """The tensor a load gives: the block's shape and element type (signless), with layout `enc`."""
        e = self.block_type.element_type
        if isinstance(e, IntegerType) and e.signedness.data != Signedness.SIGNLESS:
            e = IntegerType(e.width.data)
        return tensor(self.shape, e, enc)

    def with_encoding(self, enc) -> TensorDescType:
        b = self.block_type
        return TensorDescType(tensor(shape_of(b), b.element_type, enc))


def _err(op, msg: str):
    raise VerifyException(f"'{op.name}' op {msg}")


def _check_block(op, desc: TensorDescType, value_type, what: str):
    want = desc.value_type()
    if shape_of(value_type) != shape_of(want) or elt(value_type) != elt(want):
        _err(op, f"{what} type {_show(value_type)} does not match the descriptor's block {_show(desc.block_type)}")


def _check_indices(op, desc: TensorDescType, indices):
    if len(indices) != len(desc.shape):
        _err(op, f"expected {len(desc.shape)} indices (the descriptor's rank), got {len(indices)}")


def _show(t) -> str:
    from ttc.ir.printer import attr_text

    return attr_text(t)


@irdl_op_definition
class MakeTensorDescOp(IRDLOperation):
    name = "tt.make_tensor_descriptor"
    base = operand_def(PointerType)
    shape = var_operand_def(i32)
    strides = var_operand_def(i64)
    padding = opt_prop_def(IntegerAttr)  # 1 zero (default, not printed), 2 nan
    result = result_def(TensorDescType)
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(Pure())

    def verify_(self):
        rank = len(self.result.type.shape)
        if not (len(self.shape) == len(self.strides) == rank):
            _err(self, f"expected {rank} shape and stride operands (the block's rank)")
        if elt(self.result.type.value_type()) != _signless(self.base.type.pointee):
            _err(self, "the block's element type must be the pointee type of the base")


def _signless(t):
    if isinstance(t, IntegerType) and t.signedness.data != Signedness.SIGNLESS:
        return IntegerType(t.width.data)
    return t


register(
    "tt.make_tensor_descriptor",
    "$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` stype($base) `,` stype($result)",
    infer={"__stype__base": PointerType, "__stype__result": TensorDescType, "shape": lambda T: i32,
           "strides": lambda T: i64},
)


@irdl_op_definition
class DescriptorLoadOp(IRDLOperation):
    name = "tt.descriptor_load"
    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    cache = prop_def(IntegerAttr, default_value=IntegerAttr(1, i32))
    evict = prop_def(IntegerAttr, default_value=IntegerAttr(1, i32))
    result = result_def(TensorType)
    traits = traits_def(MemoryReadEffect())

    def verify_(self):
        _check_indices(self, self.desc.type, self.indices)
        _check_block(self, self.desc.type, self.result.type, "result")


@irdl_op_definition
class DescriptorStoreOp(IRDLOperation):
    name = "tt.descriptor_store"
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(i32)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        _check_indices(self, self.desc.type, self.indices)
        _check_block(self, self.desc.type, self.src.type, "source")


@irdl_op_definition
class DescriptorReduceOp(IRDLOperation):
    name = "tt.descriptor_reduce"
    kind = prop_def(IntegerAttr)
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(i32)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        _check_indices(self, self.desc.type, self.indices)
        _check_block(self, self.desc.type, self.src.type, "source")


DESCRIPTOR_OPS = [MakeTensorDescOp, DescriptorLoadOp, DescriptorStoreOp, DescriptorReduceOp]

# After the definitions above: ttc.ir.tt imports them at its end (this import may be what runs it).
from ttc.ir.tt import CACHE as _CACHE, EVICT as _EVICT  # noqa: E402

register(
    "tt.descriptor_load",
    "$desc `[` $indices `]` oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
    "attr-dict `:` qualified(type($desc)) `->` type($result)",
    infer={"indices": lambda T: i32},
    enums={"cache": _CACHE, "evict": _EVICT},
)
register(
    "tt.descriptor_store",
    "$desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)",
    infer={"indices": lambda T: i32},
)
register(
    "tt.descriptor_reduce",
    "$kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)",
    infer={"indices": lambda T: i32},
    enums={"kind": REDUCE_KIND},
)

