"""Interpreter handlers for structured control flow and calls: `scf.for`, `scf.if`, `scf.while`,
`scf.execute_region` and `tt.call` (branches and returns are run by the interpreter's region walker).

Conditions must be scalars; a condition that is an array (a combine region run on whole slices) raises
`NeedsScalar`, and the reduce or scan retries one element at a time. `scf.for` compares its induction
variable as a signed integer of its type, as MLIR does.

An `scf.while` whose iteration changed neither memory nor the loop's values would repeat that iteration
forever (a program runs deterministically, alone): it is an error. That is what a spin lock does when it waits
for a lock no program will release, since programs run one after another: a lock a program takes is released
(or never will be) before the next one starts.
"""

from __future__ import annotations

import numpy as np

from ttc.runtime.dtypes import value_dtype
from ttc.runtime.errors import Fault
from ttc.runtime.errors import NeedsScalar
from ttc.runtime.registry import handler


def _condition(v) -> bool:
    if np.ndim(v):
        raise NeedsScalar()
    return bool(v)


@handler("scf.for")
def scf_for(ip, op, args):
    lb, ub, step, *values = args
    lb, ub, step = int(lb), int(ub), int(step)
    if step <= 0:
        raise Fault(f"scf.for step must be positive, got {step}")
    iv_type = value_dtype(op.lb.type).type
    body = op.body
    i = lb
    while i < ub:
        _, values = ip.run_region(body, [iv_type(i), *values])
        i += step
    return list(values)


@handler("scf.if")
def scf_if(ip, op, args):
    region = op.true_region if _condition(args[0]) else op.false_region
    if not region.blocks:
        return []
    _, values = ip.run_region(region, [])
    return list(values)


def _same(a, b) -> bool:
    if isinstance(a, (np.ndarray, np.generic, int, float, bool)):
        return isinstance(b, type(a)) and np.shape(a) == np.shape(b) and bool(np.all(a == b))
    return a is b


@handler("scf.while")
def scf_while(ip, op, args):
    values = args
    last = None  # memory changes and loop values at the start of the previous iteration
    while True:
        if last is not None and last[0] == ip.memory.changes and all(map(_same, last[1], values)):
            raise Fault("this loop never ends: an iteration changed neither memory nor the loop's values (a spin "
                        "lock that no program releases? programs run one at a time here)")
        last = (ip.memory.changes, values)
        _, cond_values = ip.run_region(op.before_region, values)
        if not _condition(cond_values[0]):
            return list(cond_values[1:])
        _, values = ip.run_region(op.after_region, cond_values[1:])


@handler("scf.execute_region")
def scf_execute_region(ip, op, args):
    _, values = ip.run_region(op.region, [])
    return list(values)


@handler("tt.call")
def tt_call(ip, op, args):
    return list(ip.call(ip.funcs[op.callee.root_reference.data], args))
