"""Tensor creation and shape manipulation: program ids, `arange`, `full`, splats and broadcasting (Triton's
numpy-like rules), reshape, expand_dims, permute, cat, join and split.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, UnitAttr, i32

from ttc.frontend import dtypes as T
from ttc.frontend.builder import int_attr
from ttc.frontend.dtypes import MAX_TENSOR_NUMEL, BlockType
from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Tensor


def check_block_shape(shape) -> list[int]:
    shape = list(shape)
    numel = 1
    for i, d in enumerate(shape):
        if not isinstance(d, int) or isinstance(d, bool):
            raise LanguageError(f"Shape element {i} must have type `constexpr[int]`, got `constexpr[{type(d).__name__}]`")
        if d <= 0 or d & (d - 1):
            raise LanguageError(f"Shape element {i} must be a power of 2")
        numel *= d
    if numel > MAX_TENSOR_NUMEL:
        raise LanguageError(f"numel ({numel}) exceeds triton maximum tensor numel ({MAX_TENSOR_NUMEL})")
    return shape


class ShapeMixin:
    # ------------------------------------------------------------------ programs

    def program_id(self, axis) -> Tensor:
        if axis not in (0, 1, 2):
            raise LanguageError(f"program_id axis must be 0, 1, or 2 but got {axis}")
        props = {"axis": int_attr(axis, i32)}
        return Tensor(self.builder.value("tt.get_program_id", [], T.int32.to_ir(), props), T.int32)

    def num_programs(self, axis) -> Tensor:
        if axis not in (0, 1, 2):
            raise LanguageError(f"num_programs axis must be 0, 1, or 2 but got {axis}")
        props = {"axis": int_attr(axis, i32)}
        return Tensor(self.builder.value("tt.get_num_programs", [], T.int32.to_ir(), props), T.int32)

    # ------------------------------------------------------------------ creation

    def arange(self, start, end) -> Tensor:
        if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) or isinstance(end, bool):
            raise LanguageError("arange's arguments must be of type tl.constexpr")
        if start >> 32 or end >> 32:
            raise LanguageError("arange must fit in int32")
        if end <= start:
            raise LanguageError("arange's end argument must be greater than the start argument")
        n = end - start
        if n & (n - 1):
            raise LanguageError("arange's range must be a power of 2")
        ty = BlockType(T.int32, [n])
        props = {"start": int_attr(start, i32), "end": int_attr(end, i32)}
        return Tensor(self.builder.value("tt.make_range", [], ty.to_ir(), props), ty)

    def full(self, shape, value, dtype) -> Tensor:
        return self.splat(self.make_scalar(value, dtype), shape)

    # ------------------------------------------------------------------ splat and broadcast

    def splat(self, value: Tensor, shape) -> Tensor:
        if value.is_block():
            raise LanguageError("Cannot splat a block tensor")
        if len(shape) == 0:
            return value
        ty = BlockType(value.dtype, shape)
        return Tensor(self.builder.splat(value.handle, ty.to_ir()), ty)

    def broadcast_impl_shape(self, input: Tensor, shape) -> Tensor:
        shape = list(shape)
        if not input.is_block():
            return self.splat(input, shape)
        src = list(input.shape)
        if len(src) != len(shape):
            raise LanguageError(f"Cannot broadcast, rank mismatch: {src}, {shape}")
        if shape == src:
            return input
        for i, item in enumerate(src):
            if shape[i] != item and item != 1:
                raise LanguageError(
                    f"Cannot broadcast, the expanded size of the tensor ({shape[i]}) must match the existing size "
                    f"({item}) at non-singleton dimension {i}: {src}, {shape}"
                )
        ty = BlockType(input.dtype, shape)
        return Tensor(self.builder.broadcast(input.handle, ty.to_ir()), ty)

    def broadcast_impl_value(self, lhs: Tensor, rhs: Tensor) -> tuple[Tensor, Tensor]:
        b = self.builder
        if lhs.is_block() and not rhs.is_block():
            ty = lhs.type.with_element_ty(rhs.type.scalar)
            rhs = Tensor(b.splat(rhs.handle, ty.to_ir()), ty)
        elif not lhs.is_block() and rhs.is_block():
            ty = rhs.type.with_element_ty(lhs.type.scalar)
            lhs = Tensor(b.splat(lhs.handle, ty.to_ir()), ty)
        elif lhs.is_block() and rhs.is_block():
            while len(lhs.shape) < len(rhs.shape):
                lhs = self._expand_front(lhs)
            while len(rhs.shape) < len(lhs.shape):
                rhs = self._expand_front(rhs)
            ret = []
            for i, (left, right) in enumerate(zip(lhs.shape, rhs.shape)):
                if left == 1:
                    ret.append(right)
                elif right == 1 or right == left:
                    ret.append(left)
                else:
                    raise LanguageError(
                        f"Cannot make_shape_compatible: incompatible dimensions at index {i}: {left} and {right}"
                    )
            if list(lhs.shape) != ret:
                ty = BlockType(lhs.dtype, ret)
                lhs = Tensor(b.broadcast(lhs.handle, ty.to_ir()), ty)
            if list(rhs.shape) != ret:
                ty = BlockType(rhs.dtype, ret)
                rhs = Tensor(b.broadcast(rhs.handle, ty.to_ir()), ty)
        return lhs, rhs

    def _expand_front(self, x: Tensor) -> Tensor:
        ty = BlockType(x.dtype, [1, *x.shape])
        props = {"axis": int_attr(0, i32)}
        return Tensor(self.builder.value("tt.expand_dims", [x.handle], ty.to_ir(), props), ty)

    def broadcast_tensors(self, *inputs):
        if not inputs:
            return ()
        head, *tail = inputs
        for i in range(len(tail)):
            head, tail[i] = self.broadcast_impl_value(head, tail[i])
        for i in range(len(tail) - 1):
            head, tail[i] = self.broadcast_impl_value(head, tail[i])
        return (head, *tail)

    # ------------------------------------------------------------------ reshaping

    def reshape(self, input: Tensor, shape, can_reorder: bool) -> Tensor:
        shape = list(shape)
        numel = 1
        for s in shape:
            numel *= s
        if input.numel != numel:
            raise LanguageError("reshape() cannot change total number of elements in tensor")
        if not input.is_block():
            raise LanguageError("reshape() needs a tensor, not a scalar")
        ty = BlockType(input.dtype, shape)
        props = {"allow_reorder": UnitAttr()} if can_reorder else {}
        return Tensor(self.builder.value("tt.reshape", [input.handle], ty.to_ir(), props), ty)

    def expand_dims(self, input: Tensor, axis: int) -> Tensor:
        shape = list(input.shape)
        shape.insert(axis, 1)
        if not input.is_block():
            return self.splat(input, shape)
        ty = BlockType(input.dtype, shape)
        props = {"axis": int_attr(axis, i32)}
        return Tensor(self.builder.value("tt.expand_dims", [input.handle], ty.to_ir(), props), ty)

    def permute(self, input: Tensor, dims) -> Tensor:
        dims = [int(d) for d in dims]
        if len(input.shape) != len(dims):
            raise LanguageError("permute dims must have the same length as input shape")
        if sorted(dims) != list(range(len(dims))):
            raise LanguageError(f"permute dims must be a permutation of 0, 1, ..., n-1, but were {tuple(dims)}")
        ty = BlockType(input.dtype, [input.shape[d] for d in dims])
        props = {"order": DenseArrayBase.from_list(i32, dims)}
        return Tensor(self.builder.value("tt.trans", [input.handle], ty.to_ir(), props), ty)

    def cat(self, lhs: Tensor, rhs: Tensor, can_reorder: bool) -> Tensor:
        if not can_reorder:
            raise LanguageError("current implementation of `cat` always may reorder elements")
        if len(lhs.shape) != 1 or len(rhs.shape) != 1:
            raise LanguageError("shape not supported by cat. Expecting rank-1 inputs")
        ty = BlockType(lhs.dtype, [lhs.shape[0] + rhs.shape[0]])
        return Tensor(self.builder.value("tt.cat", [lhs.handle, rhs.handle], ty.to_ir()), ty)

    def join(self, a: Tensor, b: Tensor) -> Tensor:
        a, b = self.broadcast_impl_value(a, b)
        was_scalar = not a.is_block()
        if was_scalar:
            a = self.expand_dims(a, 0)
            b = self.expand_dims(b, 0)
        if a.type != b.type:
            raise LanguageError(f"join needs operands of the same type, got {a.type} and {b.type}")
        ty = BlockType(a.dtype, [*a.shape, 2])
        ret = Tensor(self.builder.value("tt.join", [a.handle, b.handle], ty.to_ir()), ty)
        if was_scalar:
            ret = self.reshape(ret, [2], can_reorder=False)
        return ret

    def split(self, a: Tensor) -> tuple[Tensor, Tensor]:
        if len(a.shape) == 0 or a.shape[-1] != 2:
            raise LanguageError(f"split needs a tensor whose last dimension is 2, got shape {list(a.shape)}")
        ty = BlockType(a.dtype, a.shape[:-1])
        op = self.builder.create("tt.split", [a.handle], [ty.to_ir(), ty.to_ir()])
        return Tensor(op.results[0], ty), Tensor(op.results[1], ty)

    def gather(self, src: Tensor, index: Tensor, axis: int) -> Tensor:
        if not index.dtype.is_int():
            raise LanguageError(f"gather: index must be an integer tensor, got {index.type}")
        rank = len(src.shape)
        if len(index.shape) != rank:
            raise LanguageError(f"gather: source and index tensors must have the same rank, got {len(src.shape)} "
                                f"(source {list(src.shape)}) and {len(index.shape)} (index {list(index.shape)})")
        if not -rank <= axis < rank:
            raise LanguageError(f"gather axis {axis} must be < source rank ({rank})")
        axis = axis + rank if axis < 0 else axis
        for d in range(rank):
            if d != axis and index.shape[d] != src.shape[d]:
                raise LanguageError(f"gather: index dim {d} ({index.shape[d]}) must match the corresponding source "
                                    f"dim ({src.shape[d]})")
        ty = BlockType(src.dtype, index.shape)
        props = {"axis": int_attr(axis, i32)}
        return Tensor(self.builder.value("tt.gather", [src.handle, index.handle], ty.to_ir(), props), ty)
