"""Declarative assembly formats: one MLIR `assemblyFormat` string per op drives parsing and printing.

Ops register a format by name (`register("tt.splat", "$src attr-dict `:` type($src) `->` type($result)")`),
written as in Triton's and MLIR's TableGen files. The printer follows MLIR's spacing rules exactly, so the
text we print is the text Triton prints. Supported directives: literals, `$var` (operand, result, property or
attribute), `type(...)`, `qualified(type(...))`, `stype(...)` (a dialect type printed without its
`!dialect.name` prefix, which MLIR does when the constraint names one type class), `functional-type(a, b)`,
`operands`, `attr-dict`, `attr-dict-with-keyword`, optional groups `( ... $anchor^ ... )?` and `oilist(...)`.
Operand and result types the format does not spell out come from `infer` rules (MLIR's TypesMatchWith);
`infer["__int__NAME"] = i32` makes the attribute NAME an integer of that type written bare;
`infer["__array__NAME"] = i32` makes it a dense array of that type written bare, as MLIR writes a
DenseI32ArrayAttr a format names (`[0, 4096]`, `[]`).
Ops whose syntax is not declarative (regions, functions) register a `Custom` parse/print pair instead.
`build_op` builds an op as xDSL's `build` does, creating it directly from its flat operands where the op's
definition allows (what each op class needs is read once from its definition, in `op_info`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

from xdsl.dialects.builtin import (UNKNOWN_LOC, DenseArrayBase, IntegerAttr, StringAttr, SymbolRefAttr, TensorType,
                                   UnitAttr, i32)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.core import OpResult, SSAValues, Use
from xdsl.utils.exceptions import VerifyException

_TOKEN = re.compile(
    r"\s*(`[^`]*`|\$[A-Za-z_][A-Za-z0-9_]*|functional-type|attr-dict-with-keyword|attr-dict|"
    r"qualified|stype|type|oilist|operands|results|\)\?|[(),^|])"
)


@dataclass
class Lit:
    text: str


@dataclass
class Var:
    name: str


@dataclass
class TypeOf:
    name: str  # a variable name, or "operands"/"results"
    mode: str = "plain"  # plain | qualified | stripped


@dataclass
class FuncType:
    ins: str
    outs: str


@dataclass
class AttrDict:
    keyword: bool


@dataclass
class Operands:
    pass


@dataclass
class Group:
    elems: list
    anchor: str


@dataclass
class OIList:
    clauses: list  # list of element lists
    names: list = field(default_factory=list)  # the variables of each clause


def _tokenize(spec: str) -> list[str]:
    toks, pos = [], 0
    spec = spec.strip()
    while pos < len(spec):
        m = _TOKEN.match(spec, pos)
        if not m:
            raise ValueError(f"bad assembly format near {spec[pos:]!r}")
        toks.append(m.group(1))
        pos = m.end()
        while pos < len(spec) and spec[pos].isspace():
            pos += 1
    return toks


def _compile(toks: list[str], i: int, stop: tuple[str, ...]) -> tuple[list, int, str | None]:
    """Compile tokens into elements until one of `stop`; returns (elems, next index, anchor)."""
    elems: list = []
    anchor = None
    while i < len(toks) and toks[i] not in stop:
        t = toks[i]
        if t.startswith("`"):
            elems.append(Lit(t[1:-1]))
        elif t.startswith("$"):
            elems.append(Var(t[1:]))
        elif t == "^":
            last = elems[-1]
            anchor = last.name if isinstance(last, (Var, TypeOf)) else None
        elif t in ("type", "stype", "qualified"):
            mode = {"type": "plain", "stype": "stripped", "qualified": "qualified"}[t]
            if t == "qualified":  # qualified(type($x))
                assert toks[i + 1] == "(" and toks[i + 2] == "type"
                i += 2
            assert toks[i + 1] == "("
            name = toks[i + 2].lstrip("$")
            i += 3
            if t == "qualified":
                i += 1
            elems.append(TypeOf(name, mode))
        elif t == "functional-type":
            a, b = toks[i + 2].lstrip("$"), toks[i + 4].lstrip("$")
            i += 5
            elems.append(FuncType(a, b))
        elif t in ("attr-dict", "attr-dict-with-keyword"):
            elems.append(AttrDict(t == "attr-dict-with-keyword"))
        elif t == "operands":
            elems.append(Operands())
        elif t == "oilist":
            clauses, i = [], i + 2
            while True:
                sub, i, _ = _compile(toks, i, ("|", ")"))
                clauses.append(sub)
                if toks[i] == ")":
                    break
                i += 1
            elems.append(OIList(clauses, [_vars(c) for c in clauses]))
        elif t == "(":
            sub, i, sub_anchor = _compile(toks, i + 1, (")?",))
            elems.append(Group(sub, sub_anchor))
        else:
            raise ValueError(f"unexpected token {t!r} in assembly format")
        i += 1
    return elems, i, anchor


def _vars(elems) -> set[str]:
    out: set[str] = set()
    for e in elems:
        if isinstance(e, Var):
            out.add(e.name)
        elif isinstance(e, Group):
            out |= _vars(e.elems)
        elif isinstance(e, OIList):
            for c in e.clauses:
                out |= _vars(c)
    return out


class OpInfo:
    """What building, parsing and printing need to know of one op class, read once from its IRDL definition:
    which names are operands and results (and which of those are lists), properties, defaults, unit
    attributes, and whether an op can be created directly from its flat operands and results."""

    def __init__(self, op_type):
        from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, OptionalDef, VarOperandDef, VarResultDef

        get = getattr(op_type, "get_irdl_definition", None)
        d = get() if get else None
        groups = (d.operands + d.results) if d else []
        self.operands = [n for n, _ in d.operands] if d else []
        self.results = [n for n, _ in d.results] if d else []
        self.names = self.operands + self.results
        self.kind = {n: "result" for n in self.results} | {n: "operand" for n in self.operands}
        self.listed = {n for n, g in groups if isinstance(g, (VarOperandDef, VarResultDef))}  # built from lists
        self.optional = {n for n, g in groups if isinstance(g, OptionalDef)}
        self.variadic = self.listed - self.optional
        self.properties = set(d.properties) if d else set()
        self.defaults = {n: pd.default_value for n, pd in d.properties.items() if pd.default_value is not None} \
            if d else {}
        self.units = {n for n, a in ((d.attributes | d.properties).items() if d else ())
                      if getattr(a.constr, "attr", None) is UnitAttr}
        # single operands and results defined as one type class (TensorType): parsed as that class, as MLIR's
        # generated parsers parse a constraint whose C++ type is a class
        self.classes = {n: c for n, c in ((n, _base_class(g.constr)) for n, g in groups if n not in self.listed) if c}
        # created directly when the only option is operand segment sizes held as a property (computed here)
        options = list(d.options) if d else [None]
        self.segments = any(isinstance(o, AttrSizedOperandSegments) and o.as_property for o in options)
        self.direct = len(options) == int(self.segments) and not d.regions and not d.successors
        # what IRDLOperation.__post_init__ fills in (`_new_op`), where the class keeps xDSL's create and
        # __post_init__ (else None: xDSL's create)
        self.fill = (tuple((n, p.default_value) for n, p in d.properties.items()
                           if not isinstance(p, OptionalDef) and p.default_value is not None),
                     tuple((n, a.default_value) for n, a in d.attributes.items()
                           if not isinstance(a, OptionalDef) and a.default_value is not None)) \
            if d and getattr(op_type.create, "__func__", None) is _XDSL_CREATE \
            and op_type.__post_init__ is IRDLOperation.__post_init__ and op_type.__new__ is object.__new__ else None

        # where each operand and result is among the op's values, when every group is a single value (for the
        # printer, which then reads `op.operands[i]` instead of xDSL's accessor)
        self.at = {} if self.listed else {n: (False, i) for i, n in enumerate(self.operands)} | \
            {n: (True, i) for i, n in enumerate(self.results)}
        self.at.pop("operands", None), self.at.pop("results", None)  # `type(operands)`: all of them
        # per operand and result group: (how many values it takes: "one", "opt" or "any"; whether None is one)
        self.operand_groups = [(self._takes(n), n in self.listed) for n in self.operands]
        self.result_groups = [(self._takes(n), n in self.optional) for n in self.results]

    def _takes(self, name: str) -> str:
        return "any" if name in self.variadic else "opt" if name in self.optional else "one"

    def fits(self, names, groups) -> bool:
        """Whether each group of values has as many as its definition takes (one, at most one, or any)."""
        return all(n in self.variadic or len(g) == 1 or n in self.optional and not g for n, g in zip(names, groups))

    def create(self, op_type, operands: list[list], result_types: list[list], properties, attributes):
        """The op, from one list of values per operand and of types per result (as definition takes them)."""
        if self.segments:
            properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(v) for v in operands])
        operands = [v for vs in operands for v in vs]
        result_types = [t for ts in result_types for t in ts]
        if self.fill is not None:
            return _new_op(op_type, self.fill, operands, result_types, properties, attributes, UNKNOWN_LOC)
        return op_type.create(operands=operands, result_types=result_types, properties=properties,
                              attributes=attributes, location=UNKNOWN_LOC)


_XDSL_CREATE = Operation.create.__func__


def _new_op(op_type, fill, operands, result_types, properties, attributes, location):
    """`op_type.create(...)` as xDSL 0.74's `Operation.__init__` and `IRDLOperation.__post_init__` make the op
    (the same fields, uses linked in the same order, the definition's default properties and attributes filled
    in), without their generic steps: the old operands' uses unlinked (there are none), the successor and region
    setters (there are none: `direct` ops have neither), the definition looked up per op (`fill` is read once)."""
    op = _new(op_type)
    operands = SSAValues(operands)
    uses = tuple([Use(op, i) for i in range(len(operands))])
    for v, use in zip(operands, uses):
        v.add_use(use)
    d = op.__dict__
    d["_operands"], d["_operand_uses"] = operands, uses
    d["results"] = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)])
    d["properties"] = properties = dict(properties)
    d["attributes"] = attributes = dict(attributes)
    d["location"] = UNKNOWN_LOC if location is None else location
    d["_successors"], d["_successor_uses"], d["regions"] = (), (), ()
    props, attrs = fill
    for n, v in props:
        if n not in properties:
            properties[n] = v
    for n, v in attrs:
        if n not in attributes:
            attributes[n] = v
    return op


def _base_class(constr):
    """The attribute class a single operand or result definition names (`operand_def(TensorType)`), or None."""
    constr = getattr(getattr(constr, "constraint", None), "constr", constr)  # a single value: RangeOf(constr)
    attr = getattr(constr, "attr", None)
    return attr if isinstance(attr, type) else None


_new = object.__new__
_INFOS: dict[type, OpInfo] = {}


def op_info(op_type) -> OpInfo:
    info = _INFOS.get(op_type)
    if info is None:
        info = _INFOS[op_type] = OpInfo(op_type)
    return info


def _flatten(groups, args, cls) -> tuple[list, list[int]] | None:
    """The arguments of a builder (per group: an instance of `cls`, None or a list) as one list and the size
    of each group; None where they do not fit the groups (as xDSL's builder would report)."""
    if len(args) != len(groups):
        return None
    flat, sizes = [], []
    for (takes, none_ok), arg in zip(groups, args):
        if isinstance(arg, cls):
            flat.append(arg)
            sizes.append(1)
        elif arg is None:
            if not none_ok:
                return None
            sizes.append(0)
        elif isinstance(arg, (list, tuple)):
            n = len(arg)
            if n != 1 and takes == "one" or n > 1 and takes == "opt":
                return None
            flat.extend(arg)
            sizes.append(n)
        else:
            return None
    return flat, sizes


def build_op(op_type, operands=(), result_types=(), properties=None, attributes=None, regions=(), successors=()):
    """`op_type.build(...)` (operands and result types given per definition: one, None or a list); created
    directly when the op's definition allows it, else (and for any argument that does not fit the definition,
    to report it) through xDSL's generic builder."""
    info = op_info(op_type)
    properties, attributes = properties or {}, attributes or {}
    if info.direct and not regions and not successors:
        values = _flatten(info.operand_groups, operands, SSAValue)
        types = _flatten(info.result_groups, result_types, Attribute)
        if values is not None and types is not None and all(isinstance(v, SSAValue) for v in values[0]):
            props = {k: v for k, v in properties.items() if v is not None}
            if info.segments:
                props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, values[1])
            attrs = {k: v for k, v in attributes.items() if v is not None} if None in attributes.values() else attributes
            if info.fill is not None:
                return _new_op(op_type, info.fill, values[0], types[0], props, attrs, None)
            return op_type.create(operands=values[0], result_types=types[0], properties=props, attributes=attrs)
    return op_type.build(operands=operands, result_types=result_types, properties=properties,
                         attributes=attributes, regions=regions, successors=successors)


class OpFormat:
    """A declarative format with its type-inference rules and enum spellings. The format string is compiled
    when an op of the kind is first parsed or printed: the dialects register many more formats than a
    module uses."""

    def __init__(self, spec: str, infer: dict[str, Callable] | None = None, enums: dict | None = None):
        self.spec, self.infer, self.enums = spec, infer or {}, enums or {}

    @cached_property
    def elems(self) -> list:
        return _compile(_tokenize(self.spec), 0, ())[0]

    @cached_property
    def used(self) -> set[str]:
        return _vars(self.elems)

    @cached_property
    def elided(self) -> frozenset[str]:
        """What `attr-dict` leaves out (but properties at their default value)."""
        return frozenset(self.used | {"operandSegmentSizes", "resultSegmentSizes"})

    @cached_property
    def enum_names(self) -> dict[str, dict[int, str]]:
        """Enum variable -> stored value -> its keyword (the first one spelling it)."""
        out: dict[str, dict[int, str]] = {}
        for name, spec in self.enums.items():
            names = out[name] = {}
            for k, v in _enum(spec)[0].items():
                names.setdefault(v, k)
        return out

    # ------------------------------------------------------------------ printing
    def print(self, op: Operation, p) -> str:
        out: list[str] = []
        st = _PrintState()
        self._print_elems(self.elems, op, op_info(type(op)), p, out, st)
        return "".join(out)

    def _print_elems(self, elems, op, info, p, out, st):
        for e in elems:
            cls = type(e)
            if cls is Lit:
                v = e.text
                if st.space and _space_before(v, st.punct):
                    out.append(" ")
                out.append(v)
                st.space = not (len(v) == 1 and v in "<({[")
                st.punct = v[0] != "_" and not v[0].isalpha()
            elif cls is AttrDict:
                if op.properties or op.attributes:
                    text = p.attr_dict(_all_attrs(op), self._elided(op, info))
                    if text:
                        out.append((" attributes" if e.keyword else "") + text)
                st.punct = False
            elif cls is Group:
                if _present(op, info, e.anchor):
                    self._print_elems(e.elems, op, info, p, out, st)
            elif cls is OIList:
                for clause, names in zip(e.clauses, e.names):
                    if any(_present(op, info, n) for n in names):
                        self._print_elems(clause, op, info, p, out, st)
            else:
                at = info.at.get(e.name) if cls is Var or cls is TypeOf and e.mode != "stripped" else None
                if at is not None:  # a single operand or result, or its type
                    v = (op.results if at[0] else op._operands)[at[1]]
                    text = p.value(v) if cls is Var else p.type(v.type)
                else:
                    text = self._print_var(e, op, info, p)
                if not text:  # a unit attribute prints nothing, not even its space
                    continue
                if st.space:
                    out.append(" ")
                out.append(text)
                st.space, st.punct = True, False

    def _print_var(self, e, op, info, p) -> str:
        if isinstance(e, Operands):
            return ", ".join(p.value(v) for v in op.operands)
        if isinstance(e, FuncType):
            return p.function_type(_types_of(op, info, e.ins), _types_of(op, info, e.outs))
        if isinstance(e, TypeOf):
            types = _types_of(op, info, e.name)
            show = p.stype if e.mode == "stripped" else p.type
            return ", ".join(show(t) for t in types)
        kind, val = _lookup(op, info, e.name)
        if kind is not None:
            vals = val if isinstance(val, (tuple, list)) else ([] if val is None else [val])
            return ", ".join(p.value(v) for v in vals)
        if "__int__" + e.name in self.infer:  # an I32Attr printed bare (`ttng.init_barrier %b, 1`)
            return str(val.value.data)
        if "__array__" + e.name in self.infer:  # a DenseI32ArrayAttr printed bare: `[0, 4096]`
            return "[" + ", ".join(str(x) for x in val.get_values()) + "]"
        if e.name in self.enums:
            assert isinstance(val, IntegerAttr)
            return self.enum_names[e.name].get(val.value.data) or str(val.value.data)
        if isinstance(val, SymbolRefAttr):
            return p.symbol(val)
        if isinstance(val, UnitAttr):
            return ""
        return p.attr(val)

    def _elided(self, op, info) -> frozenset[str]:
        props = op.properties
        defaults = [n for n, v in info.defaults.items() if props.get(n) == v]
        return self.elided.union(defaults) if defaults else self.elided

    # ------------------------------------------------------------------- parsing
    def parse(self, op_type, parser) -> Operation:
        st = _ParseState(op_type, self, parser)
        st.run(self.elems)
        return st.build()


class _PrintState:
    __slots__ = ("space", "punct")

    def __init__(self):
        self.space, self.punct = True, False


def _space_before(value: str, last_punct: bool) -> bool:
    if len(value) != 1 and value != "->":
        return True
    if last_punct:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"


def _all_attrs(op) -> dict[str, Attribute]:
    return {**op.properties, **op.attributes}


def _lookup(op, info: OpInfo, name):
    """(\"operand\" or \"result\", its value(s)) or (None, the property or attribute, None if absent)."""
    kind = info.kind.get(name)
    if kind is not None:
        return kind, getattr(op, name)
    val = op.properties.get(name)
    return None, val if val is not None else op.attributes.get(name)


def _types_of(op, info, name) -> list[Attribute]:
    if name == "operands":
        return [v.type for v in op.operands]
    if name == "results":
        return [v.type for v in op.results]
    _, val = _lookup(op, info, name)
    vals = val if isinstance(val, (tuple, list)) else ([] if val is None else [val])
    return [v.type for v in vals]


def _present(op, info, name) -> bool:
    kind, val = _lookup(op, info, name)
    if kind is not None:
        return bool(val) if isinstance(val, (tuple, list)) else val is not None
    return val is not None and val != info.defaults.get(name)


def _enum(spec) -> tuple[dict[str, int], Attribute]:
    """An enum spelling table and the integer type its values are stored as (i32 unless given)."""
    return spec if isinstance(spec, tuple) else (spec, i32)


class _ParseState:
    """Collects operands, types and attributes while walking a format, then builds the op."""

    def __init__(self, op_type, fmt: OpFormat, parser):
        self.op_type, self.fmt, self.p = op_type, fmt, parser
        self.info = op_info(op_type)
        self.operands: dict[str, list] = {}
        self.types: dict[str, list[Attribute]] = {}
        self.attrs: dict[str, Attribute] = {}
        self.all_operands: list | None = None
        self.start = parser.pos

    def kind(self, name: str) -> str:
        return self.info.kind.get(name, "attr")

    def run(self, elems):
        p = self.p
        for e in elems:
            cls = type(e)
            if cls is Lit:
                self.lit(e.text)
            elif cls is Var:
                self.var(e.name)
            elif cls is Operands:
                self.all_operands = self.operand_list()
            elif cls is TypeOf:
                if e.name == "operands":
                    self.types["__operands__"] = self.type_list()
                elif e.name == "results":
                    self.types["__results__"] = self.type_list()
                elif e.name in self.info.variadic:
                    self.types[e.name] = self.type_list()
                elif e.mode == "stripped":
                    self.types[e.name] = [self.stripped_type(e.name)]
                else:
                    at = p.pos
                    self.types[e.name] = [p.parse_type()]
                    cls = self.info.classes.get(e.name)
                    if cls is TensorType and not isinstance(self.types[e.name][0], cls):
                        from ttc.ir.attr_printer import attr_text

                        p.raise_error("invalid kind of type specified: expected builtin.tensor, but found "
                                      f"'{attr_text(self.types[e.name][0])}'", at, p.pos)
            elif isinstance(e, FuncType):
                ft = p.parse_function_type()
                self.assign_types(e.ins, list(ft.inputs.data))
                self.assign_types(e.outs, list(ft.outputs.data))
            elif isinstance(e, AttrDict):
                if e.keyword and p.parse_optional_keyword("attributes") is None:
                    continue
                for k, v in p.parse_optional_attr_dict().items():
                    self.attrs[k] = v
            elif isinstance(e, Group):
                if self.starts(e.elems[0]):
                    self.run(e.elems)
            elif isinstance(e, OIList):
                progress = True
                while progress:
                    progress = False
                    for clause in e.clauses:
                        if self.starts(clause[0]):
                            self.run(clause)
                            progress = True

    def starts(self, e) -> bool:
        """Whether the next token begins element `e` (the first element of an optional group)."""
        tok = self.p._current_token.text
        if isinstance(e, Lit):
            return tok == e.text
        if isinstance(e, Var):
            if self.kind(e.name) == "operand":
                return tok.startswith("%")
            if e.name in self.fmt.enums:
                return tok.strip('"') in _enum(self.fmt.enums[e.name])[0]
            return tok not in (":", "->", ",", ")", "]", "}", "{", "loc", "") and not tok.startswith("%")
        if isinstance(e, TypeOf):
            return tok not in (":", ")", "]", "{", "")
        return False

    def lit(self, text: str):
        p = self.p
        if text[0].isalpha() or text[0] == "_":
            p.parse_keyword(text)
        elif p.parse_optional_characters(text) is None:
            p.raise_error(f"'{text}' expected in '{self.op_type.name}'")

    def operand_list(self) -> list:
        p = self.p
        out = []
        if not p._current_token.text.startswith("%"):
            return out
        out.append(p.parse_unresolved_operand())
        while p._current_token.text == "," and p._peek_percent():
            p.parse_punctuation(",")
            out.append(p.parse_unresolved_operand())
        return out

    def type_list(self) -> list[Attribute]:
        p = self.p
        out = [p.parse_type()]
        while p.parse_optional_punctuation(",") is not None:
            out.append(p.parse_type())
        return out

    def stripped_type(self, name: str) -> Attribute:
        cls = self.fmt.infer["__stype__" + name]  # the type class the format names
        if self.p._current_token.text.startswith("!"):  # the full spelling is accepted too, as in MLIR
            return self.p.parse_type()
        return cls.parse_stripped(self.p)

    def var(self, name: str):
        p = self.p
        kind = self.info.kind.get(name)
        if kind == "operand":
            if name in self.info.optional and not p._current_token.text.startswith("%"):
                return  # MLIR reads an Optional operand with parseOptionalOperand: `tt.load %p, :` has no mask
            if name in self.info.variadic:
                self.operands[name] = self.operand_list()
            else:
                self.operands[name] = [p.parse_unresolved_operand()]
            return
        if "__int__" + name in self.fmt.infer:
            self.attrs[name] = _int_attr(p.parse_integer(), self.fmt.infer["__int__" + name])
            return
        if "__array__" + name in self.fmt.infer:
            values = p.parse_comma_separated_list(p.Delimiter.SQUARE, p.parse_integer)
            self.attrs[name] = DenseArrayBase.from_list(self.fmt.infer["__array__" + name], values)
            return
        if name in self.fmt.enums:
            table, storage = _enum(self.fmt.enums[name])
            at = p.pos
            word = p.parse_optional_str_literal()  # MLIR's enums read a keyword or a string: `"slt"`
            if word is None:
                word = p.parse_keyword_in(list(table), f" for '{name}'")
            elif word not in table:
                p.raise_error(f"Expected one of {', '.join(repr(k) for k in sorted(table))} for '{name}'", at)
            self.attrs[name] = _int_attr(table[word], storage)
            return
        if p._current_token.text.startswith("@"):
            self.attrs[name] = p._parse_optional_symref_attr()  # @f or @m::@f
            return
        if p._current_token.text in ("", ":") or name in self.info.units:
            self.attrs[name] = UnitAttr()
            return
        self.attrs[name] = p.parse_attribute()

    def assign_types(self, name: str, types: list[Attribute]):
        if name in ("operands", "results"):
            key = "__operands__" if name == "operands" else "__results__"
            self.types[key] = types
        else:
            self.types[name] = types

    def build(self) -> Operation:
        p, info = self.p, self.info
        # split "operands" type lists / operand lists across the declared operand groups
        counts = {n: len(self.operands.get(n, [])) for n in info.operands}
        if self.all_operands is not None:
            self._split_all_operands(counts)
        if "__operands__" in self.types:
            it = iter(self.types.pop("__operands__"))
            for n in info.operands:
                self.types[n] = [next(it) for _ in range(counts[n])]
        if "__results__" in self.types:
            res = self.types.pop("__results__")
            var = [n for n in info.results if n in info.variadic]
            if var:  # the fixed results before the variadic one take the first types, those after it the last
                at = info.results.index(var[0])
                after = len(info.results) - 1 - at
                for n, t in zip(info.results[:at], res):
                    self.types[n] = [t]
                for n, t in zip(info.results[at + 1:], res[len(res) - after:]):
                    self.types[n] = [t]
                self.types[var[0]] = res[at:len(res) - after]
            else:
                for n, t in zip(info.results, res):
                    self.types[n] = [t]
                for n in info.results[len(res):]:  # optional results left out (`ttng.tmem_alloc`'s token)
                    if n in info.optional:
                        self.types[n] = []
        self._infer(counts)
        values = []
        for n in info.operands:
            types = self.types.get(n, [])
            units = self.operands.get(n, [])
            if len(types) != len(units):
                p.raise_error(
                    f"'{self.op_type.name}' expected {len(units)} types for '{n}', got {len(types)}", self.start
                )
            values.append([p.resolve_operand(u, t) for u, t in zip(units, types)])
        result_types = []
        for n in info.results:
            t = self.types.get(n)
            if t is None:
                p.raise_error(f"'{self.op_type.name}': cannot infer the type of result '{n}'", self.start)
            result_types.append(t)
        props = {k: v for k, v in self.attrs.items() if k in info.properties}
        attrs = {k: v for k, v in self.attrs.items() if k not in info.properties}
        if info.direct and info.fits(info.operands, values) and info.fits(info.results, result_types):
            return info.create(self.op_type, values, result_types, props, attrs)
        return self.op_type.build(  # xDSL's builder, which reports what does not fit the definition
            operands=[v if n in info.listed else v[0] for n, v in zip(info.operands, values)],
            result_types=[t if n in info.listed else t[0] for n, t in zip(info.results, result_types)],
            properties=props, attributes=attrs,
        )

    def _split_all_operands(self, counts):
        units = self.all_operands
        if len(self.info.operands) == 1:
            self.operands[self.info.operands[0]] = units
            counts[self.info.operands[0]] = len(units)

    def _infer(self, counts):
        pending = [n for n in self.info.names if n not in self.types]
        if not pending:
            return
        view = _TypeView(self.types, self.attrs)
        progress = True
        while pending and progress:
            progress = False
            for n in list(pending):
                rule = self.fmt.infer.get(n)
                if rule is None:
                    continue
                try:
                    t = rule(view)
                except KeyError:
                    continue
                except VerifyException as e:
                    self.p.raise_error(f"'{self.op_type.name}' op {e}", self.start)
                if self.kind(n) == "operand" and counts[n] == 0:
                    self.types[n] = []
                else:
                    self.types[n] = t if isinstance(t, list) else [t] * max(1, counts.get(n, 1))
                pending.remove(n)
                progress = True
        for n in pending:
            if self.kind(n) == "operand" and counts[n] == 0:
                self.types[n] = []


_INT_ATTRS: dict[tuple[int, int], tuple[Attribute, IntegerAttr]] = {}


def _int_attr(value: int, type: Attribute) -> IntegerAttr:
    """`IntegerAttr(value, type)` for the types formats name (module constants), one per value: attributes
    are immutable, and xDSL checks each one it makes (an enum's predicate on every `arith.cmpi`)."""
    hit = _INT_ATTRS.get((value, id(type)))
    if hit is None or hit[0] is not type:
        hit = _INT_ATTRS[value, id(type)] = (type, IntegerAttr(value, type))
    return hit[1]


class _TypeView:
    """What inference rules see: `T["ptr"]` is the (first) type of `ptr`, `T.attr("value")` an attribute."""

    def __init__(self, types, attrs):
        self.types, self.attrs = types, attrs

    def __getitem__(self, name):
        ts = self.types[name]
        if not ts:
            raise KeyError(name)
        return ts[0]

    def all(self, name):
        return self.types[name]

    def attr(self, name):
        return self.attrs[name]


@dataclass
class Custom:
    """An op whose syntax is hand-written: `parse(op_type, parser) -> Operation`, `print(op, p) -> str`."""

    parse: Callable
    print: Callable


FORMATS: dict[str, OpFormat | Custom] = {}


def register(name: str, spec: str | Custom, infer: dict | None = None, enums: dict | None = None):
    FORMATS[name] = spec if isinstance(spec, Custom) else OpFormat(spec, infer or {}, enums or {})


def same_as(name: str):
    """Inference rule: this value has the same type as `name`."""
    return lambda T: T[name]


def _string_attr_text(a: StringAttr) -> str:
    return a.data
