"""relayout-tritongpu: give layouts to the tensors of TritonNvidiaGPU ops that have none (Triton's
RelayoutTritonGPU, a partial dialect conversion used when warp specialization changes a partition's warps).

A tensor without a layout converts to the default blocked layout of the module's warps, lanes and CTAs (as in
convert-triton-to-tritongpu). An op of arith, math, tt, cf, scf, ub or ttng with such a tensor (operand,
result or region argument) must be rewritten; ops of other dialects (ttg, builtin casts) are left alone. The
rewrites (operands first remapped: a `builtin.unrealized_conversion_cast` from the converted type is looked
through, and erased once unused; any other layout-less operand gets a `ttg.convert_layout` after its
definition):
- `ttng.tmem_load` loads in the default TMEM layout of its source (32x32b message), converted to the default
  blocked layout for its users when that differs;
- `ttng.tmem_store` and `ttng.tmem_alloc` convert their source to the default TMEM layout of the buffer;
- `ttng.async_tma_gather`/`async_tma_scatter` convert their row offsets to a slice of a blocked layout giving
  each thread 4 consecutive offsets.
Any other op needing a rewrite fails the pass: "failed to legalize operation ... that was explicitly marked
illegal".
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.layout_utils import module_int, slice_of, with_encoding
from ttc.ir.layouts import blocked, default_blocked
from ttc.ir.ttg import ConvertLayoutOp
from ttc.ir.types import encoding
from ttc.ir.warp_specialize import lookup_num_warps
from ttc.passes.promote_lhs_to_tmem import default_tmem_layout
from ttc.opt.passmanager import Pass

_DYNAMIC = ("arith.", "math.", "tt.", "cf.", "scf.", "ub.", "ttng.")
_CAST = "builtin.unrealized_conversion_cast"


class _Relayout:
    def __init__(self, module):
        self.num_warps = module_int(module, "ttg.num-warps", 4)
        self.threads = module_int(module, "ttg.threads-per-warp", 32)
        self.casts: list[Operation] = []

    def convert(self, t):
        if isinstance(t, TensorType) and encoding(t) is None:
            return with_encoding(t, default_blocked(t.get_shape(), self.num_warps, self.threads))
        return t

    def legal(self, op: Operation) -> bool:
        values = [*op.operands, *op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        return all(self.convert(v.type) == v.type for v in values)

    def remapped(self, v: SSAValue) -> SSAValue:
        want = self.convert(v.type)
        if want == v.type:
            return v
        src = v.owner
        if isinstance(src, Operation) and src.name == _CAST and len(src.operands) == 1 \
                and src.operands[0].type == want:
            self.casts.append(src)
            return src.operands[0]
        cvt = ConvertLayoutOp.create(operands=[v], result_types=[want])
        if isinstance(src, Block):
            cvt.location = src.parent_op().location
            src.insert_op_before(cvt, src.first_op)
        else:
            cvt.location = src.location
            src.parent.insert_op_after(cvt, src)
        return cvt.results[0]

    def remap(self, op: Operation) -> None:
        op.operands = [self.remapped(v) for v in op.operands]

    def cvt_before(self, op: Operation, v: SSAValue, t) -> SSAValue:
        cvt = ConvertLayoutOp.create(operands=[v], result_types=[t])
        cvt.location = op.location
        op.parent.insert_op_before(cvt, op)
        return cvt.results[0]

    def tmem_type(self, t, memdesc, op: Operation):
        return with_encoding(self.convert(t), default_tmem_layout(memdesc, lookup_num_warps(op) or self.num_warps))

    def rewrite(self, op: Operation) -> bool:
        name = op.name
        if name == "ttng.tmem_load":
            self.remap(op)
            old = self.convert(op.result.type)
            op.result._type = self.tmem_type(op.result.type, op.src.type, op)
            if op.result.type != old:
                cvt = ConvertLayoutOp.create(operands=[op.result], result_types=[old])
                cvt.location = op.location
                op.parent.insert_op_after(cvt, op)
                for use in list(op.result.uses):
                    if use.operation is not cvt:
                        use.operation.operands[use.index] = cvt.results[0]
            return True
        if name in ("ttng.tmem_store", "ttng.tmem_alloc"):
            src_type = op.src.type if op.src is not None else None
            self.remap(op)
            if src_type is not None:
                memdesc = op.dst.type if name == "ttng.tmem_store" else op.result.type
                src = self.cvt_before(op, op.src, self.tmem_type(src_type, memdesc, op))
                op.operands = [src if v is op.src else v for v in op.operands]
            return True
        if name in ("ttng.async_tma_gather", "ttng.async_tma_scatter"):
            self.remap(op)
            for r in op.results:
                r._type = self.convert(r.type)
            x = op.x_offsets
            parent = blocked([1, 4], [self.threads, 1], [1, self.num_warps], [1, 0])
            want = with_encoding(x.type, slice_of(0, parent))
            if x.type == want:
                return False
            new = self.cvt_before(op, x, want)
            op.operands = [new if v is x else v for v in op.operands]
            return True
        return False

    def run(self, module) -> None:
        for op in list(module.walk()):
            if op is module or not op.name.startswith(_DYNAMIC) or self.legal(op):
                continue
            if not self.rewrite(op):
                raise CompileError(at_op(op, None, f"failed to legalize operation '{op.name}' that was explicitly "
                                                   "marked illegal"))
        for cast in self.casts:  # MLIR's reconcileUnrealizedCasts: the casts looked through, once unused
            if cast.parent is not None and not any(r.uses for r in cast.results):
                cast.detach()
                cast.erase()


@dataclass(frozen=True)
class RelayoutTritonGPU(Pass):
    """Give the default layouts to the layout-less tensors of TritonNvidiaGPU ops."""

    name = "relayout-tritongpu"
    display = "RelayoutTritonGPU"
    summary = "relayout pass for `ttg` and `ttng` operations"

    def apply(self, ctx, module) -> None:
        _Relayout(module).run(module)
