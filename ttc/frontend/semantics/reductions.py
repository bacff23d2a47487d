"""Reductions and scans along an axis (`tt.reduce` / `tt.scan` whose combine region calls a jit function)
and histograms.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, i1, i32
from xdsl.ir import Block, Region

from ttc.frontend import dtypes as T
from ttc.frontend.builder import int_attr
from ttc.frontend.dtypes import BlockType
from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Tensor


class ReductionMixin:
    def _combine_region(self, op, inputs, terminator: str, call_combine):
        """The combine region: a block taking two scalars per input, calling the combine function and
        returning its results. The insertion point comes back where it was (Triton's insertion guard)."""
        scalar_types = [t.type.scalar for t in inputs] * 2
        block = Block(arg_types=[t.to_ir() for t in scalar_types])
        op.regions[0].add_block(block)
        saved = self.builder.save()
        self.builder.block, self.builder.before = block, None
        args = [Tensor(a, t) for a, t in zip(block.args, scalar_types)]
        results = call_combine(args)
        handles = [results.handle] if isinstance(results, Tensor) else [r.handle for r in results]
        self.builder.create(terminator, [handles], [])
        self.builder.restore(saved)

    def reduction(self, inputs, axis, call_combine) -> tuple:
        if axis is None:
            inputs = [self.reshape(t, [t.numel], can_reorder=True) for t in inputs]
            axis = 0
        shape = list(inputs[0].shape)
        rank = len(shape)
        if axis >= rank:
            raise LanguageError(f"reduction axis must be < inputs rank ({rank})")
        if any(list(t.shape) != shape for t in inputs):
            raise LanguageError("all reduction inputs must have the same shape")
        ret_shape = [s for i, s in enumerate(shape) if i != axis]
        types = [BlockType(t.dtype, ret_shape) if ret_shape else t.dtype for t in inputs]
        op = self.builder.create("tt.reduce", [[t.handle for t in inputs]], [[t.to_ir() for t in types]],
                                 {"axis": int_attr(axis, i32)}, regions=[Region()])
        self._combine_region(op, inputs, "tt.reduce.return", call_combine)
        return tuple(Tensor(r, t) for r, t in zip(op.results, types))

    def associative_scan(self, inputs, axis, call_combine, reverse: bool) -> tuple:
        shape = list(inputs[0].shape)
        rank = len(shape)
        if not -rank <= axis < rank:
            raise LanguageError(f"scan axis {axis} must be < inputs rank ({rank})")
        if axis < 0:
            axis += rank
        if any(list(t.shape) != shape for t in inputs):
            raise LanguageError("all scan inputs must have the same shape")
        props = {"axis": int_attr(axis, i32), "reverse": BoolAttr(bool(reverse), i1)}
        op = self.builder.create("tt.scan", [[t.handle for t in inputs]], [[t.type.to_ir() for t in inputs]], props,
                                 regions=[Region()])
        self._combine_region(op, inputs, "tt.scan.return", call_combine)
        return tuple(Tensor(r, t.type) for r, t in zip(op.results, inputs))

    def histogram(self, input: Tensor, num_bins: int, mask) -> Tensor:
        if len(input.shape) != 1:
            raise LanguageError("histogram only supports 1D input")
        if not input.dtype.is_int():
            raise LanguageError("histogram only supports integer input")
        operands = [input.handle, []]
        if mask is not None:
            mask = self.broadcast_impl_shape(mask, input.shape)
            if not mask.type.scalar.is_bool():
                raise LanguageError("Mask must have boolean scalar type")
            operands[1] = [mask.handle]
        ty = BlockType(T.int32, [num_bins])
        return Tensor(self.builder.create("tt.histogram", operands, [ty.to_ir()]).results[0], ty)
