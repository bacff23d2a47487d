"""The semantics of the kernel language (Triton's `semantic.py`): what each operation means in IR.

`Semantic` puts together one mixin per group of operations; each builds ops through the shared `Builder`
in the order Triton's frontend does, so the IR matches Triton's op for op.
"""

from __future__ import annotations

from ttc.frontend.builder import Builder
from ttc.frontend.options import Options
from ttc.frontend.semantics.arithmetic import ArithmeticMixin
from ttc.frontend.semantics.atomics import AtomicMixin
from ttc.frontend.semantics.conversion import ConversionMixin
from ttc.frontend.semantics.dot import DotMixin
from ttc.frontend.semantics.hints import HintMixin
from ttc.frontend.semantics.memory import MemoryMixin
from ttc.frontend.semantics.reductions import ReductionMixin
from ttc.frontend.semantics.shapes import ShapeMixin


class Semantic(ConversionMixin, ShapeMixin, ArithmeticMixin, MemoryMixin, AtomicMixin, ReductionMixin, DotMixin,
               HintMixin):
    def __init__(self, builder: Builder, options: Options):
        self.builder = builder
        self.options = options


__all__ = ["Semantic"]
