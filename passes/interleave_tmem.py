"""triton-nvidia-interleave-tmem: sink tensor-memory loads and allocations towards their users, to shorten the
live ranges of the registers they fill (Triton's TritonNvidiaGPUInterleaveTMem).

Every `ttng.tmem_load` and `ttng.tmem_alloc` of the module (walk order), with the chain of ops that follow it
directly and each are the only user of the previous one and pure, moves down its block as far as it can: up to
the first later op that uses a value of the chain (nested ops included), that is `ttng.arrive_barrier`, or
that may write or free memory the chain depends on (any memory for ops of unknown effects or outside Triton's
dialects; tensor memory that may alias the load's source or the allocation, by a local alias analysis through
allocations, views, subslices and warp-specialize captures). Reaching the block's terminator, the chain goes
before its last other op. Each op is sunk again until it no longer moves. As in Triton, looking through a
`ttg.memdesc_index` or `ttg.memdesc_subslice` leaves `arith.constant 0 : i32` ops (offsets) before the view.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator, MemoryEffect, MemoryEffectKind, RecursiveMemoryEffect, get_effects, \
    is_side_effect_free, is_speculatable

from ttc.ir.tmem_attrs import TensorMemorySpace
from ttc.ir.memdesc import MemDescType
from ttc.opt.passmanager import Pass

_TRITON = ("tt.", "ttg.", "ttng.", "amdg.")


def _const_int(v: SSAValue) -> int | None:
    o = v.owner
    if isinstance(o, arith.ConstantOp) and isinstance(o.value, IntegerAttr):
        return o.value.value.data
    return None


def _zero_before(op: Operation) -> SSAValue:
    c = arith.ConstantOp(IntegerAttr(0, i32))
    c.location = op.location
    op.parent.insert_op_before(c, op)
    return c.result


def _view_access(view: Operation):
    """Triton's findBufferAccessMemdescSubview."""
    shape = list(view.results[0].type.get_shape())
    if view.name == "ttg.memdesc_index":
        offsets = [view.operands[1]] + [_zero_before(view) for _ in range(max(0, len(shape) - 1))]
    else:
        offsets = [_zero_before(view) for _ in view.offsets.get_values()]
    src = view.operands[0]
    alloc, parent = buffer_access(src)
    if alloc is None:
        return None, None
    ranges, poff = parent
    child = list(ranges[:poff])
    off = len(src.type.get_shape()) - len(shape)
    for i, o in enumerate(offsets):
        pr = ranges[i + poff]
        value = _const_int(o)
        if pr is None or value is None:
            child.append(None)
            continue
        start = pr[0] + value
        child.append((start, start + (shape[i - off] if i >= off else 1)))
    return alloc, (child, off)


def buffer_access(v: SSAValue):
    """Triton's findBufferAccess: the tensor-memory allocation `v` views and, per dimension, the [start, end)
    it covers (None: unknown), with the rank offset of the view; (None, None) when unknown."""
    if isinstance(v.owner, Block):
        parent = v.owner.parent_op()
        if parent is not None and parent.name == "ttg.warp_specialize.partitions":
            return buffer_access(parent.parent_op().operands[v.index])
        return None, None
    op = v.owner
    if op.name == "ttng.tmem_alloc":
        return v, ([(0, d) for d in v.type.get_shape()], 0)
    if op.name in ("ttg.memdesc_trans", "ttg.memdesc_reshape"):
        return buffer_access(op.operands[0])
    if op.name in ("ttg.memdesc_index", "ttg.memdesc_subslice"):
        return _view_access(op)
    if op.name == "ttng.tmem_subslice":
        alloc, access = buffer_access(op.operands[0])
        if alloc is None:
            return None, None
        ranges, off = access
        if ranges[1] is None:
            return alloc, (ranges, off)
        start = ranges[1][0] + op.N.value.data
        ranges = list(ranges)
        ranges[1] = (start, start + op.results[0].type.get_shape()[1])
        return alloc, (ranges, off)
    return None, None


def may_alias(a: SSAValue, b: SSAValue) -> bool:
    aa, ar = buffer_access(a)
    ba, br = buffer_access(b)
    if aa is None or ba is None:
        return True
    if aa is not ba:
        return False
    for x, y in zip(ar[0], br[0]):
        if x is not None and y is not None and not (x[0] < y[1] and y[0] < x[1]):
            return False
    return True


def _effects(op: Operation) -> list | None:
    """Triton's collectEffects as (kind, value) pairs; None: unknown (any effect on any memory)."""
    if op.get_traits_of_type(MemoryEffect):
        got = get_effects(op)
        return None if got is None else [(e.kind, e.value) for e in got]
    if op.has_trait(RecursiveMemoryEffect, value_if_unregistered=False):
        out = []
        for inner in op.walk():
            if inner is op:
                continue
            if not inner.get_traits_of_type(MemoryEffect) \
                    and inner.has_trait(RecursiveMemoryEffect, value_if_unregistered=False):
                continue  # its nested ops are walked anyway
            e = _effects(inner)
            if e is None:
                return None
            out += e
        return out
    return None


def _clobbers(op: Operation, buffer: SSAValue) -> bool:
    """Whether `op` may write or free the default resource, or tensor memory aliasing `buffer`."""
    effects = _effects(op)
    if effects is None:
        return True
    for kind, value in effects:
        if kind not in (MemoryEffectKind.WRITE, MemoryEffectKind.FREE):
            continue
        if isinstance(value, SSAValue):
            targets = [value]
        elif op.name.startswith(_TRITON):  # the effect is on the op's memory operands (global memory if none)
            targets = [o for o in op.operands if isinstance(o.type, MemDescType)]
        else:
            return True
        for t in targets:
            if isinstance(t.type, MemDescType) and isinstance(t.type.memory_space, TensorMemorySpace) \
                    and may_alias(t, buffer):
                return True
    return False


def _pure(op: Operation) -> bool:
    return is_side_effect_free(op) and is_speculatable(op)


def sink(chain: list[Operation], buffer: SSAValue) -> bool:
    produced = {r for op in chain for r in op.results}
    target, nxt = None, chain[-1].next_op
    while nxt is not None and not nxt.has_trait(IsTerminator, value_if_unregistered=False):
        target = nxt
        if any(o in produced for inner in nxt.walk() for o in inner.operands):
            break
        if nxt.name == "ttng.arrive_barrier":
            break
        if _clobbers(nxt, buffer):
            break
        nxt = nxt.next_op
    if target is None or target is chain[-1].next_op:
        return False
    for op in chain:
        op.detach()
        target.parent.insert_op_before(op, target)
    return True


def try_sink(op: Operation, buffer: SSAValue) -> bool:
    chain = [op]
    while True:
        last = chain[-1]
        uses = [u for r in last.results for u in r.uses]
        if len(uses) != 1:
            break
        user = uses[0].operation
        if not _pure(user) or last.next_op is not user:
            break
        chain.append(user)
    return sink(chain, buffer)


@dataclass(frozen=True)
class InterleaveTMem(Pass):
    """Sink tensor-memory loads and allocations next to their users."""

    name = "triton-nvidia-interleave-tmem"
    display = "TritonNvidiaGPUInterleaveTMemPass"
    summary = "Interleave TMEM loads and stores"

    def apply(self, ctx, module) -> None:
        todo = [(op, op.operands[0] if op.name == "ttng.tmem_load" else op.results[0])
                for op in module.walk() if op.name in ("ttng.tmem_load", "ttng.tmem_alloc")]
        for op, buffer in todo:
            while try_sink(op, buffer):
                pass
