"""The shared-memory layouts of Triton 3.6 beyond `#ttg.swizzled_shared` / `#ttg.nvmma_shared`, as attributes:
parsed, verified and printed as triton-opt does (TritonGPUAttrDefs.td, Dialect.cpp).

- `#ttg.shared_linear<{offset = [[0, 1], ...], block = [...]}, alignment = 16>`: a linear layout from the
  shared-memory offset (and the CTA) to the tensor's coordinates; `block` is printed only when it has bases.
- `#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [256, 128]}>`: `+pad` elements after every
  `interval` elements, over a linear component written either as its bases (`{offset = ..., block = ...}`) or,
  when it is the identity for a shape and an order (and has no CTA bases), by them: the printer picks the short
  form whenever it applies, as Triton's does.
- `#ttg.amd_rotating_shared<{vec, perPhase, maxPhase, order}>`: AMD's swizzle whose pattern changes per block.

All of them print under the alias `#shared` (Triton's OpAsmDialectInterface names every shared encoding so).

Linear layouts are kept as Triton writes them: per input dimension, a tuple of bases, each a tuple with one entry
per output dimension (`dim0`, `dim1`, ...). A layout's output sizes are inferred from its bases (the power of two
above the largest entry), and Triton's rules on them (surjective, invertible, ...) are checked over GF(2)
(`gf2_rank`). Shared helpers for the AMD distributed layouts (ttc/ir/amd_layouts.py): `parse_dict`, the field
readers (with Triton's messages), `field_error`, `parse_bases`, `parse_cga` / `cga_text`.
"""

from __future__ import annotations

import math

from xdsl.irdl import irdl_attr_definition

from ttc.ir.layouts import Layout, _parse_value

# ----------------------------------------------------------------------------- dictionaries and fields


class Field:
    """One `key = value` of an attribute's dictionary, with where it was written (for errors)."""

    def __init__(self, key, value, start, end):
        self.key, self.value, self.start, self.end = key, value, start, end


def _value(parser):
    if parser._current_token.text == "{":
        return parse_dict(parser)
    return _parse_value(parser)


def parse_dict(parser) -> dict[str, Field]:
    """An MLIR dictionary attribute `{key = value, ...}` (values: integers, booleans, nested lists, nested
    dictionaries, attributes), keys in MLIR's sorted order. Duplicate keys are MLIR's error."""
    fields: dict[str, Field] = {}
    parser.parse_punctuation("{")
    if parser.parse_optional_punctuation("}"):
        return fields
    while True:
        start = parser.pos
        key = parser.parse_identifier()
        if key in fields:
            parser.raise_error(f"duplicate key '{key}' in dictionary attribute", start, parser.pos)
        parser.parse_punctuation("=")
        fields[key] = Field(key, _value(parser), start, parser.pos)
        if parser.parse_optional_punctuation("}"):
            break
        parser.parse_punctuation(",")
    return dict(sorted(fields.items()))


def field_error(parser, f: Field | None, at, msg):
    """A parse error at the field `f` was written at, else from `at` to where the parser is."""
    if f is not None:
        parser.raise_error(msg, f.start, f.end)
    parser.raise_error(msg, at, parser.pos)


def uint(parser, f: Field, desc: str) -> int:
    """Triton's parseUInt: an integer (a boolean counts as 0/1, as MLIR's i1), not negative."""
    if isinstance(f.value, bool):
        return int(f.value)
    if not isinstance(f.value, int):
        field_error(parser, f, None, f"expected an integer type in {desc}")
    if f.value < 0:
        field_error(parser, f, None, f"expected an unsigned integer value in {desc}")
    return f.value


def boolean(parser, f: Field, desc: str) -> bool:
    if not isinstance(f.value, bool):
        field_error(parser, f, None, f"expected a bool type in {desc}")
    return f.value


def uints(parser, f: Field, desc: str) -> tuple[int, ...]:
    """Triton's parseIntArrayAttr: a list of unsigned integers."""
    if not isinstance(f.value, tuple):
        field_error(parser, f, None, f"expected an array for {desc}")
    out = []
    for v in f.value:
        out.append(uint(parser, Field(f.key, v, f.start, f.end), desc))
    return tuple(out)


# ----------------------------------------------------------------------------- linear layouts over GF(2)


def out_sizes(bases_lists, rank: int) -> tuple[int, ...]:
    """The output dimension sizes Triton infers from the bases: the power of two above each largest entry."""
    sizes = [1] * rank
    for bases in bases_lists:
        for b in bases:
            for d, v in enumerate(b):
                sizes[d] = max(sizes[d], 1 << v.bit_length())
    return tuple(sizes)


def gf2_rank(bases_lists, sizes) -> int:
    """The rank over GF(2) of the bases, each flattened to the bits of its coordinates."""
    shifts, at = [], 0
    for s in sizes:
        shifts.append(at)
        at += s.bit_length() - 1
    rows = []
    for bases in bases_lists:
        for b in bases:
            v = 0
            for d, x in enumerate(b):
                v |= x << shifts[d]
            for r in rows:
                v = min(v, v ^ r)
            if v:
                rows.append(v)
    return len(rows)


def _log2_total(sizes) -> int:
    return sum(s.bit_length() - 1 for s in sizes)


def is_surjective(bases_lists, sizes) -> bool:
    return gf2_rank(bases_lists, sizes) == _log2_total(sizes)


def is_invertible(bases_lists, sizes) -> bool:
    return is_surjective(bases_lists, sizes) and sum(len(b) for b in bases_lists) == _log2_total(sizes)


def parse_bases(parser, fields: dict[str, Field], names, at, rank: int = 0) -> tuple[tuple, ...]:
    """Triton's parseLinearLayout: the bases of each input dimension in `names` (lists of integer lists, all of
    one length: the rank, or `rank` when every list is empty); the layout must be surjective (Triton's
    LinearLayout constructor aborts otherwise)."""
    out = []
    for name in names:
        f = fields.get(name)
        if f is None:
            parser.raise_error(f"Expected basis of '{name}' not found", at, parser.pos)
        if not isinstance(f.value, tuple):
            field_error(parser, f, at, f"Expected array of arrays for basis of '{name}'")
        bases = []
        for b in f.value:
            if not isinstance(b, tuple):
                field_error(parser, f, at, f"Expected array of integers in basis for '{name}'")
            if not all(isinstance(x, int) for x in b):
                field_error(parser, f, at, f"Expected integer in basis for '{name}'")
            bases.append(tuple(int(x) for x in b))
        out.append(tuple(bases))
    found = next((len(bs[0]) for bs in out if bs), 0)
    if found == 0 and rank == 0:
        parser.raise_error("Empty Layout not supported", at, parser.pos)
    if rank and found and found != rank:
        parser.raise_error("Serialized rank and rank deduced from LL need to match", at, parser.pos)
    rank = found or rank
    for name, bases in zip(names, out):
        if any(len(b) != rank or min(b, default=0) < 0 for b in bases):
            field_error(parser, fields[name], at, f"the bases of '{name}' must all have {rank} non-negative entries")
    if not is_surjective(out, out_sizes(out, rank)):
        parser.raise_error("the layout must be surjective: every coordinate of the tensor must be reached",
                           at, parser.pos)
    return tuple(out)


def bases_text(names, bases_lists, skip_empty: bool = False) -> str:
    """Triton's printLinearLayout: `name = [[...], ...]` for each input dimension."""
    items = []
    for name, bases in zip(names, bases_lists):
        if skip_empty and not bases:
            continue
        items.append(f"{name} = [" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bases) + "]")
    return ", ".join(items)


def parse_cga(parser, f: Field | None, rank: int) -> tuple:
    """Triton's parseCGAAttr: the `CGALayout = [[...], ...]` bases of the CTAs (none: one CTA)."""
    if f is None:
        return ()
    if not isinstance(f.value, tuple):
        field_error(parser, f, None, "expected array value for 'CGALayout'")
    out = []
    for b in f.value:
        basis = uints(parser, Field(f.key, b, f.start, f.end), "CGALayout entry")
        if len(basis) != rank:
            field_error(parser, f, None, f"'CGALayout' entry length does not match rank {rank}")
        out.append(basis)
    return tuple(out)


def cga_text(cga) -> str:
    """Triton's maybePrintCGALayout: `, CGALayout = [...]` when there is more than one CTA."""
    if not cga:
        return ""
    return ", CGALayout = [" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in cga) + "]"


def _ints_text(v) -> str:
    return "[" + ", ".join(map(str, v)) + "]"


# ----------------------------------------------------------------------------- the layouts


class _SharedLayout(Layout):
    """A layout parsed and printed by hand (not the `<{key = value}>` of `Layout`), kept as (key, value)
    pairs in Triton's parameter order so that `layout["key"]` and structural equality work as for the others."""

    ALIAS = "shared"
    SHARED = True  # a shared-memory layout: not allowed in tensor types

    def children(self):
        return []


@irdl_attr_definition
class SharedLinearEncoding(_SharedLayout):
    """`#ttg.shared_linear`: fields `offset`, `block` (tuples of bases) and `alignment`."""

    name = "ttg.shared_linear"

    @classmethod
    def parse_parameter(cls, parser) -> tuple:
        at = parser.pos
        parser.parse_punctuation("<")
        fields = parse_dict(parser)
        if "alignment" in fields:
            parser.raise_error("alignment must be specified outside of the linear layout braces", at, parser.pos)
        fields.setdefault("block", Field("block", (), at, at))
        parser.parse_punctuation(",")
        parser.parse_keyword("alignment")
        parser.parse_punctuation("=")
        align = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(">")
        offset, block = parse_bases(parser, fields, ("offset", "block"), at)
        if len(fields) != 2:
            parser.raise_error("SharedLinearEncodingAttr must have exactly two attributes: offset and block", at,
                               parser.pos)
        if align <= 0 or align & (align - 1):
            parser.raise_error("alignment must be a positive power of two", at, parser.pos)
        rank = len((offset + block)[0])
        sizes = out_sizes((offset, block), rank)
        no_zeros = tuple(tuple(b for b in bs if any(b)) for bs in (offset, block))
        if not is_invertible(no_zeros, sizes):
            parser.raise_error("After removing the zero bases the layout must be bijective", at, parser.pos)
        return (("offset", offset), ("block", block), ("alignment", align))

    def layout_rank(self) -> int:
        return len((self["offset"] + self["block"])[0])

    @property
    def shape(self) -> tuple[int, ...]:
        """The sizes of the layout's output dimensions."""
        return out_sizes((self["offset"], self["block"]), self.layout_rank())

    def mlir(self, p) -> str:
        names = ("offset", "block") if self["block"] else ("offset",)
        return (f"#ttg.shared_linear<{{{bases_text(names, [self[n] for n in names])}}}, "
                f"alignment = {self['alignment']}>")


def _identity_bases(shape, order) -> tuple:
    """Triton's identityStandardND: offset bases walking the dimensions from order[0] (most minor) on."""
    rank = len(shape)
    bases = []
    for d in order:
        n = 1
        while n < shape[d]:
            bases.append(tuple(n if i == d else 0 for i in range(rank)))
            n *= 2
    return tuple(bases)


def padded_order(offset, rank: int) -> tuple[int, ...]:
    """PaddedSharedEncodingAttr::getOrder: the dimensions in the order the offset bases first move along them,
    then the others from the last to the first."""
    order = []
    for b in offset:
        d = next((i for i, x in enumerate(b) if x), None)
        if d is not None and d not in order:
            order.append(d)
    return tuple(order + [d for d in reversed(range(rank)) if d not in order])


@irdl_attr_definition
class PaddedSharedEncoding(_SharedLayout):
    """`#ttg.padded_shared`: fields `intervals`, `paddings`, `offset`, `block`."""

    name = "ttg.padded_shared"

    @classmethod
    def parse_parameter(cls, parser) -> tuple:
        at = parser.pos
        parser.parse_punctuation("<")
        pairs = []

        def pair():
            i = parser.parse_integer(allow_boolean=False, allow_negative=False)
            parser.parse_punctuation(":")
            parser.parse_punctuation("+")
            pairs.append((i, parser.parse_integer(allow_boolean=False, allow_negative=False)))

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, pair)
        fields = parse_dict(parser)
        if "offset" in fields or "block" in fields:
            for f in fields.values():
                if f.key not in ("offset", "block"):
                    field_error(parser, f, at, f'Unexpected attribute "{f.key}" found')
            offset, block = parse_bases(parser, fields, ("offset", "block"), at)
            rank = len((offset + block)[0])
        else:
            order = shape = ()
            for f in fields.values():
                if f.key == "order":
                    order = uints(parser, f, "order")
                elif f.key == "shape":
                    shape = uints(parser, f, "shape")
                else:
                    field_error(parser, f, at, f'Unexpected attribute "{f.key}" found')
            if len(order) != len(shape):
                parser.raise_error("Mismatch of shape and order ranks in padded layout", at, parser.pos)
            if sorted(order) != list(range(len(order))) or any(s <= 0 or s & (s - 1) for s in shape):
                parser.raise_error("order must be a permutation of the dimensions and shape powers of two", at,
                                   parser.pos)
            offset, block, rank = _identity_bases(shape, order), (), len(shape)
        parser.parse_punctuation(">")
        intervals, paddings = tuple(i for i, _ in pairs), tuple(p for _, p in pairs)

        def fail(msg):
            parser.raise_error(msg, at, parser.pos)

        if not pairs:
            fail("must have at least one interval-padding pair")
        if any(i <= 0 or i & (i - 1) for i in intervals):
            fail("interval values must all be power of two")
        if any(p <= 0 or p & (p - 1) for p in paddings):
            fail("padding values must all be power of two")
        if len(set(intervals)) != len(intervals):
            fail("interval values cannot have duplicates")
        if not is_invertible((offset, block), out_sizes((offset, block), rank)):
            fail("Broadcasting is not supported.")
        for b in offset + block:
            if sum(1 for x in b if x) > 1:
                fail("Each offset basis must move in at most one dimension.")
            if any(x and x & (x - 1) for x in b):
                fail("Each offset basis must be 0 or a power of two.")
        return (("intervals", intervals), ("paddings", paddings), ("offset", offset), ("block", block),
                ("rank", rank))

    def layout_rank(self) -> int:
        return self["rank"]

    @property
    def shape(self) -> tuple[int, ...]:
        """The sizes of the linear component's output dimensions."""
        return out_sizes((self["offset"], self["block"]), self["rank"])

    @property
    def order(self) -> tuple[int, ...]:
        return padded_order(self["offset"], self["rank"])

    def padded_size(self, shape) -> int:
        """PaddedSharedEncodingAttr::getPaddedSize: the elements of a buffer of `shape`, padding included (none
        after the last element)."""
        n = math.prod(shape)
        pad = 0
        for interval, padding in zip(self["intervals"], self["paddings"]):
            pad += (n // interval) * padding - (padding if n % interval == 0 else 0)
        return n + pad

    def mlir(self, p) -> str:
        pads = ", ".join(f"{i}:+{q}" for i, q in zip(self["intervals"], self["paddings"]))
        shape, order = self.shape, self.order
        if not self["block"] and self["offset"] == _identity_bases(shape, order):
            body = f"order = {_ints_text(order)}, shape = {_ints_text(shape)}"
        else:
            body = bases_text(("offset", "block"), (self["offset"], self["block"]))
        return f"#ttg.padded_shared<[{pads}] {{{body}}}>"


@irdl_attr_definition
class AMDRotatingSharedEncoding(_SharedLayout):
    """`#ttg.amd_rotating_shared`: fields `vec`, `perPhase`, `maxPhase`, `order`, `CGALayout`."""

    name = "ttg.amd_rotating_shared"

    @classmethod
    def parse_parameter(cls, parser) -> tuple:
        at = parser.pos
        parser.parse_punctuation("<")
        fields = parse_dict(parser)
        parser.parse_punctuation(">")
        values = {"vec": 0, "perPhase": 0, "maxPhase": 0, "order": ()}
        for f in fields.values():
            if f.key == "order":
                values["order"] = uints(parser, f, "order")
            elif f.key in values:
                values[f.key] = uint(parser, f, f.key)
            elif f.key != "CGALayout":
                field_error(parser, f, at, f"unexpected key: {f.key}")
        values["CGALayout"] = parse_cga(parser, fields.get("CGALayout"), len(values["order"]))
        return tuple(values.items())

    def layout_rank(self) -> int:
        return len(self["order"])

    def mlir(self, p) -> str:
        return (f"#ttg.amd_rotating_shared<{{vec = {self['vec']}, perPhase = {self['perPhase']}, maxPhase = "
                f"{self['maxPhase']}, order = {_ints_text(self['order'])}{cga_text(self['CGALayout'])}}}>")


SHARED_LAYOUTS = [SharedLinearEncoding, PaddedSharedEncoding, AMDRotatingSharedEncoding]
