"""Declarative assembly formats: one MLIR `assemblyFormat` string per op drives parsing and printing.

Ops register a format by name (`register("tt.splat", "$src attr-dict `:` type($src) `->` type($result)")`),
written as in Triton's and MLIR's TableGen files. The printer follows MLIR's spacing rules exactly, so the
text we print is the text Triton prints. Supported directives: literals, `$var` (operand, result, property or
attribute), `type(...)`, `qualified(type(...))`, `stype(...)` (a dialect type printed without its
`!dialect.name` prefix, which MLIR does when the constraint names one type class), `functional-type(a, b)`,
`operands`, `attr-dict`, `attr-dict-with-keyword`, optional groups `( ... $anchor^ ... )?` and `oilist(...)`.
Operand and result types the format does not spell out come from `infer` rules (MLIR's TypesMatchWith).
Ops whose syntax is not declarative (regions, functions) register a `Custom` parse/print pair instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from xdsl.dialects.builtin import IntegerAttr, StringAttr, SymbolRefAttr, UnitAttr, i32
from xdsl.ir import Attribute, Operation
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
            elems.append(OIList(clauses))
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


@dataclass
class OpFormat:
    """A declarative format with its type-inference rules and enum spellings."""

    spec: str
    infer: dict[str, Callable] = field(default_factory=dict)
    enums: dict[str, dict[str, int]] = field(default_factory=dict)
    elems: list = field(init=False)
    used: set[str] = field(init=False)

    def __post_init__(self):
        self.elems, _, _ = _compile(_tokenize(self.spec), 0, ())
        self.used = _vars(self.elems)

    # ------------------------------------------------------------------ printing
    def print(self, op: Operation, p) -> str:
        out: list[str] = []
        st = _PrintState()
        self._print_elems(self.elems, op, p, out, st)
        return "".join(out)

    def _print_elems(self, elems, op, p, out, st):
        for e in elems:
            if isinstance(e, Lit):
                v = e.text
                if st.space and _space_before(v, st.punct):
                    out.append(" ")
                out.append(v)
                st.space = not (len(v) == 1 and v in "<({[")
                st.punct = v[0] != "_" and not v[0].isalpha()
            elif isinstance(e, AttrDict):
                kw = " attributes" if e.keyword else ""
                text = p.attr_dict(_all_attrs(op), self._elided(op))
                if text:
                    out.append(kw + text)
                st.punct = False
            elif isinstance(e, Group):
                if _present(op, e.anchor, self.enums):
                    self._print_elems(e.elems, op, p, out, st)
            elif isinstance(e, OIList):
                for clause in e.clauses:
                    if any(_present(op, n, self.enums) for n in _vars(clause)):
                        self._print_elems(clause, op, p, out, st)
            else:
                text = self._print_var(e, op, p)
                if not text:  # a unit attribute prints nothing, not even its space
                    continue
                if st.space:
                    out.append(" ")
                out.append(text)
                st.space, st.punct = True, False

    def _print_var(self, e, op, p) -> str:
        if isinstance(e, Operands):
            return ", ".join(p.value(v) for v in op.operands)
        if isinstance(e, FuncType):
            return p.function_type(_types_of(op, e.ins), _types_of(op, e.outs))
        if isinstance(e, TypeOf):
            types = _types_of(op, e.name)
            show = p.stype if e.mode == "stripped" else p.type
            return ", ".join(show(t) for t in types)
        kind, val = _lookup(op, e.name)
        if kind in ("operand", "result"):
            vals = val if isinstance(val, (tuple, list)) else ([] if val is None else [val])
            return ", ".join(p.value(v) for v in vals)
        if e.name in self.enums:
            return _enum_name(_enum(self.enums[e.name])[0], val)
        if isinstance(val, SymbolRefAttr):
            return p.symbol(val)
        if isinstance(val, UnitAttr):
            return ""
        return p.attr(val)

    def _elided(self, op) -> set[str]:
        out = set(self.used) | {"operandSegmentSizes", "resultSegmentSizes"}
        defs = _defs(op)
        if defs is not None:
            for name, pd in defs.properties.items():
                if pd.default_value is not None and op.properties.get(name) == pd.default_value:
                    out.add(name)
        return out

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


def _defs(op):
    get = getattr(type(op), "get_irdl_definition", None)
    return get() if get else None


def _all_attrs(op) -> dict[str, Attribute]:
    return {**op.properties, **op.attributes}


def _lookup(op, name):
    d = _defs(op)
    if d is not None:
        for n, _ in d.operands:
            if n == name:
                return "operand", getattr(op, n)
        for n, _ in d.results:
            if n == name:
                return "result", getattr(op, n)
    if name in op.properties:
        return "attr", op.properties[name]
    if name in op.attributes:
        return "attr", op.attributes[name]
    return "attr", None


def _types_of(op, name) -> list[Attribute]:
    if name == "operands":
        return [v.type for v in op.operands]
    if name == "results":
        return [v.type for v in op.results]
    kind, val = _lookup(op, name)
    vals = val if isinstance(val, (tuple, list)) else ([] if val is None else [val])
    return [v.type for v in vals]


def _present(op, name, enums) -> bool:
    kind, val = _lookup(op, name)
    if kind in ("operand", "result"):
        return bool(val) if isinstance(val, (tuple, list)) else val is not None
    if val is None:
        return False
    d = _defs(op)
    if d is not None and name in d.properties:
        default = d.properties[name].default_value
        if default is not None and val == default:
            return False
    return True


def _enum(spec) -> tuple[dict[str, int], Attribute]:
    """An enum spelling table and the integer type its values are stored as (i32 unless given)."""
    return spec if isinstance(spec, tuple) else (spec, i32)


def _enum_name(table: dict[str, int], val: Attribute) -> str:
    assert isinstance(val, IntegerAttr)
    for k, v in table.items():
        if v == val.value.data:
            return k
    return str(val.value.data)


class _ParseState:
    """Collects operands, types and attributes while walking a format, then builds the op."""

    def __init__(self, op_type, fmt: OpFormat, parser):
        self.op_type, self.fmt, self.p = op_type, fmt, parser
        self.defs = op_type.get_irdl_definition()
        self.operand_names = [n for n, _ in self.defs.operands]
        self.result_names = [n for n, _ in self.defs.results]
        self.operands: dict[str, list] = {}
        self.types: dict[str, list[Attribute]] = {}
        self.attrs: dict[str, Attribute] = {}
        self.all_operands: list | None = None
        self.start = parser.pos

    def kind(self, name: str) -> str:
        if name in self.operand_names:
            return "operand"
        if name in self.result_names:
            return "result"
        return "attr"

    def _def(self, name: str):
        return dict(self.defs.operands).get(name) or dict(self.defs.results).get(name)

    def variadic(self, name: str) -> bool:
        """A list-valued operand or result (optional ones hold at most one value, and are not)."""
        from xdsl.irdl import OptOperandDef, OptResultDef, VarOperandDef, VarResultDef

        d = self._def(name)
        return isinstance(d, (VarOperandDef, VarResultDef)) and not isinstance(d, (OptOperandDef, OptResultDef))

    def listed(self, name: str) -> bool:
        """Whether the op builder takes this operand or result as a list (variadic or optional)."""
        from xdsl.irdl import VarOperandDef, VarResultDef

        return isinstance(self._def(name), (VarOperandDef, VarResultDef))

    def run(self, elems):
        p = self.p
        for e in elems:
            if isinstance(e, Lit):
                self.lit(e.text)
            elif isinstance(e, Var):
                self.var(e.name)
            elif isinstance(e, Operands):
                self.all_operands = self.operand_list()
            elif isinstance(e, TypeOf):
                if e.name == "operands":
                    self.types["__operands__"] = self.type_list()
                elif self.variadic(e.name):
                    self.types[e.name] = self.type_list()
                elif e.mode == "stripped":
                    self.types[e.name] = [self.stripped_type(e.name)]
                else:
                    self.types[e.name] = [p.parse_type()]
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
        p = self.p
        tok = p._current_token.text
        if isinstance(e, Lit):
            return tok == e.text
        if isinstance(e, Var):
            if self.kind(e.name) == "operand":
                return tok.startswith("%")
            if e.name in self.fmt.enums:
                return tok in _enum(self.fmt.enums[e.name])[0]
            return tok not in (":", "->", ",", ")", "]", "}", "{", "loc", "") and not tok.startswith("%")
        if isinstance(e, TypeOf):
            return tok not in (":", ")", "]", "{", "")
        return False

    def lit(self, text: str):
        p = self.p
        if text[0].isalpha() or text[0] == "_":
            p.parse_keyword(text)
        else:
            p.parse_characters(text, f" in '{self.op_type.name}'")

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
        kind = self.kind(name)
        if kind == "operand":
            if self.variadic(name):
                self.operands[name] = self.operand_list()
            else:
                self.operands[name] = [p.parse_unresolved_operand()]
            return
        if name in self.fmt.enums:
            table, storage = _enum(self.fmt.enums[name])
            word = p.parse_keyword_in(list(table), f" for '{name}'")
            self.attrs[name] = IntegerAttr(table[word], storage)
            return
        if p._current_token.text.startswith("@"):
            self.attrs[name] = p._parse_optional_symref_attr()  # @f or @m::@f
            return
        if p._current_token.text in ("", ":") or self.is_unit(name):
            self.attrs[name] = UnitAttr()
            return
        self.attrs[name] = p.parse_attribute()

    def is_unit(self, name: str) -> bool:
        d = self.defs.properties.get(name) or self.defs.attributes.get(name)
        return d is not None and getattr(d.constr, "attr", None) is UnitAttr

    def assign_types(self, name: str, types: list[Attribute]):
        if name in ("operands", "results"):
            key = "__operands__" if name == "operands" else "__results__"
            self.types[key] = types
        else:
            self.types[name] = types

    def build(self) -> Operation:
        p = self.p
        if self.all_operands is not None:
            flat = self.all_operands
        else:
            flat = [u for n in self.operand_names for u in self.operands.get(n, [])]
        # split "operands" type lists / operand lists across the declared operand groups
        counts = {n: len(self.operands.get(n, [])) for n in self.operand_names}
        if self.all_operands is not None:
            self._split_all_operands(counts)
        if "__operands__" in self.types:
            it = iter(self.types.pop("__operands__"))
            for n in self.operand_names:
                self.types[n] = [next(it) for _ in range(counts[n])]
        if "__results__" in self.types:
            res = self.types.pop("__results__")
            var = [n for n in self.result_names if self.variadic(n)]
            if var:
                self.types[var[0]] = res[len(self.result_names) - 1 :] if len(self.result_names) > 1 else res
            else:
                for n, t in zip(self.result_names, res):
                    self.types[n] = [t]
        self._infer(counts)
        values = []
        for n in self.operand_names:
            types = self.types.get(n, [])
            units = self.operands.get(n, [])
            if len(types) != len(units):
                p.raise_error(
                    f"'{self.op_type.name}' expected {len(units)} types for '{n}', got {len(types)}", self.start
                )
            values.append([p.resolve_operand(u, t) for u, t in zip(units, types)])
        operand_args = []
        for n, v in zip(self.operand_names, values):
            operand_args.append(v if self.listed(n) else v[0])
        result_types = []
        for n in self.result_names:
            t = self.types.get(n)
            if t is None:
                p.raise_error(f"'{self.op_type.name}': cannot infer the type of result '{n}'", self.start)
            result_types.append(t if self.listed(n) else t[0])
        props = {k: v for k, v in self.attrs.items() if k in self.defs.properties}
        attrs = {k: v for k, v in self.attrs.items() if k not in self.defs.properties}
        return self.op_type.build(
            operands=operand_args, result_types=result_types, properties=props, attributes=attrs
        )

    def _split_all_operands(self, counts):
        units = self.all_operands
        n_groups = len(self.operand_names)
        if n_groups == 1:
            self.operands[self.operand_names[0]] = units
            counts[self.operand_names[0]] = len(units)

    def _infer(self, counts):
        view = _TypeView(self.types, self.attrs)
        pending = [n for n in self.operand_names + self.result_names if n not in self.types]
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
