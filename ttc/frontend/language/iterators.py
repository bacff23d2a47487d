"""Loop iterators: Python's `range` and `tl.range` (an `scf.for`, with `tl.range`'s pipelining and unrolling
attributes) and `tl.static_range` (unrolled at compile time)."""

from __future__ import annotations

from ttc.frontend.errors import LanguageError
from ttc.frontend.values import Constexpr


class RangeIterator:
    """The arguments of `range(...)`/`tl.range(...)`: bounds, step, and loop attributes."""

    def __init__(self, arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None,
                 disallow_acc_multi_buffer=False, flatten=False, warp_specialize=False, disable_licm=False):
        self.step = Constexpr(1) if step is None else step
        if arg2 is None:
            self.start, self.end = Constexpr(0), arg1
        else:
            self.start, self.end = arg1, arg2
        self.num_stages = num_stages
        self.loop_unroll_factor = loop_unroll_factor
        self.disallow_acc_multi_buffer = disallow_acc_multi_buffer
        self.flatten = flatten
        self.warp_specialize = warp_specialize
        if disable_licm:
            raise LanguageError("tl.range(disable_licm=True) is not supported")


class StaticRangeIterator:
    """`tl.static_range(...)`: constexpr bounds; the body is compiled once per value."""

    def __init__(self, arg1, arg2=None, step=None):
        for what, v in (("start", arg1), ("end", arg2), ("step", step)):
            if v is not None and not isinstance(v, Constexpr):
                raise LanguageError(f"{v!r} used as tl.static_range {what} value is not a constexpr")
        self.step = Constexpr(1) if step is None else step
        if arg2 is None:
            self.start, self.end = Constexpr(0), arg1
        else:
            self.start, self.end = arg1, arg2


class IteratorKind:
    """`range`, `tl.range` or `tl.static_range` as a value (what `for` loops accept as their iterator)."""

    def __init__(self, name: str, cls):
        self.name, self.cls = name, cls

    def __repr__(self) -> str:
        return self.name


PY_RANGE = IteratorKind("range", RangeIterator)
TL_RANGE = IteratorKind("triton.language.range", RangeIterator)
TL_STATIC_RANGE = IteratorKind("triton.language.static_range", StaticRangeIterator)
