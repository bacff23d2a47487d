"""The text of an llvmlite `ir.Module`, exactly as `str(module)` writes it, in a fraction of the time.

llvmlite formats every instruction through several layers of `str.format` calls, string caches and method
dispatch; that was a third of the lowering's time. `module_text` writes the instructions the lowering emits
most (by class: binary ops, casts, calls, GEPs, loads, stores, compares, selects, phis, vector and aggregate
element accesses) with one f-string each, the same characters llvmlite's `descr` methods produce (double
spaces after `select` and `phi` without flags included); anything else (instructions with metadata or
attributes, terminators, other classes) and everything outside function bodies is llvmlite's own text.
"""

from __future__ import annotations

import llvmlite.ir as ir
from llvmlite.ir import instructions as ins


def _refs(operands) -> str:
    return ", ".join([f"{v.type} {v.get_reference()}" for v in operands])


def _binary(i) -> str:
    flags = " " + " ".join(i.flags) if i.flags else ""
    return f"{i.opname}{flags} {i.type} {', '.join([v.get_reference() for v in i.operands])}"


def _cast(i) -> str:
    v = i.operands[0]
    return f"{i.opname} {v.type} {v.get_reference()} to {i.type}"


def _call(i) -> str | None:
    if i.arg_attributes or i.attributes or i.fastmath:
        return None
    fnty = i.callee.function_type
    callee = f"{fnty if fnty.var_arg else fnty.return_type} {i.callee.get_reference()}"
    if i.cconv:
        callee = f"{i.cconv} {callee}"
    return f"{i.tail + ' ' if i.tail else ''}{i.opname} {callee}({_refs(i.operands[1:])})"


def _gep(i) -> str:
    p = i.pointer
    op = "getelementptr inbounds" if i.inbounds else "getelementptr"
    return f"{op} {i.source_etype}, {p.type} {p.get_reference()}, {_refs(i.indices)}"


def _load(i) -> str:
    p = i.operands[0]
    return f"load {i.type}, {p.type} {p.get_reference()}{'' if i.align is None else f', align {i.align}'}"


def _store(i) -> str:
    v, p = i.operands
    return (f"store {v.type} {v.get_reference()}, {p.type} {p.get_reference()}"
            f"{'' if i.align is None else f', align {i.align}'}")


def _compare(i) -> str:
    a, b = i.operands
    return f"{i.opname}{''.join([' ' + f for f in i.flags])} {i.op} {a.type} {a.get_reference()}, {b.get_reference()}"


def _select(i) -> str:
    return f"select {' '.join(i.flags)} {_refs(i.operands)}"


def _phi(i) -> str:
    incoming = ", ".join([f"[{v.get_reference()}, {b.get_reference()}]" for v, b in i.incomings])
    return f"phi {' '.join(i.flags)} {i.type} {incoming}"


def _extract_value(i) -> str:
    a = i.aggregate
    return f"extractvalue {a.type} {a.get_reference()}, {', '.join([str(k) for k in i.indices])}"


def _element(i) -> str:
    return f"{i.opname} {_refs(i.operands)}"


_FORMATS = {ir.Instruction: _binary, ins.CastInstr: _cast, ins.CallInstr: _call, ins.GEPInstr: _gep,
            ins.LoadInstr: _load, ins.StoreInstr: _store, ins.ICMPInstr: _compare, ins.FCMPInstr: _compare,
            ins.SelectInstr: _select, ins.PhiInstr: _phi, ins.ExtractValue: _extract_value,
            ins.ExtractElement: _element, ins.InsertElement: _element}


def _instruction(i) -> str:
    fmt = _FORMATS.get(type(i))
    text = fmt(i) if fmt is not None and not i.metadata else None
    if text is None:
        return str(i)
    return text.rstrip() if isinstance(i.type, ir.VoidType) else f"{i.get_reference()} = {text}".rstrip()


def _function(f: ir.Function) -> str:
    buf = []
    f.descr_prototype(buf)
    if f.blocks:
        buf.append("{\n")
        for block in f.blocks:
            buf.append(f"{block._format_name()}:\n")
            buf += [f"  {_instruction(i)}\n" for i in block.instructions]
        buf.append("}\n")
    return "".join(buf)


def module_text(m: ir.Module) -> str:
    """`str(m)`."""
    lines = [f'; ModuleID = "{m.name}"', f'target triple = "{m.triple}"', f'target datalayout = "{m.data_layout}"', ""]
    lines += [t.get_declaration() for t in m.get_identified_types().values()]
    lines += [_function(v) if isinstance(v, ir.Function) else str(v) for v in m.globals.values()]
    lines += m._get_metadata_lines()
    return "\n".join(lines)
