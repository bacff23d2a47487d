"""Global memory of an interpreted launch: the argument buffers, addressed by 64-bit pointers.

Buffer i lives at address (i + 1) << 40, so a pointer is a plain int64 (pointer arithmetic is integer
arithmetic, `tt.ptr_to_int` is the identity) and the buffer an address belongs to is `addr >> 40`. Every access
is checked: an address outside its buffer, or not aligned to the element size, raises a `Fault` that names the
element of the pointer tensor and the argument it missed. Atomics apply element by element in row-major order
(several lanes on one address see each other's updates, as they do on a GPU), returning the old values.
`changes` counts the accesses that changed some bytes (a loop that changes nothing is stuck: see scf.while).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ttc.runtime import dtypes
from ttc.runtime.errors import Fault

SHIFT = 40

# tt.atomic_rmw kinds (RMW in ttc/ir/tt.py)
RMW_KINDS = {1: "and", 2: "or", 3: "xor", 4: "add", 5: "fadd", 6: "max", 7: "min", 8: "umax", 9: "umin", 10: "exch"}


@dataclass
class Buffer:
    name: str
    data: np.ndarray  # uint8, padded to a multiple of 8 bytes so that any element type can view it
    size: int  # bytes the argument really has


class Memory:
    def __init__(self):
        self.buffers: list[Buffer] = []
        self.changes = 0  # stores and atomics that changed memory, and shared-memory writes

    def add(self, name: str, contents: np.ndarray) -> int:
        """Place a copy of `contents` (raw storage) in memory; returns its address."""
        raw = np.ascontiguousarray(contents).view(np.uint8).reshape(-1)
        data = np.zeros(-(-max(raw.size, 1) // 8) * 8, dtype=np.uint8)
        data[: raw.size] = raw
        self.buffers.append(Buffer(name, data, raw.size))
        return len(self.buffers) << SHIFT

    def contents(self, address: int) -> np.ndarray:
        """The bytes of the buffer at `address` (as returned by `add`)."""
        buf = self.buffers[(address >> SHIFT) - 1]
        return buf.data[: buf.size]

    # ------------------------------------------------------------------------- address checks

    def _describe(self, addr: int) -> str:
        if addr == 0:
            return "a null pointer"
        best = None
        for i, buf in enumerate(self.buffers):
            base = (i + 1) << SHIFT
            dist = base - addr if addr < base else addr - (base + buf.size) + 1
            if best is None or dist < best[0]:
                where = (f"{base - addr} bytes before the start of" if addr < base
                         else f"{addr - base - buf.size} bytes past the end of")
                best = (dist, f"address {addr:#x}, {where} argument '{buf.name}' ({buf.size} bytes)")
        if best is None or best[0] > 1 << 32:
            return f"address {addr:#x}, which is not inside any argument"
        return best[1]

    def locate(self, addrs, mask, itemsize: int):
        """(buffer numbers, element indices, lanes) of the active lanes of an address tensor (`lanes` are flat
        indices), or (None, None, (lane, address, in bounds)) for the first bad lane in row-major order."""
        shape = np.shape(addrs)
        addrs = np.asarray(addrs, dtype=np.int64).reshape(-1)
        if mask is None:
            pos = np.arange(addrs.size)
        else:
            pos = np.flatnonzero(np.broadcast_to(np.asarray(mask, dtype=bool), shape))
        a = addrs[pos]
        buf = (a >> SHIFT) - 1
        nbuf = len(self.buffers)
        valid = (buf >= 0) & (buf < nbuf)
        sizes = np.array([b.size for b in self.buffers] + [0], dtype=np.int64)
        off = a - ((buf + 1) << SHIFT)
        in_bounds = valid & (off >= 0) & (off + itemsize <= sizes[np.where(valid, buf, nbuf)])
        bad = np.flatnonzero(~(in_bounds & (off % itemsize == 0)))
        if bad.size:
            return None, None, (int(pos[bad[0]]), int(a[bad[0]]), bool(in_bounds[bad[0]]))
        return buf, off // itemsize, pos

    def _resolve(self, addrs, mask, itemsize: int, what: str):
        shape = np.shape(addrs)
        buf, idx, pos = self.locate(addrs, mask, itemsize)
        if buf is None:
            lane, addr, in_bounds = pos
            at = f" (element {[int(i) for i in np.unravel_index(lane, shape)]} of the pointer tensor)" if shape else ""
            if in_bounds:
                raise Fault(f"misaligned {what}{at}: address {addr:#x} is not a multiple of {itemsize} bytes")
            raise Fault(f"out-of-bounds {what}{at}: {self._describe(addr)}")
        return buf, idx, pos

    def _groups(self, buf):
        """(buffer number, selector) for each buffer that the lanes touch (almost always one)."""
        if buf.size and (buf == buf[0]).all():
            yield int(buf[0]), slice(None)
            return
        for b in np.unique(buf):
            yield int(b), buf == b

    def _view(self, b: int, t) -> np.ndarray:
        return self.buffers[b].data.view(dtypes.storage_dtype(t))

    # ------------------------------------------------------------------------- accesses

    def load(self, addrs, mask, t, what: str = "load") -> np.ndarray:
        """Values of element type `t` at `addrs` (lanes where `mask` is false read as zero)."""
        shape = np.shape(addrs)
        out = np.zeros(int(np.prod(shape)), dtype=dtypes.storage_dtype(t))
        buf, idx, pos = self._resolve(addrs, mask, dtypes.storage_dtype(t).itemsize, what)
        for b, sel in self._groups(buf):
            out[pos[sel]] = self._view(b, t)[idx[sel]]
        return dtypes.from_storage(out.reshape(shape), t)

    def store(self, addrs, values, mask, t, what: str = "store") -> None:
        shape = np.shape(addrs)
        raw = np.broadcast_to(dtypes.to_storage(values, t), shape).reshape(-1)
        buf, idx, pos = self._resolve(addrs, mask, dtypes.storage_dtype(t).itemsize, what)
        for b, sel in self._groups(buf):
            self._write(self._view(b, t), idx[sel], raw[pos[sel]])

    def _write(self, view: np.ndarray, idx, raw: np.ndarray) -> None:
        if not np.array_equal(view[idx], raw):  # compares the stored bits (NaNs included)
            self.changes += 1
        view[idx] = raw

    def _rounds(self, buf, idx):
        """Selectors of the lanes in rounds: the k-th round holds each address's k-th lane (in lane order), so
        that each round touches distinct addresses and can be applied at once."""
        key = (buf.astype(np.int64) << SHIFT) | idx
        order = np.argsort(key, kind="stable")
        s = key[order]
        starts = np.r_[0, np.flatnonzero(s[1:] != s[:-1]) + 1]
        group_start = np.repeat(starts, np.diff(np.r_[starts, s.size]))
        rank = np.empty_like(order)
        rank[order] = np.arange(s.size) - group_start
        top = int(rank.max()) + 1 if rank.size else 0
        if top <= 1:
            yield slice(None)
            return
        for r in range(top):
            yield rank == r

    def _atomic(self, addrs, mask, t, what, update):
        shape = np.shape(addrs)
        buf, idx, pos = self._resolve(addrs, mask, dtypes.storage_dtype(t).itemsize, what)
        old = np.zeros(int(np.prod(shape)), dtype=dtypes.value_dtype(t))
        for rnd in self._rounds(buf, idx):
            rb, ri, rp = buf[rnd], idx[rnd], pos[rnd]
            for b, sel in self._groups(rb):
                view = self._view(b, t)
                cur = dtypes.from_storage(view[ri[sel]], t)
                old[rp[sel]] = cur
                self._write(view, ri[sel], dtypes.to_storage(update(cur, rp[sel]), t))
        return old.reshape(shape)

    def atomic_rmw(self, kind: int, addrs, values, mask, t) -> np.ndarray:
        name = RMW_KINDS.get(kind)
        if name is None:
            raise Fault(f"unknown atomic_rmw kind {kind}")
        vals = np.broadcast_to(values, np.shape(addrs)).reshape(-1)
        return self._atomic(addrs, mask, t, "atomic_rmw", lambda cur, p: rmw(name, cur, vals[p], t))

    def atomic_cas(self, addrs, cmp, values, t) -> np.ndarray:
        shape = np.shape(addrs)
        cmp_bits = np.broadcast_to(dtypes.to_storage(cmp, t), shape).reshape(-1)
        vals = np.broadcast_to(values, shape).reshape(-1)

        def update(cur, p):
            return np.where(dtypes.to_storage(cur, t) == cmp_bits[p], vals[p], cur)

        return self._atomic(addrs, None, t, "atomic_cas", update)


def rmw(kind: str, cur, val, t):
    """The new value of an atomic read-modify-write."""
    if kind == "exch":
        return val
    if kind in ("add", "fadd"):
        return dtypes.fit(cur + val, t)
    if kind == "max":
        return np.maximum(cur, val) if dtypes.is_float_type(t) else np.maximum(dtypes.as_signed(cur), dtypes.as_signed(val))
    if kind == "min":
        return np.minimum(cur, val) if dtypes.is_float_type(t) else np.minimum(dtypes.as_signed(cur), dtypes.as_signed(val))
    if kind in ("umax", "umin"):
        u = (np.maximum if kind == "umax" else np.minimum)(dtypes.as_unsigned(cur), dtypes.as_unsigned(val))
        return u.view(cur.dtype) if cur.dtype != np.bool_ else u != 0
    return {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[kind](cur, val)
