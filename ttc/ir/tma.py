"""Hopper's TMA in the `ttng` dialect (and global scratch in `ttg`), with Triton 3.6's syntax and verifiers: mbarriers
(`init_barrier`, `barrier_expect`, `wait_barrier`, `inval_barrier`), the asynchronous copies through a tensor
descriptor (`async_tma_copy_global_to_local` into shared memory, `async_tma_copy_local_to_global`,
`async_tma_reduce`, `async_tma_store_wait`, and Blackwell's row gather and scatter `async_tma_gather`,
`async_tma_scatter`) and descriptors made on the device (`ttg.global_scratch_alloc`, `tensormap_create`,
`tensormap_fenceproxy_acquire`, `reinterpret_tensor_descriptor`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.dialects.builtin import TensorType
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ttc.ir.format import register
from ttc.ir.layouts import NVMMASharedEncoding
from ttc.ir.tensordesc import REDUCE_KIND, TensorDescType, verify_gather_scatter
from ttc.ir.tt import CACHE, EVICT
from ttc.ir.verify_errors import LocatedVerifyException
from ttc.ir.types import PointerType
from ttc.ir.memdesc import MemDescType


def _i32(v: int) -> IntegerAttr:
    return IntegerAttr(v, i32)


def _err(op, msg: str):
    raise VerifyException(f"'{op.name}' op {msg}")


def check_barrier(op, t: MemDescType) -> None:
    """Triton's verifyBarrierType: an mbarrier is one i64 per CTA at most."""
    from ttc.ir.layout_utils import module_int

    shape = t.get_shape()
    if not (t.element_type == i64 and len(shape) == 1 and shape[0] <= module_int(op, "ttg.num-ctas", 1)):
        _err(op, "barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs")


def check_tma_encoding(op, desc: TensorDescType, enc) -> None:
    """Triton's verifyTMAEncoding: the shared buffer of a TMA copy has the descriptor's (untransposed) NVMMA
    layout; the rank may differ (rank-reducing copies)."""
    if not isinstance(enc, NVMMASharedEncoding):
        _err(op, "TMA descriptor must have NVMMA shared layout")
    d = desc.encoding

    def key(e):
        return (bool(e.get("transposed")), e.get("swizzlingByteWidth"), e.get("elementBitWidth"),
                bool(e.get("fp4Padded")))

    if not isinstance(d, NVMMASharedEncoding) or key(d) != key(enc):
        _err(op, "TMA descriptor layout must match shared layout")
    if enc.get("transposed"):
        _err(op, "TMA descriptor layout must not be transposed")


@irdl_op_definition
class InitBarrierOp(IRDLOperation):
    name = "ttng.init_barrier"
    alloc = operand_def(MemDescType)
    count = prop_def(IntegerAttr)
    traits = traits_def(MemoryWriteEffect())

    def verify_(self):
        check_barrier(self, self.alloc.type)


@irdl_op_definition
class InvalBarrierOp(IRDLOperation):
    name = "ttng.inval_barrier"
    alloc = operand_def(MemDescType)
    traits = traits_def(MemoryWriteEffect())

    def verify_(self):
        check_barrier(self, self.alloc.type)


@irdl_op_definition
class BarrierExpectOp(IRDLOperation):
    name = "ttng.barrier_expect"
    alloc = operand_def(MemDescType)
    size = prop_def(IntegerAttr)
    pred = operand_def(i1)
    traits = traits_def(MemoryWriteEffect())

    def verify_(self):
        check_barrier(self, self.alloc.type)


@irdl_op_definition
class WaitBarrierOp(IRDLOperation):
    name = "ttng.wait_barrier"
    alloc = operand_def(MemDescType)
    phase = operand_def(i32)
    pred = opt_operand_def(i1)
    deps = var_operand_def(MemDescType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        check_barrier(self, self.alloc.type)


register("ttng.init_barrier", "$alloc `,` $count attr-dict `:` qualified(type($alloc))", infer={"__int__count": i32})
register("ttng.inval_barrier", "$alloc attr-dict `:` qualified(type($alloc))")
register("ttng.barrier_expect", "$alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))",
         infer={"pred": lambda T: i1, "__int__size": i32})
register("ttng.wait_barrier", "$alloc `,` $phase (`,` $pred^)? (`deps` $deps^)? attr-dict `:` "
         "qualified(type($alloc)) (`,` type($deps)^)?", infer={"phase": lambda T: i32, "pred": lambda T: i1})


@irdl_op_definition
class AsyncTMACopyGlobalToLocalOp(IRDLOperation):
    name = "ttng.async_tma_copy_global_to_local"
    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    barrier = operand_def(MemDescType)
    result = operand_def(MemDescType)
    pred = operand_def(i1)
    multicast = opt_prop_def(UnitAttr)
    cache = prop_def(IntegerAttr, default_value=_i32(1))
    evict = prop_def(IntegerAttr, default_value=_i32(1))
    isVolatile = opt_prop_def(IntegerAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        check_barrier(self, self.barrier.type)
        if not 1 <= len(self.coord) <= 5:
            _err(self, "TMA copies must have between 1 and 5 coordinates")
        if not self.result.type.mutable.data:
            _err(self, "Cannot store into immutable memory")
        check_tma_encoding(self, self.desc.type, self.result.type.encoding)


@irdl_op_definition
class AsyncTMACopyLocalToGlobalOp(IRDLOperation):
    name = "ttng.async_tma_copy_local_to_global"
    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    src = operand_def(MemDescType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        check_tma_encoding(self, self.desc.type, self.src.type.encoding)


@irdl_op_definition
class AsyncTMAReduceOp(IRDLOperation):
    name = "ttng.async_tma_reduce"
    kind = prop_def(IntegerAttr)
    desc = operand_def(TensorDescType)
    coord = var_operand_def(i32)
    src = operand_def(MemDescType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


@irdl_op_definition
class TMAStoreWaitOp(IRDLOperation):
    name = "ttng.async_tma_store_wait"
    pendings = prop_def(IntegerAttr)
    read_only = opt_prop_def(UnitAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())


@irdl_op_definition
class AsyncTMAGatherOp(IRDLOperation):
    """`ttng.async_tma_gather %desc[%x_offsets, %y_offset] %result, %barrier, %pred`: rows `x_offsets` of the
    tensor, from column `y_offset`, into `result` (gather4: four rows per instruction), arriving on `barrier`."""

    name = "ttng.async_tma_gather"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    barrier = operand_def(MemDescType)
    result = operand_def(MemDescType)
    pred = operand_def(i1)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        check_barrier(self, self.barrier.type)
        if not self.result.type.mutable.data:
            _err(self, "cannot store into immutable memory")
        check_tma_encoding(self, self.desc.type, self.result.type.encoding)
        verify_gather_scatter(self, self.desc.type, self.result.type, self.x_offsets.type)


@irdl_op_definition
class AsyncTMAScatterOp(IRDLOperation):
    """`ttng.async_tma_scatter %desc[%x_offsets, %y_offset] %src`: the rows of `src` to rows `x_offsets` of the
    tensor, from column `y_offset` (scatter4); completed by `async_tma_store_wait`."""

    name = "ttng.async_tma_scatter"
    desc = operand_def(TensorDescType)
    x_offsets = operand_def(TensorType)
    y_offset = operand_def(i32)
    src = operand_def(MemDescType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        check_tma_encoding(self, self.desc.type, self.src.type.encoding)
        verify_gather_scatter(self, self.desc.type, self.src.type, self.x_offsets.type)


register("ttng.async_tma_gather",
         "$desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred attr-dict `:` type(operands)")
register("ttng.async_tma_scatter", "$desc `[` $x_offsets `,` $y_offset `]` $src attr-dict `:` type(operands)")


register(
    "ttng.async_tma_copy_global_to_local",
    "$desc `[` $coord `]` $result `,` $barrier `,` $pred oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` "
    "$evict) attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))",
    infer={"coord": lambda T: i32, "pred": lambda T: i1},
    enums={"cache": CACHE, "evict": EVICT},
)
register("ttng.async_tma_copy_local_to_global",
         "$desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))",
         infer={"coord": lambda T: i32})
register("ttng.async_tma_reduce",
         "$kind `,` $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))",
         infer={"coord": lambda T: i32}, enums={"kind": REDUCE_KIND})
register("ttng.async_tma_store_wait", "attr-dict")


@irdl_op_definition
class GlobalScratchAllocOp(IRDLOperation):
    """`ttg.global_scratch_alloc`: `nbytes` of this program's part of the kernel's global scratch buffer."""

    name = "ttg.global_scratch_alloc"
    nbytes = prop_def(IntegerAttr)
    alignment = prop_def(IntegerAttr)
    offset = opt_prop_def(IntegerAttr)
    result = result_def(PointerType)
    traits = traits_def(MemoryWriteEffect())


@irdl_op_definition
class TensormapCreateOp(IRDLOperation):
    """Write a 128-byte CUtensorMap at `desc_ptr`: dimensions innermost first, `global_stride` in bytes
    (without the innermost one); `elem_type`, `swizzle_mode`, `fill_mode` as CUDA's enums."""

    name = "ttng.tensormap_create"
    desc_ptr = operand_def(PointerType)
    global_address = operand_def(PointerType)
    box_dim = var_operand_def(i32)
    global_dim = var_operand_def(i32)
    global_stride = var_operand_def(i64)
    element_stride = var_operand_def(i32)
    elem_type = prop_def(IntegerAttr)
    interleave_layout = prop_def(IntegerAttr)
    swizzle_mode = prop_def(IntegerAttr)
    fill_mode = prop_def(IntegerAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def verify_(self):
        rank = len(self.box_dim)
        for what, n, want in (("global dim", len(self.global_dim), rank),
                              ("global stride", len(self.global_stride), rank - 1),
                              ("element stride", len(self.element_stride), rank)):
            if n != want:
                raise LocatedVerifyException(self, f"Rank mismatch for {what}. Got {n} but expected {want}")


@irdl_op_definition
class TensormapFenceproxyAcquireOp(IRDLOperation):
    name = "ttng.tensormap_fenceproxy_acquire"
    desc_ptr = operand_def(PointerType)
    traits = traits_def(MemoryWriteEffect())


@irdl_op_definition
class ReinterpretTensorDescOp(IRDLOperation):
    name = "ttng.reinterpret_tensor_descriptor"
    rawDesc = operand_def(PointerType)
    result = result_def(TensorDescType)
    traits = traits_def(Pure())


register("ttg.global_scratch_alloc", "attr-dict `:` qualified(type($result))")
register("ttng.tensormap_create",
         "$desc_ptr `,` $global_address `,` `[` $box_dim `]` `,` `[` $global_dim `]` `,` `[` $global_stride `]` `,` "
         "`[` $element_stride `]` attr-dict `:` functional-type(operands, results)")
register("ttng.tensormap_fenceproxy_acquire", "$desc_ptr attr-dict `:` qualified(type($desc_ptr))")
register("ttng.reinterpret_tensor_descriptor",
         "$rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))")

TMA_TTG_OPS = [GlobalScratchAllocOp]
TMA_TTNG_OPS = [
    InitBarrierOp, InvalBarrierOp, BarrierExpectOp, WaitBarrierOp, AsyncTMACopyGlobalToLocalOp,
    AsyncTMACopyLocalToGlobalOp, AsyncTMAReduceOp, TMAStoreWaitOp, TensormapCreateOp, TensormapFenceproxyAcquireOp,
    ReinterpretTensorDescOp, AsyncTMAGatherOp, AsyncTMAScatterOp,
]


def tma_element_type(t, signed: bool) -> int:
    """PTX's tensormap element type (`tensormap.replace ... elemtype`): u8 0, u16 1, u32 2, s32 3, u64 4,
    s64 5, f16 6, f32 7, f64 9, bf16 10 (8-bit floats are moved as u8)."""
    if isinstance(t, Float16Type):
        return 6
    if isinstance(t, Float32Type):
        return 7
    if isinstance(t, Float64Type):
        return 9
    if isinstance(t, BFloat16Type):
        return 10
    from ttc.ir.types import bitwidth

    width = bitwidth(t)
    return {8: 0, 16: 1, 32: 3 if signed else 2, 64: 5 if signed else 4}[width]


# Ops of tensor descriptors that later stages do not take: make-ttgir before sm90 (make-ttir rewrites them to
# pointers there) and the LLVM lowering (make-ttgir lowers them to TMA first).
DESCRIPTOR_OP_NAMES = frozenset({
    "tt.make_tensor_descriptor", "tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_reduce",
    "tt.descriptor_gather", "tt.descriptor_scatter",
})


# Triton 3.6 ops that tt-opt reads and transforms and the LLVM lowering does not take yet (TMA's gather4/scatter4
# are Blackwell's).
NOT_LOWERED_YET = frozenset({"ttng.async_tma_gather", "ttng.async_tma_scatter", "tt.unsplat", "tt.map_elementwise"})


def first_unsupported(module, names: frozenset, stage: str, arguments: bool = True, hint: str = ""):
    """A `file:line:col: error:` (CompileError) at the first op of `module` named in `names`, or at the first
    function with a `!tt.tensordesc` argument (if `arguments`): `stage` does not handle them yet. None if neither."""
    from ttc.ir.diagnostics import CompileError, at_op

    ops = list(module.walk())
    for op in ops:
        if op.name in names:
            return CompileError(at_op(op, None, f"'{op.name}' is not supported yet by {stage}{hint}"))
    for op in ops if arguments else ():
        if op.name == "tt.func" and any(isinstance(t, TensorDescType) for t in op.function_type.inputs.data):
            return CompileError(at_op(op, None, f"a tensor descriptor argument of '{op.sym_name.data}' is not "
                                                 f"supported yet by {stage}{hint}"))
    return None
