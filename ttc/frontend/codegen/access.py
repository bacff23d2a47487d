"""Attribute access and indexing in kernel code: `tl.load` (a namespace member), `x.dtype`, `x.shape`,
`x.T`, `x.sum` (a method bound to its tensor), `x.dtype.is_floating()`, and subscripts: `x[:, None]`
(expand_dims), `t[0]` on tuples and on constexpr sequences.
"""

from __future__ import annotations

import ast

from ttc.frontend.codegen.calls import BoundMethod, DTypeMethod
from ttc.frontend.descriptors import TensorDescriptor, descriptor_attribute
from ttc.frontend.dtypes import BlockType, DType, PointerDType
from ttc.frontend.language.builtin import Builtin
from ttc.frontend.errors import LanguageError
from ttc.frontend.language.namespace import Namespace, UnknownModule
from ttc.frontend.language.tensor_methods import tensor_method
from ttc.frontend.values import Constexpr, LangSlice, LangTuple, Tensor, unwrap


class AccessMixin:
    def visit_Subscript(self, node: ast.Subscript):
        value = self.visit(node.value)
        index = self.visit(node.slice)
        if isinstance(value, Tensor):
            return self._tensor_index(value, index)
        if isinstance(value, LangTuple):
            i = unwrap(index) if not isinstance(index, LangSlice) else index
            if isinstance(i, LangSlice):
                return LangTuple(value.values[unwrap(i.start):unwrap(i.stop):unwrap(i.step)])
            if not isinstance(i, int):
                raise LanguageError("tuples can only be indexed by constexpr integers")
            try:
                return value.values[i]
            except IndexError:
                raise LanguageError(f"tuple index {i} out of range") from None
        if isinstance(value, Constexpr) and isinstance(value.value, (tuple, list, str)):
            i = unwrap(index)
            try:
                result = value.value[slice(*unwrap((i.start, i.stop, i.step)))] if isinstance(i, LangSlice) else value.value[i]
            except (IndexError, TypeError) as e:
                raise LanguageError(str(e)) from None
            return Constexpr(result)
        raise LanguageError(f"{_show_value(value)} cannot be indexed")

    def _tensor_index(self, x: Tensor, index):
        slices = index.values if isinstance(index, LangTuple) else [index]
        for dim, sl in enumerate(slices):
            if isinstance(sl, Constexpr) and sl.value is None or sl is None:
                x = self.semantic.expand_dims(x, dim)
            elif isinstance(sl, LangSlice) and all(unwrap(v) is None for v in (sl.start, sl.stop, sl.step)):
                continue
            else:
                raise LanguageError(f"unsupported tensor index: {_show_value(sl)} (only `:` and `None` are supported)")
        return x

    def visit_Attribute(self, node: ast.Attribute):
        return self.get_attribute(self.visit(node.value), node.attr)

    def get_attribute(self, value, attr: str):
        if isinstance(value, Namespace):
            try:
                return value.lookup(attr)
            except AttributeError:
                raise LanguageError(f"module '{value.name}' has no attribute '{attr}'") from None
        if isinstance(value, UnknownModule):
            raise LanguageError(f"'{value.name}' is not part of the kernel language")
        if isinstance(value, Tensor):
            return self._tensor_attribute(value, attr)
        if isinstance(value, TensorDescriptor):
            found = descriptor_attribute(value, attr)
            if found is None:
                raise LanguageError(f"tensor descriptor has no attribute '{attr}'")
            return BoundMethod(value, found) if isinstance(found, Builtin) else found
        if isinstance(value, Constexpr) and attr == "value":
            return value
        if isinstance(value, Constexpr) and isinstance(value.value, (DType, PointerDType, BlockType)):
            value = value.value
        if isinstance(value, DType):
            return self._dtype_attribute(value, attr)
        raise LanguageError(f"{_show_value(value)} has no attribute '{attr}'")

    def _tensor_attribute(self, x: Tensor, attr: str):
        if attr == "T":
            return self.semantic.permute(x, (1, 0))
        if attr == "dtype":
            return x.dtype
        if attr == "type":
            return x.type
        if attr == "shape":
            return LangTuple([Constexpr(s) for s in x.shape])
        if attr == "numel":
            return Constexpr(x.numel)
        method = tensor_method(attr)
        if method is None:
            raise LanguageError(f"tensor has no attribute '{attr}'")
        return BoundMethod(x, method)

    def _dtype_attribute(self, t: DType, attr: str):
        if attr == "scalar" or (attr == "element_ty" and (t.is_ptr() or t.is_block())):
            return getattr(t, attr)
        if attr == "shape" and isinstance(t, BlockType):
            return LangTuple([Constexpr(s) for s in t.shape])
        if attr in ("primitive_bitwidth", "int_bitwidth", "fp_mantissa_width", "name", "address_space", "numel"):
            if not hasattr(t, attr):
                raise LanguageError(f"dtype {t} has no attribute '{attr}'")
            return Constexpr(getattr(t, attr))
        if attr.startswith("is_") and hasattr(t, attr):
            return DTypeMethod(getattr(t, attr), attr)
        raise LanguageError(f"dtype {t} has no attribute '{attr}'")


def _show_value(v) -> str:
    if isinstance(v, Tensor):
        return f"a tensor of type {v.type}"
    if isinstance(v, LangTuple):
        return "a tuple"
    if isinstance(v, Constexpr):
        return repr(v.value)
    return repr(v)
