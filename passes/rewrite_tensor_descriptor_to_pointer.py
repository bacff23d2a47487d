"""triton-rewrite-tensor-descriptor-to-pointer: tensor descriptors become pointer loads and stores, for GPUs
without TMA (Triton's TritonRewriteTensorDescriptorToPointer, run by make_ttir below sm_90).

A descriptor is carried as `2 + 2 * rank` values, as Triton's 1:N type conversion does: its base pointer, its
shape and strides (i64) and a padding flag (i1, NaN padding). Wherever a descriptor goes, these go instead:
- a function's descriptor arguments and results (declarations too): each argument is replaced in place by the
  values (at its location; the first takes the argument's attributes), and the function's type with it;
  `tt.return` returns the values and `tt.call` passes and receives them;
- `scf.for` / `scf.while` carry them, `scf.if` yields them (and `scf.yield` / `scf.condition` pass them on);
  an `arith.select` of two descriptors becomes an `scf.if` yielding the chosen one's values;
- `tt.make_tensor_descriptor` gives its base, its shape extended to i64 (folded for constants), its strides and
  a constant padding flag.
The accesses become pointer ops:
- `tt.descriptor_load` a masked `tt.load`: its `other` first (zeros, or for floats `select(padding, NaN, 0)`),
  then per dimension `splat(offset) + extsi(make_range)` expanded to the block's rank, the pointers `splat(base)`
  advanced per dimension by `broadcast(offsets * splat(stride))`, and the mask `0 <= offsets < shape` per
  dimension, broadcast and and-ed (a rank-reducing load or store reshapes between the block and its value);
  `tt.descriptor_store` a masked `tt.store`; `tt.descriptor_reduce` a `tt.atomic_rmw` (release, gpu) of the matching kind;
- `tt.descriptor_gather` / `tt.descriptor_scatter` the same over the rows' shape, the row offsets being the
  gathered ones (`extsi(expand_dims(x_offsets))`) and the columns `y_offset + make_range`.
A descriptor used by any other op is a located error (Triton's conversion leaves such an op unconverted and fails).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith, scf
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
from xdsl.ir import Block, Operation, Region, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir import tt
from ttc.ir.tensordesc import REDUCE_KIND, TensorDescType
from ttc.ir.types import PointerType, is_float
from ttc.passes.rewrite_tensor_pointer import _arith, _Builder, _Info
from ttc.opt.passmanager import Pass


@dataclass
class _Desc:
    base: SSAValue
    shape: list
    strides: list
    padding: SSAValue


def _pack_types(t) -> list:
    """Triton's type conversion: a descriptor's values' types; any other type stays itself."""
    if not isinstance(t, TensorDescType):
        return [t]
    r = len(t.shape)
    return [PointerType(t.value_type().element_type)] + [i64] * (2 * r) + [i1]


def _flat_types(types) -> list:
    return [p for t in types for p in _pack_types(t)]


def _to_i64(b: _Builder, v: SSAValue) -> SSAValue:
    """`arith.extsi` to i64 at `v`'s location, folded when `v` is a constant (MLIR's createOrFold)."""
    if v.type == i64:
        return v
    owner = v.owner
    loc = owner.location if isinstance(owner, Operation) else v.location
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        return b.add(arith.ConstantOp(IntegerAttr(owner.value.value.data, i64), i64), loc)
    return b.add(_arith("extsi").create(operands=[v], result_types=[i64]), loc)


def _block(b: _Builder, block: tuple, desc: _Desc, offsets: list, rows: SSAValue | None = None):
    """The pointers of the block at `offsets` and its bounds mask: a block pointer's, as rewrite-tensor-pointer
    builds them (each dimension's offsets computed once for both). `rows`: a gather's or scatter's row offsets,
    already expanded to the block's rank, for dimension 0."""
    info = _Info(desc.base, desc.shape, desc.strides, offsets, tuple(block))
    if rows is not None:
        info.cache[0] = rows
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


def _fail(op: Operation, message: str):
    raise CompileError(at_op(op, None, message))


def _rebuild(op: Operation, operands: list, result_types: list) -> Operation:
    """`op` again with other operands and result types, its regions moved into the new op (inserted before it)."""
    new = type(op).create(operands=operands, result_types=result_types, regions=[Region() for _ in op.regions],
                          attributes=dict(op.attributes), properties=dict(op.properties))
    new.location = op.location
    op.parent.insert_op_before(new, op)
    for old, region in zip(op.regions, new.regions):
        old.move_blocks(region)
    return new


class _Rewrite:
    def __init__(self):
        self.packs: dict = {}
        self.erase: list = []
        self.old_args: list = []

    # ---- values

    def pack(self, value: SSAValue, user: Operation) -> list:
        if value not in self.packs:  # a region argument of an op the rewrite does not know
            owner = value.owner
            where = owner.name if isinstance(owner, Operation) else f"a block argument of '{owner.parent_op().name}'"
            _fail(user, f"'{user.name}' of a tensor descriptor from {where} cannot be rewritten to pointers by "
                        "triton-rewrite-tensor-descriptor-to-pointer")
        return self.packs[value]

    def flat(self, values, user: Operation) -> list:
        """The values with each descriptor replaced by its values."""
        out = []
        for v in values:
            out += self.pack(v, user) if isinstance(v.type, TensorDescType) else [v]
        return out

    def desc(self, op: Operation) -> _Desc:
        pack = self.pack(op.desc, op)
        r = (len(pack) - 2) // 2
        return _Desc(pack[0], pack[1:1 + r], pack[1 + r:1 + 2 * r], pack[-1])

    def expand_args(self, block: Block) -> None:
        """Each descriptor argument of `block` followed by arguments for its values (the old one is erased at the
        end, once nothing uses it)."""
        for a in [a for a in block.args if isinstance(a.type, TensorDescType)]:
            pack = []
            for j, t in enumerate(_pack_types(a.type)):
                arg = block.insert_arg(t, a.index + 1 + j)
                arg.location = a.location
                pack.append(arg)
            self.packs[a] = pack
            self.old_args.append(a)

    def take_results(self, old: Operation, new: Operation) -> None:
        """`old`'s results are `new`'s, a descriptor result being the values in its place."""
        k = 0
        for r in old.results:
            n = len(_pack_types(r.type))
            if isinstance(r.type, TensorDescType):
                self.packs[r] = list(new.results[k:k + n])
            else:
                r.replace_all_uses_with(new.results[k])
            k += n
        self.erase.append(old)

    # ---- functions

    def function(self, func) -> None:
        ft = func.function_type
        ins, outs = list(ft.inputs.data), list(ft.outputs.data)
        if not any(isinstance(t, TensorDescType) for t in ins + outs):
            if func.body.blocks:
                self.region(func.body)
            return
        attrs = func.properties.get("arg_attrs")
        if isinstance(attrs, ArrayAttr):  # Triton's convertFuncOpAttrs: the first of an argument's values keeps its
            new_attrs = []                # attributes
            for t, a in zip(ins, attrs.data):
                new_attrs += [a] + [DictionaryAttr({})] * (len(_pack_types(t)) - 1)
            func.properties["arg_attrs"] = ArrayAttr(new_attrs)
        func.properties["function_type"] = FunctionType.from_lists(_flat_types(ins), _flat_types(outs))
        if func.body.blocks:
            for block in func.body.blocks:
                self.expand_args(block)
            self.region(func.body)

    # ---- ops

    def region(self, region: Region) -> None:
        for block in region.blocks:
            for op in list(block.ops):
                self.op(op)

    def op(self, op: Operation) -> None:
        name = op.name
        handler = getattr(self, "op_" + name.replace(".", "_"), None)
        if handler is not None:
            handler(op)
            return
        values = list(op.operands) + list(op.results)
        if any(isinstance(v.type, TensorDescType) for v in values):
            _fail(op, f"'{name}' with a tensor descriptor operand or result cannot be rewritten to pointers by "
                      "triton-rewrite-tensor-descriptor-to-pointer (Triton's conversion fails on it too)")
        for r in op.regions:
            self.region(r)

    def op_tt_make_tensor_descriptor(self, op) -> None:
        b = _Builder(op, op.location)
        shape = [_to_i64(b, s) for s in op.shape]
        nan = op.padding is not None and op.padding.value.data == tt.PADDING["nan"]
        flag = b.add(arith.ConstantOp(IntegerAttr(int(nan), i1), i1))
        self.packs[op.result] = [op.base, *shape, *op.strides, flag]
        self.erase.append(op)

    def _check_indices(self, op) -> None:
        if len(op.indices) != len(op.desc.type.shape):
            _fail(op, f"'{op.name}' op has {len(op.indices)} indices for a rank-{len(op.desc.type.shape)} "
                      "descriptor, which triton-rewrite-tensor-descriptor-to-pointer cannot rewrite")

    def op_tt_descriptor_load(self, op) -> None:
        self._check_indices(op)
        b = _Builder(op, op.location)
        desc = self.desc(op)
        offsets = [_to_i64(b, v) for v in op.indices]
        block = op.desc.type.value_type()
        other = _other(b, block, desc.padding)
        ptr, mask = _block(b, block.get_shape(), desc, offsets)
        props = {k: op.properties[k] for k in ("cache", "evict") if k in op.properties}
        new = b.add(tt.LoadOp.build(operands=[ptr, [mask], [other]], result_types=[block], properties=props))
        if new.type != op.result.type:  # a rank-reducing load: the block without its leading unit dimensions
            new = b.add(tt.ReshapeOp.create(operands=[new], result_types=[op.result.type]))
        self._replace(op, new)

    def op_tt_descriptor_store(self, op) -> None:
        self._check_indices(op)
        b = _Builder(op, op.location)
        desc = self.desc(op)
        offsets = [_to_i64(b, v) for v in op.indices]
        ptr, mask = _block(b, op.desc.type.shape, desc, offsets)
        b.add(tt.StoreOp.build(operands=[ptr, self._block_value(b, op), [mask]]))
        self.erase.append(op)

    def op_tt_descriptor_reduce(self, op) -> None:
        self._check_indices(op)
        b = _Builder(op, op.location)
        desc = self.desc(op)
        offsets = [_to_i64(b, v) for v in op.indices]
        kind = _rmw_kind(op)
        if kind is None:
            _fail(op, "Cannot fallback on descriptor atomic op, unsupported for this element type")
        ptr, mask = _block(b, op.desc.type.shape, desc, offsets)
        src = self._block_value(b, op)
        b.add(tt.AtomicRMWOp.build(operands=[ptr, src, [mask]], result_types=[src.type], properties={
            "atomic_rmw_op": IntegerAttr(kind, i32), "sem": IntegerAttr(tt.SEM["release"], i32),
            "scope": IntegerAttr(tt.SCOPE["gpu"], i32)}))
        self.erase.append(op)

    @staticmethod
    def _block_value(b: _Builder, op) -> SSAValue:
        """A store's value with the block's shape (a rank-reducing store's gets its leading unit dimensions)."""
        t = op.src.type
        shape = op.desc.type.shape
        if tuple(t.get_shape()) == tuple(shape):
            return op.src
        return b.add(tt.ReshapeOp.create(operands=[op.src], result_types=[TensorType(t.element_type, shape)]))

    def _rows(self, b: _Builder, op, block) -> tuple:
        """Triton's generateGatherScatterPtrMask over `block` (the rows' shape)."""
        x = op.x_offsets
        n = x.type.get_shape()[0]
        x = b.add(tt.ExpandDimsOp.create(operands=[x], result_types=[TensorType(i32, [n, 1])],
                                         properties={"axis": IntegerAttr(1, i32)}))
        y = _to_i64(b, op.y_offset)
        rows = b.extsi(x, TensorType(i64, [n, 1]))
        return _block(b, block, self.desc(op), [None, y], rows)

    def op_tt_descriptor_gather(self, op) -> None:
        b = _Builder(op, op.location)
        t = op.result.type
        block = TensorType(t.element_type, t.get_shape())
        ptr, mask = self._rows(b, op, block.get_shape())
        other = _other(b, block, self.desc(op).padding)
        new = b.add(tt.LoadOp.build(operands=[ptr, [mask], [other]], result_types=[block]))
        self._replace(op, new)

    def op_tt_descriptor_scatter(self, op) -> None:
        b = _Builder(op, op.location)
        ptr, mask = self._rows(b, op, op.src.type.get_shape())
        b.add(tt.StoreOp.build(operands=[ptr, op.src, [mask]]))
        self.erase.append(op)

    def _replace(self, op, new_value) -> None:
        op.result.replace_all_uses_with(new_value)
        self.erase.append(op)

    def op_tt_call(self, op) -> None:
        if not any(isinstance(v.type, TensorDescType) for v in list(op.operands) + list(op.results)):
            return
        self.take_results(op, _rebuild(op, self.flat(op.operands, op), _flat_types(r.type for r in op.results)))

    def op_tt_return(self, op) -> None:
        op.operands = self.flat(op.operands, op)

    op_scf_yield = op_tt_return

    def op_scf_condition(self, op) -> None:
        op.operands = [op.operands[0], *self.flat(op.operands[1:], op)]

    def op_arith_select(self, op) -> None:
        """Triton's RewriteArithSelectOp: an `scf.if` yielding the chosen descriptor's values."""
        if not isinstance(op.result.type, TensorDescType):
            return
        cond, a, b_ = op.operands
        new = scf.IfOp.create(operands=[cond], result_types=_pack_types(op.result.type), regions=[Region(), Region()],
                              attributes=dict(op.attributes))
        new.location = op.location
        for region, v in ((new.true_region, a), (new.false_region, b_)):
            y = scf.YieldOp(*self.pack(v, op))
            y.location = op.location
            region.add_block(Block([y]))
        op.parent.insert_op_before(new, op)
        self.take_results(op, new)

    def _structural(self, op, operands: list) -> Operation:
        """`op` (an scf op) rebuilt to carry descriptors' values, its regions' descriptor arguments expanded and
        its regions rewritten."""
        if not any(isinstance(v.type, TensorDescType) for v in list(op.operands) + list(op.results)):
            for r in op.regions:
                self.region(r)
            return op
        new = _rebuild(op, operands, _flat_types(r.type for r in op.results))
        for region in new.regions:
            for block in region.blocks:
                self.expand_args(block)
        self.take_results(op, new)
        for r in new.regions:
            self.region(r)
        return new

    def op_scf_for(self, op) -> None:
        self._structural(op, [op.lb, op.ub, op.step, *self.flat(op.iter_args, op)])

    def op_scf_while(self, op) -> None:
        self._structural(op, self.flat(op.arguments, op))

    def op_scf_if(self, op) -> None:
        self._structural(op, [op.cond])

    # ---- the end

    def finish(self) -> None:
        for op in reversed(self.erase):
            op.detach()
            op.erase()
        for a in self.old_args:
            a.block.erase_arg(a)


@dataclass(frozen=True)
class RewriteTensorDescriptorToPointer(Pass):
    """Tensor descriptors to masked pointer loads and stores."""

    name = "triton-rewrite-tensor-descriptor-to-pointer"
    display = "TritonRewriteTensorDescriptorToPointer"
    summary = "Rewrite tensor descriptor loads/stores/reduces/gathers/scatters into masked loads/stores/atomics " \
              "on pointers"

    def apply(self, ctx, module) -> None:
        rewrite = _Rewrite()
        for op in list(module.body.ops):
            if op.name == "tt.func":
                rewrite.function(op)
            else:
                rewrite.op(op)
        rewrite.finish()
