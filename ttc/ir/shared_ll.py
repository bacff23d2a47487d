"""Triton's linear layouts of the shared-memory encodings, for checking shared-memory views as Triton does: which
tensor element each shared-memory offset holds (LinearLayoutConversions.cpp: swizzledSharedToLinearLayout,
nvmmaSharedToLinearLayout, sharedToLinearLayoutAMDRotating, SharedLinearEncodingAttr::toLinearLayout), Triton's
reshape of a layout (LayoutUtils.cpp: reshapeLayout) and the layout `ttg.memdesc_reshape` infers for its
result (Ops.cpp: inferMemDescReshapeOpEncoding).

`LL` is Triton's LinearLayout restricted to what these need: named input dimensions (`offset`, `block`) with
their bases, named output dimensions with their sizes, both in order (the order matters, as in Triton: products,
`ensure_not_smaller` and equality follow it). Layouts spread over several CTAs, and `#ttg.padded_shared` (which
Triton gives no linear layout), raise `UnsupportedSharedLayout`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ttc.ir.layouts import NVMMASharedEncoding, SwizzledSharedEncoding
from ttc.ir.shared_layouts import AMDRotatingSharedEncoding, PaddedSharedEncoding, SharedLinearEncoding, out_sizes


class UnsupportedSharedLayout(Exception):
    """A layout (or layout and shape) this module does not model."""


def _log2(n: int) -> int:
    return n.bit_length() - 1


@dataclass(frozen=True)
class LL:
    ins: tuple  # ((name, (basis, ...)), ...); a basis has one entry per output dimension, in `outs` order
    outs: tuple  # ((name, size), ...)

    def size(self, name: str) -> int:
        return dict(self.outs).get(name, 1)

    @property
    def out_names(self) -> list[str]:
        return [n for n, _ in self.outs]

    def transpose_outs(self, names) -> LL:
        idx = [self.out_names.index(n) for n in names]
        return LL(tuple((i, tuple(tuple(b[k] for k in idx) for b in bs)) for i, bs in self.ins),
                  tuple(self.outs[k] for k in idx))

    def reshape_outs(self, new_outs) -> LL:
        """Flatten the outputs (the first most minor) and split the flat index into `new_outs`."""
        assert math.prod(s for _, s in self.outs) == math.prod(s for _, s in new_outs)

        def move(b):
            v, shift = 0, 0
            for (_, s), c in zip(self.outs, b):
                v |= c << shift
                shift += _log2(s)
            out = []
            for _, s in new_outs:
                out.append(v & (s - 1))
                v >>= _log2(s)
            return tuple(out)

        return LL(tuple((i, tuple(move(b) for b in bs)) for i, bs in self.ins), tuple(new_outs))


def _std(rank: int) -> list[str]:
    return [f"dim{i}" for i in range(rank)]


def identity1d(size: int, i: str, o: str) -> LL:
    return LL(((i, tuple((1 << k,) for k in range(_log2(size)))),), ((o, size),))


def from_bases(in_dim: str, bases, names) -> LL:
    """Triton's LinearLayout(bases, outDimNames): the output sizes inferred from the bases."""
    bases = tuple(tuple(b) for b in bases)
    return LL(((in_dim, bases),), tuple(zip(names, out_sizes((bases,), len(names)))))


def mul(a: LL, b: LL) -> LL:
    """Triton's `a * b`: b's bases come after a's, scaled by a's sizes where they share an output dimension."""
    outs = a.out_names + [n for n in b.out_names if n not in a.out_names]
    a_idx, b_idx = {n: k for k, n in enumerate(a.out_names)}, {n: k for k, n in enumerate(b.out_names)}
    ins = {}
    for name, bases in a.ins:
        ins[name] = [tuple(bs[a_idx[n]] if n in a_idx else 0 for n in outs) for bs in bases]
    for name, bases in b.ins:
        ins.setdefault(name, []).extend(
            tuple(bs[b_idx[n]] * a.size(n) if n in b_idx else 0 for n in outs) for bs in bases)
    return LL(tuple((n, tuple(bs)) for n, bs in ins.items()), tuple((n, a.size(n) * b.size(n)) for n in outs))


def ensure_not_smaller(ll: LL, shape: dict) -> LL:
    """More bases of the first input dimension for each output dimension smaller than `shape`'s."""
    first = ll.ins[0][0]
    for n in ll.out_names:
        if shape[n] > ll.size(n):
            ll = mul(ll, identity1d(shape[n] // ll.size(n), first, n))
    return ll


def ensure_not_larger(ll: LL, shape: dict) -> LL:
    """The largest bases of each output dimension larger than `shape`'s zeroed (broadcast) until it fits."""
    ins = {n: [list(b) for b in bs] for n, bs in ll.ins}
    for k, n in enumerate(ll.out_names):
        actual, want = ll.size(n), shape[n]
        if actual <= want:
            continue
        found = sorted(((name, j, b[k]) for name, bs in ins.items() for j, b in enumerate(bs) if b[k]),
                       key=lambda t: -t[2])
        for name, j, _ in found:
            if actual <= want:
                break
            ins[name][j][k] = 0
            actual >>= 1
    return LL(tuple((n, tuple(tuple(b) for b in bs)) for n, bs in ins.items()),
              tuple((n, min(s, shape[n])) for n, s in ll.outs))


def _one_cta(ll: LL, shape) -> LL:
    """Triton's combineCtaCgaWithShape for one CTA: fitted to `shape`, with an empty `block` dimension, the
    outputs in the standard order."""
    names = _std(len(shape))
    want = dict(zip(names, shape))
    ll = ensure_not_larger(ensure_not_smaller(ll, want), want)
    ll = mul(ll, LL((("block", ()),), tuple((n, 1) for n in ll.out_names)))
    return ll.transpose_outs(names)


def reshape_layout(ll: LL, shape) -> LL:
    """Triton's reshapeLayout: the same bases over the row-major reshape of the outputs."""
    names = _std(len(shape))
    return (ll.transpose_outs(list(reversed(ll.out_names)))
            .reshape_outs(tuple(reversed(list(zip(names, shape))))).transpose_outs(names))


def _check_one_cta(enc) -> None:
    if math.prod(enc.get("CTAsPerCGA") or (1,)) != 1 or enc.get("CGALayout"):
        raise UnsupportedSharedLayout("layouts over several CTAs are not supported yet")


def _swizzled(shape, enc, rotating: bool) -> LL:
    rank = len(shape)
    if rank == 1:
        return _one_cta(identity1d(shape[0], "offset", "dim0"), shape)
    order = list(enc["order"])
    if sorted(order) != list(range(rank)):
        raise UnsupportedSharedLayout(f"the layout's order {order} does not fit a shape of rank {rank}")
    col, row = order[0], order[1]
    vec, per_phase, max_phase = enc["vec"], enc["perPhase"], enc["maxPhase"]
    bases = [(0, c) for c in (1 << k for k in range(_log2(shape[col])))]
    for r in (1 << k for k in range(_log2(shape[row]))):
        phase = (r // per_phase) % max_phase
        if rotating:
            phase ^= r // max_phase // per_phase % max_phase
        bases.append((r, (vec * phase) % shape[col]))
    ll = from_bases("offset", bases, [f"dim{row}", f"dim{col}"])
    for d in order[2:]:
        ll = mul(ll, identity1d(shape[d], "offset", f"dim{d}"))
    return _one_cta(ll, shape)


def tma_block_shape(shape, bits: int, swizzle: int, fp4: bool, transposed: bool, packed: bool) -> list[int]:
    """Triton's getTMABlockShape."""
    block = list(shape)
    contig = 0 if transposed else len(block) - 1
    if fp4:
        block[contig] *= 2
    block = [min(s, 256) for s in block]
    if swizzle:
        need = 8 * swizzle // bits
        if block[contig] < need:
            raise UnsupportedSharedLayout(
                f"block shape along the contiguous dimension {contig} is too small for the swizzle byte size "
                f"{swizzle} in an NVMMASharedLayout, got {block[contig]} but expected at least {need}")
        block[contig] = need
    if fp4 and packed:
        block[contig] //= 2
    return block


def _nvmma(shape, enc) -> LL:
    rank = len(shape)
    swizzle, bits = enc["swizzlingByteWidth"], enc["elementBitWidth"]
    transposed, fp4 = bool(enc.get("transposed")), bool(enc.get("fp4Padded"))
    tma = tma_block_shape(shape, bits, swizzle, fp4, transposed, True)
    std = dict(zip(_std(rank), shape))
    if swizzle == 0:
        ll = identity1d(tma[rank - 1], "offset", f"dim{rank - 1}")
        for i in range(rank - 2, -1, -1):
            ll = mul(ll, identity1d(tma[i], "offset", f"dim{i}"))
        return _one_cta(ensure_not_smaller(ll, std), shape)
    if rank < 2:
        raise UnsupportedSharedLayout("a swizzled #ttg.nvmma_shared needs at least 2 dimensions")
    collapsed = [math.prod(tma[:-1]), tma[-1]]
    if transposed:
        collapsed.reverse()
    vec, per_phase, max_phase = 128 // bits, 128 // swizzle, swizzle // 16
    tile_cols = 8 * max(16, swizzle) // bits
    bases = []
    for c in (1 << k for k in range(_log2(tile_cols))):
        bases.append((0, c // 16 * 8 + c % 8 if fp4 else c))
    for r in (1, 2, 4):
        col = vec * ((r // per_phase) % max_phase)
        bases.append((r, col // 16 * 8 + col % 8 if fp4 else col))
    tile = from_bases("offset", bases, ["dim0", "dim1"])
    if collapsed[1] * (2 if fp4 else 1) < tile.size("dim1") or collapsed[0] < tile.size("dim0"):
        raise UnsupportedSharedLayout(f"Illegal shared layout; expected collapsed shapePerCTA to be at least "
                                      f"[{tile.size('dim0')}, {tile.size('dim1') // (2 if fp4 else 1)}]")
    ll = ensure_not_smaller(tile, {"dim0": collapsed[0], "dim1": collapsed[1]})
    pre = tma[1:] + tma[:1] if transposed else tma
    ll = reshape_layout(ll, pre)
    if transposed:  # Triton's transposeLinearLayout: the bases' entries permuted, the sizes inferred again
        order = [rank - 1] + list(range(rank - 1))
        (name, bs), = ll.ins
        ll = from_bases(name, [[b[i] for i in order] for b in bs], _std(rank))
    return _one_cta(ensure_not_smaller(ll, std), shape)


def _shared_linear(shape, enc) -> LL:
    rank = len((enc["offset"] + enc["block"])[0])
    sizes = out_sizes((enc["offset"], enc["block"]), rank)
    if tuple(shape) != sizes:
        raise UnsupportedSharedLayout(f"the #ttg.shared_linear layout covers {list(sizes)}, not the shape "
                                      f"{list(shape)}")
    if enc["block"]:
        raise UnsupportedSharedLayout("layouts over several CTAs are not supported yet")
    return LL((("offset", enc["offset"]), ("block", ())), tuple(zip(_std(rank), sizes)))


def to_linear_layout(shape, enc) -> LL:
    """Triton's toLinearLayout(shape, encoding) for a shared-memory encoding."""
    shape = tuple(shape)
    if any(s <= 0 or s & (s - 1) for s in shape):
        raise UnsupportedSharedLayout(f"shape {list(shape)} must have power-of-two dimensions")
    if isinstance(enc, SharedLinearEncoding):
        return _shared_linear(shape, enc)
    if isinstance(enc, (SwizzledSharedEncoding, AMDRotatingSharedEncoding, NVMMASharedEncoding)):
        _check_one_cta(enc)
        if isinstance(enc, NVMMASharedEncoding):
            return _nvmma(shape, enc)
        return _swizzled(shape, enc, isinstance(enc, AMDRotatingSharedEncoding))
    raise UnsupportedSharedLayout(f"no linear layout for {type(enc).name}")


def is_innermost_contiguous(shape, enc, n: int) -> bool:
    """Triton's isInnermostContiguous: the first `n` offsets of the buffer hold its first `n` elements in row-major
    order (the leading offset bases are 1, 2, 4, ... of the row-major flattened index)."""
    ll = to_linear_layout(shape, enc)
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    run = 0
    for b in dict(ll.ins)["offset"]:
        if sum(c * st for c, st in zip(b, strides)) != 1 << run:
            break
        run += 1
    return (1 << run) >= n


def _alignment(enc) -> int:
    """SharedEncodingTrait::getAlignment."""
    if isinstance(enc, NVMMASharedEncoding):
        return 128 * (enc["swizzlingByteWidth"] // 16 if enc["swizzlingByteWidth"] else 1)
    if isinstance(enc, SharedLinearEncoding):
        return enc["alignment"]
    return 16


def _as_shared_linear(ll: LL, alignment: int) -> SharedLinearEncoding:
    return SharedLinearEncoding((("offset", dict(ll.ins)["offset"]), ("block", dict(ll.ins).get("block", ())),
                                 ("alignment", alignment)))


def infer_trans_encoding(shape, enc, order):
    """inferTransOpEncoding's generic case for a shared layout of `shape` (ttc.ir.layout_utils.trans_encoding has
    the swizzled and nvmma_shared ones): the `#ttg.shared_linear` of the linear layout with its outputs permuted by
    `order`."""
    ll = to_linear_layout(shape, enc)
    names = [n for n, _ in ll.outs]
    moved = ll.transpose_outs([names[o] for o in order])
    return _as_shared_linear(LL(moved.ins, tuple(zip(_std(len(order)), (s for _, s in moved.outs)))),
                             _alignment(enc))


def infer_reshape_encoding(src_shape, enc, dst_shape):
    """inferMemDescReshapeOpEncoding: an `#ttg.nvmma_shared` stays one when its contiguous dimension is kept and
    the reshaped layout is the candidate's; a `#ttg.padded_shared` reshapes its linear component; anything else
    becomes the `#ttg.shared_linear` of the reshaped linear layout."""
    if isinstance(enc, NVMMASharedEncoding) and math.prod(enc.get("CTAsPerCGA") or (1,)) == 1 \
            and not enc.get("CGALayout"):
        transposed = bool(enc.get("transposed"))
        if (dst_shape[0] if transposed else dst_shape[-1]) == (src_shape[0] if transposed else src_shape[-1]):
            cand = NVMMASharedEncoding.make(
                swizzlingByteWidth=enc["swizzlingByteWidth"], transposed=transposed,
                elementBitWidth=enc["elementBitWidth"], fp4Padded=True if enc.get("fp4Padded") else None,
                rank=len(dst_shape) if len(dst_shape) != 2 else None)
            if reshape_layout(to_linear_layout(src_shape, enc), dst_shape) == to_linear_layout(dst_shape, cand):
                return cand
    elif isinstance(enc, PaddedSharedEncoding):
        ll = LL((("offset", enc["offset"]), ("block", enc["block"])), tuple(zip(_std(enc["rank"]), enc.shape)))
        out = reshape_layout(ll, dst_shape)
        return PaddedSharedEncoding((("intervals", enc["intervals"]), ("paddings", enc["paddings"]),
                                     ("offset", dict(out.ins)["offset"]), ("block", dict(out.ins)["block"]),
                                     ("rank", len(dst_shape))))
    return _as_shared_linear(reshape_layout(to_linear_layout(src_shape, enc), dst_shape), _alignment(enc))


def infer_reshape(src, dst_shape):
    """MemDescReshapeOp::inferReturnTypes: the memdesc type of `src` reshaped to `dst_shape`."""
    from xdsl.dialects.builtin import ArrayAttr, IntAttr

    from ttc.ir.memdesc import MemDescType

    shape, alloc = src.get_shape(), src.get_alloc_shape()
    enc = infer_reshape_encoding(shape, src.encoding, tuple(dst_shape))
    lead = alloc[: len(alloc) - len(shape)]
    return MemDescType(ArrayAttr([IntAttr(d) for d in dst_shape]), src.element_type, enc, src.memory_space,
                       src.mutable, ArrayAttr([IntAttr(d) for d in lead + tuple(dst_shape)]))


def equivalent_memdesc(a, b) -> bool:
    """Triton's verifyEquivalentType for memdescs: the same type but for layouts with equal linear layouts."""
    if (a.get_shape(), a.get_alloc_shape(), a.element_type, a.memory_space, a.mutable) != \
            (b.get_shape(), b.get_alloc_shape(), b.element_type, b.memory_space, b.mutable):
        return False
    if a.encoding == b.encoding:
        return True
    if isinstance(a.encoding, PaddedSharedEncoding) or isinstance(b.encoding, PaddedSharedEncoding):
        return False
    return to_linear_layout(a.get_shape(), a.encoding) == to_linear_layout(b.get_shape(), b.encoding)
