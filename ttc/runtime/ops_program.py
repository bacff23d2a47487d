"""Interpreter handlers for what a program knows of its launch and how it talks back: `tt.get_program_id`,
`tt.get_num_programs`, device assertions (`tt.assert`, `cf.assert`), `llvm.intr.assume` (checked) and `tt.print`.

A failed assertion stops the run with an error at the op naming the first failing element. `tt.print` writes
one line per element, as Triton's device print does: `pid (x, y, z) idx (i, j)<prefix><value>`.
"""

from __future__ import annotations

import numpy as np

from ttc.runtime import dtypes
from ttc.runtime.errors import Fault
from ttc.runtime.registry import handler


@handler("tt.get_program_id")
def get_program_id(ip, op, args):
    return np.int32(ip.pid[op.axis.value.data])


@handler("tt.get_num_programs")
def get_num_programs(ip, op, args):
    return np.int32(ip.grid[op.axis.value.data])


def _assert(cond, message: str) -> None:
    cond = np.asarray(cond)
    if not cond.all():
        where = ""
        if cond.ndim:
            first = np.unravel_index(int(np.flatnonzero(~cond.reshape(-1))[0]), cond.shape)
            where = f" at element {[int(i) for i in first]}"
        raise Fault(f"device assertion failed{where}: {message}")


@handler("tt.assert")
def tt_assert(ip, op, args):
    _assert(args[0], op.message.data)


@handler("llvm.intr.assume")
def assume(ip, op, args):
    # a false promise is undefined behaviour on the GPU; here it stops the run
    if not bool(args[0]):
        raise Fault("tl.assume: the assumed condition is false")


@handler("cf.assert")
def cf_assert(ip, op, args):
    _assert(args[0], op.msg.data)


def _text(v, hex_: bool, signed: bool) -> str:
    v = np.asarray(v)
    if hex_:
        return f"0x{int(dtypes.as_unsigned(v) if v.dtype.kind != 'f' else v.view(dtypes.unsigned_dtype(v.dtype))):x}"
    if v.dtype.kind in "iub":
        return str(int(v) if signed or v.dtype == np.bool_ else int(dtypes.as_unsigned(v)))
    return f"{float(v):.6f}" if np.isfinite(v) else str(float(v))


@handler("tt.print")
def tt_print(ip, op, args):
    x, y, z = ip.pid
    head = f"pid ({x}, {y}, {z})"
    prefix = op.prefix.data
    signed = list(op.isSigned.get_values()) if op.isSigned is not None else []
    hex_ = bool(op.hex.value.data)
    out = ip.stdout
    if not args:
        out.write(f"{head}{prefix}\n")
        return None
    for k, value in enumerate(args):
        value = np.asarray(value)
        operand = f"(operand {k}) " if len(args) > 1 else ""
        is_signed = bool(signed[k]) if k < len(signed) else True
        widths = [len(str(n - 1)) for n in value.shape]
        for idx in np.ndindex(*value.shape):
            index = ", ".join(str(i).rjust(w) for i, w in zip(idx, widths))
            out.write(f"{head} idx ({index}){prefix}{operand}{_text(value[idx], hex_, is_signed)}\n")
    return None
