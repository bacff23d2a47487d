"""Layout exchanges through a shared-memory buffer whose layout is linear over GF(2): which buffer, which
instructions (`convert.exchange` lowers what `linear_exchange` plans).

A tensor of 2^n elements is indexed by its flattened coordinate (row-major: the last dimension's bits lowest),
an n-bit vector. The buffer is a basis `bases` of that space: element offset bit k holds coordinate vector
`bases[k]`, so the element at coordinate x lives at offset `inverse(x)`, the XOR of the offsets of x's bits.
Every distributed layout is linear too (`LinearLayout`), so a thread's access at register constant c sits at

    inverse(thread part) ^ inverse(c)

one per-thread base (from the lane and warp id bits, computed once per side) XOR a constant per instruction;
the constant's bits that the base never has are added (an immediate of the ld/st), the others XORed.

Each side issues one kind of instruction, every thread the same ones:
- `vec`: `ld/st.shared` of 2^k elements (at most 16 bytes; next to `vec` stores, loads of 1-byte elements no
  wider than the registers both sides share or 2 bytes, `ld.shared.v2.b8`: a wider load of bytes is unpacked by
  a prmt per byte) whose registers differ in k register bases that are the buffer's offset bits 0..k-1 (any
  register bases, not only the first ones);
- `ldmatrix` / `stmatrix` (`.x4`, `.b16`; stmatrix from sm_90), as Triton's ldstmatrix tiles: the buffer's
  first offset bits are the register bases of a 32-bit word's elements (one for 16-bit elements, any register;
  two for 8-bit ones; none for 32-bit ones) and lane bases 0, 1; .trans (16-bit elements): lane bases 2..4. The
  8 lanes of each of the four 8x8 matrices pass the addresses of 16-byte rows. 8- and 32-bit matrices pair
  with 16-byte vectors on the other side only.
The first offset bits (`vector`) are what both sides need contiguous; the next bits up to 128 bytes (the 32 banks)
and the rest (`segment`) are chosen so that the 8, 16 or 32 lanes served together in one access fall in distinct
banks where possible (the segment avoids the span of each side's lanes, as Triton's optimalSwizzling does).
For loads of one or two 1-byte elements the bits after the vector follow the destination (its lanes, registers,
warps): no two of a thread's loads share a 4-byte word, which LLVM's load-store vectorizer would merge back into
a word load it then unpacks byte by byte (`exchange_plan.merged_byte_loads` scores that where it happens).

A segment basis that both layouts hold in registers (and no thread's base offset has) becomes a round instead,
as Triton's reps (`_reps`, at most Triton's number for the two layouts): the exchange runs once per value of the
round bits, each round's stores, a barrier, its loads (a barrier before the next round's stores), through a
buffer of 1/2^reps of the tile, Triton's scratch size. Such an exchange takes Triton's own buffer
(`_triton_order`, optimalSwizzling's) where that has as few wavefronts and as many rounds.

Every plan is checked by simulating every thread's accesses (`_simulate`: each destination register receives its
element); a candidate that fails is dropped. Plans are scored by the shared-memory wavefronts of warp 0 plus the
instruction count (`exchange_plan._wavefronts_each`) and compared with `exchange_plan`'s row-swizzled buffers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ttc.analysis.scratch import swizzled_scratch_elems
from ttc.ir.linear_layout import LinearLayout
from ttc.lowering.exchange_plan import BYTE_LOAD_ELEMS, merged_byte_loads

MATRIX_KINDS = ("ldmatrix", "ldmatrix.trans", "stmatrix", "stmatrix.trans")


def _log2(n: int) -> int:
    return n.bit_length() - 1


# ------------------------------------------------------------------ GF(2) vectors as ints

def _echelon(vecs) -> dict[int, int]:
    """Pivot bit -> row: a reduced basis of span(vecs)."""
    rows: dict[int, int] = {}
    for v in vecs:
        v = _reduce(rows, v)
        if v:
            rows[v.bit_length() - 1] = v
    return rows


def _reduce(rows: dict[int, int], v: int) -> int:
    while v:
        p = v.bit_length() - 1
        r = rows.get(p)
        if r is None:
            return v
        v ^= r
    return 0


def _rank(vecs) -> int:
    return len(_echelon(vecs))


def _in_span(rows: dict[int, int], v: int) -> bool:
    return _reduce(rows, v) == 0


def _intersection(a, b, n: int) -> list[int]:
    """A basis of span(a) ∩ span(b) (Zassenhaus: rows (x | x) for x in a, (y | 0) for y in b)."""
    rows: dict[int, int] = {}
    for v in [(x << n) | x for x in a] + [y << n for y in b]:
        v = _reduce(rows, v)
        if v:
            rows[v.bit_length() - 1] = v
    return [r for p, r in rows.items() if p < n]


def _inverse(bases: tuple[int, ...], n: int) -> tuple[int, ...] | None:
    """Per coordinate bit i: the offset whose bits pick the bases XORing to 1 << i; None when `bases` is not a
    basis of the n-bit space."""
    if len(bases) != n:
        return None
    rows: dict[int, tuple[int, int]] = {}   # pivot -> (vector, offset bits combining it)
    for k, v in enumerate(bases):
        c = 1 << k
        while v:
            p = v.bit_length() - 1
            if p not in rows:
                break
            rv, rc = rows[p]
            v, c = v ^ rv, c ^ rc
        if not v:
            return None
        rows[v.bit_length() - 1] = (v, c)
    out = []
    for i in range(n):
        v, c = 1 << i, 0
        while v:
            rv, rc = rows[v.bit_length() - 1]
            v, c = v ^ rv, c ^ rc
        out.append(c)
    return tuple(out)


def apply_inverse(inv: tuple[int, ...], x: int) -> int:
    out = 0
    i = 0
    while x:
        if x & 1:
            out ^= inv[i]
        x >>= 1
        i += 1
    return out


# ------------------------------------------------------------------ layouts as flat vectors

@dataclass(frozen=True)
class Flat:
    """A `LinearLayout`'s bases as flat coordinate vectors."""
    reg: tuple[int, ...]
    lane: tuple[int, ...]
    warp: tuple[int, ...]


def flatten(ll: LinearLayout) -> Flat:
    shifts, s = [], 0
    for d in reversed(range(ll.rank)):
        shifts.append(s)
        s += _log2(ll.shape[d])
    shifts.reverse()

    def f(b):
        v = 0
        for d, x in enumerate(b):
            v |= x << shifts[d]
        return v

    return Flat(tuple(map(f, ll.reg)), tuple(map(f, ll.lane)), tuple(map(f, ll.warp)))


@dataclass(frozen=True)
class Side:
    """One side's accesses. Lane L of warp w (bits of its address layout `lane`, `warp`) accesses, in instruction
    (c, slots), the element at coordinate thread(L, w) ^ c: `vec`, the first of `len(slots)` consecutive elements
    (register slots[i] at offset + i); matrices, the 16-byte row its lane passes (slot p*j + e: word j, element e
    of its p)."""
    kind: str
    lane: tuple[int, ...]
    warp: tuple[int, ...]
    instrs: tuple[tuple[int, tuple[int, ...]], ...]

    @property
    def width(self) -> int:
        return len(self.instrs[0][1])


@dataclass(frozen=True)
class LinearExchange:
    shape: tuple[int, ...]
    elem_bytes: int
    bases: tuple[int, ...]       # offset bit k -> flat coordinate vector
    inverse: tuple[int, ...]     # coordinate bit i -> element offset
    store: Side
    load: Side
    cost: int                    # warp 0's wavefronts plus the number of accesses
    address_ops: int = 0         # about how many instructions the addresses (and matrix words' repacking) take
    reps: int = 0                # the top offset bits that are rounds, not bytes of the buffer (`_reps`)

    @property
    def nbytes(self) -> int:
        """The bytes of one round's buffer."""
        return (1 << (len(self.bases) - self.reps)) * self.elem_bytes

    @property
    def round_inverse(self) -> tuple[int, ...]:
        """`inverse` within one round's buffer: the round bits dropped."""
        mask = (1 << (len(self.bases) - self.reps)) - 1
        return tuple(i & mask for i in self.inverse)

    def rounds(self, side: Side) -> list[Side]:
        """`side`'s instructions of each round (the round: the top `reps` bits of the constant's offset)."""
        low = len(self.bases) - self.reps
        out = [[] for _ in range(1 << self.reps)]
        for c, slots in side.instrs:
            out[self.offset(c) >> low].append((c, slots))
        return [Side(side.kind, side.lane, side.warp, tuple(ins)) for ins in out]

    def offset(self, x: int) -> int:
        """The element offset of flat coordinate x."""
        return apply_inverse(self.inverse, x)

    def addresses(self, side: Side, ops, tid):
        """`addresses` in one round's buffer (`rounds` says which instructions each round issues)."""
        return addresses(self.round_inverse, self.elem_bytes, side, ops, tid)


def addresses(inverse: tuple[int, ...], eb: int, side: Side, ops, tid):
    """Per instruction of `side` in a linear buffer (`inverse`: coordinate bit -> element offset, elements of
    `eb` bytes): (x, a, slots), the thread's byte offset being x + a: x the per-thread base (from thread id
    `tid`, lane bits 0-4 and warp bits above) XORed with the bits of the instruction's constant that the base can
    have (the same value object for equal constants), a the constant's other bits (an immediate). `ops`:
    `exchange_plan.INT` on ints, `convert.IROps` building LLVM IR."""
    base, known = thread_offset(ops, tid, [apply_inverse(inverse, v) * eb for v in side.lane + side.warp])
    xored = {}
    for c, slots in side.instrs:
        off = apply_inverse(inverse, c) * eb
        x = off & known
        if x not in xored:
            xored[x] = x if base is None else (ops.xor(base, x) if x else base)
        yield xored[x], off & ~known, slots


def thread_terms(vecs: list[int]) -> list[tuple[str, int, int, int]]:
    """How a thread's base offset (the XOR over the set bits i of its id of `vecs[i]`) is computed, the cheapest
    of three forms: terms ("shift", s, mask, 0): (id shifted left by s, right when s < 0) & mask, every id bit i
    whose offset has bit i + s contributing that bit (one term moves a run of bits; a swizzle's row bits, into
    their row and their XOR position, take two); ("bit", i, v, 0): (0 - bit i) & v for an id bit whose offset
    has several bits; ("mul", i, v, m): ((id >> i) & (2^m - 1)) * v for m id bits whose offsets are v, 2v, 4v,
    ... without carries (v's bits at least m apart)."""
    def shifts(bits):
        out: dict[int, int] = {}
        for i in bits:
            v = vecs[i]
            while v:
                p = v.bit_length() - 1
                out[p - i] = out.get(p - i, 0) | (1 << p)
                v ^= 1 << p
        return [("shift", k, m, 0) for k, m in sorted(out.items())]

    def cost(terms):
        one = {"shift": lambda t: 1 if t[1] == 0 else 2, "bit": lambda t: 2, "mul": lambda t: 2 if t[1] == 0 else 3}
        return sum(one[t[0]](t) for t in terms) + max(0, len(terms) - 1)

    set_bits = [i for i, v in enumerate(vecs) if v]
    multi = [i for i in set_bits if vecs[i] & (vecs[i] - 1)]
    single = [i for i in set_bits if i not in multi]
    forms = [shifts(set_bits), shifts(single) + [("bit", i, vecs[i], 0) for i in multi]]
    runs, i = [], 0
    while i < len(vecs):
        v, m = vecs[i], 1
        if i in multi:
            bits = [p for p in range(v.bit_length()) if v >> p & 1]
            gap = min(q - p for p, q in zip(bits, bits[1:]))
            while i + m < len(vecs) and m < gap and vecs[i + m] == v << m:
                m += 1
        if m > 1:
            runs.append(("mul", i, v, m))
        i += m
    if runs:
        in_runs = {t[1] + k for t in runs for k in range(t[3])}
        forms.append(shifts([j for j in single if j not in in_runs]) + runs
                     + [("bit", j, vecs[j], 0) for j in multi if j not in in_runs])
    return min(forms, key=cost)


def _term_mask(term) -> int:
    """The bits a `thread_terms` term can set."""
    kind, i, v, m = term
    if kind != "mul":
        return v
    out = 0
    for k in range(m):
        out |= v << k
    return out


def thread_offset(ops, tid, vecs: list[int]):
    """The XOR over the set bits i of `tid` of `vecs[i]` (as `thread_terms` says), and the mask of the bits it
    can have; (None, 0) when always 0."""
    out, known = None, 0
    for term in thread_terms(vecs):
        kind, i, v, m = term
        if kind == "shift":
            t = ops.and_(ops.shl(tid, i) if i >= 0 else ops.lshr(tid, -i), v)
        elif kind == "bit":
            t = ops.and_(ops.sub(0, ops.and_(ops.lshr(tid, i), 1)), v)
        else:
            t = ops.mul(ops.and_(ops.lshr(tid, i), (1 << m) - 1), v)
        mask = _term_mask(term)
        out = t if out is None else (ops.xor(out, t) if known & mask else ops.or_(out, t))
        known |= mask
    return out, known


def _address_ops(inv, side: Side, eb: int) -> int:
    """About how many integer instructions a side's addresses take (`convert.side_pointers`)."""
    vecs = [apply_inverse(inv, v) * eb for v in side.lane + side.warp]
    terms = thread_terms(vecs)
    ops = sum(1 if k == "shift" and i == 0 else 3 if k == "mul" and i else 2 for k, i, _, _ in terms) \
        + max(0, len(terms) - 1)
    known = 0
    for v in vecs:
        known |= v
    return ops + len({(apply_inverse(inv, c) * eb) & known for c, _ in side.instrs})


def _repack_ops(side: Side, load: bool) -> int:
    """About how many moves a matrix side's 32-bit words of 8- or 16-bit elements take to (un)pack when their
    elements are not consecutive registers: one a word for loads (their consumers, as global stores, take pairs
    of consecutive registers), one an instruction for stores (most producers compute elements one by one: LLVM
    pairs them as the words need)."""
    if side.kind not in MATRIX_KINDS:
        return 0
    slots = side.instrs[0][1]
    p = len(slots) // 4
    natural = all(slots[p * j + e] == slots[p * j] + e and slots[p * j] % p == 0 for j in range(4) for e in range(p))
    return 0 if natural else (4 if load else 1) * len(side.instrs)


def _combos(bits: list[int]) -> list[int]:
    """Every register index made of the given register bits (in order of the bits' binary counting)."""
    out = [0]
    for b in bits:
        out += [r | (1 << b) for r in out]
    return out


def _reg_const(flat: Flat, r: int) -> int:
    c = 0
    for i, v in enumerate(flat.reg):
        if r >> i & 1:
            c ^= v
    return c


def _vec_side(flat: Flat, vbits: list[int]) -> Side:
    """`vec` accesses over register bits `vbits` (slot i: register bits vbits[t] for the set bits t of i)."""
    rest = [i for i, v in enumerate(flat.reg) if v and i not in vbits]
    slots = _combos(vbits)
    instrs = tuple((_reg_const(flat, r0), tuple(r0 | s for s in slots)) for r0 in _combos(rest))
    return Side("vec", flat.lane, flat.warp, instrs)


def _matrix_side(kind: str, flat: Flat, word: tuple[int, ...], m0: int, m1: int) -> Side:
    """ldmatrix/stmatrix x4 with register bits `word` for the elements of a 32-bit word (none for 32-bit
    elements; .trans: the one register bit of a word's two halves) and `m0`, `m1` for the matrix."""
    L = flat.lane
    row_lanes = (flat.reg[word[0]], L[0], L[1]) if kind.endswith("trans") else (L[2], L[3], L[4])
    lanes = row_lanes + (flat.reg[m0], flat.reg[m1])
    rest = [i for i, v in enumerate(flat.reg) if v and i not in word + (m0, m1)]
    inner = _combos(list(word))
    slots = [e | ((j & 1) << m0) | ((j >> 1) << m1) for j in range(4) for e in inner]
    instrs = tuple((_reg_const(flat, g), tuple(g | s for s in slots)) for g in _combos(rest))
    return Side(kind, lanes, flat.warp, instrs)


def _matrix_vector(kind: str, flat: Flat, word: tuple[int, ...]) -> list[int]:
    """The buffer's offset bits a matrix access needs contiguous (its 16-byte row)."""
    L = flat.lane
    return [L[2], L[3], L[4]] if kind.endswith("trans") else [flat.reg[w] for w in word] + [L[0], L[1]]


def _matrix_args(kind: str, flat: Flat, eb: int) -> list[tuple[tuple[int, ...], int, int]]:
    """(word, m0, m1) register bits of the x4 matrix accesses of `flat`'s registers, `eb`-byte elements: none
    where the lanes do not hold whole fragments; for 16-bit elements each register as the word's halves (the
    other side's vector decides which fits), the next two for the matrices."""
    nz = [i for i, v in enumerate(flat.reg) if v]
    if not all(flat.lane):
        return []
    if kind.endswith("trans"):
        return [((nz[0],), nz[1], nz[2])] if eb == 2 and len(nz) >= 3 else []
    if eb not in (1, 2, 4) or len(nz) < _log2(4 // eb) + 2:
        return []
    k = _log2(4 // eb)
    words = [(i,) for i in nz] if k == 1 else [tuple(nz[:k])]
    return [(w,) + tuple(i for i in nz if i not in w)[:2] for w in words]


def _prefix(vector: list[int], regs: tuple[int, ...], max_len: int) -> list[int]:
    """The register bits of the longest prefix of `vector` made of `regs`' bases (at most max_len)."""
    out = []
    for v in vector[:max_len]:
        if v not in regs:
            break
        out.append(regs.index(v))
    return out


def _tile(side: Side, width_bytes: int, vector: list[int]) -> list[int]:
    """The vectors of the lanes served in one shared-memory phase of `side`'s accesses, but those in the
    buffer's vector bits (they stay within one access)."""
    if side.kind in MATRIX_KINDS:
        lanes = side.lane[:3]
    else:
        per_phase = 32 if width_bytes <= 4 else 128 // width_bytes
        lanes = side.lane[:_log2(per_phase)]
    vrows = _echelon(vector)
    return [v for v in lanes if v and not _in_span(vrows, v)]


def _other_vectors(side: Side, flat: Flat, used_regs: list[int]) -> list[int]:
    """Every vector of a side's accesses but those inside one access: the address layout's lanes and warps and
    the registers that differ between instructions."""
    return [v for v in side.lane + side.warp if v] + [v for i, v in enumerate(flat.reg) if v and i not in used_regs]


def _choose(n: int, k: int, vector, space, tiles, bank_bits: int, load_order=()) -> list[tuple[int, ...]]:
    """Orderings of `space` into bank bits (the next `bank_bits` offset bits) and segment bits (the rest): the
    plain one (coordinate bits ascending, when `space` is spanned by them), and ones whose segment avoids the
    span of each tile where possible (Triton's optimalSwizzling's idea), with the tiles' lanes first among the
    bank bits. With `load_order` (loads of 1 or 2 bytes: their lanes, registers, warps) only the one whose bank
    bits keep that order where it gives one: each warp's loads cover consecutive bytes, a thread's loads lie
    apart (LLVM merges neighbouring byte loads into words it then unpacks byte by byte: `merged_byte_loads`)."""
    seg_len = n - k - bank_bits
    space_rows = _echelon(space)
    units = [1 << i for i in reversed(range(n)) if _in_span(space_rows, 1 << i)]
    out = []
    if len(units) == n - k:
        out.append(tuple(vector) + tuple(units[::-1]))
    pairs = [a ^ b for a in tiles[0] for b in (tiles[1] if len(tiles) > 1 else ()) if a != b]
    seg: list[int] = []
    # the reduced rows of vector + seg, kept as seg grows (None when the vector's bases are dependent: then
    # nothing joins them independently)
    rows: dict[int, int] | None = _echelon(vector)
    if len(rows) != len(vector):
        rows = None
    tile_ranks = [_rank(t) for t in tiles]

    def independent(base: dict[int, int], vecs) -> int:
        """How many of `vecs` join `base` (rows, extended in place) independently."""
        n = 0
        for v in vecs:
            v = _reduce(base, v)
            if v:
                base[v.bit_length() - 1] = v
                n += 1
        return n

    def fits(x, strict) -> int:
        """x's reduced row where vector + seg + [x] are independent (and, strict, meet no tile's span), else 0."""
        if rows is None or not _in_span(space_rows, x):
            return 0
        r = _reduce(rows, x)
        if r and strict:
            w = dict(rows)
            w[r.bit_length() - 1] = r
            if not all(independent(dict(w), t) == k for t, k in zip(tiles, tile_ranks)):
                return 0
        return r

    for strict in (True, False):
        for x in units + pairs + list(space):
            if len(seg) < seg_len and (r := fits(x, strict)):
                seg.append(x)
                rows[r.bit_length() - 1] = r
    if len(seg) < seg_len:
        return out

    def bank_from(first) -> list[int]:
        bank: list[int] = []
        if rows is None:
            return bank
        w = dict(rows)
        for x in first + units[::-1] + list(space):
            if len(bank) < bank_bits and _in_span(space_rows, x) and independent(w, [x]):
                bank.append(x)
        return bank

    if load_order and len(bank := bank_from(list(load_order))) == bank_bits:
        return [tuple(vector) + tuple(bank) + tuple(sorted(seg))]
    for first in ([t for tile in tiles for t in tile], [t for tile in tiles[::-1] for t in tile], []):
        bank = bank_from(first)
        if len(bank) == bank_bits:  # which bits, not their order, decides the conflicts: ascending is cheapest
            out.append(tuple(vector) + tuple(sorted(bank)) + tuple(sorted(seg)))
    return list(dict.fromkeys(out))


def _permute(v: int, perm: tuple[int, ...]) -> int:
    out = 0
    for i, p in enumerate(perm):
        if v >> i & 1:
            out |= 1 << p
    return out


def _triton_order(shape, vector, tiles, bank_bits: int) -> tuple[int, ...] | None:
    """Triton's optimalSwizzling's buffer for `vector` and the two sides' lane tiles, its coordinate bits
    ordered as Triton flattens a tensor (the first dimension's bits lowest): the segment is first the
    coordinate bits in neither side's vector or tile (ascending), then XORs pairing a bit of one side's tile
    but not the other's with one of the other's (the conflict-free pairs; where the segment is full before,
    the smaller difference set's first bits stay apart), the bank the coordinate bits that are no pivot of the
    vector and the segment (lowest bit first)."""
    logs = [_log2(s) for s in shape]
    n = sum(logs)
    perm = []   # our flat bit (the last dimension's lowest) -> Triton's
    for d in reversed(range(len(shape))):
        perm += [sum(logs[:d]) + k for k in range(logs[d])]
    back = [0] * n
    for i, p in enumerate(perm):
        back[p] = i
    vec = [_permute(v, perm) for v in vector]
    seg_len = n - len(vec) - bank_bits
    sides = [set(vec) | {_permute(v, perm) for v in tile} for tile in (list(tiles) + [[], []])[:2]]
    seg = [1 << b for b in range(n) if all(1 << b not in s for s in sides)][:seg_len]
    a, b = sorted(sides[0] - sides[1]), sorted(sides[1] - sides[0])
    if len(a) > len(b):
        a, b = b, a
    clash = min(max(0, seg_len - len(a) - len(seg)), len(a))
    seg = (seg + [x ^ y for x, y in zip(a[clash:], b[clash:])] + a[:clash] + b[:clash])[:seg_len]
    rows = vec + seg
    low = [_rank([r & ((1 << c) - 1) for r in rows]) for c in range(n + 1)]
    bank = [1 << c for c in range(n) if low[c + 1] == low[c]]
    if _rank(rows + bank) != n:
        return None
    return tuple(_permute(v, tuple(back)) for v in vec + bank + seg)


def _xor_of(vecs, ident: int) -> int:
    """The XOR of the `vecs` whose bit is set in `ident` (a thread's part of a linear map)."""
    out = 0
    for i, v in enumerate(vecs):
        if ident >> i & 1:
            out ^= v
    return out


def _span(vecs) -> list[int]:
    """`_xor_of(vecs, i)` for every i < 2^len(vecs) (entry i + 2^j is entry i XOR vector j). Of vectors mapped
    by `apply_inverse`, the map of each entry (it is linear)."""
    out = [0]
    for v in vecs:
        out += [x ^ v for x in out]
    return out


def _side_cost(plan_inv, side: Side, elem_bytes: int, vec_bytes: int) -> int:
    """Wavefronts of warp 0's accesses plus their number."""
    from ttc.lowering.exchange_plan import _CHECK_ALL, _wavefronts

    # the offset map is linear over GF(2): a lane's offset XOR a constant's is the offset of their XOR
    lanes = _span([apply_inverse(plan_inv, v) for v in side.lane])
    ks = [apply_inverse(plan_inv, c) for c, _ in side.instrs]
    if not _CHECK_ALL and vec_bytes & (vec_bytes - 1) == 0 and elem_bytes & (elem_bytes - 1) == 0 \
            and not any(t * elem_bytes % vec_bytes for t in lanes) and not any(k * elem_bytes % vec_bytes for k in ks):
        # all aligned to the (power-of-two) width: XORing K permutes the 4-byte words' banks and keeps distinct
        # words distinct, so every access costs what the lanes' own offsets do
        return (_wavefronts([[t * elem_bytes for t in lanes]], vec_bytes) + 1) * len(ks)
    return _wavefronts([[(t ^ k) * elem_bytes for t in lanes] for k in ks], vec_bytes) + len(side.instrs)


def _simulate(plan: LinearExchange, src: LinearLayout, dst: LinearLayout) -> bool:
    """Every thread's stores then loads, as the PTX ISA defines the instructions: does every destination register
    receive the element it holds (and no two source elements share a slot)?"""
    fs, fd = flatten(src), flatten(dst)
    mem: dict[int, int] = {}
    inv = plan.inverse
    threads = [(L, w) for w in range(src.num_warps) for L in range(32)]

    def run(side: Side, flat: Flat, store: bool) -> bool:
        # offsets of the threads' bases (thread 32 w + L), each access's XORing its constant's (the offset map
        # is linear)
        base = _span([apply_inverse(inv, v) for v in side.lane + side.warp])
        held = _span(flat.lane + flat.warp)
        align, vec = _align(side, plan.elem_bytes), side.kind not in MATRIX_KINDS
        for c, slots in side.instrs:
            k = apply_inverse(inv, c)
            addr = [t ^ k for t in base]
            consts = [_reg_const(flat, r) for r in slots]
            if any(a % align for a in addr):
                return False
            # every thread's slots in order: where each goes, which element it holds
            if vec:
                places = [a + j for a in addr for j in range(len(slots))]
            else:
                places = [p for i, (L, w) in enumerate(threads) for p in _places(side, addr, L, w, plan.elem_bytes)]
            els = [h ^ k for h in held for k in consts]
            if not store:
                if [mem.get(p) for p in places] != els:
                    return False
                continue
            new = dict(zip(places, els))
            if len(new) == len(places):   # no slot written twice here: only those already written can clash
                if any(mem[p] != new[p] for p in new.keys() & mem.keys()):
                    return False
                mem.update(new)
                continue
            for place, el in zip(places, els):
                if mem.setdefault(place, el) != el:
                    return False
        return True

    if not run(plan.store, fs, True) or not run(plan.load, fd, False):
        return False
    # every register of the destination is loaded, or repeats a loaded one
    loaded = {r for _, slots in plan.load.instrs for r in slots}
    return all(r in loaded or (r & ~_zero_bits(fd)) in loaded for r in range(dst.num_regs))


def _zero_bits(flat: Flat) -> int:
    return sum(1 << i for i, v in enumerate(flat.reg) if not v)


@lru_cache(maxsize=256)
def linear_exchange(src: LinearLayout, dst: LinearLayout, elem_bytes: int, ldmatrix: bool = True,
                    stmatrix: bool = False) -> LinearExchange | None:
    """The best linear plan of an exchange from `src` to `dst` (in the source's coordinates), or None.
    `ldmatrix` / `stmatrix`: whether the target has them (sm_75 / sm_90)."""
    if src.num_lanes != 32 or dst.num_lanes != 32 or src.num_warps != dst.num_warps:
        return None
    n = sum(_log2(s) for s in src.shape)
    fs, fd = flatten(src), flatten(dst)
    max_vec = _log2(max(1, 16 // elem_bytes))
    bank_total = _log2(128 // elem_bytes)   # offset bits of one 128-byte row of the 32 banks
    sregs, dregs = fs.reg, fd.reg
    # candidate (vector bits, store kind + args, load kind + args)
    cands = []
    common = [v for v in sregs if v and v in dregs]
    base = common[:max_vec]
    vectors = [base]
    if len(base) < max_vec:
        max_ld = _load_bits(elem_bytes, len(base), max_vec)
        ext_s = [v for v in sregs if v and v not in base and v in fd.lane]
        ext_d = [v for v in dregs if v and v not in base and v in fs.lane]
        vectors.append(base + ext_s[:max_vec - len(base)])
        vectors.append(base + ext_d[:max_ld - len(base)])
        if (1 << len(base)) * elem_bytes < 4:  # fill a 32-bit word on one side
            fill = _log2(4 // elem_bytes)
            vectors.append(base + [v for v in sregs if v and v not in base][:fill - len(base)])
            vectors.append(base + [v for v in dregs if v and v not in base][:min(fill, max_ld) - len(base)])
    for vec in vectors:
        cands.append((vec, ("vec",), ("vec",)))
    kinds_d = ["ldmatrix", "ldmatrix.trans"] if ldmatrix else []
    kinds_s = ["stmatrix", "stmatrix.trans"] if stmatrix else []
    loads = [(kd, a) for kd in kinds_d for a in _matrix_args(kd, fd, elem_bytes)]
    for kd, a in loads:
        cands.append((_matrix_vector(kd, fd, a[0]), ("vec",), (kd,) + a))
    for ks in kinds_s:
        for a in _matrix_args(ks, fs, elem_bytes):
            vec = _matrix_vector(ks, fs, a[0])
            cands.append((vec, (ks,) + a, ("vec",)))
            cands += [(vec, (ks,) + a, (kd,) + b) for kd, b in loads if _matrix_vector(kd, fd, b[0]) == vec]
    # at most as many rounds as Triton's exchange between these layouts makes (its allocation's scratch)
    max_reps = n - _log2(swizzled_scratch_elems(src, dst, 8 * elem_bytes))
    plans = []
    seen = set()
    for vec, sk, dk in cands:
        key = (tuple(vec), sk, dk)
        if key in seen or len(set(vec)) != len(vec) or not all(vec):
            continue
        seen.add(key)
        plan = _candidate(src, dst, fs, fd, n, elem_bytes, vec, sk, dk, bank_total, max_vec, max_reps)
        if plan is not None:
            plans.append(plan)
    # the best plan that checks (simulating only as far as needed: the check is the costly part)
    plans.sort(key=lambda p: (p.cost + p.address_ops, p.cost))
    return next((p for p in plans if _simulate(p, src, dst)), None)


def _load_bits(eb: int, common: int, max_vec: int) -> int:
    """The most register bits a `vec` load covers next to `vec` stores whose registers share `common` bits with
    it: all for elements of 2 bytes and more, the common ones or two 1-byte elements (`BYTE_LOAD_ELEMS`) for
    bytes."""
    return max_vec if eb > 1 else max(common, _log2(BYTE_LOAD_ELEMS))


def _candidate(src, dst, fs, fd, n, eb, vec, sk, dk, bank_total, max_vec, max_reps) -> LinearExchange | None:
    sides = []
    common = len([v for v in fs.reg if v and v in fd.reg][:max_vec])
    most_ld = max_vec if sk[0] != "vec" else _load_bits(eb, common, max_vec)   # matrices pair with 16 bytes
    for flat, kind, most in ((fs, sk, max_vec), (fd, dk, most_ld)):
        if kind[0] == "vec":
            bits = _prefix(vec, flat.reg, most)
            side = _vec_side(flat, bits)
            sides.append((side, _other_vectors(side, flat, bits), side.width * eb))
        else:
            side = _matrix_side(kind[0], flat, *kind[1:])
            sides.append((side, _other_vectors(side, flat, list(kind[1]) + list(kind[2:])), 16))
    (st, others_s, st_bytes), (ld, others_d, ld_bytes) = sides
    if eb != 2 and (st.kind in MATRIX_KINDS or ld.kind in MATRIX_KINDS) and min(st_bytes, ld_bytes) < 16:
        # 8- and 32-bit matrices pair with 16-byte vectors only, as Triton's tiles (the narrower vectors' extra
        # accesses repeat in each exchange while their addresses are shared); 16-bit ones keep the model's word
        return None
    k = len(vec)
    # the buffer's bits above the vector span what both sides address outside their accesses, so that those
    # offsets keep the access's low bits zero (aligned): a complement of the vector inside both spans
    space = list(_echelon(_intersection(others_s, others_d, n)).values())
    space_rows = _echelon(space)
    if _rank(space) != n - k or _rank(list(vec) + space) != n:
        return None
    tiles = [t for t in (_tile(st, st_bytes, vec), _tile(ld, ld_bytes, vec)) if t]
    best = None
    narrow = eb == 1 and ld.kind == "vec" and ld.width <= BYTE_LOAD_ELEMS   # loads LLVM could merge into words
    load_order = [v for v in fd.lane + fd.reg + fd.warp if v] if narrow else []
    bank_bits = max(0, min(bank_total - k, n - k))
    for bases in _choose(n, k, vec, space, tiles, bank_bits, load_order):
        inv = _inverse(bases, n)
        if inv is None:
            continue
        cost = _side_cost(inv, st, eb, st_bytes) + _side_cost(inv, ld, eb, ld_bytes)
        if narrow:
            cost += merged_byte_loads([apply_inverse(inv, c) for c, _ in ld.instrs], ld.width)
        ops = _address_ops(inv, st, eb) + _address_ops(inv, ld, eb)
        key = (cost + ops, cost)
        if best is None or key < best[0]:
            best = (key, bases, inv)
    if best is None:
        return None
    (total, cost), bases, inv = best
    bases, reps = _reps(bases, inv, k + bank_bits, st, ld, fs, fd, max_reps)
    if reps:
        # an exchange in rounds takes Triton's buffer (optimalSwizzling's, whose segment its rounds come from)
        # where that is as free of conflicts and splits into as many rounds
        tri = _triton_order(src.shape, vec, tiles, bank_bits)
        tri_inv = tri and all(_in_span(space_rows, x) for x in tri[k:]) and _inverse(tri, n)
        if tri_inv:
            tri_cost = _side_cost(tri_inv, st, eb, st_bytes) + _side_cost(tri_inv, ld, eb, ld_bytes)
            tri, tri_reps = _reps(tri, tri_inv, k + bank_bits, st, ld, fs, fd, max_reps)
            if tri_reps == reps and tri_cost <= cost:
                bases, cost = tri, tri_cost
        inv = _inverse(bases, n)
        total = cost + _address_ops(inv, st, eb) + _address_ops(inv, ld, eb)
    ops = total - cost + _repack_ops(st, False) + _repack_ops(ld, True)
    return LinearExchange(tuple(src.shape), eb, bases, inv, st, ld, cost, ops, reps)


def _reps(bases, inv, first_seg: int, st: Side, ld: Side, fs: Flat, fd: Flat,
          max_reps: int) -> tuple[tuple[int, ...], int]:
    """The buffer split into rounds, as Triton's buildReps: a segment basis (offset bit `first_seg` and up) that
    is a register basis of both layouts, and that no thread's base offset on either side has, is moved to the
    top of the offset bits and becomes a round: each round stores and loads the registers whose constants have
    its bits, through a buffer of 1/2^reps of the tensor (a barrier between rounds); the first `max_reps` such
    bases. Returns the reordered bases and the number of round bits."""
    regs = set(v for v in fs.reg if v) & set(v for v in fd.reg if v)
    thread = 0
    for v in st.lane + st.warp + ld.lane + ld.warp:
        thread |= apply_inverse(inv, v)
    rep = [j for j in range(first_seg, len(bases)) if bases[j] in regs and not thread >> j & 1][:max(0, max_reps)]
    if not rep:
        return bases, 0
    return tuple(b for j, b in enumerate(bases) if j not in rep) + tuple(bases[j] for j in rep), len(rep)


# ------------------------------------------------------------------ registers to and from a given buffer

def buffer_inverse(byte_offset, shape, eb: int) -> tuple[int, ...] | None:
    """Per flat coordinate bit, the element offset in a buffer whose byte offsets `byte_offset(coords)` gives
    (int coordinates of `shape`); None when they are not linear over GF(2) in the coordinate bits."""
    units = []   # flat bit order: the last dimension's bits lowest
    for d in reversed(range(len(shape))):
        for k in range(_log2(shape[d])):
            units.append([(1 << k) if i == d else 0 for i in range(len(shape))])
    if byte_offset([0] * len(shape)) != 0:
        return None
    offs = [byte_offset(c) for c in units]
    if any(o % eb for o in offs):
        return None
    for i in range(len(units)):
        for j in range(i):
            if byte_offset([x | y for x, y in zip(units[i], units[j])]) != offs[i] ^ offs[j]:
                return None
    return tuple(o // eb for o in offs)


def _align(side: Side, eb: int) -> int:
    """The alignment in elements of `side`'s accesses: a matrix's 16-byte rows, or the vector."""
    return 16 // eb if side.kind in MATRIX_KINDS else side.width


def _places(side: Side, addr: list[int], L: int, w: int, eb: int) -> list[int]:
    """The element offsets thread (lane L, warp w)'s slots of one instruction go to, the lanes' own element
    offsets being `addr` [thread] (the PTX ISA's definitions of the instructions): a matrix's word j, element e
    of lane L is row L // 4 of matrix j (the address of lane 8j + L // 4), its 32-bit column L % 4; .trans
    (16-bit): row 2 (L % 4) + e, column L // 4."""
    if side.kind not in MATRIX_KINDS:
        return [addr[32 * w + L] + k for k in range(side.width)]
    per = 4 // eb   # elements of a 32-bit word
    out = []
    for j in range(4):
        if side.kind.endswith("trans"):
            out += [addr[32 * w + 8 * j + 2 * (L % 4) + e] + L // 4 for e in range(2)]
        else:
            out += [addr[32 * w + 8 * j + L // 4] + per * (L % 4) + e for e in range(per)]
    return out


def _buffer_ok(side: Side, inv, ll: LinearLayout, eb: int) -> bool:
    """Does every thread's access of `side` put each register's element where the buffer has it (aligned)?"""
    fl = flatten(ll)
    threads = [(L, w) for w in range(ll.num_warps) for L in range(32)]
    # thread 32 w + L's offsets (the offset map is linear): its base's, and its own element's
    base = _span([apply_inverse(inv, v) for v in side.lane + side.warp])
    held = _span([apply_inverse(inv, v) for v in fl.lane + fl.warp])
    align, vec = _align(side, eb), side.kind not in MATRIX_KINDS
    for c, slots in side.instrs:
        k = apply_inverse(inv, c)
        addr = [t ^ k for t in base]
        if any(a % align for a in addr):
            return False
        consts = [apply_inverse(inv, _reg_const(fl, r)) for r in slots]
        # every thread's slots in order: where the access puts each, where the buffer has its element
        if vec:
            places = [a + j for a in addr for j in range(len(slots))]
        else:
            places = [p for i, (L, w) in enumerate(threads) for p in _places(side, addr, L, w, eb)]
        if places != [h ^ k for h in held for k in consts]:
            return False
    return True


@lru_cache(maxsize=256)
def buffer_side(ll: LinearLayout, inverse: tuple[int, ...], eb: int, matrix: str = "") -> Side | None:
    """The accesses of `ll`'s registers in a linear buffer (`buffer_inverse`): vectors of the register bases
    whose offsets are 1, 2, 4, ... elements (any registers, at most 16 bytes), or `matrix` ("ldmatrix",
    "stmatrix": where allowed) x4 of 16- or 32-bit elements (.trans: 16-bit) where the lanes hold its
    fragments; the fewest instructions, then the fewest wavefronts of warp 0. None when no candidate checks
    (`_buffer_ok`)."""
    if ll.num_lanes != 32:
        return None
    fl = flatten(ll)
    nz = [i for i, v in enumerate(fl.reg) if v]
    off = {i: apply_inverse(inverse, fl.reg[i]) for i in nz}
    cands = []
    bits = []
    for k in range(_log2(max(1, 16 // eb))):
        r = next((i for i in nz if off[i] == 1 << k), None)
        if r is None:
            break
        bits.append(r)
    cands += [_vec_side(fl, bits[:k]) for k in range(len(bits), -1, -1)]
    per = 4 // eb
    if matrix and eb in (2, 4) and all(fl.lane):   # 8-bit mma operands: `exchange_plan.ldmatrix_loads`
        lanes = [apply_inverse(inverse, v) for v in fl.lane]
        rows = [i for i in nz if off[i] % (16 // eb) == 0]
        word = tuple(next((i for i in nz if off[i] == 1 << k), -1) for k in range(_log2(per)))
        if lanes[:2] == [per, 2 * per] and -1 not in word and len(rows) >= 2:   # lanes 0, 1: one 16-byte row
            cands.append(_matrix_side(matrix, fl, word, rows[0], rows[1]))
        if eb == 2 and lanes[2:5] == [1, 2, 4] and len(rows) >= 3:   # lanes 2-4 along the row: the transposed form
            cands.append(_matrix_side(matrix + ".trans", fl, (rows[0],), rows[1], rows[2]))
    def key(side):
        return len(side.instrs), _side_cost(inverse, side, eb, 16 if side.kind in MATRIX_KINDS else side.width * eb)

    return next((side for side in sorted(cands, key=key) if _buffer_ok(side, inverse, ll, eb)), None)
