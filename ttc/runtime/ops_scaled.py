"""The interpreter's microscaled ops: `tt.dot_scaled` and `ttg.fp4_to_fp` (values decoded by `minifloat`).

`tt.dot_scaled` computes what Triton's decomposition for targets without MX dots computes: each operand upcast
to the compute type (fp16 when either operand is fp16, else bf16), multiplied by 2^(s - 127) of its scale (NaN
where the scale byte is 0xFF) with the product rounded to the compute type, then an ordinary dot accumulating in
float32."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float16Type

from ttc.runtime import dtypes
from ttc.runtime.minifloat import e8m0, unpack_e2m1
from ttc.runtime.registry import handler
from ttc.ir.scaled import SCALE_GROUP


def compute_type(formats) -> object:
    """The element type Triton upcasts both operands of a scaled dot to."""
    return Float16Type() if "fp16" in formats else BFloat16Type()


def upcast(value, fmt: str, k_pack: bool, k_axis: int, scale, ctype) -> np.ndarray:
    """An operand of `tt.dot_scaled` as values of `ctype`: e2m1 unpacked (along K, or the other dimension when
    not `k_pack`), scaled per group of 32 along K."""
    if fmt == "e2m1":
        axis = k_axis if k_pack else -3 - k_axis  # K, or the M (N) axis: -1 <-> -2
        value = unpack_e2m1(value, value.ndim + axis)
    v = dtypes.fit(np.asarray(value, dtype=np.float32), ctype)
    if scale is not None:
        s = np.repeat(e8m0(scale), SCALE_GROUP, axis=-1)  # rows x K
        if k_axis == -2:
            s = np.swapaxes(s, -1, -2)  # the rhs scale is N x K/32: K along the rows of b
        v = dtypes.fit(v * s, ctype)
    return v


@handler("tt.dot_scaled")
def dot_scaled(ip, op, args):
    fa, fb = op.formats
    ctype = compute_type((fa, fb))
    a_scale = ip.env[op.a_scale] if op.a_scale is not None else None
    b_scale = ip.env[op.b_scale] if op.b_scale is not None else None
    a = upcast(ip.env[op.a], fa, op.lhs_k_pack.value.data, -1, a_scale, ctype)
    b = upcast(ip.env[op.b], fb, op.rhs_k_pack.value.data, -2, b_scale, ctype)
    c = np.asarray(ip.env[op.c], dtype=np.float32)
    return dtypes.fit(np.matmul(a.astype(np.float32), b.astype(np.float32)) + c, op.d.type)


@handler("ttg.fp4_to_fp")
def fp4_to_fp(ip, op, args):
    return dtypes.fit(unpack_e2m1(args[0], op.axis.value.data), op.result.type)
