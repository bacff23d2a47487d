"""triton-rewrite-tensor-pointer: Triton's TritonRewriteTensorPointer pass
(lib/Dialect/Triton/Transforms/RewriteTensorPointer.cpp): block pointers become tensors of pointers with masks.

A block pointer (`!tt.ptr<tensor<...>>`, made by `tt.make_tensor_ptr` and moved by `tt.advance`) is tracked as
its base pointer, shape and strides (the values given to `tt.make_tensor_ptr`) and one i64 offset per dimension:

- `tt.make_tensor_ptr` gives way to `arith.extsi` of its i32 offsets; `tt.advance` to `arith.extsi` and
  `arith.addi` per dimension.
- `tt.load` / `tt.store` through a block pointer are rewritten to use a tensor of pointers:
  `splat(base)`, then per dimension `d` an `addptr` of `broadcast((splat(offset_d) + extsi(make_range)) expanded
  to the block's rank * splat(stride_d))`; each dimension of `boundaryCheck` adds the mask
  `broadcast(0 <= offset && offset < shape_d)` (and-ed across dimensions); a load's `padding` becomes its
  `other` (`splat` of 0, or of NaN for `padding = nan`) when there is a mask (Triton builds an invalid load,
  `other` without mask, from a padding without boundary check; here the padding is then dropped). The cache and eviction policies and volatility are kept.
- `scf.for` loops carrying block pointers are rebuilt with the offsets as i64 iteration arguments (the
  pointer's base, shape and strides are those of its initial value), and `scf.yield` yields the offsets.
- `scf.if` yielding block pointers is rebuilt to yield i64 offsets; the base, shape and strides of each such
  result are those of the `tt.make_tensor_ptr` reached from the then-branch (as Triton does).

The ops are visited in program order, rewritten ops being erased at the end. Block pointers used in any
other way (passed to `scf.while`, branches, calls or returned) are an error, as they are in Triton.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir import std, tt
from ttc.ir.inserter import Inserter
from ttc.ir.types import PointerType, is_float
from ttc.opt.passmanager import Pass


def is_tensor_pointer(t: Attribute) -> bool:
    """`!tt.ptr<tensor<...>>`: a block pointer."""
    return isinstance(t, PointerType) and isinstance(t.pointee, TensorType)


def _arith(name: str):
    """The op class of `arith.<name>` in this IR (casts and comparisons are ttc's own, accepting tensors)."""
    return next(op for op in std.ARITH.operations if op.name == f"arith.{name}")


def _fail(op: Operation, message: str):
    raise CompileError(at_op(op, None, f"'{op.name}' op {message}"))


class _Builder(Inserter):
    """An `Inserter` with the casts, splats and compares the rewrite builds."""

    def extsi(self, v: SSAValue, t: Attribute) -> SSAValue:
        return self.add(_arith("extsi").create(operands=[v], result_types=[t]))

    def splat(self, v: SSAValue, t: Attribute) -> SSAValue:
        return self.add(tt.SplatOp.create(operands=[v], result_types=[t]))

    def broadcast(self, v: SSAValue, t: Attribute) -> SSAValue:
        return self.add(tt.BroadcastOp.create(operands=[v], result_types=[t]))

    def cmpi(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        t = TensorType(i1, a.type.get_shape()) if isinstance(a.type, TensorType) else i1
        return self.add(std.CmpiOp.create(operands=[a, b], result_types=[t],
                                          properties={"predicate": IntegerAttr(std.CMPI[pred], i64)}))


@dataclass
class _Info:
    """A block pointer: base, shape and strides of its `tt.make_tensor_ptr`, its i64 offsets, its block shape."""

    base: SSAValue
    shape: list[SSAValue]
    strides: list[SSAValue]
    offsets: list[SSAValue]
    block_shape: tuple[int, ...]
    cache: dict[int, SSAValue] = field(default_factory=dict)

    def with_offsets(self, offsets) -> _Info:
        return _Info(self.base, self.shape, self.strides, list(offsets), self.block_shape)

    def expanded_offset(self, b: _Builder, i: int) -> SSAValue:
        """`splat(offset_i) + extsi(make_range(0, n_i))`, expanded to the block's rank (cached per access)."""
        if i in self.cache:
            return self.cache[i]
        n = self.block_shape[i]
        row = TensorType(i64, [n])
        offset = b.splat(self.offsets[i], row)
        rng = b.add(tt.MakeRangeOp.create(result_types=[TensorType(i32, [n])],
                                          properties={"start": IntegerAttr(0, i32), "end": IntegerAttr(n, i32)}))
        value = b.add(arith.AddiOp(offset, b.extsi(rng, row)))
        for j in range(len(self.block_shape)):
            if j == i:
                continue
            shape = list(value.type.get_shape())
            shape.insert(j, 1)
            value = b.add(tt.ExpandDimsOp.create(operands=[value], result_types=[TensorType(i64, shape)],
                                                 properties={"axis": IntegerAttr(j, i32)}))
        self.cache[i] = value
        return value

    def pointers(self, b: _Builder) -> SSAValue:
        ptr_type = TensorType(self.base.type, list(self.block_shape))
        index_type = TensorType(i64, list(self.block_shape))
        ptr = b.splat(self.base, ptr_type)
        for i in range(len(self.block_shape)):
            offset = self.expanded_offset(b, i)
            # strides are splat to the expanded shape, not a row, to keep their divisibility information
            scaled = b.add(arith.MuliOp(offset, b.splat(self.strides[i], offset.type)))
            ptr = b.add(tt.AddPtrOp.create(operands=[ptr, b.broadcast(scaled, index_type)], result_types=[ptr_type]))
        return ptr

    def mask(self, b: _Builder, boundary_check: list[int] | None) -> SSAValue | None:
        if boundary_check is None:
            return None
        mask_type = TensorType(i1, list(self.block_shape))
        mask = None
        for i in boundary_check:
            offset = self.expanded_offset(b, i)
            zero = b.add(arith.ConstantOp(IntegerAttr(0, i64), i64))
            lower = b.cmpi("sge", offset, b.splat(zero, offset.type))
            upper = b.cmpi("slt", offset, b.splat(self.shape[i], offset.type))
            inside = b.broadcast(b.add(arith.AndIOp(lower, upper)), mask_type)
            mask = inside if mask is None else b.add(arith.AndIOp(mask, inside))
        return mask

    def other(self, b: _Builder, padding: int | None) -> SSAValue | None:
        if padding is None:
            return None
        element = self.base.type.pointee
        if is_float(element):
            value = FloatAttr(math.nan if padding == tt.PADDING["nan"] else 0.0, element)
        else:
            value = IntegerAttr(0, element)
        constant = b.add(arith.ConstantOp(value, element))
        return b.splat(constant, TensorType(element, list(self.block_shape)))


def _make_tensor_ptr_of(value: SSAValue) -> tt.MakeTensorPtrOp:
    """Triton's getMakeTensorPtrOp: the `tt.make_tensor_ptr` a block pointer value comes from."""
    while True:
        if isinstance(value, BlockArgument):
            parent = value.block.parent_op()
            if isinstance(parent, scf.ForOp) and value.index > 0:
                value = parent.iter_args[value.index - 1]
                continue
            _fail(parent, "block pointer argument whose origin cannot be traced")
        op = value.owner
        if isinstance(op, tt.MakeTensorPtrOp):
            return op
        if isinstance(op, tt.AdvanceOp):
            value = op.ptr
            continue
        if isinstance(op, (scf.ForOp, scf.IfOp, scf.WhileOp)):
            yields = [o for o in _post_order(op) if isinstance(o, scf.YieldOp)]
            value = yields[0].operands[value.index]
            continue
        _fail(op, "block pointer whose origin cannot be traced")


def _post_order(op: Operation):
    for r in op.regions:
        for b in r.blocks:
            for o in b.ops:
                yield from _post_order(o)
    yield op


class _Rewriter:
    def __init__(self):
        self.info: dict[SSAValue, _Info] = {}
        self.erase: list[Operation] = []

    def get(self, value: SSAValue, user: Operation) -> _Info:
        info = self.info.get(value)
        if info is None:
            _fail(user, "uses a block pointer whose tt.make_tensor_ptr was not rewritten")
        return info

    # ---- the walk
    def visit(self, op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                nested = block.first_op
                while nested is not None:
                    following = nested.next_op
                    new = self.rewrite(nested)
                    if new is not None:
                        self.visit(new)
                    nested = following

    def rewrite(self, op: Operation) -> Operation | None:
        """Rewrite `op`; returns the op whose regions are to be visited next (None: none)."""
        if isinstance(op, tt.MakeTensorPtrOp):
            return self.make_tensor_ptr(op)
        if isinstance(op, tt.AdvanceOp):
            return self.advance(op)
        if isinstance(op, (tt.LoadOp, tt.StoreOp)):
            return self.load_store(op)
        if op.name.startswith("scf.") or op.name.startswith("cf."):
            if isinstance(op, scf.IfOp):
                return self.if_(op)
            if not any(is_tensor_pointer(v.type) for v in op.operands):
                return op
            if isinstance(op, scf.ForOp):
                return self.for_(op)
            if isinstance(op, scf.YieldOp):
                return self.yield_(op)
            _fail(op, "uses a block pointer: only scf.for and scf.if may carry block pointers")
        if any(is_tensor_pointer(v.type) for v in op.operands):
            _fail(op, "uses a block pointer, which cannot be rewritten here")
        return op

    def make_tensor_ptr(self, op: tt.MakeTensorPtrOp) -> None:
        b = _Builder(op, op.location)
        offsets = [b.extsi(o, i64) for o in op.offsets]
        block_shape = tuple(op.result.type.pointee.get_shape())
        self.info[op.result] = _Info(op.base, list(op.shape), list(op.strides), offsets, block_shape)
        self.erase.append(op)
        return None

    def advance(self, op: tt.AdvanceOp) -> None:
        info = self.get(op.ptr, op)
        b = _Builder(op, op.location)
        offsets = [b.add(arith.AddiOp(old, b.extsi(delta, i64))) for old, delta in zip(info.offsets, op.offsets)]
        self.info[op.result] = info.with_offsets(offsets)
        self.erase.append(op)
        return None

    def load_store(self, op: Operation) -> None:
        if not is_tensor_pointer(op.ptr.type):
            return None
        info = self.get(op.ptr, op)
        info = info.with_offsets(info.offsets)  # a copy, with its own cache of expanded offsets
        check = op.boundaryCheck
        boundary_check = list(check.get_values()) if isinstance(check, DenseArrayBase) else None
        b = _Builder(op, op.location)
        ptr = info.pointers(b)
        mask = info.mask(b, boundary_check)
        props = {k: op.properties[k] for k in ("cache", "evict", "isVolatile") if k in op.properties}
        if isinstance(op, tt.LoadOp):
            # `other` needs a mask: Triton would build an invalid load from a padding without boundary check
            padding = op.padding.value.data if op.padding is not None and mask is not None else None
            other = info.other(b, padding)
            new = tt.LoadOp.build(
                operands=[ptr, [mask] if mask is not None else [], [other] if other is not None else []],
                result_types=[op.result.type],
                properties=props,
            )
            b.add(new)
            op.result.replace_all_uses_with(new.result)
        else:
            b.add(tt.StoreOp.build(operands=[ptr, op.value, [mask] if mask is not None else []], properties=props))
        self.erase.append(op)
        return None

    def if_(self, op: scf.IfOp) -> Operation:
        then_yield = op.true_region.blocks.first.last_op
        results = list(then_yield.operands)
        if not any(is_tensor_pointer(v.type) for v in results):
            return op
        templates: dict[int, _Info] = {}
        types: list[Attribute] = []
        for i, v in enumerate(results):
            if is_tensor_pointer(v.type):
                templates[i] = self.get(_make_tensor_ptr_of(v).result, op)
                types += [i64] * len(templates[i].offsets)
            else:
                types.append(v.type)
        has_else = bool(op.false_region.blocks)
        new = scf.IfOp.create(
            operands=[op.cond],
            result_types=types,
            regions=[Region(Block()), Region(Block()) if has_else else Region()],
        )
        new.location = op.location
        op.parent.insert_op_before(new, op)
        mapping: dict[SSAValue, SSAValue] = {}
        for old_region, new_region in zip(op.regions, new.regions):
            for o in old_region.blocks.first.ops if old_region.blocks else ():
                new_region.blocks.first.add_op(o.clone(mapping))
        k = 0
        for i, r in enumerate(op.results):
            if i in templates:
                n = len(templates[i].offsets)
                self.info[r] = templates[i].with_offsets(new.results[k:k + n])
                k += n
            else:
                r.replace_all_uses_with(new.results[k])
                k += 1
        self.erase.append(op)
        return new

    def for_(self, op: scf.ForOp) -> Operation:
        inits = list(op.iter_args)
        new_inits: list[SSAValue] = []
        for v in inits:
            new_inits += self.get(v, op).offsets if is_tensor_pointer(v.type) else [v]
        body = op.body.blocks.first
        iv_type = body.args[0].type
        new_body = Block(arg_types=[iv_type, *[v.type for v in new_inits]])
        # located as MLIR's scf.for builder does: the induction variable at the loop, the others at their inits
        new_body.args[0].location = op.location
        for arg, init in zip(new_body.args[1:], new_inits):
            arg.location = init.location if isinstance(init, BlockArgument) else init.owner.location
        new = scf.ForOp.create(
            operands=[op.lb, op.ub, op.step, *new_inits],
            result_types=[v.type for v in new_inits],
            regions=[Region(new_body)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        new.location = op.location
        op.parent.insert_op_before(new, op)
        mapping: dict[SSAValue, SSAValue] = {body.args[0]: new_body.args[0]}
        k = 1
        for arg, init in zip(body.args[1:], inits):
            if is_tensor_pointer(arg.type):
                # the old argument stands for the pointer in the copied body; its offsets are the new arguments
                info = self.get(init, op)
                n = len(info.offsets)
                self.info[arg] = info.with_offsets(new_body.args[k:k + n])
                k += n
            else:
                mapping[arg] = new_body.args[k]
                k += 1
        for o in body.ops:
            new_body.add_op(o.clone(mapping))
        k = 0
        for r, init in zip(op.results, inits):
            if is_tensor_pointer(r.type):
                info = self.get(init, op)
                n = len(info.offsets)
                self.info[r] = info.with_offsets(new.results[k:k + n])
                k += n
            else:
                r.replace_all_uses_with(new.results[k])
                k += 1
        self.erase.append(op)
        return new

    def yield_(self, op: scf.YieldOp) -> None:
        operands: list[SSAValue] = []
        for v in op.operands:
            operands += self.get(v, op).offsets if is_tensor_pointer(v.type) else [v]
        op.operands = operands
        return None

    def finish(self) -> None:
        """Erase the rewritten ops, the last rewritten first."""
        for op in reversed(self.erase):
            for r in op.results:
                for use in list(r.uses):
                    _fail(use.operation, "uses a block pointer that could not be rewritten")
            op.detach()
            op.erase()


@dataclass(frozen=True)
class TritonRewriteTensorPointer(Pass):
    """Rewrite block pointers (tt.make_tensor_ptr / tt.advance) into tensors of pointers with masks (Triton's
    TritonRewriteTensorPointer)."""

    name = "triton-rewrite-tensor-pointer"
    display = "TritonRewriteTensorPointer"
    summary = "Rewrite load/stores with tensor pointers into legacy load/stores"

    def apply(self, ctx, op) -> None:
        rewriter = _Rewriter()
        rewriter.visit(op)
        rewriter.finish()
