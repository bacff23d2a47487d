"""Triton's types (`!tt.ptr`, `!ttg.memdesc`, `!ttg.async.token`) and small helpers over tensor types.

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

from ttc.ir import prebuilt

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


@irdl_attr_definition
class MemDescType(ParametrizedAttribute, TypeAttribute):
    """`!ttg.memdesc<SHAPExT, #encoding, #memspace(, mutable)(, ALLOCSHAPE)>`: a view of shared memory."""

    name = "ttg.memdesc"
    shape: Attribute  # ArrayAttr of IntAttr, held as a tuple-valued Data below
    element_type: Attribute
    encoding: Attribute
    memory_space: Attribute
    mutable: IntAttr
    alloc_shape: Attribute

    @classmethod
    def parse_parameters(cls, parser) -> list[Attribute]:
        from xdsl.dialects.builtin import ArrayAttr

        start = parser.pos
        parser.parse_punctuation("<")
        dims: list[int] = []
        while True:
            tok = parser._current_token.text
            if tok and tok[0].isdigit():
                dims.append(parser.parse_shape_dimension())
                parser.parse_shape_delimiter()
            else:
                break
        elt = parser.parse_type()
        parser.parse_punctuation(",")
        enc = parser.parse_attribute()
        parser.parse_punctuation(",")
        space = parser.parse_attribute()
        mutable = 0
        alloc: list[int] = list(dims)
        while parser.parse_optional_punctuation(","):
            if parser.parse_optional_keyword("mutable"):
                mutable = 1
                continue
            alloc = [parser.parse_shape_dimension()]
            while (parser._current_token.text or "").startswith("x"):  # "64x64" lexes as 64, x64
                parser.parse_shape_delimiter()
                alloc.append(parser.parse_shape_dimension())
        parser.parse_punctuation(">")
        from ttc.ir.tmem import memdesc_problem

        problem = memdesc_problem(dims, elt, enc, space, alloc) or _memdesc_problem(dims, elt, enc, space, alloc)
        if problem:
            parser.raise_error(problem, start, parser.pos)
        return [
            ArrayAttr([IntAttr(d) for d in dims]),
            elt,
            enc,
            space,
            IntAttr(mutable),
            ArrayAttr([IntAttr(d) for d in alloc]),
        ]

    @classmethod
    def parse_stripped(cls, parser):
        return cls(*cls.parse_parameters(parser))

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def get_alloc_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.alloc_shape.data)

    def print_parameters(self, printer) -> None:
        printer.print_string(self.mlir_stripped(_XdslShim(printer)))

    def mlir_stripped(self, p) -> str:
        shape = self.get_shape()
        parts = ["x".join(str(d) for d in shape) + ("x" if shape else "") + p.type(self.element_type)]
        parts += [p.attr(self.encoding), p.attr(self.memory_space)]
        if self.mutable.data:
            parts.append("mutable")
        alloc = self.get_alloc_shape()
        if alloc != shape:
            parts.append("x".join(str(d) for d in alloc))
        return "<" + ", ".join(parts) + ">"

    def mlir(self, p) -> str:
        return "!ttg.memdesc" + self.mlir_stripped(p)


def shared_rank(enc) -> int | None:
    """The rank of a shared-memory layout (Triton's LayoutEncodingTrait::getRank), None for other layouts."""
    from ttc.ir.layouts import SHARED, cga_rank
    from ttc.ir.shared_layouts import SHARED_LAYOUTS, PaddedSharedEncoding, SharedLinearEncoding

    if isinstance(enc, SharedLinearEncoding):
        return len((enc["offset"] + enc["block"])[0])
    if isinstance(enc, PaddedSharedEncoding):
        return enc["rank"]
    if isinstance(enc, SHARED):
        return cga_rank(enc)
    if isinstance(enc, tuple(SHARED_LAYOUTS)):
        return len(enc["order"])
    return None


def _memdesc_problem(shape, element, enc, space, alloc) -> str | None:
    """Triton's MemDescType::verify beyond tensor memory (ttc/ir/tmem.py): powers of two but for the leading
    (buffer-count) dimension, the allocation shape, and a shared layout's memory space, rank and extent."""
    from ttc.ir.layouts import DISTRIBUTED, NVMMASharedEncoding, SharedMemorySpace
    from ttc.ir.printer import attr_text
    from ttc.ir.shared_layouts import PaddedSharedEncoding, SharedLinearEncoding, out_sizes

    def dims(v):
        return ", ".join(map(str, v))

    if any(d <= 0 or d & (d - 1) for d in shape[1:]):
        return f"shape must have power-of-2 and non-zero dimensions; got {dims(shape)}"
    if len(alloc) < len(shape):
        return "alloc shape must have at least as many dimensions as shape"
    if any(d > a for d, a in zip(shape, alloc[len(alloc) - len(shape):])):
        return f"shape must be less than or equal to allocShape. shape = {dims(shape)}, allocShape = {dims(alloc)}"
    if isinstance(enc, DISTRIBUTED):
        return f"{attr_text(enc)} is not a valid encoding"
    rank = shared_rank(enc)
    if rank is None:
        return None
    if not isinstance(space, SharedMemorySpace):
        return f"memorySpace must be SharedMemorySpace for shared encoding. Got {attr_text(space)}"
    if rank not in (len(shape), len(shape) - 1):
        return f"rank must be equal to or one less than the shape size. Got {rank} and {len(shape)}"
    block = alloc[len(alloc) - rank:]
    if isinstance(enc, (PaddedSharedEncoding, SharedLinearEncoding)):
        sizes = enc.shape if isinstance(enc, PaddedSharedEncoding) else out_sizes((enc["offset"], enc["block"]), rank)
        for d, (want, got) in enumerate(zip(block, sizes)):
            if want != got:
                return f"Mismatch in expected shape for dimension {d}. Expected: {want}, got: {got}"
    elif isinstance(enc, NVMMASharedEncoding) and enc["swizzlingByteWidth"]:  # Triton's getTMABlockShape
        from ttc.ir.layout_checks import shape_per_cta

        block = list(shape_per_cta(block, enc))
        contig = 0 if enc["transposed"] else len(block) - 1
        size = min(block[contig] * (2 if enc.get("fp4Padded") else 1), 256)
        want = 8 * enc["swizzlingByteWidth"] // enc["elementBitWidth"]
        if size < want:
            return (f"block shape along the contiguous dimension {contig} is too small for the swizzle byte size "
                    f"{enc['swizzlingByteWidth']} in an NVMMASharedLayout, got {size} but expected at least {want}")
    return None


class _XdslShim:
    """Lets xDSL's own printer show our types (debugging only) through the MLIR printer's helpers."""

    def __init__(self, printer):
        self.printer = printer

    def type(self, t):
        from ttc.ir.printer import attr_text

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
