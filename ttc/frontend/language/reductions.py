"""Reduction and scan builtins: `reduce` and `associative_scan` with a `@jit` combine function (also over
tuples of tensors), the index-tracking reduction behind `argmax`/`argmin`, and `histogram`."""

from __future__ import annotations

from ttc.frontend.errors import LanguageError
from ttc.frontend.jit import JitFunction
from ttc.frontend.language.builtin import builtin
from ttc.frontend.language.tensors import broadcast_to, expand_dims, wrap_axis
from ttc.frontend.values import LangTuple, Tensor, unwrap


def _combine_fn(fn) -> JitFunction:
    fn = unwrap(fn)
    if not isinstance(fn, JitFunction):
        raise LanguageError(f"combine_fn must be a @triton.jit function, got {fn!r}")
    return fn


def _inputs(input) -> list[Tensor]:
    items = input.values if isinstance(input, LangTuple) else list(input)
    for t in items:
        if not isinstance(t, Tensor) or not t.is_block():
            raise LanguageError(f"reduction inputs must be tensors, got {t!r}")
    return items


@builtin
def reduce(g, input, axis, combine_fn, keep_dims=False):
    if isinstance(input, Tensor):
        return reduce(g, [LangTuple([input]), axis, combine_fn], {"keep_dims": keep_dims})[0]
    inputs = _inputs(input)
    fn = _combine_fn(combine_fn)
    axis = unwrap(axis)
    keep_dims = unwrap(keep_dims)
    if axis is not None:
        axis = wrap_axis(axis, len(inputs[0].shape))
    ret = g.semantic.reduction(inputs, axis, lambda args: g.call_jit_function(fn, args, {}))
    if keep_dims:
        if axis is not None:
            ret = [expand_dims(g, [t, axis], {}) for t in ret]
        else:
            out = []
            for t in ret:
                for _ in range(len(inputs[0].shape)):
                    t = expand_dims(g, [t, 0], {})
                out.append(t)
            ret = out
    return LangTuple(ret)


@builtin
def associative_scan(g, input, axis, combine_fn, reverse=False):
    if isinstance(input, Tensor):
        return associative_scan(g, [LangTuple([input]), axis, combine_fn, reverse], {})[0]
    inputs = _inputs(input)
    fn = _combine_fn(combine_fn)
    axis = unwrap(axis)
    if axis is not None:
        axis = wrap_axis(axis, len(inputs[0].shape))
    ret = g.semantic.associative_scan(inputs, axis, lambda args: g.call_jit_function(fn, args, {}), unwrap(reverse))
    return LangTuple(ret)


@builtin
def _reduce_with_indices(g, input, axis, combine_fn, keep_dims=False):
    axis = unwrap(axis)
    if axis is None:
        raise LanguageError("reductions that return indices need an axis")
    n = input.shape[axis]
    index = g.semantic.arange(0, n)
    if len(input.shape) > 1:
        axes = [d for d in range(len(input.shape)) if d != axis]
        index = expand_dims(g, [index, axes], {})
        index = broadcast_to(g, [index, LangTuple(list(input.shape))], {})
    values, indices = reduce(g, [LangTuple([input, index]), axis, combine_fn], {"keep_dims": keep_dims})
    return LangTuple([values, indices])


@builtin
def histogram(g, input, num_bins, mask=None):
    mask = unwrap(mask)
    if mask is not None:
        mask = g.semantic.to_tensor(mask)
    return g.semantic.histogram(input, unwrap(num_bins), mask)
