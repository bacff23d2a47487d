"""MLIR's verifier over a parsed or built module: each op's own checks (Triton's tensor-size and layout traits
first, then the op's verifier), its regions' ops, each block's terminator, then the op's region verifiers; each
function on its own, stopping at its first failure; symbol redefinitions. Problems become located diagnostics.

Cheaper than calling each op's `verify_` as it is, with the same outcome and messages: an IRDL op's definition
is checked by a plan made once per op class (`_irdl_plan`: no per-op re-derivation of variadic sizes or named
accessors, traits whose `verify` does nothing skipped); any failure of the plan runs the op's own `verify_`, whose
message is the one reported. Per call, each type's element count and each layout's check in a context (threads
per warp, warps, CTAs of the op's region) are worked out once."""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, NoneAttr, TensorType, i32
from xdsl.ir import BlockArgument
from xdsl.irdl.constraints import VerificationContext
from xdsl.irdl.operations import (AttrSizedOperandSegments, AttrSizedRegionSegments, AttrSizedResultSegments,
                                  AttrSizedSuccessorSegments, OptAttributeDef, OptionalDef, OptPropertyDef, VarIRConstruct,
                                  VariadicDef, irdl_op_verify_arg_list, irdl_op_verify_regions,
                                  verify_variadic_size)
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator, OpTrait
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
        _verify_isolated(module, source, diags, {})
    if diags:
        raise CompileError(*diags)


def _verify_isolated(op, source, diags: list, memo: dict) -> bool:
    deferred = []
    ok = _verify_op(op, source, diags, deferred, memo)
    failed = [d for d in deferred if not _verify_isolated(d, source, diags, memo)]
    return ok and not failed


def _verify_op(op, source, diags: list, deferred: list, memo: dict) -> bool:
    """MLIR's verifyOnEntrance(op), its blocks and nested ops, verifyOnExit(block), then the op's region
    verifiers (`verify_regions_`: MLIR's verifyRegionInvariants); isolated-from-above
    ops met inside are left in `deferred` (each verified on its own, as MLIR does in parallel). `memo` holds what
    this call worked out once (the module does not change while it is verified)."""
    problems = _op_problems(op, memo)
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
                if nested._successors and nested is not block.last_op:
                    diags.append(at_op(nested, source, "operation with block successors must terminate its parent block"))
                    return False
            for nested in block.ops:
                if nested.regions and nested.has_trait(IsolatedFromAbove):
                    deferred.append(nested)
                elif not _verify_op(nested, source, diags, deferred, memo):
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


def _op_problems(op, memo: dict | None = None) -> list[tuple]:
    """The diagnostics of one op's own verifier, as (op they are at, message): Triton's tensor-size trait (tt ops)
    and layout trait (tt, ttg and ttng ops) first. An op's `verify_regions_`, if it has one, runs after its nested ops, as MLIR's region
    verifiers and its check of inferred result types do."""
    memo = {} if memo is None else memo
    layout = _tensor_size_problem(op, memo) or _layout_problem(op, memo)
    if layout is not None:
        return [(op, layout)]
    for operand in op.operands:
        if type(operand).__name__ == "ErasedSSAValue":
            return [(op, "null operand found")]
    plan = _irdl_plan(type(op))
    return _problems(op.verify_ if plan is None else lambda: _irdl_verify(op, plan), op)


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


_PLANS: dict = {}
_NO_VERIFY = OpTrait.verify


def _irdl_plan(cls):
    """How to check an IRDL op class's definition, made once: `(op_def, operand constraints, result constraints,
    regions and successors left to xDSL, the traits that verify something, the op's custom verifier)`. None for a
    class whose `verify_` is not the one xDSL's `irdl_op_definition` made (its own `verify_` is called)."""
    if cls in _PLANS:
        return _PLANS[cls]
    fn = getattr(cls, "verify_", None)
    code = getattr(fn, "__code__", None)
    plan = None
    if code is not None and fn.__module__ == "xdsl.irdl.operations" and \
            fn.__qualname__ == "get_accessors_from_op_def.<locals>.verify_":
        cells = dict(zip(code.co_freevars, (c.cell_contents for c in fn.__closure__)))
        op_def = cells["op_def"]
        options = op_def.options
        plan = (op_def, _args_plan(op_def.operands, options, AttrSizedOperandSegments),
                _args_plan(op_def.results, options, AttrSizedResultSegments),
                bool(op_def.regions) or any(isinstance(o, AttrSizedRegionSegments) for o in options),
                bool(op_def.successors) or any(isinstance(o, AttrSizedSuccessorSegments) for o in options),
                tuple(_isolated_check(t) if type(t) is IsolatedFromAbove else t.verify
                      for t in op_def.traits if type(t).verify is not _NO_VERIFY), cells.get("custom_verify"))
    _PLANS[cls] = plan
    return plan


def _irdl_verify(op, plan) -> None:
    """What the op's `verify_` does (xDSL's OpDef.verify, then the op's custom verifier), by its class's plan.
    Where the plan's check of the definition fails, the op's own `verify_` runs instead, for its message."""
    op_def, operands, results, regions, successors, traits, custom = plan
    try:
        ctx = VerificationContext()
        if operands is None:
            irdl_op_verify_arg_list(op, op_def, VarIRConstruct.OPERAND, ctx)
        else:
            _verify_args(op, op._operands, operands, ctx)
        if results is None:
            irdl_op_verify_arg_list(op, op_def, VarIRConstruct.RESULT, ctx)
        else:
            _verify_args(op, op.results, results, ctx)
        if regions:
            irdl_op_verify_regions(op, op_def, ctx)
        elif op.regions:
            raise VerifyException("region count")
        if successors:
            verify_variadic_size(op, op_def, VarIRConstruct.SUCCESSOR)
        elif op._successors:
            raise VerifyException("successor count")
        # (any failure runs the op's own verify_, whose message is reported: the order of these checks is free)
        if any(name not in op_def.properties for name in op.properties):
            raise VerifyException("property")
        for defs, given, optional in ((op_def.properties, op.properties, OptPropertyDef),
                                      (op_def.attributes, op.attributes, OptAttributeDef)):
            for name, attr_def in defs.items():
                if name in given:
                    attr_def.constr.verify(given[name], ctx)
                elif not isinstance(attr_def, optional):
                    raise VerifyException("missing")
    except Exception:
        op.verify_()
        return
    for check in traits:
        check(op)
    if custom is not None:
        custom(op)


def _args_plan(defs, options, sized_option):
    """How the plan checks operands or results: `(constraints, kinds, segment-size option)`, kinds None where
    no def is variadic (else 0 single, 1 variadic, 2 optional); None (xDSL checks them) for several variadics
    sized alike."""
    constraints = tuple(d.constr for _, d in defs)
    kinds = tuple(2 if isinstance(d, OptionalDef) else 1 if isinstance(d, VariadicDef) else 0 for _, d in defs)
    sized = next((o for o in options if isinstance(o, sized_option)), None)
    if sized is None and not any(kinds):
        return constraints, None, None
    if sized is None and len(kinds) - kinds.count(0) > 1:
        return None
    return constraints, kinds, sized


def _verify_args(op, values, plan, ctx) -> None:
    """xDSL's irdl_op_verify_arg_list: the count against the defs (or their segment sizes), then each def's
    constraint on the types of its slice. Raises VerifyException without xDSL's message where the count fails."""
    constraints, kinds, sized = plan
    n = len(values)
    if kinds is None:
        if n != len(constraints):
            raise VerifyException("count")
        for constr, v in zip(constraints, values):
            constr.verify((v.type,), ctx)
        return
    if sized is not None:
        a = sized.container(op).get(sized.attribute_name)
        if not isinstance(a, DenseArrayBase) or a.elt_type != i32:
            raise VerifyException("segments")
        sizes = a.get_values()
        if len(sizes) != len(kinds) or sum(sizes) != n or \
                any(k < 0 or (kind == 0 and k != 1) or (kind == 2 and k > 1) for k, kind in zip(sizes, kinds)):
            raise VerifyException("segments")
    else:  # one variadic: the rest is its
        rest = n - len(kinds) + 1
        if rest < 0 or (rest > 1 and 2 in kinds):
            raise VerifyException("count")
        sizes = [rest if kind else 1 for kind in kinds]
    types, start = [v.type for v in values], 0
    for constr, k in zip(constraints, sizes):
        constr.verify(tuple(types[start:start + k]), ctx)
        start += k


def _isolated_check(trait):
    """IsolatedFromAbove's verify: every operand of the ops it looks at (those in the op's regions, not inside a
    nested isolated op) defined strictly inside the op. Seen as one set of the blocks and ops met (xDSL walks
    each operand's parents up); where a use is outside it, the trait's own verify runs, for its message."""

    def check(op):
        inside, users, regions = set(), [], list(op.regions)
        while regions:
            for block in regions.pop().blocks:
                inside.add(block)
                for child in block.ops:
                    inside.add(child)
                    if child._operands:
                        users.append(child)
                    if child.regions and not child.has_trait(IsolatedFromAbove):
                        regions += child.regions
        for child in users:
            for v in child._operands:
                if v.owner not in inside:
                    return trait.verify(op)

    return check


def _type_info(t, memo: dict):
    """`(t, element count, shape, layout)` of a tensor type (count and shape None for any other type, layout None
    where it has none); once per type object per call (the type is kept, so its id names it for the call)."""
    info = memo.get(id(t))
    if info is None or info[0] is not t:
        enc = getattr(t, "encoding", None)
        enc = None if isinstance(enc, NoneAttr) else enc
        if isinstance(t, TensorType):
            shape = tuple(t.get_shape())
            info = (t, prod(shape), shape, enc)
        else:
            info = (t, None, None, enc)
        memo[id(t)] = info
    return info


def _tensor_size_problem(op, memo: dict) -> str | None:
    """Triton's TensorSizeTrait (tt ops): tensors of a power-of-two number of elements, at most 2^20."""
    if not op.name.startswith("tt."):
        return None
    for v in (*op._operands, *op.results):
        n = _type_info(v.type, memo)[1]
        if n is not None:
            if n > 1048576:
                return f"Maximum allowed number of elements is 1048576, but {op_text(op)} has more than that"
            if n & (n - 1):
                return f"Number of elements must be power-of-two, but {op_text(op)} doesn't follow the rule ({n}) elements"
    return None


def _layout_problem(op, memo: dict) -> str | None:
    """Triton's VerifyTensorLayoutsTrait (every tt, ttg and ttng op): each operand's layout, then each result's,
    against the module (ttc/ir/layout_checks.py). The layouts' modules are imported only once a type carries a
    layout (TTIR has none: a short tt-opt then imports neither them nor the memdesc type)."""
    if not op.name.startswith(("tt.", "ttg.", "ttng.")):
        return None

    def problem(t):
        _, _, shape, enc = _type_info(t, memo)
        if enc is None:
            return None
        if shape is not None:
            return _tensor_layout(enc, shape, op, memo)
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


def _tensor_layout(enc, shape, op, memo: dict) -> str | None:
    """`tensor_layout_problem(enc, shape, op)`, once per layout, shape and context in a call. Its context is the
    op's (threads per warp and CTAs of the nearest module, warps of the nearest partition, function or module),
    which for an op not itself a module and with no `ttg.num-warps` of its own is its region's."""
    from ttc.ir.layout_checks import tensor_layout_problem

    region = op.parent_region()
    if region is None or op.name == "builtin.module" or isinstance(op.attributes.get("ttg.num-warps"), IntegerAttr):
        return tensor_layout_problem(enc, shape, op)
    key = ("region", id(region))
    context = memo.get(key)
    if context is None:
        from ttc.ir.layout_checks import _module_int
        from ttc.ir.warp_specialize import lookup_num_warps, partition_num_warps

        parent = region.parent_op()
        warps = partition_num_warps(op)
        context = memo[key] = (region, _module_int(parent, "ttg.threads-per-warp", 32),
                               lookup_num_warps(parent) if warps is None else warps,
                               _module_int(parent, "ttg.num-ctas", 1))
    key = (id(enc), shape) + context[1:]
    found = memo.get(key)
    if found is None or found[0] is not enc:
        found = memo[key] = (enc, tensor_layout_problem(enc, shape, op))
    return found[1]


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
