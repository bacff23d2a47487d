"""Linear layouts: which tensor element each (register, lane, warp) of a distributed layout holds.

A `LinearLayout` maps a thread's register index `r`, its lane id `l` and its warp id `w` to the coordinates of
a tensor element: the XOR of one basis vector per set bit of `r`, `l` and `w` (Triton's LinearLayout, for the
register/lane/warp input dimensions of one CTA). Zero bases mean replication: the threads (or registers) that
differ only in that bit hold the same element.

`layout_for(shape, encoding)` builds it for the layouts the lowering supports, with Triton's semantics:

- `#ttg.blocked`: `sizePerThread` elements per thread, then `threadsPerWarp` lanes, then `warpsPerCTA` warps, each
  spread over the dimensions in `order` (fastest first). A tensor larger than that tile repeats it in more
  registers (again fastest dimension first); a tensor smaller than the tile zeroes the largest bases
  (replication), as Triton's `ensureLayoutNotLargerThan` / `ensureLayoutNotSmallerThan` do.
- `#ttg.slice<{dim, parent}>`: the parent's layout over the shape with a size-1 dimension inserted at `dim`,
  with that dimension dropped and the register bases that became zero removed.
- `#ttg.dot_op<{opIdx, parent = #blocked}>` (the FMA dot path): each thread holds the whole K extent of its rows
  (A) or columns (B) in registers; lanes and warps along K are replicated.
- `#ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA, instrShape = [16, 8]}>` (the accumulator of
  `mma.sync.aligned.m16n8k16`): per warp a 16x8 tile as the PTX ISA's C/D fragment, `c0..c3` = registers 0..3:
  register bit 0 = column + 1, lane bits 0-1 = columns + 2, + 4 (`2 * (lane & 3)`), lane bits 2-4 = rows + 1, 2,
  4 (`lane >> 2`), register bit 1 = row + 8. Warps tile the CTA N first (`warpsPerCTA` with order [1, 0]), then
  the tile repeats in registers, N repeats before M (Triton's nvidiaMmaToLinearLayout, repOrder [1, 0]).
  Version 3 (`instrShape = [16, n, k]`, wgmma's m64nNk accumulator): per warp 16 x n, the same fragment repeated
  along N in registers (register bits 2.. = column + 8, 16, ...); warps M first (16, 32: the four warps of a
  warp group hold consecutive 16-row slabs), then as warpsPerCTA says. Checked against Triton's own
  `to_linear_layout` for the fixtures' shapes.
- `#ttg.dot_op<{opIdx, parent = #mma, kWidth = 2}>` (mma.sync's A and B fragments, wgmma's register A; Triton's
  nvidiaDotToLinearLayout): A per warp 16x16 (M x K): register bit 0 = k + 1, lane bits 0-1 = k + 2, + 4,
  lane bits 2-4 = m + 1, 2, 4, register bit 1 = m + 8, register bit 2 = k + 8 (`a0..a7`); B per warp 16x8
  (K x N): register bit 0 = k + 1, lane bits 0-1 = k + 2, + 4, lane bits 2-4 = n + 1, 2, 4, register bit 1 =
  k + 8 (`b0..b3`). Warps as the parent's, except that the warps splitting the other operand's dimension (N for
  A, M for B) are replicas; repeats in registers K first.
- `#ttg.linear`: the bases as written.

Register order matters for vectorization: the first registers of a blocked layout are the `sizePerThread`
elements along `order[0]`, consecutive in memory when the tensor is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

from xdsl.ir import Attribute

from ttc.ir.amd_layouts import AMDMfmaEncoding
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding, LinearEncoding, NvidiaMmaEncoding, SliceEncoding

Basis = tuple[int, ...]


class UnsupportedLayout(Exception):
    """A layout (or a layout and shape) that the lowering does not model."""


def _log2(n: int, what: str) -> int:
    if n < 1 or n & (n - 1):
        raise UnsupportedLayout(f"{what} must be a power of two, got {n}")
    return n.bit_length() - 1


def _xor(vectors, rank: int) -> Basis:
    out = [0] * rank
    for v in vectors:
        for d in range(rank):
            out[d] ^= v[d]
    return tuple(out)


@dataclass(frozen=True)
class LinearLayout:
    shape: tuple[int, ...]
    reg: tuple[Basis, ...]
    lane: tuple[Basis, ...]
    warp: tuple[Basis, ...]

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def num_regs(self) -> int:
        return 1 << len(self.reg)

    @property
    def num_lanes(self) -> int:
        return 1 << len(self.lane)

    @property
    def num_warps(self) -> int:
        return 1 << len(self.warp)

    def apply(self, r: int, l: int, w: int) -> Basis:
        """The coordinates of the element held by register `r` of lane `l` of warp `w`."""
        picked = [b for i, b in enumerate(self.reg) if r >> i & 1]
        picked += [b for i, b in enumerate(self.lane) if l >> i & 1]
        picked += [b for i, b in enumerate(self.warp) if w >> i & 1]
        return _xor(picked, self.rank)

    @cached_property
    def reg_coords(self) -> tuple[Basis, ...]:
        """Per register: the part of its coordinates that does not depend on the thread."""
        out = [(0,) * self.rank]
        for b in self.reg:  # register r + 2^i holds register r's coordinates XOR basis i
            out += [tuple(x ^ y for x, y in zip(c, b)) for c in out]
        return tuple(out)

    @cached_property
    def first_reg(self) -> dict[Basis, int]:
        """Register-part coordinates -> the first register holding them."""
        out: dict[Basis, int] = {}
        for r, c in enumerate(self.reg_coords):
            out.setdefault(c, r)
        return out

    @cached_property
    def unique_regs(self) -> tuple[int, ...]:
        """The registers that are the first to hold their element (the others repeat one of them)."""
        return tuple(sorted(self.first_reg.values()))

    @property
    def free_lane_bits(self) -> int:
        """Lane id bits whose basis is zero: lanes differing only in them hold the same elements."""
        return sum(1 << i for i, b in enumerate(self.lane) if not any(b))

    @property
    def free_warp_bits(self) -> int:
        return sum(1 << i for i, b in enumerate(self.warp) if not any(b))

    def contiguous_regs(self, dim: int) -> int:
        """How many leading registers hold consecutive elements along `dim` (1, 2, 4, ...)."""
        n = 0
        for i, b in enumerate(self.reg):
            want = tuple((1 << i) if d == dim else 0 for d in range(self.rank))
            if b != want:
                break
            n += 1
        return 1 << n

    def check_injective(self) -> None:
        """Non-zero bases must be linearly independent (over GF(2)) for the per-thread element lists to be
        meaningful: each (register, lane, warp) combination then names one element, replicas aside."""
        if self._injectivity_error:
            raise UnsupportedLayout(self._injectivity_error)

    @cached_property
    def _injectivity_error(self) -> str | None:
        """Why `check_injective` fails (decided once per layout), or None."""
        rows = []
        for b in self.reg + self.lane + self.warp:
            if not any(b):
                continue
            v = 0
            for d, x in enumerate(b):
                v |= x << (32 * d)
            for r in rows:
                v = min(v, v ^ r)
            if v == 0:
                return "layout bases are not linearly independent"
            rows.append(v)
        covered = math.prod(self.shape)
        if 1 << len(rows) != covered:
            return f"layout covers {1 << len(rows)} elements of a tensor of {covered}"
        return None


def _identity_nd(sizes, order, start, rank) -> list[Basis]:
    """Bases spreading `sizes[d]` consecutive values along each dimension `d`, dimensions taken in `order`;
    along `d` the first basis is `start[d]`."""
    out = []
    for d in order:
        for i in range(_log2(sizes[d], "layout size")):
            out.append(tuple((start[d] << i) if k == d else 0 for k in range(rank)))
    return out


def _fit(shape, reg, lane, warp, order):
    """Triton's ensureLayoutNotSmallerThan (more registers for the tile's repeats, fastest dimension first),
    then ensureLayoutNotLargerThan (zero the largest bases of a dimension the tile overflows)."""
    rank = len(shape)
    reg = [list(b) for b in reg]
    lane = [list(b) for b in lane]
    warp = [list(b) for b in warp]
    for d in order:
        size = 1 << sum(1 for b in reg + lane + warp if b[d])
        while size < shape[d]:
            reg.append([size if k == d else 0 for k in range(rank)])
            size *= 2
    for d in range(rank):
        size = 1 << sum(1 for b in reg + lane + warp if b[d])
        if size <= shape[d]:
            continue
        found = [(b[d], kind, i) for kind, group in ((0, reg), (1, lane), (2, warp)) for i, b in enumerate(group) if b[d]]
        found.sort(key=lambda t: -t[0])
        for _, kind, i in found:
            if size <= shape[d]:
                break
            (reg, lane, warp)[kind][i][d] = 0
            size //= 2
    return LinearLayout(tuple(shape), tuple(map(tuple, reg)), tuple(map(tuple, lane)), tuple(map(tuple, warp)))


def _blocked(shape, enc: BlockedEncoding) -> LinearLayout:
    spt, tpw, wpc, order = (list(enc[k]) for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"))
    rank = len(order)
    if len(shape) != rank:
        raise UnsupportedLayout(f"a rank-{rank} blocked layout on a rank-{len(shape)} tensor")
    reg = _identity_nd(spt, order, [1] * rank, rank)
    lane = _identity_nd(tpw, order, spt, rank)
    warp = _identity_nd(wpc, order, [s * t for s, t in zip(spt, tpw)], rank)
    return _fit(shape, reg, lane, warp, order)


def _unit(rank: int, d: int, v: int) -> Basis:
    return tuple(v if k == d else 0 for k in range(rank))


def _mma_warps(enc: NvidiaMmaEncoding, rank: int, tile: list[int], k_dim: int | None) -> list[Basis]:
    """The warp bases of an MMA layout (or of a dot operand of it: the warps along `k_dim`, the dimension the
    operand does not have, are replicas), after a per-warp tile: warpsPerCTA N first for v2 (order [rank-1, ...,
    0]); M first for v3, so that the four warps of a warp group hold consecutive 16-row slabs."""
    wpc = list(enc["warpsPerCTA"])
    if len(wpc) != rank:
        raise UnsupportedLayout(f"a rank-{len(wpc)} #ttg.nvidia_mma layout on a rank-{rank} tensor")
    dims = list(reversed(range(rank)))
    if enc["versionMajor"] == 3:
        dims = [rank - 2, rank - 1] + dims[2:]
    out = []
    for d in dims:
        for i in range(_log2(wpc[d], "warpsPerCTA")):
            out.append(_unit(rank, d, 0 if d == k_dim else tile[d] << i))
    return out


def _check_mma(enc: NvidiaMmaEncoding) -> int:
    """The per-warp tile width along N: 8 for v2 (`mma.sync` m16n8), instrShape's N for v3 (a warp's 16 rows of
    `wgmma` m64nN)."""
    if enc.get("CGALayout"):
        raise UnsupportedLayout("multi-CTA layouts are not supported")
    version, instr = enc["versionMajor"], tuple(enc["instrShape"])
    if version == 2:
        if instr[-2:] != (16, 8):
            raise UnsupportedLayout("#ttg.nvidia_mma v2 layouts are supported with instrShape = [16, 8] only")
        return 8
    if version == 3:
        if len(instr) != 3 or instr[0] != 16 or instr[1] % 8 or not 8 <= instr[1] <= 256:
            raise UnsupportedLayout("#ttg.nvidia_mma v3 needs instrShape = [16, N, K] with N a multiple of 8 "
                                    f"from 8 to 256, got {list(instr)}")
        if len(enc["warpsPerCTA"]) != 2 or enc["warpsPerCTA"][0] % 4:
            raise UnsupportedLayout("#ttg.nvidia_mma v3 needs a rank-2 warpsPerCTA with warp groups (a multiple "
                                    "of 4 warps) along M")
        return instr[1]
    raise UnsupportedLayout(f"#ttg.nvidia_mma version {version} is not supported (2: mma.sync, 3: wgmma)")


def _mma(shape, enc: NvidiaMmaEncoding) -> LinearLayout:
    width = _check_mma(enc)
    rank = len(shape)
    m, n = rank - 2, rank - 1
    reg = [_unit(rank, n, 1), _unit(rank, m, 8)] + [_unit(rank, n, 8 << i) for i in range(_log2(width // 8, "N"))]
    lane = [_unit(rank, n, 2), _unit(rank, n, 4), _unit(rank, m, 1), _unit(rank, m, 2), _unit(rank, m, 4)]
    tile = [1] * rank
    tile[m], tile[n] = 16, width
    warp = _mma_warps(enc, rank, tile, None)
    return _fit(shape, reg, lane, warp, list(reversed(range(rank))))


def _mma_operand(shape, enc: DotOperandEncoding) -> LinearLayout:
    parent = enc["parent"]
    _check_mma(parent)
    k_width = enc.get("kWidth", 2)
    rank = len(shape)
    op_a = enc["opIdx"] == 0
    if parent["versionMajor"] == 3 and not op_a:
        raise UnsupportedLayout("wgmma reads operand B from shared memory: no #ttg.dot_op<{opIdx = 1}> of an MMA v3 "
                                "layout")
    k = rank - 1 if op_a else rank - 2
    other = rank - 2 if op_a else rank - 1  # M for A, N for B
    tile = [1] * rank
    tile[k] = 8 * k_width
    tile[other] = 16 if op_a else 8
    # nvidiaMmaTile: kWidth registers along K, 4 lanes along K, 8 lanes along M (N), the rest of M in registers,
    # then the rest of K in registers
    reg = [_unit(rank, k, 1 << i) for i in range(_log2(k_width, "kWidth"))]
    lane = [_unit(rank, k, k_width), _unit(rank, k, 2 * k_width)]
    lane += [_unit(rank, other, 1 << i) for i in range(3)]
    reg += [_unit(rank, other, 8 << i) for i in range(_log2(tile[other] // 8, "tile"))]
    reg += [_unit(rank, k, 4 * k_width << i) for i in range(_log2(tile[k] // (4 * k_width), "tile"))]
    # the parent's warps: along the dimension the operand does not have (N for A, M for B) they are replicas
    warp = _mma_warps(parent, rank, tile, rank - 1 if op_a else rank - 2)
    order = [k, other] + list(reversed(range(rank - 2)))  # repeats: K first
    return _fit(shape, reg, lane, warp, order)


def _mfma_operand(shape, enc: DotOperandEncoding) -> LinearLayout:
    """A dot operand of an AMD MFMA layout (Triton's mfmaDotToLinearLayout): kWidth registers along K, the wave's
    64 lanes nonKDim along M (N) then along K, more registers for the rest of K and tilesPerWarp along M (N), the
    warps as the parent's (N fastest), and along K (replicas) and beyond the tensor broadcast."""
    parent = enc["parent"]
    if parent["CGALayout"]:
        raise UnsupportedLayout("multi-CTA layouts are not supported")
    rank, op_a, k_width = len(shape), enc["opIdx"] == 0, enc["kWidth"]
    if len(parent["warpsPerCTA"]) != rank:
        raise UnsupportedLayout(f"a rank-{len(parent['warpsPerCTA'])} #ttg.amd_mfma layout on a rank-{rank} tensor")
    k, other = (rank - 1, rank - 2) if op_a else (rank - 2, rank - 1)
    m_dim, n_dim = parent["instrShape"][:2]
    non_k = m_dim if op_a else n_dim
    reg = [_unit(rank, k, 1 << i) for i in range(_log2(k_width, "kWidth"))]
    lane = [_unit(rank, other, 1 << i) for i in range(_log2(non_k, "instrShape"))]
    lane += [_unit(rank, k, k_width << i) for i in range(_log2(64 // non_k, "instrShape"))]
    k_tile = 64 // non_k * k_width
    if (m_dim, n_dim) == ((64, 4) if op_a else (4, 64)):  # the 64x64 operand of a 4x64 / 64x4 MFMA: 16 K tiles
        reg += [_unit(rank, k, k_tile << i) for i in range(4)]
        k_tile *= 16
    reg += [_unit(rank, k, k_tile << i) for i in range(max(0, _log2(shape[k], "K") - _log2(k_tile, "K tile")))]
    reg += [_unit(rank, other, non_k << i) for i in range(_log2(parent["tilesPerWarp"][other], "tilesPerWarp"))]
    tile = [1] * rank
    for b in reg + lane:
        for d, x in enumerate(b):
            tile[d] = max(tile[d], 2 * x)
    warp = [_unit(rank, d, tile[d] << i) for d in reversed(range(rank))
            for i in range(_log2(parent["warpsPerCTA"][d], "warpsPerCTA"))]
    return _fit(shape, reg, lane, warp, [k, other] + list(reversed(range(rank - 2))))


def _dot_operand(shape, enc: DotOperandEncoding) -> LinearLayout:
    parent = enc["parent"]
    if isinstance(parent, NvidiaMmaEncoding):
        return _mma_operand(shape, enc)
    if isinstance(parent, AMDMfmaEncoding):
        return _mfma_operand(shape, enc)
    if not isinstance(parent, BlockedEncoding):
        raise UnsupportedLayout("dot operands are supported with #ttg.blocked, #ttg.nvidia_mma and #ttg.amd_mfma "
                                "parents only")
    spt, tpw, wpc, order = (list(parent[k]) for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"))
    rank = len(order)
    k_dim = rank - 1 if enc["opIdx"] == 0 else rank - 2
    sizes = list(spt)
    sizes[k_dim] = shape[k_dim]
    reg = _identity_nd(sizes, order, [1] * rank, rank)
    lane, warp = [], []
    for group, counts, first in ((lane, tpw, sizes), (warp, wpc, None)):
        for d in order:
            start = first[d] if first is not None else sizes[d] * (tpw[d] if d != k_dim else 1)
            for i in range(_log2(counts[d], "layout size")):
                group.append(tuple(0 if (k != d or d == k_dim) else start << i for k in range(rank)))
    return _fit(shape, reg, lane, warp, order)


def _slice(shape, enc: SliceEncoding) -> LinearLayout:
    dim = enc["dim"]
    pshape = list(shape)
    pshape.insert(dim, 1)
    p = layout_for(tuple(pshape), enc["parent"])

    def drop(b):
        return b[:dim] + b[dim + 1 :]

    reg = tuple(drop(b) for b in p.reg if any(drop(b)))
    return LinearLayout(tuple(shape), reg, tuple(map(drop, p.lane)), tuple(map(drop, p.warp)))


def _linear(shape, enc: LinearEncoding) -> LinearLayout:
    if enc.get("block", ()) not in ((), None) and any(any(b) for b in enc["block"]):
        raise UnsupportedLayout("multi-CTA linear layouts are not supported")
    bases = [[tuple(b) for b in enc[k]] for k in ("register", "lane", "warp")]
    for b in bases[0] + bases[1] + bases[2]:
        if len(b) != len(shape):
            raise UnsupportedLayout("linear layout bases do not match the tensor's rank")
    # a smaller tensor than the layout's (a slice's parent of extent 1 along the sliced dimension): the bases
    # beyond it broadcast, as Triton's ensureLayoutNotLargerThan makes them; registers it makes broadcast go
    # (LinearEncodingAttr::toLinearLayout passes broadcastRegisters=false)
    clamp = lambda b: tuple(x if x < n else 0 for x, n in zip(b, shape))  # noqa: E731
    reg = tuple(clamp(b) for b in bases[0] if any(clamp(b)) or not any(b))
    return LinearLayout(tuple(shape), reg, *(tuple(map(clamp, group)) for group in bases[1:]))


@lru_cache(maxsize=1024)
def layout_for(shape: tuple[int, ...], enc: Attribute) -> LinearLayout:
    """The linear layout of a tensor of `shape` in layout `enc` (raises UnsupportedLayout)."""
    for d in shape:
        _log2(d, "tensor dimensions")
    if isinstance(enc, BlockedEncoding):
        if enc.get("CGALayout"):
            raise UnsupportedLayout("multi-CTA layouts are not supported")
        return _blocked(shape, enc)
    if isinstance(enc, SliceEncoding):
        return _slice(shape, enc)
    if isinstance(enc, DotOperandEncoding):
        return _dot_operand(shape, enc)
    if isinstance(enc, NvidiaMmaEncoding):
        return _mma(shape, enc)
    if isinstance(enc, LinearEncoding):
        return _linear(shape, enc)
    raise UnsupportedLayout(f"layout {enc.name} is not supported by the LLVM lowering")
