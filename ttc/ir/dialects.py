"""The dialects ttc reads, each loaded when the parser first meets one of its names (so a TTIR file never
loads ttg, llvm or math); the xDSL context holding them, one per process; `building()`, which pauses Python's
cycle collector while a module is built; and `prebuilt(cls, *params)`, an attribute made from parameters that are
valid by construction (the locations of ops)."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from functools import lru_cache

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin

from ttc.ir.format import register

# The builtin op with a custom form (MLIR's): registered here, as builtin is the one dialect always loaded.
register("builtin.unrealized_conversion_cast", "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict")


def _dialect(module: str, name: str):
    """A loader for the context: the dialect `name` of `ttc.ir.<module>`, imported when first needed."""

    def load():
        import importlib

        return getattr(importlib.import_module(f"ttc.ir.{module}"), name)

    return load


# Every dialect ttc reads, by name: the parser imports a dialect's module (its ops, attributes and syntax) when
# it first meets one of its names, so a TTIR file never loads ttg, llvm or math.
DIALECTS = {
    "arith": _dialect("std", "ARITH"), "math": _dialect("std", "MATH"), "scf": _dialect("std", "SCF"),
    "cf": _dialect("std", "CF"), "ub": _dialect("std", "UB"), "tt": _dialect("tt", "TT"), "ttg": _dialect("ttg", "TTG"),
    "ttng": _dialect("ttg", "TTNG"), "nvws": _dialect("nvws", "NVWS"), "gpu": _dialect("gpu", "GPU"),
    "llvm": _dialect("llvm", "LLVM"), "tti": _dialect("tti", "TTI"),
}


@lru_cache(maxsize=2)
def context(allow_unregistered: bool = False) -> Context:
    """The dialects ttc knows, one context per process (and per `allow_unregistered`); each dialect is loaded
    when the parser first meets it. With `allow_unregistered` (mlir-opt's -allow-unregistered-dialect), ops of
    other dialects are read as opaque ops (xDSL's UnregisteredOp: generic form, unknown effects)."""
    ctx = Context(allow_unregistered=allow_unregistered)
    ctx.load_dialect(Builtin)
    for name, load in DIALECTS.items():
        ctx.register_dialect(name, load)
    return ctx


@contextmanager
def building():
    """Build a module without Python's cycle collector: everything a parser or code generator allocates stays
    alive in the module, so the collector's passes, each over the whole (growing) heap, would free nothing and
    make building superlinear in the module's size. Cycles left over are collected later, as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_PARAMETER_NAMES: dict[type, tuple[str, ...]] = {}  # class -> its parameters' names, from its definition


def prebuilt(cls, *params):
    """An attribute of class `cls` (a ParametrizedAttribute) from its parameters, which the caller knows are
    valid (an op's file, line and column): without xDSL's check of each parameter against the definition,
    which costs more than the rest of making a location, and with the definition's parameter names looked up
    once per class (the inliner makes a `CallSiteLoc` per op and inlining level)."""
    names = _PARAMETER_NAMES.get(cls)
    if names is None:
        names = _PARAMETER_NAMES[cls] = tuple(name for name, _ in cls.get_irdl_definition().parameters)
    attr = cls.__new__(cls)
    for name, param in zip(names, params, strict=True):
        object.__setattr__(attr, name, param)
    return attr
