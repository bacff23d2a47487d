"""`tl.dot_scaled`: the matrix product of two blocks in OCP microscaling formats (`tt.dot_scaled`), as Triton
3.6's semantic builds it: operands bitcast to their element format (e2m1 stays packed in uint8, two per byte
along K unless `*_k_pack=False`), optional e8m0 scales (uint8, one per 32 K elements: lhs_scale is M x K/32,
rhs_scale N x K/32), an f32 accumulator."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, i1, i32

from ttc.frontend import dtypes as T
from ttc.frontend.dtypes import BlockType
from ttc.frontend.errors import LanguageError
from ttc.frontend.language.builtin import builtin
from ttc.frontend.language.tensors import dtype_arg
from ttc.frontend.values import Tensor, unwrap
from ttc.ir.scaled import SCALE_DOT_ELEM_TYPE, SCALE_GROUP

FORMATS = ("e2m1", "e4m3", "e5m2", "bf16", "fp16")
_FLOAT = {"e5m2": T.float8e5, "e4m3": T.float8e4nv, "bf16": T.bfloat16, "fp16": T.float16}
_STORAGE = {"e5m2": T.uint8, "e4m3": T.uint8, "bf16": T.uint16, "fp16": T.uint16}


def _format(fmt, which: str) -> str:
    fmt = unwrap(fmt)
    if not isinstance(fmt, str):
        raise LanguageError(f"{which}_format must be a string constant, got {fmt!r}")
    if fmt.upper() not in (k.upper() for k in SCALE_DOT_ELEM_TYPE):
        raise LanguageError(f"Invalid float format: {fmt}.")
    if fmt not in FORMATS:
        raise LanguageError(f"NYI: {which}_format {fmt} (tl.dot_scaled takes {', '.join(FORMATS)})")
    return fmt


def _as_format(g, value: Tensor, fmt: str, which: str) -> Tensor:
    if fmt == "e2m1":
        if value.dtype != T.uint8:
            raise LanguageError(f"e2m1 format must be packed as uint8. Got {value.dtype}")
        return value
    if value.dtype == _FLOAT[fmt]:
        return value
    if value.dtype != _STORAGE[fmt]:
        raise LanguageError(f"Unexpected dtype for {fmt}. Got {value.dtype}")
    g.semantic.options.check_dtype(_FLOAT[fmt])  # fp8e4nv needs sm_89 or newer, as in Triton
    return g.semantic.bitcast(value, _FLOAT[fmt])


def _scale(scale, rows: int, k: int, which: str):
    scale = unwrap(scale)
    if scale is None:
        return None
    if not isinstance(scale, Tensor) or not scale.is_block():
        raise LanguageError(f"{which}_scale must be a tensor or None")
    if scale.dtype == T.float8e4nv:
        raise LanguageError(f"{which}_scale: fp8e4nv scales (groups of 16) are not supported yet; use e8m0 (uint8)")
    if scale.dtype not in (T.uint8, T.int8):
        raise LanguageError(f"{which}_scale must hold e8m0 scales as uint8, got {scale.dtype}")
    want = [rows, k // SCALE_GROUP]
    if list(scale.shape)[-2:] != want:
        raise LanguageError(f"{which}_scale must be a tensor of shape {want}. Got {list(scale.shape)}")
    return scale


@builtin
def dot_scaled(g, lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, fast_math=False,
               lhs_k_pack=True, rhs_k_pack=True, out_dtype=T.float32):
    if dtype_arg(out_dtype, "out_dtype") != T.float32:
        raise LanguageError("Only float32 is supported for out_dtype at the moment")
    if not isinstance(lhs, Tensor) or not isinstance(rhs, Tensor) or not lhs.is_block() or not rhs.is_block():
        raise LanguageError("tl.dot_scaled needs two tensors")
    if not (len(lhs.shape) == len(rhs.shape) == 2 or len(lhs.shape) == len(rhs.shape) == 3):
        raise LanguageError(f"Both inputs must be either 2D or 3D; (lhs: {list(lhs.shape)} vs rhs: {list(rhs.shape)})")
    fa, fb = _format(lhs_format, "lhs"), _format(rhs_format, "rhs")
    lhs, rhs = _as_format(g, lhs, fa, "lhs"), _as_format(g, rhs, fb, "rhs")
    lhs_k_pack, rhs_k_pack, fast_math = bool(unwrap(lhs_k_pack)), bool(unwrap(rhs_k_pack)), bool(unwrap(fast_math))
    for pack, fmt in ((lhs_k_pack, fa), (rhs_k_pack, fb)):
        if not pack and fmt != "e2m1":
            raise LanguageError("only mxfp4 inputs can be packed along a dimension different than K")
    m, k_lhs = lhs.shape[-2:]
    k_rhs, n = rhs.shape[-2:]
    pa, pb = (2 if fa == "e2m1" else 1), (2 if fb == "e2m1" else 1)
    if (pa * k_lhs if lhs_k_pack else k_lhs) != (pb * k_rhs if rhs_k_pack else k_rhs):
        raise LanguageError(
            f"Reduction dimension should pack the same number of elements; (lhs: {list(lhs.shape)} vs rhs: "
            f"{list(rhs.shape)})")
    k = k_lhs * pa if lhs_k_pack else k_lhs
    m, n = (m if lhs_k_pack else m * pa), (n if rhs_k_pack else n * pb)
    ret_ty = BlockType(T.float32, [lhs.shape[0], m, n] if len(lhs.shape) == 3 else [m, n])
    b = g.semantic.builder
    acc = unwrap(acc)
    zero = b.float_constant(0.0, T.float32.to_ir())  # made whether used or not, as in Triton
    if acc is None:
        acc_handle = b.splat(zero, ret_ty.to_ir())
    else:
        if not isinstance(acc, Tensor) or tuple(acc.shape) != tuple(ret_ty.shape) or acc.dtype != T.float32:
            raise LanguageError(f"the accumulator must be a {ret_ty} tensor")
        acc_handle = acc.handle
    sa, sb = _scale(lhs_scale, m, k, "lhs"), _scale(rhs_scale, n, k, "rhs")
    props = {"a_elem_type": IntegerAttr(SCALE_DOT_ELEM_TYPE[fa], i32),
             "b_elem_type": IntegerAttr(SCALE_DOT_ELEM_TYPE[fb], i32),
             "fastMath": BoolAttr(fast_math, i1),
             "lhs_k_pack": BoolAttr(lhs_k_pack, i1), "rhs_k_pack": BoolAttr(rhs_k_pack, i1)}
    operands = [lhs.handle, rhs.handle, acc_handle, [sa.handle] if sa else [], [sb.handle] if sb else []]
    op = b.create("tt.dot_scaled", operands, [ret_ty.to_ir()], props)
    return Tensor(op.results[0], ret_ty)
