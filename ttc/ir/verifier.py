"""MLIR's verifier over a parsed or built module: each op's own checks (Triton's tensor-size and layout traits
first, then the op's verifier), its regions' ops, each block's terminator, then the op's region verifiers; each
function on its own, stopping at its first failure; symbol redefinitions. Problems become located diagnostics."""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import NoneAttr, TensorType
from xdsl.ir import BlockArgument
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from ttc.ir.attr_printer import attr_text
from ttc.ir.diagnostics import CompileError, at_op, op_text
from ttc.ir.verify_errors import OpDiagnostics


def verify_module(module, source=None) -> None:
    """Verify the module as MLIR's verifier does: each op, then the ops of its regions, then each block's
    terminator; in each function (an isolated-from-above op) verification stops at the first failure, the
    functions are verified independently. Raise CompileError with the diagnostics."""
    diags = _symbol_redefinitions(module, source)
    if not diags:
        _verify_isolated(module, source, diags)
    if diags:
        raise CompileError(*diags)


def _verify_isolated(op, source, diags: list) -> bool:
    deferred = []
    ok = _verify_op(op, source, diags, deferred)
    failed = [d for d in deferred if not _verify_isolated(d, source, diags)]
    return ok and not failed


def _verify_op(op, source, diags: list, deferred: list) -> bool:
    """MLIR's verifyOnEntrance(op), its blocks and nested ops, verifyOnExit(block), then the op's region
    verifiers (`verify_regions_`: MLIR's verifyRegionInvariants); isolated-from-above
    ops met inside are left in `deferred` (each verified on its own, as MLIR does in parallel)."""
    problems = _op_problems(op)
    if problems:
        diags.extend(at_op(at, source, m) for at, m in problems)
        return False
    for region in op.regions:
        for block in region.blocks:
            may_lack_terminator = len(region.blocks) == 1 and op.has_trait(NoTerminator)
            if block.first_op is None:
                if may_lack_terminator:
                    continue
                diags.append(at_op(op, source, "empty block: expect at least a terminator"))
                return False
            for nested in block.ops:
                if nested.successors and nested is not block.last_op:
                    diags.append(at_op(nested, source, "operation with block successors must terminate its parent block"))
                    return False
            for nested in block.ops:
                if nested.regions and nested.has_trait(IsolatedFromAbove):
                    deferred.append(nested)
                elif not _verify_op(nested, source, diags, deferred):
                    return False
            last = block.last_op
            if not may_lack_terminator and not last.has_trait(IsTerminator):
                diags.append(at_op(last, source, f"block with no terminator, has {op_text(last) or last.name}"))
                return False
    problems = _problems(getattr(op, "verify_regions_", None), op)
    if problems:
        diags.extend(at_op(at, source, m) for at, m in problems)
        return False
    return True


def _op_problems(op) -> list[tuple]:
    """The diagnostics of one op's own verifier, as (op they are at, message): Triton's tensor-size trait (tt ops)
    and layout trait (tt, ttg and ttng ops) first. An op's `verify_regions_`, if it has one, runs after its nested ops, as MLIR's region
    verifiers and its check of inferred result types do."""
    layout = _tensor_size_problem(op) or _layout_problem(op)
    if layout is not None:
        return [(op, layout)]
    for operand in op.operands:
        if type(operand).__name__ == "ErasedSSAValue":
            return [(op, "null operand found")]
    return _problems(op.verify_, op)


def _problems(check, op) -> list[tuple]:
    """The diagnostics `check()` raises about `op`, as (op they are at, message): MLIR's emitOpError prefix added
    where missing; a LocatedVerifyException (ttc/ir/tt.py) puts its message at the op it names, as written
    (MLIR's emitError at a nested op)."""
    if check is None:
        return []
    try:
        check()
    except OpDiagnostics as e:
        return [(op, m) for m in e.messages]
    except (VerifyException, DiagnosticException, ValueError) as e:
        msg = " ".join(str(e).split())
        if hasattr(e, "op"):
            return [(e.op, msg)]
        return [(op, msg if msg.startswith("'") else f"'{op.name}' op {msg}")]
    return []


def _tensor_size_problem(op) -> str | None:
    """Triton's TensorSizeTrait (tt ops): tensors of a power-of-two number of elements, at most 2^20."""
    if not op.name.startswith("tt."):
        return None
    for v in list(op.operands) + list(op.results):
        if isinstance(v.type, TensorType):
            n = prod(v.type.get_shape())
            if n > 1048576:
                return f"Maximum allowed number of elements is 1048576, but {op_text(op)} has more than that"
            if n & (n - 1):
                return f"Number of elements must be power-of-two, but {op_text(op)} doesn't follow the rule ({n}) elements"
    return None


def _layout_problem(op) -> str | None:
    """Triton's VerifyTensorLayoutsTrait (every tt, ttg and ttng op): each operand's layout, then each result's,
    against the module (ttc/ir/layout_checks.py). The layouts' modules are imported only once a type carries a
    layout (TTIR has none: a short tt-opt then imports neither them nor the memdesc type)."""
    if not op.name.startswith(("tt.", "ttg.", "ttng.")):
        return None

    def problem(t):
        enc = getattr(t, "encoding", None)
        if enc is None or isinstance(enc, NoneAttr):
            return None
        if isinstance(t, TensorType):
            from ttc.ir.layout_checks import tensor_layout_problem

            return tensor_layout_problem(enc, tuple(t.get_shape()), op)
        from ttc.ir.memdesc import MemDescType

        if isinstance(t, MemDescType):
            from ttc.ir.layout_checks import memdesc_layout_problem

            return memdesc_layout_problem(enc, t, op)
        return None

    for i, v in enumerate(op.operands):
        msg = problem(v.type)
        if msg is not None:
            return f"Operand {i} ({_value_text(v)}) has an invalid layout: {msg}"
    for i, r in enumerate(op.results):
        msg = problem(r.type)
        if msg is not None:
            which = "Result" if len(op.results) == 1 else f"Result {i}"
            return f"{which} has an invalid layout: {msg}"
    return None


def _value_text(v) -> str:
    """A value as MLIR streams it into a diagnostic: a block argument by type and index, a result by its op."""
    if isinstance(v, BlockArgument):
        return f"<block argument> of type '{attr_text(v.type)}' at index: {v.index}"
    return op_text(v.owner) or v.owner.name


def _symbol_redefinitions(module, source) -> list:
    """MLIR's symbol table check, with its messages: the second definition is the error."""
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
