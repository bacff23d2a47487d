"""The pass registry: one module per pass in this package, imported only when the pass is used.

Add a pass by writing `passes/<module>.py` with a `ttc.passmanager.Pass` subclass and listing it here.
"""

from __future__ import annotations

import importlib

REGISTRY: dict[str, str] = {
    "cse": "cse:CSE",
    "dce": "dce:DeadCodeElimination",
    "inline": "inline:Inliner",
    "loop-invariant-code-motion": "licm:LoopInvariantCodeMotion",
    "symbol-dce": "symbol_dce:SymbolDCE",
}


def get_pass(name: str):
    entry = REGISTRY.get(name)
    if entry is None:
        return None
    module, cls = entry.split(":")
    return getattr(importlib.import_module(f"ttc.passes.{module}"), cls)


def all_passes():
    return [get_pass(n) for n in sorted(REGISTRY)]
