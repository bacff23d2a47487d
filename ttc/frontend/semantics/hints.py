"""Compiler hints and device-side debugging: `multiple_of`, `max_contiguous`, `max_constancy` (attributes on
the op that defines the value), `device_print` (`tt.print`), `debug_barrier` (`gpu.barrier`) and `assume` (`llvm.intr.assume`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, DenseIntOrFPElementsAttr, StringAttr, TensorType, i1, i32
from xdsl.ir import BlockArgument, Operation

from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Tensor


def _hint_attr(values: list[int]) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(i32, [len(values)]), values)


class HintMixin:
    def _set_hint(self, x: Tensor, name: str, values: list[int]):
        """Triton's `value.set_attr`: on the defining op; on a region argument (a loop variable), on the
        region's op as `<name>_arg<N>`; nothing for a function argument."""
        handle = x.handle
        attr = _hint_attr(values)
        if isinstance(handle.owner, Operation):
            handle.owner.attributes[name] = attr
        elif isinstance(handle, BlockArgument):
            block = handle.owner
            parent = block.parent_op()
            if parent is not None and parent.name != "tt.func" and block is block.parent.blocks.first:
                parent.attributes[f"{name}_arg{handle.index}"] = attr

    def multiple_of(self, x: Tensor, values: list[int]) -> Tensor:
        if max(1, len(x.shape)) != len(values):
            raise LanguageError("Shape of input to multiple_of does not match the length of values")
        self._set_hint(x, "tt.divisibility", values)
        return x

    def max_contiguous(self, x: Tensor, values: list[int]) -> Tensor:
        if len(x.shape) != len(values):
            raise LanguageError("Shape of input to max_contiguous does not match the length of values")
        self._set_hint(x, "tt.contiguity", values)
        return x

    def max_constancy(self, x: Tensor, values: list[int]) -> Tensor:
        if len(x.shape) != len(values):
            raise LanguageError("Shape of input to max_constancy does not match the length of values")
        self._set_hint(x, "tt.constancy", values)
        return x

    def device_print(self, prefix: str, args: list[Tensor], hex: bool):
        if not prefix.endswith(" ") and args:
            prefix += " "
        if not prefix.endswith(": ") and args:
            prefix = prefix[:-1] + ": "
        if len(prefix) > 2 and not prefix.startswith(" "):
            prefix = " " + prefix
        props = {
            "prefix": StringAttr(prefix),
            "hex": BoolAttr(bool(hex), i1),
            "isSigned": DenseArrayBase.from_list(i32, [int(a.dtype.is_int_signed()) for a in args]),
        }
        self.builder.create("tt.print", [[a.handle for a in args]], [], props)

    def assume(self, cond: Tensor):
        if cond.shape or not cond.dtype.is_bool():
            raise LanguageError(f"assume takes a scalar boolean condition, got {cond!r}")
        self.builder.create("llvm.intr.assume", [cond.handle], [], {})

    def debug_barrier(self):
        self.builder.create("gpu.barrier", [], [], {})
