"""The NVWS dialect (Triton 3.6's NVWSOps.td, NVWSTypes.td, NVWSAttrDefs.td): warp groups and asynchronous
references.

`nvws.warp_group` is what tritongpu-partition-loops splits a partitioned loop into, before it becomes a
`ttg.warp_specialize`:

    %r = nvws.warp_group
    partition0 num_warps(4) {
      ...
      nvws.warp_group.yield %x : i32      // the op's results are the first region's
    }
    partition1 num_warps(4) {
      ...
      nvws.warp_group.return              // the other regions return nothing
    }

The regions see the values defined above them (the op is not isolated). As in Triton, the custom syntax names no
result types, so a printed op with results does not parse back. Verifier messages are Triton's
(WarpGroupOp::verify) and MLIR's (HasParent).

An aref (`!nvws.aref<[!ttg.memdesc<NxA...>, ...]>`, "asynchronous reference") wraps buffers whose leading dimension
is the number of slots; a producer partition brackets its writes to a slot between `nvws.aref.put.enter` (which
gives the slot's views and a token) and `nvws.aref.put.exit`, a consumer its reads between `nvws.aref.get.enter`
and `nvws.aref.get.exit`; the exits name the asynchronous ops (`#nvws.async_op<tma_load>`, ...) that complete the
access. nvws-lower-aref turns them into mbarriers. `nvws.descriptor_load` / `nvws.descriptor_gather` are TMA
loads that write their block into a shared-memory buffer (what nvws-insert-aref makes of a
`tt.descriptor_load` feeding a `ttg.local_alloc`). Ops that name the aref type print it stripped (`: <[...]>`), as
MLIR prints a type whose constraint names its class.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, StringAttr, TensorType, i32
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, MemoryReadEffect, MemoryWriteEffect, Pure, RecursiveMemoryEffect, ReturnLike
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import Custom, register
from ttc.ir.printer import RESULT_NAMES
from ttc.ir.tensordesc import TensorDescType
from ttc.ir.tmem_attrs import TensorMemoryScalesEncoding
from ttc.ir.types import AsyncTokenType
from ttc.ir.memdesc import MemDescType


@irdl_op_definition
class WarpGroupOp(IRDLOperation):
    name = "nvws.warp_group"
    numWarps = prop_def(DenseArrayBase)
    results_ = var_result_def()
    partitionRegions = var_region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self):
        def fail(msg):
            raise VerifyException(f"'nvws.warp_group' op {msg}")

        for i, region in enumerate(self.regions):
            if not region.blocks:
                fail(f"region #{i} ('partitionRegions') failed to verify constraint: region with at least 1 blocks")
        if len(self.numWarps.get_values()) != len(self.regions):
            fail("Must supply numWarps for each Warp Group.")
        if self.results:
            if not self.regions:
                fail("Must have at least one region when there are results.")
            term = self.regions[0].blocks.first.last_op
            if not isinstance(term, WarpGroupYieldOp):
                fail("When nvws.warp_group op has results, the first region should be terminated by "
                     "nvws.warp_group.yield op.")
            if len(term.operands) != len(self.results):
                fail("Mismatch in the number of results returned by nvws.warp_group op and the number of the "
                     "operands of the corresponding nvws.warp_group.yield op in the first region.")


@irdl_op_definition
class WarpGroupYieldOp(IRDLOperation):
    name = "nvws.warp_group.yield"
    values = var_operand_def()
    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    def verify_(self):
        if not isinstance(self.parent_op(), WarpGroupOp):
            raise VerifyException("'nvws.warp_group.yield' op expects parent op 'nvws.warp_group'")


@irdl_op_definition
class WarpGroupReturnOp(IRDLOperation):
    name = "nvws.warp_group.return"
    traits = traits_def(Pure(), IsTerminator())

    def verify_(self):
        if not isinstance(self.parent_op(), WarpGroupOp):
            raise VerifyException("'nvws.warp_group.return' op expects parent op 'nvws.warp_group'")


def _parse(op_type, parser):
    attrs = parser.parse_optional_attr_dict_with_keyword()
    attrs = dict(attrs.data) if attrs is not None else {}
    regions, warps = [], []
    while parser.parse_optional_keyword(f"partition{len(warps)}"):
        parser.parse_keyword("num_warps")
        parser.parse_punctuation("(")
        warps.append(parser.parse_integer(allow_boolean=False))
        parser.parse_punctuation(")")
        regions.append(parser.parse_region())
    attrs.pop("numWarps", None)  # the partitions' num_warps win, as in Triton's parser
    props = {"numWarps": DenseArrayBase.from_list(i32, warps)}
    return op_type.create(properties=props, attributes=attrs, regions=regions)


def _print(op: WarpGroupOp, p) -> str:
    attrs = {**{k: v for k, v in op.properties.items() if k != "numWarps"}, **op.attributes}
    text = " attributes" + p.attr_dict(attrs, set()) if attrs else ""
    pad = "\n" + " " * p._indent
    for i, (region, n) in enumerate(zip(op.regions, op.numWarps.get_values())):
        text += f"{pad}partition{i} num_warps({n}) " + p.region(region, entry_args=False)
    return text


register("nvws.warp_group", Custom(_parse, _print))
register("nvws.warp_group.yield", "($values^)? attr-dict (`:` type($values)^)?")
register("nvws.warp_group.return", "attr-dict")

# ----------------------------------------------------------------------------- asynchronous references

ASYNC_OPS = ("none", "tma_load", "tc5mma", "tmem_copy", "cp_async", "wgmma")


@irdl_attr_definition
class ArefType(ParametrizedAttribute, TypeAttribute):
    """`!nvws.aref<[T0, T1, ...]>`: an asynchronous reference to buffers of those types."""

    name = "nvws.aref"
    base_type: ArrayAttr

    @classmethod
    def parse_parameters(cls, parser) -> list[Attribute]:
        parser.parse_punctuation("<")
        types = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_type)
        parser.parse_punctuation(">")
        return [ArrayAttr(types)]

    @classmethod
    def parse_stripped(cls, parser) -> ArefType:
        return ArefType(*cls.parse_parameters(parser))

    def print_parameters(self, printer) -> None:
        from ttc.ir.types import _XdslShim

        printer.print_string(self.mlir_stripped(_XdslShim(printer)))

    def mlir_stripped(self, p) -> str:
        return "<[" + ", ".join(p.type(t) for t in self.base_type.data) + "]>"

    def mlir(self, p) -> str:
        return "!nvws.aref" + self.mlir_stripped(p)


@irdl_attr_definition
class AsyncOpAttr(ParametrizedAttribute):
    """`#nvws.async_op<tma_load>`: an asynchronous op that completes an aref access."""

    name = "nvws.async_op"
    value: StringAttr

    @classmethod
    def parse_parameters(cls, parser) -> list[Attribute]:
        parser.parse_punctuation("<")
        start = parser.pos
        word = parser.parse_identifier()
        if word not in ASYNC_OPS:
            parser.raise_error(f"expected ::mlir::triton::nvws::AsyncOp to be one of: {', '.join(ASYNC_OPS)}",
                               start, parser.pos)
        parser.parse_punctuation(">")
        return [StringAttr(word)]

    def mlir(self, p) -> str:
        return f"#nvws.async_op<{self.value.data}>"


def async_ops(*names: str) -> ArrayAttr:
    return ArrayAttr([AsyncOpAttr(StringAttr(n)) for n in names])


def _err(op, msg: str):
    raise VerifyException(f"'{op.name}' op {msg}")


@irdl_op_definition
class ArefCreateOp(IRDLOperation):
    name = "nvws.aref.create"
    buffers = var_operand_def(MemDescType)
    result = result_def(ArefType)
    traits = traits_def(Pure())

    def verify_(self):
        if [v.type for v in self.buffers] != list(self.result.type.base_type.data):
            _err(self, "failed to verify that input types match Aref output type")
        dims = []
        for v in self.buffers:
            if any(u.operation.name not in ("nvws.aref.create", "ttg.local_dealloc") for u in v.uses):
                _err(self, "Aref buffer is used elsewhere, Aref cannot guarantee async safety")
            dims.append(v.type.get_shape()[0])
        if len(set(dims)) > 1:
            _err(self, "Leading dims of sliced aref inputs don't match.")


def _slice_problem(orig: Attribute, new: Attribute) -> str | None:
    """verifySlice: an entered buffer is its aref buffer less the leading dimension (tmem scales: the same)."""
    if type(orig) is not type(new):
        return "MLIR Types don't match"
    o, n = orig.get_shape(), new.get_shape()
    if isinstance(orig, MemDescType) and isinstance(orig.encoding, TensorMemoryScalesEncoding):
        if orig.element_type != new.element_type or len(o) != len(n):
            return "Ranks don't match for TensorMemoryScalesEncodingAttr"
        return None if tuple(o) == tuple(n) else "Dimensions don't match for TensorMemoryScalesEncodingAttr"
    if orig.element_type != new.element_type or len(o) - 1 != len(n):
        return "Ranks don't match"
    return None if tuple(o[1:]) == tuple(n) else "Dimensions don't match"


def _verify_enter(op) -> None:
    base = op.aref.type.base_type.data
    if len(base) != len(op.buffers):
        _err(op, "Aref has different number of arguments than enter")
    for orig, new in zip(base, op.buffers):
        if not isinstance(orig, (MemDescType, TensorType)):
            _err(op, "Slicing not Implemented for this type")
        problem = _slice_problem(orig, new.type)
        if problem:
            _err(op, problem)


@irdl_op_definition
class ArefBufferOp(IRDLOperation):
    name = "nvws.aref.buffer"
    aref = operand_def(ArefType)
    token = operand_def(AsyncTokenType)
    stage = opt_operand_def(i32)
    buffers = var_result_def(MemDescType)


class _Enter(IRDLOperation):
    aref = operand_def(ArefType)
    stage = opt_operand_def(i32)
    phase = opt_operand_def(i32)
    buffers = var_result_def(MemDescType)
    token = result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def verify_(self):
        _verify_enter(self)


@irdl_op_definition
class ArefGetEnterOp(_Enter):
    name = "nvws.aref.get.enter"


@irdl_op_definition
class ArefPutEnterOp(_Enter):
    name = "nvws.aref.put.enter"


class _Exit(IRDLOperation):
    aref = operand_def(ArefType)
    token = operand_def(AsyncTokenType)
    stage = opt_operand_def(i32)
    async_ops = prop_def(ArrayAttr)

    def verify_(self):
        if not all(isinstance(a, AsyncOpAttr) for a in self.async_ops.data):
            _err(self, "property 'async_ops' failed to satisfy constraint: array of async op attributes")


@irdl_op_definition
class ArefGetExitOp(_Exit):
    name = "nvws.aref.get.exit"


@irdl_op_definition
class ArefPutExitOp(_Exit):
    name = "nvws.aref.put.exit"


@irdl_op_definition
class DescriptorLoadOp(IRDLOperation):
    name = "nvws.descriptor_load"
    desc = operand_def(TensorDescType)
    indices = var_operand_def(i32)
    txCount = prop_def(IntegerAttr)
    result = operand_def(MemDescType)
    cache = prop_def(IntegerAttr, default_value=IntegerAttr(1, i32))
    evict = prop_def(IntegerAttr, default_value=IntegerAttr(1, i32))
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


@irdl_op_definition
class DescriptorGatherOp(IRDLOperation):
    name = "nvws.descriptor_gather"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    txCount = prop_def(IntegerAttr)
    result = operand_def(MemDescType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


def _enter_names(op) -> list:
    """ODS's default names for an op with several named results: `%buffers(:N), %token`."""
    n = len(op.results) - 1
    return (["buffers"] + [None] * (n - 1) if n else []) + ["token"]


RESULT_NAMES.update({"nvws.aref.get.enter": _enter_names, "nvws.aref.put.enter": _enter_names})
_AREF = {"__stype__aref": ArefType}
register("nvws.aref.create", "$buffers attr-dict `:` stype($result)",
         infer={"__stype__result": ArefType, "buffers": lambda T: list(T["result"].base_type.data)})
register("nvws.aref.buffer", "$aref (`[` $stage^ `]`)? `,` $token attr-dict `:` stype($aref) `,` type($token) "
         "`->` type(results)", infer={**_AREF, "stage": lambda T: i32})
for _name in ("nvws.aref.get.enter", "nvws.aref.put.enter"):
    register(_name, "$aref ( `[` $stage^ `,` $phase `]`)? attr-dict `:` stype($aref) `->` type(results)",
             infer={**_AREF, "stage": lambda T: i32, "phase": lambda T: i32})
for _name in ("nvws.aref.get.exit", "nvws.aref.put.exit"):
    register(_name, "$aref (`[` $stage^ `]`)? `,` $token $async_ops attr-dict `:` stype($aref) `,` type($token)",
             infer={**_AREF, "stage": lambda T: i32})
register("nvws.descriptor_load",
         "$desc `[` $indices `]` $txCount $result oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict) "
         "attr-dict `:` type(operands)", infer={"__int__txCount": i32},
         enums={"cache": {"none": 1, "ca": 2, "cg": 3, "wb": 4, "cs": 5, "wt": 6, "cv": 7},
                "evict": {"evict_normal": 1, "evict_first": 2, "evict_last": 3}})
register("nvws.descriptor_gather", "$desc `[` $x_offsets `,` $y_offset `]` $txCount $result attr-dict `:` "
         "type(operands)", infer={"__int__txCount": i32})

NVWS = Dialect("nvws", [WarpGroupOp, WarpGroupYieldOp, WarpGroupReturnOp, ArefCreateOp, ArefBufferOp, ArefGetEnterOp,
                        ArefPutEnterOp, ArefGetExitOp, ArefPutExitOp, DescriptorLoadOp, DescriptorGatherOp],
               [ArefType, AsyncOpAttr])
