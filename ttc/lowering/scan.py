"""`tt.scan`: inclusive prefix combine along one axis (from the end with `reverse = true`).

Along the axis, an element's position splits into bit fields of the layout: registers of a thread's chunk (the
low bits), lanes, warps, and registers of the tile's repeats (the high bits), in that order for blocked
layouts. The scan runs field by field, lowest first:

1. each thread scans its chunk sequentially;
2. a Hillis-Steele scan of the chunk totals across the lanes of the axis (`shfl.sync.up`, or `.down` in
   reverse), then each thread folds in the inclusive total of the lanes before it;
3. when warps split the axis: each warp's total of every repeat goes to shared memory (one exchange, one
   barrier between its stores and loads for all repeats), and each thread folds in the totals of the warps
   before it, in order (with lanes along the axis too, as Triton: into the lane's inclusive total, which
   shifted by one lane then replaces step 2's fold);
4. each repeat folds in the running total of the repeats before it where Triton's AddPartialReduce(OneWarp)
   does, so that float sums round as Triton's: with warps along the axis, the repeat's warp totals fold into
   it (it is the first warp's prefix); with one warp, into the lane's inclusive total before the shift of step
   2; with one thread along the axis, into each element.

"Before" means earlier in scan order; the earlier value is always the combine region's left operand.
"""

from __future__ import annotations

import math

import llvmlite.ir as ir

from ttc.ir.linear_layout import UnsupportedLayout, layout_for
from ttc.ir.types import encoding, shape_of
from ttc.lowering import indexing
from ttc.lowering.context import Lowering
from ttc.lowering.registry import lowering
from ttc.lowering.types import UnsupportedType, bits_of, i32, llvm_type


def _drop(c, axis):
    return tuple(c[:axis]) + tuple(c[axis + 1:])


def _c(v: int) -> ir.Constant:
    return ir.Constant(i32, v)


class _Fields:
    """The bit fields of the position along the axis."""

    def __init__(self, ctx, op, ll, axis):
        kinds = []
        for kind, bases in (("reg", ll.reg), ("lane", ll.lane), ("warp", ll.warp)):
            for i, bb in enumerate(bases):
                if bb[axis]:
                    if any(x for d, x in enumerate(bb) if d != axis):
                        raise ctx.error(op, "tt.scan: layout mixes the scan axis with other dimensions")
                    kinds.append((bb[axis], kind, i))
        kinds.sort()
        order = [k for _, k, _ in kinds]
        # registers, then lanes, then warps, then registers again
        seq = "".join({"reg": "r", "lane": "l", "warp": "w"}[k] for k in order)
        stripped = seq.lstrip("r").rstrip("r")
        if stripped != "l" * stripped.count("l") + "w" * stripped.count("w"):
            raise ctx.error(op, "tt.scan: unsupported layout along the scan axis")
        self.chunk = 1 << (len(seq) - len(seq.lstrip("r")))
        self.lane_bits = [i for _, k, i in kinds if k == "lane"]
        self.warp_bits = [i for _, k, i in kinds if k == "warp"]
        if self.lane_bits and self.lane_bits != list(range(self.lane_bits[0], self.lane_bits[0] + len(self.lane_bits))):
            raise ctx.error(op, "tt.scan: lanes along the scan axis must be consecutive lane id bits")
        self.nl = 1 << len(self.lane_bits)
        self.nw = 1 << len(self.warp_bits)
        self.tile = self.chunk * self.nl * self.nw
        self.repeats = max(1, ll.shape[axis] // self.tile)


def scratch_need(op) -> int:
    """The scratch bytes `_warps` uses at `op`: [operand][repeat][row][warp along the axis] slots of the widest
    operand's size (0 when one warp holds the axis); what shared-memory allocation reserves for it."""
    axis = op.axis.value.data
    srcs = list(op.srcs)
    try:
        ll = layout_for(tuple(shape_of(srcs[0].type)), encoding(srcs[0].type))
        slot = max(max(1, bits_of(Lowering.stored_type(llvm_type(s.type.element_type))) // 8) for s in srcs)
        f = _Fields(None, op, ll, axis)
    except (UnsupportedLayout, UnsupportedType, AttributeError):
        return 0  # the lowering reports it
    return f.repeats * math.prod(_drop(ll.shape, axis)) * f.nw * slot * len(srcs) if f.warp_bits else 0


@lowering("tt.scan")
def _scan(ctx, op):
    axis = op.axis.value.data
    reverse = bool(op.reverse.value.data)
    srcs = list(op.srcs)
    ll = ctx.layout(srcs[0].type, op)
    vals = [ctx.get(s) for s in srcs]
    region = op.combineOp
    b = ctx.b
    f = _Fields(ctx, op, ll, axis)

    def combine(a, c):
        return tuple(ctx.combine(region, list(a) + list(c)))

    def select(cond, x, y):
        return tuple(b.select(cond, p, q) for p, q in zip(x, y))

    # elements by row (coordinates off the axis), repeat and chunk position
    elems: dict = {}
    rep: dict = {}
    for r in ll.unique_regs:
        c = ll.reg_coords[r]
        row, pos = _drop(c, axis), c[axis]
        rep.setdefault(row, r)
        elems.setdefault(row, {})[(pos // f.tile, pos % f.chunk)] = tuple(v[r] for v in vals)
    scan_order = (lambda seq: list(reversed(list(seq)))) if reverse else list
    lanes_axis = warp_idx = None
    if f.lane_bits:
        lanes_axis = b.and_(b.lshr(ctx.lane(), _c(f.lane_bits[0])), _c(f.nl - 1))
    if f.warp_bits:
        warp_idx = indexing.id_bits(b, ctx.warp(), f.warp_bits)
        row_lin = _row_index(ctx, ll, axis, rep)
    totals = {}  # repeat -> row -> the warp's total of the repeat (with warps along the axis)
    carry = {row: None for row in elems}  # row -> the total of the repeats before (without warps along the axis)
    for hi in scan_order(range(f.repeats)):
        totals[hi] = {}
        for row, by_pos in elems.items():
            # 1. the thread's chunk
            run = None
            for low in scan_order(range(f.chunk)):
                e = by_pos[(hi, low)]
                run = e if run is None else combine(run, e)
                by_pos[(hi, low)] = run
            totals[hi][row] = run
            # 2. the lanes along the axis (and, with one warp along it, 4. the repeats before)
            if f.lane_bits:
                totals[hi][row] = _lanes(ctx, f, reverse, lanes_axis, by_pos, hi, run, combine, select,
                                         None if f.warp_bits else carry[row])
            elif not f.warp_bits and carry[row] is not None:
                for low in range(f.chunk):
                    by_pos[(hi, low)] = combine(carry[row], by_pos[(hi, low)])
                totals[hi][row] = by_pos[(hi, scan_order(range(f.chunk))[-1])]
            carry[row] = totals[hi][row]
    # 3. the warps along the axis (and 4. the repeats before): every repeat's warp totals in one exchange
    if f.warp_bits:
        _warps(ctx, f, reverse, lanes_axis, warp_idx, row_lin, math.prod(_drop(ll.shape, axis)), elems, totals,
               combine, select)
    for k, res in enumerate(op.results):
        out = []
        for c in ll.reg_coords:
            row, pos = _drop(c, axis), c[axis]
            out.append(elems[row][(pos // f.tile, pos % f.chunk)][k])
        ctx.set(res, out)


def _lane_before(ctx, f, reverse, lanes_axis, values):
    """`values` of the lane before this one along the axis (in scan order), and whether there is one."""
    b = ctx.b
    before = tuple(ctx.shuffle("down" if reverse else "up", x, 1 << f.lane_bits[0]) for x in values)
    has = b.icmp_unsigned("<", lanes_axis, _c(f.nl - 1)) if reverse else b.icmp_unsigned("!=", lanes_axis, _c(0))
    return before, has


def _lanes(ctx, f, reverse, lanes_axis, by_pos, hi, total, combine, select, carry):
    """Scan the chunk totals across the axis' lanes. With warps along the axis (`carry` None there) returns the
    lane's inclusive prefix, which is the warp's total in the row's last lane in scan order (the one that stores
    it for the warps' exchange, as Triton); `_warps` folds the lanes before into the chunk. With one warp along
    the axis, as Triton's AddPartialReduceOneWarp: `carry` (the repeats before, if any) folds into the lane's
    inclusive prefix, which is the chunk's last element; the others fold in that prefix of the lane before (the
    carry in the first lane); returns the running total, in every lane of the row."""
    b = ctx.b
    kind = "down" if reverse else "up"
    shift = f.lane_bits[0]
    t = total
    for j in range(len(f.lane_bits)):
        s = 1 << j
        y = tuple(ctx.shuffle(kind, x, s << shift) for x in t)
        valid = b.icmp_unsigned("<", lanes_axis, _c(f.nl - s)) if reverse else b.icmp_unsigned(">=", lanes_axis, _c(s))
        t = select(valid, combine(y, t), t)
    if f.warp_bits:
        if f.chunk == 1:  # one element a thread: the lanes' inclusive scan is the element's value
            by_pos[(hi, 0)] = t
        return t
    if carry is not None:
        t = combine(carry, t)
    last_low = 0 if reverse else f.chunk - 1  # the chunk's last element in scan order
    if f.chunk > 1:
        before, has = _lane_before(ctx, f, reverse, lanes_axis, t)
        for low in range(f.chunk):
            e = by_pos[(hi, low)]
            if low == last_low:
                continue
            by_pos[(hi, low)] = select(has, combine(before, e), e) if carry is None else \
                combine(select(has, before, carry), e)
    by_pos[(hi, last_low)] = t
    field = (f.nl - 1) << shift
    lane = ctx.lane()
    src = b.and_(lane, _c(~field & 0xFFFFFFFF)) if reverse else b.or_(lane, _c(field))
    return tuple(ctx.shuffle("idx", x, src) for x in t)


def _row_index(ctx, ll, axis, rep):
    coords = ctx.coords(ll)
    shape = _drop(ll.shape, axis)
    return {row: indexing.linearize(ctx.b, list(_drop(coords[r], axis)), shape) for row, r in rep.items()}


def _warps(ctx, f, reverse, lanes_axis, warp_idx, row_lin, n_rows, elems, totals, combine, select):
    """Exchange the warps' totals of every repeat through shared memory (one barrier between the stores and the
    loads, as Triton); fold those of the warps before into each element. As Triton's AddPartialReduce, a
    repeat's warp totals fold into the running total of the repeats before it (in scan order), which is then
    the prefix of the repeat's first warp."""
    b = ctx.b
    first = next(iter(next(iter(totals.values())).values()))
    slot = max(max(1, bits_of(ctx.stored_type(x.type)) // 8) for x in first)
    region_bytes = f.repeats * n_rows * f.nw * slot
    ctx.use_scratch(region_bytes * len(first))

    def index(hi, row, warp):
        return b.add(b.mul(b.add(row_lin[row], _c(hi * n_rows)), _c(f.nw)), warp)

    # with lanes along the axis, the row's last lane in scan order holds the warp's total and stores it
    last_lane = None
    if f.lane_bits:
        last_lane = b.icmp_unsigned("==", lanes_axis, _c(0 if reverse else f.nl - 1))
    ctx.barrier_before_scratch()
    for hi, by_row in totals.items():
        for row, t in by_row.items():
            for k, x in enumerate(t):
                ctx.smem_store(index(hi, row, warp_idx), x, base=k * region_bytes, elem_bytes=slot, pred=last_lane)
    ctx.barrier()
    order = list(reversed(range(f.nw))) if reverse else list(range(f.nw))
    last_low = 0 if reverse else f.chunk - 1  # the chunk's last element in scan order
    running = {}  # row -> the total of the repeats so far: the next repeat's warps fold into it, as Triton's
    for hi, by_row in totals.items():  # (in scan order)
        for row, t in by_row.items():
            parts = {w: tuple(ctx.smem_load(index(hi, row, _c(w)), x.type, base=k * region_bytes, elem_bytes=slot)
                              for k, x in enumerate(t)) for w in order}
            tile = prefix = running.get(row)
            has = None if tile is None else True  # after the first repeat every element has something before
            for w in order:  # the warps before this one come first in this order
                tile = parts[w] if tile is None else combine(tile, parts[w])
                before = b.icmp_unsigned("<", warp_idx, _c(w)) if reverse else b.icmp_unsigned(">", warp_idx, _c(w))
                if prefix is None:
                    prefix, has = parts[w], before
                else:
                    prefix = select(before, tile, prefix)  # `before` holds for every earlier warp too
                    if has is not True:
                        has = b.or_(has, before)
            running[row] = tile
            by_pos = elems[row]
            if not f.lane_bits:
                for low in range(f.chunk):
                    e = by_pos[(hi, low)]
                    by_pos[(hi, low)] = combine(prefix, e) if has is True else select(has, combine(prefix, e), e)
                continue
            # as Triton: the warps before fold into the lane's inclusive total `t` first, and that shifted by one
            # lane (the warps' prefix in the axis' first lane) into the thread's chunk prefixes; the chunk's last
            # element is the total itself. Shifting `t` before the exchange kept it live across the barrier
            # beside the chunk (cumsum_i32_b1024_w8: 22 registers against Triton's 19 with ptxas 13.0).
            tp = combine(prefix, t) if has is True else select(has, combine(prefix, t), t)
            if f.chunk == 1:
                by_pos[(hi, 0)] = tp
                continue
            before, has_lane = _lane_before(ctx, f, reverse, lanes_axis, tp)
            x = select(has_lane, before, prefix)
            has_any = True if has is True else b.or_(has_lane, has)
            for low in range(f.chunk):
                e = by_pos[(hi, low)]
                by_pos[(hi, low)] = tp if low == last_low else (
                    combine(x, e) if has_any is True else select(has_any, combine(x, e), e))
