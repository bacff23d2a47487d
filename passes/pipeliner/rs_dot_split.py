"""The split of a register-operand wgmma along K (Triton 3.6's splitRSDot, part of tritongpu-pipeline's
asyncLaunchDots): a `ttng.warp_group_dot` whose A is a tensor in registers and whose K is a multiple n > 1 of
its MMA instruction's K becomes n dots of one instruction's K each, chained through the accumulator, so that
the ones issued first can complete while later ones are in flight.

    A (M x K, dot operand layout): tt.reshape to M x 2 x .. x 2 x k (log2 n twos), tt.trans moving k next to M
    and the twos after it slowest first, tt.split (recursively) into n tensors M x k, each converted back to the
    dot operand layout (a conversion that moves no data);
    B (K x N, shared memory): n `ttg.memdesc_subslice` views k x N at K offsets 0, k, 2k, ...
    dots: the first takes the accumulator (and use-C flag) of the original, the others the previous result and
    `true`; each gets a share of maxNumImpreciseAcc (2^30 where it covers its whole k).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i1, i32
from xdsl.ir import Operation

from ttc.ir import ttg
from ttc.ir.layout_utils import split_encoding, trans_encoding
from ttc.ir.reshape_layout import infer_reshape_encoding
from ttc.ir.tt import ReshapeOp, SplitOp, TransOp
from ttc.ir.types import encoding, shape_of, tensor
from ttc.ir.memdesc import MemDescType


def split_rs_dot(dot: Operation) -> list[Operation]:
    """The dots `dot` becomes (itself alone when its A is in shared memory or K is one instruction's)."""
    a, b = dot.a, dot.b
    if isinstance(a.type, MemDescType):
        return [dot]
    k = shape_of(a.type)[-1]
    new_k = encoding(dot.d.type)["instrShape"][2]
    n = k // new_k
    if n <= 1:
        return [dot]
    block, loc = dot.parent, dot.location

    def add(op: Operation) -> Operation:
        op.location = loc
        block.insert_op_before(op, dot)
        return op

    e = a.type.element_type
    shape = list(shape_of(a.type))
    rank = len(shape)
    twos = n.bit_length() - 1
    shape4 = shape[:-1] + [2] * twos + [new_k]
    v = add(ReshapeOp.build(operands=[a], result_types=[
        tensor(shape4, e, infer_reshape_encoding(shape, encoding(a.type), shape4))])).results[0]
    order = list(range(rank - 1)) + [len(shape4) - 1] + list(reversed(range(rank - 1, len(shape4) - 1)))
    moved = [shape4[o] for o in order]
    v = add(TransOp.build(operands=[v], result_types=[tensor(moved, e, trans_encoding(encoding(v.type), order,
                                                                                        shape4))],
                          properties={"order": DenseArrayBase.from_list(i32, order)})).results[0]
    parts = [v]
    for _ in range(twos):
        nxt = []
        for p in parts:
            ps = shape_of(p.type)
            half = tensor(ps[:-1], e, split_encoding(encoding(p.type), ps))
            nxt += list(add(SplitOp.build(operands=[p], result_types=[half, half])).results)
        parts = nxt
    lhs = [add(ttg.ConvertLayoutOp.build(operands=[p], result_types=[
        tensor(shape[:-1] + [new_k], e, encoding(a.type))])).results[0] for p in parts]
    bt = b.type
    bshape = list(bt.get_shape())
    sub_shape = bshape[:-2] + [new_k, bshape[-1]]
    sub_t = MemDescType(type(bt.shape)([type(bt.shape.data[0])(d) for d in sub_shape]), bt.element_type,
                        bt.encoding, bt.memory_space, type(bt.mutable)(0), bt.alloc_shape)
    rhs = []
    for i in range(n):
        offsets = [0] * len(bshape)
        offsets[-2] = i * new_k
        rhs.append(add(ttg.MemDescSubsliceOp.build(operands=[b], result_types=[sub_t], properties={
            "offsets": DenseArrayBase.from_list(i32, offsets)})).results[0])
    acc, use_c = dot.c, dot.useC
    left = dot.maxNumImpreciseAcc.value.data
    dots = []
    true = None
    for i in range(n):
        take = min(left, new_k)
        left -= take
        new = add(ttg.WarpGroupDotOp.build(
            operands=[lhs[i], rhs[i], acc, [use_c] if use_c is not None else []], result_types=[dot.d.type],
            properties={"inputPrecision": dot.inputPrecision,
                        "maxNumImpreciseAcc": IntegerAttr(1 << 30 if take == new_k else take, i32),
                        "isAsync": dot.isAsync}))
        dots.append(new)
        acc = new.results[0]
        if true is None:
            true = arith.ConstantOp(IntegerAttr(1, i1), i1)
            true.location = loc
            block.insert_op_after(true, new)
            true = true.results[0]
        use_c = true
    dot.results[0].replace_all_uses_with(acc)
    dot.detach()
    dot.erase()
    return dots
