"""Triton's IR in Python: the tt, ttg and ttng dialects on xDSL, read and written in Triton's own syntax.

`parse(text, filename)` reads a module (verifying it), `print_ir(module)` prints it as MLIR does.
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp

from ttc.ir.printer import print_ir


@lru_cache(maxsize=1)
def _dialects():
    from ttc.ir import std, tt, ttg

    return [Builtin, std.ARITH, std.MATH, std.SCF, std.CF, std.UB, tt.TT, ttg.TTG, ttg.TTNG]


def context() -> Context:
    ctx = Context()
    for d in _dialects():
        ctx.load_dialect(d)
    return ctx


def parse(text: str, filename: str = "<stdin>", verify: bool = True, source=None, resources: dict | None = None) -> ModuleOp:
    """Parse (and verify) one module of textual IR; errors raise `ttc.diagnostics.CompileError`.
    `source` (a `ttc.diagnostics.Source`) collects where each op was parsed, for later diagnostics;
    `resources` receives the file's `{-# external_resources: ... #-}` groups."""
    from xdsl.utils.exceptions import ParseError

    from ttc.diagnostics import CompileError, Source, at_position
    from ttc.ir.parser import TTParser

    source = source or Source.of(filename, text)
    try:
        parser = TTParser(context(), text, filename, source.positions)
        module = parser.parse_module()
        if resources is not None:
            resources.update(parser.external_resources)
    except ParseError as e:
        from ttc.ir.parser import TypeConflict

        msg = e.msg
        if msg.startswith("Operation ") and msg.endswith(" is not registered"):
            msg = f"custom op '{msg[len('Operation '):-len(' is not registered')]}' is unknown"
        diags = [at_position(filename, text, e.span.start, msg)]
        if isinstance(e, TypeConflict) and e.prior is not None:
            diags.append(at_position(filename, text, e.prior.start, "prior use here", "note"))
        raise CompileError(*diags) from None
    if verify:
        verify_module(module, source)
    return module


def verify_module(module, source=None) -> None:
    """Verify every op; raise CompileError with one diagnostic per failing op (nested ops of a failing op
    are not checked)."""
    from xdsl.utils.exceptions import DiagnosticException, VerifyException

    from ttc.diagnostics import CompileError, at_op

    layout_diags, skip = _layout_errors(module, source)
    diags = _symbol_redefinitions(module, source) + layout_diags
    for op in module.walk():
        if op is module and diags:
            continue  # its symbol table check already reported, in MLIR's words
        if op.parent_op() in skip:
            skip.add(op)
            continue
        try:
            op.verify(verify_nested_ops=False)
        except (VerifyException, DiagnosticException, ValueError) as e:
            msg = " ".join(str(e).split())
            if not msg.startswith("'"):
                msg = f"'{op.name}' op {msg}"
            diags.append(at_op(op, source, msg))
            skip.add(op)
    if diags:
        raise CompileError(*diags)


def _layout_errors(module, source) -> tuple[list, set]:
    """TritonGPU's check of the blocked layouts on op results: their rank is the tensor's, `order` is a
    permutation, and they spread a tensor over the threads and warps the module (or function) has. Returns the
    diagnostics and the ops they are about (not verified further)."""
    from math import prod

    from xdsl.dialects.builtin import IntegerAttr

    from ttc.diagnostics import at_op
    from ttc.ir.layouts import BlockedEncoding
    from ttc.ir.types import encoding, shape_of

    def attr(op, name):
        while op is not None:
            a = op.attributes.get(name)
            if isinstance(a, IntegerAttr):
                return a.value.data
            op = op.parent_op()
        return None

    diags, flagged = [], set()
    for op in module.walk():
        for r in op.results:
            enc = encoding(r.type)
            if not isinstance(enc, BlockedEncoding):
                continue
            rank = len(shape_of(r.type))
            fields = [tuple(enc[k]) for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order")]
            problem = None
            if any(len(f) != rank for f in fields):
                bad = next(len(f) for f in fields if len(f) != rank)
                problem = f"Layout has rank {bad}, but the tensor it's attached to has rank {rank}."
            elif sorted(fields[3]) != list(range(rank)):
                problem = f"Layout's order {list(fields[3])} is not a permutation of the dimensions 0..{rank - 1}."
            else:
                for what, key, have in (("threads per warp", "ttg.threads-per-warp", prod(fields[1])),
                                        ("warps per CTA", "ttg.num-warps", prod(fields[2]))):
                    want = attr(op, key)
                    if want is not None and have != want:
                        problem = f"Layout has a total of {have} {what}, but the context requires {want} {what}."
                        break
            if problem:
                diags.append(at_op(op, source, f"'{op.name}' op result has an invalid layout: {problem}"))
                flagged.add(op)
                break
    return diags, flagged


def _symbol_redefinitions(module, source) -> list:
    """MLIR's symbol table check, with its messages: the second definition is the error."""
    from ttc.diagnostics import at_op

    seen, diags = {}, []
    for op in module.body.ops:
        name = op.properties.get("sym_name", op.attributes.get("sym_name"))
        if name is None:
            continue
        if name.data in seen:
            diags.append(at_op(op, source, f"redefinition of symbol named '{name.data}'"))
            diags.append(at_op(seen[name.data], source, "see existing symbol definition here", "note"))
        else:
            seen[name.data] = op
    return diags


__all__ = ["context", "parse", "print_ir"]
