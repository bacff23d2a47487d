"""Element coordinates in LLVM IR: for each register of a tensor, the logical index of the element it holds,
computed from the thread's lane and warp ids and the tensor's linear layout.

A coordinate is the XOR of a per-thread part (from the lane and warp bases) and a per-register constant (from
the register bases). Runs of lane (or warp) id bits whose bases double along one dimension become one
shift-and-mask, so a blocked layout's index math is what one would write by hand: `(lane & 31) * 4 + r`.
"""

from __future__ import annotations

import llvmlite.ir as ir

from ttc.ir.linear_layout import LinearLayout
from ttc.lowering.types import i32


def _runs(bases, dim: int):
    """(first bit, first value, length) of the runs of id bits whose component along `dim` doubles."""
    bits = [(i, b[dim]) for i, b in enumerate(bases) if b[dim]]
    runs = []
    for i, v in bits:
        if runs:
            i0, v0, n = runs[-1]
            if i == i0 + n and v == v0 << n and v0 & (v0 - 1) == 0:
                runs[-1] = (i0, v0, n + 1)
                continue
        runs.append((i, v, 1))
    return runs


def id_part(b: ir.IRBuilder, bases, ident: ir.Value, dim: int, per_bit: bool = False) -> ir.Value | None:
    """The contribution of a lane (or warp) id to the coordinate along `dim`; None when it is always 0.
    `per_bit`: a run of one id bit becomes `select((id & bit) == 0, 0, value)`, the form Triton's applyLinearLayout
    emits, not a shift and mask: InstCombine then folds `zext(a > b) != value` into an `xor i1` of the compare and
    the id bit (the sort's compare-and-swap against a flip mask), where after `(id >> k) & 1` it keeps the zext and
    the compare, and the SLP vectorizer pairs those into vectors ptxas allocates more registers for."""
    out = None
    for i0, v0, n in _runs(bases, dim):
        if per_bit and n == 1:
            bit = b.icmp_unsigned("==", b.and_(ident, ir.Constant(i32, 1 << i0)), ir.Constant(i32, 0))
            term = b.select(bit, ir.Constant(i32, 0), ir.Constant(i32, v0))
            out = term if out is None else b.xor(out, term)
            continue
        bits = b.and_(b.lshr(ident, ir.Constant(i32, i0)) if i0 else ident, ir.Constant(i32, (1 << n) - 1))
        if v0 & (v0 - 1) == 0:
            term = b.shl(bits, ir.Constant(i32, v0.bit_length() - 1)) if v0 > 1 else bits
        else:  # a single bit whose basis is not a power of two
            term = b.select(b.icmp_unsigned("!=", bits, ir.Constant(i32, 0)), ir.Constant(i32, v0), ir.Constant(i32, 0))
        out = term if out is None else b.xor(out, term)
    return out


def thread_coords(b: ir.IRBuilder, ll: LinearLayout, lane: ir.Value, warp: ir.Value,
                  per_bit: bool = False) -> list[ir.Value | None]:
    """Per dimension: the coordinate of the thread's register 0 (None where it is 0 for every thread)."""
    out = []
    for d in range(ll.rank):
        parts = [p for p in (id_part(b, ll.lane, lane, d, per_bit), id_part(b, ll.warp, warp, d, per_bit)) if p is not None]
        v = parts[0] if parts else None
        for p in parts[1:]:
            v = b.xor(v, p)
        out.append(v)
    return out


def disjoint(ll: LinearLayout) -> bool:
    """Whether register and thread bits never overlap, so that XOR is OR (and addition)."""
    seen = set()
    for basis in ll.reg + ll.lane + ll.warp:
        for d, v in enumerate(basis):
            if not v:
                continue
            if v & (v - 1) or (d, v) in seen:
                return False
            seen.add((d, v))
    return True


def register_coords(b: ir.IRBuilder, ll: LinearLayout, lane: ir.Value, warp: ir.Value,
                    per_bit: bool = False) -> list[list[ir.Value]]:
    """Per register: its element's coordinates (i32 values); `per_bit` as for `id_part`."""
    base = thread_coords(b, ll, lane, warp, per_bit)
    combine = b.or_ if disjoint(ll) else b.xor
    out = []
    for c in ll.reg_coords:
        coords = []
        for d in range(ll.rank):
            if base[d] is None:
                coords.append(ir.Constant(i32, c[d]))
            elif c[d] == 0:
                coords.append(base[d])
            else:
                coords.append(combine(base[d], ir.Constant(i32, c[d])))
        out.append(coords)
    return out


def linearize(b: ir.IRBuilder, coords: list[ir.Value], shape) -> ir.Value:
    """Row-major linear index of `coords` in `shape`."""
    if not coords:
        return ir.Constant(i32, 0)
    idx = coords[0]
    for c, n in zip(coords[1:], shape[1:]):
        idx = b.add(b.mul(idx, ir.Constant(i32, n)), c)
    return idx


def id_bits(b: ir.IRBuilder, ident: ir.Value, bits: list[int]) -> ir.Value:
    """The id bits at the given positions, packed together (bit `bits[k]` of `ident` becomes bit k)."""
    out = None
    k = 0
    while k < len(bits):
        n = 1
        while k + n < len(bits) and bits[k + n] == bits[k] + n:
            n += 1
        part = b.and_(b.lshr(ident, ir.Constant(i32, bits[k])), ir.Constant(i32, (1 << n) - 1))
        if k:
            part = b.shl(part, ir.Constant(i32, k))
        out = part if out is None else b.or_(out, part)
        k += n
    return out if out is not None else ir.Constant(i32, 0)
