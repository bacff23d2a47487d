"""`!ttg.memdesc`, a view of shared or tensor memory, with Triton's MemDescType::verify: the shared-memory rules
(powers of two, the allocation shape, a shared layout's memory space, rank and extent) and the tensor-memory
rules of its encodings (ttc/ir/tmem_attrs.py), each with Triton's message."""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition

from ttc.ir.tmem_attrs import TensorMemoryEncoding, TensorMemoryScalesEncoding, TensorMemorySpace, _dims_text, _pow2
from ttc.ir.types import _XdslShim, bitwidth


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
        problem = _tmem_problem(dims, elt, enc, space, alloc) or _memdesc_problem(dims, elt, enc, space, alloc)
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
    from ttc.ir.attr_printer import attr_text
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
        from ttc.ir.layouts import shape_per_cta

        block = list(shape_per_cta(block, enc))
        contig = 0 if enc["transposed"] else len(block) - 1
        size = min(block[contig] * (2 if enc.get("fp4Padded") else 1), 256)
        want = 8 * enc["swizzlingByteWidth"] // enc["elementBitWidth"]
        if size < want:
            return (f"block shape along the contiguous dimension {contig} is too small for the swizzle byte size "
                    f"{enc['swizzlingByteWidth']} in an NVMMASharedLayout, got {size} but expected at least {want}")
    return None


def _tmem_problem(shape, element, enc, space, alloc) -> str | None:
    """The tensor-memory part of Triton's MemDescType::verify (and its rank-0 rule), or None."""
    from ttc.ir.tmem_layout import tmem_layout

    if not shape:
        return "rank 0 memdesc is not allowed"
    if isinstance(enc, TensorMemoryEncoding):
        f = dict(enc.data)
        if not isinstance(space, TensorMemorySpace):
            return "memorySpace must be TensorMemorySpace"
        if len(shape) not in (2, 3):
            return "rank must be 2 or 3"
        bits = bitwidth(element)
        if bits * f["colStride"] > 32:
            return f"bitwidth * colStride must be less than or equal to 32. Got {bits} and {f['colStride']}"
        m, n = alloc[-2:] if len(alloc) >= 2 else (0, 0)
        want = (f["blockM"] * f["CTASplitM"], f["blockN"] * f["CTASplitN"])
        if m < want[0] or n < want[1]:
            return f"the allocation shape must be at least {want[0]}x{want[1]}. Got {_dims_text(alloc[-2:])}"
        if any(not _pow2(d) for d in (m, n)):
            return None  # Triton's other rule (power-of-2 dimensions) reports it
        ll = tmem_layout((m, n), enc)
        if (ll.outs["dim0"], ll.outs["dim1"]) != (m, n):
            return f"allocation shape must be equal to {ll.outs['dim0']}x{ll.outs['dim1']}"
    elif isinstance(enc, TensorMemoryScalesEncoding):
        if not isinstance(space, TensorMemorySpace):
            return "memorySpace must be TensorMemorySpace"
        if len(alloc) != 2:
            return "Scales don't currently support multibuffering"
        if bitwidth(element) != 8:
            return "bitwidth must be 8"
    return None
