"""What the code generators of one compilation share: the module being built, the options, the return types
of the helper functions already generated, the functions being generated (to reject recursion) and the
sources that went into the module (for its hash)."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp

from ttc.frontend.options import Options


@dataclass
class Compilation:
    module: ModuleOp
    options: Options
    return_types: dict = field(default_factory=dict)  # function name -> language return type (None: void)
    functions: dict = field(default_factory=dict)  # function name -> tt.func op
    callees: dict = field(default_factory=dict)  # function name -> the SymbolRefAttr its calls hold
    in_progress: set = field(default_factory=set)
    sources: list = field(default_factory=list)  # (module name, function name, source text) in first-use order

    def record_source(self, fn) -> None:
        key = (fn.module.name, fn.name, fn.source_text())
        if key not in self.sources:
            self.sources.append(key)
