"""The modules a kernel file can import, by name: `triton`, `triton.language` (with `tl.math` and the standard
library), `ttc` and `ttc.language` (the same language under ttc's name), and the modules ttc's own
kernel-language sources use. The standard library (`standard.py`) is read on first use.
"""

from __future__ import annotations

import functools
from pathlib import Path

from ttc.frontend.jit import jit
from ttc.frontend.source import SourceModule
from ttc.frontend.language.compile_time import COMPILE_TIME_FUNCTIONS
from ttc.frontend.language.core import CORE_MEMBERS
from ttc.frontend.language.cuda import CUDA, EXTRA
from ttc.frontend.language.libdevice import LIBDEVICE
from ttc.frontend.language.math import MATH_FUNCTIONS
from ttc.frontend.language.namespace import Namespace

STANDARD_MODULE_NAME = "triton.language.standard"
LIBRARY_PATH = "ttc/frontend/language/standard.py"
# the functions of the standard library that `triton.language` exports
STANDARD_EXPORTS = (
    "cdiv", "sigmoid", "softmax", "ravel", "swizzle2d", "zeros", "zeros_like", "max", "argmax", "min", "argmin",
    "sum", "xor_sum", "reduce_or", "cumsum", "cumprod", "sort", "topk", "bitonic_merge", "flip", "interleave",
)
RANDOM_MODULE_NAME = "triton.language.random"
RANDOM_LIBRARY_PATH = "ttc/frontend/language/random.py"
RANDOM_EXPORTS = (
    "pair_uniform_to_normal", "philox", "philox_impl", "rand", "rand4x", "randint", "randint4x", "randn", "randn4x",
    "uint_to_uniform_float",
)


def _read_library(path: str, module_name: str):
    # named by its place in the package, so that locations do not depend on where ttc is installed
    text = Path(__file__).with_name(Path(path).name).read_text(encoding="utf-8")
    return SourceModule(path, text, module_name, resolve_module, library=True)


@functools.lru_cache(maxsize=1)
def standard_library():
    return _read_library(LIBRARY_PATH, STANDARD_MODULE_NAME)


@functools.lru_cache(maxsize=1)
def random_library():
    return _read_library(RANDOM_LIBRARY_PATH, RANDOM_MODULE_NAME)


def standard_function(name: str):
    if name not in STANDARD_EXPORTS:
        return None
    return standard_library().functions[name]


def language_function(name: str):
    """A `triton.language` member written in the kernel language: the standard library's or random's."""
    if name in RANDOM_EXPORTS:
        return random_library().functions[name]
    return standard_function(name)


CORE = Namespace("triton.language.core", CORE_MEMBERS)
MATH = Namespace("triton.language.math", MATH_FUNCTIONS)
RANDOM = Namespace(RANDOM_MODULE_NAME, lazy=lambda name: random_library().functions.get(name))
LANGUAGE = Namespace("triton.language",
                     {**CORE_MEMBERS, **MATH_FUNCTIONS, "math": MATH, "random": RANDOM, "extra": EXTRA},
                     lazy=language_function)
TRITON = Namespace("triton", {"jit": jit, "language": LANGUAGE})
TTC = Namespace("ttc", {"jit": jit, "language": LANGUAGE})

_MODULES = {
    "triton": TRITON,
    "triton.language": LANGUAGE,
    "triton.language.math": MATH,
    "triton.language.core": CORE,
    "triton.language.extra": EXTRA,
    "triton.language.extra.cuda": CUDA,
    "triton.language.extra.libdevice": LIBDEVICE,
    "triton.language.extra.cuda.libdevice": LIBDEVICE,
    "triton.language.random": RANDOM,
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
