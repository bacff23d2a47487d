"""The kernel language's types: scalar dtypes (`tl.float32`, `tl.int1`, ...), pointers and blocks (tensors).

These are the types the frontend reasons with (promotion, casts, mangled names), with Triton's names and
rules: `int1` is unsigned, `uint32` is printed as `i32` in the IR, a block of pointers is a tensor of
`!tt.ptr`, and a pointer to a block is a block pointer (`!tt.ptr<tensor<...>>`). `to_ir()` gives the xDSL
type; `mangle()` the spelling Triton uses in the names of specialized helper functions.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    IntegerType,
    NoneType,
)

from ttc.ir.types import PointerType as IRPointerType
from ttc.ir.types import tensor as ir_tensor

MAX_TENSOR_NUMEL = 1048576

_BLOCK_IR: dict = {}  # (element dtype, shape) -> the tensor type
_SIGNED = ("int8", "int16", "int32", "int64")
_UNSIGNED = ("int1", "uint8", "uint16", "uint32", "uint64")
# name -> (bit width, mantissa bits, IR type)
_FLOATS = {
    "fp8e4b15": (8, 3, Float8E4M3B11FNUZType),
    "fp8e4nv": (8, 3, Float8E4M3FNType),
    "fp8e4b8": (8, 3, Float8E4M3FNUZType),
    "fp8e5": (8, 2, Float8E5M2Type),
    "fp8e5b16": (8, 2, Float8E5M2FNUZType),
    "fp16": (16, 10, Float16Type),
    "bf16": (16, 7, BFloat16Type),
    "fp32": (32, 23, Float32Type),
    "fp64": (64, 52, Float64Type),
}
_STANDARD_FLOATS = ("fp16", "bf16", "fp32", "fp64")

KIND_BOOL, KIND_INT, KIND_FLOAT = 0, 1, 2


class DType:
    """A scalar type. Compared by name; `str()` is Triton's short name (`fp32`), `repr()` the Python one."""

    def __init__(self, name: str):
        if name not in _SIGNED + _UNSIGNED + tuple(_FLOATS) + ("void",):
            raise ValueError(f"unknown dtype {name!r}")
        self.name = name
        if name in _FLOATS:
            self.primitive_bitwidth = _FLOATS[name][0]
            self.fp_mantissa_width = _FLOATS[name][1]
        elif name == "void":
            self.primitive_bitwidth = 0
        else:
            self.primitive_bitwidth = int("".join(c for c in name if c.isdigit()))
            self.int_bitwidth = self.primitive_bitwidth

    # classification
    def is_int_signed(self) -> bool:
        return self.name in _SIGNED

    def is_int_unsigned(self) -> bool:
        return self.name in _UNSIGNED

    def is_int(self) -> bool:
        return self.is_int_signed() or self.is_int_unsigned()

    def is_bool(self) -> bool:
        return self.name == "int1"

    def is_floating(self) -> bool:
        return self.name in _FLOATS

    def is_standard_floating(self) -> bool:
        return self.name in _STANDARD_FLOATS

    def is_fp8(self) -> bool:
        return self.name.startswith("fp8")

    def is_fp16(self) -> bool:
        return self.name == "fp16"

    def is_bf16(self) -> bool:
        return self.name == "bf16"

    def is_fp32(self) -> bool:
        return self.name == "fp32"

    def is_fp64(self) -> bool:
        return self.name == "fp64"

    def is_void(self) -> bool:
        return self.name == "void"

    def is_ptr(self) -> bool:
        return False

    def is_block(self) -> bool:
        return False

    def is_const(self) -> bool:
        return False

    def kind(self) -> int:
        """bool < integer < floating point, the order of Triton's scalar promotion rule."""
        if self.is_bool():
            return KIND_BOOL
        return KIND_INT if self.is_int() else KIND_FLOAT

    def int_min(self) -> int:
        return -(2 ** (self.int_bitwidth - 1)) if self.is_int_signed() else 0

    def int_max(self) -> int:
        return 2 ** (self.int_bitwidth - 1) - 1 if self.is_int_signed() else 2**self.int_bitwidth - 1

    @property
    def scalar(self) -> DType:
        return self

    def with_element_ty(self, element: DType) -> DType:
        return element

    _ir = None  # the xDSL type, made on first use (dtypes are immutable values)

    def to_ir(self):
        if self._ir is None:
            self._ir = self._make_ir()
        return self._ir

    def _make_ir(self):
        if self.name == "void":
            return NoneType()
        if self.is_int():
            return IntegerType(self.primitive_bitwidth)
        return _FLOATS[self.name][2]()

    def mangle(self) -> str:
        if self.is_int():
            return ("i" if self.is_int_signed() else "u") + str(self.int_bitwidth)
        if self.is_floating():
            return self.name
        return "V"

    def __eq__(self, other) -> bool:
        return type(other) is DType and other.name == self.name

    def __hash__(self) -> int:
        return hash(("dtype", self.name))

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        if self.name.startswith("fp"):
            return "triton.language.float" + self.name[2:]
        if self.name.startswith("bf"):
            return "triton.language.bfloat" + self.name[2:]
        return "triton.language." + self.name


class PointerDType(DType):
    """`tl.pointer_type(element)`: a pointer into global memory (address space 1) unless told otherwise."""

    def __init__(self, element: DType, address_space: int = 1, const: bool = False):
        self.element = element
        self.address_space = address_space
        self.const = const
        self.name = ("const_pointer<" if const else "pointer<") + str(element) + ">"
        self.primitive_bitwidth = 64

    @property
    def element_ty(self) -> DType:
        return self.element

    def is_ptr(self) -> bool:
        return True

    def is_const(self) -> bool:
        return self.const

    def is_int_signed(self) -> bool:
        return False

    def is_int_unsigned(self) -> bool:
        return False

    def is_floating(self) -> bool:
        return False

    def is_standard_floating(self) -> bool:
        return False

    def _make_ir(self):
        return IRPointerType(self.element.to_ir(), self.address_space)

    def mangle(self) -> str:
        return "P" + self.element.mangle()

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, PointerDType)
            and other.element == self.element
            and other.address_space == self.address_space
            and other.const == self.const
        )

    def __hash__(self) -> int:
        return hash(("ptr", self.element, self.address_space, self.const))

    def __repr__(self) -> str:
        return self.name


class BlockType(DType):
    """A tensor type: an element type (scalar or pointer) and a static shape of powers of two."""

    def __init__(self, element: DType, shape):
        self.element = element
        self.shape = tuple(int(s) for s in shape)
        if not self.shape:
            raise TypeError("0d block_type is forbidden")
        self.numel = math.prod(self.shape)
        self.name = f"<{self.shape}, {element}>"
        self.primitive_bitwidth = element.primitive_bitwidth

    @property
    def scalar(self) -> DType:
        return self.element

    @property
    def element_ty(self) -> DType:
        return self.element

    def is_block(self) -> bool:
        return True

    def is_ptr(self) -> bool:
        return False

    def with_element_ty(self, element: DType) -> BlockType:
        return BlockType(element, self.shape)

    def _make_ir(self):
        key = (self.element, self.shape)  # equal block types have equal IR types: made once
        ir = _BLOCK_IR.get(key)
        if ir is None:
            ir = _BLOCK_IR[key] = ir_tensor(self.shape, self.element.to_ir())
        return ir

    def mangle(self) -> str:
        return f"{self.element.mangle()}S{'_'.join(map(str, self.shape))}S"

    def __eq__(self, other) -> bool:
        return isinstance(other, BlockType) and other.element == self.element and other.shape == self.shape

    def __hash__(self) -> int:
        return hash(("block", self.element, self.shape))

    def __repr__(self) -> str:
        return self.name


void = DType("void")
int1 = DType("int1")
int8, int16, int32, int64 = (DType(n) for n in _SIGNED)
uint8, uint16, uint32, uint64 = (DType(f"uint{w}") for w in (8, 16, 32, 64))
float8e4b15, float8e4nv, float8e4b8, float8e5, float8e5b16 = (
    DType(n) for n in ("fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16")
)
float16, bfloat16, float32, float64 = DType("fp16"), DType("bf16"), DType("fp32"), DType("fp64")

# the attribute names under which `triton.language` exposes them
BY_LANGUAGE_NAME = {
    "void": void, "int1": int1, "int8": int8, "int16": int16, "int32": int32, "int64": int64,
    "uint8": uint8, "uint16": uint16, "uint32": uint32, "uint64": uint64,
    "float8e4b15": float8e4b15, "float8e4nv": float8e4nv, "float8e4b8": float8e4b8, "float8e5": float8e5,
    "float8e5b16": float8e5b16, "float16": float16, "bfloat16": bfloat16, "float32": float32, "float64": float64,
}

# the spellings of a signature string (Triton's AOT compile.py)
_SIGNATURE_NAMES = {
    "fp8e4nv": float8e4nv, "fp8e4b8": float8e4b8, "fp8e5": float8e5, "fp8e5b16": float8e5b16,
    "fp8e4b15": float8e4b15, "fp16": float16, "bf16": bfloat16, "fp32": float32, "fp64": float64,
    "i1": int1, "i8": int8, "i16": int16, "i32": int32, "i64": int64,
    "u1": int1, "u8": uint8, "u16": uint16, "u32": uint32, "u64": uint64, "B": int1,
}


def from_signature_name(name: str) -> DType | None:
    """`*fp32` -> pointer to fp32, `*kfp16` -> const pointer, `i32` -> int32; None if not a type."""
    if name.startswith("*"):
        const = name.startswith("*k")
        element = from_signature_name(name[2:] if const else name[1:])
        return None if element is None else PointerDType(element, const=const)
    return _SIGNATURE_NAMES.get(name)


def int_dtype(bitwidth: int, signed: bool) -> DType:
    if bitwidth == 1:
        return int1
    return DType(("int" if signed else "uint") + str(bitwidth))
