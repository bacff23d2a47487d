"""Tensor descriptors in the kernel language (Triton's `tl.tensor_descriptor`): a descriptor argument
(`tensordesc<fp16[64, 64]>` in a signature) or `tl.make_tensor_descriptor(base, shape, strides, block_shape)`,
and its methods `load`, `store` and `atomic_add/min/max/and/or/xor`, which become `tt.descriptor_load`,
`tt.descriptor_store` and `tt.descriptor_reduce`.

A descriptor value is the `!tt.tensordesc` handle followed by its shape (i32) and strides (i64), as Triton
flattens it: a kernel parameter of descriptor type is five IR arguments for a 2-d block, and so is an
argument of a helper call.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import IntegerAttr, IntegerType, Signedness, i32

from ttc.frontend import dtypes as T
from ttc.frontend.dtypes import BlockType, DType, PointerDType
from ttc.frontend.errors import LanguageError
from ttc.frontend.language.builtin import Builtin, builtin
from ttc.frontend.values import Constexpr, LangTuple, Tensor, unwrap
from ttc.ir.tensordesc import REDUCE_KIND, TensorDescType
from ttc.ir.types import tensor as ir_tensor

MAX_RANK = 5


class TensorDescDType(DType):
    """The type of a descriptor's handle: `!tt.tensordesc<tensor<...>>` for blocks of `block`."""

    def __init__(self, block: BlockType):
        self.block = block
        self.name = f"tensor_descriptor<{block}>"
        self.primitive_bitwidth = 64

    def _make_ir(self):
        e = self.block.element
        # Triton records an integer element's signedness in the descriptor type: si8, ui8 (the loaded tensor is i8)
        ir = IntegerType(e.int_bitwidth, Signedness.SIGNED if e.is_int_signed() else Signedness.UNSIGNED) \
            if e.is_int() and e.int_bitwidth > 1 else e.to_ir()
        return TensorDescType(ir_tensor(self.block.shape, ir))

    def mangle(self) -> str:
        return f"TD{self.block.mangle()}"

    def __eq__(self, other) -> bool:
        return isinstance(other, TensorDescDType) and other.block == self.block

    def __hash__(self) -> int:
        return hash(("tensordesc", self.block))

    def __repr__(self) -> str:
        return self.name


class TensorDescriptor(LangTuple):
    """A descriptor: its handle (a Tensor of TensorDescDType), then shape and strides (scalar Tensors)."""

    __slots__ = ()

    @property
    def handle(self) -> Tensor:
        return self.values[0]

    @property
    def block(self) -> BlockType:
        return self.values[0].type.block

    @property
    def rank(self) -> int:
        return len(self.block.shape)

    @property
    def shape(self) -> LangTuple:
        return LangTuple(self.values[1 : 1 + self.rank])

    @property
    def strides(self) -> LangTuple:
        return LangTuple(self.values[1 + self.rank :])

    def with_values(self, values) -> TensorDescriptor:
        return TensorDescriptor(values)

    def __repr__(self) -> str:
        return repr(self.values[0].type)


def descriptor_prototype(dtype: TensorDescDType, template) -> TensorDescriptor:
    """The values of a descriptor parameter (tensors made by `template(dtype)`), in Triton's order."""
    rank = len(dtype.block.shape)
    return TensorDescriptor([template(dtype)] + [template(T.int32) for _ in range(rank)]
                            + [template(T.int64) for _ in range(rank)])


_SIGNATURE = re.compile(r"^tensordesc<\s*([A-Za-z0-9]+)\s*\[([^\]]*)\]\s*>$")


def parse_descriptor_type(text: str) -> TensorDescDType | None:
    """`tensordesc<fp16[64, 64]>` (Triton's signature spelling) -> its type; None if `text` is not one.
    Raises LanguageError for a malformed one."""
    if not text.startswith("tensordesc"):
        return None
    m = _SIGNATURE.match(text)
    if m is None:
        raise LanguageError(f"malformed descriptor type '{text}' (expected e.g. 'tensordesc<fp16[64, 64]>')")
    element = T.from_signature_name(m.group(1))
    if element is None or element.is_ptr():
        raise LanguageError(f"unknown element type '{m.group(1)}' in '{text}'")
    try:
        shape = [int(d) for d in m.group(2).split(",")]
    except ValueError:
        raise LanguageError(f"the block shape of '{text}' must be integers") from None
    check_block_shape(shape, f"descriptor type '{text}'")
    return TensorDescDType(BlockType(element, shape))


def check_block_shape(shape, what: str):
    if not 1 <= len(shape) <= MAX_RANK:
        raise LanguageError(f"{what}: a descriptor block has 1 to {MAX_RANK} dimensions, not {len(shape)}")
    for i, d in enumerate(shape):
        if not isinstance(d, int) or isinstance(d, bool):
            raise LanguageError(f"{what}: block_shape[{i}] must be a constexpr integer, got {d!r}")
        if d <= 0 or d & (d - 1):
            raise LanguageError(f"{what}: block_shape[{i}] = {d} is not a power of 2")
    numel = 1
    for d in shape:
        numel *= d
    if numel > T.MAX_TENSOR_NUMEL:
        raise LanguageError(f"{what}: numel ({numel}) exceeds triton maximum tensor numel ({T.MAX_TENSOR_NUMEL})")


# ---------------------------------------------------------------------------------------------- semantics


def _seq(x) -> list:
    x = x.values if isinstance(x, LangTuple) and not isinstance(x, TensorDescriptor) else x
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _offsets(g, desc: TensorDescriptor, offsets) -> list:
    offsets = _seq(offsets)
    if len(offsets) != desc.rank:
        raise LanguageError(f"expected {desc.rank} offsets, but got {len(offsets)}")
    return g.semantic._ir_values(offsets, False)


def _check_value(desc: TensorDescriptor, value: Tensor, what: str):
    if not isinstance(value, Tensor) or value.shape != desc.block.shape:
        shape = list(value.shape) if isinstance(value, Tensor) else "not a tensor"
        raise LanguageError(f"{what}: the value's shape {shape} must be the descriptor's block shape "
                            f"{list(desc.block.shape)}")


def descriptor_load(g, desc: TensorDescriptor, offsets) -> Tensor:
    indices = _offsets(g, desc, offsets)
    op = g.builder.create("tt.descriptor_load", [desc.handle.handle, indices], [desc.block.to_ir()])
    return Tensor(op.results[0], desc.block)


def descriptor_store(g, desc: TensorDescriptor, offsets, value) -> Constexpr:
    value = g.semantic.to_tensor(value)
    _check_value(desc, value, "store")
    value = g.semantic.cast(value, desc.block.element)
    indices = _offsets(g, desc, offsets)
    g.builder.create("tt.descriptor_store", [desc.handle.handle, value.handle, indices], [])
    return Constexpr(None)


_REDUCE_DTYPES = {
    "add": (T.uint32, T.int32, T.uint64, T.float32, T.float16, T.bfloat16),
    "min": (T.uint32, T.int32, T.uint64, T.int64, T.float16, T.bfloat16),
    "max": (T.uint32, T.int32, T.uint64, T.int64, T.float16, T.bfloat16),
    "and": (T.uint32, T.int32, T.uint64, T.int64),
    "or": (T.uint32, T.int32, T.uint64, T.int64),
    "xor": (T.uint32, T.int32, T.uint64, T.int64),
}


def descriptor_reduce(g, kind: str, desc: TensorDescriptor, offsets, value) -> Constexpr:
    value = g.semantic.to_tensor(value)
    _check_value(desc, value, f"atomic_{kind}")
    if desc.block.element not in _REDUCE_DTYPES[kind]:
        raise LanguageError(f"atomic_{kind} through a descriptor does not support {desc.block.element}")
    indices = _offsets(g, desc, offsets)
    g.builder.create("tt.descriptor_reduce", [desc.handle.handle, value.handle, indices], [],
                     {"kind": IntegerAttr(REDUCE_KIND[kind], i32)})
    return Constexpr(None)


def make_tensor_descriptor(g, base, shape, strides, block_shape, padding_option="zero") -> TensorDescriptor:
    shape, strides, block_shape = _seq(shape), _seq(strides), [unwrap(b) for b in _seq(block_shape)]
    ndim = len(shape)
    if not 1 <= ndim <= MAX_RANK:
        raise LanguageError(f"make_tensor_descriptor: expected 1 <= ndim <= {MAX_RANK} but got {ndim} dimensions")
    if len(strides) != ndim:
        raise LanguageError(f"make_tensor_descriptor: expected {ndim} strides but got {len(strides)}")
    if len(block_shape) != ndim:
        raise LanguageError(f"make_tensor_descriptor: expected block_shape to have {ndim} dimensions but got "
                            f"{len(block_shape)}")
    if not isinstance(base, Tensor) or not isinstance(base.type, PointerDType):
        raise LanguageError("make_tensor_descriptor: base must be a pointer")
    element = base.type.element
    check_block_shape(block_shape, "make_tensor_descriptor")
    elem_size = element.primitive_bitwidth // 8
    if block_shape[-1] * elem_size < 16:
        raise LanguageError(
            "make_tensor_descriptor: descriptor block shape must have at least 16 bytes in the last dimension, "
            f"but got {block_shape[-1]} * {elem_size} = {block_shape[-1] * elem_size} bytes")
    last_stride = unwrap(strides[-1])
    if last_stride != 1:
        got = "a run-time value" if isinstance(last_stride, Tensor) else repr(last_stride)
        raise LanguageError(f"make_tensor_descriptor: tensor descriptor last dim must be 1 but got {got} "
                            "(the last stride must be the constant 1)")
    padding = unwrap(padding_option)
    if padding not in ("zero", "nan"):
        raise LanguageError(f"make_tensor_descriptor: padding_option must be 'zero' or 'nan', not {padding!r}")
    if padding == "nan" and element.is_int():
        raise LanguageError("Padding option `nan` is not supported for integer blocks")
    sem = g.semantic
    shape = [sem.make_scalar(unwrap(x), T.int32) for x in shape]
    strides = [sem.make_scalar(unwrap(x), T.int64) for x in strides]
    dtype = TensorDescDType(BlockType(element, block_shape))
    props = {"padding": IntegerAttr(2, i32)} if padding == "nan" else {}
    op = g.builder.create("tt.make_tensor_descriptor", [base.handle, [s.handle for s in shape],
                                                         [s.handle for s in strides]], [dtype.to_ir()], props)
    return TensorDescriptor([Tensor(op.results[0], dtype), *shape, *strides])


# ---------------------------------------------------------------------------------------------- builtins


@builtin(name="make_tensor_descriptor")
def make_tensor_descriptor_builtin(g, base, shape, strides, block_shape, padding_option="zero"):
    return make_tensor_descriptor(g, unwrap(base), shape, strides, block_shape, padding_option)


@builtin(name="load")
def _load(g, desc, offsets):
    return descriptor_load(g, desc, offsets)


@builtin(name="store")
def _store(g, desc, offsets, value):
    return descriptor_store(g, desc, offsets, value)


def _reduce_method(kind: str) -> Builtin:
    def fn(g, desc, offsets, value):
        return descriptor_reduce(g, kind, desc, offsets, value)

    return Builtin(fn, f"atomic_{kind}")


METHODS = {"load": _load, "store": _store, **{f"atomic_{k}": _reduce_method(k) for k in _REDUCE_DTYPES}}


def descriptor_attribute(desc: TensorDescriptor, attr: str):
    """`desc.load`, `desc.shape`, `desc.block_shape`, ... (None if `attr` is not one)."""
    if attr in ("gather", "scatter"):
        raise LanguageError(f"tensor descriptor {attr} (tt.descriptor_{attr}) is not supported yet")
    if attr in METHODS:
        return METHODS[attr]
    if attr == "shape":
        return desc.shape
    if attr == "strides":
        return desc.strides
    if attr == "block_shape":
        return LangTuple([Constexpr(d) for d in desc.block.shape])
    if attr == "dtype":
        return desc.block.element
    if attr == "block_type":
        return desc.block
    return None
