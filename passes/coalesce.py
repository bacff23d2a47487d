"""tritongpu-coalesce: give each global memory access the blocked layout that coalesces it (Triton's
TritonGPUCoalesce).

Descriptor loads, stores and reduces (`tt.descriptor_load`/`_store`/`_reduce`) take 128-bit vectors along their
block's rows (at most the block's elements per thread), whatever their offsets: TMA copies the block through
shared memory.

For every `tt.load`, `tt.store`, `tt.atomic_rmw`, `tt.atomic_cas` and `ttg.async_copy_global_to_local` on a
tensor of pointers, the axis analysis (`ttc.analysis.axis_info`) of the pointer decides:

- the order: dimensions by decreasing contiguity (ties: in increasing order);
- the elements per thread along the most contiguous dimension: the largest vector that is both contiguous and
  aligned (min of contiguity and divisibility in elements), at most 128 bits; a load takes the largest such
  vector among the memory accesses of the same shape and order that it shares a def-use slice with; stores and
  atomics also stay within their own; never more than the tensor's elements per thread;
- lanes and warps are then spread over the shape from the most contiguous dimension
  (`BlockedEncodingAttr::get(shape, sizePerThread, order, ...)`).

The access is rewritten with that layout: each tensor operand is converted to it, and results are converted
back to the layout the rest of the function expects (`-tritongpu-remove-layout-conversions` then propagates
the new layouts and removes the conversions).

Each rewritten access gets a remark (MLIR_ENABLE_DIAGNOSTICS=remarks shows them) with the vector width it will
be issued with, as LLVM's optimization remarks tell a loop's vectorization width: `tt.load: 4 x f32 (128 bits)
per access, 2 accesses per thread`, and, when narrower than 128 bits, what limits it (the pointer's
divisibility, its contiguity, the tensor's size). The width is the layout's contiguous elements per thread
within what the access's own pointers allow (a load may take a wider layout from its slice than its pointers
can use), as the lowering vectorizes it; atomics report the contiguous elements per thread instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation

from ttc.analysis.axis_info import AxisInfoAnalysis
from ttc.ir.diagnostics import at_op, emit, reported
from ttc.analysis import slices
from ttc.ir.layout_utils import num_warps_of, pointee_bitwidth, threads_per_warp_of, with_encoding
from ttc.ir.layouts import blocked_for_shape
from ttc.ir.layouts import NVMMASharedEncoding, SwizzledSharedEncoding
from ttc.ir.attr_printer import attr_text
from ttc.ir.ttg import ConvertLayoutOp
from ttc.ir.types import PointerType, bitwidth, encoding
from ttc.opt.passmanager import Pass

MAX_VECTOR_BITS = 128
DESCRIPTOR_ACCESSES = ("tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_reduce")


def mem_access_ptr(op: Operation):
    """Triton's getMemAccessPtr: the pointer operand of a global memory access."""
    name = op.name
    if name in ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas"):
        return op.ptr
    if name == "ttg.async_copy_global_to_local":
        return op.src
    return None


def order_from_contiguity(contiguity) -> list[int]:
    """Triton's argSort: dimensions by decreasing contiguity, equal ones in increasing order."""
    return sorted(range(len(contiguity)), key=lambda d: -contiguity[d])


def vector_limits(op: Operation, order, axis: AxisInfoAnalysis, shape) -> list[tuple[int, str]]:
    """What bounds the vector along order[0], in elements, each with its reason for the remark."""
    ptr = mem_access_ptr(op)
    info = axis.get(ptr)
    bits = pointee_bitwidth(ptr.type)
    elem_bytes = max(bits // 8, 1)
    div_bytes = info.divisibility[order[0]] & 0xFFFFFFFF  # Triton keeps it in an unsigned (32-bit) int
    contiguity = info.contiguity[order[0]]
    return [
        (max(div_bytes // elem_bytes, 1), f"the pointer divisibility: {_plural(div_bytes, 'byte')}"),
        (contiguity, f"the pointer contiguity: {_plural(contiguity, 'element')} along dimension {order[0]}"),
        (shape[order[0]], f"the tensor's extent along dimension {order[0]}"),
        (MAX_VECTOR_BITS // bits, f"{MAX_VECTOR_BITS} bits"),
    ]


def elements_per_thread(op: Operation, order, axis: AxisInfoAnalysis, shape) -> int:
    """Triton's getNumElementsPerThread: the widest aligned, contiguous vector along order[0] (128 bits max)."""
    return min(n for n, _ in vector_limits(op, order, axis, shape))


def widest_in_slices(ops: list[Operation], axis: AxisInfoAnalysis) -> dict[Operation, dict[tuple, int]]:
    """For each access of `ops`, the widest `elements_per_thread` of the accesses in its def-use slice (MLIR's
    getSlice: every op reachable by repeatedly taking backward slices (operand definitions, the ops owning
    block arguments) and forward slices (users of results, ops nested in regions)), by (shape, order)."""

    def widest(op: Operation) -> dict[tuple, int] | None:
        v = mem_access_ptr(op)
        if v is None or not isinstance(v.type, TensorType):
            return None
        shape = tuple(v.type.get_shape())
        order = order_from_contiguity(axis.get(v).contiguity)
        return {(shape, tuple(order)): elements_per_thread(op, order, axis, shape)}

    def merge(a: dict, b: dict) -> dict:
        return {k: max(a.get(k, 0), b.get(k, 0)) for k in a.keys() | b.keys()}

    keep = lambda n: n.name not in ("builtin.module", "tt.func")  # noqa: E731
    return slices.slice_summaries(ops, keep, widest, merge, block_args=True, regions=True)


def coalesced_layout(op: Operation, axis: AxisInfoAnalysis, num_warps: int, threads_per_warp: int,
                     widest: dict | None):
    """The layout for `op`; `widest`: `widest_in_slices` of `op` (None when the pointer is a block argument)."""
    ptr = mem_access_ptr(op)
    ref = ptr.type
    shape = tuple(ref.get_shape())
    order = order_from_contiguity(axis.get(ptr).contiguity)

    num_elems = math.prod(shape)
    num_threads = num_warps * threads_per_warp
    own = elements_per_thread(op, order, axis, shape)
    per_thread = own if isinstance(ptr.owner, Block) else widest[(shape, tuple(order))]
    per_thread = min(per_thread, max(num_elems // num_threads, 1))
    if op.name != "tt.load":
        # writes: at most one (128-bit) vector per thread, else the warp's stores leave gaps
        per_thread = min(per_thread, own)
    spt = [1] * len(shape)
    spt[order[0]] = per_thread
    return blocked_for_shape(shape, spt, order, num_warps, threads_per_warp)


def descriptor_block(op: Operation):
    """The register tensor a descriptor load gives or a descriptor store takes."""
    return op.result.type if op.name == "tt.descriptor_load" else op.src.type


def descriptor_layout(op: Operation, num_warps: int, threads_per_warp: int):
    """A descriptor load or store moves its block through shared memory: the registers' layout only needs
    128-bit vectors along the rows (the block's last dimension, contiguous in its TMA box), at most the block's
    elements per thread."""
    t = descriptor_block(op)
    shape = tuple(t.get_shape())
    order = list(range(len(shape) - 1, -1, -1))
    per_thread = min(MAX_VECTOR_BITS // bitwidth(t), max(math.prod(shape) // (num_warps * threads_per_warp), 1))
    spt = [1] * len(shape)
    spt[order[0]] = per_thread
    return blocked_for_shape(shape, spt, order, num_warps, threads_per_warp)


def _plural(n: int, word: str, suffix: str = "s") -> str:
    return f"{n} {word}{suffix if n != 1 else ''}"


def access_remark(op: Operation, layout, axis: AxisInfoAnalysis) -> str:
    """The remark for an access given `layout`: its vector width, accesses per thread, and what limits it."""
    ptr = mem_access_ptr(op)
    shape = tuple(ptr.type.get_shape())
    order, spt = list(layout["order"]), list(layout["sizePerThread"])
    tpw, wpc = list(layout["threadsPerWarp"]), list(layout["warpsPerCTA"])
    elem = ptr.type.element_type.pointee
    bits = pointee_bitwidth(ptr.type)
    limits = vector_limits(op, order, axis, shape)
    num_threads = math.prod(tpw) * math.prod(wpc)
    limits.append((spt[order[0]], f"the tensor's size: {math.prod(shape)} elements for {num_threads} threads"))
    vec = min(n for n, _ in limits)
    per_thread = math.prod(-(-shape[d] // (spt[d] * tpw[d] * wpc[d])) * spt[d] for d in range(len(shape)))
    what = f"{vec} x {attr_text(elem)} ({vec * bits} bits)"
    if op.name in ("tt.atomic_rmw", "tt.atomic_cas"):
        text = f"{op.name}: {what} contiguous per thread"
    else:
        text = f"{op.name}: {what} per access, {_plural(max(per_thread // vec, 1), 'access', 'es')} per thread"
    if vec * bits < MAX_VECTOR_BITS:
        reason = next(r for n, r in limits if n == vec)
        text += f" (limited by {reason})"
    return text


def coalesce_op(op: Operation, layout) -> Operation:
    """Rewrite `op` with `layout`; returns the new op."""
    block = op.parent
    args = []
    for v in op.operands:
        t = v.type
        if isinstance(t, TensorType) and not isinstance(encoding(t), (SwizzledSharedEncoding, NVMMASharedEncoding)):
            cvt = ConvertLayoutOp.create(operands=[v], result_types=[with_encoding(t, layout)])
            cvt.location = op.location
            block.insert_op_before(cvt, op)
            args.append(cvt.results[0])
        else:
            args.append(v)
    new = op.clone()
    for i, a in enumerate(args):
        new.operands[i] = a
    is_async = op.name == "ttg.async_copy_global_to_local"
    for r in new.results:
        if not is_async and isinstance(r.type, TensorType):
            r._type = with_encoding(r.type, layout)
    block.insert_op_before(new, op)
    for old, nr in zip(op.results, new.results):
        value = nr
        if nr.type != old.type:
            back = ConvertLayoutOp.create(operands=[nr], result_types=[old.type])
            back.location = op.location
            block.insert_op_before(back, op)
            value = back.results[0]
        old.replace_all_uses_with(value)
    op.detach()
    op.erase()
    return new


@dataclass(frozen=True)
class Coalesce(Pass):
    """Pick coalesced layouts for global memory accesses."""

    name = "tritongpu-coalesce"
    display = "TritonGPUCoalesce"
    summary = "Coalesce global memory accesses (vector width from the axis analysis)"

    def apply(self, ctx, module) -> None:
        axis = AxisInfoAnalysis(module)
        accesses, descriptor_accesses = [], []
        for op in module.walk():
            if op.name in DESCRIPTOR_ACCESSES and encoding(descriptor_block(op)) is not None:
                descriptor_accesses.append(op)
                continue
            ptr = mem_access_ptr(op)
            if ptr is None:
                continue
            t = ptr.type
            if not (isinstance(t, TensorType) and isinstance(t.element_type, PointerType)):
                continue
            if encoding(t) is None:
                continue
            accesses.append(op)
        # the accesses whose pointer is a block argument keep their own vector width
        widest = widest_in_slices([op for op in accesses if not isinstance(mem_access_ptr(op).owner, Block)], axis)
        layouts = [(op, coalesced_layout(op, axis, num_warps_of(op), threads_per_warp_of(op), widest.get(op)))
                   for op in accesses]
        layouts += [(op, descriptor_layout(op, num_warps_of(op), threads_per_warp_of(op)))
                    for op in descriptor_accesses]
        remarks = reported("remark")
        for op, layout in layouts:
            if op.name.startswith("tt.descriptor_"):
                coalesce_op(op, layout)
                continue
            remark = access_remark(op, layout, axis) if remarks else None
            new = coalesce_op(op, layout)
            if remark is not None:
                emit(at_op(new, None, remark, "remark"))
