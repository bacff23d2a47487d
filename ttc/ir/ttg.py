"""The `ttg` (TritonGPU) and `ttng` (TritonNvidiaGPU) dialects: layouts, shared memory and async copies.

Layout attributes live in `ttc.ir.layouts`, the memdesc and token types in `ttc.ir.types`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, NoneAttr, TensorType, UnitAttr, i1, i32
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
from ttc.ir.layouts import SharedMemorySpace
from ttc.ir.tt import CACHE, EVICT, _dims, _emit, _err, _q, _traits
from ttc.ir.types import AsyncTokenType, elt, i1_like, pointee_like, shape_of
from ttc.ir.memdesc import MemDescType


def _i32(v: int) -> IntegerAttr:
    return IntegerAttr(v, i32)


@irdl_op_definition
class ConvertLayoutOp(IRDLOperation):
    name = "ttg.convert_layout"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self):
        _traits(self, "same_shape", "same_element_type")


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
        t = self.result.type
        if not isinstance(t.memory_space, SharedMemorySpace):
            _err(self, "should create a buffer of shared memory")
        if self.src is not None:
            _shared_memory_rank(self, self.src.type, t, "source")
        if t.get_shape() != t.get_alloc_shape():
            _err(self, "result shape and its alloc shape must match")
        if self.src is None:
            if not t.mutable.data:
                _err(self, "uninitialized alloc must have a mutable memdesc type")
            return
        _memory_op_types(self, self.src.type, t)


def _shared_memory_rank(op, t, memdesc, what: str):
    """Triton's verifySharedMemoryRank."""
    from ttc.ir.layout_checks import layout_rank

    rank = layout_rank(memdesc.encoding)
    if rank is None:
        _err(op, "expected memdesc to have a shared memory encoding")
    if len(shape_of(t)) != rank:
        _err(op, f"{what} has rank {len(shape_of(t))} but memdesc encoding has rank {rank}")


def _memory_op_types(op, src, dst):
    """Triton's verifyMemoryOpTypes."""
    if _elt(src) != _elt(dst):
        _err(op, f"source element type {_q(src)} must match destination element type {_q(_elt(dst))}")
    if _shape(src) != _shape(dst):
        _err(op, f"source shape [{_dims(_shape(src))}] must match [destination shape {_dims(_shape(dst))}]")


def _elt(t):
    return t.element_type if isinstance(t, MemDescType) else elt(t)


def _shape(t):
    return tuple(t.get_shape()) if isinstance(t, MemDescType) else shape_of(t)


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
        _shared_memory_rank(self, self.result.type, self.src.type, "result")
        _memory_op_types(self, self.src.type, self.result.type)


@irdl_op_definition
class LocalStoreOp(IRDLOperation):
    name = "ttg.local_store"
    src = operand_def(TensorType)
    dst = operand_def(MemDescType)
    traits = traits_def(MemoryWriteEffect())

    def verify_(self):
        if not self.dst.type.mutable.data:
            _err(self, "Cannot store into immutable memory")
        _shared_memory_rank(self, self.src.type, self.dst.type, "source")
        _memory_op_types(self, self.src.type, self.dst.type)


@irdl_op_definition
class MemDescIndexOp(IRDLOperation):
    name = "ttg.memdesc_index"
    src = operand_def(MemDescType)
    index = operand_def(i32)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    def verify_(self):
        from ttc.ir.tmem_attrs import TensorMemoryEncoding

        src, dst = self.src.type, self.result.type
        if src.element_type != dst.element_type:
            _emit("result element type must match desc element type")
        if len(src.get_shape()) != len(dst.get_shape()) + 1:
            _emit("result rank must be input rank - 1")
        if len(src.get_alloc_shape()) != len(src.get_shape()):
            _emit("We don't allow taking memdesc_index of a memdesc_index")
        if src.get_shape()[1:] != dst.get_shape():
            _emit("result shape must equal to srcShape[1:]")
        if src.get_alloc_shape() != src.get_shape():
            _emit("We don't support memdesc_index of a subview")
        if isinstance(src.encoding, NoneAttr) != isinstance(dst.encoding, NoneAttr):
            _emit("src and result must both have or not have an encoding")
        if _is_shared(src.encoding) != _is_shared(dst.encoding):
            _emit("src and dst must have the same type of encoding")
        if dst.get_alloc_shape() != dst.get_shape():
            _emit("alloc shape must match shape for both result and src")
        if isinstance(src.encoding, TensorMemoryEncoding) and (len(src.get_shape()), len(dst.get_shape())) != (3, 2):
            _emit("only 3D -> 2D subviews are supported for TensorMemoryEncodingAttr")


def _is_shared(enc) -> bool:
    from ttc.ir.memdesc import shared_rank

    return shared_rank(enc) is not None


@irdl_op_definition
class MemDescTransOp(IRDLOperation):
    name = "ttg.memdesc_trans"
    src = operand_def(MemDescType)
    order = prop_def(DenseArrayBase)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    def verify_(self):
        order = list(self.order.get_values())
        if len(order) != len(self.src.type.get_shape()):  # Triton's TransposeOpInterface
            _emit("order must have the same size as the rank of the operand and result")
        if sorted(order) != list(range(len(order))):
            _emit("order must be a permutation of [0, ..., rank - 1]")
        if self.src.type.element_type != self.result.type.element_type:
            _err(self, "requires the same element type for all operands and results")

    def verify_regions_(self):
        """The result type Triton infers: shape and allocation shape permuted, the same buffer otherwise. (Its
        layout is not compared: Triton compares shared layouts by their linear layouts, which ttc lacks.)"""
        from xdsl.dialects.builtin import ArrayAttr, IntAttr

        from ttc.ir.tt import _check_inferred

        src, order = self.src.type, list(self.order.get_values())
        shape, alloc = src.get_shape(), src.get_alloc_shape()
        lead = len(alloc) - len(order)
        _check_inferred(self, [MemDescType(
            ArrayAttr([IntAttr(shape[o]) for o in order]), src.element_type, self.result.type.encoding,
            src.memory_space, src.mutable,
            ArrayAttr([IntAttr(d) for d in alloc[:lead]] + [IntAttr(alloc[lead + o]) for o in order]))])


@irdl_op_definition
class MemDescSubsliceOp(IRDLOperation):
    """A view of a tile of a shared memory buffer (`%buf[16, 0]`: the tile's first element)."""
    name = "ttg.memdesc_subslice"
    src = operand_def(MemDescType)
    offsets = prop_def(DenseArrayBase)
    result = result_def(MemDescType)
    traits = traits_def(Pure())

    def verify_(self):
        from ttc.ir.layouts import SwizzledSharedEncoding
        from ttc.ir.shared_layouts import PaddedSharedEncoding, SharedLinearEncoding

        src_t, dst_t = self.src.type, self.result.type
        src, dst, offs = src_t.get_shape(), dst_t.get_shape(), list(self.offsets.get_values())
        if src_t.element_type != dst_t.element_type:
            _emit("result element type must match desc element type")
        if len(offs) != len(src):
            _emit("offsets must have the same rank as input")
        if len(src) != len(dst):
            _emit("result rank must equal to input rank")
        if isinstance(src_t.encoding, NoneAttr) != isinstance(dst_t.encoding, NoneAttr):
            _emit("src and result must both have or not have an encoding")
        if not _is_shared(src_t.encoding) or not _is_shared(dst_t.encoding):
            _emit("src and dst must both be of shared memory encoding")
        split = [d for d in range(len(src)) if src[d] != dst[d]]
        if not split:
            return
        for d, o in enumerate(offs):
            if d not in split and o:
                _emit("A non zero offset found in a dimension that is not being split")
            if d in split and o & (dst[d] - 1):
                _emit("The split offset may not touch the tile")
        enc = src_t.encoding
        if isinstance(enc, PaddedSharedEncoding) and enc["rank"] < len(src):
            _emit("SubSlice of low rank PaddedSharedEncoding from higher rank tensors is not supported yet")
        if enc["block"] if isinstance(enc, (PaddedSharedEncoding, SharedLinearEncoding)) else enc.get("CGALayout"):
            _emit("non-trivial block dimension not supported")
        if isinstance(enc, SwizzledSharedEncoding) and len(src) >= 2:
            # Triton inverts the buffer's linear layout: each tile step along a split dimension must be one
            # power-of-two offset, which along the swizzled rows means a row whose swizzle is zero
            alloc = src_t.get_alloc_shape()[-len(src):]
            row, cols = enc["order"][1], alloc[enc["order"][0]]
            for d in split:
                size = dst[d]
                while size < src[d]:
                    if d == row and enc["vec"] * ((size // enc["perPhase"]) % enc["maxPhase"]) % cols:
                        _emit("We don't support splitting along the swizzling pattern")
                    size *= 2


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

    def verify_(self):
        if not self.result.type.mutable.data:
            _err(self, "Cannot store into immutable memory")


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


@irdl_op_definition
class LocalBarrierOp(IRDLOperation):
    """A CTA barrier that makes the threads' shared-memory accesses before it visible after it (what Triton's
    membar analysis inserts)."""
    name = "ttg.local_barrier"
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


register("ttg.local_barrier", "attr-dict")


TTG_OPS = [
    ConvertLayoutOp, LocalAllocOp, LocalDeallocOp, LocalLoadOp, LocalStoreOp, MemDescIndexOp, MemDescTransOp,
    AsyncCopyGlobalToLocalOp, AsyncCommitGroupOp, AsyncWaitOp, Fp4ToFpOp, MemDescSubsliceOp, LocalBarrierOp,
]
TTNG_OPS = [WarpGroupDotOp, WarpGroupDotWaitOp, FenceAsyncSharedOp]

from ttc.ir.tma import TMA_TTG_OPS, TMA_TTNG_OPS  # noqa: E402
from ttc.ir.tmem import TMEM_ATTRS, TMEM_TTG_OPS, TMEM_TTNG_OPS  # noqa: E402
from ttc.ir.warp_specialize import WARP_SPECIALIZE_OPS  # noqa: E402
from ttc.ir.amd_layouts import AMD_LAYOUTS  # noqa: E402
from ttc.ir.shared_layouts import SHARED_LAYOUTS  # noqa: E402
from ttc.ir.ttg_extra import TTG_EXTRA_OPS  # noqa: E402

TTG = Dialect("ttg", TTG_OPS + TMA_TTG_OPS + TMEM_TTG_OPS + WARP_SPECIALIZE_OPS + TTG_EXTRA_OPS,
              [MemDescType, AsyncTokenType, *LAYOUTS, *SHARED_LAYOUTS, *AMD_LAYOUTS])
TTNG = Dialect("ttng", TTNG_OPS + TMA_TTNG_OPS + TMEM_TTNG_OPS, TMEM_ATTRS)
