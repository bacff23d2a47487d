"""Triton's types (`!tt.ptr`, `!ttg.async.token`; `!ttg.memdesc` is in ttc/ir/memdesc.py) and small helpers over
tensor types.

Each type class prints itself with `mlir(p)` (full form) and `mlir_stripped(p)` (the `<...>` body MLIR
prints when an op's format names the type class), and parses both forms.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerType,
    NoneAttr,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.exceptions import VerifyException

from ttc.ir.dialects import prebuilt

NO_ENCODING = NoneAttr()  # the encoding of a tensor type without a layout


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """`!tt.ptr<T>` or `!tt.ptr<T, addrspace>`; address space 1 (global) is the default."""

    name = "tt.ptr"
    pointee: Attribute
    address_space: IntAttr

    def __init__(self, pointee: Attribute, address_space: int = 1):
        super().__init__(pointee, IntAttr(address_space))

    @classmethod
    def parse_parameters(cls, parser) -> list[Attribute]:
        parser.parse_punctuation("<")
        pointee = parser.parse_type()
        space = 1
        if parser.parse_optional_punctuation(","):
            space = parser.parse_integer()
        parser.parse_punctuation(">")
        return [pointee, IntAttr(space)]

    @classmethod
    def parse_stripped(cls, parser) -> PointerType:
        pointee, space = cls.parse_parameters(parser)
        return PointerType(pointee, space.data)

    def print_parameters(self, printer) -> None:
        printer.print_string(self.mlir_stripped(_XdslShim(printer)))

    def mlir_stripped(self, p) -> str:
        space = f", {self.address_space.data}" if self.address_space.data != 1 else ""
        return f"<{p.type(self.pointee)}{space}>"

    def mlir(self, p) -> str:
        return "!tt.ptr" + self.mlir_stripped(p)


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """`!ttg.async.token`: the token of an asynchronous copy group."""

    name = "ttg.async.token"

    def mlir(self, p) -> str:
        return "!ttg.async.token"


class _XdslShim:
    """Lets xDSL's own printer show our types (debugging only) through the MLIR printer's helpers."""

    def __init__(self, printer):
        self.printer = printer

    def type(self, t):
        from ttc.ir.attr_printer import attr_text

        return attr_text(t)

    attr = type


# ----------------------------------------------------------------------------- tensor helpers


def is_tensor(t: Attribute) -> bool:
    return isinstance(t, TensorType)


def shape_of(t: Attribute) -> tuple[int, ...]:
    return tuple(t.get_shape()) if isinstance(t, TensorType) else ()


def elt(t: Attribute) -> Attribute:
    """The element type of a tensor, or the type itself for scalars."""
    return t.element_type if isinstance(t, TensorType) else t


def encoding(t: Attribute) -> Attribute | None:
    if isinstance(t, TensorType) and not isinstance(t.encoding, NoneAttr):
        return t.encoding
    return None


def like(t: Attribute, element: Attribute) -> Attribute:
    """A type with the shape and layout of `t` and the given element type."""
    if isinstance(t, TensorType):
        return prebuilt(TensorType, t.shape, element, t.encoding)
    return element


def tensor(shape, element: Attribute, enc: Attribute | None = None) -> TensorType:
    """`tensor<SHAPE x element, enc>` (made directly: its parameters are valid by construction)."""
    dims = ArrayAttr(tuple(IntAttr(d) if isinstance(d, int) else d for d in shape))
    return prebuilt(TensorType, dims, element, enc if enc is not None else NO_ENCODING)


def i1_like(t: Attribute) -> Attribute:
    return like(t, i1)


def pointee_like(t: Attribute) -> Attribute:
    """The value type loaded through `t` (a pointer, a tensor of pointers, or a block pointer)."""
    e = elt(t)
    if not isinstance(e, PointerType):
        raise VerifyException(f"expected a pointer type, got {t}")
    if isinstance(e.pointee, TensorType):
        return e.pointee
    return like(t, e.pointee)


def is_int(t: Attribute) -> bool:
    return isinstance(elt(t), (IntegerType, IndexType))


def is_float(t: Attribute) -> bool:
    return isinstance(elt(t), AnyFloat)


def is_ptr(t: Attribute) -> bool:
    return isinstance(elt(t), PointerType)


def bitwidth(t: Attribute) -> int:
    e = elt(t)
    if isinstance(e, IntegerType):
        return e.width.data
    if isinstance(e, IndexType):
        return 64
    if isinstance(e, PointerType):
        return 64
    return e.bitwidth


def same_shape(a: Attribute, b: Attribute) -> bool:
    return shape_of(a) == shape_of(b) and is_tensor(a) == is_tensor(b)
