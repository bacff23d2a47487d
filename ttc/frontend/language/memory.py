"""Memory builtins: `load`, `store`, `make_block_ptr`, `advance` and the atomics (`atomic_add`, ...,
`atomic_cas`)."""

from __future__ import annotations

from ttc.frontend.language.builtin import Builtin, builtin
from ttc.frontend.values import LangTuple, unwrap


def _optional_tensor(g, x):
    x = unwrap(x)
    return None if x is None else g.semantic.to_tensor(x)


def _list(x):
    x = x.values if isinstance(x, LangTuple) else x
    return list(x) if isinstance(x, (list, tuple)) else x


@builtin
def load(g, pointer, mask=None, other=None, boundary_check=(), padding_option="", cache_modifier="",
         eviction_policy="", volatile=False):
    mask = _optional_tensor(g, mask)
    other = _optional_tensor(g, other)
    return g.semantic.load(unwrap(pointer), mask, other, _list(unwrap(boundary_check)), unwrap(padding_option),
                           unwrap(cache_modifier), unwrap(eviction_policy), unwrap(volatile))


@builtin
def store(g, pointer, value, mask=None, boundary_check=(), cache_modifier="", eviction_policy=""):
    value = g.semantic.to_tensor(value)
    mask = _optional_tensor(g, mask)
    g.semantic.store(unwrap(pointer), value, mask, _list(unwrap(boundary_check)), unwrap(cache_modifier),
                     unwrap(eviction_policy))


@builtin
def make_block_ptr(g, base, shape, strides, offsets, block_shape, order):
    return g.semantic.make_block_ptr(unwrap(base), _list(shape), _list(strides), _list(offsets),
                                     _list(block_shape), _list(order))


@builtin
def advance(g, base, offsets):
    return g.semantic.advance(unwrap(base), _list(offsets))


def _rmw(kind: str) -> Builtin:
    def fn(g, pointer, val, mask=None, sem=None, scope=None):
        val = g.semantic.to_tensor(val)
        mask = unwrap(mask)
        method = getattr(g.semantic, f"atomic_{kind}")
        return method(unwrap(pointer), val, mask, unwrap(sem), unwrap(scope))

    return Builtin(fn, f"atomic_{kind}")


atomic_add = _rmw("add")
atomic_max = _rmw("max")
atomic_min = _rmw("min")
atomic_and = _rmw("and")
atomic_or = _rmw("or")
atomic_xor = _rmw("xor")
atomic_xchg = _rmw("xchg")


@builtin
def atomic_cas(g, pointer, cmp, val, sem=None, scope=None):
    cmp = g.semantic.to_tensor(cmp)
    val = g.semantic.to_tensor(val)
    return g.semantic.atomic_cas(unwrap(pointer), cmp, val, unwrap(sem), unwrap(scope))
