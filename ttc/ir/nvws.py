"""The NVWS dialect's warp groups (Triton 3.6's NVWSOps.td): `nvws.warp_group`, what tritongpu-partition-loops
splits a partitioned loop into, before it becomes a `ttg.warp_specialize`.

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
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect, ReturnLike
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import Custom, register


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

NVWS = Dialect("nvws", [WarpGroupOp, WarpGroupYieldOp, WarpGroupReturnOp], [])
