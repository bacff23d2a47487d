"""test-print-alias: report, as remarks, the `ttg.local_alloc` buffers each memory descriptor may view
(triton-opt's TestAliasPass, over `ttc.analysis.alias`).

Ops are visited in pre-order. An op with results gets `%name -> %alloc1,%alloc2` for every result that may
view a buffer (names as the printer numbers values in the module, sorted as strings); an `scf.for` first gets
one for each region iteration argument, naming the buffers of the value it starts from. A `cf.br` /
`cf.cond_br` gets one for each argument of its own block.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttc.analysis import remark
from ttc.analysis.alias import aliases
from ttc.ir.printer import _Names
from ttc.opt.passmanager import Pass


@dataclass(frozen=True)
class TestPrintAlias(Pass):
    """Print the result of the alias analysis."""

    name = "test-print-alias"
    display = "TestAliasPass"
    summary = "print the result of the alias analysis pass"

    def apply(self, ctx, module) -> None:
        names = _Names(module, False, False).values
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            facts = aliases(func)

            def report(op, value, source):
                allocs = sorted("%" + names[a] for a in facts.get(source, ()))
                if allocs:
                    remark(op, f"%{names[value]} -> {','.join(allocs)}")

            for op in func.walk():
                if not op.results:
                    if op.name in ("cf.br", "cf.cond_br"):
                        for arg in op.parent_block().args:
                            report(op, arg, arg)
                    continue
                if op.name == "scf.for":
                    for arg, init in zip(op.body.blocks.first.args[1:], op.operands[3:]):
                        report(op, arg, init)
                for r in op.results:
                    report(op, r, r)
