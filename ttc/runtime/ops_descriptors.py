"""Interpreter handlers for tensor descriptors: `tt.make_tensor_descriptor` and a descriptor argument give a
`TensorDesc` (base address, shape, strides, block); `tt.descriptor_load` / `_store` / `_reduce` read and write
one block at integer offsets with TMA's bounds rule: elements outside the tensor's shape (before 0 or past
the end, in any dimension) load as zero (NaN with `padding = nan`) and are neither written nor reduced into.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IntegerType, Signedness

from ttc.ir.types import elt
from ttc.runtime import dtypes
from ttc.runtime.dtypes import fit
from ttc.runtime.errors import Fault
from ttc.runtime.registry import handler

PADDING_NAN = 2
# tt.descriptor_reduce kind -> tt.atomic_rmw kind (memory.RMW_KINDS): (integer, unsigned integer, float)
_RMW = {1: (4, 4, 5), 2: (7, 9, 7), 3: (6, 8, 6), 6: (1, 1, 1), 7: (2, 2, 2), 8: (3, 3, 3)}


@dataclass(frozen=True)
class TensorDesc:
    """A descriptor's value: blocks of `block` elements of type `element` from the tensor at `base`."""

    base: int
    shape: tuple  # the tensor's shape, in elements
    strides: tuple  # in elements
    block: tuple
    element: object  # the signless MLIR element type
    signed: bool  # integer elements are signed (`si32` in the descriptor's type)
    nan_padding: bool = False

    def addresses(self, offsets) -> tuple[np.ndarray, np.ndarray]:
        """The address of every element of the block at `offsets`, and which elements are inside the tensor."""
        if len(offsets) != len(self.block):
            raise Fault(f"{len(offsets)} offsets for a {len(self.block)}-d descriptor")
        size = dtypes.storage_dtype(self.element).itemsize
        addr = np.full(self.block, self.base, dtype=np.int64)
        inside = np.ones(self.block, dtype=bool)
        for d, n in enumerate(self.block):
            shape = [1] * len(self.block)
            shape[d] = n
            coord = (np.arange(n, dtype=np.int64) + int(offsets[d])).reshape(shape)
            addr = addr + coord * self.strides[d] * size
            inside = inside & (coord >= 0) & (coord < self.shape[d])
        return addr, inside


def describe(desc_type, base: int, shape, strides, nan_padding: bool = False) -> TensorDesc:
    """The value of a descriptor of type `desc_type` (a `!tt.tensordesc`) over the tensor at `base`."""
    e = desc_type.block_type.element_type
    signed = isinstance(e, IntegerType) and e.signedness.data == Signedness.SIGNED
    return TensorDesc(int(base), tuple(int(s) for s in shape), tuple(int(s) for s in strides), desc_type.shape,
                      elt(desc_type.value_type()), signed, nan_padding)


def _offsets(ip, op) -> list[int]:
    return [int(np.asarray(ip.env[v]).astype(np.int32)) for v in op.indices]


@handler("tt.make_tensor_descriptor")
def make_tensor_descriptor(ip, op, args):
    nan = op.padding is not None and op.padding.value.data == PADDING_NAN
    shape = [int(np.asarray(ip.env[v]).astype(np.int32)) for v in op.shape]
    strides = [int(ip.env[v]) for v in op.strides]
    return describe(op.result.type, int(ip.env[op.base]), shape, strides, nan)


def load_block(ip, desc: TensorDesc, offsets, what: str = "descriptor load") -> np.ndarray:
    addr, inside = desc.addresses(offsets)
    t = desc.element
    values = ip.memory.load(addr, inside, t, what)
    fill = np.nan if desc.nan_padding and dtypes.is_float_type(t) else 0
    return fit(np.where(inside, values, np.array(fill, dtype=values.dtype)), t)


def store_block(ip, desc: TensorDesc, offsets, value, what: str = "descriptor store") -> None:
    addr, inside = desc.addresses(offsets)
    ip.memory.store(addr, value, inside, desc.element, what)


def reduce_block(ip, desc: TensorDesc, kind: int, offsets, value) -> None:
    if kind not in _RMW:
        raise Fault(f"descriptor reduce kind {kind} is not supported by the interpreter")
    t = desc.element
    rmw = _RMW[kind][2 if dtypes.is_float_type(t) else 0 if desc.signed else 1]
    addr, inside = desc.addresses(offsets)
    ip.memory.atomic_rmw(rmw, addr, value, inside, t)


@handler("tt.descriptor_load")
def descriptor_load(ip, op, args):
    return load_block(ip, ip.env[op.desc], _offsets(ip, op))


@handler("tt.descriptor_store")
def descriptor_store(ip, op, args):
    store_block(ip, ip.env[op.desc], _offsets(ip, op), ip.env[op.src])


@handler("tt.descriptor_reduce")
def descriptor_reduce(ip, op, args):
    reduce_block(ip, ip.env[op.desc], op.kind.value.data, _offsets(ip, op), ip.env[op.src])


# ----------------------------------------------------------------------------- TTGIR: TMA through shared memory
# Copies complete at once, as ttg's async copies do here, so the mbarrier ops and the waits change nothing.


@handler("ttng.async_tma_copy_global_to_local")
def tma_load(ip, op, args):
    if bool(ip.env[op.pred]):
        ip.env[op.result].write(load_block(ip, ip.env[op.desc], _coords(ip, op), "TMA load"))


@handler("ttng.async_tma_copy_local_to_global")
def tma_store(ip, op, args):
    store_block(ip, ip.env[op.desc], _coords(ip, op), ip.env[op.src].read(), "TMA store")


@handler("ttng.async_tma_reduce")
def tma_reduce(ip, op, args):
    reduce_block(ip, ip.env[op.desc], op.kind.value.data, _coords(ip, op), ip.env[op.src].read())


def _coords(ip, op) -> list[int]:
    return [int(np.asarray(ip.env[v]).astype(np.int32)) for v in op.coord]


@handler("ttng.init_barrier", "ttng.inval_barrier", "ttng.barrier_expect", "ttng.wait_barrier",
         "ttng.async_tma_store_wait", "ttng.tensormap_fenceproxy_acquire")
def tma_no_op(ip, op, args):
    return None


@dataclass(frozen=True)
class TensorMap:
    """What `ttng.tensormap_create` wrote at an address of global scratch (the interpreter keeps it aside)."""

    base: int
    shape: tuple
    strides: tuple  # in elements
    nan_padding: bool


@handler("ttg.global_scratch_alloc")
def global_scratch_alloc(ip, op, args):
    """A buffer of `nbytes` per op, reused by the next programs (they run one after another)."""
    addr = ip.cache.get(op)
    if addr is None:
        addr = ip.cache[op] = ip.memory.add("global scratch", np.zeros(op.nbytes.value.data, dtype=np.uint8))
    return np.int64(addr)


@handler("ttng.tensormap_create")
def tensormap_create(ip, op, args):
    dims = [int(np.asarray(ip.env[v]).astype(np.int32)) for v in op.global_dim][::-1]
    byte_strides = [int(ip.env[v]) for v in op.global_stride][::-1]
    itemsize = dtypes.storage_dtype(elt(op.global_address.type).pointee).itemsize
    if any(s % itemsize for s in byte_strides):
        raise Fault(f"tensormap_create: strides {byte_strides} are not multiples of the element size {itemsize}")
    strides = tuple(s // itemsize for s in byte_strides) + (1,)
    maps = ip.cache.setdefault("tensormaps", {})
    maps[int(ip.env[op.desc_ptr])] = TensorMap(int(ip.env[op.global_address]), tuple(dims), strides,
                                                op.fill_mode.value.data == 1)


@handler("ttng.reinterpret_tensor_descriptor")
def reinterpret_tensor_descriptor(ip, op, args):
    tm = ip.cache.get("tensormaps", {}).get(int(ip.env[op.rawDesc]))
    if tm is None:
        raise Fault("reinterpret_tensor_descriptor of an address no tensormap_create wrote")
    return describe(op.result.type, tm.base, tm.shape, tm.strides, tm.nan_padding)
