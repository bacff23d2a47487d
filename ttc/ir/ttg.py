"""The `ttg` (TritonGPU) and `ttng` (TritonNvidiaGPU) dialects: layouts, shared memory and async copies.

Layout attributes live in `ttc.ir.layouts`, the memdesc and token types in `ttc.ir.types`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, TensorType, UnitAttr, i1, i32
from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (EffectInstance, MemoryEffect, MemoryEffectKind, MemoryFreeEffect, MemoryReadEffect,
                         MemoryWriteEffect, Pure)
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import Custom, register, same_as
from ttc.ir.layouts import LAYOUTS
from ttc.ir.scaled import Fp4ToFpOp
from ttc.ir.tt import CACHE, EVICT
from ttc.ir.types import AsyncTokenType, MemDescType, elt, i1_like, pointee_like, shape_of


def _i32(v: int) -> IntegerAttr:
    return IntegerAttr(v, i32)


@irdl_op_definition
class ConvertLayoutOp(IRDLOperation):
    name = "ttg.convert_layout"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self):
        if shape_of(self.src.type) != shape_of(self.result.type) or elt(self.src.type) != elt(self.result.type):
            raise VerifyException("'ttg.convert_layout' op operand and result must differ only in layout")


register("ttg.convert_layout", "$src attr-dict `:` type($src) `->` type($result)")


class AllocUnlessImmutable(MemoryEffect):
    """ttg.local_alloc: an immutable buffer (one with a source) has no effects until shared memory is allocated
    (as Triton's LocalAllocOp::getEffects), so CSE merges, LICM hoists and DCE removes it like a value; a mutable
    one allocates."""

    @classmethod
    def get_effects(cls, op):
        if op.operands and not op.results[0].type.mutable.data:
            return set()
        return {EffectInstance(MemoryEffectKind.ALLOC)}


@irdl_op_definition
class LocalAllocOp(IRDLOperation):
    name = "ttg.local_alloc"
    src = opt_operand_def(TensorType)
    alignment = opt_prop_def(IntegerAttr)
    result = result_def(MemDescType)
    traits = traits_def(AllocUnlessImmutable())

    def verify_(self):
        if self.src is None:
            if not self.result.type.mutable.data:
                raise VerifyException("'ttg.local_alloc' op cannot allocate immutable memory without a source")
            return
        if shape_of(self.src.type) != self.result.type.get_shape():
            raise VerifyException("'ttg.local_alloc' op source shape must match the memdesc shape")
        if elt(self.src.type) != self.result.type.element_type:
            raise VerifyException("'ttg.local_alloc' op source element type must match the memdesc element type")


@irdl_op_definition
class LocalDeallocOp(IRDLOperation):
    name = "ttg.local_dealloc"
    src = operand_def(MemDescType)
    traits = traits_def(MemoryFreeEffect())


@irdl_op_definition
class LocalLoadOp(IRDLOperation):
    name = "ttg.local_load"
    src = operand_def(MemDescType)
    token = opt_operand_def(AsyncTokenType)
    result = result_def(TensorType)
    traits = traits_def(MemoryReadEffect())

    def verify_(self):
        if self.src.type.get_shape() != shape_of(self.result.type):
            raise VerifyException("'ttg.local_load' op result shape must match the memdesc shape")


@irdl_op_definition
class LocalStoreOp(IRDLOperation):
    name = "ttg.local_store"
    src = operand_def(TensorType)
    dst = operand_def(MemDescType)
    traits = traits_def(MemoryWriteEffect())


@irdl_op_definition
class MemDescIndexOp(IRDLOperation):
    name = "ttg.memdesc_index"
    src = operand_def(MemDescType)
    index = operand_def(i32)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    def verify_(self):
        if self.src.type.get_shape()[1:] != self.result.type.get_shape():
            raise VerifyException("'ttg.memdesc_index' op result shape must drop the leading dimension")


@irdl_op_definition
class MemDescTransOp(IRDLOperation):
    name = "ttg.memdesc_trans"
    src = operand_def(MemDescType)
    order = prop_def(DenseArrayBase)
    result = result_def(MemDescType)
    traits = traits_def(Pure())


@irdl_op_definition
class MemDescSubsliceOp(IRDLOperation):
    """A view of a tile of a shared memory buffer (`%buf[16, 0]`: the tile's first element)."""
    name = "ttg.memdesc_subslice"
    src = operand_def(MemDescType)
    offsets = prop_def(DenseArrayBase)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    def verify_(self):
        src, dst, offs = self.src.type.get_shape(), self.result.type.get_shape(), self.offsets.get_values()
        if len(offs) != len(src) or len(dst) != len(src) or any(
                o < 0 or o + d > s for o, d, s in zip(offs, dst, src)):
            raise VerifyException("'ttg.memdesc_subslice' op the tile must lie inside the source")


def _parse_subslice(op_type, parser):
    src = parser.parse_unresolved_operand()
    offsets = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    src_t = parser.parse_type()
    parser.parse_punctuation("->")
    dst_t = parser.parse_type()
    return op_type.build(operands=[parser.resolve_operand(src, src_t)], result_types=[dst_t], attributes=attrs,
                         properties={"offsets": DenseArrayBase.from_list(i32, offsets)})


def _print_subslice(op, p) -> str:
    offsets = ", ".join(str(o) for o in op.offsets.get_values())
    return (f" {p.value(op.src)}[{offsets}]" + p.attr_dict(dict(op.attributes), set()) + " : "
            + p.type(op.src.type) + " -> " + p.type(op.result.type))


register("ttg.memdesc_subslice", Custom(_parse_subslice, _print_subslice))


register("ttg.local_alloc", "($src^)? attr-dict `:` functional-type(operands, results)")
register("ttg.local_dealloc", "$src attr-dict `:` qualified(type($src))")
register("ttg.local_load", "$src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)",
         infer={"token": lambda T: AsyncTokenType()})
register("ttg.local_store", "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))")
register("ttg.memdesc_index", "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))",
         infer={"index": lambda T: i32})
register("ttg.memdesc_trans", "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))")


@irdl_op_definition
class AsyncCopyGlobalToLocalOp(IRDLOperation):
    name = "ttg.async_copy_global_to_local"
    src = operand_def(TensorType)
    result = operand_def(MemDescType)
    mask = opt_operand_def()
    other = opt_operand_def()
    cache = prop_def(IntegerAttr, default_value=_i32(1))
    evict = prop_def(IntegerAttr, default_value=_i32(1))
    isVolatile = prop_def(BoolAttr, default_value=BoolAttr(False, i1))
    token = result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


register(
    "ttg.async_copy_global_to_local",
    "$src `,` $result (`mask` $mask^)? (`other` $other^)? oilist(`cacheModifier` `=` $cache | "
    "`evictionPolicy` `=` $evict) attr-dict `:` type($src) `->` stype($result)",
    infer={"__stype__result": MemDescType, "mask": lambda T: i1_like(T["src"]), "other": lambda T: pointee_like(T["src"]), "token": lambda T: AsyncTokenType()},
    enums={"cache": CACHE, "evict": EVICT},
)


@irdl_op_definition
class AsyncCommitGroupOp(IRDLOperation):
    name = "ttg.async_commit_group"
    inputTokens = var_operand_def(AsyncTokenType)
    asyncToken = result_def(AsyncTokenType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


@irdl_op_definition
class AsyncWaitOp(IRDLOperation):
    name = "ttg.async_wait"
    asyncToken = var_operand_def(AsyncTokenType)
    num = prop_def(IntegerAttr)
    retToken = result_def(AsyncTokenType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


register("ttg.async_commit_group", "(`tokens` $inputTokens^)? attr-dict",
         infer={"inputTokens": lambda T: AsyncTokenType(), "asyncToken": lambda T: AsyncTokenType()})
register("ttg.async_wait", "($asyncToken^)? attr-dict",
         infer={"asyncToken": lambda T: AsyncTokenType(), "retToken": lambda T: AsyncTokenType()})


# ----------------------------------------------------------------------------- ttng (Hopper)


@irdl_op_definition
class WarpGroupDotOp(IRDLOperation):
    name = "ttng.warp_group_dot"
    a = operand_def()
    b = operand_def(MemDescType)
    c = operand_def(TensorType)
    useC = opt_operand_def(i1)
    inputPrecision = prop_def(IntegerAttr, default_value=_i32(2))  # ieee
    maxNumImpreciseAcc = prop_def(IntegerAttr, default_value=_i32(0))
    isAsync = prop_def(BoolAttr, default_value=BoolAttr(False, i1))
    d = result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect())

    def verify_(self):
        from ttc.ir.layout_checks import check_warp_group_dot

        problem = check_warp_group_dot(self)
        if problem:
            raise VerifyException(f"'ttng.warp_group_dot' op {problem}")


register(
    "ttng.warp_group_dot",
    "$a`,` $b`,` $c (`,` $useC^)? attr-dict `:` type($a) `*` qualified(type($b)) `->` type($d)",
    infer={"c": same_as("d"), "useC": lambda T: i1},
)


@irdl_op_definition
class WarpGroupDotWaitOp(IRDLOperation):
    name = "ttng.warp_group_dot_wait"
    inputs = var_operand_def()
    pendings = prop_def(IntegerAttr)
    outputs = var_result_def()  # no memory-effect trait: unknown effects, as Triton's (never trivially dead)


register("ttng.warp_group_dot_wait", "$inputs attr-dict `:` type($inputs)", infer={"outputs": lambda T: T.all("inputs")})


@irdl_op_definition
class FenceAsyncSharedOp(IRDLOperation):
    name = "ttng.fence_async_shared"
    bCluster = prop_def(BoolAttr)
    traits = traits_def(MemoryWriteEffect())


register("ttng.fence_async_shared", "attr-dict")


TTG_OPS = [
    ConvertLayoutOp, LocalAllocOp, LocalDeallocOp, LocalLoadOp, LocalStoreOp, MemDescIndexOp, MemDescTransOp,
    AsyncCopyGlobalToLocalOp, AsyncCommitGroupOp, AsyncWaitOp, Fp4ToFpOp, MemDescSubsliceOp,
]
TTNG_OPS = [WarpGroupDotOp, WarpGroupDotWaitOp, FenceAsyncSharedOp]

from ttc.ir.tma import TMA_TTG_OPS, TMA_TTNG_OPS  # noqa: E402
from ttc.ir.pipeline_ops import PredicateStageOp  # noqa: E402

TTG = Dialect("ttg", TTG_OPS + TMA_TTG_OPS + [PredicateStageOp], [MemDescType, AsyncTokenType, *LAYOUTS])
TTNG = Dialect("ttng", TTNG_OPS + TMA_TTNG_OPS, [])
