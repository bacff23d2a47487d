"""`tl.dot`: matrix products of 2D (or batched 3D) tensors, with an optional accumulator."""

from __future__ import annotations

from ttc.frontend import dtypes as T
from ttc.frontend.errors import LanguageError
from ttc.frontend.language.builtin import builtin
from ttc.frontend.language.tensors import dtype_arg
from ttc.frontend.values import Tensor, unwrap


@builtin
def dot(g, input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None,
        out_dtype=T.float32):
    input_precision, allow_tf32 = unwrap(input_precision), unwrap(allow_tf32)
    if input_precision is not None and allow_tf32 is not None:
        raise LanguageError("Only one of input_precision and allow_tf32 can be specified")
    if input_precision is None:
        supports_tf32 = "tf32" in g.semantic.options.allowed_dot_input_precisions
        input_precision = "tf32" if supports_tf32 and (allow_tf32 or allow_tf32 is None) else "ieee"
    out_dtype = dtype_arg(out_dtype, "out_dtype")
    acc = unwrap(acc)
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise LanguageError("tl.dot needs two tensors")
    a_shape, b_shape = list(input.shape), list(other.shape)
    if not len(a_shape) == len(b_shape) >= 2:
        raise LanguageError("input and other must have equal ranks >= 2")
    if a_shape[:-2] != b_shape[:-2]:
        raise LanguageError("input and other must have equal batch shapes")
    if a_shape[-1] != b_shape[-2]:
        raise LanguageError("input and other must have equal reduction dimensions")
    c_shape = a_shape[:-1] + [b_shape[-1]]
    if acc is not None and list(acc.shape) != c_shape:
        raise LanguageError("accumulator shape is incompatible")
    if len(c_shape) >= 4:
        raise LanguageError("tl.dot of tensors with more than one batch dimension is not supported")
    return g.semantic.dot(input, other, acc, input_precision, unwrap(max_num_imprecise_acc), out_dtype)
