"""Which register layouts can move to and from Blackwell's tensor memory (TMEM), as Triton decides it.

Triton checks `ttng.tmem_load`/`tmem_store`/`tmem_alloc` by trying to lower them: the register layout composed
with the inverse of the TMEM layout must split into one of the `tcgen05.ld/st` messages (32x32b, 16x256b,
16x64b, 16x128b, or 16x32bx2 with a second-half offset) repeated over registers (TensorMemoryUtils.cpp's
computeTMemLdStEncodingInfo). That needs linear layouts with named dimensions (register/lane/warp -> dim0/dim1,
row/col -> dim0/dim1), so `LL` below is a small version of Triton's LinearLayout: bases per input dimension
(one int per output dimension each), output dimension sizes, and the operations the check uses (product,
composition, `invert_and_compose` by GF(2) elimination, `divide_left`). `tmem_layout` builds the layouts of
`#ttng.tensor_memory_encoding` and `#ttng.tensor_memory_scales_encoding` (LinearLayoutConversions.cpp);
`tmem_compatible` is isDistributedLayoutTMemCompatible; `tmem_alloc_rows_cols` is getTmemAllocSizes.
Register layouts come from `ttc.ir.linear_layout.layout_for` (layouts it does not model are not checked).
"""

from __future__ import annotations

from dataclasses import dataclass


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _supremum(x: list[str], y: list[str]) -> list[str]:
    """Triton's supremum of two orders: both lists merged, each keeping its relative order (x first on ties)."""
    out: list[str] = []
    px, py = {d: i for i, d in enumerate(x)}, {d: i for i, d in enumerate(y)}
    i = j = 0
    inf = 1 << 30
    while i < len(x) or j < len(y):
        while i < len(x) and x[i] in out:
            i += 1
        while j < len(y) and y[j] in out:
            j += 1
        if i >= len(x) and j >= len(y):
            break
        if i < len(x) and j < len(y) and x[i] == y[j]:
            out.append(x[i])
            i, j = i + 1, j + 1
            continue
        cx = py[x[i]] if i < len(x) and x[i] in py and py[x[i]] >= j else inf
        cy = px[y[j]] if j < len(y) and y[j] in px and px[y[j]] >= i else inf
        if i < len(x) and cx == inf:
            out.append(x[i])
            i += 1
        elif j < len(y) and cy == inf:
            out.append(y[j])
            j += 1
        elif cx <= cy:
            out.append(x[i])
            i += 1
        else:
            out.append(y[j])
            j += 1
    return out


@dataclass(frozen=True)
class LL:
    """A linear layout: `bases[in_dim]` lists one basis per bit of that input dimension, each a tuple with one
    value per output dimension of `outs` (name -> size, a power of two)."""

    bases: dict  # str -> tuple[tuple[int, ...], ...]
    outs: dict  # str -> int

    # -------------------------------------------------------------- construction
    @staticmethod
    def empty() -> LL:
        return LL({}, {})

    @staticmethod
    def identity(size: int, ind: str, outd: str) -> LL:
        return LL({ind: tuple((1 << i,) for i in range(_log2(size)))}, {outd: size})

    @staticmethod
    def zeros(size: int, ind: str, outd: str, out_size: int = 1) -> LL:
        return LL({ind: tuple((0,) for _ in range(_log2(size)))}, {outd: out_size})

    @staticmethod
    def of(bases: dict, out_names: list[str]) -> LL:
        """Out-dimension sizes inferred from the bases (the next power of two above each largest value)."""
        sizes = dict.fromkeys(out_names, 1)
        for group in bases.values():
            for b in group:
                for name, v in zip(out_names, b):
                    sizes[name] = max(sizes[name], 1 << v.bit_length() if v else 1)
        return LL({k: tuple(map(tuple, v)) for k, v in bases.items()}, sizes)

    # -------------------------------------------------------------- queries
    @property
    def in_names(self) -> list[str]:
        return list(self.bases)

    @property
    def out_names(self) -> list[str]:
        return list(self.outs)

    def in_log2(self, d: str) -> int:
        return len(self.bases.get(d, ()))

    def in_size(self, d: str) -> int:
        return 1 << self.in_log2(d)

    def out_log2(self, d: str) -> int:
        return _log2(self.outs[d]) if d in self.outs else 0

    def basis(self, ind: str, i: int, outd: str | None = None):
        b = self.bases[ind][i]
        return b if outd is None else b[self.out_names.index(outd)] if outd in self.outs else 0

    def apply(self, values: dict) -> dict:
        out = dict.fromkeys(self.outs, 0)
        for ind, v in values.items():
            for i, b in enumerate(self.bases.get(ind, ())):
                if v >> i & 1:
                    for k, name in enumerate(self.outs):
                        out[name] ^= b[k]
        return out

    def with_bases(self, bases: dict) -> LL:
        return LL({k: tuple(map(tuple, v)) for k, v in bases.items()}, dict(self.outs))

    # -------------------------------------------------------------- operations
    def __mul__(self, outer: LL) -> LL:
        """Triton's `inner * outer`: `outer`'s bases come after (and shifted above) `self`'s."""
        ins = _supremum(self.in_names, outer.in_names)
        outs = _supremum(self.out_names, outer.out_names)
        sizes = {d: self.out_log2(d) + outer.out_log2(d) for d in outs}
        bases = {}
        for ind in ins:
            n = self.in_log2(ind) + outer.in_log2(ind)
            rows = [[0] * len(outs) for _ in range(n)]
            for k, outd in enumerate(outs):
                if ind in self.bases and outd in self.outs:
                    for i in range(self.in_log2(ind)):
                        rows[i][k] = self.basis(ind, i, outd)
                if ind in outer.bases and outd in outer.outs:
                    off, shift = self.in_log2(ind), self.out_log2(outd)
                    for i in range(outer.in_log2(ind)):
                        rows[off + i][k] = outer.basis(ind, i, outd) << shift
            bases[ind] = tuple(map(tuple, rows))
        return LL(bases, {d: 1 << s for d, s in sizes.items()})

    def compose(self, outer: LL) -> LL:
        """`outer(self(x))`: self's out-dimensions are outer's in-dimensions."""
        bases = {ind: tuple(tuple(outer.apply(dict(zip(self.outs, b))).values()) for b in group)
                 for ind, group in self.bases.items()}
        return LL(bases, dict(outer.outs))

    def sublayout(self, ins: list[str], outs: list[str]) -> LL:
        idx = [self.out_names.index(o) for o in outs]
        return LL({d: tuple(tuple(b[k] for k in idx) for b in self.bases[d]) for d in self.bases if d in ins},
                  {o: self.outs[o] for o in outs})

    def transpose_outs(self, outs: list[str]) -> LL:
        return self.sublayout(self.in_names, outs)

    def invert_and_compose(self, outer: LL) -> LL | None:
        """Triton's `self.invertAndCompose(outer)`: for each input of `self`, the input of `outer` that reaches
        the same output (free variables 0, as lstsq on the RREF); None where `self` reaches an output `outer`
        does not."""
        outs = self.out_names
        A = outer.transpose_outs(outs)
        same = [d for d in A.in_names if d in self.bases and A.sublayout([d], outs) == self.sublayout([d], outs)]
        a_ins = [d for d in A.in_names if d not in same]
        b_ins = [d for d in self.in_names if d not in same]
        shifts, s = {}, 0
        for o in outs:
            shifts[o] = s
            s += A.out_log2(o)

        def flat(b):
            return sum(v << shifts[o] for o, v in zip(outs, b))

        cols = [(d, i, flat(b)) for d in a_ins for i, b in enumerate(A.bases[d])]
        pivots: dict[int, tuple[int, int]] = {}  # leading bit -> (vector, mask of columns)
        for c, (_, _, v) in enumerate(cols):
            m = 1 << c
            while v:
                h = v.bit_length() - 1
                if h not in pivots:
                    pivots[h] = (v, m)
                    break
                v, m = v ^ pivots[h][0], m ^ pivots[h][1]
        bases = {}
        for d in self.in_names:
            if d in same:
                bases[d] = tuple(tuple((1 << i) if o == d else 0 for o in A.in_names) for i in range(A.in_log2(d)))
                continue
            rows = []
            for b in self.bases[d]:
                v, m = flat(b), 0
                while v:
                    h = v.bit_length() - 1
                    if h not in pivots:
                        return None
                    v, m = v ^ pivots[h][0], m ^ pivots[h][1]
                x = dict.fromkeys(A.in_names, 0)
                for c, (ad, i, _) in enumerate(cols):
                    if m >> c & 1:
                        x[ad] |= 1 << i
                rows.append(tuple(x.values()))
            bases[d] = tuple(rows)
        return LL(bases, {d: A.in_size(d) for d in A.in_names})


def divide_left(A: LL, B: LL) -> LL | None:
    """C with `B * C == A`, if there is one."""
    if any(d not in A.bases for d in B.bases) or any(d not in A.outs for d in B.outs):
        return None
    c_outs = {}
    for o in A.outs:
        n = A.out_log2(o) - B.out_log2(o)
        if n < 0:
            return None
        c_outs[o] = 1 << n
    bases = {}
    for d in A.bases:
        na, nb = A.in_log2(d), B.in_log2(d) if d in B.bases else 0
        if na < nb:
            return None
        for i in range(nb):
            if any(A.basis(d, i, o) != (B.basis(d, i, o) if o in B.outs else 0) for o in A.outs):
                return None
        rows = []
        for i in range(nb, na):
            row = []
            for o in c_outs:
                v, low = A.basis(d, i, o), B.out_log2(o)
                if v & ((1 << low) - 1):
                    return None
                row.append(v >> low)
            rows.append(tuple(row))
        bases[d] = tuple(rows)
    return LL(bases, c_outs)


def _permute_regs(ll: LL, order: list[int]) -> LL:
    bases = dict(ll.bases)
    bases["register"] = tuple(ll.bases["register"][i] for i in order)
    return LL(bases, dict(ll.outs))


def _reg_perm_for_divide(A: LL, B: LL) -> list[int] | None:
    """Triton's regPermForDivide(A, B, left=true): an order of A's register bases that puts B's first."""
    bcast = LL.empty()
    for o in A.outs:
        bcast = bcast * LL.identity(1, "register", o)
    BB = bcast * B
    a_regs, used, picked = A.bases["register"], [False] * len(A.bases["register"]), []
    for b in BB.bases["register"]:
        for j, a in enumerate(a_regs):
            if not used[j] and a == b:
                used[j] = True
                picked.append(j)
                break
        else:
            return None
    return picked + [j for j in range(len(a_regs)) if not used[j]]


def _reps(cvt: LL, tile: LL) -> LL | None:
    """Triton's getReps: cvt with the tile's leading bases zeroed, if cvt starts with the tile and its other
    bases stay clear of the tile's bits."""
    mask = dict.fromkeys(cvt.outs, 0)
    for group in tile.bases.values():
        for b in group:
            for o, v in zip(tile.outs, b):
                mask[o] |= v
    bases = {}
    for d in cvt.bases:
        na, nb = cvt.in_log2(d), tile.in_log2(d) if d in tile.bases else 0
        if nb > na:
            return None
        for i in range(nb):
            if any(cvt.basis(d, i, o) != tile.basis(d, i, o) for o in cvt.outs):
                return None
        for i in range(nb, na):
            if any(cvt.basis(d, i, o) & mask[o] for o in cvt.outs):
                return None
        bases[d] = tuple([(0,) * len(cvt.outs)] * nb) + cvt.bases[d][nb:]
    return LL(bases, dict(cvt.outs))


# tcgen05.ld/st message shapes (Triton's TMemAccessAtom), in the order the lowering tries them
ATOMS = ("32x32b", "16x256b", "16x64b", "16x128b")


def tile_layout(atom: str, unpacked: bool, with_warp: bool) -> LL:
    """The (register, lane[, warp]) -> (row, col) layout of one message (Triton's getTileLayout)."""
    tile = LL({"register": (), "lane": ()}, {"row": 1, "col": 1})
    if unpacked:
        tile = tile * LL.zeros(1, "register", "col", 2)
    if atom == "32x32b":
        tile = tile * LL.identity(32, "lane", "row")
    elif atom == "16x32bx2":
        tile = tile * LL.identity(16, "lane", "row")
    elif atom == "16x64b":
        tile = tile * LL.of({"lane": [(8, 0), (0, 1), (1, 0), (2, 0), (4, 0)]}, ["row", "col"])
    elif atom == "16x128b":
        tile = tile * (LL.identity(4, "lane", "col") * LL.identity(8, "lane", "row") * LL.identity(2, "register", "row"))
    else:  # 16x256b
        tile = tile * (LL.identity(2, "register", "col") * LL.identity(4, "lane", "col") * LL.identity(8, "lane", "row")
                       * LL.identity(2, "register", "row"))
    if with_warp:
        bases = dict(tile.bases)
        bases["warp"] = ((32, 0), (64, 0))
        tile = LL(bases, {"row": 128, "col": tile.outs["col"]})
    return tile


def _vectorize(cvt: LL, tile: LL, maxnreg: int) -> tuple[LL, int] | None:
    """Triton's getVec: the widest repetition of `tile` along columns that `cvt` (register-permuted) starts with."""
    max_reg = maxnreg // 2
    if maxnreg == 256 and cvt.in_size("register") > max_reg:
        max_reg //= 2
    max_vec = max_reg // tile.in_size("register")
    reps, i = None, 1
    while i <= max_vec:
        vec_tile = tile * LL.identity(i, "register", "col")
        order = _reg_perm_for_divide(cvt, vec_tile)
        if order is None:
            break
        r = _reps(_permute_regs(cvt, order), vec_tile)
        if r is None:
            break
        reps = r
        i *= 2
    if i == 1:
        return None
    return reps, (i // 2) * tile.in_size("register")


def _lower(cvt: LL, maxnreg: int, bitwidth: int, is_scales: bool, unpacked: bool = False) -> str | None:
    """Triton's lowerTMemLdSt, reduced to whether it succeeds: None, or why it fails."""
    regs = cvt.bases["register"]
    kept = [i for i, b in enumerate(regs) if any(b)]
    if len(kept) != len(regs):
        return _lower(_permute_regs(cvt, kept), maxnreg, bitwidth, is_scales, unpacked)
    if bitwidth < 32:
        quot, best = None, 1
        contig = 1
        while bitwidth * contig <= 32:
            q = divide_left(cvt, LL.identity(contig, "register", "col"))
            if q is None:
                break
            quot, best = q, contig
            contig *= 2
        if best > 1:
            unpacked, new_bits = False, bitwidth * best
        elif bitwidth == 16 and (q := divide_left(cvt, LL.zeros(1, "register", "col", 32 // bitwidth)
                                                  * LL.identity(2, "register", "col"))) is not None:
            unpacked, quot, new_bits = True, q, 32
        elif (q := divide_left(cvt, LL.zeros(1, "register", "col", 32 // bitwidth))) is not None:
            unpacked, quot, new_bits = bitwidth == 16, q, 32
        else:
            return "Failed to lower TMEM load/store: TMEM layout is not packed or unpacked"
        if unpacked:
            quot = LL.zeros(1, "register", "col", 32 // bitwidth) * quot
        return _lower(quot, maxnreg, new_bits, is_scales, unpacked)
    for atom in ATOMS:
        if _vectorize(cvt, tile_layout(atom, unpacked, True), maxnreg) is not None:
            return None
    found = _vectorize(cvt, tile_layout("16x32bx2", unpacked, True), maxnreg)
    if found is None:
        return "Failed to lower TMEM load/store: unsupported dst layout"
    reps = found[0]
    lane4 = reps.bases["lane"][4] if reps.in_log2("lane") > 4 else (0, 0)
    if lane4 == (0, 0) and not is_scales:
        return "Only supported for scales as we pad the allocation."
    return None


# ----------------------------------------------------------------------------- TMEM layouts


def _dims(rank: int) -> list[str]:
    return [f"dim{i}" for i in range(rank)]


def tmem_layout(shape, enc) -> LL:
    """(row, col) -> (dim0, dim1) of a 2D shape in `#ttng.tensor_memory_encoding` or `_scales_encoding`
    (Triton's tensorMemoryToLinearLayout / tensorMemoryScalesToLinearLayout)."""
    from ttc.ir.tmem_attrs import TensorMemoryEncoding

    d0, d1 = _dims(2)
    m, n = shape
    f = dict(enc.data)
    if isinstance(enc, TensorMemoryEncoding):
        if f["CTASplitN"] > 1:
            inner = enc.replace(CTASplitN=1)
            return tmem_layout((m, n // f["CTASplitN"]), inner) * LL.identity(f["CTASplitN"], "col", d1)
        if f["CTASplitM"] > 1:
            split, block_m = f["CTASplitM"], f["blockM"]
            m64_two = block_m == 64 and f["twoCTAs"]
            if m64_two:
                block_m, split = block_m * 2, split // 2
            ret = tmem_layout((m // split, n), enc.replace(blockM=block_m, CTASplitM=1))
            if m64_two:
                rows, cols = list(ret.bases["row"]), list(ret.bases["col"])
                rows[-1], cols[-1] = cols[-1], rows[-1]
                ret = ret.with_bases({"row": rows, "col": cols})
            return ret * LL.identity(split, "col", d0)
        block_m, block_n = f["blockM"], min(f["blockN"], n)
        tile = LL.zeros(f["colStride"], "col", d1)
        if block_m == 64:
            tile = tile * (LL.identity(16, "row", d0) * LL.identity(block_n, "col", d1))
            rows = list(tile.bases["row"])
            rows.append((64, 0) if m > block_m else (0, block_n) if n > block_n else (0, 0))
            rows += [(16, 0), (32, 0)]
            tile = LL.of({**tile.bases, "row": rows}, [d0, d1])
        else:
            tile = tile * (LL.identity(block_m, "row", d0) * LL.identity(block_n, "col", d1))
        reps_m, reps_n = m // tile.outs[d0], n // tile.outs[d1]
        return tile * LL.identity(reps_m, "col", d0) * LL.identity(reps_n, "col", d1)
    # scales
    if f["CTASplitN"] > 1:
        return tmem_layout((m, n // f["CTASplitN"]), enc.replace(CTASplitN=1)) * LL.identity(f["CTASplitN"], "col", d1)
    if f["CTASplitM"] > 1:
        return tmem_layout((m // f["CTASplitM"], n), enc.replace(CTASplitM=1)) * LL.identity(f["CTASplitM"], "col", d0)
    tile = (LL.identity(32, "row", d0) * LL.zeros(4, "row", d0) * LL.identity(4, "col", d1)
            * LL.identity(2, "col", d0))
    tile = tile * (LL.identity(max(1, -(-m // tile.outs[d0])), "col", d0)
                   * LL.identity(max(1, -(-n // tile.outs[d1])), "col", d1))
    return not_larger_than(tile, {d0: m, d1: n})


def not_larger_than(ll: LL, shape: dict) -> LL:
    """Triton's ensureLayoutNotLargerThan (registers broadcast too): zero the largest bases of each output
    dimension the layout overflows."""
    bases = {d: [list(b) for b in g] for d, g in ll.bases.items()}
    outs = dict(ll.outs)
    for k, o in enumerate(ll.outs):
        size, want = ll.outs[o], shape[o]
        if size <= want:
            continue
        found = sorted(((b[k], d, i) for d, g in bases.items() for i, b in enumerate(g) if b[k]),
                       key=lambda t: -t[0])
        for _, d, i in found:
            if size <= want:
                break
            bases[d][i][k] = 0
            size >>= 1
        outs[o] = min(outs[o], want)
    return LL({d: tuple(map(tuple, g)) for d, g in bases.items()}, outs)


def memdesc_tmem_layout(t) -> LL:
    """A TMEM memdesc's layout over its allocation shape (its last two dimensions)."""
    return tmem_layout(t.get_alloc_shape()[-len(t.get_shape()):][-2:], t.encoding)


def tmem_alloc_rows_cols(t) -> tuple[int, int]:
    """Triton's getTmemAllocSizes: the rows and 32-bit columns of TMEM a memdesc takes."""
    from ttc.ir.tmem_attrs import TensorMemoryEncoding
    from ttc.ir.types import bitwidth

    ll = tmem_layout(t.get_shape()[-2:], t.encoding)
    rows = ll.in_size("row")
    cols = ll.in_size("col") // (32 // bitwidth(t.element_type))
    if ll.basis("row", 4) == (0, 0):
        rows //= 2
    f = dict(t.encoding.data)
    cols //= f["CTASplitM"] * f["CTASplitN"]
    if len(t.get_shape()) > 2:
        cols *= t.get_shape()[0]
    return rows, cols


def register_layout(tensor_type) -> LL | None:
    """(register, lane, warp) -> (dim0, ...) of a tensor type's layout; None if ttc does not model it."""
    from ttc.ir.linear_layout import UnsupportedLayout, layout_for
    from ttc.ir.types import encoding

    shape = tuple(tensor_type.get_shape())
    try:
        ll = layout_for(shape, encoding(tensor_type))
    except (UnsupportedLayout, KeyError, TypeError, ValueError):
        return None
    return LL({"register": ll.reg, "lane": ll.lane, "warp": ll.warp}, dict(zip(_dims(len(shape)), shape)))


def tmem_problem(tensor_type, memdesc, maxnreg: int) -> str | None:
    """Why `tensor_type`'s layout cannot be moved to or from the TMEM `memdesc` (Triton's
    computeTMemLdStEncodingInfo), or None when it can (or ttc does not model the layout)."""
    from ttc.ir.tmem_attrs import TensorMemoryScalesEncoding
    from ttc.ir.types import bitwidth

    reg = register_layout(tensor_type)
    if reg is None or len(reg.outs) != 2:
        return None
    mem = memdesc_tmem_layout(memdesc)
    if any(reg.outs[d] > mem.outs[d] for d in reg.outs):
        return None  # the shapes differ: the op's shape check reports it
    cvt = reg.invert_and_compose(mem)
    if cvt is None:
        return "the tensor does not fit the buffer's layout"
    warps, rows = reg.bases["warp"], mem.bases["row"]
    if len(warps) < 2 or warps[0] != rows[5] or warps[1] != rows[6]:
        return "warps=1,2 must map to rows=32,64"
    bases = dict(cvt.bases)
    bases["warp"] = ((32, 0), (64, 0)) + cvt.bases["warp"][2:]
    cvt = LL(bases, dict(cvt.outs))
    return _lower(cvt, maxnreg, bitwidth(memdesc.element_type), isinstance(memdesc.encoding, TensorMemoryScalesEncoding))


def _injective(ll: LL) -> bool:
    """Every input bit reaches its own output direction (the bases are independent over GF(2))."""
    shifts, s = {}, 0
    for o in ll.out_names:
        shifts[o] = s
        s += ll.out_log2(o)
    pivots: dict[int, int] = {}
    for group in ll.bases.values():
        for b in group:
            v = sum(x << shifts[o] for o, x in zip(ll.out_names, b))
            while v:
                h = v.bit_length() - 1
                if h not in pivots:
                    pivots[h] = v
                    break
                v ^= pivots[h]
            if not v:
                return False
    return True


def _drop_last(ll: LL, ind: str) -> LL:
    return ll.with_bases({**ll.bases, ind: ll.bases[ind][:-1]})


def distributed_tmem_layout(ll: LL, num_warps: int, bits: int, atom: str = "32x32b") -> LL | None:
    """Triton's getDistributedLayoutForTmemLdSt: (register, lane, warp) -> (dim0, dim1) registers that
    tcgen05.ld/st with message `atom` (32x32b or 16x256b) move to and from TMEM laid out as `ll`
    ((row, col) -> (dim0, dim1))."""
    d0, d1 = ll.out_names
    if bits != 32:
        quot, best, contig = None, 1, 1
        while bits * contig <= 32:
            q = divide_left(ll, LL.identity(contig, "col", d1))
            if q is None:
                break
            quot, best = q, contig
            contig *= 2
        if best > 1:  # pack contiguous elements into 32 bits
            ret = distributed_tmem_layout(quot, num_warps, bits * best, atom)
            return None if ret is None else LL.identity(best, "register", d1) * ret
        unpacked = divide_left(ll, LL.zeros(32 // bits, "col", d1) * LL.identity(2, "col", d1))
        if bits == 16 and unpacked is not None:
            ret = distributed_tmem_layout(unpacked, num_warps, 32, atom)
            return None if ret is None else LL.identity(2, "register", d1) * ret
        padded = divide_left(ll, LL.zeros(32 // bits, "col", d1))
        if padded is not None:
            return distributed_tmem_layout(padded, num_warps, 32, atom)
        if ll.in_size("col") == 1:
            return distributed_tmem_layout(ll, num_warps, 32, atom)
        return None
    tile = tile_layout(atom, False, False)
    rows32 = atom == "32x32b"
    missing = ll.in_size("col") // tile.outs["col"]
    if missing == 0:
        return None
    rows16 = ll.basis("row", 4) == (0, 0)
    comp = tile.compose(ll).sublayout(["register", "lane"], [d0, d1])
    if not _injective(_drop_last(comp, "lane") if rows32 else comp):
        return None
    row16 = None if rows32 or rows16 else ("warp" if num_warps > 4 else "register")
    warps = num_warps // (8 if row16 == "warp" else 4)
    broadcast = warps // min(missing, warps)
    warps //= broadcast
    missing //= warps
    if missing > 1:
        if rows32 and rows16:
            tile = divide_left(tile, LL.identity(2, "lane", "row"))
            tile = tile * (LL.identity(missing // 2, "register", "col") * LL.identity(2, "lane", "col"))
        else:
            tile = tile * LL.identity(missing, "register", "col")
    bases = dict(tile.bases)
    bases["warp"] = tuple(bases.get("warp", ())) + ((32, 0), (64, 0))
    if row16:
        bases[row16] = tuple(bases.get(row16, ())) + ((16, 0),)
    tile = LL({k: tuple(v) for k, v in bases.items()}, {"row": 128, "col": tile.outs["col"]})
    tile = tile * LL.identity(warps, "warp", "col") * LL.zeros(broadcast, "warp", "col")
    return tile.compose(ll)
