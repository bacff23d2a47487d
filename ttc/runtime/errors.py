"""The errors of a run, before they are given a place: `Fault` (the kernel did something wrong while it ran,
e.g. an out-of-bounds load; the interpreter adds the op's location), `SpecError` (the launch spec is wrong;
reported against the spec file), `Unsupported` (an op or type the interpreter does not execute) and `NeedsScalar`
(a combine region must run one element at a time)."""

from __future__ import annotations


class Fault(Exception):
    """A run-time error of the kernel; the interpreter reports it at the op that raised it."""


class Unsupported(Fault):
    """An op, type or attribute value the interpreter cannot execute."""


class SpecError(Exception):
    """A wrong launch spec: `where` is the JSON path of the culprit ('args[2].type'), or '' for the whole file."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(message)
        self.where = where
        self.message = message


class NeedsScalar(Exception):
    """Control flow met a per-element condition while a combine region ran on whole slices; the reduce or scan
    running it falls back to one element at a time."""
