"""Names of specialized helper functions, spelled as Triton spells them:
`<module>.<function>__<argument types>__<constexpr arguments>`, e.g.
`triton.language.standard.sum__fp32S256S__(1,)cconstexpr_0__(2,)cconstexpr_False__(3,)cNone`.

Argument types are the mangled types of the tensor arguments (`fp32S256S` is a 256-element fp32 block,
`Pfp16` a pointer); constexpr arguments are listed by their position path in the argument list (tuples
nest), with `.`, `'`, `[` and `]` made identifier-friendly.
"""

from __future__ import annotations


def mangle(full_name: str, arg_types: list, constants: dict) -> str:
    types = "_".join(t.mangle() for t in arg_types)
    consts = "_".join(f"{path}c{constants[path]!r}" for path in sorted(constants))
    consts = consts.replace(".", "_d_").replace("'", "_sq_").replace("[", "_").replace("]", "_")
    return f"{full_name}__{types}__{consts}"
