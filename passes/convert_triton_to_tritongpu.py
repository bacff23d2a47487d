"""convert-triton-to-tritongpu: give every tensor a TritonGPU layout (Triton's ConvertTritonToTritonGPU).

Each tensor without a layout gets the default blocked layout for its shape (`getDefaultBlockedEncoding`: one
element per thread, lanes then warps spread from the last dimension), except where an op decides its own
result layout from its operands, as Triton's conversion patterns do:

- `tt.reduce` results are slices of the operand's layout along the reduced axis (scalars for 1-D tensors);
- `tt.expand_dims` converts its operand to a slice of the operand's layout with a size-1 dimension inserted,
  and its result has that layout; `tt.broadcast` keeps its operand's layout; `tt.scan` its operand's;
- `tt.trans` permutes the layout; `tt.join`/`tt.split` add/drop a minor dimension of size 2; `tt.cat` widens
  sizePerThread to hold both operands;
- `tt.dot` gets a blocked layout with 2x2 or 4x4 elements per thread and converts its operands to
  `#ttg.dot_op` layouts of it;
- `scf.for`/`scf.while`/`scf.if` carry the converted types through their results and region arguments;
- `tt.descriptor_gather`/`tt.descriptor_scatter` convert their row offsets (just before the op) to a slice of a
  blocked layout giving each thread 4 consecutive offsets (`gather4`/`scatter4` take 4 rows each) and every warp
  all of them.

Where an operand's new type is not the one its user expects (the default layout of the operand's original
type), a `ttg.convert_layout` is inserted right after the operand's definition and shared by all such uses (MLIR's
target materialization). The module gets `ttg.num-warps`, `ttg.num-ctas`, `ttg.threads-per-warp` and
`ttg.target`. Tensors that already have a layout are left alone, so the pass is idempotent.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrealizedConversionCastOp,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ttc.ir.layout_utils import join_encoding, slice_of, split_encoding, total_elems_per_thread, trans_encoding, with_encoding
from ttc.ir.layouts import blocked, blocked_for_shape, default_blocked
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding
from ttc.ir.ttg import ConvertLayoutOp
from ttc.ir.types import encoding, shape_of
from ttc.opt.passmanager import Pass, option

# the dialects whose ops Triton's conversion patterns retype (the others are left to enable-source-remat)
_CONVERTED = ("arith.", "math.", "tt.", "cf.", "scf.", "ub.")
TARGET = re.compile(r"^(cuda:\d+|hip:gfx[0-9a-z]+)$")


def check_target(target: str, pass_name: str) -> None:
    if not target:
        raise ValueError(f"'{pass_name}' requires 'target' option to be set")
    if not TARGET.match(target):
        raise ValueError(f"invalid target '{target}' (expected 'cuda:<compute capability>', e.g. 'cuda:90', "
                         f"or 'hip:<gfx arch>')")


def check_counts(num_warps: int, threads_per_warp: int, num_ctas: int) -> None:
    for name, v in (("num-warps", num_warps), ("threads-per-warp", threads_per_warp)):
        if v <= 0 or v & (v - 1):
            raise ValueError(f"option '{name}' must be a positive power of two, got {v}")
    if num_ctas != 1:
        raise ValueError(f"option 'num-ctas' must be 1 (CTA clusters are not supported), got {num_ctas}")


def set_module_attrs(module: ModuleOp, target: str, num_warps: int, threads_per_warp: int, num_ctas: int) -> None:
    attrs = dict(module.attributes)
    attrs["ttg.num-warps"] = IntegerAttr(num_warps, i32)
    attrs["ttg.threads-per-warp"] = IntegerAttr(threads_per_warp, i32)
    attrs["ttg.num-ctas"] = IntegerAttr(num_ctas, i32)
    attrs["ttg.target"] = StringAttr(target)
    module.attributes.clear()
    for k in sorted(attrs):
        module.attributes[k] = attrs[k]


def _next_pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


class _Conversion:
    def __init__(self, num_warps: int, threads_per_warp: int, source_remat: bool = False):
        self.num_warps, self.threads_per_warp, self.source_remat = num_warps, threads_per_warp, source_remat
        self.original: dict[SSAValue, Attribute] = {}
        self.materialized: dict[tuple[SSAValue, Attribute], SSAValue] = {}
        self.converted: dict[Attribute, Attribute] = {}  # convert's results: a layout is made once per type

    # ---- types

    def convert(self, t: Attribute) -> Attribute:
        if isinstance(t, TensorType) and encoding(t) is None:
            if (c := self.converted.get(t)) is None:
                c = self.converted[t] = with_encoding(
                    t, default_blocked(t.get_shape(), self.num_warps, self.threads_per_warp))
            return c
        return t

    def original_type(self, v: SSAValue) -> Attribute:
        return self.original.get(v, v.type)

    def retype(self, v: SSAValue, t: Attribute) -> None:
        if v.type != t:
            self.original.setdefault(v, v.type)
            v._type = t

    def needs_conversion(self, op: Operation) -> bool:
        def raw(t):
            return isinstance(t, TensorType) and encoding(t) is None

        if any(raw(self.original_type(v)) for v in op.operands) or any(raw(r.type) for r in op.results):
            return True
        return any(raw(a.type) for r in op.regions for b in r.blocks for a in b.args)

    # ---- materializations

    def convert_value(self, v: SSAValue, t: Attribute, before: Operation | None = None) -> SSAValue:
        """A `ttg.convert_layout` of `v` to `t`: placed right after `v`'s definition and shared (when `before` is
        None), or placed before `before` (the explicit conversions some patterns make)."""
        if before is None:
            if v.type == t:
                return v
            key = (v, t)
            if key in self.materialized:
                return self.materialized[key]
        cvt = ConvertLayoutOp.create(operands=[v], result_types=[t])
        if before is not None:
            cvt.location = before.location
            before.parent.insert_op_before(cvt, before)
            return cvt.results[0]
        owner = v.owner
        if isinstance(owner, Block):
            cvt.location = owner.parent_op().location if owner.parent_op() is not None else cvt.location
            if owner.first_op is None:
                owner.add_op(cvt)
            else:
                owner.insert_op_before(cvt, owner.first_op)
        else:
            cvt.location = owner.location
            owner.parent.insert_op_after(cvt, owner)
        self.materialized[(v, t)] = cvt.results[0]
        return cvt.results[0]

    def remap_operands(self, op: Operation) -> None:
        for i, v in enumerate(list(op.operands)):
            want = self.convert(self.original_type(v))
            if v.type != want and isinstance(want, TensorType):
                op.operands[i] = self.convert_value(v, want)

    def keep_types(self, op: Operation) -> None:
        """enable-source-remat: an op outside the dialects Triton converts keeps its types; an operand that
        changed type reaches it through a `builtin.unrealized_conversion_cast` back to the old type, made right
        after the operand's definition and shared (MLIR's source materialization)."""
        for i, v in enumerate(list(op.operands)):
            old = self.original_type(v)
            if v.type == old:
                continue
            key = (v, old)
            if key not in self.materialized:
                cast = UnrealizedConversionCastOp.create(operands=[v], result_types=[old])
                owner = v.owner
                if isinstance(owner, Block):
                    cast.location = op.location
                    owner.insert_op_before(cast, owner.first_op)
                else:
                    cast.location = owner.location
                    owner.parent.insert_op_after(cast, owner)
                self.materialized[key] = cast.results[0]
            op.operands[i] = self.materialized[key]

    # ---- ops

    def run(self, region) -> None:
        for block in list(region.blocks):
            for op in list(block.ops):
                self.op(op)

    def op(self, op: Operation) -> None:
        name = op.name
        if name == "tt.func":
            self.func(op)
            return
        if not self.needs_conversion(op):
            for r in op.regions:
                self.run(r)
            return
        if self.source_remat and not name.startswith(_CONVERTED):
            self.keep_types(op)
            return
        self.remap_operands(op)
        handler = getattr(self, "op_" + name.replace(".", "_"), None)
        if handler is not None:
            handler(op)
        else:
            for r in op.results:
                self.retype(r, self.convert(r.type))
        for r in op.regions:
            for b in r.blocks:
                for a in b.args:
                    self.retype(a, self.convert(a.type))
            self.run(r)

    def func(self, op: Operation) -> None:
        entry = op.body.blocks.first
        ft = op.function_type
        ins = [self.convert(t) for t in ft.inputs.data]
        outs = [self.convert(t) for t in ft.outputs.data]
        if list(ins) != list(ft.inputs.data) or list(outs) != list(ft.outputs.data):
            op.properties["function_type"] = FunctionType.from_lists(ins, outs)
        for block in op.body.blocks:
            for a in block.args:
                self.retype(a, self.convert(a.type))
        if entry is not None:
            self.run(op.body)

    def op_arith_constant(self, op: Operation) -> None:
        r = op.results[0]
        new_t = self.convert(r.type)
        if new_t == r.type:
            return
        value = op.properties.get("value")
        if isinstance(value, DenseIntOrFPElementsAttr):
            op.properties["value"] = DenseIntOrFPElementsAttr.new([new_t, value.data])
        self.retype(r, new_t)

    def op_tt_reduce(self, op: Operation) -> None:
        axis = op.axis.value.data
        for src, r in zip(op.operands, op.results):
            if isinstance(r.type, TensorType):
                self.retype(r, with_encoding(r.type, slice_of(axis, encoding(src.type))))

    def op_tt_scan(self, op: Operation) -> None:
        for src, r in zip(op.operands, op.results):
            self.retype(r, src.type)

    def op_tt_broadcast(self, op: Operation) -> None:
        r = op.results[0]
        self.retype(r, with_encoding(r.type, encoding(op.operands[0].type)))

    def op_tt_trans(self, op: Operation) -> None:
        r = op.results[0]
        enc = trans_encoding(encoding(op.operands[0].type), op.order.get_values())
        self.retype(r, with_encoding(r.type, enc) if enc is not None else self.convert(r.type))

    def op_tt_join(self, op: Operation) -> None:
        r = op.results[0]
        enc = join_encoding(encoding(op.operands[0].type))
        self.retype(r, with_encoding(r.type, enc) if enc is not None else self.convert(r.type))

    def op_tt_split(self, op: Operation) -> None:
        src = op.operands[0]
        enc = encoding(src.type)
        rank = len(shape_of(src.type))
        if not (isinstance(enc, BlockedEncoding) and enc["sizePerThread"][-1] == 2 and enc["order"][0] == rank - 1):
            d = default_blocked(shape_of(op.results[0].type), self.num_warps, self.threads_per_warp)
            enc = blocked(
                list(d["sizePerThread"]) + [2], list(d["threadsPerWarp"]) + [1], list(d["warpsPerCTA"]) + [1],
                [rank - 1] + list(d["order"]),
            )
            op.operands[0] = self.convert_value(src, with_encoding(src.type, enc), before=op)
        out = split_encoding(enc)
        for r in op.results:
            self.retype(r, with_encoding(r.type, out) if out is not None else self.convert(r.type))

    def op_tt_cat(self, op: Operation) -> None:
        r = op.results[0]
        ret = self.convert(r.type)
        enc = encoding(ret)
        lhs = total_elems_per_thread(op.operands[0].type)
        rhs = total_elems_per_thread(op.operands[1].type)
        total = total_elems_per_thread(ret)
        spt = list(enc["sizePerThread"])
        spt[enc["order"][0]] *= max(1, _next_pow2(lhs + rhs) // total)
        self.retype(r, with_encoding(r.type, blocked(spt, enc["threadsPerWarp"], enc["warpsPerCTA"], enc["order"])))

    def op_tt_expand_dims(self, op: Operation) -> None:
        src = op.operands[0]
        axis = op.axis.value.data
        arg = encoding(src.type)
        if not isinstance(arg, BlockedEncoding):
            for r in op.results:
                self.retype(r, self.convert(r.type))
            return
        rank = len(arg["order"]) + 1

        def insert1(seq):
            s = list(seq)
            s.insert(axis, 1)
            return s

        ret = blocked(insert1(arg["sizePerThread"]), insert1(arg["threadsPerWarp"]), insert1(arg["warpsPerCTA"]),
                      list(range(rank)))
        op.operands[0] = self.convert_value(src, with_encoding(src.type, slice_of(axis, ret)), before=op)
        self.retype(op.results[0], with_encoding(op.results[0].type, ret))

    def op_tt_descriptor_gather(self, op: Operation) -> None:
        """Triton's getNewIndicesType: the row offsets as a slice (dim 0) of a [1, 4]-per-thread blocked layout,
        lanes along the offsets, warps across the broadcast dimension."""
        for r in op.results:
            self.retype(r, self.convert(r.type))
        x = op.x_offsets
        parent = blocked([1, 4], [self.threads_per_warp, 1], [1, self.num_warps], [1, 0])
        want = with_encoding(x.type, slice_of(0, parent))
        if x.type != want:
            op.operands[1] = self.convert_value(x, want, before=op)

    op_tt_descriptor_scatter = op_tt_descriptor_gather

    def op_tt_dot(self, op: Operation) -> None:
        d_t = op.results[0].type
        shape = d_t.get_shape()
        rank = len(shape)
        spt = [1] * rank
        per_thread = math.prod(shape) // (self.num_warps * self.threads_per_warp)
        if per_thread >= 4:
            spt[-1] = spt[-2] = 2
        if per_thread >= 16:
            spt[-1] = spt[-2] = 4
        spt[-1] = min(spt[-1], shape[-1])
        spt[-2] = min(spt[-2], shape[-2])
        d_enc = blocked_for_shape(shape, spt, list(reversed(range(rank))), self.num_warps, self.threads_per_warp)
        ret = with_encoding(d_t, d_enc)
        a, b, c = op.operands
        for idx, v in ((0, a), (1, b)):
            if not isinstance(encoding(v.type), DotOperandEncoding):
                want = with_encoding(v.type, DotOperandEncoding.make(opIdx=idx, parent=d_enc))
                op.operands[idx] = self.convert_value(v, want, before=op)
        op.operands[2] = self.convert_value(c, ret, before=op)
        self.retype(op.results[0], ret)


@dataclass(frozen=True)
class ConvertTritonToTritonGPU(Pass):
    """Convert Triton IR to TritonGPU IR: assign a layout to every tensor."""

    name = "convert-triton-to-tritongpu"
    display = "ConvertTritonToTritonGPU"
    summary = "Convert Triton to TritonGPU (assign default blocked layouts)"

    target: str = option("", "the target, e.g. cuda:90")
    num_warps: int = option(4, "number of warps")
    threads_per_warp: int = option(32, "number of threads per warp")
    num_ctas: int = option(1, "number of CTAs in a cluster")
    enable_source_remat: bool = option(False, "leave ops outside the converted dialects (ttg, ttng, ...) with their "
                                              "types, through unrealized conversion casts")

    def __post_init__(self):
        check_target(self.target, self.name)
        check_counts(self.num_warps, self.threads_per_warp, self.num_ctas)

    def apply(self, ctx, module) -> None:
        set_module_attrs(module, self.target, self.num_warps, self.threads_per_warp, self.num_ctas)
        _Conversion(self.num_warps, self.threads_per_warp, self.enable_source_remat).run(module.body)
