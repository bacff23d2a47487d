"""Triton's DotOpInterface verifier (lib/Dialect/Triton/IR/OpInterfaces.cpp), which `tt.dot`, `tt.dot_scaled`
and the dots of ttng share: operand ranks, and M, N, K agreeing between the operands and the result."""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException

from ttc.ir.types import shape_of


def _err(op, msg: str):
    raise VerifyException(f"'{op.name}' op {msg}")


def verify_dot_interface(op, a, b, c, k_pack=(1, 1), mn_pack=(1, 1)):
    """Triton's DotOpInterface verifier (`k_pack`/`mn_pack`: fp4 operands packed two to an i8 along K or M/N)."""
    a, b, c = shape_of(a), shape_of(b), shape_of(c)
    if len(a) not in (2, 3):
        _err(op, "expected operands to be 2d or 3d")
    if len(a) != len(b) or len(a) != len(c):
        _err(op, "expected all operands to have the same rank")
    if a[-1] * k_pack[0] != b[-2] * k_pack[1]:
        _err(op, "expected the last dimension of the first operand to be equal to the second-to-last dimension of "
                 "the second operand")
    if len(a) == 3 and (a[0] != c[0] or b[0] != c[0]):
        _err(op, "expected the first dimension of the first operand to be equal to the first dimension of the result")
    if c[-2] != a[-2] * mn_pack[0] or c[-1] != b[-1] * mn_pack[1]:
        _err(op, "expected the output shape to be the concatenation of the last dimension of the first operand and "
                 "the last dimension of the second ")
