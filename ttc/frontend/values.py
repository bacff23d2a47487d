"""The values a kernel computes with while it is being compiled.

* `Tensor`: an IR value (`handle`, an xDSL SSA value) with its language type; scalars are tensors of a
  scalar type, as in Triton.
* `Constexpr`: a value known at compile time (`tl.constexpr`): numbers, bools, strings, None, dtypes.
* `LangTuple`: a tuple of values (`(BLOCK_M, BLOCK_N)`, several results of a helper).
* `LangSlice`: `a:b:c` inside `x[...]`.
"""

from __future__ import annotations

import math

from ttc.frontend.dtypes import BlockType, DType


class Tensor:
    __slots__ = ("handle", "type")

    def __init__(self, handle, type: DType):
        self.handle = handle
        self.type = type

    @property
    def dtype(self) -> DType:
        return self.type.scalar

    @property
    def shape(self) -> tuple[int, ...]:
        return self.type.shape if isinstance(self.type, BlockType) else ()

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    def is_block(self) -> bool:
        return isinstance(self.type, BlockType)

    def __repr__(self) -> str:
        return f"{self.dtype}[{', '.join(map(str, self.shape))}]"


class Constexpr:
    __slots__ = ("value",)

    def __init__(self, value):
        while isinstance(value, Constexpr):
            value = value.value
        self.value = value

    def __repr__(self) -> str:
        # the spelling Triton uses in mangled function names: constexpr[64], constexpr[fp32]
        return f"constexpr[{self.value}]"


class LangTuple:
    __slots__ = ("values",)

    def __init__(self, values):
        self.values = list(values)

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self):
        return iter(self.values)

    def __getitem__(self, i):
        return self.values[i]

    def with_values(self, values) -> LangTuple:
        """A value of this kind made of other values (a tensor descriptor stays one)."""
        return LangTuple(values)

    def __repr__(self) -> str:
        return "(" + ", ".join(repr(v) for v in self.values) + ")"


class LangSlice:
    __slots__ = ("start", "stop", "step")

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step


def unwrap(x):
    """The Python value of a constexpr (recursively through tuples and lists); other values unchanged."""
    if isinstance(x, Constexpr):
        return x.value
    if isinstance(x, LangTuple):
        return tuple(unwrap(v) for v in x.values)
    if isinstance(x, (list, tuple)):
        return type(x)(unwrap(v) for v in x)
    return x


def is_compile_time(x) -> bool:
    """What Triton treats as a compile-time argument of a helper: None, constexprs, dtypes and functions."""
    from ttc.frontend.jit import JitFunction

    return x is None or isinstance(x, (Constexpr, DType, JitFunction))


def handles_of(value) -> list:
    """The IR values a language value is made of, in order (tuples flatten; constexprs have none)."""
    out = []

    def walk(v):
        if isinstance(v, Tensor):
            out.append(v.handle)
        elif isinstance(v, LangTuple):
            for x in v.values:
                walk(x)

    walk(value)
    return out


def type_of(value):
    """The language type of a value: a DType for tensors, a tuple of types for tuples, the value itself
    (wrapped) for constexprs. Two values with equal `type_of` can be carried by the same loop variable."""
    if isinstance(value, Tensor):
        return value.type
    if isinstance(value, LangTuple):
        return ("tuple", tuple(type_of(v) for v in value.values))
    return ("constexpr", repr(unwrap(value)))


def rebuild(template, handles: list):
    """A value shaped like `template` whose tensors are `handles` (in the order `handles_of` gives)."""
    it = iter(handles)

    def build(v):
        if isinstance(v, Tensor):
            return Tensor(next(it), v.type)
        if isinstance(v, LangTuple):
            return v.with_values([build(x) for x in v.values])
        return v

    return build(template)
