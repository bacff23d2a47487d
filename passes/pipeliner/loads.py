"""What makes a `tt.load` worth software-pipelining and which shared layout its multi-buffer gets (Triton's
isSmallLoad, getSharedEncIfAllUsersAreDotEnc, getSharedEncoding and getCopyVecBytes), for
tritongpu-assign-latencies and tritongpu-pipeline."""

from __future__ import annotations

from xdsl.ir import Attribute, Operation

from ttc.analysis.axis_info import AxisInfoAnalysis, access_width, mask_width
from ttc.ir.layout_utils import get_order, linear_orders
from ttc.ir.layouts import DotOperandEncoding, NvidiaMmaEncoding, NVMMASharedEncoding, SwizzledSharedEncoding
from ttc.ir.types import bitwidth, elt, encoding, shape_of
from ttc.ir.linear_layout import UnsupportedLayout, layout_for


def _reg_order(load: Operation) -> list[int]:
    """The pointers' layout order as Triton reads it off the linear layout (registers first: a blocked layout
    whose registers run along another dimension than its `order` names goes by them)."""
    enc = encoding(load.ptr.type)
    orders = linear_orders(shape_of(load.ptr.type), enc)
    return orders[0] if orders is not None else get_order(enc)


def _fastest_dim(load: Operation) -> int:
    return _reg_order(load)[0]


def _contiguous_regs(load: Operation, dim: int) -> int:
    try:
        return layout_for(shape_of(load.ptr.type), encoding(load.ptr.type)).contiguous_regs(dim)
    except UnsupportedLayout:
        return 1


def copy_width(load: Operation, axis: AxisInfoAnalysis) -> int:
    """Elements one copy of `load` moves per thread: the pointers' aligned contiguity along the layout's
    fastest dimension within a thread's registers, narrowed by the mask's (at most 128 bits)."""
    order0 = _fastest_dim(load)
    bits = max(8, bitwidth(elt(load.result.type)))
    return mask_width(axis, load.mask, order0, access_width(axis, load.ptr, order0, _contiguous_regs(load, order0),
                                                           bits))


def is_small_load(load: Operation, axis: AxisInfoAnalysis) -> bool:
    """Under 32 bits per access: cp.async copies 4, 8 or 16 bytes (a layout we cannot model counts as small)."""
    if encoding(load.ptr.type) is None:
        return True
    return copy_width(load, axis) * max(8, bitwidth(elt(load.result.type))) < 32


def mma_v2_shared_layout(shape, order, bits: int, op_idx: int, k_width: int,
                         need_trans: bool = False) -> SwizzledSharedEncoding:
    """Triton 3.6's `#ttg.swizzled_shared` for an MMA operand in registers (its SwizzledSharedEncodingAttr builder
    for NVIDIA dot operands): `perPhase` rows of the contiguous extent K fill the 1024 bits of the banks; `vec` is
    4 * kWidth elements along K (8 rows along M/N where the contiguous dimension is not K), the other of the two
    the swizzle stride; `maxPhase` is the phases that stride (capped at the vectors filling the banks) spans, over
    perPhase. An upcast operand (kWidth from the wider type) swizzles by kWidth. `need_trans` (an operand stored
    before a transpose) swaps vec and stride first, as flipping the operand index does."""
    rank = len(shape)
    k = shape[order[0]]
    per_phase = max(1024 // (bits * k), 1)
    vec, stride = 4 * k_width, 8
    if need_trans:
        vec, stride = stride, vec
    if order[0] != (rank - 1 if op_idx == 0 else rank - 2):  # contiguous along M/N
        vec, stride = stride, vec
    max_phase = max(min(stride, 1024 // (vec * bits)), 1)
    return SwizzledSharedEncoding.make(vec=vec, perPhase=per_phase, maxPhase=max(max_phase // per_phase, 1),
                                       order=order)


def shared_encoding_of_users(load: Operation) -> tuple[bool, Attribute | None]:
    """Triton's getSharedEncIfAllUsersAreDotEnc: (compatible, the one shared layout the users want): a
    local_alloc's layout, or an MMA v2 operand's swizzled layout for a conversion to a `#ttg.dot_op` of an
    `#ttg.nvidia_mma` (or a `tt.trans` to one: the layout of the transposed operand, in the load's order).
    Another kind of user gives (True, None); users that want two layouts (False, None)."""
    found = None
    for use in load.results[0].uses:
        op = use.operation
        if op.name == "ttg.local_alloc":
            want = op.result.type.encoding
        elif op.name in ("ttg.convert_layout", "ttg.local_load", "tt.trans"):
            # follow single-use conversions and a transpose to the dot operand layout
            transposed, cur = False, op
            while True:
                transposed ^= cur.name == "tt.trans"
                enc = encoding(cur.results[0].type)
                uses = list(cur.results[0].uses)
                if isinstance(enc, DotOperandEncoding) or len(uses) != 1 or \
                        uses[0].operation.name not in ("ttg.convert_layout", "tt.trans"):
                    break
                cur = uses[0].operation
            if not isinstance(enc, DotOperandEncoding) or not isinstance(enc["parent"], NvidiaMmaEncoding):
                return True, None
            shape, order = shape_of(load.result.type), get_order(encoding(load.ptr.type))
            if transposed:  # the operand is the transposed tensor: its layout seen transposed
                if len(shape) != 2:
                    return True, None
                shape, order = shape[::-1], [1 - o for o in order]
            want = mma_v2_shared_layout(shape, order, bitwidth(elt(load.result.type)), enc["opIdx"], enc["kWidth"])
            if transposed:
                want = SwizzledSharedEncoding.make(vec=want["vec"], perPhase=want["perPhase"],
                                                   maxPhase=want["maxPhase"], order=[1 - o for o in want["order"]])
        else:
            return True, None
        if found is not None and found != want:
            return False, None
        found = want
    return True, found


def shared_encoding(load: Operation) -> Attribute:
    """Triton's getSharedEncoding for a load's multi-buffer: its local_alloc users' layout, else the one its dot
    operand users want, else an unswizzled `#ttg.swizzled_shared` in the load's order."""
    allocs = [u.operation for u in load.results[0].uses if u.operation.name == "ttg.local_alloc"]
    if allocs:
        return allocs[0].result.type.encoding
    _, enc = shared_encoding_of_users(load)
    if enc is not None:
        return enc
    return SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=get_order(encoding(load.result.type)))


def copy_vec_bytes(load: Operation, shared: Attribute) -> int:
    """Bytes a thread's registers keep contiguous in the shared layout (Triton's getCopyVecBytes): the thread's
    contiguous registers along the fastest dimension, cut to the swizzle vector of a swizzled layout (one element
    where an unswizzled layout, or an nvmma_shared one, runs fastest along another dimension than the registers)."""
    order = _reg_order(load)
    regs = _contiguous_regs(load, order[0])
    if isinstance(shared, SwizzledSharedEncoding) and shared["maxPhase"] > 1:
        regs = min(regs, shared["vec"])
    elif isinstance(shared, SwizzledSharedEncoding) and shared["order"][0] != order[0]:
        regs = 1
    elif isinstance(shared, NVMMASharedEncoding):  # rows along the last dimension, or the first when transposed
        fast = 0 if shared["transposed"] else len(shape_of(load.result.type)) - 1
        if order[0] != fast:
            regs = 1
    return regs * bitwidth(elt(load.result.type)) // 8
