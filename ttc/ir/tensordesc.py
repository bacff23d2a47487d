"""Tensor descriptors in the `tt` dialect: the `!tt.tensordesc<tensor<...>>` type and the ops that make and
use one (`tt.make_tensor_descriptor`, `tt.descriptor_load`, `tt.descriptor_store`, `tt.descriptor_reduce`, and
the row gather and scatter `tt.descriptor_gather`, `tt.descriptor_scatter`), with Triton's syntax and verifiers.

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

from ttc.ir.enums import CACHE, EVICT
from ttc.ir.format import register
from ttc.ir.types import NO_ENCODING, PointerType, bitwidth, elt, shape_of, tensor

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


def _check_block(op, desc: TensorDescType, value_type) -> None:
    """Triton's verifyDescriptorLoadStoreType: the value has the block's element type and shape, or the shape
    without leading dimensions of size 1 (a rank-reducing load or store). The indices are not checked."""
    block_shape, shape = desc.shape, shape_of(value_type)
    if len(block_shape) > len(shape):
        drop = len(block_shape) - len(shape)
        if any(d != 1 for d in block_shape[:drop]):
            _err(op, "ranked reduce load only allowed for unit dimension leading dim.")
        block_shape = block_shape[drop:]
    if tuple(block_shape) != shape or elt(value_type) != elt(desc.value_type()):
        _err(op, "tensor descriptor block and tensor types must match")


def _show(t) -> str:
    from ttc.ir.attr_printer import attr_text

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
        _check_block(self, self.desc.type, self.result.type)


@irdl_op_definition
class DescriptorStoreOp(IRDLOperation):
    name = "tt.descriptor_store"
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(i32)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        _check_block(self, self.desc.type, self.src.type)


@irdl_op_definition
class DescriptorReduceOp(IRDLOperation):
    name = "tt.descriptor_reduce"
    kind = prop_def(IntegerAttr)
    desc = operand_def(TensorDescType)
    src = operand_def(TensorType)
    indices = var_operand_def(i32)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        _check_block(self, self.desc.type, self.src.type)


def verify_gather_scatter(op, desc: TensorDescType, value_type, offsets_type) -> None:
    """Triton's verifyGatherScatterOp: `value_type` (the rows gathered or scattered: a tensor, or the shared
    memory of the TMA ops, whose verifier says "descriptor block" and shows the memory as a tensor) against the
    descriptor's one-row block and the 1-D row offsets; TMA's gather4/scatter4 need at least 8 rows of at least
    32 bytes."""
    block = desc.value_type()
    bshape, shape, ishape = shape_of(block), tuple(value_type.get_shape()), shape_of(offsets_type)
    e = value_type.element_type
    tma = not isinstance(value_type, TensorType)
    shown = _show(tensor(shape, e) if tma else value_type)
    if len(bshape) != 2:
        _err(op, f"{'descriptor block must be 2D' if tma else 'block must be a 2D tensor'}, but got '{_show(block)}'")
    if bshape[0] != 1:
        _err(op, f"{'descriptor ' if tma else ''}block must have exactly 1 row, but got '{_show(block)}'")
    if len(ishape) != 1:
        _err(op, f"x offsets must be a 1D tensor, but got '{_show(offsets_type)}'")
    if len(shape) != 2:
        _err(op, f"result must be a 2D tensor, but got '{shown}'")
    if shape[0] < 8:
        _err(op, f"must have at least 8 rows, but got {shape[0]}")
    bits = bitwidth(e)
    if bits > 32:
        _err(op, "TMA dtype cannot be greater than 32 bits")
    if shape[1] < 32 // bits * 8:
        _err(op, f"must have at least {32 // bits * 8} columns for '{_show(e)}', but got {shape[1]}")
    if shape[0] != ishape[0]:
        _err(op, f"result tensor must have as many rows as indices ({ishape[0]}), but got '{shown}'")
    if shape[1] != bshape[1]:
        _err(op, f"result tensor number of columns must match block ({bshape[1]}), but got '{shown}'")
    if e != elt(block):
        _err(op, f"result tensor element type must match block ('{_show(elt(block))}'), but got '{shown}'")


@irdl_op_definition
class DescriptorGatherOp(IRDLOperation):
    """`tt.descriptor_gather %desc[%x_offsets, %y_offset]`: row `x_offsets[i]` of the tensor, from column
    `y_offset`, is row i of the result (the descriptor's block is one row)."""

    name = "tt.descriptor_gather"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    result = result_def(TensorType)
    traits = traits_def(MemoryReadEffect())

    def verify_(self):
        _check_i32_offsets(self, self.x_offsets.type)
        verify_gather_scatter(self, self.desc.type, self.result.type, self.x_offsets.type)


@irdl_op_definition
class DescriptorScatterOp(IRDLOperation):
    """`tt.descriptor_scatter %desc[%x_offsets, %y_offset], %src`: row i of `src` is stored to row
    `x_offsets[i]` of the tensor, from column `y_offset`."""

    name = "tt.descriptor_scatter"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    src = operand_def(TensorType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        _check_i32_offsets(self, self.x_offsets.type)
        verify_gather_scatter(self, self.desc.type, self.src.type, self.x_offsets.type)


def _check_i32_offsets(op, t) -> None:
    """ODS's RankedTensorOf<[I32]> on `x_offsets`."""
    if elt(t) != i32:
        _err(op, f"operand #1 must be ranked tensor of 32-bit signless integer values, but got '{_show(t)}'")


DESCRIPTOR_OPS = [MakeTensorDescOp, DescriptorLoadOp, DescriptorStoreOp, DescriptorReduceOp, DescriptorGatherOp,
                  DescriptorScatterOp]


register(
    "tt.descriptor_load",
    "$desc `[` $indices `]` oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
    "attr-dict `:` qualified(type($desc)) `->` type($result)",
    infer={"indices": lambda T: i32},
    enums={"cache": CACHE, "evict": EVICT},
)
register(
    "tt.descriptor_store",
    "$desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)",
    infer={"indices": lambda T: i32},
)
register("tt.descriptor_gather",
         "$desc `[` $x_offsets `,` $y_offset `]` attr-dict `:` functional-type(operands, results)")
register("tt.descriptor_scatter", "$desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)")
register(
    "tt.descriptor_reduce",
    "$kind `,` $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,` type($src)",
    infer={"indices": lambda T: i32},
    enums={"kind": REDUCE_KIND},
)

