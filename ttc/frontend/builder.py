"""Building IR the way Triton's `ir.builder` does: one insertion point, one current location, and ops created
exactly as Triton creates them, so that the module we build is op-for-op the one Triton's frontend builds.

What matters for that:
* constants are never shared or folded: every `get_int32(...)` makes a new `arith.constant`;
* `tt.splat` and `tt.broadcast` are built with MLIR's `createOrFold`: splatting a constant gives a dense
  `arith.constant` instead (the scalar constant stays behind), broadcasting a dense splat constant gives a
  reshaped one;
* moving the insertion point moves the current location to the op found there (or to `unknown`), as
  Triton's `TritonOpBuilder` does.
"""

from __future__ import annotations

import struct

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
    UnknownLoc,
)
from xdsl.dialects.ub import PoisonAttr
from xdsl.ir import Block, Operation, SSAValue

from ttc.ir.dialects import prebuilt
from ttc.ir.format import build_op


_OP_CLASSES: dict = {}


def op_class(name: str):
    """The op class registered under `name` (arith, math, scf, cf, ub, tt, gpu or llvm); a dialect's module is
    imported when the first of its ops is built (a kernel without math never loads xDSL's math)."""
    cls = _OP_CLASSES.get(name)
    if cls is None:
        from ttc.ir.dialects import DIALECTS

        _OP_CLASSES.update({op.name: op for op in DIALECTS[name.partition(".")[0]]().operations})
        cls = _OP_CLASSES[name]
    return cls


UNKNOWN_LOC = UnknownLoc()
_NO_CHILD = NoneAttr()  # what a NameLoc naming nothing holds


_FILE_LOCS: dict = {}  # (file name, line, col) -> its location: a helper's code is generated per specialization


def file_loc(filename: str | StringAttr, line: int, col: int) -> FileLineColLoc:
    """`loc("filename":line:col)`; `filename` may be given as its StringAttr, which a file's locations share.
    Made once per position (attributes are immutable and print as their value)."""
    key = (filename.data if isinstance(filename, StringAttr) else filename, line, col)
    loc = _FILE_LOCS.get(key)
    if loc is None:
        name = filename if isinstance(filename, StringAttr) else StringAttr(filename)
        loc = _FILE_LOCS[key] = prebuilt(FileLineColLoc, name, IntAttr(line), IntAttr(col))
    return loc


_NAME_LOCS: dict = {}  # (name, id(loc)) -> (loc, its NameLoc): held, loc keeps its id its own


def name_loc(name: str, loc) -> NameLoc:
    """`loc("name"(loc))`; naming an unknown location gives `loc("name")`, as in MLIR. Made once per name and
    location object (the frontend's locations are themselves made once: `file_loc`, this)."""
    hit = _NAME_LOCS.get((name, id(loc)))
    if hit is None:
        made = prebuilt(NameLoc, StringAttr(name), _NO_CHILD if isinstance(loc, UnknownLoc) else loc)
        hit = _NAME_LOCS[(name, id(loc))] = (loc, made)
    return hit[1]


_INT_ATTRS: dict = {}  # (value's class, value, type) -> IntegerAttr


def int_attr(value: int, ir_type) -> IntegerAttr:
    """`IntegerAttr(value, ir_type)`, made once per value and type (a property such as a predicate or an axis,
    a constant's value): attributes are immutable and print as their value."""
    key = (value.__class__, value, ir_type)
    attr = _INT_ATTRS.get(key)
    if attr is None:
        attr = _INT_ATTRS[key] = IntegerAttr(value, ir_type)
    return attr


def _wrap_int(value: int, width: int) -> int:
    """An integer as MLIR's APInt of `width` bits prints it (signless: two's complement, i1 as 0/1)."""
    value &= (1 << width) - 1
    if width > 1 and value >= 1 << (width - 1):
        value -= 1 << width
    return value


def round_float(value: float, ir_type) -> float:
    """`value` converted the way Triton's builder converts it to the constant's type."""
    if isinstance(ir_type, (Float32Type, Float16Type, BFloat16Type)):
        try:
            value = struct.unpack("<f", struct.pack("<f", value))[0]  # the builder takes a C++ float
        except OverflowError:
            value = float("inf") if value > 0 else float("-inf")
    if isinstance(ir_type, Float16Type):
        try:
            value = struct.unpack("<e", struct.pack("<e", value))[0]
        except OverflowError:
            value = float("inf") if value > 0 else float("-inf")
    if isinstance(ir_type, BFloat16Type) and value == value:
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round to nearest even
        value = struct.unpack("<f", struct.pack("<I", bits))[0]
    return value


class Builder:
    """An insertion point (a block, and the op to insert before or None for the block's end) and a location."""

    def __init__(self):
        self.block: Block | None = None
        self.before: Operation | None = None
        self.loc = UNKNOWN_LOC

    # ------------------------------------------------------------------ insertion point and location

    def set_insertion_point_to_start(self, block: Block):
        self.block, self.before = block, block.first_op
        self.loc = block.first_op.location if block.first_op is not None else UNKNOWN_LOC

    def set_insertion_point_to_end(self, block: Block):
        """The end of `block`; the location becomes its last op's, or for an empty block its parent op's (what
        Triton gives the yield of an `if` branch that has no ops)."""
        self.block, self.before = block, None
        if block.last_op is not None:
            self.loc = block.last_op.location
        else:
            parent = block.parent_op()
            self.loc = parent.location if parent is not None and parent.location is not None else UNKNOWN_LOC

    def save(self):
        return (self.block, self.before)

    def restore(self, point):
        self.block, self.before = point
        self.loc = self.before.location if self.before is not None else UNKNOWN_LOC

    def create_block(self) -> Block:
        """A new block at the end of the current block's region; the insertion point moves to its end
        (MLIR's `createBlock`, which leaves the location alone)."""
        block = Block()
        self.block.parent.add_block(block)
        self.block, self.before = block, None
        return block

    def insert(self, op: Operation) -> Operation:
        op.location = self.loc
        if self.block is not None:
            if self.before is None:
                self.block.add_op(op)
            else:
                self.block.insert_op_before(op, self.before)
        return op

    # ------------------------------------------------------------------ ops

    def create(self, name: str, operands=(), result_types=(), properties=None, attributes=None, regions=(),
               successors=()):
        op = build_op(op_class(name), list(operands), list(result_types), properties, attributes, list(regions),
                      list(successors))
        return self.insert(op)

    def value(self, name: str, operands, result_type, properties=None) -> SSAValue:
        return self.create(name, operands, [result_type], properties).results[0]

    # ------------------------------------------------------------------ constants

    def constant(self, attr) -> SSAValue:
        return self.value("arith.constant", [], attr.type, {"value": attr})

    def int_constant(self, value: int, ir_type: IntegerType) -> SSAValue:
        return self.constant(int_attr(_wrap_int(int(value), ir_type.width.data), ir_type))

    def float_constant(self, value: float, ir_type) -> SSAValue:
        return self.constant(FloatAttr(round_float(float(value), ir_type), ir_type))

    def null_value(self, ir_type) -> SSAValue:
        if isinstance(ir_type, IntegerType):
            return self.int_constant(0, ir_type)
        return self.float_constant(0.0, ir_type)

    def all_ones(self, ir_type: IntegerType) -> SSAValue:
        return self.int_constant(-1, ir_type)

    def poison(self, ir_type) -> SSAValue:
        return self.value("ub.poison", [], ir_type, {"value": PoisonAttr()})

    # ------------------------------------------------------------------ folded shape ops

    @staticmethod
    def _constant_attr(value: SSAValue):
        owner = value.owner
        if isinstance(owner, Operation) and owner.name == "arith.constant":
            return owner.properties["value"]
        return None

    def splat(self, value: SSAValue, result_type: TensorType) -> SSAValue:
        attr = self._constant_attr(value)
        if isinstance(attr, (IntegerAttr, FloatAttr)):
            return self.constant(_dense_splat(result_type, attr.value.data))
        return self.value("tt.splat", [value], result_type)

    def broadcast(self, value: SSAValue, result_type: TensorType) -> SSAValue:
        if value.type == result_type:
            return value
        attr = self._constant_attr(value)
        if isinstance(attr, DenseIntOrFPElementsAttr) and _is_splat(attr):
            return self.constant(_dense_splat(result_type, next(attr.iter_values())))
        return self.value("tt.broadcast", [value], result_type)


def _dense_splat(result_type: TensorType, scalar) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(result_type, [scalar])  # one element, repeated as bytes


def _is_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    raw = attr.data.data
    n = 1
    for d in attr.get_shape():
        n *= d
    size = len(raw) // n if n else 0
    return size > 0 and raw == raw[:size] * n
