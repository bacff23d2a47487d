"""The table of op lowerings: `@lowering("arith.addf", ...)` registers a function `(ctx, op) -> None` that
emits LLVM IR for the op and records its results in the context."""

from __future__ import annotations

LOWERINGS: dict = {}


def lowering(*names: str):
    def register(fn):
        for n in names:
            LOWERINGS[n] = fn
        return fn

    return register


def lower_op(ctx, op) -> None:
    fn = LOWERINGS.get(op.name)
    if fn is None:
        raise ctx.error(op, f"'{op.name}' is not supported by the LLVM lowering")
    outer = ctx.current_op, ctx.scratch_at  # ops lowered inside an op (combine regions) restore its state
    ctx.current_op, ctx.scratch_at = op, ctx.scratch_base
    fn(ctx, op)
    ctx.current_op, ctx.scratch_at = outer
