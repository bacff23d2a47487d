"""`triton.language.core`: the builtins, types and markers of the language, gathered in one table (the
standard library refers to them as `core.<name>`; `triton.language` re-exports them)."""

from __future__ import annotations

from ttc.frontend.descriptors import make_tensor_descriptor_builtin
from ttc.frontend.dtypes import BY_LANGUAGE_NAME, PointerDType
from ttc.frontend.language import debugging, external, linalg, math, memory, reductions, scaled, tensors
from ttc.frontend.language.compile_time import CompileTimeFunction
from ttc.frontend.language.iterators import TL_RANGE, TL_STATIC_RANGE
from ttc.frontend.language.namespace import CONSTEXPR, Namespace
from ttc.frontend.language.type_checks import LANGUAGE_CLASSES
from ttc.frontend.values import Constexpr


def _pointer_type(element, address_space=1, const=False):
    return PointerDType(element, address_space, const)


PROPAGATE_NAN = Namespace("triton.language.PropagateNan", {"NONE": Constexpr(0), "ALL": Constexpr(0xFFFF)})

CORE_MEMBERS = {
    **BY_LANGUAGE_NAME,
    "constexpr": CONSTEXPR,
    **LANGUAGE_CLASSES,  # tl.tensor, tl.tensor_descriptor: for isinstance
    "CONSTEXPR_0": Constexpr(0),  # the default of `descending` in sort
    "pointer_type": CompileTimeFunction(_pointer_type),
    "PropagateNan": PROPAGATE_NAN,
    "range": TL_RANGE,
    "static_range": TL_STATIC_RANGE,
    "static_print": debugging.STATIC_PRINT,
    "static_assert": debugging.STATIC_ASSERT,
    **{b.name: b for b in (
        tensors.program_id, tensors.num_programs, tensors.arange, tensors.full, tensors.cast, tensors.broadcast,
        tensors.broadcast_to, tensors.trans, tensors.permute, tensors.cat, tensors.join, tensors.split, tensors.gather,
        tensors.view, tensors.reshape, tensors.expand_dims, tensors.where, tensors.to_tensor,
        math.minimum, math.maximum, math.clamp, math.add, math.sub, math.mul,
        memory.load, memory.store, memory.make_block_ptr, memory.advance, memory.atomic_add, memory.atomic_max,
        memory.atomic_min, memory.atomic_and, memory.atomic_or, memory.atomic_xor, memory.atomic_xchg,
        memory.atomic_cas,
        reductions.reduce, reductions.associative_scan, reductions.histogram,
        linalg.dot, scaled.dot_scaled,
        debugging.device_print, debugging.device_assert, debugging.multiple_of, debugging.max_contiguous,
        debugging.max_constancy, debugging.debug_barrier, debugging.assume, external.inline_asm_elementwise,
    )},
    "make_tensor_descriptor": make_tensor_descriptor_builtin,
    "_promote_bfloat16_to_float32": tensors._promote_bfloat16_to_float32,
    "_reduce_with_indices": reductions._reduce_with_indices,
}
