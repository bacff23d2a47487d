"""How `tt.elementwise_inline_asm` passes values to its asm: each call handles `pack` elements of every argument
and result, and elements narrower than 32 bits share 32-bit registers (four i8 or two f16 per `r` operand);
pointers and wider elements take one register each. The frontend and the LLVM lowering both check the
constraint string against these counts.
"""

from __future__ import annotations


def per_register(bits: int, pack: int) -> int:
    """Elements one asm operand holds."""
    return min(32 // bits, pack) if bits < 32 else 1


def registers(bits: int, pack: int) -> int:
    """Asm operands `pack` elements of `bits`-wide values take."""
    n = per_register(bits, pack)
    return -(-pack // n)


def constraint_counts(constraints: str) -> tuple[int, int]:
    """(outputs, inputs) an LLVM constraint string names: `=r`/`=&r` entries are outputs, clobbers `~{...}`
    are neither, the rest are inputs."""
    parts = [p.strip() for p in constraints.split(",")] if constraints.strip() else []
    outs = sum(1 for p in parts if p.startswith("="))
    ins = sum(1 for p in parts if p and not p.startswith(("=", "~")))
    return outs, ins


def check_constraints(constraints: str, result_bits: list[int], arg_bits: list[int], pack: int) -> str | None:
    """None when the constraints fit the results and arguments, else the error message."""
    outs, ins = constraint_counts(constraints)
    want_outs = sum(registers(b, pack) for b in result_bits)
    want_ins = sum(registers(b, pack) for b in arg_bits)
    if (outs, ins) == (want_outs, want_ins):
        return None
    return (f"inline asm constraints '{constraints}' name {outs} output and {ins} input operand(s), but "
            f"{len(result_bits)} result(s) and {len(arg_bits)} argument(s) with pack={pack} take {want_outs} "
            f"and {want_ins}")
