"""Which buffers a memory descriptor may view: Triton's SharedMemoryAliasAnalysis (`aliases`: the
`ttg.local_alloc` results a value may be a view of) and BufferRegionAnalysis (`buffer_regions`: the
(offset, length) regions of shared or tensor memory a value may view, once offsets are assigned).

Both are forward analyses whose facts are sets joined by union, as MLIR's sparse data-flow framework runs them
(`forward_sets`): an op's results get what its transfer function says from its operands' sets; control flow
joins what reaches a value from every edge (`scf.for`/`scf.while` loop-carried values and results, `scf.if`
results, `cf.br`/`cf.cond_br` block arguments, the captures of `ttg.warp_specialize` partitions, the results
of its default region); anything else starts empty, Triton's pessimistic state. Every block counts as reachable.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.ir import Operation, SSAValue

from ttc.ir.types import bitwidth
from ttc.ir.memdesc import MemDescType

VIEW_OPS = ("ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape",
            "ttg.memdesc_reinterpret", "ttng.tmem_subslice")
SHARED = "ttg.shared_memory"


def memory_space(t) -> str | None:
    """The name of a memdesc type's memory space attribute (`ttg.shared_memory`, `ttng.tensor_memory`)."""
    return getattr(t.memory_space, "name", None) if isinstance(t, MemDescType) else None


def _terminator_operands(region, names=("scf.yield",)) -> list[list[SSAValue]]:
    out = []
    for block in region.blocks:
        last = block.last_op
        if last is not None and last.name in names:
            out.append(list(last.operands))
    return out


def _edges(op: Operation) -> list[tuple[list[SSAValue], list[SSAValue]]]:
    """(targets, sources) pairs: what flows into each target value along the control-flow edges `op` makes."""
    name = op.name
    out = []
    if name == "scf.for":
        body = op.body.blocks.first
        inits = list(op.operands[3:])
        yields = _terminator_operands(op.body)
        for targets in (list(body.args[1:]), list(op.results)):
            out.append((targets, inits))
            out += [(targets, y) for y in yields]
    elif name == "scf.if":
        for region in op.regions:
            out += [(list(op.results), y) for y in _terminator_operands(region)]
    elif name == "scf.while":
        before, after = op.before_region.blocks.first, op.after_region.blocks.first
        out.append((list(before.args), list(op.operands)))
        out += [(list(before.args), y) for y in _terminator_operands(op.after_region)]
        for cond in _terminator_operands(op.before_region, ("scf.condition",)):
            out += [(list(after.args), cond[1:]), (list(op.results), cond[1:])]
    elif name == "cf.br":
        out.append((list(op.successors[0].args), list(op.operands)))
    elif name == "cf.cond_br":
        out.append((list(op.then_block.args), list(op.then_arguments)))
        out.append((list(op.else_block.args), list(op.else_arguments)))
    elif name == "ttg.warp_specialize":
        if op.regions:
            out += [(list(op.results), y) for y in _terminator_operands(op.regions[0], ("ttg.warp_yield",))]
        for part in _partition_regions(op):
            out.append((list(part.blocks.first.args), list(op.operands)))
    return out


def _partition_regions(op: Operation) -> list:
    """The partition regions of a `ttg.warp_specialize` (held by its `ttg.warp_specialize.partitions` op)."""
    out = []
    for region in op.regions[1:]:
        for block in region.blocks:
            for inner in block.ops:
                out += [r for r in inner.regions if r.blocks]
    return out


CONTROL_FLOW = ("scf.for", "scf.if", "scf.while", "cf.br", "cf.cond_br", "ttg.warp_specialize")


def forward_sets(root: Operation, transfer: Callable[[Operation, list[frozenset]], frozenset | None]
                 ) -> dict[SSAValue, frozenset]:
    """The least fixed point of a union-joined forward analysis over `root`: `transfer(op, operand_sets)` gives
    the set every result of `op` gets (None: leave the results alone, as Triton's visitors that return early)."""
    facts: dict[SSAValue, frozenset] = {}

    def add(v: SSAValue, s: frozenset) -> bool:
        old = facts.get(v, frozenset())
        new = old | s
        if new != old:
            facts[v] = new
            return True
        return False

    ops = [op for op in root.walk() if op is not root]
    changed = True
    while changed:
        changed = False
        for op in ops:
            if op.name in CONTROL_FLOW:
                for targets, sources in _edges(op):
                    for t, s in zip(targets, sources):
                        changed |= add(t, facts.get(s, frozenset()))
                continue
            if not op.results:
                continue
            got = transfer(op, [facts.get(v, frozenset()) for v in op.operands])
            if got is not None:
                for r in op.results:
                    changed |= add(r, got)
    return facts


def _alias_transfer(op: Operation, operands: list[frozenset]) -> frozenset | None:
    t = op.results[0].type
    if isinstance(t, MemDescType) and memory_space(t) != SHARED:
        return None
    if op.name == "ttg.local_alloc":
        return frozenset([op.results[0]])
    if op.name in VIEW_OPS:
        return operands[0]
    return frozenset()


def aliases(root: Operation) -> dict[SSAValue, frozenset]:
    """Triton's SharedMemoryAliasAnalysis: value -> the `ttg.local_alloc` results it may view."""
    return forward_sets(root, _alias_transfer)


# ----------------------------------------------------------------------------- buffer regions

BARRIER_OPERANDS = {"ttng.init_barrier": ("alloc",), "ttng.barrier_expect": ("alloc",),
                    "ttng.inval_barrier": ("alloc",), "ttng.async_tma_copy_global_to_local": ("barrier",),
                    "ttng.async_tma_gather": ("barrier",), "ttng.tc_gen5_mma": ("barriers",),
                    "ttng.tc_gen5_mma_scaled": ("barriers",)}
ACCESS_OPS = ("ttg.local_load", "ttg.local_store", "ttng.tmem_load", "ttng.tmem_store",
              "ttg.async_copy_global_to_local", "ttng.async_tma_copy_global_to_local",
              "ttng.async_tma_copy_local_to_global", "ttng.async_tma_gather", "ttng.async_tma_scatter",
              "ttng.init_barrier", "ttng.barrier_expect", "ttng.inval_barrier", "ttng.wait_barrier",
              "tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")


class RegionError(Exception):
    """An op the buffer-region analysis cannot account for (Triton stops with a fatal error)."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


def is_memory_access(op: Operation) -> bool:
    """Triton's BufferRegionAnalysis::isMemoryAccessOperation."""
    if op.name in ACCESS_OPS:
        return True
    return op.name in ("ttg.local_alloc", "ttng.tmem_alloc") and bool(op.operands)


def _barrier_operands(op: Operation) -> list[SSAValue]:
    out = []
    for field in BARRIER_OPERANDS.get(op.name, ()):
        v = getattr(op, field, None)
        out += list(v) if isinstance(v, (tuple, list)) else [v] if isinstance(v, SSAValue) else []
    return out


def region_kind(v: SSAValue) -> str | None:
    """"barrier" (an mbarrier some op waits on or arms), "shared" or "tensor" memory, or None."""
    if any(v in _barrier_operands(use.operation) for use in v.uses):
        return "barrier"
    space = memory_space(v.type)
    return {SHARED: "shared", "ttng.tensor_memory": "tensor"}.get(space)


def memdesc_bytes(t: MemDescType) -> int:
    """Triton's getMemDescSize: bytes of shared memory, or 32-bit columns of tensor memory."""
    if memory_space(t) == "ttng.tensor_memory":
        from ttc.ir.tmem_layout import tmem_alloc_rows_cols

        return tmem_alloc_rows_cols(t)[1]
    return math.prod(t.get_shape()) * (bitwidth(t.element_type) // 8)


def _subslice_offset(op: Operation) -> int:
    """The byte offset of a `ttg.memdesc_subslice`'s first element in its source buffer."""
    from ttc.ir.layouts import NVMMASharedEncoding, SwizzledSharedEncoding
    from ttc.lowering.exchange_plan import swizzled_buffer
    from ttc.lowering.nvmma_shared import nvmma_buffer

    t = op.operands[0].type
    offsets = tuple(op.offsets.get_values())
    shape = t.get_alloc_shape()[-len(offsets):]
    elem = bitwidth(t.element_type) // 8
    enc = t.encoding
    if isinstance(enc, SwizzledSharedEncoding):
        buf = swizzled_buffer(shape, list(enc["order"]), elem, enc["vec"], enc["perPhase"], enc["maxPhase"])
    elif isinstance(enc, NVMMASharedEncoding):
        buf = nvmma_buffer(shape, enc["swizzlingByteWidth"], bool(enc.get("transposed", False)), elem)
    else:
        raise RegionError(op, f"buffer regions of subslices of {enc.name} buffers are not supported")
    return buf.byte_offset(offsets)


def _region_transfer(op: Operation, operands: list[frozenset]) -> frozenset | None:
    name = op.name
    if name == "ttg.local_alloc":
        offset = op.attributes.get("allocation.offset")
        if offset is None:
            raise RegionError(op, "buffer regions need shared-memory offsets: run -allocate-shared-memory first")
        return frozenset([(offset.value.data, memdesc_bytes(op.results[0].type))])
    if name == "ttng.tmem_alloc":
        col, row = op.attributes.get("tensor_memory_col_offset"), op.attributes.get("tensor_memory_row_offset")
        if col is None or row is None:
            raise RegionError(op, "buffer regions need tensor-memory offsets: run -triton-tensor-memory-allocation "
                                  "first")
        return frozenset([(col.value.data | row.value.data << 16, memdesc_bytes(op.results[0].type))])
    if name == "ttng.tmem_subslice":
        size, rel = memdesc_bytes(op.results[0].type), op.N.value.data
        return frozenset((base + rel, size) for base, _ in operands[0])
    if name == "ttg.memdesc_index":
        size = memdesc_bytes(op.results[0].type)
        n = op.operands[0].type.get_shape()[0]
        return frozenset((base + i * size, size) for base, _ in operands[0] for i in range(n))
    if name == "ttg.memdesc_subslice":
        size, rel = memdesc_bytes(op.results[0].type), _subslice_offset(op)
        return frozenset((base + rel, size) for base, _ in operands[0])
    if name in ("ttg.memdesc_trans", "ttg.memdesc_reshape", "ttg.memdesc_reinterpret"):
        return operands[0]
    if any(memory_space(v.type) in (SHARED, "ttng.tensor_memory") for v in op.operands) and not is_memory_access(op):
        raise RegionError(op, "Operation accessing memory unaccounted for in buffer region analysis")
    return None


def buffer_regions(root: Operation) -> dict[SSAValue, frozenset]:
    """Triton's BufferRegionAnalysis: value -> the (offset, length) regions it may view (shared memory in bytes
    from `allocation.offset`)."""
    return forward_sets(root, _region_transfer)


def used_regions(root: Operation, facts: dict[SSAValue, frozenset]) -> dict[str, set]:
    """Triton's calculateUsedBufferRegions: per kind ("shared", "tensor", "barrier"), the regions that memory
    accesses touch."""
    out: dict[str, set] = {"shared": set(), "tensor": set(), "barrier": set()}
    for op in root.walk():
        if not is_memory_access(op):
            continue
        values = list(op.operands) + ([op.results[0]] if op.name in ("ttg.local_alloc", "ttng.tmem_alloc") else [])
        for v in values:
            kind = region_kind(v)
            if kind is not None:
                out[kind] |= facts.get(v, frozenset())
    return out
