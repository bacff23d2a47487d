"""triton-nvidia-optimize-descriptor-encoding: give every tensor descriptor the shared-memory layout its TMA
copies will use (Triton's TritonNvidiaGPUOptimizeDescriptorEncodingPass, one CTA).

Per function, as Triton's assignMemoryLayouts does:
1. each use of a descriptor says what it wants: a `tt.descriptor_load`/`tt.descriptor_gather` whose result a
   `ttg.local_alloc` (or `ttg.local_store`) puts in an untransposed `#ttg.nvmma_shared` layout wants that layout;
   loads, gathers, stores, reduces and scatters give the shape they move (a gather's or scatter's rows, a
   rank-reducing load's shape with the leading unit dimensions back). The descriptors passed to or returned from
   calls, returned, made by `ttng.reinterpret_tensor_descriptor`, or arguments of a non-kernel (private) function
   are forced to the default layout;
2. what a descriptor wants spreads to the values an `scf.for`/`scf.while`/`scf.if` ties to it (its init value,
   region argument, yielded value and result): one layout wanted is taken, two different ones force the default,
   shapes meet at their elementwise minimum;
3. a descriptor gets the layout it wants, else Triton's default `NVMMASharedEncodingAttr::get` for the shape
   (the use's, or its block's when forced or unused): the swizzle is the widest of 128, 64 and 32 bytes that
   divides a row, none for fewer than 8 rows or one dimension; the layout records `rank = N` when the block is
   not 2-d. The function's descriptor results get the default for their block.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import FunctionType
from xdsl.ir import BlockArgument, Operation

from ttc.opt.greedy_rewrite import post_order
from ttc.ir.layouts import NVMMASharedEncoding
from ttc.ir.tensordesc import TensorDescType
from ttc.ir.types import bitwidth, shape_of
from ttc.passes.tma_lowering import encoding_for_shape
from ttc.opt.passmanager import Pass

_FORCED = ("tt.call", "tt.return", "ttng.reinterpret_tensor_descriptor")


def default_encoding(shape, element) -> NVMMASharedEncoding:
    """Triton's NVMMASharedEncodingAttr::get for `shape` with the rows contiguous (order [rank-1, ..., 0])."""
    row_bytes = shape[-1] * bitwidth(element) // 8
    swizzle = 0
    if len(shape) >= 2 and math.prod(shape[:-1]) >= 8:
        swizzle = next((w for w in (128, 64, 32) if row_bytes >= w and row_bytes % w == 0), 0)
    return NVMMASharedEncoding.make(swizzlingByteWidth=swizzle, transposed=False, elementBitWidth=bitwidth(element))


@dataclass(frozen=True)
class _Info:
    """Triton's EncodingInfo (one CTA: no CGA layout)."""

    desired: object = None
    shape: tuple = ()
    forced: bool = False


def _combine(a: _Info, b: _Info) -> _Info:
    if a.forced or b.forced:
        return _Info(forced=True)
    if not a.shape or a.shape == b.shape:
        shape = b.shape
    elif not b.shape:
        shape = a.shape
    else:
        shape = tuple(min(x, y) for x, y in zip(a.shape, b.shape))
    wanted = [e for e in (a.desired, b.desired) if e is not None]
    if len(wanted) == 2 and wanted[0] != wanted[1]:
        return _Info(shape=shape, forced=True)
    return _Info(wanted[0] if wanted else None, shape)


def _wanted_by_users(op: Operation):
    """Triton's findLoadEncodingFromUsers: the first untransposed NVMMA layout a user puts the value in."""
    for use in op.results[0].uses:
        user = use.operation
        t = user.results[0].type if user.name == "ttg.local_alloc" else \
            user.operands[1].type if user.name == "ttg.local_store" else None
        enc = getattr(t, "encoding", None)
        if isinstance(enc, NVMMASharedEncoding) and not enc.get("transposed"):
            return enc
    return None


def _use_info(op: Operation):
    """Triton's getUseInfo: (descriptor, what it wants) for the descriptor accesses, else None."""
    if op.name in ("tt.descriptor_load", "tt.descriptor_gather"):
        desired, shape = _wanted_by_users(op), shape_of(op.results[0].type)
    elif op.name in ("tt.descriptor_store", "tt.descriptor_reduce", "tt.descriptor_scatter"):
        desired, shape = None, shape_of(op.src.type)
    else:
        return None
    rank = len(op.desc.type.shape)
    return op.desc, _Info(desired, (1,) * (rank - len(shape)) + tuple(shape))


def _tied(op: Operation, i: int) -> list:
    """Triton's getTiedArgs: the values an scf op carries as its `i`-th result."""
    if isinstance(op, scf.ForOp):
        body = op.body.block
        return [body.args[1 + i], op.results[i], body.last_op.operands[i], op.iter_args[i]]
    if isinstance(op, scf.WhileOp):
        before, after = op.before_region.block, op.after_region.block
        return [before.args[i], op.results[i], before.last_op.args[i], op.arguments[i], after.args[i]]
    if isinstance(op, scf.IfOp):
        yields = [r.block.last_op for r in (op.true_region, op.false_region) if r.blocks]
        return [y.operands[i] for y in yields if isinstance(y, scf.YieldOp)] + [op.results[i]]
    return []


def _assign(func: Operation) -> None:
    info: dict = {}  # descriptor value -> _Info, in the order first seen
    work: list = []

    def update(values, new: _Info) -> None:
        for v in values:
            if v in info:
                new = _combine(info[v], new)
        for v in values:
            if info.get(v) != new:
                info[v] = new
                if v in work:
                    work.remove(v)
                work.append(v)

    kernel = func.properties.get("sym_visibility") is None or func.sym_visibility.data == "public"
    entry = func.body.blocks.first
    for a in entry.args:
        if isinstance(a.type, TensorDescType):
            update([a], _Info(forced=not kernel))
    for op in post_order(func):
        use = _use_info(op)
        if use is not None:
            update([use[0]], use[1])
            continue
        forced = op.name in _FORCED
        for v in list(op.results) + list(op.operands):
            if isinstance(v.type, TensorDescType):
                info.setdefault(v, _Info(forced=forced))  # what a use said stays
                if forced:
                    if v in work:
                        work.remove(v)
                    work.append(v)
    while work:
        desc = work.pop()
        for use in list(desc.uses):
            user = use.operation
            if isinstance(user, scf.ForOp | scf.WhileOp):
                update(_tied(user, use.index - (3 if isinstance(user, scf.ForOp) else 0)), _Info())
            elif isinstance(user, scf.YieldOp):
                update(_tied(user.parent_op(), use.index), _Info())
        if isinstance(desc, BlockArgument):
            parent = desc.owner.parent_op()
            if isinstance(parent, scf.ForOp | scf.WhileOp):
                update(_tied(parent, desc.index - (1 if isinstance(parent, scf.ForOp) else 0)), _Info())
        elif isinstance(desc.owner, scf.ForOp | scf.WhileOp | scf.IfOp):
            update(_tied(desc.owner, desc.index), _Info())
    for v, i in info.items():
        t = v.type
        block = t.shape
        enc = i.desired if i.desired is not None else default_encoding(block if i.forced or not i.shape else i.shape,
                                                                      t.block_type.element_type)
        v._type = t.with_encoding(encoding_for_shape(enc, block))
    outs = [t.with_encoding(encoding_for_shape(default_encoding(t.shape, t.block_type.element_type), t.shape))
            if isinstance(t, TensorDescType) else t for t in func.function_type.outputs.data]
    func.properties["function_type"] = FunctionType.from_lists([a.type for a in entry.args], outs)


@dataclass(frozen=True)
class OptimizeDescriptorEncoding(Pass):
    """Shared-memory layouts for tensor descriptors."""

    name = "triton-nvidia-optimize-descriptor-encoding"
    display = "TritonNvidiaGPUOptimizeDescriptorEncodingPass"
    summary = "Give tensor descriptors the NVMMA shared layout of their TMA copies"

    def apply(self, ctx, module) -> None:
        for op in module.body.ops:
            if op.name == "tt.func" and op.body.blocks:
                _assign(op)
