"""Print attributes and types exactly as MLIR prints them, standalone (`attr_text`) or for the op printer
(`AttrPrinter`, which ttc/ir/printer.py's `Printer` extends with ops, SSA names and aliases): floats as
`1.000000e+00` when that round-trips, else in shortest-exact or hex form; dense elements, strings and symbols
quoted as MLIR quotes them; the location attributes."""

from __future__ import annotations

import math
import re
import struct

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    CallSiteLoc,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FunctionType,
    FusedLoc,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NameLoc,
    NoneAttr,
    NoneType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TypeAttribute,
    UnitAttr,
    UnknownLoc,
    VectorType,
)
from xdsl.ir import Attribute



# the fp8 formats xDSL packs as their one-byte codes, and their precision (mantissa bits with the implicit one)
_FP8 = {Float8E4M3FNType: 4, Float8E5M2Type: 3, Float8E4M3FNUZType: 4, Float8E5M2FNUZType: 3, Float8E4M3B11FNUZType: 4}

LOCATIONS = (UnknownLoc, FileLineColLoc, NameLoc, CallSiteLoc, FusedLoc)
_LOCATION_CLASSES = frozenset(LOCATIONS)


# ----------------------------------------------------------------------------- numbers


def _round_to(value: float, t: Attribute) -> float:
    """`value` rounded to the precision of float type `t` (for round-trip checks)."""
    if isinstance(t, Float32Type):
        return struct.unpack("<f", struct.pack("<f", value))[0]
    if isinstance(t, Float16Type):
        try:
            return struct.unpack("<e", struct.pack("<e", value))[0]
        except OverflowError:
            return math.inf
    if isinstance(t, BFloat16Type):
        return _bf16_from_bits(_bf16_bits(value))
    if type(t) in _FP8:
        return t.unpack(t.pack([value]), 1)[0]
    return value


def _bf16_bits(value: float) -> int:
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if math.isnan(value):
        return (bits >> 16) | 0x40
    rounding = 0x7FFF + ((bits >> 16) & 1)
    return ((bits + rounding) >> 16) & 0xFFFF


def _bf16_from_bits(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def float_bits(value: float, t: Attribute) -> tuple[int, int]:
    """(bits, width) of `value` in float type `t`."""
    if isinstance(t, Float32Type):
        return struct.unpack("<I", struct.pack("<f", value))[0], 32
    if isinstance(t, Float16Type):
        return struct.unpack("<H", struct.pack("<e", value))[0], 16
    if isinstance(t, BFloat16Type):
        return _bf16_bits(value), 16
    if type(t) in _FP8:
        return t.pack([value])[0], 8
    return struct.unpack("<Q", struct.pack("<d", value))[0], 64


def _natural_digits(t: Attribute) -> int:
    """APFloat::toString's default precision: 2 + mantissa bits * 59 / 196."""
    precision = {**_FP8, Float16Type: 11, BFloat16Type: 8, Float32Type: 24,
                 Float64Type: 53}.get(type(t), 53)
    return 2 + precision * 59 // 196


def _apfloat_natural(value: float, t: Attribute) -> str:
    """APFloat::toString(str) with its defaults (natural precision, max padding 3, truncated zeros)."""
    if value == 0:
        return "-0.0E+0" if math.copysign(1, value) < 0 else "0.0E+0"
    n = _natural_digits(t)
    sign = "-" if value < 0 else ""
    digits, exp = _apfloat_digits(value, t, n)
    # strip trailing zeros
    while len(digits) > 1 and digits[-1] == "0":
        digits = digits[:-1]
        exp += 1
    nd = len(digits)
    if exp >= 0:
        scientific = exp > 3 or nd + exp > n
    else:
        msd = exp + nd - 1
        scientific = False if msd >= 0 else (-msd) > 3
    if scientific:
        e = exp + nd - 1
        mant = digits[0] + "." + (digits[1:] if nd > 1 else "0")
        return f"{sign}{mant}E{'+' if e >= 0 else '-'}{abs(e)}"
    if exp >= 0:
        return sign + digits + "0" * exp
    point = nd + exp
    if point > 0:
        return sign + digits[:point] + "." + digits[point:]
    return sign + "0." + "0" * (-point) + digits


def _apfloat_digits(value: float, t: Attribute, precision: int) -> tuple[str, int]:
    """APFloat::toString's digits of |value| (non-zero, finite, exact in type `t`) for `precision` significant
    digits: (digit string, exponent of its last digit). It rounds in two steps, as LLVM does: the exact integer
    significand * 5^e is first cut by whole powers of ten down to about `precision` digits (truncating), then the
    digit string is rounded half-up to `precision` digits; trailing zeros are dropped."""
    from fractions import Fraction

    f = Fraction(abs(value))
    n, d = f.numerator, f.denominator  # d is a power of two
    exp2 = -(d.bit_length() - 1)
    while n % 2 == 0:  # trailing binary zeros
        n //= 2
        exp2 += 1
    if exp2 >= 0:
        sig, exp = n << exp2, 0
    else:
        sig, exp = n * 5 ** -exp2, exp2
    bits_required = (precision * 196 + 58) // 59
    bits = sig.bit_length()
    if bits > bits_required:
        removable = (bits - bits_required) * 59 // 196
        if removable:
            sig //= 10 ** removable
            exp += removable
    digits = str(sig)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits = stripped
    if len(digits) > precision:
        drop = len(digits) - precision
        kept, next_digit = digits[:precision], digits[precision]
        if next_digit < "5":
            trimmed = kept.rstrip("0")
            exp += drop + len(kept) - len(trimmed)
            digits = trimmed
        else:
            up = kept.rstrip("9")
            if not up:
                digits, exp = "1", exp + len(digits)
            else:
                exp += drop + len(kept) - len(up)
                digits = up[:-1] + str(int(up[-1]) + 1)
    return digits, exp


def format_float(value: float, t: Attribute) -> str:
    """A float literal as MLIR prints it for type `t`."""
    if not math.isinf(value) and not math.isnan(value):
        # APFloat::toString(precision 6, no padding, keep zeros): d.dddddde+NN, the digits as _apfloat_digits
        # gives them, zero-filled to 6 decimals; printed when it parses back to the same value
        if value == 0:
            s = "-0.000000e+00" if math.copysign(1, value) < 0 else "0.000000e+00"
        else:
            digits, exp = _apfloat_digits(value, t, 6)
            e = exp + len(digits) - 1
            s = (("-" if value < 0 else "") + digits[0] + "." + digits[1:].ljust(6, "0")
                 + f"e{'+' if e >= 0 else '-'}{abs(e):02d}")
        if _round_to(float(s), t) == _round_to(value, t):
            return s
        s = _apfloat_natural(value, t)
        if "." in s:
            return s
    bits, width = float_bits(value, t)
    return "0x" + format(bits, "X").rjust(width // 4, "0")


def _dense_float_from_bits(raw: bytes, t: Attribute) -> list[float]:
    if isinstance(t, BFloat16Type):
        return [_bf16_from_bits(v) for (v,) in struct.iter_unpack("<H", raw)]
    if type(t) in _FP8:
        return list(t.unpack(raw, len(raw)))
    fmt = {Float16Type: "<e", Float32Type: "<f", Float64Type: "<d"}[type(t)]
    return [v for (v,) in struct.iter_unpack(fmt, raw)]


# ----------------------------------------------------------------------------- types and attributes

_INT_PREFIX = {Signedness.SIGNLESS: "i", Signedness.SIGNED: "si", Signedness.UNSIGNED: "ui"}
_TYPE_TESTS = ((IntegerType, "int"), (IndexType, "index"), (NoneType, "none"), (AnyFloat, "float"),
               (TensorType, "tensor"), (VectorType, "vector"), (FunctionType, "function"))
_ATTR_TESTS = ((IntegerAttr, "integer"), (FloatAttr, "float"), (StringAttr, "string"), (UnitAttr, "unit"),
               (ArrayAttr, "array"), (DictionaryAttr, "dict"), (DenseArrayBase, "dense_array"),
               (DenseIntOrFPElementsAttr, "dense"), (SymbolRefAttr, "symbol"), (NoneAttr, "none"), (IntAttr, "int"),
               (LOCATIONS, "loc"))
_TYPE_KIND: dict[type, str] = {}  # class -> which of `AttrPrinter.type`'s cases prints its instances
_ATTR_KIND: dict[type, str] = {}  # class -> which of `AttrPrinter.attr`'s cases prints its instances


def _type_kind(cls: type) -> str:
    kind = _TYPE_KIND.get(cls)
    if kind is None:
        kind = next((k for c, k in _TYPE_TESTS if issubclass(cls, c)), "mlir" if hasattr(cls, "mlir") else "xdsl")
        _TYPE_KIND[cls] = kind
    return kind


def _attr_kind(cls: type) -> str:
    kind = _ATTR_KIND.get(cls)
    if kind is None:
        if issubclass(cls, TypeAttribute) and not issubclass(cls, LOCATIONS):
            kind = "type"
        else:
            kind = next((k for c, k in _ATTR_TESTS if issubclass(cls, c)), "mlir" if hasattr(cls, "mlir") else "xdsl")
        _ATTR_KIND[cls] = kind
    return kind


def type_name(t: Attribute) -> str | None:
    kind = _type_kind(type(t))
    if kind == "int":
        return f"{_INT_PREFIX[t.signedness.data]}{t.width.data}"
    if kind == "float":
        return t.name
    return kind if kind in ("index", "none") else None


def _xdsl_text(a: Attribute) -> str:
    from xdsl.printer import Printer
    import io

    buf = io.StringIO()
    Printer(stream=buf).print_attribute(a)
    return buf.getvalue()


class AttrPrinter:
    """Prints types and attributes; `aliases` maps attributes to `#name`; `visit` records alias uses."""

    def __init__(self, aliases=None, visit=None):
        self.aliases = aliases if aliases is not None else {}
        self.visit = visit  # (a) -> True when `a` was visited before
        self._alias_ids: dict[int, tuple[Attribute, str | None]] = {}
        # id -> (the type, held so that the id stays its; its text): a module spells its few types over and
        # over, and the text of a type depends only on the aliases (emptied when they change)
        self._type_texts: dict[int, tuple[Attribute, str]] = {}

    def _alias(self, a: Attribute) -> str | None:
        if _alias_base(a) is None:  # only layouts and locations have aliases
            return None
        if self.visit is not None:  # the dry run, which finds the aliases
            # an attribute visited before: its nested attributes were too (the text is not kept)
            return "" if self.visit(a) else None
        # by identity first: xDSL hashes an attribute through all its parameters (deep call-site locations)
        hit = self._alias_ids.get(id(a))
        if hit is None or hit[0] is not a:
            hit = self._alias_ids[id(a)] = (a, self._alias_of(a))  # holding `a` keeps its id unique
        return hit[1]

    def _alias_of(self, a: Attribute) -> str | None:
        return self.aliases.get(a)

    # types
    def type(self, t: Attribute) -> str:
        hit = self._type_texts.get(id(t))
        if hit is not None and hit[0] is t:
            return hit[1]
        text = self._type(t)
        self._type_texts[id(t)] = (t, text)
        return text

    def _type(self, t: Attribute) -> str:
        kind = _type_kind(type(t))
        if kind == "tensor":
            dims = "".join(("?" if d == -1 else str(d)) + "x" for d in t.get_shape())
            enc = "" if isinstance(t.encoding, NoneAttr) else ", " + self.attr(t.encoding)
            return f"tensor<{dims}{self.type(t.element_type)}{enc}>"
        if kind == "int":
            return f"{_INT_PREFIX[t.signedness.data]}{t.width.data}"
        if kind == "float":
            return t.name
        if kind == "index" or kind == "none":
            return kind
        if kind == "vector":
            dims = "".join(f"{d}x" for d in t.get_shape())
            return f"vector<{dims}{self.type(t.element_type)}>"
        if kind == "function":
            return self.function_type(t.inputs.data, t.outputs.data)
        if kind == "mlir":
            return t.mlir(self)
        return _xdsl_text(t)

    def stype(self, t: Attribute) -> str:
        return t.mlir_stripped(self) if hasattr(t, "mlir_stripped") else self.type(t)

    def function_type(self, ins, outs) -> str:
        i = "(" + ", ".join(self.type(t) for t in ins) + ")"
        outs = list(outs)
        if len(outs) == 1 and not isinstance(outs[0], FunctionType):
            return f"{i} -> {self.type(outs[0])}"
        return f"{i} -> (" + ", ".join(self.type(t) for t in outs) + ")"

    # attributes
    def attr(self, a: Attribute, elide_type: bool = False) -> str:
        alias = self._alias(a)
        if alias is not None:
            return alias
        kind = _attr_kind(type(a))
        if kind == "type":
            return self.type(a)
        if kind == "integer":
            t = a.type
            if isinstance(t, IntegerType) and t.width.data == 1 and t.signedness.data == Signedness.SIGNLESS:
                return "true" if a.value.data else "false"
            if elide_type and isinstance(t, IntegerType) and t.width.data == 64 and t.signedness.data == Signedness.SIGNLESS:
                return str(a.value.data)
            return f"{a.value.data} : {self.type(t)}"
        if kind == "float":
            text = format_float(a.value.data, a.type)
            if elide_type and isinstance(a.type, Float64Type):
                return text
            return f"{text} : {self.type(a.type)}"
        if kind == "string":
            return quote(a.data)
        if kind == "unit":
            return "unit"
        if kind == "array":
            return "[" + ", ".join(self.attr(x, elide_type=True) for x in a.data) + "]"
        if kind == "dict":
            return self.dict_body(dict(a.data))
        if kind == "dense_array":
            vals = a.get_values()
            et = self.type(a.elt_type)
            if not vals:
                return f"array<{et}>"
            if isinstance(a.elt_type, AnyFloat):
                body = ", ".join(format_float(v, a.elt_type) for v in vals)
            elif isinstance(a.elt_type, IntegerType) and a.elt_type.width.data == 1:
                body = ", ".join("true" if v else "false" for v in vals)
            else:
                body = ", ".join(str(v) for v in vals)
            return f"array<{et}: {body}>"
        if kind == "dense":
            return f"dense<{self.dense_body(a)}> : {self.type(a.type)}"
        if kind == "symbol":
            return self.symbol(a)
        if kind == "none":
            return "none"
        if kind == "int":
            return str(a.data)
        if kind == "loc":
            return "loc(" + self.loc_body(a) + ")"
        if kind == "mlir":
            return a.mlir(self)
        return _xdsl_text(a)

    def symbol(self, a) -> str:
        if isinstance(a, StringAttr):
            return "@" + _symbol_text(a.data)
        text = "@" + _symbol_text(a.root_reference.data)
        for n in a.nested_references.data:
            text += "::@" + _symbol_text(n.data)
        return text

    def dense_body(self, a: DenseIntOrFPElementsAttr) -> str:
        et = a.get_element_type()
        shape = a.get_shape()
        raw = a.data.data
        n = math.prod(shape)
        size = len(raw) // n if n else 0
        if n == 1 and not shape or n > 0 and raw == raw[:size] * n:  # a splat: one element is printed
            raw, n = raw[:size], 1
        if isinstance(et, AnyFloat):
            text = [format_float(v, et) for v in _dense_float_from_bits(raw, et)]
        else:
            vals = et.unpack(raw, n) if raw else ()
            text = [("true" if v else "false") for v in vals] if isinstance(et, IntegerType) and et.width.data == 1 \
                else [str(v) for v in vals]
        if n == 1:
            return text[0]
        return _nest(text, list(shape))

    def dict_body(self, d: dict) -> str:
        items = []
        for k in sorted(d):
            v = d[k]
            key = k if _is_bare(k) else quote(k)
            items.append(key if isinstance(v, UnitAttr) else f"{key} = {self.attr(v)}")
        return "{" + ", ".join(items) + "}"

    def attr_dict(self, d: dict, elided: set) -> str:
        items = {k: v for k, v in d.items() if k not in elided}
        return " " + self.dict_body(items) if items else ""

    # locations
    def loc_body(self, loc: Attribute) -> str:
        if isinstance(loc, UnknownLoc):
            return "unknown"
        if isinstance(loc, FileLineColLoc):
            return f"{quote(loc.filename.data)}:{loc.line.data}:{loc.column.data}"
        if isinstance(loc, NameLoc):
            child = "" if isinstance(loc.location, NoneAttr) else "(" + self.loc_ref(loc.location) + ")"
            return quote(loc.desc.data) + child
        if isinstance(loc, CallSiteLoc):
            return f"callsite({self.loc_ref(loc.callee)} at {self.loc_ref(loc.caller)})"
        if isinstance(loc, FusedLoc):
            meta = "" if isinstance(loc.metadata, NoneAttr) else "<" + self.attr(loc.metadata) + ">"
            return "fused" + meta + "[" + ", ".join(self.loc_ref(l) for l in loc.locations.data) + "]"
        return "unknown"

    def loc_ref(self, loc: Attribute) -> str:
        """A nested location: its alias when it has one, else its body."""
        alias = self._alias(loc)
        return alias if alias is not None else self.loc_body(loc)


def _nest(text: list[str], shape: list[int]) -> str:
    if len(shape) <= 1:
        return "[" + ", ".join(text) + "]"
    step = len(text) // shape[0]
    return "[" + ", ".join(_nest(text[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


def _is_bare(k: str) -> bool:
    return bool(k) and (k[0].isalpha() or k[0] == "_") and all(c.isalnum() or c in "_$." for c in k)


def _symbol_text(s: str) -> str:
    return s if _is_bare(s) else quote(s)


def quote(s: str) -> str:
    if _PLAIN.match(s):
        return '"' + s + '"'
    out = []
    for ch in s:
        c = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif 32 <= c < 127:
            out.append(ch)
        else:
            for b in ch.encode():
                out.append("\\" + format(b, "02X"))
    return '"' + "".join(out) + '"'


_PLAIN = re.compile(r'[ !#-\[\]-~]*\Z')  # printable ASCII but `"` and `\\`: quoted as is


def _alias_base(a: Attribute) -> str | None:
    t = type(a)
    return "loc" if t in _LOCATION_CLASSES else getattr(t, "ALIAS", None)


def _alias_children(a: Attribute) -> list[Attribute]:
    if isinstance(a, NameLoc):
        return [] if isinstance(a.location, NoneAttr) else [a.location]
    if isinstance(a, CallSiteLoc):
        return [a.callee, a.caller]
    if isinstance(a, FusedLoc):
        return list(a.locations.data)
    if hasattr(a, "children"):
        return a.children()
    return []


def attr_text(a: Attribute) -> str:
    """One attribute or type, printed standalone (no aliases)."""
    return AttrPrinter().attr(a)
