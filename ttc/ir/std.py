"""MLIR's standard dialects as Triton uses them: xDSL's arith, math, scf, cf and ub, with their MLIR syntax.

xDSL's op classes are reused; `arith.cmpi`, `arith.cmpf`, `arith.select` and the casts are redefined
because xDSL's versions only accept scalars (i1 results, i1 conditions, scalar casts), while Triton compares,
selects and converts whole tensors (`arith.cmpi slt, %a, %b : tensor<1024xi32>` gives `tensor<1024xi1>`). Syntax for all of them is registered
here (declarative formats, or custom parse/print for the region ops), matching MLIR's printers.
"""

from __future__ import annotations

from functools import lru_cache

from xdsl.dialects import arith, cf, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, i1, i64
from xdsl.ir import Block, Dialect, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttc.ir.lazy_defs import op_arg_names
from ttc.ir.format import Custom, register, same_as
from ttc.ir.types import elt, i1_like, is_float, is_int, is_ptr, shape_of

CMPI = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5, "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
CMPF = {
    n: i
    for i, n in enumerate(
        ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]
    )
}


class _Compare(IRDLOperation):
    lhs = operand_def()
    rhs = operand_def()
    predicate = prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        if self.lhs.type != self.rhs.type:
            raise VerifyException(f"'{self.name}' op requires all operands to have the same type")
        if self.result.type != i1_like(self.lhs.type):
            raise VerifyException(f"'{self.name}' op result must be i1 shaped like the operands")


@irdl_op_definition
class CmpiOp(_Compare):
    name = "arith.cmpi"

    def verify_(self):
        super().verify_()
        if not (is_int(self.lhs.type) or is_ptr(self.lhs.type)):
            raise VerifyException("'arith.cmpi' op operands must be integers or tensors of integers")


@irdl_op_definition
class CmpfOp(_Compare):
    name = "arith.cmpf"

    def verify_(self):
        super().verify_()
        if not is_float(self.lhs.type):
            raise VerifyException("'arith.cmpf' op operands must be floats or tensors of floats")


@irdl_op_definition
class SelectOp(IRDLOperation):
    name = "arith.select"
    cond = operand_def()
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        if elt(self.cond.type) != i1:
            raise VerifyException("'arith.select' op condition must be i1 or a tensor of i1")
        if shape_of(self.cond.type) and shape_of(self.cond.type) != shape_of(self.result.type):
            raise VerifyException("'arith.select' op condition shape must match the result shape")
        if not (self.lhs.type == self.rhs.type == self.result.type):
            raise VerifyException("'arith.select' op requires the same type for both values and the result")


class _Cast(IRDLOperation):
    """arith casts, elementwise over scalars or tensors (xDSL's accept scalars only)."""

    input = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        if shape_of(self.input.type) != shape_of(self.result.type):
            raise VerifyException(f"'{self.name}' op operand and result must have the same shape")


@irdl_op_definition
class RemFOp(IRDLOperation):
    """arith.remf: floating-point remainder with the sign of the dividend (C's fmod); xDSL lacks it."""

    name = "arith.remf"
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def verify_(self):
        if not (self.lhs.type == self.rhs.type == self.result.type) or not is_float(self.lhs.type):
            raise VerifyException("'arith.remf' op requires floating-point operands and result of one type")


_CASTS = ["extsi", "extui", "trunci", "extf", "truncf", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast", "index_cast"]
_REPLACED = {"arith.cmpi": CmpiOp, "arith.cmpf": CmpfOp, "arith.select": SelectOp} | {
    f"arith.{n}": irdl_op_definition(type(f"{n.title()}Op", (_Cast,), {"name": f"arith.{n}"})) for n in _CASTS
}
ARITH = Dialect(
    "arith", [_REPLACED.get(op.name, op) for op in arith.Arith.operations] + [RemFOp], list(arith.Arith.attributes)
)
SCF = scf.Scf
CF = cf.Cf

# ----------------------------------------------------------------------------- arith syntax

_BINARY = "$lhs `,` $rhs attr-dict `:` type($result)"
_SAME = {"lhs": same_as("result"), "rhs": same_as("result")}
for _op in arith.Arith.operations:
    operands, results = op_arg_names(_op)  # without building each op's definition (ttc.ir.lazy_defs)
    if operands == ["lhs", "rhs"] and results == ["result"] and _op.name not in _REPLACED:
        register(_op.name, _BINARY, infer=_SAME)
    elif operands == ["input"] and results == ["result"]:
        register(_op.name, "$input attr-dict `:` type($input) `to` type($result)")
    elif operands == ["lhs", "rhs"] and len(results) == 2:
        register(_op.name, "$lhs `,` $rhs attr-dict `:` type($lhs)",
                 infer={"rhs": same_as("lhs"), results[0]: same_as("lhs"), results[1]: same_as("lhs")})
register("arith.remf", _BINARY, infer=_SAME)
register("arith.negf", "$operand attr-dict `:` type($result)", infer={"operand": same_as("result")})
register("arith.constant", "attr-dict $value", infer={"result": lambda T: T.attr("value").type})
register("arith.cmpi", "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
         infer={"rhs": same_as("lhs"), "result": lambda T: i1_like(T["lhs"])}, enums={"predicate": (CMPI, i64)})
register("arith.cmpf", "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
         infer={"rhs": same_as("lhs"), "result": lambda T: i1_like(T["lhs"])}, enums={"predicate": (CMPF, i64)})


def _parse_select(op_type, parser):
    start = parser.pos
    ops = [parser.parse_unresolved_operand()]
    for _ in range(2):
        parser.parse_punctuation(",")
        ops.append(parser.parse_unresolved_operand())
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    t = parser.parse_type()
    cond_t = i1
    if parser.parse_optional_punctuation(","):
        cond_t, t = t, parser.parse_type()
    if not isinstance(cond_t, type(i1)) and not shape_of(cond_t):
        parser.raise_error("expected i1 or a shaped condition type", start)
    values = [parser.resolve_operand(u, ty) for u, ty in zip(ops, (cond_t, t, t))]
    return op_type.build(operands=values, result_types=[t], attributes=attrs)


def _print_select(op, p) -> str:
    text = " " + ", ".join(p.value(v) for v in op.operands) + p.attr_dict(dict(op.attributes), set()) + " : "
    if shape_of(op.cond.type):
        text += p.type(op.cond.type) + ", "
    return text + p.type(op.result.type)


register("arith.select", Custom(_parse_select, _print_select))

# ----------------------------------------------------------------------------- math syntax


def __getattr__(name):
    """`std.MATH`: xDSL's math dialect with its syntax registered, loaded on first use (a kernel without math
    ops never imports it); `std.UB` likewise."""
    if name == "MATH":
        return _math()
    if name == "UB":  # likewise xDSL's ub (ub.poison), whose syntax is registered below
        from xdsl.dialects import ub

        return ub.UB
    raise AttributeError(f"module 'ttc.ir.std' has no attribute '{name}'")


@lru_cache(maxsize=1)
def _math():
    from xdsl.dialects import math

    for op in math.Math.operations:
        operands = op_arg_names(op)[0]
        if operands == ["operand"]:
            register(op.name, "$operand attr-dict `:` type($result)", infer={"operand": same_as("result")})
        elif operands == ["lhs", "rhs"]:
            register(op.name, _BINARY, infer=_SAME)
    register("math.fma", "$a `,` $b `,` $c attr-dict `:` type($result)",
             infer={n: same_as("result") for n in ("a", "b", "c")})
    register("math.fpowi", "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)", infer={"result": same_as("lhs")})
    return math.Math


# ----------------------------------------------------------------------------- scf syntax


def _ensure_yield(region: Region):
    block = region.blocks.first
    if block is None:
        region.add_block(block := Block())
    if block.last_op is None or block.last_op.name != "scf.yield":
        block.add_op(scf.YieldOp())


def _parse_init_list(parser):
    """`(%a = %x, %b = %y)`: the region arguments and their initial values."""
    args, inits = [], []

    def one():
        args.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        inits.append(parser.parse_unresolved_operand())

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
    return args, inits


def _arrow_types(parser) -> list:
    """MLIR's function result types after `->`: `(t1, t2)`, `()` or one type without parentheses."""
    if parser._current_token.text == "(":
        return parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    return [parser.parse_type()]


def _parse_for(op_type, parser):
    iv = parser.parse_argument(expect_type=False)
    parser.parse_punctuation("=")
    lb = parser.parse_unresolved_operand()
    parser.parse_keyword("to")
    ub = parser.parse_unresolved_operand()
    parser.parse_keyword("step")
    step = parser.parse_unresolved_operand()
    args, inits, types = [], [], []
    if parser.parse_optional_keyword("iter_args"):
        args, inits = _parse_init_list(parser)
        parser.parse_punctuation("->")
        types = _arrow_types(parser)
    iv_t = IndexType()
    if parser.parse_optional_punctuation(":"):
        iv_t = parser.parse_type()
    if len(types) != len(inits):
        parser.raise_error("mismatch in number of loop-carried values and defined values")
    bounds = [parser.resolve_operand(u, iv_t) for u in (lb, ub, step)]
    init_vals = [parser.resolve_operand(u, t) for u, t in zip(inits, types)]
    body = parser.parse_region([iv.resolve(iv_t)] + [a.resolve(t) for a, t in zip(args, types)])
    _ensure_yield(body)
    attrs = parser.parse_optional_attr_dict()
    return op_type.create(operands=[*bounds, *init_vals], result_types=types, regions=[body], attributes=attrs)


def _print_for(op, p) -> str:
    body = op.body.blocks.first
    iv, iters = body.args[0], body.args[1:]
    text = f" {p.value(iv)} = {p.value(op.lb)} to {p.value(op.ub)} step {p.value(op.step)}"
    if op.iter_args:
        text += " iter_args(" + ", ".join(f"{p.value(a)} = {p.value(v)}" for a, v in zip(iters, op.iter_args)) + ")"
        text += " -> (" + ", ".join(p.type(v.type) for v in op.iter_args) + ")"
    if not isinstance(iv.type, IndexType):
        text += f"  : {p.type(iv.type)}"
    text += " " + p.region(op.body, entry_args=False, terminators=bool(op.iter_args))
    return text + p.attr_dict(dict(op.attributes), set())


def _parse_if(op_type, parser):
    cond = parser.resolve_operand(parser.parse_unresolved_operand(), i1)
    types = []
    if parser.parse_optional_punctuation("->"):
        types = _arrow_types(parser)
    then = parser.parse_region()
    _ensure_yield(then)
    other = Region()
    if parser.parse_optional_keyword("else"):
        other = parser.parse_region()
        _ensure_yield(other)
    attrs = parser.parse_optional_attr_dict()
    return op_type.create(operands=[cond], result_types=types, regions=[then, other], attributes=attrs)


def _print_if(op, p) -> str:
    text = " " + p.value(op.cond)
    if op.results:
        text += " -> (" + ", ".join(p.type(r.type) for r in op.results) + ")"
    yields_values = any(b.last_op is not None and b.last_op.operands for r in op.regions for b in r.blocks)
    show_terms = bool(op.results) or yields_values
    text += " " + p.region(op.true_region, entry_args=False, terminators=show_terms)
    if op.false_region.blocks:
        text += " else " + p.region(op.false_region, entry_args=False, terminators=show_terms)
    return text + p.attr_dict(dict(op.attributes), set())


def _parse_while(op_type, parser):
    args, inits = [], []
    if parser._current_token.text == "(":
        args, inits = _parse_init_list(parser)
    parser.parse_punctuation(":")
    ft = parser.parse_function_type()
    ins, outs = list(ft.inputs.data), list(ft.outputs.data)
    init_vals = [parser.resolve_operand(u, t) for u, t in zip(inits, ins)]
    before = parser.parse_region([a.resolve(t) for a, t in zip(args, ins)])
    parser.parse_keyword("do")
    after = parser.parse_region()
    attrs = {}
    if parser.parse_optional_keyword("attributes"):
        attrs = parser.parse_optional_attr_dict()
    return op_type.create(operands=init_vals, result_types=outs, regions=[before, after], attributes=attrs)


def _print_while(op, p) -> str:
    before = op.before_region.blocks.first
    text = ""
    if op.arguments:
        text += " (" + ", ".join(f"{p.value(a)} = {p.value(v)}" for a, v in zip(before.args, op.arguments)) + ")"
    text += " : " + p.function_type([v.type for v in op.arguments], [r.type for r in op.results])
    text += " " + p.region(op.before_region, entry_args=False)
    text += " do " + p.region(op.after_region, entry_args=True)
    attrs = dict(op.attributes)
    if attrs:
        text += " attributes" + p.attr_dict(attrs, set())
    return text


register("scf.for", Custom(_parse_for, _print_for))
register("scf.if", Custom(_parse_if, _print_if))
register("scf.while", Custom(_parse_while, _print_while))
register("scf.yield", "attr-dict ($arguments^ `:` type($arguments))?")
register("scf.condition", "`(` $condition `)` attr-dict ($args^ `:` type($args))?", infer={"condition": lambda T: i1})

register("ub.poison", "attr-dict `:` type($result)")

# ----------------------------------------------------------------------------- cf syntax


def _parse_dest(parser):
    block = parser.parse_successor()
    values = []
    if parser.parse_optional_punctuation("("):
        units = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(","):
            units.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(","):
            types.append(parser.parse_type())
        parser.parse_punctuation(")")
        if len(types) != len(units):
            parser.raise_error("expected as many types as branch operands")
        values = [parser.resolve_operand(u, t) for u, t in zip(units, types)]
    return block, values


def _dest_text(p, block, values) -> str:
    text = p.block_name(block)
    if values:
        text += "(" + ", ".join(p.value(v) for v in values) + " : " + ", ".join(p.type(v.type) for v in values) + ")"
    return text


def _parse_br(op_type, parser):
    block, values = _parse_dest(parser)
    attrs = parser.parse_optional_attr_dict()
    return op_type.create(operands=values, successors=[block], attributes=attrs)


def _print_br(op, p) -> str:
    return " " + _dest_text(p, op.successor, op.arguments) + p.attr_dict(dict(op.attributes), set())


def _parse_cond_br(op_type, parser):
    cond = parser.resolve_operand(parser.parse_unresolved_operand(), i1)
    parser.parse_punctuation(",")
    then, then_vals = _parse_dest(parser)
    parser.parse_punctuation(",")
    other, other_vals = _parse_dest(parser)
    attrs = parser.parse_optional_attr_dict()
    return op_type.build(operands=[cond, then_vals, other_vals], successors=[then, other], attributes=attrs)


def _print_cond_br(op, p) -> str:
    return (
        f" {p.value(op.cond)}, {_dest_text(p, op.then_block, op.then_arguments)}, "
        f"{_dest_text(p, op.else_block, op.else_arguments)}" + p.attr_dict(dict(op.attributes), {"operandSegmentSizes"})
    )


register("cf.br", Custom(_parse_br, _print_br))
register("cf.cond_br", Custom(_parse_cond_br, _print_cond_br))
