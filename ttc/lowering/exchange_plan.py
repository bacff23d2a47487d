"""The shared-memory plan of a layout exchange (`convert.exchange`): where each element lives in the buffer, and
which vector accesses every thread issues to write the source layout's registers and read the destination's.

Pure Python (no NumPy: importing it took longer than planning a kernel's exchanges), so that the lowering and the
unit tests use the same decisions: the lowering builds LLVM IR from `ExchangePlan.byte_offset` with `IROps`, the
tests evaluate the same function on integers (`INT`) for every thread and check that the exchange is a correct
permutation (test/unit/test_exchange_plan.py).

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
construction). At most 16 bytes per access, and loads of 1-byte elements no wider than the stores or two bytes
(`BYTE_LOAD_ELEMS`).

16-bit destinations whose registers form whole 8x8 matrices of 16-byte buffer rows are read with
`ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16` (mma.sync's operands: `Ldmatrix`), one instruction where
vector loads would take 4 to 16; the plan proves it by evaluating, for every thread, where each of its registers
would come from. For them the candidates include swizzles of 16-byte units (whole ldmatrix rows), wider than
the vectors.

The plan is chosen among candidates (each dimension as `inner`; no padding, padding by one unit or by one
4-byte bank, XOR swizzles; the unit is the widest vector, or 16 bytes) by a bank-conflict model of warp 0 (shared memory wavefronts: 32 banks of 4 bytes,
an access of 8 (16) bytes per thread served in 2 (4) phases of 16 (8) threads) plus the instruction count (with
the unpacking of byte loads that LLVM merges into words: `merged_byte_loads`); the choice affects speed only,
the checks above make every candidate correct. Scoring evaluates few points: the
(row, column) of each coordinate is computed once per `inner` and each candidate's offsets from it (`_offsets`);
where a candidate's offsets are linear (over GF(2) without padding, over the integers unswizzled), one access's
lanes stand for all accesses (`_access_costs`) and ldmatrix's every-thread check reduces to basis vectors
(`_LdmatrixFit`); elsewhere every thread and register is evaluated (`_CHECK_ALL` forces that everywhere, and
test/unit/test_exchange_plan.py checks that both choose the same plans).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from ttc.ir.linear_layout import LinearLayout

MAX_VECTOR_BYTES = 16
# 1-byte elements an exchange loads at once beyond those both sides hold together (the common vector, which the
# stores write at once too): ld.shared.v2.b8 fills two registers; a wider load of bytes fills 32-bit words that
# take a prmt per byte to unpack (as many instructions as loading the bytes one by one) and stay live beside the
# bytes unpacked from them
BYTE_LOAD_ELEMS = 2


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


def _span(bases, rank: int) -> list[tuple[int, ...]]:
    """The coordinates of every index 0 .. 2^len(bases) - 1: the XOR of the bases of its set bits."""
    out = [(0,) * rank]
    for b in bases:
        out += [tuple(x ^ y for x, y in zip(c, b)) for c in out]
    return out


@lru_cache(maxsize=64)
def _thread_coords(ll: LinearLayout) -> list[list[tuple[int, ...]]]:
    """[warp][lane]: the thread-dependent part of every thread's coordinates (not to be modified: cached)."""
    lanes = _span(ll.lane, ll.rank)
    return [[tuple(x ^ y for x, y in zip(w, c)) for c in lanes] for w in _span(ll.warp, ll.rank)]


def _row_col(buf: BufferLayout, coords) -> list[tuple[int, int]]:
    """(row, column) of each coordinate tuple in `buf` (row 0 where the buffer has one row: `byte_offset` is the
    column's there, and so is `_offsets`')."""
    dims = [(d, _log2(buf.shape[d])) for d in buf.outer if buf.shape[d] > 1]
    out = []
    for c in coords:
        row = 0
        for d, k in dims:
            row = (row << k) | c[d]
        out.append((row, c[buf.inner]))
    return out


def _offsets(buf: BufferLayout, cand, points) -> list[int]:
    """`buf.byte_offset` of each (row, column) of `points` (`_row_col`) in the candidate buffer `cand`: `buf` with
    (unit, row_elems, per_phase_log, max_phase) = cand."""
    unit, row_elems, shift, mp = cand
    e = _log2(buf.elem_bytes)
    if mp == 1:
        return [(r * row_elems + c) << e for r, c in points]
    m, u = mp - 1, _log2(unit)
    return [(r * row_elems + (c ^ (((r >> shift) & m) << u))) << e for r, c in points]


def _gf2_linear(buf: BufferLayout, cand) -> bool:
    """Whether the candidate's byte offsets are linear over GF(2) in the coordinates' bits: rows of a power-of-two
    length that every (swizzled) column stays below, so that `row * row_elems + col` is `row << k | col`."""
    unit, row_elems, shift, mp = cand
    return row_elems & (row_elems - 1) == 0 and buf.shape[buf.inner] <= row_elems and (mp - 1) * unit < row_elems


def _single_bits(indices) -> list[int] | None:
    """The single-bit members of `indices` (register numbers) when `indices` is exactly every sum of them, else
    None: a linear function of the index bits then holds on all of `indices` iff it holds on those."""
    bits = [i for i in indices if i and not i & (i - 1)]
    mask = sum(bits)
    return bits if len(indices) == 1 << len(bits) and all(not i & ~mask for i in indices) else None


def _disjoint(bases) -> bool:
    """Whether no two of the coordinate vectors share a set bit in any dimension: then their XORs are sums, and
    an unswizzled buffer's offsets (row * row_elems + col) are sums of theirs."""
    for d in range(len(bases[0]) if bases else 0):
        seen = 0
        for b in bases:
            if seen & b[d]:
                return False
            seen |= b[d]
    return True


# Evaluate every candidate at every thread and register (the definition) rather than on basis vectors where
# linearity allows; test/unit/test_exchange_plan.py sets it to check that both choose the same plans.
_CHECK_ALL = False


class _LdmatrixFit:
    """`ldmatrix_loads` for destination `dst` (of `elem_bytes` elements), its buffer-independent part computed
    once: the lanes' row coordinates of both ldmatrix forms, and which lane and byte of a row each thread's
    registers come from (`fit_each` then checks candidate buffers).

    The check is that for every group g, warp w, register k = p j + e and lane l, the byte offset of the row that
    lane L(j, l) passes plus the byte `off(j, e, l)` within it equals the offset of register g + k of thread
    (l, w), with every row 16-byte aligned. Both sides are functions of the bits of (g, w, k, l) (of (g, w, L) for
    the alignment), linear over GF(2) where the buffer's offsets are (`_gf2_linear`; the aligned row plus an
    in-row byte is then an XOR), or over the integers where the buffer is unswizzled and every basis vector
    involved has its own bits (`_disjoint`). Two linear functions agree everywhere iff they agree on each basis
    vector, so then only those are evaluated; otherwise every (g, w, k, l) is."""

    def __init__(self, dst: LinearLayout, elem_bytes: int, wide: bool = False):
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
        self.dst, self.groups, self.n = dst, groups, n
        group_bits = _single_bits(groups)
        spanned = group_bits is not None
        group_bases = [dst.reg_coords[g] for g in group_bits or ()]
        want_bases = group_bases + list(dst.reg[:n.bit_length() - 1]) + list(dst.lane) + list(dst.warp)
        self.forms = []
        for trans in (False, True) if p == 2 else (False,):
            row_lanes = (dst.reg[0], dst.lane[0], dst.lane[1]) if trans else dst.lane[2:5]
            rows = LinearLayout(dst.shape, dst.reg, tuple(row_lanes) + dst.reg[lp:lp + 2], dst.warp)
            lane, off = [], []  # [k][l]: the lane whose row register k of thread l comes from, its byte there
            for j in range(4):
                for e in range(p):
                    if trans:   # register j, half e of lane l: matrix j, row 2 (l % 4) + e, column l // 4
                        lane.append([8 * j + 2 * (l & 3) + e for l in range(32)])
                        off.append([2 * (l >> 2) for l in range(32)])
                    else:       # matrix j, row l // 4, bytes 4 (l % 4) + elem_bytes * e
                        lane.append([8 * j + (l >> 2) for l in range(32)])
                        off.append([4 * (l & 3) + elem_bytes * e for l in range(32)])
            row_coords = _span(rows.lane, dst.rank)  # [L] in warp 0, group 0
            row_bases = group_bases + list(rows.lane) + list(rows.warp)
            # the basis vectors of (k, l) (those of g and w give the same coordinates on both sides): the row's
            # coordinates and in-row byte, and the register's coordinates
            basis = [(row_coords[lane[1 << t][0]], off[1 << t][0], dst.reg[t]) for t in range(n.bit_length() - 1)]
            basis += [(row_coords[lane[0][1 << t]], off[0][1 << t], dst.lane[t]) for t in range(5)]
            self.forms.append((Ldmatrix(trans, groups, rows, p), rows, lane, off, row_bases, basis,
                               spanned and _disjoint(row_bases) and _disjoint(want_bases)))
        self.spanned = spanned

    def _fits_on_bases(self, buf, cand, row_bases, basis) -> bool:
        if any(a % 16 for a in _offsets(buf, cand, _row_col(buf, row_bases))):
            return False
        got = _offsets(buf, cand, _row_col(buf, [b[0] for b in basis]))
        want = _offsets(buf, cand, _row_col(buf, [b[2] for b in basis]))
        return all(g + b[1] == w for g, b, w in zip(got, basis, want))

    def _fits_everywhere(self, buf, cand, rows, lane, off) -> bool:
        dst, regs = self.dst, self.dst.reg_coords
        row_tc, tc = _thread_coords(rows), _thread_coords(dst)
        for g in self.groups:
            first = regs[g]
            for w in range(dst.num_warps):
                row = _offsets(buf, cand, _row_col(buf, [tuple(x ^ y for x, y in zip(first, c)) for c in row_tc[w]]))
                if any(a % 16 for a in row):
                    return False
        for g in self.groups:
            first = regs[g]
            for w in range(dst.num_warps):
                row = _offsets(buf, cand, _row_col(buf, [tuple(x ^ y for x, y in zip(first, c)) for c in row_tc[w]]))
                for k in range(self.n):
                    reg = regs[g + k]
                    want = _offsets(buf, cand, _row_col(buf, [tuple(x ^ y for x, y in zip(reg, c)) for c in tc[w]]))
                    if any(row[L] + o != a for L, o, a in zip(lane[k], off[k], want)):
                        return False
        return True

    def fit_each(self, buf: BufferLayout, cands) -> list:
        """Per candidate buffer (`_offsets`' (unit, row_elems, per_phase_log, max_phase)): the loads, and their
        rows' byte offsets in warp 0 [group][lane]; None where ldmatrix does not fit."""
        out = [None] * len(cands)
        if not self.ok:
            return out
        regs = self.dst.reg_coords
        for i, cand in enumerate(cands):
            for ldm, rows, lane, off, row_bases, basis, disjoint in self.forms:
                linear = self.spanned and (_gf2_linear(buf, cand) or (disjoint and cand[3] == 1))
                if (self._fits_on_bases(buf, cand, row_bases, basis) if linear and not _CHECK_ALL
                        else self._fits_everywhere(buf, cand, rows, lane, off)):
                    row_tc = _span(rows.lane, rows.rank)
                    out[i] = (ldm, [_offsets(buf, cand, _row_col(buf, [tuple(x ^ y for x, y in zip(regs[g], c))
                                                                       for c in row_tc])) for g in self.groups])
                    break
        return out


def ldmatrix_loads(plan: BufferLayout, dst: LinearLayout) -> Ldmatrix | None:
    """`dst`'s registers as ldmatrix.x4 loads from `plan`'s buffer, when every thread would get exactly the
    elements its registers need (checked for every lane and warp); None otherwise. 8- and 32-bit elements too
    (mma.sync's s8/fp8 and tf32 operands; this module's exchanges use ldmatrix for 16-bit elements only)."""
    cand = (plan.unit, plan.row_elems, plan.per_phase_log, plan.max_phase)
    found = _LdmatrixFit(dst, plan.elem_bytes, wide=True).fit_each(plan, [cand])[0]
    return found[0] if found else None


def _wavefronts(addr, width: int) -> int:
    """Shared-memory wavefronts of accesses `addr` [access][lane] of `width` bytes each: per access and phase
    (the lanes served together), the most distinct 4-byte words any one of the 32 banks holds."""
    total = 0
    for lanes in addr:
        per_phase = min(len(lanes), max(1, 32 // max(1, width // 4)))
        for s in range(0, len(lanes), per_phase):
            words = {w for a in lanes[s:s + per_phase] for w in range(a >> 2, (a + width + 3) >> 2)}
            if len({w & 31 for w in words}) == len(words):
                total += 1
                continue
            counts = [0] * 32
            for w in words:
                counts[w & 31] += 1
            total += max(counts)
    return total


def merged_byte_loads(offsets, width: int) -> int:
    """The instructions that a thread's loads of `width` 1-byte elements at byte `offsets` gain from LLVM's
    load-store vectorizer: several loads of an aligned 4-byte word holding more than `BYTE_LOAD_ELEMS` of their
    bytes become one word load and a prmt per byte (what `BYTE_LOAD_ELEMS` is there to avoid)."""
    words: dict[int, int] = {}
    for o in offsets:
        words[o >> 2] = words.get(o >> 2, 0) + 1
    return sum(1 + n * width - n for n in words.values() if n > 1 and n * width > BYTE_LOAD_ELEMS)


def _access_costs(buf: BufferLayout, cands, ll: LinearLayout, starts, width: int) -> list[int]:
    """Per candidate buffer: the wavefronts of the `width`-byte accesses at registers `starts` of `ll` in warp
    0, plus their number. An access's address in lane l combines L[l] (the lane's part) and K (the register's).
    Where the buffer's offsets are linear over GF(2) (row_elems a power of two) it is L[l] ^ K, and when both are
    aligned to the (power-of-two) width its words are those of L XOR K / 4, which permutes the banks and keeps
    distinct words distinct: every access costs what L does. Where the buffer is unswizzled and no lane shares a
    coordinate bit with a register (XOR is then a sum) it is L[l] + K, whose words are those of L + K % 4 shifted
    by K // 4, which rotates the banks: an access costs what L + K % 4 does. Only other candidates are evaluated
    access by access."""
    lanes = _thread_coords(ll)[0]
    regs = [ll.reg_coords[r] for r in starts]
    lane_pts, reg_pts, every = _row_col(buf, lanes), _row_col(buf, regs), None
    bits = _single_bits(starts)  # GF(2)-linear offsets are aligned on all of `starts` iff on these
    reg_basis = reg_pts if bits is None else _row_col(buf, [ll.reg_coords[r] for r in bits])
    lane_bits, reg_bits = [0] * ll.rank, [0] * ll.rank
    for c in lanes:
        lane_bits = [x | y for x, y in zip(lane_bits, c)]
    for c in regs:
        reg_bits = [x | y for x, y in zip(reg_bits, c)]
    sums = not any(x & y for x, y in zip(lane_bits, reg_bits))
    seen = {}  # (lane addresses, K % 4) -> their wavefronts: many candidates agree on warp 0's lanes

    def lane_cost(lane_part, k):
        key = (tuple(lane_part), k)
        if key not in seen:
            seen[key] = _wavefronts([[a + k for a in lane_part]], width)
        return seen[key]

    out = []
    for cand in cands:
        lane_part = _offsets(buf, cand, lane_pts)
        if _CHECK_ALL:
            cost = None
        elif width & (width - 1) == 0 and cand[1] & (cand[1] - 1) == 0 and not any(a % width for a in lane_part) \
                and not any(a % width for a in _offsets(buf, cand, reg_basis)):
            cost = lane_cost(lane_part, 0) * len(starts)
        elif sums and cand[3] == 1:
            residues = [0] * 4
            for k in _offsets(buf, cand, reg_pts):
                residues[k & 3] += 1
            cost = sum(n * lane_cost(lane_part, k) for k, n in enumerate(residues) if n)
        else:
            cost = None
        if cost is None:
            if every is None:
                every = _row_col(buf, [tuple(x ^ y for x, y in zip(r, c)) for r in regs for c in lanes])
            addr = _offsets(buf, cand, every)
            cost = _wavefronts([addr[i:i + len(lanes)] for i in range(0, len(addr), len(lanes))], width)
        out.append(cost + len(starts))
    return out


@lru_cache(maxsize=256)
def exchange_plan(src: LinearLayout, dst: LinearLayout, elem_bytes: int) -> ExchangePlan:
    """The plan of an exchange from `src` to `dst`; `dst`'s coordinates are the source's (its bases mapped to
    the source tensor's coordinates: zero bases where it broadcasts)."""
    rank = len(src.shape)
    max_elems = max(1, MAX_VECTOR_BYTES // elem_bytes)
    best = None
    dims = [d for d in range(rank) if src.shape[d] > 1] or [rank - 1]
    ldm_fit = _LdmatrixFit(dst, elem_bytes)
    for inner in dims:
        n = src.shape[inner]
        vs = vector_width(src, inner, min(max_elems, n))
        vl = vector_width(dst, inner, min(max_elems if elem_bytes > 1 else max(vs, BYTE_LOAD_ELEMS), n))
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
        store_cost = _access_costs(base, layouts, src, stores, vs * elem_bytes)
        load_cost = _access_costs(base, layouts, dst, loads, vl * elem_bytes)
        fits = ldm_fit.fit_each(base, layouts)
        if elem_bytes == 1:
            firsts = _row_col(base, [dst.reg_coords[r] for r in loads])
            load_cost = [c + merged_byte_loads(_offsets(base, cand, firsts), vl) for c, cand in zip(load_cost, layouts)]
        for (unit, row_elems, shift, mp), sc, lc, found in zip(layouts, store_cost, load_cost, fits):
            cost = sc + (_wavefronts(found[1], 16) + len(ldm_fit.groups) if found else lc)
            key = (cost, rows * row_elems * elem_bytes, inner != rank - 1, mp, row_elems, shift, unit)
            if best is None or key < best[0]:
                best = (key, replace(base, unit=unit, row_elems=row_elems, per_phase_log=shift, max_phase=mp,
                                     ldmatrix=found[0] if found else None))
    return best[1]


def plan_cost(plan: ExchangePlan, src: LinearLayout, dst: LinearLayout) -> int:
    """What `exchange_plan` minimized for `plan`: warp 0's wavefronts plus the number of accesses, both sides."""
    cands = [(plan.unit, plan.row_elems, plan.per_phase_log, plan.max_phase)]
    cost = _access_costs(plan, cands, src, plan.stores, plan.store_vec * plan.elem_bytes)[0]
    ldm = plan.ldmatrix
    if ldm is None:
        cost += _access_costs(plan, cands, dst, plan.loads, plan.load_vec * plan.elem_bytes)[0]
        if plan.elem_bytes == 1:
            cost += merged_byte_loads([plan.byte_offset(dst.reg_coords[r]) for r in plan.loads], plan.load_vec)
        return cost
    rows = [[plan.byte_offset(list(ldm.rows.apply(g, L, 0))) for L in range(32)] for g in ldm.groups]
    return cost + _wavefronts(rows, 16) + len(ldm.groups)


def mapped_layout(dst: LinearLayout, shape, f) -> LinearLayout:
    """`dst` with its bases mapped by `f` (destination coordinates -> source coordinates, linear over GF(2) in
    the coordinates' bits: a permutation, projection, dimension insertion or removal, power-of-two reshape) into a
    layout over the source tensor of `shape`."""
    def m(bases):
        return tuple(tuple(f(b)) for b in bases)

    return LinearLayout(tuple(shape), m(dst.reg), m(dst.lane), m(dst.warp))
