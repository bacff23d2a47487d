"""triton-nvidia-tma-lowering: tensor descriptor ops to Hopper's TMA (Triton's TritonNvidiaGPUTMALoweringPass).

* `tt.descriptor_load` / `tt.descriptor_gather` -> a shared buffer of the result's shape in the descriptor's
  layout and an mbarrier: `init_barrier` (one arrival), `barrier_expect` (the result's bytes),
  `async_tma_copy_global_to_local` / `async_tma_gather`, `wait_barrier` (phase 0), `inval_barrier`, then
  `ttg.local_load` into the load's register layout (a `ttg.local_alloc` of the result in the buffer's layout reads
  the buffer instead);
* `tt.descriptor_store` / `tt.descriptor_reduce` / `tt.descriptor_scatter` -> `ttg.local_alloc` of the value,
  `fence_async_shared`, `async_tma_copy_local_to_global` / `async_tma_reduce` / `async_tma_scatter`,
  `async_tma_store_wait {pendings = 0}`;
* `tt.make_tensor_descriptor` -> a 128-byte CUtensorMap in global scratch (`ttg.global_scratch_alloc`), written
  by `tensormap_create` (box and global dimensions innermost first, byte strides of the outer dimensions, the
  PTX element type, the swizzle of the descriptor's layout, NaN fill for `padding = nan`), made visible by
  `tensormap_fenceproxy_acquire` and read back as the descriptor by `reinterpret_tensor_descriptor`.
Every op made takes the location of the op it replaces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    i1,
    i32,
    i64,
)

from ttc.frontend.builder import op_class
from ttc.opt.greedy_rewrite import GreedyDriver, fold_in_place
from ttc.ir import tma, ttg
from ttc.ir.tma import tma_element_type
from ttc.ir.format import build_op
from ttc.ir.layouts import NVMMASharedEncoding, SharedMemorySpace, SwizzledSharedEncoding
from ttc.ir.types import PointerType, bitwidth
from ttc.ir.memdesc import MemDescType
from ttc.opt.passmanager import Pass

SWIZZLE_MODE = {0: 0, 32: 1, 64: 2, 128: 3}


def memdesc(shape, element, enc, mutable: bool) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape])
    return MemDescType(dims, element, enc, SharedMemorySpace(), IntAttr(int(mutable)), dims)


class _Rewriter:
    """Builds the ops that replace `op` before it, through the greedy driver's rewriter `rw` when there is one
    (so that it folds and cleans up after them, as Triton's pattern driver does)."""

    def __init__(self, op, rw=None):
        self.op, self.block, self.loc, self.rw = op, op.parent, op.location, rw

    def add(self, cls, operands=(), result_types=(), properties=None):
        new = build_op(cls, list(operands), list(result_types), properties or {})
        new.location = self.loc
        if self.rw is not None:
            self.rw.insert_before(new, self.op)
        else:
            self.block.insert_op_before(new, self.op)
        return new

    def const(self, value: int, t) -> object:
        return self.add(op_class("arith.constant"), [], [t], {"value": IntegerAttr(value, t)}).results[0]

    def erase(self, op) -> None:
        if self.rw is not None:
            self.rw.erase(op)
        else:
            op.detach()
            op.erase()

    def replace_value(self, old, new) -> None:
        if self.rw is not None:
            self.rw.replace_value(old, new)
        else:
            old.replace_all_uses_with(new)

    def replace(self, value=None) -> None:
        if value is not None:
            self.replace_value(self.op.results[0], value)
        self.erase(self.op)


def _barrier_type() -> MemDescType:
    enc = SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=[0])
    return memdesc([1], i64, enc, True)


def encoding_for_shape(enc, shape):
    """Triton's updateEncodingForShape: the descriptor's shared layout for a buffer of `shape` (a rank-reducing
    copy drops leading unit dimensions, a gather's buffer holds all its rows): an NVMMA layout records the rank when
    it is not 2; a swizzled layout's order keeps the dimensions the buffer has, new outer ones first."""
    rank = len(shape)
    if isinstance(enc, NVMMASharedEncoding):
        fields = dict(enc.data)
        fields.pop("rank", None)
        if rank != 2:
            fields["rank"] = rank
        return NVMMASharedEncoding.make(**fields)
    if isinstance(enc, SwizzledSharedEncoding) and len(enc["order"]) != rank:
        old = list(enc["order"])
        order = [rank - 1 - i for i in range(rank - len(old))] + [d for d in old if d < rank]
        return SwizzledSharedEncoding.make(**{**dict(enc.data), "order": order})
    return enc


def lower_load(op, rw=None) -> None:
    """`tt.descriptor_load` or `tt.descriptor_gather` (Triton's lowerTMALoad)."""
    r = _Rewriter(op, rw)
    desc_t, result_t = op.desc.type, op.result.type
    shape = result_t.get_shape()
    enc = encoding_for_shape(desc_t.encoding, shape)
    buffer = r.add(ttg.LocalAllocOp, [[]], [memdesc(shape, result_t.element_type, enc, True)]).results[0]
    barrier = r.add(ttg.LocalAllocOp, [[]], [_barrier_type()]).results[0]
    r.add(tma.InitBarrierOp, [barrier], [], {"count": IntegerAttr(1, i32)})
    nbytes = math.prod(shape) * bitwidth(result_t.element_type) // 8
    true = r.const(1, i1)
    r.add(tma.BarrierExpectOp, [barrier, true], [], {"size": IntegerAttr(nbytes, i32)})
    if op.name == "tt.descriptor_gather":
        r.add(tma.AsyncTMAGatherOp, [op.desc, op.x_offsets, op.y_offset, barrier, buffer, true], [])
    else:
        r.add(tma.AsyncTMACopyGlobalToLocalOp, [op.desc, list(op.indices), barrier, buffer, true], [],
              {"cache": op.cache, "evict": op.evict})
    phase = r.const(0, i32)
    r.add(tma.WaitBarrierOp, [barrier, phase, [], []], [])
    r.add(tma.InvalBarrierOp, [barrier], [])
    for use in list(op.result.uses):  # a local_alloc in the buffer's layout reads the buffer itself
        alloc = use.operation
        if alloc.name == "ttg.local_alloc" and alloc.result.type.encoding == enc:
            r.replace_value(alloc.result, buffer)
            r.erase(alloc)
    if op.result.first_use is None:
        r.replace()
        return
    loaded = r.add(ttg.LocalLoadOp, [buffer, []], [result_t]).results[0]
    r.replace(loaded)


def lower_store(op, rw=None) -> None:
    """`tt.descriptor_store`, `tt.descriptor_reduce` or `tt.descriptor_scatter` (Triton's lowerTMAStore)."""
    r = _Rewriter(op, rw)
    desc_t, src_t = op.desc.type, op.src.type
    shape = src_t.get_shape()
    buffer = r.add(ttg.LocalAllocOp, [[op.src]], [memdesc(shape, src_t.element_type,
                                                         encoding_for_shape(desc_t.encoding, shape), False)]).results[0]
    r.add(ttg.FenceAsyncSharedOp, [], [], {"bCluster": BoolAttr(False, i1)})
    if op.name == "tt.descriptor_store":
        r.add(tma.AsyncTMACopyLocalToGlobalOp, [op.desc, list(op.indices), buffer], [])
    elif op.name == "tt.descriptor_scatter":
        r.add(tma.AsyncTMAScatterOp, [op.desc, op.x_offsets, op.y_offset, buffer], [])
    else:
        r.add(tma.AsyncTMAReduceOp, [op.desc, list(op.indices), buffer], [], {"kind": op.kind})
    r.add(tma.TMAStoreWaitOp, [], [], {"pendings": IntegerAttr(0, i32)})
    r.replace()


def _constant(v) -> int | None:
    o = v.owner
    if getattr(o, "name", None) == "arith.constant" and isinstance(o.properties.get("value"), IntegerAttr):
        return o.properties["value"].value.data
    return None


def lower_make_descriptor(op, scratch=None, rw=None) -> None:
    """The descriptor written into `scratch` (a pointer to 128 bytes of global scratch; a new
    `ttg.global_scratch_alloc` when None), read back by `reinterpret_tensor_descriptor`, which replaces `op`."""
    r = _Rewriter(op, rw)
    desc_t = op.result.type
    shape = desc_t.shape
    element = op.base.type.pointee
    elem_bytes = bitwidth(element) // 8
    enc = desc_t.encoding
    swizzle = enc["swizzlingByteWidth"] if enc is not None else 0
    if scratch is None:
        scratch = r.add(tma.GlobalScratchAllocOp, [], [PointerType(IntegerType(8))],
                        {"nbytes": IntegerAttr(128, i32), "alignment": IntegerAttr(128, i32)}).results[0]
    inner = shape[-1] if swizzle == 0 else min(shape[-1], swizzle // elem_bytes)
    box = [r.const(inner, i32)] + [r.const(d, i32) for d in reversed(shape[:-1])]
    dims = list(reversed(list(op.shape)))
    size = r.const(elem_bytes, i64)
    strides = [r.const(c * elem_bytes, i64) if (c := _constant(s)) is not None  # folded as Triton's rewriter does
               else r.add(op_class("arith.muli"), [s, size], [i64]).results[0] for s in reversed(list(op.strides)[:-1])]
    element_strides = [r.const(1, i32) for _ in shape]
    signed = isinstance(desc_t.block_type.element_type, IntegerType) and \
        desc_t.block_type.element_type.signedness.data == Signedness.SIGNED
    nan = op.padding is not None and op.padding.value.data == 2
    r.add(tma.TensormapCreateOp, [scratch, op.base, box, dims, strides, element_strides], [], {
        "elem_type": IntegerAttr(tma_element_type(element, signed), i32),
        "interleave_layout": IntegerAttr(0, i32),
        "swizzle_mode": IntegerAttr(SWIZZLE_MODE[swizzle], i32),
        "fill_mode": IntegerAttr(int(nan), i32),
    })
    r.add(tma.TensormapFenceproxyAcquireOp, [scratch], [])
    desc = r.add(tma.ReinterpretTensorDescOp, [scratch], [desc_t]).results[0]
    r.replace(desc)


LOWERINGS = {
    "tt.descriptor_load": lower_load,
    "tt.descriptor_gather": lower_load,
    "tt.descriptor_store": lower_store,
    "tt.descriptor_scatter": lower_store,
    "tt.descriptor_reduce": lower_store,
    "tt.make_tensor_descriptor": lower_make_descriptor,
}


@dataclass(frozen=True)
class TMALowering(Pass):
    """Lower tensor descriptor ops to TMA copies through shared memory."""

    name = "triton-nvidia-tma-lowering"
    display = "TritonNvidiaGPUTMALoweringPass"
    summary = "Tensor descriptor loads/stores/reduces/gathers/scatters to TMA copies with mbarriers; in-kernel descriptors to tensormaps"

    def apply(self, ctx, module) -> None:
        # Triton's applyPatternsGreedily: what the lowerings build is folded (a stride times 1), constants are
        # hoisted and merged and dead ops erased, over the whole module
        def pattern(lower):
            def apply(op, rw) -> bool:
                lower(op, rw=rw)
                return True
            return [apply]

        patterns = {name: pattern(lower) for name, lower in LOWERINGS.items()}
        for region in module.regions:
            GreedyDriver(patterns, fold_in_place=fold_in_place).run(region)
