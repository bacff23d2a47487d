"""Print IR exactly as MLIR (and so Triton) prints it.

MLIR's conventions reproduced here: `module` for builtin.module; SSA names numbered per region scope with
nested regions numbered after their parent (`%arg4` in a loop inside a four-argument kernel), constants named
`%c1024_i32` / `%cst` / `%true`, name clashes resolved with `_N` suffixes from one counter; layout aliases
`#blocked`, `#blocked1`, ... ordered by nesting depth and name; floats printed as `1.000000e+00` when that
round-trips, else in shortest-exact or hex form; MLIR's spacing in declarative formats (`ttc.ir.format`).
With `debuginfo`, locations are printed as Triton's dumps show them: `loc(#locN)` after each op, aliases for
op locations at the end of the file, block-argument locations inline.
"""

from __future__ import annotations

import math
import re
import struct

from xdsl.dialects.builtin import (
    AnyFloat,
    UnregisteredOp,
    ArrayAttr,
    BFloat16Type,
    BytesAttr,
    CallSiteLoc,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
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
    ModuleOp,
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
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue

from xdsl.traits import IsTerminator

from ttc.ir.format import FORMATS

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
        self.visit = visit

    def _alias(self, a: Attribute) -> str | None:
        if _alias_base(a) is None:  # only layouts and locations have aliases
            return None
        if self.visit is not None:  # the dry run, which finds the aliases
            self.visit(a)
            return None
        return self.aliases.get(a)

    # types
    def type(self, t: Attribute) -> str:
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


# ----------------------------------------------------------------------------- SSA names


def _constant_name(op: Operation) -> str | None:
    v = op.properties.get("value", op.attributes.get("value"))
    t = op.results[0].type
    if isinstance(v, IntegerAttr):
        if isinstance(t, IntegerType) and t.width.data == 1:
            return "true" if v.value.data else "false"
        if isinstance(t, IndexType):
            return f"c{v.value.data}"
        return f"c{v.value.data}_{type_name(t)}"
    return "cst"


RESULT_NAMES = {"arith.constant": _constant_name, "tt.split": lambda op: ["outLHS", "outRHS"]}


def _hides_arg_locs(region: Region) -> bool:
    parent = region.parent_op()
    return parent is not None and parent.name in ("scf.for", "scf.while")


_NAME_CHARS = re.compile(r"[A-Za-z0-9_$.-]*\Z")  # a name MLIR prints as it is


class _Names:
    """MLIR's SSANameState: value and block names for one printed top-level op."""

    def __init__(self, top: Operation, generic: bool, name_locs: bool):
        self.values: dict[SSAValue, str] = {}
        self.groups: dict[Operation, str | list[str]] = {}
        self.blocks: dict[Block, str] = {}
        self.generic, self.name_locs = generic, name_locs
        # (region, next value id, next arg id, next conflict id, the used-name sets of the enclosing regions):
        # a region's names are its own set's and its ancestors' (MLIR's scoped table), never copied
        stack = [(r, 0, 0, 0, ()) for r in reversed(top.regions)]
        self._value_id = self._arg_id = self._conflict = 0
        while stack:
            region, self._value_id, self._arg_id, self._conflict, self._outer = stack.pop()
            self.used: set[str] = set()
            self._number_region(region)
            scope = self._outer + (self.used,)
            children = [r for block in region.blocks for op in block.ops for r in op.regions]
            for r in reversed(children):
                stack.append((r, self._value_id, self._arg_id, self._conflict, scope))

    def _taken(self, name: str) -> bool:
        return name in self.used or any(name in used for used in self._outer)

    def _unique(self, name: str) -> str:
        if not _NAME_CHARS.match(name):
            name = "".join(c if c.isalnum() or c in "$._-" else "_" for c in name)
        if name[:1].isdigit():
            name = "_" + name
        if not self._taken(name):
            self.used.add(name)
            return name
        while True:
            probe = f"{name}_{self._conflict}"
            self._conflict += 1
            if not self._taken(probe):
                self.used.add(probe)
                return probe

    def _number_region(self, region: Region):
        for i, block in enumerate(region.blocks):
            self.blocks[block] = f"bb{i}"
            entry = block is region.blocks.first
            for arg in block.args:
                name = self._name_loc(arg.location)
                hint = arg.name_hint
                if name is None and self.name_locs and hint and entry and _hides_arg_locs(region) \
                        and not re.fullmatch(r"arg\d+(_\d+)?", hint):
                    # scf.for/scf.while print no locations for their region arguments, so in a Triton dump
                    # the argument's NameLoc survives only as its name in the text: keep that name (but not
                    # a positional `%argN`, which names a place, not a value, and moves when arguments do)
                    name = re.sub(r"_\d+$", "", hint)
                if entry:  # entry arguments take an argument number even when a NameLoc names them
                    self.values[arg] = self._unique(name if name is not None else f"arg{self._arg_id}")
                    self._arg_id += 1
                elif name is not None:
                    self.values[arg] = self._unique(name)
                else:
                    self.values[arg] = str(self._value_id)
                    self._value_id += 1
            for op in block.ops:
                self._number_op(op)

    def _name_loc(self, loc) -> str | None:
        """With name_locs (Triton's dumps), a value named by its NameLoc: `loc("offs"(...))` -> %offs."""
        if not self.name_locs:
            return None
        if isinstance(loc, NameLoc):
            return loc.desc.data
        for child in _alias_children(loc) if isinstance(loc, (CallSiteLoc, FusedLoc)) else ():
            name = self._name_loc(child)
            if name is not None:
                return name
        return None

    def _number_op(self, op: Operation):
        if not op.results:
            return
        name = self._name_loc(op.location)
        fn = None if self.generic else RESULT_NAMES.get(op.name)
        if fn is not None:
            hint = fn(op)
            if name is None:
                name = hint
            elif isinstance(hint, list):  # results named one by one: each takes the NameLoc's name (MLIR)
                name = [name] * len(op.results)
        if isinstance(name, list):
            base = self._unique(name[0])
        elif name is not None:
            base = self._unique(name)
        else:
            base = str(self._value_id)
            self._value_id += 1
        self.groups[op] = base
        if isinstance(name, list):  # one name per result group (OpAsmOpInterface; None: the group goes on)
            starts = [i for i, n in enumerate(name) if n is not None] + [len(op.results)]
            heads = []
            for k, (i, j) in enumerate(zip(starts, starts[1:])):
                head = base if k == 0 else self._unique(name[i])
                heads.append(f"%{head}" if j - i == 1 else f"%{head}:{j - i}")
                for m, r in enumerate(op.results[i:j]):
                    self.values[r] = head if j - i == 1 else f"{head}#{m}"
            self.groups[op] = heads
        elif len(op.results) == 1:
            self.values[op.results[0]] = base
        else:
            for i, r in enumerate(op.results):
                self.values[r] = f"{base}#{i}"


# ----------------------------------------------------------------------------- operations


class Printer(AttrPrinter):
    """Prints an op (usually a module) to MLIR text."""

    def __init__(self, debuginfo: bool = False, generic: bool = False, name_locs: bool = False):
        super().__init__()
        self.debuginfo, self.generic, self.name_locs = debuginfo, generic, name_locs
        self.names: _Names | None = None
        self._deferrable: dict[Attribute, bool] = {}
        self._order: list[Attribute] = []

    def print(self, op: Operation) -> str:
        self.names = _Names(op, self.generic, self.name_locs)
        # dry run: find the attributes that get aliases, in MLIR's visiting order
        self.aliases = {}
        self._visiting_deferrable = True
        self.visit = self._record
        self.op(op, 0)
        self.visit = None
        self._assign_aliases()
        body = self.op(op, 0)
        top = [a for a in self._sorted if not self._deferrable[a]]
        bottom = [a for a in self._sorted if self._deferrable[a]]
        head = "".join(f"{self.aliases[a]} = {self._alias_def(a)}\n" for a in top)
        tail = "".join(f"{self.aliases[a]} = {self._alias_def(a)}\n" for a in bottom)
        return head + body + "\n" + tail

    def _alias_def(self, a: Attribute) -> str:
        saved = self.aliases.pop(a)
        try:
            return self.attr(a)
        finally:
            self.aliases[a] = saved

    def _record(self, a: Attribute):
        # only locations are deferred to the end of the file; other aliases are defined up front
        deferrable = self._visiting_deferrable and type(a) in _LOCATION_CLASSES
        seen = self._deferrable
        n = len(seen)
        if seen.setdefault(a, deferrable) is not deferrable and not deferrable:
            seen[a] = False
        if len(seen) != n:
            self._order.append(a)
        if not deferrable:
            for c in _alias_children(a):
                if c in self._deferrable:
                    self._deferrable[c] = False

    def _assign_aliases(self):
        depth: dict[Attribute, int] = {}

        def d(a):
            if a not in depth:
                kids = [c for c in _alias_children(a) if c in self._deferrable]
                depth[a] = 1 + max(d(c) for c in kids) if kids else 0
            return depth[a]

        # non-deferrable attributes make their nested aliases non-deferrable too
        changed = True
        while changed:
            changed = False
            for a in self._order:
                if not self._deferrable[a]:
                    for c in _alias_children(a):
                        if self._deferrable.get(c):
                            self._deferrable[c] = False
                            changed = True
        index = {a: i for i, a in enumerate(self._order)}
        self._sorted = sorted(self._order, key=lambda a: (d(a), _alias_base(a), index[a]))
        counts: dict[str, int] = {}
        for a in self._sorted:
            base = _alias_base(a)
            n = counts.get(base, 0)
            counts[base] = n + 1
            self.aliases[a] = f"#{base}{n if n else ''}"

    # values and blocks
    def value(self, v: SSAValue) -> str:
        name = self.names.values.get(v) if self.names else None
        if name is None:
            return "%<<UNKNOWN SSA VALUE>>"
        return "%" + name

    def block_name(self, b: Block) -> str:
        return "^" + self.names.blocks.get(b, "bb?")

    # locations
    def trailing_loc(self, loc: Attribute, inline: bool = False) -> str:
        if not self.debuginfo:
            return ""
        if inline:
            saved = self._visiting_deferrable
            self._visiting_deferrable = False
            try:
                if self.visit is not None:
                    self.visit(loc)
                return " loc(" + self.loc_body(loc) + ")"
            finally:
                self._visiting_deferrable = saved
        return " loc(" + self.loc_ref(loc) + ")"

    # ops
    def op(self, op: Operation, indent: int) -> str:
        loc = self.trailing_loc(op.location)  # first: MLIR visits an op's location before its body
        head = self._results(op)
        fmt = None if self.generic else FORMATS.get(op.name)
        if fmt is None and op.name.startswith("math.") and not self.generic:  # its syntax loads with the dialect
            from ttc.ir.std import MATH  # noqa: F401

            fmt = FORMATS.get(op.name)
        if isinstance(op, ModuleOp) and not self.generic:
            text = "module" + self._module(op, indent)
        elif fmt is not None:
            p = _Indented(self, indent)
            text = op.name + fmt.print(op, p)
        else:
            text = self._generic(op, indent)
        return head + text + loc

    def _results(self, op: Operation) -> str:
        if not op.results:
            return ""
        base = self.names.groups.get(op)
        if isinstance(base, list):
            return ", ".join(base) + " = "
        if len(op.results) == 1 or base is None:
            return ", ".join(self.value(r) for r in op.results) + " = "
        return f"%{base}:{len(op.results)} = "

    def _module(self, op: ModuleOp, indent: int) -> str:
        out = ""
        if op.sym_name is not None:
            out += " " + self.symbol(op.sym_name)
        attrs = {k: v for k, v in {**op.properties, **op.attributes}.items() if k != "sym_name"}
        if attrs:
            out += " attributes" + self.attr_dict(attrs, set())
        return out + " " + self.region(op.body, indent, entry_args=False)

    def _generic(self, op: Operation, indent: int) -> str:
        name, attributes = op.name, op.attributes
        if isinstance(op, UnregisteredOp):  # xDSL keeps an unregistered op's name in an attribute
            attributes = {k: v for k, v in attributes.items() if k != "op_name__"}
            name = op.op_name.data
        out = quote(name) + "(" + ", ".join(self.value(v) for v in op.operands) + ")"
        if op.successors:
            out += "[" + ", ".join(self.block_name(b) for b in op.successors) + "]"
        if op.properties:
            out += " <" + self.dict_body(dict(op.properties)) + ">"
        if op.regions:
            out += " (" + ", ".join(self.region(r, indent, entry_args=True) for r in op.regions) + ")"
        if attributes:
            out += " " + self.dict_body(dict(attributes))
        return out + " : " + self.function_type([v.type for v in op.operands], [r.type for r in op.results])

    def region(self, region: Region, indent: int = 0, entry_args: bool = True, terminators: bool = True) -> str:
        """MLIR's printRegion: the entry block's header only when its arguments are to be shown
        (always in generic form), or when it is empty in generic form."""
        lines = ["{"]
        for block in region.blocks:
            entry = block is region.blocks.first
            if entry and self.generic:
                entry_args = True
            header = not entry or (entry_args and bool(block.args)) or (self.generic and not block.ops)
            if header:
                lines.append(" " * indent + self._block_header(block))
            for op in block.ops:
                if not terminators and op is block.last_op and op.has_trait(IsTerminator):
                    continue
                lines.append(" " * (indent + 2) + self.op(op, indent + 2))
        lines.append(" " * indent + "}")
        return "\n".join(lines)

    def _block_header(self, block: Block) -> str:
        text = self.block_name(block)
        if block.args:
            text += "(" + ", ".join(
                f"{self.value(a)}: {self.type(a.type)}{self.trailing_loc(a.location, inline=True)}" for a in block.args
            ) + ")"
        text += ":"
        preds = _predecessors(block)
        if not preds and block is not block.parent.blocks.first:
            text += "  // no predecessors"
        elif preds:
            if len(preds) == 1:
                text += "  // pred: " + self.block_name(preds[0])
            else:
                text += f"  // {len(preds)} preds: " + ", ".join(self.block_name(b) for b in preds)
        return text


def _predecessors(block: Block) -> list[Block]:
    region = block.parent
    if region is None:
        return []
    preds = []
    for b in region.blocks:
        term = b.last_op
        if term is not None:
            preds += [b for s in term.successors if s is block]  # once per edge, as MLIR lists them
    return preds


class _Indented:
    """What formats and custom printers see: the printer, bound to the op's indentation."""

    def __init__(self, printer: Printer, indent: int):
        self._p, self._indent = printer, indent

    def region(self, region: Region, entry_args: bool = True, terminators: bool = True) -> str:
        return self._p.region(region, self._indent, entry_args, terminators)

    def __getattr__(self, name):
        return getattr(self._p, name)


def print_ir(op: Operation, debuginfo: bool = False, generic: bool = False, name_locs: bool = False) -> str:
    return Printer(debuginfo, generic, name_locs).print(op)
