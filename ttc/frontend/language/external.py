"""Builtins that call code the compiler does not see: `tl.inline_asm_elementwise` (`tt.elementwise_inline_asm`,
PTX run `pack` elements at a time) and `tl.extern_elementwise` (`tt.extern_elementwise`, a call of a library
function such as libdevice's `__nv_asinf`, chosen by the arguments' dtypes).

As in Triton, the arguments are broadcast to one shape without type promotion, and the results take that shape.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, IntegerType, StringAttr

from ttc.frontend.dtypes import DType
from ttc.frontend.errors import LanguageError
from ttc.frontend.language.builtin import builtin
from ttc.frontend.values import LangTuple, Tensor, unwrap
from ttc.ir.inline_asm import check_constraints


def broadcast_args(g, args: list[Tensor], allow_ptr: bool) -> list[Tensor]:
    """Every argument broadcast to the shape of all of them (Triton's pairwise `binary_op_type_checking_impl`
    with `arithmetic_check=False`)."""
    s = g.semantic
    if not args:
        return []
    common = args[0]
    for a in args:
        _, common = s.binary_operands(a, common, allow_ptr, allow_ptr, arithmetic_check=False)
    return [s.binary_operands(a, common, allow_ptr, allow_ptr, arithmetic_check=False)[0] for a in args]


def _str(x, what: str) -> str:
    x = unwrap(x)
    if not isinstance(x, str):
        raise LanguageError(f"inline_asm_elementwise: {what} must be a string, got {x!r}")
    return x


def _bits(t: DType) -> int:
    return 64 if t.is_ptr() else t.primitive_bitwidth


def inline_asm(g, asm: str, constraints: str, args: list, dtypes: list[DType], is_pure: bool, pack: int):
    """The `tt.elementwise_inline_asm` op and its results (tensors when there are tensor arguments, else
    scalars)."""
    s = g.semantic
    args = broadcast_args(g, [s.to_tensor(a) for a in args], allow_ptr=True)
    res_types = [args[0].type.with_element_ty(t) for t in dtypes] if args and args[0].is_block() else list(dtypes)
    bad = check_constraints(constraints, [_bits(t) for t in dtypes], [_bits(a.dtype) for a in args], pack)
    if bad:
        raise LanguageError(f"inline_asm_elementwise: {bad}")
    props = {"asm_string": StringAttr(asm), "constraints": StringAttr(constraints), "pure": BoolAttr.from_bool(is_pure),
             "packed_element": IntegerAttr(pack, IntegerType(32))}
    op = g.builder.create("tt.elementwise_inline_asm", [[a.handle for a in args]], [[t.to_ir() for t in res_types]],
                          props)
    return [Tensor(r, t) for r, t in zip(op.results, res_types)]


@builtin
def inline_asm_elementwise(g, asm, constraints, args, dtype, is_pure, pack):
    asm, constraints = _str(asm, "asm"), _str(constraints, "constraints")
    pack, is_pure = unwrap(pack), unwrap(is_pure)
    if not isinstance(pack, int) or isinstance(pack, bool) or pack < 1:
        raise LanguageError(f"inline_asm_elementwise: pack must be a positive integer, got {pack!r}")
    args = list(unwrap(args)) if isinstance(unwrap(args), (LangTuple, list, tuple)) else [args]
    dtype = unwrap(dtype)
    many = isinstance(dtype, (LangTuple, list, tuple))
    dtypes = [unwrap(d) for d in dtype] if many else [dtype]
    if not dtypes:
        raise LanguageError("inline_asm_elementwise: dtype must name at least one result type")
    for d in dtypes:
        if not isinstance(d, DType) or d.is_ptr() or d.is_block():
            raise LanguageError(f"inline_asm_elementwise: dtype must be a scalar dtype such as tl.int32, got {d!r}")
    results = inline_asm(g, asm, constraints, args, dtypes, bool(is_pure), pack)
    return tuple(results) if many else results[0]


def extern_call(g, name: str, lib_name: str, lib_path: str, args: list, table: dict, is_pure: bool) -> Tensor:
    """`tt.extern_elementwise` of the symbol `table` gives for the arguments' dtypes (a dict from a tuple of
    dtype names to (symbol, result dtype name))."""
    s = g.semantic
    args = [s.to_tensor(a) for a in args]
    want = len(next(iter(table)))
    if len(args) != want:
        raise LanguageError(f"{name}() takes {want} argument(s) but {len(args)} were given")
    key = tuple(a.dtype.name for a in args)
    if key not in table:
        known = ", ".join("(" + ", ".join(k) + ")" for k in table)
        raise LanguageError(f"{name}: no variant for argument dtypes ({', '.join(key)}); it takes {known}")
    symbol, ret = table[key]
    ret = DType(ret)
    scalar = not any(a.is_block() for a in args)
    args = broadcast_args(g, args, allow_ptr=False)
    res_type = ret if scalar else args[0].type.with_element_ty(ret)
    props = {"libname": StringAttr(lib_name), "libpath": StringAttr(lib_path), "symbol": StringAttr(symbol),
             "pure": BoolAttr.from_bool(is_pure)}
    handle = g.builder.value("tt.extern_elementwise", [[a.handle for a in args]], res_type.to_ir(), props)
    return Tensor(handle, res_type)

