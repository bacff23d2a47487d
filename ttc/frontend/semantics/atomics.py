"""Atomic read-modify-write operations and compare-and-swap, with memory semantics and scopes; float
`atomic_max`/`atomic_min` are built from integer max/min on the sign-split bit patterns, as Triton does.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i32

from ttc.frontend import dtypes as T
from ttc.frontend.dtypes import PointerDType
from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Tensor
from ttc.ir.tt import RMW, SCOPE, SEM

_SEMANTICS = {None: "acq_rel", "": "acq_rel", "acquire": "acquire", "release": "release", "acq_rel": "acq_rel",
              "relaxed": "relaxed"}
_SCOPES = {None: "gpu", "": "gpu", "gpu": "gpu", "cta": "cta", "sys": "sys"}


def _sem(sem) -> int:
    if not isinstance(sem, (str, type(None))) or sem not in _SEMANTICS:
        raise LanguageError(f"Memory semantic {sem} not supported (sem is 'relaxed', 'acquire', 'release' or "
                            "'acq_rel')")
    return SEM[_SEMANTICS[sem]]


def _scope(scope) -> int:
    if not isinstance(scope, (str, type(None))) or scope not in _SCOPES:
        raise LanguageError(f"Memory scope {scope} not supported (scope is 'gpu', 'cta' or 'sys')")
    return SCOPE[_SCOPES[scope]]


class AtomicMixin:
    def _rmw(self, kind: str, ptr: Tensor, val: Tensor, mask: Tensor, sem: int, scope: int, language_type=None):
        """`tt.atomic_rmw`, whose IR result has the value's type; `language_type` reproduces a quirk of
        Triton's float atomic_min, which types one intermediate as a pointer (it changes later promotions)."""
        props = {"atomic_rmw_op": IntegerAttr(RMW[kind], i32), "sem": IntegerAttr(sem, i32),
                 "scope": IntegerAttr(scope, i32)}
        handle = self.builder.value("tt.atomic_rmw", [ptr.handle, val.handle, [mask.handle]], val.type.to_ir(), props)
        return Tensor(handle, language_type or val.type)

    def _atomic_operands(self, ptr: Tensor, val: Tensor, mask, op: str):
        if not isinstance(ptr, Tensor) or not ptr.type.scalar.is_ptr():
            raise LanguageError(f"Pointer argument of store instruction is {getattr(ptr, 'type', ptr)!r}")
        if ptr.type.is_const() or ptr.type.scalar.is_const():
            raise LanguageError("Cannot store to a constant pointer")
        elt = ptr.type.scalar.element
        if elt == T.float16 and op != "add":
            raise LanguageError(f"atomic_{op} does not support fp16")
        if elt == T.bfloat16 and op != "add":
            raise LanguageError(f"atomic_{op} does not support bf16")
        if elt in (T.int16, T.uint16) or elt.primitive_bitwidth < 16:
            raise LanguageError(f"atomic_{op} does not support {elt}")
        if ptr.is_block():
            if mask is not None:
                mask = self.broadcast_impl_shape(mask, ptr.shape)
            if val is not None:
                val = self.broadcast_impl_shape(val, ptr.shape)
        val = self.cast(val, elt)
        if mask is None:
            handle = self.builder.int_constant(1, T.int1.to_ir())
            ty = T.int1
            if ptr.is_block():
                ty = ptr.type.with_element_ty(T.int1)
                handle = self.builder.splat(handle, ty.to_ir())
            mask = Tensor(handle, ty)
        return ptr, val, mask

    def atomic_cas(self, ptr: Tensor, cmp: Tensor, val: Tensor, sem, scope) -> Tensor:
        sem, scope = _sem(sem), _scope(scope)
        if not isinstance(ptr, Tensor) or not ptr.type.scalar.is_ptr():
            raise LanguageError("atomic_cas needs a pointer or a tensor of pointers")
        if ptr.type.scalar.element.primitive_bitwidth not in (16, 32, 64):
            raise LanguageError("atomic_cas only supports elements with width {16, 32, 64}")
        want = ptr.type.with_element_ty(ptr.type.scalar.element) if ptr.is_block() else ptr.type.scalar.element
        if not cmp.type.to_ir() == val.type.to_ir() == want.to_ir():  # the IR's types (int32 and uint32 are i32)
            raise LanguageError(f"atomic_cas compares and swaps values of the pointer's type {want}, "
                                f"got cmp {cmp.type} and val {val.type} (use .to() or a typed constant)")
        props = {"sem": IntegerAttr(sem, i32), "scope": IntegerAttr(scope, i32)}
        handle = self.builder.value("tt.atomic_cas", [ptr.handle, cmp.handle, val.handle], val.type.to_ir(), props)
        return Tensor(handle, val.type)

    def atomic_add(self, ptr, val, mask, sem, scope) -> Tensor:
        ptr, val, mask = self._atomic_operands(ptr, val, mask, "add")
        kind = "fadd" if val.type.scalar.is_floating() else "add"
        return self._rmw(kind, ptr, val, mask, _sem(sem), _scope(scope))

    def atomic_and(self, ptr, val, mask, sem, scope) -> Tensor:
        ptr, val, mask = self._atomic_operands(ptr, val, mask, "and")
        return self._rmw("and", ptr, val, mask, _sem(sem), _scope(scope))

    def atomic_or(self, ptr, val, mask, sem, scope) -> Tensor:
        ptr, val, mask = self._atomic_operands(ptr, val, mask, "or")
        return self._rmw("or", ptr, val, mask, _sem(sem), _scope(scope))

    def atomic_xor(self, ptr, val, mask, sem, scope) -> Tensor:
        ptr, val, mask = self._atomic_operands(ptr, val, mask, "xor")
        return self._rmw("xor", ptr, val, mask, _sem(sem), _scope(scope))

    def atomic_xchg(self, ptr, val, mask, sem, scope) -> Tensor:
        ptr, val, mask = self._atomic_operands(ptr, val, mask, "xchg")
        return self._rmw("exch", ptr, val, mask, _sem(sem), _scope(scope))

    def atomic_max(self, ptr, val, mask, sem, scope) -> Tensor:
        return self._atomic_min_max(ptr, val, mask, sem, scope, "max")

    def atomic_min(self, ptr, val, mask, sem, scope) -> Tensor:
        return self._atomic_min_max(ptr, val, mask, sem, scope, "min")

    def _atomic_min_max(self, ptr, val, mask, sem, scope, which: str) -> Tensor:
        ptr, val, mask = self._atomic_operands(ptr, val, mask, which)
        sem, scope = _sem(sem), _scope(scope)
        sca = val.type.scalar
        if sca.is_int():
            return self._rmw(which if sca.is_int_signed() else "u" + which, ptr, val, mask, sem, scope)
        if sca not in (T.float32, T.float64):
            raise LanguageError(f"atomic_{which} not supported for dtype {sca}")
        # non-negative floats order like signed ints, negative ones like unsigned ints reversed
        other = "min" if which == "max" else "max"
        i_type = T.int32 if sca == T.float32 else T.int64
        ui_type = T.uint32 if sca == T.float32 else T.uint64
        i_val = self.bitcast(val, i_type)
        i_ptr = self.bitcast(ptr, PointerDType(i_type, 1))
        ui_val = self.bitcast(val, ui_type)
        ui_ptr = self.bitcast(ptr, PointerDType(ui_type, 1))
        neg = self._signbit(val)
        pos = self.not_(neg)
        pos_ret = self._rmw(which, i_ptr, i_val, self.and_(mask, pos), sem, scope, i_val.type)
        neg_ret = self._rmw("u" + other, ui_ptr, ui_val, self.and_(mask, neg), sem, scope,
                            ui_val.type if which == "max" else ui_ptr.type)
        ret = self.where(pos, pos_ret, neg_ret)
        return self.bitcast(ret, sca)

    def _signbit(self, x: Tensor) -> Tensor:
        bits = x.dtype.primitive_bitwidth
        ix = self.bitcast(x, T.int_dtype(bits, signed=False))
        return self.cast(self.lshr(ix, bits - 1), T.int1)
