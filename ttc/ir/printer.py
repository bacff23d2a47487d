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

import re

from xdsl.dialects.builtin import (
    UnregisteredOp,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from xdsl.traits import IsTerminator

from ttc.ir.format import FORMATS

from ttc.ir.attr_printer import _LOCATION_CLASSES, AttrPrinter, _alias_base, _alias_children, quote, type_name


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
        self._deferrable: dict[Attribute, bool] = {}  # the recorded attributes, whether deferred (after print)
        self._dfr: dict[int, bool] = {}  # the same, by the id of the canonical attribute, while printing
        # id -> (the attribute, held so that the id stays its; whether it is known not deferrable)
        self._seen_ids: dict[int, tuple[Attribute, bool]] = {}
        self._order: list[Attribute] = []
        self._canon_ids: dict[int, tuple[Attribute, Attribute]] = {}  # id -> (the attribute, its canonical one)
        self._by_value: dict[object, Attribute] = {}  # an attribute's value key -> its canonical attribute
        self._alias_names: dict[int, str] = {}  # id of a canonical attribute -> its alias
        self._indented: dict[int, _Indented] = {}  # what formats see, per indentation

    def print(self, op: Operation) -> str:
        self.names = _Names(op, self.generic, self.name_locs)
        # dry run: find the attributes that get aliases, in MLIR's visiting order
        self.aliases = {}
        self._visiting_deferrable = True
        self.visit = self._record
        self.op(op, 0)
        self.visit = None
        self._type_texts.clear()  # printed in the dry run, with no aliases
        self._assign_aliases()
        body = self.op(op, 0)
        top = [a for a in self._sorted if not self._dfr[id(a)]]
        bottom = [a for a in self._sorted if self._dfr[id(a)]]
        names = self._alias_names
        head = "".join(f"{names[id(a)]} = {self._alias_def(a)}\n" for a in top)
        tail = "".join(f"{names[id(a)]} = {self._alias_def(a)}\n" for a in bottom)
        return head + body + "\n" + tail

    def _alias_def(self, a: Attribute) -> str:
        saved = self._alias_names.pop(id(a))
        self._alias_ids.pop(id(a), None)
        try:
            return self.attr(a)
        finally:
            self._alias_names[id(a)] = saved
            self._alias_ids.pop(id(a), None)

    def _alias_of(self, a: Attribute) -> str | None:
        return self._alias_names.get(id(self._canon(a)))

    def _canon(self, a: Attribute) -> Attribute:
        """The first attribute met equal to `a`. Attributes are hash-consed by identity: a location's key names
        its nested locations by their canonical attribute, so each object is hashed once and shallowly (xDSL's
        hash and equality of an attribute walk all of it, and inlined call-site locations are deep)."""
        hit = self._canon_ids.get(id(a))
        if hit is not None and hit[0] is a:
            return hit[1]
        t = type(a)
        if t is CallSiteLoc:
            key = (t, id(self._canon(a.callee)), id(self._canon(a.caller)))
        elif t is NameLoc:
            key = (t, a.desc, id(self._canon(a.location)))
        elif t is FileLineColLoc:
            key = (t, a.filename, a.line, a.column)
        elif t is FusedLoc:
            key = (t, tuple(id(self._canon(x)) for x in a.locations.data), a.metadata)
        else:
            key = a
        c = self._by_value.setdefault(key, a)
        self._canon_ids[id(a)] = (a, c)
        return c

    def _record(self, a: Attribute) -> bool:
        """Record a use of `a`; True when `a` was recorded before (so were the attributes nested in it: the
        dry run need not visit them again, and `_assign_aliases` spreads non-deferrability down)."""
        # only locations are deferred to the end of the file; other aliases are defined up front
        deferrable = self._visiting_deferrable and type(a) in _LOCATION_CLASSES
        # the common case, this very object seen again where nothing changes
        hit = self._seen_ids.get(id(a))
        if hit is not None and hit[0] is a and (deferrable or hit[1]):
            return True
        dfr = self._dfr
        c = self._canon(a)
        old = dfr.get(id(c))
        if old is None:
            dfr[id(c)] = deferrable
            self._order.append(c)
        elif old and not deferrable:
            dfr[id(c)] = False
        if hit is None or hit[0] is a:  # (a, known not deferrable)
            self._seen_ids[id(a)] = (a, not deferrable or (hit is not None and hit[1]))
        if not deferrable:
            for k in _alias_children(a):
                k = id(self._canon(k))
                if k in dfr:
                    dfr[k] = False
        return old is not None

    def _recorded_children(self, a: Attribute) -> list[Attribute]:
        return [c for c in map(self._canon, _alias_children(a)) if id(c) in self._dfr]

    def _assign_aliases(self):
        dfr, order = self._dfr, self._order
        depth: dict[int, int] = {}

        def d(a):
            v = depth.get(id(a))
            if v is None:
                kids = self._recorded_children(a)
                v = depth[id(a)] = 1 + max(d(c) for c in kids) if kids else 0
            return v

        # non-deferrable attributes make their nested aliases non-deferrable too
        changed = True
        while changed:
            changed = False
            for a in order:
                if not dfr[id(a)]:
                    for c in self._recorded_children(a):
                        if dfr[id(c)]:
                            dfr[id(c)] = False
                            changed = True
        index = {id(a): i for i, a in enumerate(order)}
        self._sorted = sorted(order, key=lambda a: (d(a), _alias_base(a), index[id(a)]))
        counts: dict[str, int] = {}
        names = self._alias_names
        for a in self._sorted:
            base = _alias_base(a)
            n = counts.get(base, 0)
            counts[base] = n + 1
            names[id(a)] = f"#{base}{n if n else ''}"
        # by value, for whoever reads them after printing (ttc.opt.source_map)
        self.aliases = {a: names[id(a)] for a in self._sorted}
        self._deferrable = {a: dfr[id(a)] for a in order}

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
            p = self._indented.get(indent)
            if p is None:
                p = self._indented[indent] = _Indented(self, indent)
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
        value = getattr(self._p, name)
        if callable(value) and name not in vars(self._p):  # the printer's methods (not `visit`) kept
            setattr(self, name, value)
        return value


def print_ir(op: Operation, debuginfo: bool = False, generic: bool = False, name_locs: bool = False) -> str:
    return Printer(debuginfo, generic, name_locs).print(op)
