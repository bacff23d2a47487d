"""The interpreter's dispatch table: op name -> handler, filled by the `ops_*` modules with `@handler(...)`.

A handler is `fn(ip, op, args)`: `ip` the running `Interpreter`, `op` the xDSL op, `args` its operand values in
order. It returns the op's result: a value for a one-result op (None for a token), a list for any other count
(region ops and multi-result ops), or None for an op without results.
"""

from __future__ import annotations

HANDLERS: dict = {}


def handler(*names: str):
    def register(fn):
        for name in names:
            HANDLERS[name] = fn
        return fn

    return register
