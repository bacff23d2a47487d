"""Interpreter handlers for tensor-valued `tt`/`ttg`/`ttng` ops: shapes (splat, broadcast, reshape, ...),
reductions and scans with their combine regions, dots, conversions, gathers, histograms and libdevice calls.

Combine regions run on whole slices: a reduce pairs neighbouring elements along the axis (a tree, as the GPU
does, relying on the associativity Triton requires), a scan folds sequentially along the axis; both call the
region once per step on arrays holding every other position. A region whose control flow depends on the
elements (an `scf.if` on an element) is run one element at a time instead.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import Float32Type

from ttc.ir.types import elt, shape_of
from ttc.runtime import dtypes, libdevice
from ttc.runtime.dtypes import as_signed, fit, value_dtype
from ttc.runtime.errors import Fault
from ttc.runtime.errors import NeedsScalar
from ttc.runtime.ops_arith import _wrap, bitcast, mulhi_unsigned
from ttc.runtime.registry import handler


def _rtype(op):
    return op.results[0].type


def _one_or_list(values: list):
    return values[0] if len(values) == 1 else values


# ----------------------------------------------------------------------------- shapes


@handler("tt.make_range")
def make_range(ip, op, args):
    v = ip.cache.get(op)
    if v is None:
        v = ip.cache[op] = np.arange(op.start.value.data, op.end.value.data, dtype=np.int32)
    return v


@handler("tt.splat")
def splat(ip, op, args):
    return np.full(shape_of(_rtype(op)), args[0], dtype=value_dtype(_rtype(op)))


@handler("tt.broadcast")
def broadcast(ip, op, args):
    return np.broadcast_to(args[0], shape_of(_rtype(op)))


@handler("tt.expand_dims")
def expand_dims(ip, op, args):
    return np.expand_dims(args[0], op.axis.value.data)


@handler("tt.reshape")
def reshape(ip, op, args):
    return np.reshape(args[0], shape_of(_rtype(op)))


@handler("tt.trans")
def trans(ip, op, args):
    return np.transpose(args[0], tuple(op.order.get_values()))


@handler("tt.cat")
def cat(ip, op, args):
    return np.concatenate([args[0], args[1]], axis=0)


@handler("tt.join")
def join(ip, op, args):
    return np.stack([args[0], args[1]], axis=-1)


@handler("tt.split")
def split(ip, op, args):
    return [args[0][..., 0], args[0][..., 1]]


@handler("tt.gather")
def gather(ip, op, args):
    """result[i] = src[i with i[axis] replaced by index[i]]; an index outside the source's axis is a fault (on
    the GPU it reads an unspecified element)."""
    axis = op.axis.value.data
    index = as_signed(args[1]).astype(np.int64)
    n = np.shape(args[0])[axis]
    bad = (index < 0) | (index >= n)
    if bad.any():
        raise Fault(f"gather index {int(index[bad].flat[0])} is out of range for axis {axis} of size {n}")
    return np.take_along_axis(np.asarray(args[0]), index, axis)


@handler("ttg.convert_layout")
def convert_layout(ip, op, args):
    return args[0]


# ----------------------------------------------------------------------------- reduce and scan


def _combine(ip, region, lhs: list, rhs: list) -> list:
    _, values = ip.run_region(region, [*lhs, *rhs])
    return values


def _reduce_pairs(ip, region, xs: list) -> list:
    while xs[0].shape[0] > 1:
        n = xs[0].shape[0]
        h = n // 2
        lhs = [x[0:2 * h:2] for x in xs]
        out = _combine(ip, region, lhs, [x[1:2 * h:2] for x in xs])
        out = [o if np.shape(o) == l.shape else np.broadcast_to(o, l.shape) for o, l in zip(out, lhs)]
        if n % 2:
            out = [np.concatenate([o, x[n - 1:]]) for o, x in zip(out, xs)]
        xs = out
    return [x[0] for x in xs]


def _elementwise(ip, region, xs: list, scan: bool) -> list:
    """The fold of a reduce, or a scan, one element of the other axes at a time (scalar control flow)."""
    n, rest = xs[0].shape[0], xs[0].shape[1:]
    outs = [np.empty(xs[0].shape if scan else rest, dtype=x.dtype) for x in xs]
    for idx in np.ndindex(*rest):
        acc = [x[(0,) + idx] for x in xs]
        if scan:
            for o, a in zip(outs, acc):
                o[(0,) + idx] = a
        for i in range(1, n):
            acc = _combine(ip, region, acc, [x[(i,) + idx] for x in xs])
            if scan:
                for o, a in zip(outs, acc):
                    o[(i,) + idx] = a
        if not scan:
            for o, a in zip(outs, acc):
                o[idx] = a
    return outs


@handler("tt.reduce")
def reduce(ip, op, args):
    axis = op.axis.value.data
    xs = [np.moveaxis(np.asarray(a), axis, 0) for a in args]
    try:
        values = _reduce_pairs(ip, op.combineOp, xs)
    except NeedsScalar:
        values = _elementwise(ip, op.combineOp, xs, scan=False)
    return _one_or_list([fit(v, r.type) for v, r in zip(values, op.results)])


@handler("tt.scan")
def scan(ip, op, args):
    axis = op.axis.value.data
    reverse = bool(op.reverse.value.data)
    xs = [np.moveaxis(np.asarray(a), axis, 0) for a in args]
    if reverse:
        xs = [x[::-1] for x in xs]
    try:
        n = xs[0].shape[0]
        outs = [np.empty(x.shape, dtype=x.dtype) for x in xs]
        acc = [x[0] for x in xs]
        for i in range(n):
            if i:
                acc = _combine(ip, op.combineOp, acc, [x[i] for x in xs])
            for o, a in zip(outs, acc):
                o[i] = a
    except NeedsScalar:
        outs = _elementwise(ip, op.combineOp, xs, scan=True)
    if reverse:
        outs = [o[::-1] for o in outs]
    return _one_or_list([fit(np.moveaxis(o, 0, axis), r.type) for o, r in zip(outs, op.results)])


# ----------------------------------------------------------------------------- dot

TF32 = 0  # INPUT_PRECISION in ttc/ir/tt.py


def dot(a, b, c, precision: int, a_type, c_type):
    """d = a @ b + c: floats in float32 (float64 for f64 accumulators), with fp32 inputs rounded to tf32 when
    the precision is tf32 (the 3-pass tf32x3/bf16x3/bf16x6 modes count as full fp32); integers exactly, wrapped
    to the accumulator's width."""
    ce = elt(c_type)
    if dtypes.is_float_type(ce):
        ct = np.float64 if value_dtype(ce) == np.float64 else np.float32
        # contiguous copies: BLAS sums in an order that depends on the operands' memory layout, and a pass that
        # only moves an operand through shared memory (a transposed view) must not change the result's bits
        a2, b2 = np.ascontiguousarray(a, dtype=ct), np.ascontiguousarray(b, dtype=ct)
        if precision == TF32 and isinstance(elt(a_type), Float32Type):
            a2, b2 = dtypes.round_tf32(a2), dtypes.round_tf32(b2)
        return fit(np.matmul(a2, b2) + np.asarray(c, dtype=ct), c_type)
    prod = np.matmul(as_signed(a).astype(np.int64), as_signed(b).astype(np.int64))
    return _wrap(prod + as_signed(c).astype(np.int64), c_type)


@handler("tt.dot")
def tt_dot(ip, op, args):
    a, b, c = args
    return dot(a, b, c, op.inputPrecision.value.data, op.a.type, op.c.type)


@handler("ttng.warp_group_dot")
def warp_group_dot(ip, op, args):
    from ttc.runtime.ops_memory import MemDesc

    a, b, c = ip.env[op.a], ip.env[op.b], ip.env[op.c]
    a_type = op.a.type.element_type if isinstance(a, MemDesc) else op.a.type
    a = a.read() if isinstance(a, MemDesc) else a
    use_c = ip.get(op.useC)
    if use_c is not None and not bool(use_c):
        c = dtypes.zeros(op.c.type)
    return dot(a, b.read(), c, op.inputPrecision.value.data, a_type, op.c.type)


@handler("ttng.warp_group_dot_wait")
def warp_group_dot_wait(ip, op, args):
    return _one_or_list(list(args))


# ----------------------------------------------------------------------------- conversions


@handler("tt.fp_to_fp")
def fp_to_fp(ip, op, args):
    t = _rtype(op)
    r = fit(args[0], t)
    if op.rounding is not None and op.rounding.value.data == 0:  # rtz: step back toward zero where RNE went past
        x, rs = np.asarray(args[0], dtype=np.float64), np.asarray(r, dtype=np.float64)
        bits = np.asarray(dtypes.to_storage(r, t))
        u = bits.view(dtypes.unsigned_dtype(bits.dtype))
        stepped = dtypes.from_storage((u - u.dtype.type(1)).view(bits.dtype), t)
        r = np.where(np.abs(rs) > np.abs(x), stepped, r).astype(r.dtype)
    return r


@handler("tt.bitcast")
def tt_bitcast(ip, op, args):
    return bitcast(args[0], op.src.type, _rtype(op))


@handler("tt.int_to_ptr")
def int_to_ptr(ip, op, args):
    return as_signed(args[0]).astype(np.int64)


@handler("tt.ptr_to_int")
def ptr_to_int(ip, op, args):
    return _wrap(args[0], _rtype(op))


@handler("tt.clampf")
def clampf(ip, op, args):
    x, lo, hi = args
    if op.propagateNan.value.data:
        return fit(np.minimum(np.maximum(x, lo), hi), _rtype(op))
    return fit(np.fmin(np.fmax(x, lo), hi), _rtype(op))


@handler("tt.precise_sqrt")
def precise_sqrt(ip, op, args):
    return fit(np.sqrt(args[0]), _rtype(op))


@handler("tt.precise_divf")
def precise_divf(ip, op, args):
    return fit(np.divide(args[0], args[1]), _rtype(op))


@handler("tt.mulhiui")
def mulhiui(ip, op, args):
    t = _rtype(op)
    return _wrap(mulhi_unsigned(args[0], args[1], dtypes.int_width(t)), t)


@handler("tt.histogram")
def histogram(ip, op, args):
    """Counts of the values 0 .. N-1 (N bins); values outside that range, and masked-off lanes, are not counted."""
    t = _rtype(op)
    n = shape_of(t)[0]
    src = as_signed(args[0]).reshape(-1).astype(np.int64)
    keep = (src >= 0) & (src < n)
    mask = ip.get(op.mask)
    if mask is not None:
        keep &= np.broadcast_to(mask, np.shape(args[0])).reshape(-1)
    return _wrap(np.bincount(src[keep], minlength=n), t)


@handler("tt.extern_elementwise")
def extern_elementwise(ip, op, args):
    return libdevice.call(op.symbol.data, args, _rtype(op))


def _element_bits(x, t) -> np.ndarray:
    """The bits of values of element type `t`, flat, as uint64 (bf16: its 16 bits)."""
    x = np.asarray(x)
    if dtypes.is_bf16(t):
        return dtypes.to_storage(x, t).astype(np.uint64).reshape(-1)
    if x.dtype == np.bool_:
        return x.astype(np.uint64).reshape(-1)
    return x.view(dtypes.unsigned_dtype(x.dtype)).astype(np.uint64).reshape(-1)


def _from_element_bits(bits, t) -> np.ndarray:
    dt = dtypes.storage_dtype(t)
    return dtypes.from_storage(bits.astype(dtypes.unsigned_dtype(dt)).view(dt), t)


@handler("tt.elementwise_inline_asm")
def elementwise_inline_asm(ip, op, args):
    """PTX evaluated by ttc.runtime.ptx, `packed_element` consecutive (row-major) elements per call."""
    from ttc.runtime import ptx

    pack = op.packed_element.value.data
    res = list(op.results)
    shape = tuple(shape_of(res[0].type)) if res and hasattr(res[0].type, "get_shape") else ()
    numel = int(np.prod(shape)) if shape else 1
    in_types = [elt(v.type) for v in op.operands]
    out_types = [elt(r.type) for r in res]
    in_bits, out_bits = [dtypes.bit_width(t) for t in in_types], [dtypes.bit_width(t) for t in out_types]
    if args:
        if numel % pack:
            raise ptx.PtxUnsupported(f"packed_element = {pack} does not divide the {numel} elements")
        n = numel // pack
        inputs = [_element_bits(np.broadcast_to(a, shape), t) for a, t in zip(args, in_types)]
    else:  # one call
        n, inputs = 1, []
        if numel != pack:
            raise ptx.PtxUnsupported("an inline asm without operands runs once: its results need packed_element "
                                     "elements")
    outs = ptx.run(op.asm_string.data, op.constraints.data, inputs, in_bits, out_bits, pack, n)
    values = [_from_element_bits(o[:numel], t).reshape(shape) for o, t in zip(outs, out_types)]
    if not shape:
        values = [v.reshape(()) for v in values]
    return _one_or_list(values)
