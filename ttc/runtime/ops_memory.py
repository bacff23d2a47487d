"""Interpreter handlers for memory: pointer arithmetic, loads and stores (masked, with `other`), atomics,
block pointers (`tt.make_tensor_ptr`/`tt.advance` with boundary checks and padding) and shared memory
(`ttg.local_alloc` and the ops on its `!ttg.memdesc` views, asynchronous copies).

Shared memory is a NumPy array per allocation; a memdesc is a view of it (`memdesc_index` picks a buffer of a
multi-buffered allocation, `memdesc_subslice` a tile of one, `memdesc_trans` transposes), so writes through one view
show through the others.
Asynchronous copies complete at once (the pipeliner only reads a buffer after waiting for its copy), which
makes `async_commit_group`, `async_wait` and `fence_async_shared` no-ops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ttc.ir.types import elt, shape_of
from ttc.runtime import dtypes
from ttc.runtime.dtypes import fit
from ttc.runtime.errors import Fault
from ttc.runtime.registry import handler


def _rtype(op):
    return op.results[0].type


def _pointee(ptr_type):
    """The element type a pointer (or tensor of pointers) points to."""
    return elt(ptr_type).pointee


# ----------------------------------------------------------------------------- pointers


@handler("tt.addptr")
def addptr(ip, op, args):
    ptr, offset = args
    size = dtypes.storage_dtype(_pointee(op.ptr.type)).itemsize
    return ptr + dtypes.as_signed(offset).astype(np.int64) * size


@dataclass(frozen=True)
class BlockPointer:
    """The value of `tt.make_tensor_ptr`: a block of a strided tensor in memory."""

    base: int
    shape: tuple  # the whole tensor's shape (i64)
    strides: tuple  # in elements
    offsets: tuple  # where the block starts (i32)
    block: tuple  # the block's shape
    element: object  # the element type

    def addresses(self, boundary_check) -> tuple[np.ndarray, np.ndarray | None]:
        """The address of every element of the block, and the in-bounds mask over the checked dimensions."""
        size = dtypes.storage_dtype(self.element).itemsize
        addr = np.full(self.block, self.base, dtype=np.int64)
        mask = None
        for d, n in enumerate(self.block):
            coord = np.arange(n, dtype=np.int64) + self.offsets[d]
            shape = [1] * len(self.block)
            shape[d] = n
            coord = coord.reshape(shape)
            addr = addr + coord * self.strides[d] * size
            if d in boundary_check:
                inside = (coord >= 0) & (coord < self.shape[d])
                mask = inside if mask is None else mask & inside
        return addr, None if mask is None else np.broadcast_to(mask, self.block)


def _i32(v) -> int:
    return int(np.asarray(v).astype(np.int32))


@handler("tt.make_tensor_ptr")
def make_tensor_ptr(ip, op, args):
    block_type = _rtype(op).pointee
    base = int(ip.env[op.base])
    shape = tuple(int(ip.env[v]) for v in op.shape)
    strides = tuple(int(ip.env[v]) for v in op.strides)
    offsets = tuple(_i32(ip.env[v]) for v in op.offsets)
    return BlockPointer(base, shape, strides, offsets, shape_of(block_type), elt(block_type))


@handler("tt.advance")
def advance(ip, op, args):
    bp = ip.env[op.ptr]
    offsets = tuple(_i32(np.int64(o) + _i32(ip.env[v])) for o, v in zip(bp.offsets, op.offsets))
    return BlockPointer(bp.base, bp.shape, bp.strides, offsets, bp.block, bp.element)


def _boundary_check(op) -> tuple:
    return tuple(op.boundaryCheck.get_values()) if op.boundaryCheck is not None else ()


# ----------------------------------------------------------------------------- loads and stores

PADDING_NAN = 2  # PADDING in ttc/ir/tt.py


def load(ip, ptr, mask, other, t, what: str = "load"):
    """Values of element type `t` at the pointer value `ptr`; lanes where `mask` is false take `other`
    (zero without one)."""
    values = ip.memory.load(ptr, mask, t, what)
    if mask is not None:
        fill = other if other is not None else np.zeros((), dtype=values.dtype)
        values = np.where(mask, values, fill)
    return fit(values, t)


@handler("tt.load")
def tt_load(ip, op, args):
    ptr = ip.env[op.ptr]
    mask, other = ip.get(op.mask), ip.get(op.other)
    if isinstance(ptr, BlockPointer):
        addr, inside = ptr.addresses(_boundary_check(op))
        t = ptr.element
        if op.padding is not None and op.padding.value.data == PADDING_NAN and dtypes.is_float_type(t):
            other = np.array(np.nan, dtype=dtypes.value_dtype(t))
        return load(ip, addr, inside, other, t)
    return load(ip, ptr, mask, other, elt(_rtype(op)))


@handler("tt.store")
def tt_store(ip, op, args):
    ptr, value = ip.env[op.ptr], ip.env[op.value]
    if isinstance(ptr, BlockPointer):
        addr, inside = ptr.addresses(_boundary_check(op))
        ip.memory.store(addr, value, inside, ptr.element)
        return None
    ip.memory.store(ptr, value, ip.get(op.mask), elt(op.value.type))
    return None


@handler("tt.atomic_rmw")
def atomic_rmw(ip, op, args):
    t = elt(_rtype(op))
    old = ip.memory.atomic_rmw(op.atomic_rmw_op.value.data, ip.env[op.ptr], ip.env[op.val], ip.get(op.mask), t)
    return fit(old, t)


@handler("tt.atomic_cas")
def atomic_cas(ip, op, args):
    t = elt(_rtype(op))
    return fit(ip.memory.atomic_cas(ip.env[op.ptr], ip.env[op.cmp], ip.env[op.val], t), t)


# ----------------------------------------------------------------------------- shared memory


class Allocation:
    """One `ttg.local_alloc`; `freed` after its `ttg.local_dealloc`."""

    def __init__(self):
        self.freed = False


@dataclass(frozen=True)
class MemDesc:
    view: np.ndarray
    alloc: Allocation

    def _live(self):
        if self.alloc.freed:
            raise Fault("access to shared memory after its ttg.local_dealloc")
        return self.view

    def read(self) -> np.ndarray:
        return self._live().copy()

    def write(self, values) -> None:
        self._live()[...] = values


@handler("ttg.local_alloc")
def local_alloc(ip, op, args):
    t = _rtype(op)
    desc = MemDesc(np.zeros(t.get_shape(), dtype=dtypes.value_dtype(t.element_type)), Allocation())
    if op.src is not None:
        desc.write(ip.env[op.src])
    return desc


@handler("ttg.local_dealloc")
def local_dealloc(ip, op, args):
    args[0].alloc.freed = True


@handler("ttg.local_load")
def local_load(ip, op, args):
    return ip.env[op.src].read()


@handler("ttg.local_store")
def local_store(ip, op, args):
    ip.env[op.dst].write(ip.env[op.src])
    ip.memory.changes += 1


@handler("ttg.memdesc_index")
def memdesc_index(ip, op, args):
    desc, index = args
    i = int(index)
    n = desc.view.shape[0]
    if not 0 <= i < n:
        raise Fault(f"memdesc_index {i} is out of range for {n} buffers")
    return MemDesc(desc.view[i], desc.alloc)


@handler("ttg.memdesc_trans")
def memdesc_trans(ip, op, args):
    desc = args[0]
    return MemDesc(desc.view.transpose(tuple(op.order.get_values())), desc.alloc)


@handler("ttg.async_copy_global_to_local")
def async_copy(ip, op, args):
    desc = ip.env[op.result]
    values = load(ip, ip.env[op.src], ip.get(op.mask), ip.get(op.other), op.result.type.element_type,
                  "async copy load")
    desc.write(values)
    ip.memory.changes += 1
    return None


@handler("ttg.async_commit_group", "ttg.async_wait", "ttng.fence_async_shared", "gpu.barrier")
def no_op(ip, op, args):
    # a program's threads run as one here: every access is done when the next op starts
    return None


@handler("ttg.memdesc_subslice")
def memdesc_subslice(ip, op, args):
    desc = args[0]
    tile = tuple(slice(o, o + n) for o, n in zip(op.offsets.get_values(), op.result.type.get_shape()))
    return MemDesc(desc.view[tile], desc.alloc)
