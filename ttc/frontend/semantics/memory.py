"""Loads and stores through pointers, tensors of pointers and block pointers (`make_block_ptr`,
`advance`), with masks, `other`, boundary checks, padding, cache modifiers and eviction policies.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, i1, i32

from ttc.frontend import dtypes as T
from ttc.frontend.builder import int_attr
from ttc.frontend.dtypes import BlockType, PointerDType
from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Constexpr, Tensor
from ttc.ir.tt import CACHE, EVICT, PADDING

_LOAD_CACHE = {"": "none", ".ca": "ca", ".cg": "cg", ".cv": "cv"}
_STORE_CACHE = {"": "none", ".wb": "wb", ".cg": "cg", ".cs": "cs", ".wt": "wt"}
_EVICTION = {"": "evict_normal", "evict_last": "evict_last", "evict_first": "evict_first"}


def _cache(modifier, table, what: str) -> int:
    modifier = modifier or ""
    if modifier not in table:
        raise LanguageError(f"Cache modifier {modifier} not supported" + (f" for {what}" if what else ""))
    return CACHE[table[modifier]]


def _eviction(policy) -> int:
    policy = policy or ""
    if policy not in _EVICTION:
        raise LanguageError(f"Eviction policy {policy} not supported")
    return EVICT[_EVICTION[policy]]


def _padding(option) -> int | None:
    if not option:
        return None
    if option == "zero":
        return PADDING["zero"]
    if option == "nan":
        return PADDING["nan"]
    raise LanguageError(f"Padding option {option} not supported")


def is_block_pointer(t) -> bool:
    return isinstance(t, PointerDType) and isinstance(t.element, BlockType)


class MemoryMixin:
    # ------------------------------------------------------------------ load

    def load(self, ptr: Tensor, mask, other, boundary_check, padding_option, cache_modifier, eviction_policy,
             is_volatile: bool) -> Tensor:
        if not isinstance(ptr, Tensor):
            raise LanguageError(f"Unsupported ptr type {ptr!r} in `tl.load`")
        cache = _cache(cache_modifier, _LOAD_CACHE, "loads")
        evict = _eviction(eviction_policy)
        padding = _padding(padding_option)
        if is_block_pointer(ptr.type):
            return self._load_block_pointer(ptr, mask, other, boundary_check, padding, cache, evict, is_volatile)
        return self._load_pointers(ptr, mask, other, boundary_check, padding, cache, evict, is_volatile)

    def _memory_props(self, cache: int, evict: int) -> dict:
        return {"cache": int_attr(cache, i32), "evict": int_attr(evict, i32)}

    def _load_block_pointer(self, ptr, mask, other, boundary_check, padding, cache, evict, is_volatile):
        if mask is not None or other is not None:
            raise LanguageError("`mask` and `other` arguments cannot be specified for loading block pointers")
        block = ptr.type.element
        if block.element.is_int() and padding == PADDING["nan"]:
            raise LanguageError("Padding option `nan` is not supported for integer block pointers")
        checks = self._boundary_check(boundary_check, block.shape)
        props = self._memory_props(cache, evict)
        props["isVolatile"] = BoolAttr(bool(is_volatile), i1)
        if checks:
            props["boundaryCheck"] = DenseArrayBase.from_list(i32, checks)
        if padding is not None:
            props["padding"] = int_attr(padding, i32)
        op = self.builder.create("tt.load", [ptr.handle, [], []], [block.to_ir()], props)
        return Tensor(op.results[0], block)

    def _load_pointers(self, ptr, mask, other, boundary_check, padding, cache, evict, is_volatile):
        if not ptr.type.scalar.is_ptr():
            raise LanguageError(f"Unsupported ptr type {ptr.type!r} in `tl.load`")
        if mask is None and other is not None:
            raise LanguageError("`other` cannot be provided without `mask`")
        if padding or boundary_check:
            raise LanguageError(
                "`padding_option` or `boundary_check` argument is not supported for loading a tensor of pointers "
                "or loading a scalar. Because the compiler does not know the boundary; please use block pointers "
                "(defined by `make_block_ptr`) instead"
            )
        if not ptr.is_block():
            if mask is not None and mask.is_block():
                raise LanguageError("Mask argument cannot be block type if pointer argument is not a block")
            if other is not None and other.is_block():
                raise LanguageError("Other argument cannot be block type if pointer argument is not a block")
        if ptr.is_block():
            if mask is not None:
                ptr, mask = self.broadcast_impl_value(ptr, mask)
            if other is not None:
                ptr, other = self.broadcast_impl_value(ptr, other)
        ptr_ty = ptr.type.scalar
        elt = ptr_ty.element
        is_bool = elt == T.int1
        if is_bool:
            elt = T.int8
            ptr = self.cast(ptr, PointerDType(elt, ptr_ty.address_space))
        if other is not None:
            other = self.cast(other, elt)
        dst = ptr.type.with_element_ty(elt) if ptr.is_block() else elt
        props = self._memory_props(cache, evict)
        props["isVolatile"] = BoolAttr(bool(is_volatile), i1)
        operands = [ptr.handle, [mask.handle] if mask is not None else [], [other.handle] if other is not None else []]
        ret = Tensor(self.builder.create("tt.load", operands, [dst.to_ir()], props).results[0], dst)
        if is_bool:
            ret = self.cast(ret, T.int1)
        return ret

    def _boundary_check(self, boundary_check, block_shape) -> list[int]:
        if not boundary_check:
            return []
        if not isinstance(boundary_check, (list, tuple)):
            boundary_check = [boundary_check]
        dims = [d.value if isinstance(d, Constexpr) else d for d in boundary_check]
        for d in dims:
            if not isinstance(d, int) or not 0 <= d < len(block_shape):
                raise LanguageError(f"boundary_check dimension {d} is out of range for a {len(block_shape)}-d block")
        if len(dims) != len(set(dims)):
            raise LanguageError("Duplicate dimension in `boundary_check`")
        return sorted(dims)

    # ------------------------------------------------------------------ store

    def store(self, ptr: Tensor, val: Tensor, mask, boundary_check, cache_modifier, eviction_policy):
        if not isinstance(ptr, Tensor):
            raise LanguageError(f"Unsupported ptr type {ptr!r} in `tl.store`")
        cache = _cache(cache_modifier, _STORE_CACHE, "stores")
        evict = _eviction(eviction_policy)
        if ptr.type.is_const() or ptr.type.scalar.is_const():
            raise LanguageError("Cannot store to a constant pointer")
        if is_block_pointer(ptr.type):
            return self._store_block_pointer(ptr, val, mask, boundary_check, cache, evict)
        return self._store_pointers(ptr, val, mask, boundary_check, cache, evict)

    def _store_block_pointer(self, ptr, val, mask, boundary_check, cache, evict):
        if mask is not None:
            raise LanguageError("`mask` and `other` arguments cannot be specified for loading block pointers")
        block = ptr.type.element
        if not val.is_block():
            val = self.broadcast_impl_shape(val, block.shape)
        if tuple(val.shape) != block.shape:
            raise LanguageError(f"Block shape({list(block.shape)}) and value shape({list(val.shape)}) mismatch")
        if block.element != val.dtype:
            raise LanguageError(f"Block element type({block.element}) and value element type({val.dtype}) mismatch")
        checks = self._boundary_check(boundary_check, block.shape)
        val = self.cast(val, block.element)
        props = self._memory_props(cache, evict)
        if checks:
            props["boundaryCheck"] = DenseArrayBase.from_list(i32, checks)
        self.builder.create("tt.store", [ptr.handle, val.handle, []], [], props)

    def _store_pointers(self, ptr, val, mask, boundary_check, cache, evict):
        if not ptr.type.scalar.is_ptr():
            raise LanguageError(f"Unsupported ptr type {ptr.type!r} in `tl.store`")
        if boundary_check:
            raise LanguageError(
                "`boundary_check` argument is not supported for storing a tensor of pointers or storing a scalar. "
                "Because the compiler does not know the boundary; please use block pointers (defined by "
                "`make_block_ptr`) instead"
            )
        if not ptr.is_block():
            if val.is_block():
                raise LanguageError("Value argument cannot be block type if pointer argument is not a block")
            if mask is not None and mask.is_block():
                raise LanguageError("Mask argument cannot be block type if pointer argument is not a block")
        if ptr.is_block():
            shape = ptr.shape
            if mask is None:
                ptr, val = self.broadcast_tensors(ptr, val)
            else:
                ptr, val, mask = self.broadcast_tensors(ptr, val, mask)
            if shape != ptr.shape:
                raise LanguageError(f"Expected pointer argument to have shape {list(ptr.shape)} but got {list(shape)}")
        ptr_ty = ptr.type.scalar
        elt = ptr_ty.element
        if elt == T.int1:
            elt = T.int8
            ptr = self.cast(ptr, PointerDType(elt, ptr_ty.address_space))
        val = self.cast(val, elt)
        props = self._memory_props(cache, evict)
        if mask is not None and not mask.type.scalar.is_bool():
            raise LanguageError("Mask must have boolean scalar type")
        operands = [ptr.handle, val.handle, [mask.handle] if mask is not None else []]
        self.builder.create("tt.store", operands, [], props)

    # ------------------------------------------------------------------ block pointers

    def _ir_values(self, items, require_i64: bool) -> list:
        if not isinstance(items, (list, tuple)):
            items = [items]
        out = []
        for elem in items:
            if isinstance(elem, int) and not isinstance(elem, bool):
                elem = Constexpr(elem)
            if isinstance(elem, Constexpr):
                v = elem.value
                if isinstance(v, bool):
                    out.append(self.builder.int_constant(int(v), T.int1.to_ir()))
                elif not isinstance(v, int):
                    raise LanguageError(f"Unsupported element type in shape/strides/offsets: {type(v).__name__}")
                elif require_i64:
                    if not -(2**63) <= v < 2**63:
                        raise LanguageError(f"Block pointers only support 64 bit `shape/strides`, got a value {v} "
                                            "which is out of the range")
                    out.append(self.builder.int_constant(v, T.int64.to_ir()))
                else:
                    if not -(2**31) <= v < 2**31:
                        raise LanguageError(f"Block pointers only support 32 bit `offsets/block_shape`, got a value "
                                            f"{v} which is out of the range")
                    out.append(self.builder.int_constant(v, T.int32.to_ir()))
            elif isinstance(elem, Tensor):
                if elem.numel != 1:
                    raise LanguageError("Expected a scalar in shape/strides/offsets")
                if not elem.dtype.is_int():
                    raise LanguageError("Expected an integer scalar type in shape/strides/offsets")
                if elem.dtype != T.int64 and require_i64:
                    out.append(self.int_cast(elem.handle, T.int64.to_ir(), elem.dtype.is_int_signed()))
                elif elem.dtype == T.int64 and not require_i64:
                    raise LanguageError("Block pointers only support 32 bit `offsets/block_shape`, add a "
                                        "`.to(tl.int32)` or use regular indexing for 64 bit support")
                else:
                    out.append(elem.handle)
            else:
                raise LanguageError(f"Unsupported element type in shape/strides/offsets: {type(elem).__name__}")
        return out

    def make_block_ptr(self, base: Tensor, shape, strides, offsets, block_shape, order) -> Tensor:
        shape = self._ir_values(shape, True)
        strides = self._ir_values(strides, True)
        offsets = self._ir_values(offsets, False)
        if not isinstance(base, Tensor) or not base.type.is_ptr() or is_block_pointer(base.type):
            raise LanguageError("Expected `base` to be a pointer type (but not a block pointer type or others)")
        if base.type.element == T.int1:
            base = self.cast(base, PointerDType(T.int8, base.type.address_space))
        if not isinstance(block_shape, (list, tuple)):
            block_shape = [block_shape]
        block_shape = [e.value if isinstance(e, Constexpr) else e for e in block_shape]
        if not all(isinstance(e, int) and -(2**31) <= e < 2**31 for e in block_shape):
            raise LanguageError("Expected a list of constant integers (`int32_t` range) in `block_shape`")
        if not isinstance(order, (list, tuple)):
            order = [order]
        order = [e.value if isinstance(e, Constexpr) else e for e in order]
        if sorted(order) != list(range(len(order))):
            raise LanguageError("Expected a permutation of (0, 1, ..., len(order)-1) in order")
        if not all(len(block_shape) == len(x) for x in (shape, strides, offsets, order)):
            raise LanguageError("Expected shape/strides/offsets/block_shape to have the same length")
        ty = PointerDType(BlockType(base.type.element, block_shape))
        props = {"order": DenseArrayBase.from_list(i32, order)}
        op = self.builder.create("tt.make_tensor_ptr", [base.handle, shape, strides, offsets], [ty.to_ir()], props)
        return Tensor(op.results[0], ty)

    def advance(self, base: Tensor, offsets) -> Tensor:
        if not isinstance(base, Tensor) or not is_block_pointer(base.type):
            raise LanguageError("tl.advance needs a block pointer (from tl.make_block_ptr)")
        offsets = self._ir_values(offsets, False)
        op = self.builder.create("tt.advance", [base.handle, offsets], [base.type.to_ir()])
        return Tensor(op.results[0], base.type)
