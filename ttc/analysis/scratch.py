"""How many bytes of shared-memory scratch an op needs while it runs (Triton's
`defaultAllocationAnalysisScratchSizeFn`), and how a layout conversion moves its data (Triton's
`cvtReordersRegisters` / `cvtNeedsWarpShuffle` / `cvtNeedsSharedMemory` / `isCvtWarpSync`).

Layouts are Triton's linear layouts (`ttc.ir.linear_layout.layout_for`) seen as GF(2) maps from hardware
bits (register, lane, warp) to the bits of an element's flat index, dimension 0 the most minor as Triton
flattens them. On those:

- `tt.reduce`: none when one warp holds the reduced axis, else the source shape with the axis cut to the
  number of warps along it, times the bytes of every operand's element;
- `tt.scan` (blocked layouts): warps x non-axis threads of a warp x non-axis elements of a thread x blocks,
  when several warps share the axis;
- `tt.gather`: the whole source, unless each warp holds every source element its indices can name;
- `tt.histogram`: one counter per bin (at least one per lane);
- `ttg.convert_layout`: none when only registers move or a warp shuffle does it, else the part of the tensor
  one round of Triton's swizzled exchange holds (`optimalSwizzlingLdSt`: the tensor over the repetitions, the
  bases both layouts keep in registers that the shared layout puts in its segment); the whole tensor when a
  layout has no linear form here;
- `tt.atomic_rmw` / `tt.atomic_cas` whose result is used: the old value broadcast to the threads (a scalar, or
  a tensor some threads hold twice);
- `ttng.tensormap_create`: a 128-byte tensor map.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from ttc.ir.layout_utils import threads_per_warp_of
from ttc.ir.layouts import BlockedEncoding
from ttc.ir.types import PointerType, bitwidth, elt, encoding, shape_of
from ttc.ir.linear_layout import LinearLayout, UnsupportedLayout, layout_for

DIMS = ("register", "lane", "warp")


def _log2(n: int) -> int:
    return n.bit_length() - 1


def cvt_bitwidth(t) -> int:
    """Triton's getBitwidth of a tensor: 64 for pointers, at least 8."""
    return 64 if isinstance(elt(t), PointerType) else max(bitwidth(t), 8)


def linear(t: TensorType) -> LinearLayout | None:
    """The tensor's linear layout; None for layouts the back end does not model (or no layout)."""
    if encoding(t) is None:
        return None
    try:
        return layout_for(tuple(shape_of(t)), encoding(t))
    except UnsupportedLayout:
        return None


def flat_bases(ll: LinearLayout) -> dict[str, list[int]]:
    """Each in-dimension's bases as flat element indices (dimension 0 the most minor)."""
    strides, s = [], 1
    for n in ll.shape:
        strides.append(s)
        s *= n
    flat = lambda b: sum(x * st for x, st in zip(b, strides))  # noqa: E731
    return {"register": [flat(b) for b in ll.reg], "lane": [flat(b) for b in ll.lane],
            "warp": [flat(b) for b in ll.warp]}


def bases_per_dim(bases, rank: int) -> list[int]:
    """Triton's LinearEncodingAttr::basesPerDim (broadcast bases skipped): per tensor dimension, 2 to the
    number of bases that move along it."""
    out = [1] * rank
    for b in bases:
        for d, x in enumerate(b):
            if x:
                out[d] *= 2
                break
    return out


# ----------------------------------------------------------------------------- GF(2) linear algebra


def _rref(rows: list[int]) -> list[int]:
    """The reduced row echelon form (pivot: a row's lowest set bit) of bit-vector rows, zero rows dropped."""
    out: list[int] = []
    for v in rows:
        for r in out:
            if v & (r & -r):
                v ^= r
        if v:
            low = v & -v
            out = [r ^ v if r & low else r for r in out]
            out.append(v)
    return out


def _nullspace(vectors: list[int], dim: int) -> list[int]:
    """Triton's nullspaceBasis: a basis of the x with <x, v> = 0 for every v, free columns in order."""
    rows = _rref(vectors)
    pivots = {(r & -r).bit_length() - 1: r for r in rows}
    out = []
    for col in range(dim):
        if col in pivots:
            continue
        vec = 1 << col
        for p, r in pivots.items():
            if r >> col & 1:
                vec ^= 1 << p
        out.append(vec)
    return out


def intersection(b1: list[int], b2: list[int], dim: int) -> list[int]:
    """Triton's intersectionBasis (b1's order kept when the bases are single bits)."""
    if all(b & (b - 1) == 0 for b in b1 + b2):
        s2 = set(b2)
        return [b for b in b1 if b and b in s2]
    return _nullspace(_nullspace(b1, dim) + _nullspace(b2, dim), dim)


def _complement(basis: list[int], dim: int) -> list[int]:
    pivots = {(r & -r).bit_length() - 1 for r in _rref(basis)}
    return [1 << i for i in range(dim) if i not in pivots]


def _solve(cols: list[int], targets: list[int]) -> list[int]:
    """Triton's lstsq: for each target, the columns that sum to it as a bit mask over `cols` (pivots taken from
    the left, free columns 0)."""
    piv: dict[int, tuple[int, int]] = {}  # lowest bit -> (vector, combination of columns)

    def reduce(v, combo):
        while v:
            low = v & -v
            if low not in piv:
                break
            pv, pc = piv[low]
            v, combo = v ^ pv, combo ^ pc
        return v, combo

    for i, c in enumerate(cols):
        v, combo = reduce(c, 1 << i)
        if v:
            piv[v & -v] = (v, combo)
    return [reduce(t, 0)[1] for t in targets]


def _independent(cols: list[int]) -> list[bool]:
    """Per column: whether it is a pivot of the RREF (independent of the columns before it)."""
    out, rows = [], []
    for c in cols:
        v = c
        for r in rows:
            if v & (r & -r):
                v ^= r
        out.append(bool(v))
        if v:
            low = v & -v
            rows = [r ^ v if r & low else r for r in rows]
            rows.append(v)
    return out


def invert_and_compose(b: dict[str, list[int]], a: dict[str, list[int]]) -> dict[str, list[dict[str, int]]]:
    """Triton's `B.invertAndCompose(A)`: for each in-bit of B, the in-bits of A that reach the same element
    (A^-1 . B), as {in-dimension of A: bit mask}. In-dimensions whose bases are the same in both map as the
    identity (Triton's broadcasting heuristic)."""
    same = [d for d in DIMS if a[d] == b[d]]
    rest_a = [(d, i) for d in DIMS if d not in same for i in range(len(a[d]))]
    rest_b = [(d, i) for d in DIMS if d not in same for i in range(len(b[d]))]
    sol = _solve([a[d][i] for d, i in rest_a], [b[d][i] for d, i in rest_b])
    out: dict[str, list[dict[str, int]]] = {d: [] for d in DIMS}
    for d in same:
        out[d] = [{d: 1 << i} for i in range(len(b[d]))]
    for (d, i), combo in zip(rest_b, sol):
        vec: dict[str, int] = {}
        for k, (ad, ai) in enumerate(rest_a):
            if combo >> k & 1:
                vec[ad] = vec.get(ad, 0) | 1 << ai
        out[d].append(vec)
    return out


def _trivial_over(comp, sizes: dict[str, int], ins: list[str], outs: list[str], dim: str) -> bool:
    """Triton's isTrivialOver(dim): the identity on `dim`, and `dim` not mixed with the other dimensions."""
    if len(comp[dim]) != sizes[dim]:
        return False
    for i, v in enumerate(comp[dim]):
        if v.get(dim, 0) != 1 << i or any(v.get(o, 0) for o in outs if o != dim):
            return False
    return all(not v.get(dim, 0) for e in ins if e != dim for v in comp[e])


def _minimal(src: dict, dst: dict) -> list[str]:
    """Triton's minimalCvtLayout, as the out-dimensions left after quotienting warp, lane, register."""
    comp = invert_and_compose(dst, src)
    sizes = {d: len(src[d]) for d in DIMS}
    ins, outs = list(DIMS), list(DIMS)
    for d in ("warp", "lane", "register"):
        if not _trivial_over(comp, sizes, ins, outs, d):
            break
        ins.remove(d)
        outs.remove(d)
    return outs


def _without_zero_regs(b: dict) -> dict:
    return {**b, "register": [x for x in b["register"] if x]}


def _mixed_transpositions(src: dict, dst: dict) -> int:
    """How many register-lane transpositions Triton's getWarpLayoutConvertDecomposition factors out of the
    permutation of register and lane bits that takes `src` to `dst`."""
    s, t = _without_zero_regs(src), _without_zero_regs(dst)
    n = {d: max(len(s[d]), len(t[d])) for d in ("register", "lane")}
    pad = lambda x: {d: x[d] + [0] * (n[d] - len(x[d])) for d in ("register", "lane")} | {"warp": []}  # noqa: E731
    s, t = pad(s), pad(t)
    comp = invert_and_compose(s, t)
    p = {d: [[v.get("register", 0), v.get("lane", 0)] for v in comp[d]] for d in ("register", "lane")}
    free_s, free_t = [], []
    for k, d in enumerate(("register", "lane")):
        for i in range(n[d]):
            if s[d][i] == 0 and t[d][i] == 0:
                p[d][i][k] = 1 << i
            elif s[d][i] == 0:
                free_s.append((k, i))
            elif t[d][i] == 0:
                free_t.append((k, i))
    for (sk, si), (tk, ti) in zip(free_s, free_t):
        p[("register", "lane")[sk]][si][tk] = 1 << ti
    names = ("register", "lane")
    seen: set[tuple[int, int]] = set()
    mixed = 0
    for k0, d0 in enumerate(names):
        for i0 in range(n[d0]):
            if (k0, i0) in seen:
                continue
            k, i = k0, i0
            reg_start = reg_end = -1
            for _ in range(n["register"] + n["lane"] + 1):
                seen.add((k, i))
                nk, ni = k, i
                for kk, x in enumerate(p[names[k]][i]):
                    if x:
                        nk, ni = kk, _log2(x)
                if k == 0 and nk == 1:
                    reg_start = i
                elif k == 1 and nk == 0:
                    reg_end = ni
                if reg_end >= 0 and reg_start >= 0:
                    mixed += 1
                    reg_start = reg_end = -1
                k, i = nk, ni
                if (k, i) == (k0, i0):
                    break
    return mixed


def conversion_kind(src_t: TensorType, dst_t: TensorType) -> str | None:
    """How Triton converts between the two layouts: "registers" (only registers move within threads),
    "shuffle" (warp shuffles), "shared" (through shared memory); None when a layout is not modelled."""
    a, b = linear(src_t), linear(dst_t)
    if a is None or b is None:
        return None
    src, dst = flat_bases(a), flat_bases(b)
    outs = _minimal(src, dst)
    if set(outs) <= {"register"}:
        return "registers"
    if outs == ["register", "lane"] and _mixed_transpositions(src, dst) < 2:
        return "shuffle"
    return "shared"


def is_warp_sync(src_t: TensorType, dst_t: TensorType) -> bool:
    """Triton's isCvtWarpSync: the conversion stays within warps and no warp repeats another's data, so the
    exchange needs only a warp-level barrier."""
    a, b = linear(src_t), linear(dst_t)
    if a is None or b is None:
        return False
    src, dst = flat_bases(a), flat_bases(b)
    comp = invert_and_compose(dst, src)
    if not _trivial_over(comp, {d: len(src[d]) for d in DIMS}, list(DIMS), list(DIMS), "warp"):
        return False
    for x in (src, dst):
        cols = x["register"] + x["lane"] + x["warp"]
        if not all(_independent(cols)[len(cols) - len(x["warp"]):]):
            return False
    return True


def _compute_segment(bank_src, bank_dst, dim: int, length: int) -> list[int]:
    set_src, set_dst = set(bank_src) - {0}, set(bank_dst) - {0}
    seg = [1 << b for b in range(dim) if (1 << b) not in set_src and (1 << b) not in set_dst]
    if len(seg) >= length:
        return seg[:length]
    a = sorted(v for v in set_src if v not in set_dst)
    b = sorted(v for v in set_dst if v not in set_src)
    if len(a) > len(b):
        a, b = b, a
    conflicts = min(max(0, length - len(a) - len(seg)), len(a))
    seg += [a[i] ^ b[i] for i in range(conflicts, len(a))]
    seg += a[:conflicts] + b[:conflicts]
    return seg[:length]


def swizzled_scratch_elems(src_ll: LinearLayout, dst_ll: LinearLayout, bits: int) -> int:
    """Triton's getNumScratchElemsSwizzledCvt: the elements of one round of the swizzled exchange."""
    src, dst = _without_zero_regs(flat_bases(src_ll)), _without_zero_regs(flat_bases(dst_ll))
    dim = _log2(math.prod(src_ll.shape))
    reg_src, reg_dst = src["register"], dst["register"]
    vbasis = intersection(reg_src, reg_dst, dim)[:_log2(128 // bits)]
    if (1 << len(vbasis)) * bits < 32:
        per_bank = _log2(32 // bits)
        warp_src = [w for w in src["warp"] if w]
        warp_dst = [w for w in dst["warp"] if w]
        drop_vec = lambda v: [r for r in v if r not in vbasis]  # noqa: E731
        rs = intersection(drop_vec(reg_src), warp_dst, dim)
        rd = intersection(drop_vec(reg_dst), warp_src, dim)
        if len(rs) == len(rd) and rs:
            largest = rs if min(rs) < min(rd) else rd
        else:
            largest = rs if len(rs) > len(rd) else rd
        vbasis = vbasis + largest
        if len(vbasis) < per_bank:
            vbasis += intersection(warp_src, warp_dst, dim)
        i = 0
        while len(vbasis) < per_bank and (i < len(warp_src) or i < len(warp_dst)):
            if i < len(warp_src) and warp_src[i] not in vbasis:
                vbasis.append(warp_src[i])
            if len(vbasis) < per_bank and i < len(warp_dst) and warp_dst[i] not in vbasis:
                vbasis.append(warp_dst[i])
            i += 1
        vbasis = vbasis[:per_bank]
    log2_vec = _log2(max(1, ((1 << len(vbasis)) * bits) // 32))
    tile_src = src["lane"][:len(src["lane"]) - log2_vec]
    tile_dst = dst["lane"][:len(dst["lane"]) - log2_vec]
    len_b = min(_log2(1024 // ((1 << len(vbasis)) * bits)), dim - len(vbasis))
    segment = _compute_segment(vbasis + tile_src, vbasis + tile_dst, dim, dim - len_b - len(vbasis))
    reps = sum(1 for s in segment if s in reg_src and s in reg_dst)
    return (1 << dim) >> reps


# ----------------------------------------------------------------------------- per-op scratch


def _elem_bytes(op: Operation) -> int:
    return sum(-(-bitwidth(v.type) // 8) for v in op.operands)


def reduce_scratch(op: Operation) -> int:
    src = op.operands[0].type
    ll = linear(src)
    axis = op.axis.value.data
    if ll is None or bases_per_dim(ll.warp, ll.rank)[axis] == 1:
        return 0
    shape = list(shape_of(src))
    shape[axis] = bases_per_dim(ll.warp, ll.rank)[axis]
    return math.prod(shape) * _elem_bytes(op)


def _contig_per_thread(ll: LinearLayout) -> list[int]:
    """Triton's getContigPerThread: along each dimension (in the layout's register order), how many leading
    registers hold consecutive elements."""
    order: list[int] = []
    for b in ll.reg:
        for d, x in enumerate(b):
            if x and d not in order:
                order.append(d)
    order += [d for d in reversed(range(ll.rank)) if d not in order]
    contig = [1] * ll.rank
    regs = list(ll.reg)
    k = 0
    for d in order:
        while k < len(regs) and regs[k] == tuple(contig[d] if j == d else 0 for j in range(ll.rank)):
            contig[d] *= 2
            k += 1
    return contig


def scan_scratch(op: Operation) -> int:
    src = op.operands[0].type
    ll = linear(src)
    if ll is None or not isinstance(encoding(src), BlockedEncoding):
        return 0
    axis = op.axis.value.data
    shape = shape_of(src)
    wpc, tpw = bases_per_dim(ll.warp, ll.rank), bases_per_dim(ll.lane, ll.rank)
    if wpc[axis] == 1:
        return 0
    contig = _contig_per_thread(ll)
    blocks = lambda d: -(-shape[d] // (contig[d] * tpw[d] * wpc[d]))  # noqa: E731
    non_axis_threads = math.prod(tpw) // tpw[axis]
    non_axis_elems = math.prod(c for d, c in enumerate(contig) if d != axis)
    non_axis_blocks = math.prod(blocks(d) for d in range(ll.rank) if d != axis)
    return _elem_bytes(op) * math.prod(wpc) * non_axis_threads * non_axis_elems * blocks(axis) * non_axis_blocks


def _gather_is_warp_local(op: Operation) -> bool:
    src, idx = linear(op.operands[0].type), linear(op.operands[1].type)
    if src is None or idx is None:
        return False
    axis = op.axis.value.data
    if any(b[axis] for b in src.warp + idx.warp):
        return False
    other = lambda bases: [tuple(x for d, x in enumerate(b) if d != axis) for b in bases]  # noqa: E731
    return other(src.warp) == other(idx.warp) and other(src.lane) == other(idx.lane)


def gather_scratch(op: Operation) -> int:
    if _gather_is_warp_local(op):
        return 0
    src = op.operands[0].type
    return math.prod(shape_of(src)) * -(-bitwidth(src) // 8)


def convert_scratch(op: Operation) -> int:
    src, dst = op.operands[0].type, op.results[0].type
    kind = conversion_kind(src, dst)
    bits = cvt_bitwidth(src)
    if kind is None:  # a layout not modelled: room for the whole tensor
        return math.prod(shape_of(src)) * bits // 8 if encoding(src) != encoding(dst) else 0
    if kind != "shared":
        return 0
    return swizzled_scratch_elems(linear(src), linear(dst), bits) * bits // 8


def atomic_scratch(op: Operation) -> int:
    result = op.results[0]
    if result.first_use is None:
        return 0
    t = result.type
    if isinstance(t, TensorType):
        ll = linear(t)
        if ll is None:
            return 0
        cols = list(ll.reg) + list(ll.lane) + list(ll.warp)
        strides, s = [], 1
        for n in ll.shape:
            strides.append(s)
            s *= n
        if all(_independent([sum(x * st for x, st in zip(b, strides)) for b in cols])):
            return 0  # no thread holds another's element: nothing to broadcast
        elems = math.prod(shape_of(t))
    else:
        elems = 1
    pointee = elt(op.operands[0].type)
    return elems * max(8, bitwidth(pointee.pointee if isinstance(pointee, PointerType) else pointee)) // 8


def scratch_bytes(op: Operation) -> int:
    """Triton's defaultAllocationAnalysisScratchSizeFn."""
    name = op.name
    if name == "tt.reduce":
        return reduce_scratch(op)
    if name == "tt.scan":
        return scan_scratch(op)
    if name == "tt.gather":
        return gather_scratch(op)
    if name == "tt.histogram":
        t = op.results[0].type
        return max(math.prod(shape_of(t)), threads_per_warp_of(op)) * cvt_bitwidth(t) // 8
    if name == "ttg.convert_layout":
        return convert_scratch(op)
    if name in ("tt.atomic_rmw", "tt.atomic_cas"):
        return atomic_scratch(op)
    if name == "ttng.tensormap_create":
        return 128
    return 0
