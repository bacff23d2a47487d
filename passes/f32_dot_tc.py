"""tritongpu-F32DotTC: split f32 `tt.dot`s of tf32x3, bf16x3 and bf16x6 precision into tensor-core dots.

- bf16x3 / bf16x6: each f32 operand is split into bf16 parts, hi = trunc(x), mid = trunc(x - ext(hi)) and, for
  bf16x6, lo = trunc(rest - ext(mid)). From a zero accumulator the partial products are summed smallest first,
  bf16x6: mid*mid, lo*hi, hi*lo, then (both) mid*hi, hi*mid; NaNs of that sum become zeros (an infinite
  operand times a zero low part), the hi*hi dot is added on, and the original accumulator last (`arith.addf`).
  The bf16 dots are ieee dots.
- tf32x3 (only with `emu-tf32`, NVIDIA's 3xTF32): big = the operand rounded to tf32 (`cvt.rna.tf32.f32` inline
  asm), small = operand - big; small*big + big*small from zero, NaNs zeroed, + big*big, all tf32 dots keeping
  the dot's maxNumImpreciseAcc, then the accumulator added.
Dots of other precisions or with non-f32 operands are left alone. The rewrite runs in MLIR's greedy driver
(`applyPatternsGreedily`), which also folds, hoists constants and erases dead ops, as Triton's pass does.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import BoolAttr, FloatAttr, IntegerAttr, StringAttr, bf16, f32, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue

from ttc.frontend.builder import op_class
from ttc.opt.greedy_rewrite import GreedyDriver, Rewriter, fold_in_place
from ttc.ir.format import build_op
from ttc.ir.std import CMPF
from ttc.ir.tt import INPUT_PRECISION, ElementwiseInlineAsmOp
from ttc.ir.types import i1_like, like
from ttc.opt.passmanager import Pass, option

_TF32, _TF32X3, _IEEE, _BF16X3, _BF16X6 = (INPUT_PRECISION[k] for k in ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"))


def _loc(value: SSAValue, default: Attribute) -> Attribute:
    """MLIR's `value.getLoc()`: its defining op's location (block arguments: `default`)."""
    return value.owner.location if isinstance(value.owner, Operation) else default


class _Builder:
    """Creates ops before the dot being rewritten, through the driver's rewriter."""

    def __init__(self, dot: Operation, rw: Rewriter):
        self.anchor, self.rw = dot, rw

    def add(self, op: Operation, at: SSAValue | None = None) -> SSAValue:
        """Insert `op` located at `at`'s location (the dot's when None)."""
        op.location = self.anchor.location if at is None else _loc(at, self.anchor.location)
        self.rw.insert_before(op, self.anchor)
        return op.results[0]

    def op(self, name: str, operands: list[SSAValue], type_: Attribute, at: SSAValue | None = None,
           props: dict | None = None) -> SSAValue:
        return self.add(build_op(op_class(name), operands, [type_], props), at)

    def zero_like(self, c: SSAValue) -> SSAValue:
        zero = self.add(arith.ConstantOp(FloatAttr(0.0, f32)), c)
        return self.op("tt.splat", [zero], c.type, c)

    def dot(self, a: SSAValue, b: SSAValue, c: SSAValue, precision: int = _IEEE, max_imprecise: int = 0) -> SSAValue:
        return self.op("tt.dot", [a, b, c], c.type, a, {"inputPrecision": IntegerAttr(precision, i32),
                                                         "maxNumImpreciseAcc": IntegerAttr(max_imprecise, i32)})

    def nans_to_zero(self, x: SSAValue) -> SSAValue:
        """`x` with its NaNs replaced by zeros (all located at `x`)."""
        nan = self.op("arith.cmpf", [x, x], i1_like(x.type), x, {"predicate": IntegerAttr(CMPF["uno"], i64)})
        return self.op("arith.select", [nan, self.zero_like(x), x], x.type, x)

    def split(self, x: SSAValue, n: int) -> list[SSAValue]:
        """`x` as `n` bf16 parts, largest first (all located at `x`)."""
        parts = []
        for i in range(n):
            part = self.op("arith.truncf", [x], like(x.type, bf16), x)
            if i != n - 1:
                x = self.op("arith.subf", [x, self.op("arith.extf", [part], x.type, part)], x.type, x)
            parts.append(part)
        return parts


def _is_f32(v: SSAValue) -> bool:
    return v.type.element_type == f32


def bf16xn(dot: Operation, rw: Rewriter) -> bool:
    precision = dot.inputPrecision.value.data
    n = {_BF16X3: 2, _BF16X6: 3}.get(precision)
    if n is None or not (_is_f32(dot.a) and _is_f32(dot.b)):
        return False
    em = _Builder(dot, rw)
    a, b = em.split(dot.a, n), em.split(dot.b, n)
    hi, mid, lo = 0, 1, 2
    acc = em.zero_like(dot.c)
    if precision == _BF16X6:
        acc = em.dot(a[mid], b[mid], acc)
        acc = em.dot(a[lo], b[hi], acc)
        acc = em.dot(a[hi], b[lo], acc)
    acc = em.dot(a[mid], b[hi], acc)
    acc = em.dot(a[hi], b[mid], acc)
    acc = em.nans_to_zero(acc)
    acc = em.dot(a[hi], b[hi], acc)
    rw.replace_op(dot, [em.op("arith.addf", [acc, dot.c], acc.type)])
    return True


def tf32x3(dot: Operation, rw: Rewriter) -> bool:
    if not (dot.inputPrecision.value.data == _TF32X3 and _is_f32(dot.a) and _is_f32(dot.b)):
        return False
    em = _Builder(dot, rw)

    def to_tf32(x: SSAValue) -> SSAValue:  # located at the dot, as are the subtractions
        return em.add(build_op(ElementwiseInlineAsmOp, [[x]], [[x.type]], {
            "asm_string": StringAttr("cvt.rna.tf32.f32 $0, $1;"), "constraints": StringAttr("=r,r"),
            "pure": BoolAttr.from_bool(True), "packed_element": IntegerAttr(1, i32)}))

    a_big = to_tf32(dot.a)
    a_small = em.op("arith.subf", [dot.a, a_big], a_big.type)
    b_big = to_tf32(dot.b)
    b_small = em.op("arith.subf", [dot.b, b_big], b_big.type)
    imprecise = dot.maxNumImpreciseAcc.value.data
    acc = em.dot(a_small, b_big, em.zero_like(dot.c), _TF32, imprecise)
    acc = em.dot(a_big, b_small, acc, _TF32, imprecise)
    acc = em.nans_to_zero(acc)
    acc = em.dot(a_big, b_big, acc, _TF32, imprecise)
    rw.replace_op(dot, [em.op("arith.addf", [acc, dot.c], acc.type)])
    return True


@dataclass(frozen=True)
class F32DotTC(Pass):
    """Split f32 dots of tf32x3 (with emu-tf32), bf16x3 and bf16x6 precision into tf32 / bf16 dots."""

    name = "tritongpu-F32DotTC"
    display = "TritonGPUF32DotTC"
    summary = "Emulate dot-product tensor core precision using TF32s or BF16s"

    emu_tf32: bool = option(False, "whether to handle InputPrecision TF32xN for Nvidia GPUs")

    def apply(self, ctx, module) -> None:
        patterns = ([tf32x3] if self.emu_tf32 else []) + [bf16xn]
        for region in module.regions:
            GreedyDriver({"tt.dot": patterns}, fold_in_place=fold_in_place).run(region)
