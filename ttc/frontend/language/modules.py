"""The modules a kernel file can import, by name: `triton`, `triton.language` (with `tl.math` and the standard
library), `ttc` and `ttc.language` (the same language under ttc's name), and the modules ttc's own
kernel-language sources use. The standard library (`standard.py`) is read on first use.
"""

from __future__ import annotations

import functools
from pathlib import Path

from ttc.frontend.jit import jit
from ttc.frontend.language.compile_time import COMPILE_TIME_FUNCTIONS
from ttc.frontend.language.core import CORE_MEMBERS
from ttc.frontend.language.math import MATH_FUNCTIONS
from ttc.frontend.language.namespace import Namespace

STANDARD_MODULE_NAME = "triton.language.standard"
LIBRARY_PATH = "ttc/frontend/language/standard.py"
# the functions of the standard library that `triton.language` exports
STANDARD_EXPORTS = (
    "cdiv", "sigmoid", "softmax", "ravel", "swizzle2d", "zeros", "zeros_like", "max", "argmax", "min", "argmin",
    "sum", "xor_sum", "reduce_or", "cumsum", "cumprod", "sort", "topk", "bitonic_merge", "flip", "interleave",
)


@functools.lru_cache(maxsize=1)
def standard_library():
    from ttc.frontend.source import SourceModule

    path = Path(__file__).with_name("standard.py")
    # named by its place in the package, so that locations do not depend on where ttc is installed
    return SourceModule(LIBRARY_PATH, path.read_text(encoding="utf-8"), STANDARD_MODULE_NAME, library=True)


def standard_function(name: str):
    if name not in STANDARD_EXPORTS:
        return None
    return standard_library().functions[name]


CORE = Namespace("triton.language.core", CORE_MEMBERS)
MATH = Namespace("triton.language.math", MATH_FUNCTIONS)
LANGUAGE = Namespace("triton.language", {**CORE_MEMBERS, **MATH_FUNCTIONS, "math": MATH}, lazy=standard_function)
TRITON = Namespace("triton", {"jit": jit, "language": LANGUAGE})
TTC = Namespace("ttc", {"jit": jit, "language": LANGUAGE})

_MODULES = {
    "triton": TRITON,
    "triton.language": LANGUAGE,
    "triton.language.math": MATH,
    "triton.language.core": CORE,
    "ttc": TTC,
    "ttc.language": LANGUAGE,
    # what ttc's standard library (standard.py) imports
    "ttc.frontend.jit": Namespace("ttc.frontend.jit", {"jit": jit}),
    "ttc.frontend.language": Namespace("ttc.frontend.language", {"core": CORE, "math": MATH}),
    "ttc.frontend.language.compile_time": Namespace(
        "ttc.frontend.language.compile_time",
        {name.lstrip("_"): f for name, f in COMPILE_TIME_FUNCTIONS.items()},
    ),
}


def resolve_module(name: str) -> Namespace | None:
    return _MODULES.get(name)
