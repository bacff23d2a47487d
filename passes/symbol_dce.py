"""symbol-dce: delete private symbols nothing live refers to (MLIR's `-symbol-dce`).

In each symbol table (the module, and symbol tables nested in it) the roots are the ops that are not
symbols and the symbols that are not private (public or nested visibility). Every symbol reference held by
a live op, in its attributes or properties or those of the ops nested in it (a `tt.call`'s callee, say),
makes the referenced symbol live, and its own references are followed in turn. Private symbols that are
never reached are erased: a private `tt.func` only called from another dead private function goes with it.
References are resolved from the symbol table that holds the referring symbol, nested references
(`@a::@b`) through each table on the way; references to unknown symbols are ignored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.traits import SymbolOpInterface, SymbolTable

from ttc.opt.passmanager import Pass


def symbol_name(op: Operation) -> StringAttr | None:
    """The symbol `op` defines, or None when it defines none."""
    trait = op.get_trait(SymbolOpInterface)
    return trait.get_sym_attr_name(op) if trait is not None else None


def is_private(op: Operation) -> bool:
    visibility = op.get_attr_or_prop("sym_visibility")
    return isinstance(visibility, StringAttr) and visibility.data == "private"


def _refs_in(attr: Attribute) -> Iterator[SymbolRefAttr]:
    if isinstance(attr, SymbolRefAttr):
        yield attr
    elif isinstance(attr, ArrayAttr):
        for a in attr.data:
            yield from _refs_in(a)
    elif isinstance(attr, DictionaryAttr):
        for a in attr.data.values():
            yield from _refs_in(a)
    elif isinstance(attr, ParametrizedAttribute):
        for a in attr.parameters:
            yield from _refs_in(a)


def symbol_uses(op: Operation) -> Iterator[SymbolRefAttr]:
    """The symbol references held by `op` and the ops nested in it, not looking inside nested symbol
    tables (their references are resolved in their own scope)."""
    for attr in (*op.attributes.values(), *op.properties.values()):
        yield from _refs_in(attr)
    if op.has_trait(SymbolTable):
        return
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                yield from symbol_uses(child)


def _resolve(table: Operation, ref: SymbolRefAttr) -> list[Operation]:
    """The symbols `ref` names from `table`, one per nesting level; [] when any level is missing."""
    found = []
    names = [ref.root_reference, *ref.nested_references.data]
    for name in names:
        if not table.has_trait(SymbolTable) or not table.regions or not table.regions[0].blocks:
            return []
        match = next((o for o in table.regions[0].blocks.first.ops if symbol_name(o) == name), None)
        if match is None:
            return []
        found.append(match)
        table = match
    return found


def live_symbols(table: Operation, live: set[Operation], tables: list[Operation]) -> None:
    """Mark the symbols live in `table` (and in the symbol tables it holds), appending each table visited
    to `tables`."""
    tables.append(table)
    worklist: list[Operation] = []
    for block in table.regions[0].blocks:
        for op in block.ops:
            if symbol_name(op) is None:
                worklist.append(op)
            elif not is_private(op) and op not in live:
                live.add(op)
                worklist.append(op)
    while worklist:
        op = worklist.pop()
        if op.has_trait(SymbolTable) and op.regions and op.regions[0].blocks:
            live_symbols(op, live, tables)
        scope = op.parent_op()
        if scope is None:
            continue
        for ref in symbol_uses(op):
            for symbol in _resolve(scope, ref):
                if symbol not in live:
                    live.add(symbol)
                    worklist.append(symbol)


def eliminate_dead_symbols(root: Operation) -> int:
    """Erase the private symbols under the symbol table `root` that nothing live uses; returns how many."""
    if not root.has_trait(SymbolTable):
        return 0
    live: set[Operation] = set()
    tables: list[Operation] = []
    live_symbols(root, live, tables)
    erased = 0
    for table in tables:
        for block in table.regions[0].blocks:
            for op in list(block.ops):
                if symbol_name(op) is not None and op not in live:
                    block.erase_op(op)
                    erased += 1
    return erased


@dataclass(frozen=True)
class SymbolDCE(Pass):
    """Eliminate dead symbols."""

    name = "symbol-dce"
    display = "SymbolDCE"
    summary = "Eliminate dead symbols"

    def apply(self, ctx, op) -> None:
        eliminate_dead_symbols(op)
