"""TritonGPU layout attributes: `#ttg.blocked`, `#ttg.slice`, `#ttg.dot_op`, `#ttg.nvidia_mma`, shared layouts.

Each layout is a `Data` attribute holding its `{key = value, ...}` fields in the order Triton prints them, with
Triton's defaults filled in and the fields Triton leaves out when trivial left out (so two spellings of one
layout are one attribute); values are ints, bools, tuples (of tuples) of ints, or nested layout attributes
(`parent = #blocked`). Fields are read with `layout["sizePerThread"]`. `ALIAS` is the name MLIR prints the layout
under (`#blocked`, `#mma`, ...), as Triton's dialect asm interface does; layouts without one print inline.

`CGALayout = [[...], ...]` is Triton 3.6's placement of a layout over the CTAs of a cluster: one basis per
power-of-two CTA count, each naming the tensor offset (one entry per dimension) that CTA bit moves to. It is
optional and printed only when non-trivial (more than one CTA). Parsing follows each attribute's parser in
Triton's Dialect.cpp, and `verify_layout` holds its attribute verifiers, with its messages.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition



class LayoutError(Exception):
    """A layout Triton's parser or verifier rejects (the message is Triton's)."""


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
    value = parser.parse_integer()
    if parser.parse_optional_punctuation(":"):  # `4 : i32`: the value is what counts
        parser.parse_type()
    return value


def _value_text(v, p) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        return "[" + ", ".join(_value_text(x, p) for x in v) + "]"
    return p.attr(v)


# ----------------------------------------------------------------------------- Triton's field parsers


def _uint(v, desc: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise LayoutError(f"expected an integer type in {desc}")
    if v < 0:
        raise LayoutError(f"expected an unsigned integer value in {desc}")
    return v


def _uints(v, desc: str) -> tuple[int, ...]:
    if not isinstance(v, tuple):
        raise LayoutError(f"expected an array for {desc}")
    return tuple(_uint(x, desc) for x in v)


def _bool(v, desc: str) -> bool:
    if not isinstance(v, bool):
        raise LayoutError(f"expected a bool type in {desc}")
    return v


def _cga(v, rank: int) -> tuple[tuple[int, ...], ...]:
    """`CGALayout = [[...], ...]`: the CTA bases, each of the layout's rank (Triton's parseCGAAttr)."""
    if v is None:
        return ()
    if not isinstance(v, tuple):
        raise LayoutError("expected array value for 'CGALayout'")
    out = []
    for basis in v:
        basis = _uints(basis, "CGALayout entry")
        if len(basis) != rank:
            raise LayoutError(f"'CGALayout' entry length does not match rank {rank}")
        out.append(basis)
    return tuple(out)


def _unexpected(fields: dict, known: tuple[str, ...]) -> None:
    for key in fields:
        if key not in known:
            raise LayoutError(f"unexpected key: {key}")


def cga_rank(layout: Attribute) -> int:
    """The rank of a layout's CGA layout (Triton's getCGALayout(layout).getRank())."""
    if isinstance(layout, BlockedEncoding):
        return len(layout["sizePerThread"])
    if isinstance(layout, NvidiaMmaEncoding):
        return len(layout["warpsPerCTA"])
    if isinstance(layout, SliceEncoding):
        return cga_rank(layout["parent"]) - 1
    if isinstance(layout, DotOperandEncoding):
        return cga_rank(layout["parent"])
    if isinstance(layout, LinearEncoding):
        return next((len(b[0]) for _, b in layout.data if b), 0)
    if isinstance(layout, SwizzledSharedEncoding):
        return len(layout["order"])
    if isinstance(layout, NVMMASharedEncoding):
        return len(layout["CGALayout"][0]) if layout.get("CGALayout") else layout.get("rank", 2)
    if hasattr(layout, "layout_rank"):  # ttc/ir/amd_layouts.py, ttc/ir/shared_layouts.py
        return layout.layout_rank()
    return 0


class Layout(Data[tuple]):
    """Base of the layouts whose syntax is `#ttg.NAME<{key = value, ...}>`."""

    ALIAS: ClassVar[str | None] = None
    FIELDS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def from_fields(cls, fields: dict) -> tuple:
        """The stored (canonical) fields from parsed ones, as Triton's parser reads them; raises LayoutError."""
        return tuple((k, fields[k]) for k in cls.FIELDS if k in fields)

    @classmethod
    def make(cls, **fields):
        """A layout from Python values (lists or tuples); it must be valid (asserted, not reported)."""
        frozen = {k: _freeze(v) for k, v in fields.items() if v is not None}
        data = cls.from_fields(frozen)
        assert verify_layout(cls, dict(data)) is None, (cls.name, fields)
        return cls(data)

    @classmethod
    def parse_parameter(cls, parser) -> tuple:
        start = parser.pos
        parser.parse_punctuation("<")
        parser.parse_punctuation("{")
        fields: dict = {}
        if not parser.parse_optional_punctuation("}"):
            while True:
                at = parser.pos
                key = parser.parse_identifier_or_str_literal()
                parser.parse_punctuation("=")
                if key in fields:
                    parser.raise_error(f"duplicate key '{key}' in dictionary attribute", at)
                fields[key] = _parse_value(parser)
                if parser.parse_optional_punctuation("}"):
                    break
                parser.parse_punctuation(",")
        parser.parse_punctuation(">")
        try:
            data = cls.from_fields(dict(sorted(fields.items())))  # a DictionaryAttr: keys in sorted order
            problem = verify_layout(cls, dict(data))
        except LayoutError as e:
            problem = str(e)
        if problem is not None:  # at the attribute's name, as MLIR reports a dialect attribute's errors
            name_at = start - len(cls.name) - 1
            text = parser.lexer.input.content
            parser.raise_error(problem, name_at if text[name_at:start] == "#" + cls.name else start, parser.pos)
        return data

    def print_parameter(self, printer) -> None:
        from ttc.ir.attr_printer import attr_text

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
    FIELDS = ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CGALayout")

    @classmethod
    def from_fields(cls, f: dict) -> tuple:
        _unexpected(f, cls.FIELDS)
        descs = {"sizePerThread": "number of elements per thread", "threadsPerWarp": "number of threads per warp",
                 "warpsPerCTA": "number of warps per CTA", "order": "order"}
        out = [(k, _uints(f[k], d) if k in f else ()) for k, d in descs.items()]
        cga = _cga(f.get("CGALayout"), len(out[0][1]))
        return tuple(out) + ((("CGALayout", cga),) if cga else ())


@irdl_attr_definition
class SliceEncoding(Layout):
    name = "ttg.slice"
    FIELDS = ("dim", "parent")

    @classmethod
    def from_fields(cls, f: dict) -> tuple:
        parent = f.get("parent")
        if not isinstance(parent, (BlockedEncoding, SliceEncoding, DotOperandEncoding, NvidiaMmaEncoding,
                                   LinearEncoding)) and not getattr(parent, "DISTRIBUTED", False):
            raise LayoutError("expected a distributed encoding trait")
        return (("dim", _uint(f.get("dim"), "dim")), ("parent", parent))


@irdl_attr_definition
class DotOperandEncoding(Layout):
    """`#ttg.dot_op<{opIdx, parent, kWidth}>` (a struct: fields in any order; kWidth 0 is left out)."""

    name = "ttg.dot_op"
    FIELDS = ("opIdx", "parent", "kWidth")

    @classmethod
    def from_fields(cls, f: dict) -> tuple:
        for key in f:
            if key not in cls.FIELDS:
                raise LayoutError(f"expected one of: opIdx, parent, kWidth, but got '{key}'")
        for key in ("opIdx", "parent"):
            if key not in f:
                raise LayoutError(f"struct is missing required parameter: {key}")
        k_width = _uint(f.get("kWidth", 0), "kWidth")
        return (("opIdx", _uint(f["opIdx"], "opIdx")), ("parent", f["parent"])) + (
            (("kWidth", k_width),) if k_width else ())


@irdl_attr_definition
class NvidiaMmaEncoding(Layout):
    """`#ttg.nvidia_mma`: Triton reads the fields it knows (others are ignored) and checks none of them; what
    the back end cannot lower is reported there (ttc/ir/linear_layout.py, ttc/lowering/wgmma.py)."""

    name = "ttg.nvidia_mma"
    ALIAS = "mma"
    FIELDS = ("versionMajor", "versionMinor", "warpsPerCTA", "CGALayout", "instrShape")

    @classmethod
    def from_fields(cls, f: dict) -> tuple:
        major = _uint(f.get("versionMajor", 0), "versionMajor")
        minor = _uint(f.get("versionMinor", 0), "versionMinor")
        warps = _uints(f.get("warpsPerCTA", ()), "warpsPerCTA")
        instr = _uints(f.get("instrShape", ()), "instrShape")
        cga = _cga(f.get("CGALayout"), len(warps))
        return (("versionMajor", major), ("versionMinor", minor), ("warpsPerCTA", warps)) + (
            (("CGALayout", cga),) if cga else ()) + (("instrShape", instr),)


@irdl_attr_definition
class SwizzledSharedEncoding(Layout):
    name = "ttg.swizzled_shared"
    ALIAS = "shared"
    FIELDS = ("vec", "perPhase", "maxPhase", "order", "CGALayout")

    @classmethod
    def from_fields(cls, f: dict) -> tuple:
        _unexpected(f, cls.FIELDS)
        out = tuple((k, _uint(f.get(k, 0), k)) for k in ("vec", "perPhase", "maxPhase"))
        order = _uints(f.get("order", ()), "order")
        cga = _cga(f.get("CGALayout"), len(order))
        return out + (("order", order),) + ((("CGALayout", cga),) if cga else ())


@irdl_attr_definition
class NVMMASharedEncoding(Layout):
    """`#ttg.nvmma_shared`; `rank = N` (default 2) is printed when the CGA layout is trivial and N is not 2."""

    name = "ttg.nvmma_shared"
    ALIAS = "shared"
    FIELDS = ("swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank", "CGALayout")

    @classmethod
    def from_fields(cls, f: dict) -> tuple:
        _unexpected(f, cls.FIELDS)
        swizzle = _uint(f.get("swizzlingByteWidth", 0), "swizzlingByteWidth")
        transposed = _bool(f.get("transposed", False), "transposed")
        bits = _uint(f.get("elementBitWidth", 0), "elementBitWidth")
        fp4 = _bool(f.get("fp4Padded", False), "fp4Padded")
        rank = _uint(f.get("rank", 2), "rank")
        cga = _cga(f.get("CGALayout"), rank)
        out = (("swizzlingByteWidth", swizzle), ("transposed", transposed), ("elementBitWidth", bits))
        out += (("fp4Padded", True),) if fp4 else ()
        if cga:
            return out + (("CGALayout", cga),)
        return out + ((("rank", rank),) if rank != 2 else ())


@irdl_attr_definition
class LinearEncoding(Layout):
    name = "ttg.linear"
    ALIAS = "linear"
    FIELDS = ("register", "lane", "warp", "block")

    @classmethod
    def from_fields(cls, f: dict) -> tuple:
        out = []
        for key in cls.FIELDS:
            if key not in f:
                raise LayoutError(f"Expected basis of '{key}' not found")
            if not isinstance(f[key], tuple):
                raise LayoutError(f"Expected array of arrays for basis of '{key}'")
            for basis in f[key]:
                if not isinstance(basis, tuple):
                    raise LayoutError(f"Expected array of integers in basis for '{key}'")
                if not all(isinstance(x, int) and not isinstance(x, bool) for x in basis):
                    raise LayoutError(f"Expected integer in basis for '{key}'")
            out.append((key, f[key]))
        ranks = {len(b) for _, bases in out for b in bases}
        if not ranks:
            raise LayoutError("Empty Layout not supported")
        return tuple(out)


@irdl_attr_definition
class SharedMemorySpace(ParametrizedAttribute):
    """`#ttg.shared_memory`: the memory space of shared-memory descriptors."""

    name = "ttg.shared_memory"
    ALIAS: ClassVar[str] = "smem"

    def mlir(self, p) -> str:
        return "#ttg.shared_memory"


DISTRIBUTED = (BlockedEncoding, SliceEncoding, DotOperandEncoding, NvidiaMmaEncoding, LinearEncoding)
SHARED = (SwizzledSharedEncoding, NVMMASharedEncoding)

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


# ----------------------------------------------------------------------------- blocked layouts as Triton builds them


_BLOCKED: dict[tuple, BlockedEncoding] = {}  # blocked's layouts by their (int) fields: each is made and verified once


def blocked(spt, tpw, wpc, order) -> BlockedEncoding:
    key = (tuple(spt), tuple(tpw), tuple(wpc), tuple(order))
    ints = all(type(x) is int for part in key for x in part)
    if ints and (enc := _BLOCKED.get(key)) is not None:
        return enc
    enc = BlockedEncoding.make(
        sizePerThread=list(spt), threadsPerWarp=list(tpw), warpsPerCTA=list(wpc), order=list(order)
    )
    if ints:
        _BLOCKED[key] = enc
    return enc


def blocked_for_shape(shape, size_per_thread, order, num_warps: int, threads_per_warp: int) -> BlockedEncoding:
    """Triton's BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps, threadsPerWarp): starting from
    the most contiguous dimension, each dimension takes as many of the remaining threads as its extent needs
    (lanes first, then warps); the slowest dimension takes whatever lanes and warps are left."""
    rank = len(size_per_thread)
    tpw = [0] * rank
    wpc = [0] * rank
    remaining_lanes = threads_per_warp
    remaining_threads = num_warps * threads_per_warp
    remaining_warps = num_warps
    prev_lanes = prev_warps = 1
    for d in range(rank - 1):
        i = order[d]
        threads_per_cta = min(max(remaining_threads, 1), max(1, shape[i] // size_per_thread[i]))
        tpw[i] = min(max(threads_per_cta, 1), remaining_lanes)
        wpc[i] = min(max(threads_per_cta // tpw[i], 1), remaining_warps)
        remaining_warps //= wpc[i]
        remaining_lanes //= tpw[i]
        remaining_threads //= threads_per_cta
        prev_lanes *= tpw[i]
        prev_warps *= wpc[i]
    tpw[order[rank - 1]] = threads_per_warp // prev_lanes
    wpc[order[rank - 1]] = num_warps // prev_warps
    return blocked(size_per_thread, tpw, wpc, order)


def default_blocked(shape, num_warps: int, threads_per_warp: int) -> BlockedEncoding:
    """Triton's getDefaultBlockedEncoding: one element per thread, the last dimension fastest."""
    rank = len(shape)
    return blocked_for_shape(shape, [1] * rank, list(reversed(range(rank))), num_warps, threads_per_warp)


# ----------------------------------------------------------------------------- Triton's attribute verifiers
# (BlockedEncodingAttr::verify, SliceEncodingAttr::verify, DotOperandEncodingAttr::verify,
# SwizzledSharedEncodingAttr::verify, NVMMASharedEncodingAttr::verify, LinearEncodingAttr::verify in
# lib/Dialect/TritonGPU/IR/Dialect.cpp), run when a layout is parsed or made. `#ttg.nvidia_mma` has none: what the
# back end cannot lower is reported by the back end, at the op.


def _pow2(x) -> bool:
    return x > 0 and x & (x - 1) == 0


def _list(v) -> str:
    return ", ".join(str(x) for x in v)


def _order_problem(order) -> str | None:
    if sorted(order) != list(range(len(order))):
        return f"order must be a permutation of 0..(rank-1), but was [{_list(order)}]"
    return None


def verify_layout(cls, f: dict) -> str | None:
    """Triton's verifier of layout class `cls` over its (canonical) fields."""
    if cls is BlockedEncoding:
        spt, tpw, wpc, order = (f[k] for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"))
        if len({len(spt), len(tpw), len(wpc), len(order)}) != 1:
            return "sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have the same rank."
        for key, what in ((spt, "sizePerThread"), (tpw, "threadsPerWarp"), (wpc, "warpsPerCTA")):
            if not all(_pow2(x) for x in key):
                return f"Every element in {what} must be a power of two."
        return _order_problem(order)
    if cls is SwizzledSharedEncoding:
        return _order_problem(f["order"])
    if cls is NVMMASharedEncoding:
        if f["elementBitWidth"] == 0:
            return "elementBitWidth must be non-zero"
        if f["swizzlingByteWidth"] not in (0, 32, 64, 128):
            return "swizzlingByteWidth must be 0, 32, 64, or 128"
        return None
    if cls is SliceEncoding:
        rank = cga_rank(f["parent"])
        if rank <= 1:
            return "parent layout must have at least rank >= 2"
        if f["dim"] >= rank:
            return f"slice dim={f['dim']} must be less than the parent rank={rank}"
        return None
    if cls is DotOperandEncoding:
        return _dot_operand_problem(f["opIdx"], f["parent"], f.get("kWidth", 0))
    if cls is LinearEncoding:
        for _, bases in f.items():
            if any(sum(1 for x in b if x) > 1 for b in bases):
                return "In a distributed layout, each base must move in at most one dimension."
        return None
    return None


def _dot_operand_problem(op_idx: int, parent, k_width: int) -> str | None:
    if op_idx not in (0, 1):
        return f"ttg.dot_op opIdx parameter can be 0 or 1, got: {op_idx}"
    if isinstance(parent, NvidiaMmaEncoding):
        ampere_or_hopper = parent["versionMajor"] in (2, 3)
        if k_width and not ampere_or_hopper:
            return "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent"
        if not k_width and ampere_or_hopper:
            return "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent"
        if op_idx != 0 and parent["versionMajor"] == 3:
            return ("ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows "
                    "first operand to be in registers")
        return None
    if isinstance(parent, BlockedEncoding):
        if k_width:
            return "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout"
        return None
    check = getattr(type(parent), "dot_operand_problem", None)  # a parent layout that brings its own rules
    if check is not None:
        return check(parent, op_idx, k_width)
    from ttc.ir.attr_printer import attr_text

    return f"ttg.dot_op unexpected parent layout: {attr_text(parent)}"


def shape_per_cta(shape, enc) -> tuple[int, ...]:
    """A tensor's shape divided by its layout's CTA split (Triton's getShapePerCTA)."""
    cga = enc.get("CGALayout", ()) if hasattr(enc, "get") else ()
    return tuple(s // max(1, 2 ** sum(1 for b in cga if b[d])) for d, s in enumerate(shape))
