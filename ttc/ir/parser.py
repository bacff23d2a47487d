"""Parse Triton's textual IR (as Triton dumps it) on top of xDSL's parser.

What this adds to xDSL's parser: ops in the custom syntax registered in `ttc.ir.format`; `#loc` aliases that
are defined after their use (Triton prints them at the end of the file); hexadecimal float elements in dense
literals (`dense<0xFF800000> : tensor<4xf32>` is -inf, not 4.29e9); the `external_resources` of a file's
`{-# ... #-}` metadata (where MLIR's reproducers keep their pipeline), kept in `external_resources`.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import AnyFloat, BFloat16Type, BytesAttr, DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from ttc.ir.format import FORMATS

_ALIAS_DEF = re.compile(r"^(#[A-Za-z_][\w$.-]*)\s*=", re.M)


class TypeConflict(ParseError):
    """A value used with a type other than its definition's: MLIR's error plus a note at the prior use."""

    def __init__(self, span, msg: str, prior):
        super().__init__(span, msg)
        self.prior = prior


class TTParser(Parser):
    def __init__(self, ctx, text: str, name: str = "<stdin>", positions: dict | None = None):
        super().__init__(ctx, text, name)
        self.positions = positions if positions is not None else {}  # op -> offset where it was parsed
        self._first_use: dict[str, object] = {}  # value name -> span of its first use (for undefined values)
        self._defined_at: dict[str, object] = {}  # value name -> span of its definition
        self._loc_ended_at = -1
        self._line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        self._predefined: set[str] = set()
        self.external_resources: dict[str, dict[str, object]] = {}  # {-# external_resources: {key: {k: v}} #-}
        self._preload_aliases(text)

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
    def _preload_aliases(self, text: str):
        """Parse the top-level `#name = ...` alias definitions first, in dependency order, so that uses
        before the definition resolve (MLIR defers location aliases to the end of the file)."""
        pending = [m for m in _ALIAS_DEF.finditer(text)]
        if not pending:
            return
        here = self._current_token.span.start
        progress = True
        while pending and progress:
            progress = False
            for m in list(pending):
                try:
                    self._resume_from(m.end())
                    value = self.parse_attribute() if not text[m.end() :].lstrip().startswith("loc(") else self._loc_value()
                except Exception:
                    continue
                self.attribute_aliases[m.group(1)] = value
                self._predefined.add(m.group(1))
                pending.remove(m)
                progress = True
        for m in pending:  # left for the main parse to report
            self.attribute_aliases.pop(m.group(1), None)
        self._resume_from(here)

    def _loc_value(self) -> Attribute:
        loc = self.parse_optional_location()
        if loc is None:
            self.raise_error("expected a location")
        return loc

    def _parse_alias_def(self):
        name = self._current_token.text
        if name in self._predefined:
            self._consume_token()
            self.parse_punctuation("=")
            if self._current_token.text == "loc":
                self._loc_value()
            else:
                self.parse_attribute()
            return
        super()._parse_alias_def()

    def parse_module(self, allow_implicit_module: bool = True):
        from xdsl.dialects.builtin import ModuleOp
        from xdsl.utils.exceptions import ParseError

        if self._current_token.kind.name == "EOF":  # an empty file is an empty module, as in MLIR
            return ModuleOp([])
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
        if values is None:
            self._first_use.setdefault(name, operand.span)
            forward = self.forward_ssa_references.get(name, {}).get(operand.index)
            if forward is not None and forward.type != type:
                self._conflict(operand, type, forward.type, self._first_use[name])
        elif operand.index < len(values) and values[operand.index].type != type:
            self._conflict(operand, type, values[operand.index].type, self._defined_at.get(name))
        return super().resolve_operand(operand, type)

    def _conflict(self, operand, type, prior_type, prior_span):
        from ttc.ir.printer import attr_text

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
        import bisect

        from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr

        line = bisect.bisect_right(self._line_starts, pos)
        col = pos - self._line_starts[line - 1] + 1
        return FileLineColLoc(StringAttr(self.lexer.input.name), IntAttr(line), IntAttr(col))

    # -------------------------------------------------------------- operations
    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        results = self._parse_op_result_list()
        tok = self._current_token
        fmt = FORMATS.get(tok.text) if tok.kind.name == "BARE_IDENT" else None
        if fmt is None:
            if tok.kind.name == "BARE_IDENT":
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
        op_type = self._get_op_by_name(tok.text)
        self._parser_state.dialect_stack.append(op_type.dialect_name())
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
        loc = super().parse_optional_location()
        if loc is not None:
            self._loc_ended_at = self._current_token.span.start
        return loc

    def _peek_percent(self) -> bool:
        """After a `,`: whether the next token is an SSA value (so the comma continues an operand list)."""
        here = self._current_token.span.start
        self._consume_token()
        ok = self._current_token.text.startswith("%")
        self._resume_from(here)
        return ok

    def parse_optional_builtin_int_or_float_attr(self):
        start = self._current_token.span.start
        try:
            return super().parse_optional_builtin_int_or_float_attr()
        except OverflowError:
            self.raise_error("float constant out of range for type", start)

    # -------------------------------------------------------------- dense literals with hex floats
    def parse_dense_int_or_fp_elements_attr(self, type):
        start = self._current_token.span.start
        hexed = self._try_hex_float_dense(type)
        if hexed is not None:
            return hexed
        self._resume_from(start)
        try:
            return super().parse_dense_int_or_fp_elements_attr(type)
        except OverflowError:
            self.raise_error("float constant out of range for type", start)

    def _try_hex_float_dense(self, type):
        if self.parse_optional_punctuation("<") is None:
            return None
        elems: list[str] = []
        nested = self._current_token.text == "["
        if not self._literal(elems):
            return None
        if self.parse_optional_punctuation(">") is None:
            return None
        if not any(e.lower().startswith(("0x", "-0x")) for e in elems):
            return None
        if type is None:
            if self.parse_optional_punctuation(":") is None:
                return None
            type = self._parse_dense_literal_type()
        et = type.element_type
        if not isinstance(et, AnyFloat):
            return None
        from ttc.ir.printer import float_bits

        width = 16 if isinstance(et, BFloat16Type) else et.bitwidth
        data = b""
        for e in elems:
            if e.lower().startswith("0x"):
                bits = int(e, 16)
            else:
                bits = float_bits(float(e), et)[0]
            data += bits.to_bytes(width // 8, "little")
        count = 1
        for d in type.get_shape():
            count *= d
        if not nested and len(elems) == 1:
            data *= count
        if len(data) != count * (width // 8):
            self.raise_error(f"dense literal has {len(elems)} elements, its type needs {count}")
        return DenseIntOrFPElementsAttr(type, BytesAttr(data))

    def _literal(self, out: list[str]) -> bool:
        if self.parse_optional_punctuation("["):
            if self.parse_optional_punctuation("]"):
                return True
            while True:
                if not self._literal(out):
                    return False
                if self.parse_optional_punctuation("]"):
                    return True
                if self.parse_optional_punctuation(",") is None:
                    return False
        neg = "-" if self.parse_optional_punctuation("-") else ""
        tok = self._current_token
        if tok.kind.name in ("INTEGER_LIT", "FLOAT_LIT"):
            self._consume_token()
            out.append(neg + tok.text)
            return True
        return False
