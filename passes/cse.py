"""cse: eliminate common sub-expressions (MLIR's `-cse`).

Two ops are the same expression when they have the same name, operands, result types, properties and
attributes, and no memory effects (Pure) or only reads with no write in between; the later one is replaced
by the earlier one when the earlier one dominates it. xDSL's driver does the work (through `ttc.opt.cse`, which
hashes each op's key once), driven by the traits our ops declare.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttc.opt.cse import cse

from ttc.opt.passmanager import Pass


@dataclass(frozen=True)
class CSE(Pass):
    """Eliminate common sub-expressions."""

    name = "cse"
    display = "CSE"
    summary = "Eliminate common sub-expressions"

    def apply(self, ctx, op) -> bool:
        """False when the IR is left as it was (the pass manager then skips the verifier)."""
        return cse(op)
