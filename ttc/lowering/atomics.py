"""Atomics: `tt.atomic_rmw` and `tt.atomic_cas` as predicated PTX `atom` instructions, as Triton emits them
(`@%p atom.acq_rel.gpu.global.add.u32 %r, [addr], %v;`), with the op's memory semantics and scope.

Each element is updated once: only one owner among threads (and registers) holding copies of an element
executes the atomic, and a scalar atomic runs in thread 0 alone. When the old values are used, they are
broadcast to the other holders through shared memory.
"""

from __future__ import annotations

import math

import llvmlite.ir as ir
from xdsl.dialects.builtin import TensorType

from ttc.ir.tt import RMW, SCOPE, SEM
from ttc.lowering import indexing, nvvm
from ttc.lowering.registry import lowering
from ttc.lowering.types import BFloatType, bits_of, i32

_RMW_NAMES = {v: k for k, v in RMW.items()}
_SEM = {v: k for k, v in SEM.items()}
_SCOPE = {v: k for k, v in SCOPE.items()}


def _suffix(ctx, op, kind: str, t: ir.Type) -> str:
    bits = bits_of(t)
    is_float = not isinstance(t, ir.IntType)
    if kind in ("add", "fadd"):
        if isinstance(t, ir.HalfType):
            return ".add.noftz.f16"
        if isinstance(t, BFloatType):
            return ".add.noftz.bf16"
        return f".add.f{bits}" if is_float else f".add.u{bits}"
    if is_float and kind not in ("exch",):
        raise ctx.error(op, f"atomic '{kind}' on floating-point values is not supported")
    if kind in ("and", "or", "xor", "exch"):
        return f".{kind}.b{bits}"
    if kind in ("max", "min"):
        return f".{kind}.s{bits}"
    if kind in ("umax", "umin"):
        return f".{kind[1:]}.u{bits}"
    raise ctx.error(op, f"atomic '{kind}' is not supported")


def _atom(ctx, text: str, t: ir.Type, operands: list[ir.Value], pred: ir.Value | None) -> ir.Value:
    """`mov 0; @p atom ...` with `$0` the old value, operands after it, the predicate last."""
    b = ctx.b
    bits = bits_of(t)
    if bits not in nvvm.REG:
        raise ValueError(f"no atomic for {bits}-bit values")
    it = ir.IntType(bits)
    args = [operands[0]] + [v if isinstance(v.type, ir.IntType) else b.bitcast(v, it) for v in operands[1:]]
    cons = [f"={nvvm.REG[bits]}", "l"] + [nvvm.REG[bits]] * (len(args) - 1)
    guard = ""
    if pred is not None:
        args.append(pred)
        cons.append("b")
        guard = f"@${len(args)} "
    ops = ", ".join(f"${i + 2}" for i in range(len(operands) - 1))
    asm = f"mov.b{bits} $0, 0;\n\t{guard}{text} $0, [ $1 + 0 ], {ops};"
    res = nvvm.asm(b, asm, ",".join(cons), it, args)
    return res if isinstance(t, ir.IntType) else b.bitcast(res, t)


def _prefix(op) -> str:
    return f"atom.{_SEM[op.sem.value.data]}.{_SCOPE[op.scope.value.data]}.global"


def _and(b, a, c):
    if a is None:
        return c
    if c is None:
        return a
    return b.and_(a, c)


def _run(ctx, op, text: str, ptrs, value_lists, masks, t: ir.Type):
    """Atomics over scalars or tensors; returns the old values (broadcast to every holder when used)."""
    b = ctx.b
    res = op.results[0]
    used = bool(res.uses)
    if not isinstance(res.type, TensorType):
        pred = _and(b, masks, b.icmp_unsigned("==", ctx.tid(), ir.Constant(i32, 0)))
        old = _atom(ctx, text, t, [ptrs] + value_lists, pred)
        if used:
            ctx.use_scratch(max(1, bits_of(ctx.stored_type(t)) // 8))
            ctx.barrier_before_scratch()
            ctx.smem_store(ir.Constant(i32, 0), old, pred=b.icmp_unsigned("==", ctx.tid(), ir.Constant(i32, 0)))
            ctx.barrier()
            old = ctx.smem_load(ir.Constant(i32, 0), t)
        ctx.set(res, old)
        return
    ll = ctx.layout(res.type, op)
    n = ll.num_regs
    cols = [v if isinstance(v, list) else [v] * n for v in value_lists]
    ptrs = ptrs if isinstance(ptrs, list) else [ptrs] * n
    owner = ctx.owner_pred(ll)
    out = [None] * n
    for r in ll.unique_regs:
        mask = masks[r] if isinstance(masks, list) else masks
        out[r] = _atom(ctx, text, t, [ptrs[r]] + [c[r] for c in cols], _and(b, mask, owner))
    for r in range(n):
        if out[r] is None:
            out[r] = out[ll.first_reg[ll.reg_coords[r]]]
    if used and owner is not None:
        ctx.use_scratch(math.prod(ll.shape) * max(1, bits_of(ctx.stored_type(t)) // 8))
        ctx.barrier_before_scratch()
        coords = ctx.coords(ll)
        for r in ll.unique_regs:
            ctx.smem_store(indexing.linearize(b, coords[r], ll.shape), out[r], pred=owner)
        ctx.barrier()
        out = [ctx.smem_load(indexing.linearize(b, c, ll.shape), t) for c in coords]
    ctx.set(res, out)


@lowering("tt.atomic_rmw")
def _atomic_rmw(ctx, op):
    kind = _RMW_NAMES[op.atomic_rmw_op.value.data]
    t = ctx.type_of(op.val.type, op)
    text = _prefix(op) + _suffix(ctx, op, kind, t)
    masks = ctx.get(op.mask) if op.mask is not None else None
    _run(ctx, op, text, ctx.get(op.ptr), [ctx.get(op.val)], masks, t)


@lowering("tt.atomic_cas")
def _atomic_cas(ctx, op):
    t = ctx.type_of(op.val.type, op)
    text = _prefix(op) + f".cas.b{bits_of(t)}"
    _run(ctx, op, text, ctx.get(op.ptr), [ctx.get(op.cmp), ctx.get(op.val)], None, t)
