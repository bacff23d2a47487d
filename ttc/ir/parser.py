"""Parse Triton's textual IR (as Triton dumps it) on top of xDSL's parser.

What this adds to xDSL's parser: ops in the custom syntax registered in `ttc.ir.format`; `#loc` aliases that
are defined after their use (Triton prints them at the end of the file); hexadecimal float elements in dense
literals (`dense<0xFF800000> : tensor<4xf32>` is -inf, not 4.29e9); the `external_resources` of a file's
`{-# ... #-}` metadata (where MLIR's reproducers keep their pipeline), kept in `external_resources`.

What it does differently, for speed: common tokens are lexed with one regular expression; types are uniqued by
their spelling, as MLIR's context uniques them; the common locations (`loc(#alias)`, `loc("file":1:2)`) and
dense splats are read directly; SSA names live in a scoped table, not copied into every region.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerType,
    LocationAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import KIND_BY_PUNCTUATION_SPELLING, MLIRLexer, MLIRTokenKind, StringLiteral

from ttc.ir.dialects import building, context
from ttc.ir.verifier import verify_module
from ttc.ir.format import FORMATS

_DENSE_ELEMENT = (IntegerType, IndexType, AnyFloat, ComplexType)
_ALIAS_DEF = re.compile(r"^(#[A-Za-z_][\w$.-]*)\s*=\s*(loc\b)?", re.M)
_NEWLINE = re.compile("\n")


class _Token(Token):
    """xDSL's token, with its text sliced once (the parser asks for it many times)."""

    text = None

    def __init__(self, kind, span, text):
        self.kind, self.span, self.text = kind, span, text


_PUNCT = KIND_BY_PUNCTUATION_SPELLING
_IDENT = {"#": MLIRTokenKind.HASH_IDENT, "%": MLIRTokenKind.PERCENT_IDENT, "^": MLIRTokenKind.CARET_IDENT,
          "!": MLIRTokenKind.EXCLAMATION_IDENT, "@": MLIRTokenKind.AT_IDENT}
# whitespace and comments, then one token of the forms that make up nearly all of a file; anything else (and
# the end of the file) is left to xDSL's lexer. Each form is xDSL's, tried in xDSL's order.
_FAST_TOKEN = re.compile(
    r"(?>(?://[^\n]*\n?|\s+)*)(?:"
    r"([a-zA-Z_][a-zA-Z0-9_$.]*)"  # 1: bare identifier
    r"|(->|\{-\#|\#-\}|[-:,()}\[\]<>=+/*?|{])"  # 2: punctuation
    r"|([%#!^](?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)|@[a-zA-Z_][a-zA-Z0-9_$.]*)"  # 3: prefixed identifier
    r"|(0x[0-9a-fA-F]+|[0-9]+(\.[0-9]*(?:[eE][+-]?[0-9]+)?)?)"  # 4: number, 5: its fraction (a float)
    r'|("[^"\\\n\v\f]*")'  # 6: string without escapes
    r")",
    re.ASCII,
)


_new, _set = object.__new__, object.__setattr__
_BARE, _STRING = MLIRTokenKind.BARE_IDENT, MLIRTokenKind.STRING_LIT
_INTEGER, _FLOAT = MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.FLOAT_LIT
_PERCENT, _HASH, _COMMA, _COLON = (MLIRTokenKind.PERCENT_IDENT, MLIRTokenKind.HASH_IDENT, MLIRTokenKind.COMMA,
                                   MLIRTokenKind.COLON)
_L_PAREN, _ARROW, _R_ANGLE = MLIRTokenKind.L_PAREN, MLIRTokenKind.ARROW, MLIRTokenKind.GREATER


class _Lexer(MLIRLexer):
    """xDSL's MLIR lexer, matching the common tokens with one regular expression (their spans made without
    the frozen dataclass's checked `__init__`: the expression has checked them)."""

    def lex(self):
        inp = self.input
        m = _FAST_TOKEN.match(inp.content, self.pos)
        if m is None:
            return super().lex()
        i = m.lastindex  # the outermost group that matched: 5 (a fraction) is inside 4
        start, end = m.span(i)
        text = m.group(i)
        self.pos = end
        if i == 1:
            kind = _BARE
        elif i == 2:
            kind = _PUNCT[text]
        elif i == 3:
            kind = _IDENT[text[0]]
        elif i == 4:
            kind = _INTEGER if m.start(5) < 0 else _FLOAT
        else:
            kind = _STRING
        span = _new(StringLiteral if i == 6 else Span)
        d = span.__dict__
        d["start"], d["end"], d["input"] = start, end, inp
        tok = _new(_Token)
        tok.kind, tok.span, tok.text = kind, span, text
        return tok


# `true`, `false`, or a number with a builtin type named by one word (`-4 : i32`, `1.0 : f32`, `0x7F : i8`)
_NUMBER_ATTR = re.compile(r"(?:true|false)(?![\w$.])|-?(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?)"
                          r"[ \t]*:[ \t]*[a-zA-Z_][a-zA-Z0-9_$.]*(?![\w$.<])", re.ASCII)
# `loc(#alias)` or `loc("file":line:col)`, after `loc`: the locations nearly all ops have
_SIMPLE_LOC = re.compile(r'\((?:(#[A-Za-z_][\w$.-]*)|"([^"\\\n]*)":([0-9]+):([0-9]+))\)')
_SHAPED = frozenset(("tensor", "vector", "memref"))
# after `tensor`: `<4x64x` then an element type (`f32`, `!tt.ptr<f32>`), the ranked tensors nearly all types are
_TENSOR_DIMS = re.compile(r"<((?:[0-9]+x)+)(?=[a-zA-Z!])")
_ANGLE = re.compile(r'[<>"]')


def _angle_end(text: str, at: int) -> int | None:
    """Where the `<...>` opening at `at` ends (after its `>`); None if it holds a string or does not close."""
    depth = 0
    for m in _ANGLE.finditer(text, at):
        c = m.group()
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return m.end()
        else:
            return None
    return None


class _Operand(UnresolvedOperand):
    """xDSL's unresolved operand, with its name read once from its token."""

    operand_name = None

    def __init__(self, span, index: int, name: str):
        self.span, self.index, self.operand_name = span, index, name


class _Values:
    """xDSL's table of SSA names (name -> values), with the names of enclosing regions reached through `outer`
    instead of copied into each region's table (MLIR's scoped table): xDSL's `old = ssa_values.copy()` on
    entering a region, restored when it ends, costs nothing however many names are in scope."""

    __slots__ = ("table", "outer")

    def __init__(self, table: dict | None = None, outer: _Values | None = None):
        self.table, self.outer = table if table is not None else {}, outer

    def get(self, name: str, default=None):
        scope = self
        while scope is not None:
            values = scope.table.get(name)
            if values is not None:
                return values
            scope = scope.outer
        return default

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def __getitem__(self, name: str):
        values = self.get(name)
        if values is None:
            raise KeyError(name)
        return values

    def __setitem__(self, name: str, values) -> None:
        self.table[name] = values

    def keys(self):
        return self  # for `name in ssa_values.keys()`

    def copy(self) -> _Values:
        """The names so far move to the returned table (which xDSL restores when the region ends); this one
        goes on, empty, inside it."""
        old = _Values(self.table, self.outer)
        self.table, self.outer = {}, old
        return old


class TypeConflict(ParseError):
    """A value used with a type other than its definition's: MLIR's error plus a note at the prior use."""

    def __init__(self, span, msg: str, prior):
        super().__init__(span, msg)
        self.prior = prior


class TTParser(Parser):
    def __init__(self, ctx, text: str, name: str = "<stdin>", positions: dict | None = None):
        super().__init__(ctx, text, name)
        self._parser_state.lexer = _Lexer(self.lexer.input)
        self.ssa_values = _Values()
        self._resume_from(0)
        self.positions = positions if positions is not None else {}  # op -> offset where it was parsed
        self._first_use: dict[str, object] = {}  # value name -> span of its first use (for undefined values)
        self._defined_at: dict[str, object] = {}  # value name -> span of its definition
        self._loc_ended_at = -1
        self._line_starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
        self.external_resources: dict[str, dict[str, object]] = {}  # {-# external_resources: {key: {k: v}} #-}
        self._later_aliases: dict[str, int] = {}  # `#name` -> where its definition starts, until parsed
        self._loc_alias_defs: set[int] = set()  # where the definitions of location aliases start
        for m in _ALIAS_DEF.finditer(text):
            self._later_aliases.setdefault(m.group(1), m.start())
            if m.group(2):
                self._loc_alias_defs.add(m.start())
        self._skip_alias_def: dict[int, int] = {}  # definitions parsed ahead: where they start -> end
        self._files: dict[str, StringAttr] = {}  # file name -> its StringAttr, for locations
        self._types: dict[str, Attribute] = {}  # the types parsed so far, by spelling
        self._locs: dict[tuple[str, int, int], FileLineColLoc] = {}  # file locations, by place
        self._ints: dict[int, IntAttr] = {}  # the lines and columns of locations
        self._op_types: dict[str, tuple] = {}  # op name -> (its class, its dialect's name)
        self._numbers: dict[str, Attribute] = {}  # integer and float attributes, by spelling
        self._functions: dict[tuple, tuple] = {}  # (ids of inputs, of outputs) -> (inputs, outputs, FunctionType)

    # -------------------------------------------------------------- tokens (xDSL's, without its properties)
    def _consume_token(self, expected_kind=None):
        st = self._parser_state
        tok = st.current_token
        assert expected_kind is None or tok.kind == expected_kind, f"Unexpected token {tok}, expected {expected_kind}"
        st.current_token = st.lexer.lex()
        return tok

    def _parse_optional_token(self, expected_kind):
        st = self._parser_state
        tok = st.current_token
        if tok.kind == expected_kind:
            st.current_token = st.lexer.lex()
            return tok
        return None

    def parse_optional_characters(self, text: str):
        st = self._parser_state
        if st.current_token.text == text:
            st.current_token = st.lexer.lex()
            return text
        return None

    def parse_optional_punctuation(self, punctuation: str):
        st = self._parser_state
        if st.current_token.kind is _PUNCT[punctuation]:
            st.current_token = st.lexer.lex()
            return punctuation
        return None

    def parse_punctuation(self, punctuation: str, context_msg: str = ""):
        st = self._parser_state
        if st.current_token.kind is not _PUNCT[punctuation]:
            self.raise_error(f"Expected '{punctuation}'" + context_msg, st.current_token.span)
        st.current_token = st.lexer.lex()
        return punctuation

    def parse_optional_keyword(self, keyword: str):
        st = self._parser_state
        tok = st.current_token
        if tok.kind is _BARE and tok.text == keyword:
            st.current_token = st.lexer.lex()
            return keyword
        return None

    def parse_optional_unresolved_operand(self):
        """`%name` or `%name#index` (xDSL's, with the token calls inlined)."""
        st = self._parser_state
        tok = st.current_token
        if tok.kind is not _PERCENT:
            return None
        st.current_token = st.lexer.lex()
        index = 0
        if st.current_token.kind is _HASH:
            index_tok = self._consume_token()
            if not index_tok.text[1:].isdigit() or not index_tok.text[1:].isascii():
                self.raise_error("Expected integer as SSA value tuple index", index_tok.span)
            index = int(index_tok.text[1:], 10)
        return _Operand(tok.span, index, tok.text[1:])

    def _parse_op_result_list(self):
        """`%a, %b:2 =` (xDSL's, without its list machinery for the common single result)."""
        st = self._parser_state
        if st.current_token.kind is not _PERCENT:
            return []
        res = [self._parse_op_result()]
        while st.current_token.kind is _COMMA:  # xDSL's parse_list: `,` then another result
            st.current_token = st.lexer.lex()
            res.append(self._parse_op_result())
            st = self._parser_state
        self.parse_punctuation("=", " after operation result list")
        return res

    def _parse_op_result(self):
        st = self._parser_state
        tok = st.current_token
        if tok.kind is not _PERCENT:
            self.raise_error("Expected result SSA value!", tok.span)
        st.current_token = st.lexer.lex()
        if st.current_token.kind is not _COLON:
            return (tok.span, 1)
        st.current_token = st.lexer.lex()
        size = self._parse_token(MLIRTokenKind.INTEGER_LIT, "Expected SSA value tuple size")
        return (tok.span, size.kind.get_int_value(size.span))

    # -------------------------------------------------------------- {-# external_resources: ... #-}
    def _parse_external_resources(self) -> None:
        """`{ key: { name: "string" | true | false | integer, ... }, ... }`, as MLIR writes them."""
        from xdsl.utils.mlir_lexer import MLIRTokenKind

        def value():
            tok = self._current_token
            if tok.kind == MLIRTokenKind.STRING_LIT:
                return self.parse_str_literal()
            if tok.text in ("true", "false"):
                self._consume_token()
                return tok.text == "true"
            if tok.kind == MLIRTokenKind.INTEGER_LIT:
                return self.parse_integer()
            self.raise_error("expected a string, a boolean or an integer")

        def entry(into: dict):
            key = self._parse_token(MLIRTokenKind.BARE_IDENT, "expected a resource key").text
            self._parse_token(MLIRTokenKind.COLON, "expected `:`")
            into[key] = value()

        def group():
            key = self._parse_token(MLIRTokenKind.BARE_IDENT, "expected a resource group key").text
            self._parse_token(MLIRTokenKind.COLON, "expected `:`")
            entries = self.external_resources.setdefault(key, {})
            self.parse_comma_separated_list(self.Delimiter.BRACES, lambda: entry(entries))

        self.parse_comma_separated_list(self.Delimiter.BRACES, group)

    # -------------------------------------------------------------- aliases defined after use
    def _parse_extended_type_or_attribute(self, name: str, is_type: bool):
        alias = ("!" if is_type else "#") + name
        if alias in self._later_aliases and self._current_token.text != "<" and alias not in self.attribute_aliases:
            self._define_later_alias(alias)
        return super()._parse_extended_type_or_attribute(name, is_type)

    def _define_later_alias(self, alias: str):
        """Parse the definition of an alias used before it (MLIR defers location aliases to the end of the
        file), then come back. A definition that does not parse is left for the main parse to report."""
        start = self._later_aliases.pop(alias)
        here = self._current_token.span.start
        try:
            self._resume_from(start)
            self._alias_value(start)
            self._skip_alias_def[start] = self._current_token.span.start
        except ParseError:
            self.attribute_aliases.pop(alias, None)
        self._resume_from(here)

    def _parse_alias_def(self):
        start = self._current_token.span.start
        end = self._skip_alias_def.get(start)
        if end is not None:  # already parsed where it was first used
            self._resume_from(end)
            return
        self._later_aliases.pop(self._current_token.text, None)
        if start not in self._loc_alias_defs:
            return super()._parse_alias_def()
        if self._current_token.text in self.attribute_aliases:
            self.raise_error(f"re-declaration of alias '{self._current_token.text}'")
        self._alias_value(start)

    def _alias_value(self, start: int):
        """`#name = attribute` or `#name = loc(...)` (xDSL's alias definitions take attributes only)."""
        name = self._consume_token().text
        self.parse_punctuation("=", "after attribute alias name")
        self.attribute_aliases[name] = self._loc_value() if start in self._loc_alias_defs else self.parse_attribute()

    def _loc_value(self) -> Attribute:
        loc = self.parse_optional_location()
        if loc is None:
            self.raise_error("expected a location")
        return loc

    def parse_module(self, allow_implicit_module: bool = True):
        from xdsl.dialects.builtin import ModuleOp

        while self._current_token.kind in (MLIRTokenKind.HASH_IDENT, MLIRTokenKind.EXCLAMATION_IDENT):
            self._parse_alias_def()
        if self._current_token.kind == MLIRTokenKind.EOF:  # an empty file, or one of aliases only (a `// -----`
            return ModuleOp([])  # chunk that declares layouts), is an empty module, as in MLIR
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as e:
            if self.forward_ssa_references and e.msg.startswith("values used but not defined"):
                name = next(iter(self.forward_ssa_references))
                span = self._first_use.get(name)
                if span is not None:
                    raise ParseError(span, f"use of undeclared SSA value name '%{name}'") from None
            raise

    def resolve_operand(self, operand, type):
        name = operand.operand_name
        values = self.ssa_values.get(name)
        if values is not None and operand.index < len(values):  # defined before: the common case
            value = values[operand.index]
            if value.type is not type and value.type != type:
                self._conflict(operand, type, value.type, self._defined_at.get(name))
            return value
        if values is None:
            self._first_use.setdefault(name, operand.span)
            forward = self.forward_ssa_references.get(name, {}).get(operand.index)
            if forward is not None and forward.type != type:
                self._conflict(operand, type, forward.type, self._first_use[name])
        elif operand.index < len(values) and values[operand.index].type != type:
            self._conflict(operand, type, values[operand.index].type, self._defined_at.get(name))
        return super().resolve_operand(operand, type)

    def _conflict(self, operand, type, prior_type, prior_span):
        from ttc.ir.attr_printer import attr_text

        raise TypeConflict(
            operand.span,
            f"use of value '%{operand.operand_name}' expects different type than prior uses: "
            f"'{attr_text(type)}' vs '{attr_text(prior_type)}'",
            prior_span,
        )

    def _register_ssa_definition(self, name, values, span):
        self._defined_at.setdefault(name, span)
        super()._register_ssa_definition(name, values, span)

    def _default_loc(self, pos: int):
        """MLIR's location for an op written without `loc(...)`: where it was parsed."""
        line = bisect_right(self._line_starts, pos)
        col = pos - self._line_starts[line - 1] + 1
        return self._file_loc(self.lexer.input.name, line, col)

    def _file_loc(self, file: str, line: int, col: int) -> FileLineColLoc:
        """`loc("file":line:col)`, one attribute per place (ops on one line share it, as in MLIR's context)."""
        loc = self._locs.get((file, line, col))
        if loc is None:  # made as `prebuilt` makes it, without looking up its definition
            loc = self._locs[file, line, col] = _new(FileLineColLoc)
            _set(loc, "filename", self._file_attr(file))
            _set(loc, "line", self._int(line))
            _set(loc, "column", self._int(col))
        return loc

    def _int(self, n: int) -> IntAttr:
        attr = self._ints.get(n)
        if attr is None:  # made without xDSL's check of its data, which is an int (the regex read digits)
            attr = self._ints[n] = _new(IntAttr)
            _set(attr, "data", n)
        return attr

    # -------------------------------------------------------------- operations
    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        results = self._parse_op_result_list()
        tok = self._current_token
        fmt = FORMATS.get(tok.text) if tok.kind is _BARE else None
        if fmt is None:
            if tok.kind is _BARE:
                self._get_op_by_name_at(tok)
                fmt = FORMATS.get(tok.text)  # loading a dialect registers its op formats
        if fmt is None:
            self._resume_from(start)
            op = super().parse_operation()
            self.positions[op] = start
            if self._loc_ended_at != self._current_token.span.start:  # no `loc(...)` was written
                op.location = self._default_loc(start)
            return op
        self._consume_token()
        known = self._op_types.get(tok.text)
        if known is None:
            op_type = self._get_op_by_name(tok.text)
            known = (op_type, op_type.dialect_name())
            if op_type.name == tok.text:  # found by its full name, whatever the dialect stack holds
                self._op_types[tok.text] = known
        op_type, dialect = known
        self._parser_state.dialect_stack.append(dialect)
        op = fmt.parse(op_type, self)
        self._parser_state.dialect_stack.pop()
        if (loc := self.parse_optional_location()) is not None:
            op.location = loc
        else:
            op.location = self._default_loc(start)
        self.positions[op] = start
        n = sum(r[1] for r in results)
        if n and n != len(op.results):
            self.raise_error(f"operation defines {len(op.results)} results but was provided {n} to bind", start)
        i = 0
        for span, size in results:
            self._register_ssa_definition(span.text[1:], op.results[i : i + size], span)
            i += size
        return op

    def _get_op_by_name_at(self, tok):
        """Look an op up by name, reporting an unknown one at its name (as MLIR does)."""
        if self.ctx.get_optional_op(tok.text, dialect_stack=self._parser_state.dialect_stack) is None:
            self.raise_error(f"custom op '{tok.text}' is unknown", tok.span)

    def parse_optional_location(self):
        tok = self._current_token
        loc = None
        if tok.text == "loc" and (m := _SIMPLE_LOC.match(self.lexer.input.content, tok.span.end)) is not None:
            alias, file, line, col = m.groups()
            if alias is None:
                loc = self._file_loc(file, int(line), int(col))
            else:
                if alias in self._later_aliases and alias not in self.attribute_aliases:
                    self._define_later_alias(alias)
                loc = self.attribute_aliases.get(alias)
                if not isinstance(loc, LocationAttr):
                    loc = None  # left to xDSL, to report
            if loc is not None:
                self._resume_from(m.end())
        if loc is None:
            loc = super().parse_optional_location()
        if loc is not None:
            self._loc_ended_at = self._current_token.span.start
        return loc

    def _file_attr(self, name: str) -> StringAttr:
        """The file name of locations, one attribute per file (locations name a few files many times)."""
        attr = self._files.get(name)
        if attr is None:
            attr = self._files[name] = StringAttr(name)
        return attr

    def _peek_percent(self) -> bool:
        """After a `,`: whether the next token is an SSA value (so the comma continues an operand list)."""
        here = self._current_token.span.start
        self._consume_token()
        ok = self._current_token.text.startswith("%")
        self._resume_from(here)
        return ok

    def parse_optional_builtin_int_or_float_attr(self):
        """xDSL's, with the attribute of a spelling seen before in this file taken again (`4 : i32`, `true`):
        attributes are immutable, and xDSL checks each one it makes."""
        start = self._current_token.span.start
        text = self.lexer.input.content
        m = _NUMBER_ATTR.match(text, start)
        if m is not None:
            attr = self._numbers.get(m.group())
            if attr is not None:
                self._resume_from(m.end())
                return attr
        try:
            attr = super().parse_optional_builtin_int_or_float_attr()
        except OverflowError:
            self.raise_error("float constant out of range for type", start)
        if m is not None and attr is not None and not text[m.end() : self._current_token.span.start].strip():
            self._numbers[m.group()] = attr  # it ended where expected
        return attr

    # -------------------------------------------------------------- types, uniqued by their spelling
    def parse_optional_type(self):
        """Types are uniqued, as in MLIR's context: a parametrized type (`tensor<...>`, `!tt.ptr<...>`) spelled
        as before in this file is the type parsed there (a file spells its few types over and over)."""
        tok = self._current_token
        start = tok.span.end
        text = self.lexer.input.content
        if text.startswith("<", start) and (tok.kind is MLIRTokenKind.EXCLAMATION_IDENT or tok.text in _SHAPED):
            end = _angle_end(text, start)
            if end is not None:
                key = text[tok.span.start : end]
                t = self._types.get(key)
                if t is not None:
                    self._resume_from(end)
                    return t
                t = self._tensor_type(tok) if tok.text == "tensor" else None
                if t is None:
                    t = super().parse_optional_type()
                if not text[end : self._current_token.span.start].strip():  # it ended where expected
                    self._types[key] = t
                return t
        elif tok.kind is _BARE:  # `i32`, `f16`, `index`: one token, one type
            t = self._types.get(tok.text)
            if t is not None:
                self._parser_state.current_token = self._parser_state.lexer.lex()
                return t
            t = super().parse_optional_type()
            if t is not None and not text[start : self._current_token.span.start].strip():
                self._types[tok.text] = t
            return t
        return super().parse_optional_type()

    def _tensor_type(self, tok):
        """`tensor<4x64xT>` or `tensor<4x64xT, encoding>` made as xDSL's `_parse_tensor_attrs` makes it (the
        same element type and encoding parses, the same `TensorType(...)`), without its token-by-token reading of
        the dimensions (a `_resume_from` per `x`); anything else (`?`, rank 0, no `>`) is left to xDSL: None."""
        m = _TENSOR_DIMS.match(self.lexer.input.content, tok.span.end)
        if m is None:
            return None
        self._resume_from(m.end())
        element = self.parse_optional_type()
        if element is not None:
            encoding = self.parse_attribute() if self.parse_optional_punctuation(",") is not None else None
            if self._parser_state.current_token.kind is _R_ANGLE:
                self._consume_token()
                shape = [int(d) for d in m.group(1).split("x")[:-1]]
                return TensorType(element, shape) if encoding is None else TensorType(element, shape, encoding)
        self._resume_from(tok.span.start)
        return None

    def parse_optional_function_type(self):
        """`(T, ...) -> T` or `-> (T, ...)`: xDSL's, with one FunctionType per (uniqued) input and output types,
        as MLIR's context uniques them (a file spells its few call signatures many times). Anything irregular is
        re-read by xDSL's, to report it."""
        st = self._parser_state
        if st.current_token.kind is not _L_PAREN:
            return None
        start = st.current_token.span.start
        ins = self._type_list()
        if ins is not None and self._parser_state.current_token.kind is _ARROW:
            self._consume_token()
            if self._parser_state.current_token.kind is _L_PAREN:
                outs = self._type_list()
            else:
                t = self.parse_optional_type()
                outs = None if t is None else [t]
            if outs is not None:
                key = (tuple(map(id, ins)), tuple(map(id, outs)))  # the types are kept alive in the value
                hit = self._functions.get(key)
                if hit is None:
                    hit = self._functions[key] = (ins, outs, FunctionType.from_lists(ins, outs))
                return hit[2]
        self._resume_from(start)
        return super().parse_optional_function_type()

    def _type_list(self):
        """`(T, ...)` from its `(`; None where it is not a well-formed list of types."""
        self._consume_token()
        out = []
        if self.parse_optional_punctuation(")") is not None:
            return out
        while (t := self.parse_optional_type()) is not None:
            out.append(t)
            if self.parse_optional_punctuation(")") is not None:
                return out
            if self.parse_optional_punctuation(",") is None:
                return None
        return None

    # -------------------------------------------------------------- dense literals
    def _parse_dense_literal_type(self):
        """xDSL's check of a dense literal's type, without building its type constraint on every call."""
        type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        if not (isinstance(type, (TensorType, VectorType, MemRefType)) and isinstance(type.element_type, _DENSE_ELEMENT)):
            self.raise_error("Expected memref, vector or tensor type of integer, index, float, or complex type")
        if any(dim == -1 for dim in type.get_shape()):
            self.raise_error("Dense literal attribute should have a static shape.")
        return type

    def parse_dense_int_or_fp_elements_attr(self, type):
        """xDSL's, but a splat is converted once and repeated as bytes, and hexadecimal elements of a float
        type are bit patterns (`dense<0xFF800000> : tensor<4xf32>` is -inf)."""
        start = self._current_token.span.start
        self.parse_punctuation("<", " in dense attribute")
        if self._current_token.text == ">" or self._current_token.text.startswith('"'):
            self._resume_from(start)  # empty, or a hex string: xDSL's forms
            return super().parse_dense_int_or_fp_elements_attr(type)
        elems, shape = self._parse_tensor_literal()
        self.parse_punctuation(">", " in dense attribute")
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()
        et, type_shape = type.element_type, list(type.get_shape())
        count = math.prod(type_shape)
        if isinstance(et, AnyFloat) and any(e.span.text.lower().startswith(("0x", "-0x")) for e in elems):
            return self._hex_float_dense(type, et, elems, shape, count)
        if shape and type_shape != shape:
            self.raise_error(f"Shape mismatch in dense literal. Expected {type_shape} shape from the type, "
                             f"but got {shape} shape.")
        values = [e.to_type(self, et) for e in elems] if count else []
        try:
            return DenseIntOrFPElementsAttr.from_list(type, values)  # one value (a splat) is repeated
        except OverflowError:
            self.raise_error("float constant out of range for type", start)

    def _hex_float_dense(self, type, et, elems, shape, count):
        from ttc.ir.attr_printer import float_bits

        width = 16 if isinstance(et, BFloat16Type) else et.bitwidth
        data = b"".join((int(e.span.text, 16) if e.span.text.lower().startswith("0x") else
                         float_bits(float(e.value), et)[0]).to_bytes(width // 8, "little") for e in elems)
        if not shape and len(elems) == 1:
            data *= count
        if len(data) != count * (width // 8):
            self.raise_error(f"dense literal has {len(elems)} elements, its type needs {count}")
        return DenseIntOrFPElementsAttr(type, BytesAttr(data))


def parse(text: str, filename: str = "<stdin>", verify: bool = True, source=None, resources: dict | None = None,
          allow_unregistered: bool = False) -> ModuleOp:
    """Parse (and verify) one module of textual IR; errors raise `ttc.ir.diagnostics.CompileError`.
    `allow_unregistered` reads ops of unknown dialects in the generic form (`"use"(%x) : (i32) -> ()`).
    `source` (a `ttc.ir.diagnostics.Source`) collects where each op was parsed, for later diagnostics;
    `resources` receives the file's `{-# external_resources: ... #-}` groups."""
    from xdsl.utils.exceptions import ParseError

    from ttc.ir.diagnostics import CompileError, Source, at_position
    from ttc.ir.parser import TTParser

    source = source or Source.of(filename, text)
    try:
        with building():
            parser = TTParser(context(allow_unregistered), text, filename, source.positions)
            module = parser.parse_module()
        if resources is not None:
            resources.update(parser.external_resources)
    except ParseError as e:
        from ttc.ir.parser import TypeConflict

        msg = e.msg
        if msg.startswith("Operation ") and msg.endswith(" is not registered"):
            msg = f"custom op '{msg[len('Operation '):-len(' is not registered')]}' is unknown"
        elif msg == "Operation builtin.unregistered does not have a custom format.":  # -allow-unregistered-dialect
            import re

            names = re.findall(r"[A-Za-z_][\w$.]*", text[max(0, e.span.start - 200) : e.span.start])
            msg = f"custom op '{names[-1] if names else '?'}' is unknown"
        elif msg.strip() == "in block definition":  # xDSL's message when neither an op nor '}' follows an op
            msg = "expected an operation or '}'"
        diags = _end_of_file(filename, text, e.span.start, msg) or [at_position(filename, text, e.span.start, msg)]
        if isinstance(e, TypeConflict) and e.prior is not None:
            diags.append(at_position(filename, text, e.prior.start, "prior use here", "note"))
        raise CompileError(*diags) from None
    if verify:
        verify_module(module, source)
    return module


def _end_of_file(filename: str, text: str, pos: int, msg: str):
    """A parse error at the end of the input (a truncated file): said so at the end of the last line with text,
    with the parser's message, or, where the input ends between two ops, naming the innermost '{' left open (with
    a note there). None for an error before the end."""
    import re

    from ttc.ir.diagnostics import at_position

    if not re.fullmatch(r"(?:\s|//[^\n]*)*", text[pos:]):
        return None
    end = len(re.sub(r"(?:\s|//[^\n]*)*\Z", "", text[:pos]))
    opened = []  # offsets of the '{' not closed yet, skipping strings and comments
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}]', text[:end]):
        if m.group() == "{":
            opened.append(m.start())
        elif m.group() == "}" and opened:
            opened.pop()
    detail = msg.strip()
    if not opened or detail != "expected an operation or '}'":  # not between two ops: the parser's own message
        return [at_position(filename, text, end, "unexpected end of file" + (f": {detail}" if detail else ""))]
    from ttc.ir.diagnostics import line_col

    line, col = line_col(text, opened[-1])
    return [at_position(filename, text, end, f"unexpected end of file: expected '}}' to close the '{{' at {line}:{col}"),
            at_position(filename, text, opened[-1], "the '{' opened here", "note")]
