"""Moving tensor elements between layouts: within each thread when possible, through shared memory otherwise.

`register_map` finds, for every register of the destination layout, the register of the source layout that holds
the element it needs *in the same thread*: possible when the two layouts give lanes and warps the same elements
(after mapping the destination's coordinates to the source's by a linear map: identity for `convert_layout`, a
permutation for `tt.trans`, a projection for `tt.broadcast`, ...). Otherwise `exchange` goes through shared memory:
every thread writes the elements it holds, a barrier, every thread reads the elements it needs, with vector
accesses (up to 16 bytes), in one of two kinds of buffer, whichever the bank-conflict model scores lower (a
plain row-major buffer of single elements at equal score, its addresses being the elements' coordinates): a
linear XOR-swizzled buffer (`linear_exchange`: 128-bit accesses of non-consecutive registers, ldmatrix and from
sm_90 stmatrix where the lanes hold their fragments, one base address per thread and immediates, as Triton's
generic swizzling), or a padded or row-swizzled buffer (`exchange_plan`, with ldmatrix for mma.sync operands).
`ttg.convert_layout` is lowered here.
"""

from __future__ import annotations

from typing import Callable

import llvmlite.ir as ir

from ttc.lowering import nvvm
from ttc.ir.layout_utils import target_capability
from ttc.lowering.exchange_plan import exchange_plan, mapped_layout, plan_cost
from ttc.lowering.linear_exchange import LinearExchange, Side, addresses, linear_exchange
from ttc.ir.linear_layout import LinearLayout, UnsupportedLayout, layout_for
from ttc.ir.types import encoding, shape_of
from ttc.lowering.context import Lowering
from ttc.lowering.registry import lowering
from ttc.lowering.types import UnsupportedType, bits_of, i8, i32, llvm_type


def register_map(src: LinearLayout, dst: LinearLayout, f: Callable[[tuple], tuple]) -> list[int] | None:
    """Per destination register, the source register (same thread) holding the element at `f(coords)`; None when
    the lanes and warps of the two layouts do not line up."""
    if len(src.lane) != len(dst.lane) or len(src.warp) != len(dst.warp):
        return None
    for bs, bd in zip(src.lane + src.warp, dst.lane + dst.warp):
        if f(bd) != bs:
            return None
    out = []
    for c in dst.reg_coords:
        r = src.first_reg.get(f(c))
        if r is None:
            return None
        out.append(r)
    return out


def exchange(ctx, op, values: list, src: LinearLayout, dst: LinearLayout, f: Callable[[tuple], tuple]) -> list:
    """Through shared memory: the source tensor's elements, rearranged into the destination layout. `f` maps
    destination coordinates to source coordinates (linear over GF(2) in their bits; see `mapped_layout`). Where
    each element goes and which accesses every thread issues: `linear_exchange.linear_exchange` or
    `exchange_plan.exchange_plan` (the module docstring says which)."""
    b = ctx.b
    t = values[0].type
    st = ctx.stored_type(t)
    elem_bytes = max(1, bits_of(st) // 8)
    dst_in_src = mapped_layout(dst, src.shape, f)
    plan = exchange_choice(src, dst_in_src, elem_bytes, target_capability(op) or 90)
    if isinstance(plan, LinearExchange):
        return linear_exchange_registers(ctx, values, plan, dst_in_src)
    ctx.use_scratch(plan.nbytes)
    ops = IROps(b)

    def address(c):
        return ctx.smem_ptr(ops.value(plan.byte_offset(c, ops)))

    ctx.barrier_before_scratch()
    write_registers(ctx, values, src, plan.stores, plan.store_vec, address)
    ctx.barrier()
    return read_registers(ctx, dst_in_src, t, plan.loads, plan.load_vec, plan.ldmatrix, address)


def exchange_choice(src: LinearLayout, dst_in_src: LinearLayout, elem_bytes: int, capability: int):
    """The buffer `exchange` goes through (its `nbytes` are the scratch it needs): `linear_exchange`'s plan
    where the bank-conflict model scores it lower than `exchange_plan`'s, else the latter."""
    plan = exchange_plan(src, dst_in_src, elem_bytes)
    lin = linear_exchange(src, dst_in_src, elem_bytes, capability >= 75, capability >= 90)
    if lin is not None:
        old = plan_cost(plan, src, dst_in_src)
        # at equal cost a plain row-major buffer of single elements keeps its addresses the elements'
        # coordinates, which the kernel's other index arithmetic shares
        plain = (plan.max_phase == 1 and plan.row_elems == plan.shape[plan.inner] and plan.ldmatrix is None
                 and plan.store_vec == plan.load_vec == 1)
        if lin.cost < old or (lin.cost == old and not plain):
            return lin
    return plan


def rearrange_bytes(op, src_t, dst_t, f: Callable[[tuple], tuple] = lambda c: c) -> int:
    """The shared-memory scratch `rearrange` needs to move a tensor of type `src_t` into type `dst_t` at `op`
    (0 when registers are renamed; what shared-memory allocation reserves for the op, see
    `local_memory.assign_buffers`): `exchange`'s own choice of buffer."""
    try:
        src, dst = (layout_for(tuple(shape_of(t)), encoding(t)) for t in (src_t, dst_t))
        st = Lowering.stored_type(llvm_type(src_t.element_type))
    except (UnsupportedLayout, UnsupportedType, TypeError, AttributeError):
        return 0  # the lowering reports it
    if register_map(src, dst, f) is not None:
        return 0
    plan = exchange_choice(src, mapped_layout(dst, src.shape, f), max(1, bits_of(st) // 8), target_capability(op) or 90)
    return plan.nbytes


def linear_exchange_registers(ctx, values: list, plan: LinearExchange, dst: LinearLayout) -> list:
    """`plan`'s exchange (`linear_exchange`): every thread's stores, a barrier, its loads, once per round (a
    barrier between rounds); returns `dst`'s registers."""
    ctx.use_scratch(plan.nbytes)
    ctx.barrier_before_scratch()
    # rounds through a buffer of 1/2^reps of the tensor (as Triton's reps; one round where reps is 0): each
    # stores, a barrier, loads
    inv, out = plan.round_inverse, [None] * dst.num_regs
    for i, (st, ld) in enumerate(zip(plan.rounds(plan.store), plan.rounds(plan.load))):
        if i:
            ctx.barrier()
        store_side(ctx, values, st, side_pointers(ctx, inv, plan.elem_bytes, st, ctx.scratch_at))
        ctx.barrier()
        got = load_side(ctx, dst, values[0].type, ld, side_pointers(ctx, inv, plan.elem_bytes, ld, ctx.scratch_at))
        out = [o if o is not None else g for o, g in zip(out, got)]
    return out


def store_side(ctx, values: list, side: Side, pointers) -> None:
    """`side`'s stores of the registers `values` (vectors, or stmatrix of 32-bit words of 1, 2 or 4 elements) at
    `pointers`."""
    b = ctx.b
    st = ctx.stored_type(values[0].type)
    for ptr, slots in pointers:
        if side.kind == "vec":
            ctx.store_vector(ptr, [to_stored(b, values[r], st) for r in slots])
        else:
            p = len(slots) // 4
            words = [b.bitcast(pack(b, [to_stored(b, values[r], st) for r in slots[p * j:p * j + p]]) if p > 1
                               else to_stored(b, values[slots[j]], st), i32) for j in range(4)]
            stmatrix(b, ptr, words, side.kind.endswith("trans"))


def load_side(ctx, dst: LinearLayout, t, side: Side, pointers) -> list:
    """`dst`'s registers (of type `t`) read by `side`'s loads (vectors, or ldmatrix of 32-bit words of 1, 2 or 4
    elements) at `pointers`; registers repeating an element copy the loaded one."""
    b = ctx.b
    st = ctx.stored_type(t)
    out = [None] * dst.num_regs
    for ptr, slots in pointers:
        if side.kind == "vec":
            for r, v in zip(slots, ctx.load_vector(ptr, st, len(slots))):
                out[r] = from_stored(b, v, t)
        else:
            p = len(slots) // 4
            for j, word in enumerate(ldmatrix(b, ptr, side.kind.endswith("trans"))):
                if p == 1:
                    out[slots[j]] = from_stored(b, b.bitcast(word, st) if st != i32 else word, t)
                    continue
                vec = b.bitcast(word, ir.VectorType(st, p))
                for e in range(p):
                    out[slots[p * j + e]] = from_stored(b, b.extract_element(vec, ir.Constant(i32, e)), t)
    zero = sum(1 << i for i, v in enumerate(dst.reg) if not any(v))
    return [out[r] if out[r] is not None else out[r & ~zero] for r in range(dst.num_regs)]


def side_pointers(ctx, inverse, elem_bytes: int, side: Side, base):
    """(pointer, register slots) of each of `side`'s instructions in a linear buffer (`inverse`: coordinate bit ->
    element offset) starting at byte `base` (an int or an i32 value), from `linear_exchange.addresses`: the
    thread's base offset XORed with a constant once per distinct constant, the rest of the instruction's
    constant an immediate."""
    ops = IROps(ctx.b)
    pointers = {}
    fixed = base if isinstance(base, int) else 0
    for x, a, slots in addresses(inverse, elem_bytes, side, ops, ctx.tid()):
        key = x if isinstance(x, int) else id(x)
        if key not in pointers:   # x kept alive with its id
            pointers[key] = (ctx.shared_ptr(ops.value(x if fixed == base else ops.add(x, base))), x)
        p = pointers[key][0]
        a += fixed
        yield (ctx.b.gep(p, [ir.Constant(i32, a)], source_etype=i8) if a else p), slots


def pack(b, vals: list):
    """Values as one LLVM vector."""
    vec = ir.Constant(ir.VectorType(vals[0].type, len(vals)), ir.Undefined)
    for i, v in enumerate(vals):
        vec = b.insert_element(vec, v, ir.Constant(i32, i))
    return vec


def stmatrix(b, ptr, words: list, trans: bool) -> None:
    """`stmatrix.sync.aligned.m8n8.x4[.trans].shared.b16` of four 32-bit registers at this lane's row address
    (NVVM's intrinsic, as `ldmatrix`)."""
    nvvm.call(b, f"llvm.nvvm.stmatrix.sync.aligned.m8n8.x4{'.trans' if trans else ''}.b16", ir.VoidType(), [ptr] + words)


def write_registers(ctx, values: list, ll: LinearLayout, starts, vec: int, address, reg_address=None) -> None:
    """Store the registers of layout `ll` into shared memory, `vec` of them per access from each of `starts`;
    `address(coords)` is the pointer of the element at `coords` (i32 values), unless `reg_address` (register ->
    pointer) has them."""
    st = ctx.stored_type(values[0].type)
    coords = ctx.coords(ll) if reg_address is None else None
    for r in starts:
        ptr = reg_address[r] if reg_address is not None else address(coords[r])
        ctx.store_vector(ptr, [to_stored(ctx.b, values[r + i], st) for i in range(vec)])


def read_registers(ctx, ll: LinearLayout, t, starts, vec: int, ldm, address, reg_address=None) -> list:
    """The registers of layout `ll` (element type `t`) read from shared memory: by the ldmatrix loads `ldm` when
    given, else `vec` per access from each of `starts`; registers repeating an element copy the first holding
    it. `address(coords)` as for `write_registers`."""
    b = ctx.b
    out = [None] * ll.num_regs
    if ldm is not None:
        coords = ctx.coords(ldm.rows)
        load_ldmatrix(b, ldm, lambda g: address(coords[g]), t, out)
    else:
        st = ctx.stored_type(t)
        coords = ctx.coords(ll) if reg_address is None else None
        for r in starts:
            ptr = reg_address[r] if reg_address is not None else address(coords[r])
            for i, v in enumerate(ctx.load_vector(ptr, st, vec)):
                out[r + i] = from_stored(b, v, t)
    for r in range(ll.num_regs):
        if out[r] is None:
            out[r] = out[ll.first_reg[ll.reg_coords[r]]]
    return out


def load_ldmatrix(b, ldm, address, t, out: list) -> None:
    """The registers of `ldm`'s loads into `out` (values of type `t`, `ldm.per_word` to a 32-bit word);
    `address(g)` is this lane's row pointer for the load at register g."""
    p = ldm.per_word
    for g in ldm.groups:
        for j, word in enumerate(ldmatrix(b, address(g), ldm.trans)):
            if p == 1:
                out[g + j] = b.bitcast(word, t) if word.type != t else word
                continue
            vec = b.bitcast(word, ir.VectorType(t, p))
            for e in range(p):
                out[g + p * j + e] = b.extract_element(vec, ir.Constant(i32, e))


def ldmatrix(b, ptr, trans: bool) -> list:
    """The four 32-bit registers of `ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16` from this lane's row
    address `ptr` (a shared pointer), through NVVM's intrinsic (as Triton's NVVM op): it reads only its argument's
    memory, so it stays between the exchange's barriers, and a constant offset becomes its immediate."""
    name = f"llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4{'.trans' if trans else ''}.b16"
    res = nvvm.call(b, name, ir.LiteralStructType([i32] * 4), [ptr])
    return [b.extract_value(res, j) for j in range(4)]


def to_stored(b, v, st):
    if v.type == st:
        return v
    return b.zext(v, st) if isinstance(v.type, ir.IntType) else b.ptrtoint(v, st)


def from_stored(b, v, t):
    if v.type == t:
        return v
    return b.trunc(v, t) if isinstance(t, ir.IntType) else b.inttoptr(v, t)


class IROps:
    """`ExchangePlan.byte_offset`'s arithmetic as i32 LLVM IR; ints stay ints (folded) until `value`."""

    def __init__(self, b):
        self.b = b

    @staticmethod
    def value(x):
        return ir.Constant(i32, x) if isinstance(x, int) else x

    def _bin(self, name, x, y, fold):
        if isinstance(x, int) and isinstance(y, int):
            return fold(x, y)
        return getattr(self.b, name)(self.value(x), self.value(y))

    def shl(self, x, k):
        return x if k == 0 else self._bin("shl", x, k, lambda p, q: p << q)

    def lshr(self, x, k):
        return x if k == 0 else self._bin("lshr", x, k, lambda p, q: p >> q)

    def and_(self, x, m):
        return self._bin("and_", x, m, lambda p, q: p & q)

    def or_(self, x, y):
        if isinstance(y, int) and y == 0:
            return x
        if isinstance(x, int) and x == 0:
            return y
        return self._bin("or_", x, y, lambda p, q: p | q)

    def xor(self, x, y):
        if isinstance(y, int) and y == 0:
            return x
        return self._bin("xor", x, y, lambda p, q: p ^ q)

    def mul(self, x, k):
        return self._bin("mul", x, k, lambda p, q: p * q)

    def sub(self, x, y):
        return self._bin("sub", x, y, lambda p, q: p - q)

    def add(self, x, y):
        if isinstance(y, int) and y == 0:
            return x
        return self._bin("add", x, y, lambda p, q: p + q)


def rearrange(ctx, op, values: list, src: LinearLayout, dst: LinearLayout, f: Callable[[tuple], tuple]) -> list:
    """Registers of `dst` from those of `src`: by register renaming when possible, else through shared memory.
    `f` maps destination coordinates to source coordinates (linear over GF(2) in their bits)."""
    m = register_map(src, dst, f)
    if m is not None:
        return [values[r] for r in m]
    return exchange(ctx, op, values, src, dst, f)


@lowering("ttg.convert_layout")
def _convert_layout(ctx, op):
    src = ctx.layout(op.src.type, op)
    dst = ctx.layout(op.result.type, op)
    ctx.set(op.result, rearrange(ctx, op, ctx.get(op.src), src, dst, lambda c: c))
