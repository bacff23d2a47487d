"""triton-rewrite-tensor-descriptor-to-pointer: tensor descriptors become pointer loads and stores, for GPUs
without TMA (Triton's TritonRewriteTensorDescriptorToPointer, run by make_ttir below sm_90).

A descriptor is carried as its base pointer, its shape and strides (i64) and a padding flag (i1, NaN padding):
- a `!tt.tensordesc` kernel argument is replaced in place by those `2 + 2 * rank` arguments (at its location;
  the i32 shape and i64 stride arguments that followed it stay, unused), and the function's type with it;
- `tt.make_tensor_descriptor` by its base, its shape extended to i64 (folded for constants), its strides and a
  constant padding flag;
- `tt.descriptor_load` by a masked `tt.load`: its `other` first (zeros, or for floats `select(padding, NaN,
  0)`), then per dimension `splat(offset) + extsi(make_range)` expanded to the block's rank, the pointers
  `splat(base)` advanced per dimension by `broadcast(offsets * splat(stride))`, and the mask
  `0 <= offsets < shape` per dimension, broadcast and and-ed; `tt.descriptor_store` by a masked `tt.store`;
  `tt.descriptor_reduce` by a `tt.atomic_rmw` (release, gpu) of the matching kind.
A descriptor used any other way (carried by a loop, passed to a call) is a located "not supported yet" error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue

from ttc.diagnostics import CompileError, at_op
from ttc.ir import tt
from ttc.ir.tensordesc import REDUCE_KIND, TensorDescType
from ttc.ir.types import PointerType, is_float
from ttc.passes.rewrite_tensor_pointer import _arith, _Builder, _Info
from ttc.passmanager import Pass

_DESC_OPS = ("tt.make_tensor_descriptor", "tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_reduce")


@dataclass
class _Desc:
    base: SSAValue
    shape: list
    strides: list
    padding: SSAValue


def _pack_types(t: TensorDescType) -> list:
    r = len(t.shape)
    element = t.value_type().element_type
    return [PointerType(element)] + [i64] * (2 * r) + [i1]


def _to_i64(b: _Builder, v: SSAValue) -> SSAValue:
    """`arith.extsi` to i64 at `v`'s location, folded when `v` is a constant (MLIR's createOrFold)."""
    if v.type == i64:
        return v
    owner = v.owner
    loc = owner.location if isinstance(owner, Operation) else v.location
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        return b.add(arith.ConstantOp(IntegerAttr(owner.value.value.data, i64), i64), loc)
    return b.add(_arith("extsi").create(operands=[v], result_types=[i64]), loc)


def _block(b: _Builder, block: tuple, desc: _Desc, offsets: list) -> tuple[SSAValue, SSAValue]:
    """The pointers of the block at `offsets` and its bounds mask: a block pointer's, as rewrite-tensor-pointer
    builds them (each dimension's offsets computed once for both)."""
    info = _Info(desc.base, desc.shape, desc.strides, offsets, tuple(block))
    dims = list(range(len(block)))
    for i in dims:  # every dimension's offsets before the pointers, as Triton's rewrite orders them
        info.expanded_offset(b, i)
    return info.pointers(b), info.mask(b, dims)


def _other(b: _Builder, t: TensorType, padding: SSAValue) -> SSAValue:
    e = t.element_type
    if is_float(e):
        nan = b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [math.nan]), t))
        zero = b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [0.0]), t))
        return b.add(_arith("select").create(operands=[padding, nan, zero], result_types=[t]))
    return b.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [0]), t))


def _rmw_kind(op) -> int | None:
    kind = {v: k for k, v in REDUCE_KIND.items()}[op.kind.value.data]
    e = op.desc.type.block_type.element_type
    unsigned = isinstance(e, IntegerType) and e.signedness.data != Signedness.SIGNED
    if kind == "add":
        return tt.RMW["add"] if isinstance(e, IntegerType) else tt.RMW["fadd"]
    if kind in ("min", "max"):
        if not isinstance(e, IntegerType):
            return None
        return tt.RMW[("u" if unsigned else "") + kind]
    return tt.RMW.get(kind)


class _Rewrite:
    def __init__(self):
        self.packs: dict = {}
        self.erase: list = []

    def desc(self, value: SSAValue, user: Operation) -> _Desc:
        pack = self.packs.get(value)
        if pack is None:
            raise CompileError(at_op(user, None, f"'{user.name}' of a tensor descriptor made by "
                                                 f"'{_producer(value)}' is not supported yet by "
                                                 "triton-rewrite-tensor-descriptor-to-pointer"))
        r = (len(pack) - 2) // 2
        return _Desc(pack[0], pack[1:1 + r], pack[1 + r:1 + 2 * r], pack[-1])

    def function(self, func) -> None:
        entry = func.body.blocks.first
        if entry is None:
            return
        old = list(entry.args)
        attrs = func.properties.get("arg_attrs")
        attr_list = list(attrs.data) if isinstance(attrs, ArrayAttr) else None
        new_attrs = []
        for k, a in enumerate(old):
            if not isinstance(a.type, TensorDescType):
                new_attrs.append(attr_list[k] if attr_list else None)
                continue
            index = a.index
            pack = []
            for j, t in enumerate(_pack_types(a.type)):
                arg = entry.insert_arg(t, index + j)
                arg.location = a.location
                pack.append(arg)
            self.packs[a] = pack
            new_attrs += [DictionaryAttr({})] * len(pack)
        for op in list(func.body.walk()):
            self.op(op)
        for op in reversed(self.erase):
            op.detach()
            op.erase()
        for a in old:
            if isinstance(a.type, TensorDescType):
                entry.erase_arg(a)
        func.properties["function_type"] = FunctionType.from_lists([a.type for a in entry.args],
                                                                   list(func.function_type.outputs.data))
        if attr_list is not None:
            func.properties["arg_attrs"] = ArrayAttr(new_attrs)

    def op(self, op: Operation) -> None:
        name = op.name
        b = _Builder(op, op.location)
        if name == "tt.make_tensor_descriptor":
            shape = [_to_i64(b, s) for s in op.shape]
            nan = op.padding is not None and op.padding.value.data == tt.PADDING["nan"]
            flag = b.add(arith.ConstantOp(IntegerAttr(int(nan), i1), i1))
            self.packs[op.result] = [op.base, *shape, *op.strides, flag]
            self.erase.append(op)
            return
        if name in ("tt.descriptor_load", "tt.descriptor_store", "tt.descriptor_reduce"):
            desc = self.desc(op.desc, op)
            block = op.desc.type.shape
            offsets = [_to_i64(b, v) for v in op.indices]
            if name == "tt.descriptor_load":
                other = _other(b, op.result.type, desc.padding)
                ptr, mask = _block(b, block, desc, offsets)
                props = {k: op.properties[k] for k in ("cache", "evict") if k in op.properties}
                new = tt.LoadOp.build(operands=[ptr, [mask], [other]], result_types=[op.result.type],
                                      properties=props)
                b.add(new)
                op.result.replace_all_uses_with(new.result)
            elif name == "tt.descriptor_store":
                ptr, mask = _block(b, block, desc, offsets)
                b.add(tt.StoreOp.build(operands=[ptr, op.src, [mask]]))
            else:
                kind = _rmw_kind(op)
                if kind is None:
                    raise CompileError(at_op(op, None, "Cannot fallback on descriptor atomic op, unsupported for "
                                                       "this element type"))
                ptr, mask = _block(b, block, desc, offsets)
                b.add(tt.AtomicRMWOp.build(operands=[ptr, op.src, [mask]], result_types=[op.src.type], properties={
                    "atomic_rmw_op": IntegerAttr(kind, i32), "sem": IntegerAttr(tt.SEM["release"], i32),
                    "scope": IntegerAttr(tt.SCOPE["gpu"], i32)}))
            self.erase.append(op)
            return
        if name == "tt.func":
            return
        values = list(op.operands) + list(op.results) + [a for r in op.regions for bl in r.blocks for a in bl.args]
        if any(isinstance(v.type, TensorDescType) for v in values):
            raise CompileError(at_op(op, None, f"'{name}' with a tensor descriptor is not supported yet by "
                                               "triton-rewrite-tensor-descriptor-to-pointer"))


def _producer(value) -> str:
    owner = value.owner
    return owner.name if isinstance(owner, Operation) else "a block argument"


@dataclass(frozen=True)
class RewriteTensorDescriptorToPointer(Pass):
    """Tensor descriptors to masked pointer loads and stores."""

    name = "triton-rewrite-tensor-descriptor-to-pointer"
    display = "TritonRewriteTensorDescriptorToPointer"
    summary = "Rewrite tensor descriptor loads/stores/reduces into masked loads/stores/atomics on pointers"

    def apply(self, ctx, module) -> None:
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            _Rewrite().function(func)
