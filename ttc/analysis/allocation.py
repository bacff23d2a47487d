"""Shared-memory allocation: how many bytes of scratch each op needs while it runs, and where each buffer lives
(Triton's Allocation analysis, for the ops of memory-bound kernels).

Scratch buffers (Triton's `getScratchSizeInBytes` per op):

- `tt.reduce`: when the reduced axis spans several warps, one element per (kept position, warp along the
  axis) per operand goes through shared memory; none when a warp holds the whole axis;
- `tt.scan`: a warp-level exchange: elements per thread along the axis times warps, when several warps share
  the axis;
- `ttg.convert_layout`: when threads must trade data (none when only registers move), the part of the tensor
  exchanged per round of Triton's swizzled conversion (rounds iterate over register dimensions both layouts
  share);
- `tt.atomic_rmw`/`tt.atomic_cas` on a scalar: the old value, broadcast to all threads through shared memory.

Explicit buffers are the `ttg.local_alloc` ops. `Allocation(func)` gives every buffer an offset: buffers whose
live ranges (in program order; a scratch buffer lives only during its op, an explicit one from its allocation
to its last use) overlap get disjoint ranges, aligned as Triton aligns them (16 bytes for scratch), first fit
in decreasing size order; `size` is the total, Triton's `ttg.shared`.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from ttc.ir.layout_utils import owners, reorders_registers_only
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, SliceEncoding
from ttc.ir.types import MemDescType, bitwidth, encoding, shape_of

SCRATCH_ALIGN = 16


def _blocked_params(enc):
    """(sizePerThread, threadsPerWarp, warpsPerCTA) of a blocked layout, or of a slice's parent with the
    sliced dimension removed."""
    if isinstance(enc, BlockedEncoding):
        return list(enc["sizePerThread"]), list(enc["threadsPerWarp"]), list(enc["warpsPerCTA"])
    if isinstance(enc, SliceEncoding):
        p = _blocked_params(enc["parent"])
        if p is None:
            return None
        d = enc["dim"]
        return [x[:d] + x[d + 1:] for x in p]
    return None


def reduce_unique_sizes(op: Operation) -> tuple[int, int]:
    """Triton's ReduceOpHelper: how many lanes, then how many warps, hold distinct data along the reduced
    axis."""
    src = op.operands[0].type
    if not isinstance(src, TensorType):
        return 1, 1
    shape = list(src.get_shape())
    axis = op.axis.value.data
    p = _blocked_params(encoding(src))
    if p is None:
        return 1, 1
    spt, tpw, wpc = p
    per_thread = max(1, min(spt[axis], shape[axis]))
    intra = max(1, min(shape[axis] // per_thread, tpw[axis]))
    inter = max(1, min(shape[axis] // intra // per_thread, wpc[axis]))
    return intra, inter


def reduce_scratch_bytes(op: Operation) -> int:
    src = op.operands[0].type
    if not isinstance(src, TensorType):
        return 0
    _, inter = reduce_unique_sizes(op)
    if inter <= 1:
        return 0  # a warp holds the whole axis: shuffles suffice
    shape = list(src.get_shape())
    shape[op.axis.value.data] = inter
    per_elem = sum(-(-bitwidth(v.type) // 8) for v in op.operands)
    return math.prod(shape) * per_elem


def scan_scratch_bytes(op: Operation) -> int:
    """Triton's ScanLoweringHelper: per warp, the non-axis elements it holds, per block of the axis."""
    src = op.operands[0].type
    if not isinstance(src, TensorType):
        return 0
    shape = list(src.get_shape())
    axis = op.axis.value.data
    p = _blocked_params(encoding(src))
    if p is None:
        return 0
    spt, tpw, wpc = p
    axis_warps = max(1, min(wpc[axis], shape[axis] // max(1, spt[axis] * tpw[axis])))
    if axis_warps <= 1:
        return 0
    num_warps = math.prod(wpc)
    non_axis_threads = math.prod(t for d, t in enumerate(tpw) if d != axis)
    non_axis_elems = math.prod(s for d, s in enumerate(spt) if d != axis)
    blocks = -(-shape[axis] // (spt[axis] * tpw[axis] * wpc[axis]))
    per_elem = sum(-(-bitwidth(v.type) // 8) for v in op.operands)
    return num_warps * non_axis_threads * non_axis_elems * blocks * per_elem


def _register_bases(shape, enc) -> set | None:
    """The register bases of a blocked layout: (dim, power of two) offsets that stay within a thread (the
    elements of sizePerThread and the repetitions of the layout's tile), broadcast ones excluded."""
    if not isinstance(enc, BlockedEncoding):
        return None
    out = set()
    for d, n in enumerate(shape):
        spt, tpw, wpc = enc["sizePerThread"][d], enc["threadsPerWarp"][d], enc["warpsPerCTA"][d]
        p = 1
        while p < spt and p < n:
            out.add((d, p))
            p *= 2
        p = spt * tpw * wpc
        while p < n:
            out.add((d, p))
            p *= 2
    return out


def convert_scratch_bytes(op: Operation) -> int:
    """Triton's swizzled conversion through shared memory works in rounds over the register dimensions both
    layouts share; a round holds, per thread, 128 bits times the ratio of the two layouts' contiguous chunks."""
    src, dst = op.operands[0].type, op.results[0].type
    if not isinstance(src, TensorType) or encoding(src) is None or encoding(dst) is None:
        return 0
    if reorders_registers_only(src, dst):
        return 0
    shape = shape_of(src)
    a, b = encoding(src), encoding(dst)
    b_base = b["parent"] if isinstance(b, DotOperandEncoding) else b
    if isinstance(a, NvidiaMmaEncoding) and isinstance(b_base, NvidiaMmaEncoding):
        return 0  # MMA accumulators to MMA operands/accumulators: done in registers and warp shuffles
    if owners(src) is None or owners(dst) is None:  # layouts not modelled (dot operands, ...): all of it
        return math.prod(shape) * max(bitwidth(src), 8) // 8
    n = math.prod(shape)
    bits = max(bitwidth(src), 8)
    ra, rb = _register_bases(shape, a), _register_bases(shape, b)
    elems = n
    if ra is not None and rb is not None:
        common = len(ra & rb)
        sa = a["sizePerThread"][a["order"][0]]
        sb = b["sizePerThread"][b["order"][0]]
        per_thread = max(1, 128 // bits) * max(sa, sb) // min(sa, sb)
        threads = math.prod(a["threadsPerWarp"]) * math.prod(a["warpsPerCTA"])
        elems = min(n, max(n >> common, threads * per_thread))
    return elems * bits // 8


def scratch_bytes(op: Operation) -> int:
    name = op.name
    if name == "tt.reduce":
        return reduce_scratch_bytes(op)
    if name == "tt.scan":
        return scan_scratch_bytes(op)
    if name == "ttg.convert_layout":
        return convert_scratch_bytes(op)
    if name in ("tt.atomic_rmw", "tt.atomic_cas"):
        t = op.results[0].type
        if not isinstance(t, TensorType) and op.results[0].first_use is not None:
            return max(bitwidth(t), 8) // 8
    return 0


def _align(x: int, a: int) -> int:
    return (x + a - 1) // a * a


class Allocation:
    """Buffers of one function and their offsets."""

    def __init__(self, func: Operation):
        self.func = func
        self.buffers: list[dict] = []
        self.offsets: dict[Operation, int] = {}
        self.size = 0
        order: dict[Operation, int] = {}
        for i, op in enumerate(func.walk()):
            order[op] = i
        for op in func.walk():
            if op.name == "ttg.local_alloc":
                t = op.results[0].type
                if isinstance(t, MemDescType):
                    nbytes = math.prod(t.get_alloc_shape()) * max(bitwidth(t.element_type), 8) // 8
                    last = order[op]
                    for u in transitive_users(op):
                        last = max(last, order.get(u, last))
                    self.buffers.append({"op": op, "size": nbytes, "start": order[op], "end": last, "align": 16})
                continue
            n = scratch_bytes(op)
            if n:
                self.buffers.append({"op": op, "size": n, "start": order[op], "end": order[op],
                                     "align": SCRATCH_ALIGN})
        self._assign()

    def _assign(self) -> None:
        placed: list[dict] = []
        for b in sorted(self.buffers, key=lambda b: (-b["size"], b["start"])):
            offset = 0
            while True:
                clash = [p for p in placed if not (p["end"] < b["start"] or b["end"] < p["start"])
                         and p["offset"] < offset + b["size"] and offset < p["offset"] + p["size"]]
                if not clash:
                    break
                offset = _align(max(p["offset"] + p["size"] for p in clash), b["align"])
            b["offset"] = offset
            placed.append(b)
            self.offsets[b["op"]] = offset
            self.size = max(self.size, offset + b["size"])


def transitive_users(op: Operation) -> list[Operation]:
    """The ops that use `op`'s memory descriptor, directly or through `memdesc_index`/`memdesc_trans` views."""
    out, queue, seen = [], [r for r in op.results], set()
    while queue:
        v = queue.pop()
        for u in v.uses:
            o = u.operation
            if o in seen:
                continue
            seen.add(o)
            out.append(o)
            if o.name in ("ttg.memdesc_index", "ttg.memdesc_trans"):
                queue.extend(o.results)
    return out

