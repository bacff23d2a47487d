"""Shared-memory tensors: `ttg.local_alloc`, `ttg.memdesc_index`, `ttg.local_store`, `ttg.local_load`,
`ttg.local_dealloc`.

Two kinds of allocation:

- Immutable (`ttg.local_alloc %t`, as Triton's FMA dot path uses it): its contents are its source tensor, so the
  lowering keeps the source's registers and performs the data movement at each `local_load` (`convert.rearrange`),
  through the allocation's own bytes, which Triton's allocation reserves all the same.
- `#ttg.nvmma_shared` ones (what wgmma reads, mutable or written once from registers) get a buffer of their own
  too, 1024-byte aligned, laid out as nvmma_shared.py says.
- Mutable (`ttg.local_alloc` without a source, as software-pipelined TTGIR uses it): a buffer of its own at a
  fixed offset of shared memory for the whole kernel (`assign_buffers`). Its
  `#ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>` layout gives each element's byte offset
  (`exchange_plan.swizzled_buffer`, for the last `len(order)` dimensions; leading dimensions index whole
  sub-buffers, which `memdesc_index` selects). `local_store` writes registers with vector stores,
  `async_copy_global_to_local` (async_copy.py) with cp.async, and `local_load` reads with ldmatrix where the
  destination layout allows it (mma.sync operands), else vector loads. Barriers: `Lowering.buffer_access`.

Both buffer kinds are linear over GF(2) in the element's coordinate bits (`linear_buffer`), so `local_store` and
`local_load` take `linear_exchange.buffer_side`'s accesses (vectors of any registers consecutive in the buffer,
stmatrix from sm_90, ldmatrix; one base address a thread, immediates) where they need fewer instructions than
vectors of consecutive registers, use a matrix instruction, or index a buffer of more than 2 dimensions (whose
row linearization costs more than the one base); else each access's address comes from the element's
coordinates (`register_addresses`), which the kernel's other index arithmetic shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import llvmlite.ir as ir

from ttc.analysis.allocation import Allocation, alloc_bytes
from ttc.analysis.scratch import scratch_bytes
from ttc.ir.layouts import NVMMASharedEncoding, SwizzledSharedEncoding
from ttc.ir.layout_utils import target_capability
from ttc.lowering import gather, reduce, scan
from ttc.lowering.context import buffer_root
from ttc.lowering.convert import (IROps, load_side, read_registers, rearrange, rearrange_bytes, side_pointers, store_side,
                                  write_registers)
from ttc.lowering.exchange_plan import INT, BufferLayout, ldmatrix_loads, swizzled_buffer, vector_starts, vector_width
from ttc.ir.linear_layout import LinearLayout
from ttc.lowering.linear_exchange import buffer_inverse, buffer_side
from ttc.lowering.nvmma_shared import NVMMA_ALIGN, NvmmaBuffer, NvmmaError, nvmma_buffer
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of, llvm_type

BUFFER_ALIGN = 16
SCRATCH_ALIGN = 128


@dataclass
class SharedTensor:
    """An immutable allocation: its source's registers and layout."""
    values: list
    layout: LinearLayout


@dataclass
class SharedBuffer:
    """A view of a mutable allocation: its first byte (an int or an i32 value), the layout of one sub-buffer
    (the last `layout.shape` dimensions) and the leading dimensions still to index."""
    base: object
    layout: BufferLayout
    leading: tuple[int, ...]


def _buffer_layout(ctx, op, memdesc) -> tuple[BufferLayout, tuple[int, ...]]:
    enc = memdesc.encoding
    shape = tuple(memdesc.get_shape())
    elem_bytes = max(1, bits_of(llvm_type(memdesc.element_type)) // 8)
    if isinstance(enc, NVMMASharedEncoding):
        rank = enc.get("rank") or 2  # the buffer's own dimensions; any before them index sub-buffers
        bits = bits_of(llvm_type(memdesc.element_type))
        if enc["elementBitWidth"] != bits:  # Triton's layout swizzles by elementBitWidth, this lowering by the type
            raise ctx.error(op, f"#ttg.nvmma_shared elementBitWidth = {enc['elementBitWidth']} does not match the "
                                f"{bits}-bit elements of its buffer (not supported by the back end)")
        try:
            return (nvmma_buffer(shape[-rank:], enc["swizzlingByteWidth"], bool(enc["transposed"]), elem_bytes),
                    shape[:-rank])
        except NvmmaError as e:
            raise ctx.error(op, str(e)) from None
    if not isinstance(enc, SwizzledSharedEncoding):
        raise ctx.error(op, f"shared memory layout {enc.name} is not supported (#ttg.swizzled_shared, "
                            "#ttg.nvmma_shared)")
    order = list(enc["order"])
    k = len(order)
    per_phase = enc["perPhase"]
    if k > len(shape) or per_phase & (per_phase - 1) or any(n & (n - 1) for n in shape[-k:]):
        raise ctx.error(op, "shared memory buffers need power-of-two shapes and perPhase, and an order no longer "
                            "than the shape")
    layout = swizzled_buffer(shape[-k:], order, elem_bytes, enc["vec"], per_phase, enc["maxPhase"])
    return layout, shape[:-k]


def _align(layout: BufferLayout) -> int:
    """nvmma buffers start on a whole swizzle pattern (the hardware swizzles by address bits); others on 16 bytes,
    the widest vector access (Triton's default alignment)."""
    return NVMMA_ALIGN if isinstance(layout, NvmmaBuffer) else BUFFER_ALIGN


def _round_up(n: int, align: int) -> int:
    return -(-n // align) * align


def _sub_bytes(layout: BufferLayout) -> int:
    """The stride of a buffer's sub-buffers: their bytes (a power of two for swizzled ones, as in Triton), nvmma
    ones rounded up to a whole swizzle pattern."""
    return _round_up(layout.nbytes, NVMMA_ALIGN) if isinstance(layout, NvmmaBuffer) else layout.nbytes


def _has_buffer(op) -> bool:
    """Mutable allocations, and those wgmma reads (`#ttg.nvmma_shared`), live in a buffer of their own."""
    return op.name == "ttg.local_alloc" and (op.src is None or isinstance(op.result.type.encoding, NVMMASharedEncoding))


def _immutable(op) -> bool:
    """A `ttg.local_alloc` of a tensor that keeps no buffer of its own here (a `SharedTensor`)."""
    return op is not None and op.name == "ttg.local_alloc" and not _has_buffer(op)


def scratch_need(op) -> int:
    """The scratch bytes the allocation reserves for `op`: Triton's (`ttc.analysis.scratch`), or what this
    back end's lowering of the op uses where that is more (the lowering's own functions, which it checks its use
    against: `Lowering.use_scratch`). A `local_load` of an immutable allocation exchanges through that
    allocation's own bytes, and needs its own scratch only where the exchange outgrows them."""
    need = scratch_bytes(op)
    if op.name == "ttg.convert_layout":
        need = max(need, rearrange_bytes(op, op.src.type, op.result.type))
    elif op.name in ("tt.reduce", "tt.scan", "tt.gather"):
        module = {"tt.reduce": reduce, "tt.scan": scan, "tt.gather": gather}[op.name]
        need = max(need, module.scratch_need(op))
    elif op.name == "ttg.local_load" and _immutable(root := buffer_root(op.src)):
        n = rearrange_bytes(op, root.src.type, op.result.type)
        need = max(need, n if n > alloc_bytes(root.result.type) else 0)
    return need


class _LoweringAllocation(Allocation):
    """Triton's Allocation of the buffers and scratch, with this back end's sizes and alignments of the buffers
    it keeps (`sizes`; other shared allocations keep Triton's) and `scratch_need`: buffers never live at once
    share bytes, and a scratch area, live only at its op, may lie over buffers dead there, as in Triton."""

    def __init__(self, func, sizes: dict):
        self._sizes = sizes
        super().__init__(func, scratch_fn=scratch_need)

    def _values_and_sizes(self) -> None:
        super()._values_and_sizes()
        for b in self.buffers:
            if b.kind == "explicit" and b.owner in self._sizes:
                b.size, align = self._sizes[b.owner]
                b.alignment = max(b.alignment, align)


def assign_buffers(ctx, func) -> None:
    """Place every buffer (mutable or nvmma `ttg.local_alloc`s of `func`) and every scratch user's area where
    Triton's liveness-based allocation puts them (`_LoweringAllocation`; `Lowering.buffer_access` treats buffers
    that share bytes as one, and a scratch area as an access to the buffers whose bytes it meets)."""
    sizes, layouts = {}, {}
    for op in func.walk():
        if _has_buffer(op):
            layout, leading = _buffer_layout(ctx, op, op.result.type)
            count = 1
            for n in leading:
                count *= n
            if isinstance(layout, NvmmaBuffer):
                ctx.smem_align = max(ctx.smem_align, NVMMA_ALIGN)
            # a lone nvmma buffer needs no padding to the next whole swizzle pattern (Triton's size)
            sizes[op] = (count * _sub_bytes(layout) if count > 1 else layout.nbytes, _align(layout))
            layouts[op] = (layout, leading)
    alloc = _LoweringAllocation(func, sizes)
    explicit = {b.owner: b for b in alloc.buffers if b.kind == "explicit"}
    for op, (layout, leading) in layouts.items():
        ctx.set(op.result, SharedBuffer(explicit[op].offset, layout, leading))

    def meets(x, y):
        return x.offset < y.offset + y.size and y.offset < x.offset + x.size

    for op in layouts:
        ctx.buffer_overlap[op] = {o for o in layouts if meets(explicit[op], explicit[o])}
    areas = dict(alloc.op_scratch)
    for op in func.walk():  # an immutable allocation's loads exchange through its bytes
        if (op.name == "ttg.local_load" and op not in areas and _immutable(root := buffer_root(op.src))
                and root in explicit):
            areas[op] = explicit[root]
    for op, b in areas.items():
        ctx.scratch_areas[op] = (b.offset, b.size)
        ctx.scratch_meets[op] = {o for o in layouts if meets(b, explicit[o])}
    ctx.buffer_end = max((b.offset + b.size for b in explicit.values()), default=0)
    ctx.shared_end = max(ctx.shared_end, alloc.size)
    ctx.scratch_base = _round_up(alloc.size, SCRATCH_ALIGN)


@lowering("ttg.local_alloc")
def _local_alloc(ctx, op):
    if _has_buffer(op):
        if op.src is not None:  # placed by assign_buffers; written here
            _store(ctx, op, op.src, ctx.get(op.result))
        return
    ctx.set(op.result, SharedTensor(ctx.get(op.src), ctx.layout(op.src.type, op)))


@lowering("ttg.memdesc_index")
def _memdesc_index(ctx, op):
    buf = ctx.get(op.src)
    if not isinstance(buf, SharedBuffer) or not buf.leading:
        raise ctx.error(op, "ttg.memdesc_index is supported on mutable ttg.local_alloc buffers with a leading "
                            "dimension to index")
    stride = _sub_bytes(buf.layout)
    for n in buf.leading[1:]:
        stride *= n
    ops = IROps(ctx.b)
    base = ops.add(ops.value(buf.base), ops.mul(ctx.get(op.index), stride))
    ctx.set(op.result, SharedBuffer(base, buf.layout, buf.leading[1:]))


def whole_buffer(ctx, op, value) -> SharedBuffer:
    """The mutable buffer `value` views, with no leading dimension left."""
    buf = ctx.get(value)
    if not isinstance(buf, SharedBuffer) or buf.leading:
        raise ctx.error(op, f"{op.name} needs a whole buffer of a mutable ttg.local_alloc (index its leading "
                            "dimensions with ttg.memdesc_index)")
    return buf


def buffer_address(ctx, buf: SharedBuffer, coords, ops: IROps) -> ir.Value:
    """A pointer to the element of `buf` at `coords` (i32 values)."""
    return ctx.shared_ptr(ops.add(buf.layout.byte_offset(coords, ops), buf.base))


def register_addresses(ctx, ll, buf: SharedBuffer, starts, ops: IROps):
    """Per register of `starts`, the pointer to its element of `buf`, as few thread-dependent base addresses plus
    constant offsets as the layouts allow (what lets ptxas keep one register per base, as Triton's lowering does):
    the byte offset is linear over GF(2) in the element's coordinate bits, so register r's offset is the thread's
    register-0 offset D XOR a constant C_r; the bits of C_r that no lane or warp can set in D add, the others XOR
    into D before the buffer's base is added (as Triton: D ^ C is loop-invariant where the base is a pipeline
    stage's, so it is computed once; XORing base + D instead kept the XORs and their results in the loop:
    matmul_acc_tf32 124 registers against Triton's 118 with ptxas 13.0, 96 now), one base per such C. None when
    the offset is not linear (then each register computes its own address)."""
    lay = buf.layout

    def off(c):
        return lay.byte_offset(list(c), INT)

    rank = ll.rank
    zero = (0,) * rank
    if off(zero) != 0:
        return None
    thread = list(ll.lane) + list(ll.warp)
    span = 0
    for t in thread:
        span |= off(t)
    regs = [ll.reg_coords[r] for r in starts]
    for c in regs:  # linearity where it is used: each register's coordinates with each thread basis vector
        for t in thread:
            if off(tuple(x ^ y for x, y in zip(c, t))) != off(c) ^ off(t):
                return None
    if ll.reg_coords[0] != zero:
        return None
    coords = ctx.coords(ll)
    d = lay.byte_offset(coords[0], ops)
    bases, out = {}, {}
    for r, c in zip(starts, regs):
        k = off(c)
        ovl, dis = k & span, k & ~span
        if ovl not in bases:
            bases[ovl] = ops.add(d if ovl == 0 else ctx.b.xor(d, ir.Constant(ir.IntType(32), ovl)), buf.base)
        out[r] = ctx.shared_ptr(bases[ovl] if dis == 0 else ctx.b.add(bases[ovl], ir.Constant(ir.IntType(32), dis)))
    return out


def _vector(ll: LinearLayout, lay: BufferLayout) -> int:
    """Registers per access between layout `ll` and buffer layout `lay`: consecutive along its innermost
    dimension, within one swizzle unit, at most 16 bytes."""
    return vector_width(ll, lay.inner, min(lay.unit, max(1, 16 // lay.elem_bytes)))


@lowering("ttg.local_store")
def _local_store(ctx, op):
    _store(ctx, op, op.src, whole_buffer(ctx, op, op.dst))


def linear_buffer(lay: BufferLayout) -> tuple[int, ...] | None:
    """The buffer's element offset per coordinate bit (`linear_exchange.buffer_inverse`), None when its offsets
    are not linear over GF(2) in the coordinates (then each register computes its own address)."""
    return _inverse_cached(lay)


@lru_cache(maxsize=128)
def _inverse_cached(lay: BufferLayout):
    return buffer_inverse(lambda c: lay.byte_offset(c, INT), lay.shape, lay.elem_bytes)


def _store(ctx, op, value, buf: SharedBuffer) -> None:
    src = ctx.layout(value.type, op)
    values = ctx.get(value)
    if not isinstance(values, list):
        values = [values] * src.num_regs
    vec = _vector(src, buf.layout)
    ops = IROps(ctx.b)
    ctx.buffer_access(write=True, values=[op.dst if op.name == "ttg.local_store" else op.result])
    # a linear buffer: vectors of any registers that are consecutive in it, or stmatrix (sm_90), from one base
    inv = linear_buffer(buf.layout)
    eb = buf.layout.elem_bytes
    side = buffer_side(src, inv, eb, "stmatrix" if target_capability(op) >= 90 else "") if inv else None
    starts = vector_starts(src, vec)
    if (side is not None and bits_of(ctx.stored_type(values[0].type)) == 8 * eb
            and (side.kind != "vec" or len(side.instrs) < len(starts) + (src.rank > 2))):
        store_side(ctx, values, side, side_pointers(ctx, inv, eb, side, buf.base))
        return
    # threads holding copies of an element write the same bytes
    starts = vector_starts(src, vec)
    regs = register_addresses(ctx, src, buf, starts, ops)
    write_registers(ctx, values, src, starts, vec, lambda c: buffer_address(ctx, buf, c, ops), regs)


@lowering("ttg.local_load")
def _local_load(ctx, op):
    buf = ctx.get(op.src)
    dst = ctx.layout(op.result.type, op)
    if isinstance(buf, SharedTensor):
        ctx.set(op.result, rearrange(ctx, op, buf.values, buf.layout, dst, lambda c: c))
        return
    buf = whole_buffer(ctx, op, op.src)
    ops = IROps(ctx.b)
    ctx.buffer_access(write=False, values=[op.src])
    vec = _vector(dst, buf.layout)
    # sub-buffers start 128-byte aligned: the plan's offsets hold (it models unchunked rows only)
    chunked = isinstance(buf.layout, NvmmaBuffer) and buf.layout.chunks > 1
    ldm = None if chunked else ldmatrix_loads(buf.layout, dst)
    # a linear buffer: vectors of any registers consecutive in it, or ldmatrix, from one base address (the
    # 8- and 32-bit mma operands' ldmatrix of `ldmatrix_loads` where it takes fewer instructions)
    inv = linear_buffer(buf.layout)
    eb = buf.layout.elem_bytes
    t = ctx.type_of(op.result.type, op)
    side = buffer_side(dst, inv, eb, "ldmatrix" if target_capability(op) >= 75 else "") if inv else None
    starts = vector_starts(dst, vec)
    if (side is not None and bits_of(ctx.stored_type(t)) == 8 * eb
            and (side.kind != "vec" or len(side.instrs) < (len(ldm.groups) if ldm is not None
                                                           else len(starts) + (dst.rank > 2)))):
        ctx.set(op.result, load_side(ctx, dst, t, side, side_pointers(ctx, inv, eb, side, buf.base)))
        return
    starts = vector_starts(dst, vec)
    regs = register_addresses(ctx, dst, buf, starts, ops) if ldm is None else None
    ctx.set(op.result, read_registers(ctx, dst, ctx.type_of(op.result.type, op), starts, vec, ldm,
                                      lambda c: buffer_address(ctx, buf, c, ops), regs))


@lowering("ttg.local_dealloc")
def _local_dealloc(ctx, op):
    pass
