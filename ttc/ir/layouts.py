"""TritonGPU layout attributes: `#ttg.blocked`, `#ttg.slice`, `#ttg.dot_op`, `#ttg.nvidia_mma`, shared layouts.

Each layout is a `Data` attribute holding its `{key = value, ...}` fields in Triton's order; values are ints,
bools, tuples (of tuples) of ints, or nested layout attributes (`parent = #blocked`). Fields are read with
`layout["sizePerThread"]`. `ALIAS` is the name MLIR prints the layout under (`#blocked`, `#mma`, ...), as
Triton's dialect asm interface does; layouts without one print inline.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition

from ttc.ir import layout_checks


def _parse_value(parser):
    if parser.parse_optional_punctuation("["):
        items = []
        if parser.parse_optional_punctuation("]"):
            return ()
        while True:
            items.append(_parse_value(parser))
            if parser.parse_optional_punctuation("]"):
                return tuple(items)
            parser.parse_punctuation(",")
    if parser.parse_optional_keyword("true"):
        return True
    if parser.parse_optional_keyword("false"):
        return False
    tok = parser._current_token.text
    if tok.startswith("#") or tok.startswith("!"):
        return parser.parse_attribute()
    return parser.parse_integer()


def _value_text(v, p) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return "[" + ", ".join(_value_text(x, p) for x in v) + "]"
    return p.attr(v)


class Layout(Data[tuple]):
    """Base of the layouts whose syntax is `#ttg.NAME<{key = value, ...}>`."""

    ALIAS: ClassVar[str | None] = None
    FIELDS: ClassVar[tuple[str, ...]] = ()
    CHECK: ClassVar = None  # fields dict -> (field, message) of the first problem, or None (layout_checks.py)

    @classmethod
    def make(cls, **fields):
        return cls(tuple((k, _freeze(v)) for k, v in fields.items() if v is not None))

    @classmethod
    def parse_parameter(cls, parser) -> tuple:
        start = parser.pos
        parser.parse_punctuation("<")
        parser.parse_punctuation("{")
        items, spans = [], {}
        if not parser.parse_optional_punctuation("}"):
            while True:
                at = parser.pos
                key = parser.parse_identifier()
                if cls.FIELDS and key not in cls.FIELDS:
                    parser.raise_error(f"#{cls.name}: unknown field '{key}' (fields: {', '.join(cls.FIELDS)})", at)
                parser.parse_punctuation("=")
                items.append((key, _parse_value(parser)))
                spans[key] = (at, parser.pos)
                if parser.parse_optional_punctuation("}"):
                    break
                parser.parse_punctuation(",")
        parser.parse_punctuation(">")
        problem = cls.CHECK(dict(items)) if cls.CHECK is not None else None
        if problem is not None:
            key, message = problem
            parser.raise_error(f"#{cls.name}: {message}", *spans.get(key, (start, parser.pos)))
        return tuple(items)

    def print_parameter(self, printer) -> None:
        from ttc.ir.printer import attr_text

        printer.print_string(attr_text(self)[len(self.name) + 1 :])

    def mlir(self, p) -> str:
        body = ", ".join(f"{k} = {_value_text(v, p)}" for k, v in self.data)
        return f"#{self.name}<{{{body}}}>"

    def __getitem__(self, key):
        for k, v in self.data:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def children(self) -> list[Attribute]:
        return [v for _, v in self.data if isinstance(v, Attribute)]


def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    return v


@irdl_attr_definition
class BlockedEncoding(Layout):
    name = "ttg.blocked"
    ALIAS = "blocked"
    FIELDS = ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CTAsPerCGA", "CTASplitNum", "CTAOrder")


@irdl_attr_definition
class SliceEncoding(Layout):
    name = "ttg.slice"
    FIELDS = ("dim", "parent")


@irdl_attr_definition
class DotOperandEncoding(Layout):
    name = "ttg.dot_op"
    FIELDS = ("opIdx", "parent", "kWidth")
    CHECK = staticmethod(layout_checks.check_dot_operand)


@irdl_attr_definition
class NvidiaMmaEncoding(Layout):
    name = "ttg.nvidia_mma"
    ALIAS = "mma"
    FIELDS = (
        "versionMajor",
        "versionMinor",
        "warpsPerCTA",
        "CTAsPerCGA",
        "CTASplitNum",
        "CTAOrder",
        "instrShape",
    )
    CHECK = staticmethod(layout_checks.check_nvidia_mma)


@irdl_attr_definition
class SwizzledSharedEncoding(Layout):
    name = "ttg.swizzled_shared"
    ALIAS = "shared"
    FIELDS = ("vec", "perPhase", "maxPhase", "order", "CTAsPerCGA", "CTASplitNum", "CTAOrder")


@irdl_attr_definition
class NVMMASharedEncoding(Layout):
    name = "ttg.nvmma_shared"
    ALIAS = "shared"
    FIELDS = ("swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank", "CTAsPerCGA", "CTASplitNum",
              "CTAOrder")
    CHECK = staticmethod(layout_checks.check_nvmma_shared)


@irdl_attr_definition
class LinearEncoding(Layout):
    name = "ttg.linear"
    ALIAS = "linear"
    FIELDS = ("register", "lane", "warp", "block")


@irdl_attr_definition
class SharedMemorySpace(ParametrizedAttribute):
    """`#ttg.shared_memory`: the memory space of shared-memory descriptors."""

    name = "ttg.shared_memory"
    ALIAS: ClassVar[str] = "smem"

    def mlir(self, p) -> str:
        return "#ttg.shared_memory"


LAYOUTS = [
    BlockedEncoding,
    SliceEncoding,
    DotOperandEncoding,
    NvidiaMmaEncoding,
    SwizzledSharedEncoding,
    NVMMASharedEncoding,
    LinearEncoding,
    SharedMemorySpace,
]
