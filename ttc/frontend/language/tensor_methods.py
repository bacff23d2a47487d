"""Methods and attributes of tensors in kernel code: `x.to(...)`, `x.reshape(...)`, `x.sum(axis)`, `x.dtype`,
`x.shape`, ... Methods are builtins or standard-library functions called with the tensor first."""

from __future__ import annotations

from ttc.frontend.language import math, memory, reductions, tensors

_BUILTIN_METHODS = {
    "to": tensors.cast, "cast": tensors.cast, "broadcast_to": tensors.broadcast_to, "trans": tensors.trans,
    "permute": tensors.permute, "split": tensors.split, "view": tensors.view, "reshape": tensors.reshape,
    "gather": tensors.gather, "expand_dims": tensors.expand_dims, "store": memory.store, "advance": memory.advance,
    "atomic_cas": memory.atomic_cas, "atomic_xchg": memory.atomic_xchg, "atomic_add": memory.atomic_add,
    "atomic_max": memory.atomic_max, "atomic_min": memory.atomic_min, "atomic_and": memory.atomic_and,
    "atomic_or": memory.atomic_or, "atomic_xor": memory.atomic_xor, "reduce": reductions.reduce,
    "associative_scan": reductions.associative_scan, "histogram": reductions.histogram,
    "exp": math.exp, "exp2": math.exp2, "log": math.log, "log2": math.log2, "cos": math.cos, "sin": math.sin,
    "sqrt": math.sqrt, "sqrt_rn": math.sqrt_rn, "rsqrt": math.rsqrt, "abs": math.abs, "erf": math.erf,
    "floor": math.floor, "ceil": math.ceil,
}
_STANDARD_METHODS = (
    "cdiv", "sigmoid", "softmax", "ravel", "max", "argmax", "min", "argmin", "sum", "xor_sum", "reduce_or",
    "cumsum", "cumprod", "flip",
)


def tensor_method(name: str):
    """The builtin or `@jit` function behind `tensor.<name>(...)`, or None."""
    if name in _BUILTIN_METHODS:
        return _BUILTIN_METHODS[name]
    if name in _STANDARD_METHODS:
        from ttc.frontend.language.modules import standard_function

        return standard_function(name)
    return None
