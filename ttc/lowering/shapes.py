"""Ops that create tensors or change their shape: `tt.make_range`, `tt.splat`, `tt.broadcast`, `tt.expand_dims`,
`tt.reshape`, `tt.trans`, `tt.join`, `tt.split`, `tt.cat`.

Each one is a map from the result's coordinates to the operand's (a projection for broadcast, a permutation for
trans, ...), so the result's registers are the operand's registers renamed whenever the layouts agree on which
thread holds what (the usual case: Triton infers the result layouts to make it so), else a trip through shared
memory (`convert.rearrange`).
"""

from __future__ import annotations

import llvmlite.ir as ir

from ttc.ir.types import shape_of
from ttc.lowering.convert import rearrange, register_map
from ttc.lowering.registry import lowering
from ttc.lowering.types import i32


@lowering("tt.make_range")
def _make_range(ctx, op):
    ll = ctx.layout(op.result.type, op)
    start = op.start.value.data
    vals = []
    for c in ctx.coords(ll, per_bit=True):
        vals.append(ctx.b.add(c[0], ir.Constant(i32, start)) if start else c[0])
    ctx.set(op.result, vals)


@lowering("tt.splat")
def _splat(ctx, op):
    ctx.set(op.result, ctx.splat(ctx.get(op.src), op.result.type, op))


@lowering("tt.broadcast")
def _broadcast(ctx, op):
    s, d = shape_of(op.src.type), shape_of(op.result.type)
    keep = [not (s[i] == 1 and d[i] != 1) for i in range(len(d))]
    ctx.set(op.result, rearrange(
        ctx, op, ctx.get(op.src), ctx.layout(op.src.type, op), ctx.layout(op.result.type, op),
        lambda c: tuple(x if k else 0 for x, k in zip(c, keep))))


@lowering("tt.expand_dims")
def _expand_dims(ctx, op):
    a = op.axis.value.data
    ctx.set(op.result, rearrange(
        ctx, op, ctx.get(op.src), ctx.layout(op.src.type, op), ctx.layout(op.result.type, op),
        lambda c: tuple(c[:a]) + tuple(c[a + 1:])))


def _unlinearize(shape, index: int) -> tuple:
    out = []
    for n in reversed(shape):
        out.append(index % n)
        index //= n
    return tuple(reversed(out))


def _linear(shape, c) -> int:
    idx = 0
    for x, n in zip(c, shape):
        idx = idx * n + x
    return idx


@lowering("tt.reshape")
def _reshape(ctx, op):
    s, d = shape_of(op.src.type), shape_of(op.result.type)
    ctx.set(op.result, rearrange(
        ctx, op, ctx.get(op.src), ctx.layout(op.src.type, op), ctx.layout(op.result.type, op),
        lambda c: _unlinearize(s, _linear(d, c))))


@lowering("tt.trans")
def _trans(ctx, op):
    order = list(op.order.get_values())
    inverse = [order.index(i) for i in range(len(order))]  # source dim j is result dim inverse[j]
    ctx.set(op.result, rearrange(
        ctx, op, ctx.get(op.src), ctx.layout(op.src.type, op), ctx.layout(op.result.type, op),
        lambda c: tuple(c[inverse[j]] for j in range(len(c)))))


@lowering("tt.join")
def _join(ctx, op):
    dst = ctx.layout(op.result.type, op)
    halves = [ctx.layout(v.type, op) for v in (op.lhs, op.rhs)]
    values = [ctx.get(op.lhs), ctx.get(op.rhs)]
    m = register_map(halves[0], dst, lambda c: tuple(c[:-1]))
    if m is None or any(bb[-1] for bb in dst.lane + dst.warp):
        raise ctx.error(op, "tt.join needs the joined dimension in registers")
    out = []
    for c in dst.reg_coords:
        out.append(values[c[-1]][halves[c[-1]].first_reg[tuple(c[:-1])]])
    ctx.set(op.result, out)


@lowering("tt.split")
def _split(ctx, op):
    src = ctx.layout(op.src.type, op)
    values = ctx.get(op.src)
    if any(bb[-1] for bb in src.lane + src.warp):
        raise ctx.error(op, "tt.split needs the split dimension in registers")
    for k, res in enumerate((op.outLHS, op.outRHS)):
        dst = ctx.layout(res.type, op)
        m = register_map(src, dst, lambda c: tuple(c) + (0,))
        if m is None:
            raise ctx.error(op, "tt.split's result layouts do not match its operand's")
        ctx.set(res, [values[src.first_reg[tuple(c) + (k,)]] for c in dst.reg_coords])


@lowering("tt.cat")
def _cat(ctx, op):
    out = ctx.get(op.lhs) + ctx.get(op.rhs)
    if len(out) != ctx.layout(op.result.type, op).num_regs:
        raise ctx.error(op, "tt.cat's result layout does not hold its operands' registers")
    ctx.set(op.result, out)
