"""`tt.reduce`: combine the elements along one axis, in three steps as Triton does.

1. Within each thread: the registers holding elements of the same output position (same coordinates but the
   axis) are combined in register order (replicated registers are skipped).
2. Within each warp: a butterfly (`shfl.sync.bfly`) over each lane id bit that moves along the axis, the highest
   bit first as Triton's warpReduce (so float sums round as Triton's do); afterwards
   every lane holds its warp's partial result. From sm80, when all 32 lanes run along the axis and the combine
   region is one integer add/and/or/xor/min/max of at most 32 bits, one `redux.sync` does it (as Triton).
3. Across warps (when warps split the axis): each warp writes its partials to shared memory at
   `[output position][warp index along the axis]`, a barrier; then (as Triton's accumulatePartialReductions)
   thread t loads slot t, the nw threads of one position combine them by a butterfly and the first writes the
   total to the position's slot 0; a barrier, and every thread loads its positions' totals. Inside a loop, where
   that second barrier and shuffle round come back every iteration, every thread instead combines the nw
   partials of its positions in warp order (one barrier; nw more values live for a moment).

The result's registers (a slice of the operand's layout, or a scalar) take the combined value of their position.
Several operands (an argmax's value and index) are reduced together by the combine region.
"""

from __future__ import annotations

import math

import llvmlite.ir as ir
from xdsl.dialects.builtin import TensorType

from ttc.ir.linear_layout import UnsupportedLayout, layout_for
from ttc.ir.types import encoding, shape_of
from ttc.lowering import indexing
from ttc.lowering.context import Lowering
from ttc.lowering.registry import lowering
from ttc.lowering.types import UnsupportedType, bits_of, i32, llvm_type


def _drop(c, axis):
    return tuple(c[:axis]) + tuple(c[axis + 1:])


def _slot(types) -> int:
    """Bytes of the widest of these (LLVM) types as stored in shared memory: every operand's slot."""
    return max(max(1, bits_of(Lowering.stored_type(t)) // 8) for t in types)


def scratch_need(op) -> int:
    """The scratch bytes `_across_warps` uses at `op`: [operand][output position][warp along the axis] slots of
    the widest operand's size (0 when one warp holds the axis); what shared-memory allocation reserves for it."""
    axis = op.axis.value.data
    srcs = list(op.srcs)
    try:
        ll = layout_for(tuple(shape_of(srcs[0].type)), encoding(srcs[0].type))
        slot = _slot([llvm_type(s.type.element_type) for s in srcs])
    except (UnsupportedLayout, UnsupportedType):
        return 0  # the lowering reports it
    nw = 1 << sum(1 for basis in ll.warp if basis[axis])
    return 0 if nw == 1 else math.prod(_drop(ll.shape, axis)) * nw * slot * len(srcs)


@lowering("tt.reduce")
def _reduce(ctx, op):
    axis = op.axis.value.data
    srcs = list(op.srcs)
    ll = ctx.layout(srcs[0].type, op)
    vals = [ctx.get(s) for s in srcs]
    region = op.combineOp

    def combine(a, c):
        return tuple(ctx.combine(region, list(a) + list(c)))

    # 1. within the thread
    acc: dict = {}
    rep: dict = {}
    for r in ll.unique_regs:
        key = _drop(ll.reg_coords[r], axis)
        cur = tuple(v[r] for v in vals)
        if key in acc:
            acc[key] = combine(acc[key], cur)
        else:
            acc[key], rep[key] = cur, r
    # 2. within the warp
    kind = _redux_kind(op) if len(vals) == 1 and all(b[axis] for b in ll.lane) else None
    if kind is not None:  # every lane along the axis: one redux.sync (Triton's warpReduce)
        for key in acc:
            acc[key] = (_redux(ctx, acc[key][0], kind),)
    else:  # one output position's whole butterfly after the other's (as Triton): fewer shuffled values live
        bits = [i for i, basis in enumerate(ll.lane) if basis[axis]]
        for key in acc:
            for i in reversed(bits):  # Triton's order, the farthest lanes first: Triton's float sums, bit for bit
                acc[key] = combine(acc[key], tuple(ctx.shuffle("bfly", x, 1 << i) for x in acc[key]))
    # 3. across warps
    warp_bits = [i for i, basis in enumerate(ll.warp) if basis[axis]]
    if warp_bits:
        acc = _across_warps(ctx, ll, axis, acc, rep, warp_bits, combine, _in_loop(op))
    # results
    results = list(op.results)
    if not isinstance(results[0].type, TensorType):
        for k, res in enumerate(results):
            ctx.set(res, acc[()][k])
        return
    out = ctx.layout(results[0].type, op)
    lines_up = [_drop(bb, axis) for bb in ll.lane + ll.warp] == list(out.lane + out.warp)
    if not lines_up or any(c not in acc for c in out.reg_coords):
        raise ctx.error(op, "tt.reduce's result layout must be the slice of its operand's layout along the axis")
    for k, res in enumerate(results):
        ctx.set(res, [acc[c][k] for c in out.reg_coords])


_REDUX = {"arith.addi": "add", "arith.andi": "and", "arith.ori": "or", "arith.xori": "xor", "arith.minsi": "min",
          "arith.minui": "min", "arith.maxsi": "max", "arith.maxui": "max"}


def _redux_kind(op) -> tuple[str, str, bool] | None:
    """(redux op, PTX type, signed) when the combine region is one integer op that sm80's `redux.sync` does on up
    to 32 bits (Triton's matchReduxKind)."""
    from ttc.ir.layout_utils import target_capability
    from xdsl.dialects.builtin import IntegerType

    if target_capability(op) < 80:
        return None
    body = [o for o in op.combineOp.blocks.first.ops]
    if len(body) != 2 or body[0].name not in _REDUX or body[1].operands[0] is not body[0].results[0]:
        return None
    t = body[0].results[0].type
    if not isinstance(t, IntegerType) or t.width.data > 32 or set(body[0].operands) != set(op.combineOp.blocks.first.args):
        return None
    name = body[0].name
    signed = name in ("arith.minsi", "arith.maxsi")
    ptx = "s32" if signed else "u32" if name in ("arith.minui", "arith.maxui") else "s32" if _REDUX[name] == "add" else "b32"
    return _REDUX[name], ptx, signed


def _redux(ctx, v: ir.Value, kind) -> ir.Value:
    """`redux.sync.<op>` over the 32 lanes of the warp (narrower integers widened and narrowed back)."""
    from ttc.lowering import nvvm

    op, ptx, signed = kind
    b = ctx.b
    width = v.type.width
    if width < 32:
        v = b.sext(v, i32) if signed or op in ("min", "max") and ptx == "s32" else b.zext(v, i32)
    r = nvvm.asm(b, f"redux.sync.{op}.{ptx} $0, $1, 0xffffffff;", "=r,r", i32, [v])
    return b.trunc(r, ir.IntType(width)) if width < 32 else r


def _in_loop(op) -> bool:
    """Whether the op runs once per iteration of a loop of its function."""
    p = op.parent_op()
    while p is not None and p.name not in ("tt.func", "llvm.func", "builtin.module"):
        if p.name in ("scf.for", "scf.while"):
            return True
        p = p.parent_op()
    return False


def _across_warps(ctx, ll, axis, acc, rep, warp_bits, combine, in_loop=False):
    b = ctx.b
    nw = 1 << len(warp_bits)
    out_shape = _drop(ll.shape, axis)
    n_out = math.prod(out_shape)
    first = next(iter(acc.values()))
    slot = _slot([x.type for x in first])
    region_bytes = n_out * nw * slot
    ctx.use_scratch(region_bytes * len(first))
    coords = ctx.coords(ll)
    warp_idx = indexing.id_bits(b, ctx.warp(), warp_bits)
    row = {key: b.mul(indexing.linearize(b, list(_drop(coords[r], axis)), out_shape), _c(nw)) for key, r in rep.items()}
    types = [x.type for x in first]

    def load(idx, pred=None):  # one slot's value of each operand
        return tuple(ctx.smem_load(idx, t, base=k * region_bytes, elem_bytes=slot, pred=pred) for k, t in enumerate(types))

    def store(idx, vals, pred=None):
        for k, x in enumerate(vals):
            ctx.smem_store(idx, x, base=k * region_bytes, elem_bytes=slot, pred=pred)

    ctx.barrier_before_scratch()
    for key, vals in acc.items():
        store(b.add(row[key], warp_idx), vals)
    ctx.barrier()
    if in_loop:  # every thread combines its positions' nw partials in warp order: one barrier and one shuffle
        out = {}  # round less per iteration (while_loop's collatz: 0.0207 -> 0.0137 ms on an H100), nw more
        for key in acc:  # values live (outside loops Triton's form below keeps fewer registers)
            out[key] = load(row[key])
            for w in range(1, nw):
                out[key] = combine(out[key], load(b.add(row[key], _c(w))))
        return out
    # Triton's accumulatePartialReductions: thread t takes slot t (and t + threads, ...), so each group of nw
    # consecutive lanes holds one position's partials; a butterfly over those lanes and the group's first lane
    # writes the total back to the position's slot 0. Every thread loading all nw partials instead keeps them
    # live at once (as a `ld.shared.v4`: softmax 22 registers against Triton's 18 with ptxas 13.0).
    threads, elems = ctx.num_warps * ctx.threads_per_warp, n_out * nw
    tid = ctx.tid()
    needed = b.icmp_unsigned("<", tid, _c(elems)) if elems < threads else None
    write = b.icmp_unsigned("==", b.and_(tid, _c(nw - 1)), _c(0))
    write = b.and_(needed, write) if needed is not None else write
    for r0 in range(0, elems, threads):
        idx = b.add(tid, _c(r0)) if r0 else tid
        part = load(idx, needed)
        for i in reversed(range(len(warp_bits))):  # Triton's order: xor nw/2 first
            part = combine(part, tuple(ctx.shuffle("bfly", x, 1 << i) for x in part))
        store(idx, part, write)
    ctx.barrier()
    return {key: load(row[key]) for key in acc}


def _c(v: int) -> ir.Constant:
    return ir.Constant(i32, v)
