"""The shared-memory plan of a layout exchange (`convert.exchange`): where each element lives in the buffer, and
which vector accesses every thread issues to write the source layout's registers and read the destination's.

Pure Python (with NumPy for the bank-conflict estimate), so that the lowering and the unit tests use the same
decisions: the lowering builds LLVM IR from `ExchangePlan.byte_offset` with `IROps`, the tests evaluate the same
function on integers (`INT`) for every thread and check that the exchange is a correct permutation
(test/unit/test_exchange_plan.py).

The buffer holds the tensor (in the source's coordinates) with one dimension, `inner`, innermost; the other
dimensions, slowest first, make the row index. An element's byte offset is

    E * (row * row_elems + (col ^ (phase(row) << log2(unit))))    phase(row) = (row >> per_phase_log) & (max_phase - 1)

with `col` its coordinate along `inner`, `E` the element's size, `row_elems` = the row's length plus padding. The
XOR (a swizzle, as Triton's shared layouts' vec/perPhase/maxPhase) only permutes whole `unit`-element blocks
within a row, and padding is a multiple of `unit` elements: every vector access of at most `unit` elements that
starts at a coordinate aligned to its length stays contiguous and aligned to its width in bytes.

Vectors: registers `r, r + 1, ..., r + v - 1` of a layout form one access when its first log2(v) register bases
are the unit steps 1, 2, 4, ... along `inner` and every other basis (register, lane, warp) is zero in those low
bits of `inner` (then the first element's coordinate along `inner` is a multiple of v in every thread: aligned by
construction). At most 16 bytes per access.

16-bit destinations whose registers form whole 8x8 matrices of 16-byte buffer rows are read with
`ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16` (mma.sync's operands: `Ldmatrix`), one instruction where
vector loads would take 4 to 16; the plan proves it by evaluating, for every thread, where each of its registers
would come from. For them the candidates include swizzles of 16-byte units (whole ldmatrix rows), wider than
the vectors.

The plan is chosen among candidates (each dimension as `inner`; no padding, padding by one unit or by one
4-byte bank, XOR swizzles; the unit is the widest vector, or 16 bytes) by a bank-conflict model of warp 0 (shared memory wavefronts: 32 banks of 4 bytes,
an access of 8 (16) bytes per thread served in 2 (4) phases of 16 (8) threads) plus the instruction count; the
choice affects speed only, the checks above make every candidate correct. The candidates of one `inner` are
evaluated together, as NumPy arrays with a leading candidate axis (`_offsets_each`, `_wavefronts_each`,
`_LdmatrixFit.fit_each`); where a candidate's offsets are linear over GF(2) (no padding), one access's lanes
stand for all of them (`_access_costs`). NumPy is imported by the functions that score candidates, so that
kernels without exchanges do not pay for its import.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from ttc.ir.linear_layout import LinearLayout

MAX_VECTOR_BYTES = 16


def _log2(n: int) -> int:
    return n.bit_length() - 1


def vector_width(ll: LinearLayout, inner: int, max_elems: int) -> int:
    """The number of consecutive registers of `ll` that hold elements consecutive along `inner`, starting at an
    aligned coordinate in every thread (a power of two, at most `max_elems`)."""
    rank = ll.rank
    k = 0
    while (k < len(ll.reg) and (2 << k) <= max_elems
           and ll.reg[k] == tuple((1 << k) if d == inner else 0 for d in range(rank))):
        k += 1
    while k:
        low = (1 << k) - 1
        if all(not (b[inner] & low) for b in ll.reg[k:] + ll.lane + ll.warp):
            break
        k -= 1
    return 1 << k


def vector_starts(ll: LinearLayout, v: int) -> tuple[int, ...]:
    """The first registers of the v-wide accesses covering `ll`'s distinct registers."""
    return tuple(r for r in ll.unique_regs if r % v == 0)


class _IntOps:
    """`byte_offset`'s arithmetic on Python ints (or NumPy integer arrays)."""

    @staticmethod
    def shl(x, k):
        return x << k

    @staticmethod
    def lshr(x, k):
        return x >> k

    @staticmethod
    def and_(x, m):
        return x & m

    @staticmethod
    def or_(x, y):
        return x | y

    @staticmethod
    def xor(x, y):
        return x ^ y

    @staticmethod
    def mul(x, k):
        return x * k

    @staticmethod
    def sub(x, y):
        return x - y

    @staticmethod
    def add(x, y):
        return x + y


INT = _IntOps()


@dataclass(frozen=True)
class Ldmatrix:
    """Destination registers read by `ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16` (PTX ISA): each of the
    32 lanes passes the address of one 16-byte row, lane L row L % 8 of matrix L // 8; then thread l holds, in
    its 32-bit register j, matrix j's row l // 4, elements 2 (l % 4) and 2 (l % 4) + 1 (with .trans: column
    l // 4, rows 2 (l % 4) and 2 (l % 4) + 1), the lower one in the low half.

    The load at `g` fills destination registers g .. g + 7, register g + 2j + e from word j's half e. Lane L
    passes the byte offset of the element `rows.apply(g, L, warp)`: register bits 1-2 pick the matrix, and the
    destination's lane bits 2-4 (or, transposed, its register bit 0 and lane bits 0-1) the row. For 8-bit (32-bit)
    elements, untransposed, `per_word` is 4 (1): the load fills registers g .. g + 4 per_word - 1, register
    g + per_word j + e from byte group e of word j, and register bits log2(per_word) .. + 1 pick the matrix (the
    rows are 16 bytes all the same; mma.sync's s8/fp8 and tf32 fragments are laid out so)."""
    trans: bool
    groups: tuple[int, ...]
    rows: LinearLayout
    per_word: int = 2


@dataclass(frozen=True)
class BufferLayout:
    """Where each element of a tensor lives in a shared-memory buffer (the formula in the module docstring):
    an exchange's scratch buffer, or a `ttg.local_alloc` (`swizzled_buffer`)."""
    shape: tuple[int, ...]     # the tensor's shape (the buffer's coordinates)
    inner: int                 # the buffer's innermost dimension
    elem_bytes: int
    unit: int                  # swizzle (and alignment) unit, in elements
    row_elems: int             # row stride in elements: shape[inner] + padding
    per_phase_log: int
    max_phase: int             # 1: no swizzle

    @property
    def outer(self) -> tuple[int, ...]:
        return tuple(d for d in range(len(self.shape)) if d != self.inner)

    @property
    def rows(self) -> int:
        n = 1
        for d in self.outer:
            n *= self.shape[d]
        return n

    @property
    def nbytes(self) -> int:
        return self.rows * self.row_elems * self.elem_bytes

    def row_index(self, c, ops=INT):
        """The row of the element at coordinates `c`; None when the buffer has one row."""
        row = None
        for d in self.outer:
            if self.shape[d] == 1:
                continue
            row = c[d] if row is None else ops.or_(ops.shl(row, _log2(self.shape[d])), c[d])
        return row

    def byte_offset(self, c, ops=INT):
        """The byte offset of the element at coordinates `c` (ints, arrays, or LLVM values with `IROps`)."""
        row = self.row_index(c, ops)
        col = c[self.inner]
        if row is None:
            return ops.shl(col, _log2(self.elem_bytes))
        if self.max_phase > 1:
            phase = ops.and_(ops.lshr(row, self.per_phase_log) if self.per_phase_log else row, self.max_phase - 1)
            col = ops.xor(col, ops.shl(phase, _log2(self.unit)) if self.unit > 1 else phase)
        if self.row_elems & (self.row_elems - 1) == 0:
            elem = ops.or_(ops.shl(row, _log2(self.row_elems)), col)
        else:
            elem = ops.add(ops.mul(row, self.row_elems), col)
        return ops.shl(elem, _log2(self.elem_bytes))


@dataclass(frozen=True)
class ExchangePlan(BufferLayout):
    store_vec: int             # elements per store
    load_vec: int              # elements per load
    stores: tuple[int, ...]    # first source registers of the stores
    loads: tuple[int, ...]     # first destination registers of the loads
    ldmatrix: Ldmatrix | None = None  # instead of `loads`


def swizzled_buffer(shape, order, elem_bytes: int, vec: int, per_phase: int, max_phase: int) -> BufferLayout:
    """The buffer of a `#ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>` tensor: `order[0]` innermost,
    16-byte-aligned `vec`-element blocks XOR-swizzled by the row's phase (the phase limited to the blocks a row
    has)."""
    inner = order[0]
    n = shape[inner]
    unit = max(1, min(vec, n))
    phases = max(1, min(max_phase, n // unit))
    if len(shape) == 1 or phases == 1 or per_phase < 1:
        phases = 1
    return BufferLayout(tuple(shape), inner, elem_bytes, unit, n, _log2(max(per_phase, 1)), phases)


def _thread_coords(ll: LinearLayout) -> np.ndarray:
    """[warp, lane, dim]: the thread-dependent part of every thread's coordinates."""
    import numpy as np
    out = np.zeros((ll.num_warps, ll.num_lanes, ll.rank), dtype=np.int32)
    for ids, bases, axis in ((np.arange(ll.num_lanes), ll.lane, 1), (np.arange(ll.num_warps), ll.warp, 0)):
        for i, basis in enumerate(bases):
            bit = ((ids >> i) & 1)[:, None] * np.array(basis, dtype=np.int32)
            out ^= bit[None, :, :] if axis == 1 else bit[:, None, :]
    return out


def _dims(c: np.ndarray) -> list[np.ndarray]:
    """Coordinates [..., dim] as `byte_offset` takes them: one array per dimension."""
    return [c[..., d] for d in range(c.shape[-1])]


def _candidates(layouts) -> np.ndarray:
    """[candidate, 5]: each (unit, row_elems, per_phase_log, max_phase) and log2 of its unit."""
    import numpy as np
    return np.array([(u, n, s, m, _log2(u)) for u, n, s, m in layouts], dtype=np.int32).reshape(-1, 5)


def _offsets_each(buf: BufferLayout, cands: np.ndarray, c) -> np.ndarray:
    """`buf.byte_offset(c)` (per-dimension integer arrays) for each candidate buffer of `cands` (`_candidates`:
    `buf` with other unit, row_elems, per_phase_log, max_phase): [candidate, *c's shape]."""
    import numpy as np
    unit, row_elems, shift, mp, unit_log = (cands[:, i].reshape((-1,) + (1,) * c[0].ndim) for i in range(5))
    row, col = buf.row_index(c), c[buf.inner]
    if row is None:
        return np.broadcast_to(col << _log2(buf.elem_bytes), (len(cands),) + col.shape)
    col = col ^ (((row >> shift) & (mp - 1)) << unit_log)
    return (row * row_elems + col) << _log2(buf.elem_bytes)  # col < row_elems: the same as byte_offset's OR


class _LdmatrixFit:
    """`ldmatrix_loads` for destination `dst` (of `elem_bytes` elements), its buffer-independent part computed
    once: where every thread's registers are, and the lanes' row coordinates of both ldmatrix forms (`fit_each`
    then evaluates byte offsets, for many candidate buffers at once)."""

    def __init__(self, dst: LinearLayout, elem_bytes: int, wide: bool = False):
        import numpy as np
        # p elements per 32-bit word: the first log2(p) register bases run within a word, the next two pick the
        # matrix; 8-bit and 32-bit elements (`wide`: the MMA operands of local_load) use the untransposed form
        # only (.trans moves 16-bit elements)
        p = 4 // elem_bytes if elem_bytes in ((1, 2, 4) if wide else (2,)) else 0
        lp = p.bit_length() - 1
        self.ok = (p > 0 and dst.num_lanes == 32 and len(dst.reg) >= lp + 2
                   and all(any(b) for b in dst.reg[:lp + 2]))
        if not self.ok:
            return
        n = 4 * p  # registers per ldmatrix.x4
        groups = tuple(g for g in dst.unique_regs if g % n == 0)
        self.ok = set(dst.unique_regs) == {g + i for g in groups for i in range(n)}
        if not self.ok:
            return
        self.groups = groups
        regs = np.array(dst.reg_coords, dtype=np.int32)                                # [reg, dim]
        first = regs[list(groups)]                                                     # [group, dim]
        want = regs[np.add.outer(groups, np.arange(n))][:, None, :, None, :] ^ _thread_coords(dst)[None, :, None]
        self.want = _dims(want)                                                        # [group, warp, p j + e, lane]
        self.forms = []
        l = np.arange(32)
        j, e = np.arange(4)[:, None, None], np.arange(p)[None, :, None]
        for trans in (False, True) if p == 2 else (False,):
            row_lanes = (dst.reg[0], dst.lane[0], dst.lane[1]) if trans else dst.lane[2:5]
            rows = LinearLayout(dst.shape, dst.reg, tuple(row_lanes) + dst.reg[lp:lp + 2], dst.warp)
            c = first[:, None, None, :] ^ _thread_coords(rows)[None]                    # [group, warp, lane L, dim]
            if trans:   # register j, half e of lane l: matrix j, row 2 (l % 4) + e, column l // 4
                lane, off = 8 * j + 2 * (l & 3) + e, 2 * (l >> 2)
            else:       # matrix j, row l // 4, bytes 4 (l % 4) + elem_bytes * e
                lane, off = 8 * j + (l >> 2), 4 * (l & 3) + elem_bytes * e
            lane, off = (np.broadcast_to(x, (4, p, 32)).reshape(n, 32) for x in (lane, off))
            self.forms.append((Ldmatrix(trans, groups, rows, p), _dims(c), lane, off))

    def fit_each(self, buf: BufferLayout, cands: np.ndarray) -> list:
        """Per candidate buffer (`_offsets_each`): the loads, and their rows' byte offsets in warp 0
        [group, lane]; None where ldmatrix does not fit."""
        import numpy as np
        out = [None] * len(cands)
        if not self.ok:
            return out
        for ldm, c, lane, off in self.forms:
            row = _offsets_each(buf, cands, c)                                        # [cand, group, warp, lane L]
            todo = np.flatnonzero(np.array([f is None for f in out]) & ~(row % 16).reshape(len(cands), -1).any(1))
            if len(todo):
                got = row[todo][..., lane] + off                                      # [cand, group, warp, 2j + e, lane]
                fits = (got == _offsets_each(buf, cands[todo], self.want)).reshape(len(todo), -1).all(1)
                for i in todo[fits]:
                    out[i] = (ldm, row[i, :, 0, :])
        return out


def ldmatrix_loads(plan: BufferLayout, dst: LinearLayout) -> Ldmatrix | None:
    """`dst`'s registers as ldmatrix.x4 loads from `plan`'s buffer, when every thread would get exactly the
    elements its registers need (checked for every lane and warp); None otherwise. 8- and 32-bit elements too
    (mma.sync's s8/fp8 and tf32 operands; layout exchanges use ldmatrix for 16-bit elements only)."""
    found = _LdmatrixFit(dst, plan.elem_bytes, wide=True).fit_each(plan, _candidates([(plan.unit, plan.row_elems, plan.per_phase_log,
                                                             plan.max_phase)]))[0]
    return found[0] if found else None


def _wavefronts(addr, width: int) -> int:
    """Shared-memory wavefronts of accesses `addr` [access, lane] of `width` bytes each: per access and phase
    (the lanes served together), the most distinct 4-byte words any one of the 32 banks holds."""
    import numpy as np
    a = np.asarray(addr, dtype=np.int64)
    return int(_wavefronts_each(a[None], width)[0]) if a.size else 0


def _wavefronts_each(a: np.ndarray, width: int) -> np.ndarray:
    """`_wavefronts` of each candidate's accesses a [candidate, access, lane], at once."""
    import numpy as np
    first, last = a // 4, (a + width - 1) // 4
    words = np.minimum(first[..., None] + np.arange(int((last - first).max()) + 1), last[..., None])
    n_cand, n_acc, n_lanes, span = words.shape
    per_phase = min(n_lanes, max(1, 32 // max(1, width // 4)))
    if n_lanes % per_phase:  # the last phase is short: repeat its last lane (the same words again)
        words = np.pad(words, ((0, 0), (0, 0), (0, per_phase - n_lanes % per_phase), (0, 0)), mode="edge")
    key = np.sort(((words & 31) << 26 | words >> 5).reshape(-1, per_phase * span), axis=1)  # per phase: bank, word
    new = np.ones(key.shape, dtype=bool)
    new[:, 1:] = key[:, 1:] != key[:, :-1]                                                 # distinct words
    slot = (np.arange(len(key))[:, None] << 5) | (key >> 26)                               # (phase, bank)
    per_bank = np.bincount(slot[new], minlength=len(key) << 5).reshape(len(key), 32)
    return per_bank.max(axis=1).reshape(n_cand, -1).sum(axis=1)


def _access_costs(buf: BufferLayout, cands: np.ndarray, ll: LinearLayout, starts, width: int) -> np.ndarray:
    """Per candidate buffer: the wavefronts of the `width`-byte accesses at registers `starts` of `ll` in warp
    0, plus their number. Where the buffer's offsets are linear over GF(2) (row_elems a power of two), an
    access's address in lane l is L[l] ^ K (the lane's part, the register's part); when both are aligned to the
    (power-of-two) width, its words are those of L XOR K / 4, which permutes the banks and keeps distinct words
    distinct: every access costs what L does, and only the others are evaluated access by access."""
    import numpy as np
    lanes = _thread_coords(ll)[0]                                                     # [lane, dim]
    regs = np.array([ll.reg_coords[r] for r in starts], dtype=np.int32).reshape(len(starts), ll.rank)
    lane_part, reg_part = _offsets_each(buf, cands, _dims(lanes)), _offsets_each(buf, cands, _dims(regs))
    pow2 = (cands[:, 1] & (cands[:, 1] - 1)) == 0
    linear = pow2 & ((width & (width - 1)) == 0) & ~(lane_part % width).any(1) & ~(reg_part % width).any(1)
    cost = np.empty(len(cands), dtype=np.int64)
    if linear.any():
        cost[linear] = _wavefronts_each(lane_part[linear][:, None, :], width) * len(starts)
    if not linear.all():
        addr = _offsets_each(buf, cands[~linear], _dims(regs[:, None, :] ^ lanes[None, :, :]))
        cost[~linear] = _wavefronts_each(addr, width)
    return cost + len(starts)


@lru_cache(maxsize=256)
def exchange_plan(src: LinearLayout, dst: LinearLayout, elem_bytes: int) -> ExchangePlan:
    """The plan of an exchange from `src` to `dst`; `dst`'s coordinates are the source's (its bases mapped to
    the source tensor's coordinates: zero bases where it broadcasts)."""
    import numpy as np
    rank = len(src.shape)
    max_elems = max(1, MAX_VECTOR_BYTES // elem_bytes)
    best = None
    dims = [d for d in range(rank) if src.shape[d] > 1] or [rank - 1]
    ldm_fit = _LdmatrixFit(dst, elem_bytes)
    for inner in dims:
        n = src.shape[inner]
        vs = vector_width(src, inner, min(max_elems, n))
        vl = vector_width(dst, inner, min(max_elems, n))
        stores, loads = vector_starts(src, vs), vector_starts(dst, vl)
        rows = 1
        for d in range(rank):
            if d != inner:
                rows *= src.shape[d]
        units = {max(vs, vl)}
        if elem_bytes == 2 and len(dst.reg) >= 3 and n >= 8:
            units.add(max(vs, vl, 8))   # 16-byte blocks: ldmatrix's rows stay whole under the swizzle
        layouts = []
        for unit in sorted(units):
            layouts.append((unit, n, 0, 1))
            if rows > 1:
                for pad in sorted({unit, max(1, 4 // elem_bytes)}):
                    if pad % unit == 0:
                        layouts.append((unit, n + pad, 0, 1))
                mp = 2
                while mp <= min(n // unit, 32):
                    for shift in range(_log2(rows)):
                        layouts.append((unit, n, shift, mp))
                    mp *= 2
        base = ExchangePlan(tuple(src.shape), inner, elem_bytes, vs, n, 0, 1, vs, vl, stores, loads)
        cands = _candidates(layouts)
        store_cost = _access_costs(base, cands, src, stores, vs * elem_bytes)
        load_cost = _access_costs(base, cands, dst, loads, vl * elem_bytes)
        fits = ldm_fit.fit_each(base, cands)
        rows_ldm = [f[1] for f in fits if f is not None]
        ldm_cost = iter(_wavefronts_each(np.stack(rows_ldm), 16) + len(ldm_fit.groups) if rows_ldm else ())
        for (unit, row_elems, shift, mp), sc, lc, found in zip(layouts, store_cost, load_cost, fits):
            plan = replace(base, unit=unit, row_elems=row_elems, per_phase_log=shift, max_phase=mp,
                           ldmatrix=found[0] if found else None)
            cost = int(sc) + int(next(ldm_cost) if found else lc)
            key = (cost, plan.nbytes, inner != rank - 1, mp, row_elems, shift, unit)
            if best is None or key < best[0]:
                best = (key, plan)
    return best[1]


def plan_cost(plan: ExchangePlan, src: LinearLayout, dst: LinearLayout) -> int:
    """What `exchange_plan` minimized for `plan`: warp 0's wavefronts plus the number of accesses, both sides."""
    cands = _candidates([(plan.unit, plan.row_elems, plan.per_phase_log, plan.max_phase)])
    cost = int(_access_costs(plan, cands, src, plan.stores, plan.store_vec * plan.elem_bytes)[0])
    ldm = plan.ldmatrix
    if ldm is None:
        return cost + int(_access_costs(plan, cands, dst, plan.loads, plan.load_vec * plan.elem_bytes)[0])
    rows = [[plan.byte_offset(list(ldm.rows.apply(g, L, 0))) for L in range(32)] for g in ldm.groups]
    return cost + _wavefronts(rows, 16) + len(ldm.groups)


def mapped_layout(dst: LinearLayout, shape, f) -> LinearLayout:
    """`dst` with its bases mapped by `f` (destination coordinates -> source coordinates, linear over GF(2) in
    the coordinates' bits: a permutation, projection, dimension insertion or removal, power-of-two reshape) into a
    layout over the source tensor of `shape`."""
    def m(bases):
        return tuple(tuple(f(b)) for b in bases)

    return LinearLayout(tuple(shape), m(dst.reg), m(dst.lane), m(dst.warp))
