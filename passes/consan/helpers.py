"""The concurrency sanitizer's helper functions and their call sites (Triton's TritonInstrument
FunctionBuilder.cpp): each check or update of the auxiliary state (`aux.py`) is a private `tt.func`
`@__triton_consan_<name>_nw<warps>_T<hash>...`, made at the start of the module the first time a call site needs
it (one per name, number of warps, argument types and specialisation), and called with `tt.call`. The four checks
return an i1 (tensor) that the call site asserts with `tti.experimental_assert_in_thread`; the updates run their
body only when their predicate holds (`cf.cond_br`).

A call site creates, in this order, the predicate (`arith.constant true` when the op has none), its thread, mask
or count constants, `tti.experimental_memdesc_to_i32` of the buffer or barrier and its length; each body is the
op-for-op port of Triton's, so that layouts first appear where Triton's do (MLIR numbers layout aliases in print
order, and the helpers print before the kernel). A helper whose state is absent (no buffers of that memory, no
barriers, no commit table of that kind) is not called.

Two departures: `_T<hash>` hashes the type's text (Triton hashes a type's address, which changes from run to
run), and `copy_read_visibility`'s name also carries its destination mask, which its body bakes in (Triton's
cache key leaves it out, so two `ttg.warp_specialize` ops with different partitions would share one body).
"""

from __future__ import annotations

import hashlib

from xdsl.dialects.builtin import BoolAttr, FunctionType, IntegerAttr, IntegerType, StringAttr, i1, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ttc.passes.consan.aux import (
    AuxData,
    Builder,
    ConsanError,
    NUM_THREADS,
    SHARED,
    load_scratch,
    region_num_warps,
    single_dim_slice,
    store_scratch,
)
from ttc.analysis.alias import memdesc_bytes
from ttc.ir.attr_printer import attr_text
from ttc.ir.layout_utils import slice_of
from ttc.ir.tt import FuncOp
from ttc.ir.types import elt, encoding, shape_of, tensor

# mbarrier state bits and the waiting table's two bits per base thread
PHASE_BIT, INIT_COUNT_LSB, CURRENT_COUNT_LSB, COUNT_MASK = 0, 1, 9, 0xFF
FLAG_MASK = sum(1 << (2 * i) for i in range(NUM_THREADS))
PHASE_MASK = sum(1 << (2 * i + 1) for i in range(NUM_THREADS))


def _with_elt(t: Attribute, e: Attribute) -> Attribute:
    return tensor(shape_of(t), e, encoding(t))


def _mangle(part) -> str:
    if isinstance(part, int):
        return f"_I{part}"
    digest = hashlib.sha256(attr_text(part).encode()).hexdigest()[:16]
    return f"_T{int(digest, 16):X}"


# ----------------------------------------------------------------------------- IR utilities (in the helper bodies)


def _if(fb: Builder, cond: SSAValue) -> tuple[Block, Block]:
    """Triton's createIfBlock: split the block at the insertion point into `cond_br cond, ^if, ^then`; `^if`
    (empty but for `cf.br ^then`) and `^then` (what followed the insertion point) are returned."""
    prev = fb.block
    if_b, then_b = Block(), Block()
    prev.parent.insert_block_after(if_b, prev)
    prev.parent.insert_block_after(then_b, if_b)
    op = fb.anchor
    while op is not None:
        nxt = op.next_op
        op.detach()
        then_b.add_op(op)
        op = nxt
    fb.at_end(if_b).branch(then_b)
    fb.at_end(prev).cond_branch(cond, if_b, then_b)
    fb.at_start(if_b)
    return if_b, then_b


def _descriptor(fb: Builder, offset: SSAValue, length: SSAValue) -> SSAValue:
    """`(zext(length) << 32) | zext(offset)`, as the buffer descriptors pack them."""
    off = fb.cast("extui", offset, i64)
    n = fb.cast("extui", length, i64)
    return fb.binary("ori", fb.binary("shli", n, fb.const(32, 64)), off)


def _cmp_scalar(fb: Builder, t: SSAValue, scalar: SSAValue, pred: str = "eq") -> SSAValue:
    return fb.cmpi(pred, t, fb.splat(scalar, t.type))


def _convert_and_broadcast(fb: Builder, v: SSAValue, dim: int, dst: Attribute) -> SSAValue:
    """`v` (1-D) laid out along the other dimension of `dst`'s layout and broadcast along `dim` to `dst`'s shape."""
    enc = encoding(dst)
    v = fb.convert(v, slice_of(dim, enc))
    v = fb.expand_outer_sliced_dim(v)
    return fb.op("tt.broadcast", [v], tensor(shape_of(dst), elt(v.type), enc))


def _expand_aliases(fb: Builder, mask: SSAValue, alias: SSAValue, alias_t: Attribute) -> SSAValue:
    """The buffers that overlap any buffer of `mask`."""
    matrix = _convert_and_broadcast(fb, mask, 1, alias_t)
    vector = fb.or_reduce(fb.binary("andi", alias, matrix), 0)
    return fb.convert(vector, encoding(mask.type))


def _one_hot(fb: Builder, size: int, index: int, enc: Attribute) -> SSAValue:
    t = tensor([size], i32, enc)
    return fb.cmpi("eq", fb.make_range(t), fb.const_tensor(index, t))


def _column_mask_at(fb: Builder, column: int, t: Attribute) -> SSAValue:
    one_hot = _one_hot(fb, shape_of(t)[1], column, single_dim_slice(encoding(t), 1))
    return _convert_and_broadcast(fb, one_hot, 0, t)


def _multi_column_mask(fb: Builder, columns: int, t: Attribute) -> SSAValue:
    mask = fb.const_tensor(0, _with_elt(t, i1))
    for i in range(64):
        if columns >> i & 1:
            mask = fb.binary("ori", mask, _column_mask_at(fb, i, t))
    return mask


def _adjust_width(fb: Builder, v: SSAValue, target: IntegerType) -> SSAValue:
    w, tw = v.type.width.data, target.width.data
    if w == tw:
        return v
    return fb.cast("extui" if w < tw else "trunci", v, target)


def _thread_column_mask(fb: Builder, thread_mask: SSAValue, t: Attribute) -> SSAValue:
    """The columns (threads) whose bit is set in `thread_mask`, as an i1 tensor of `t`'s shape."""
    enc = single_dim_slice(encoding(t), 1)
    columns = shape_of(t)[1]
    r = fb.make_range(tensor([columns], i32, enc))
    e = elt(t)
    if e.width.data != 32:
        r = fb.cast("extui", r, tensor([columns], e, enc))
    indices = _convert_and_broadcast(fb, r, 0, t)
    mask = fb.splat(_adjust_width(fb, thread_mask, e), t)
    bits = fb.binary("andi", fb.binary("shrui", mask, indices), fb.const_tensor(1, t))
    return fb.cmpi("ne", bits, fb.const_tensor(0, t))


def _column_mask(fb: Builder, column: SSAValue, t: Attribute) -> SSAValue:
    """Column `column` (a runtime i32) of `t`'s shape, as an i1 tensor."""
    col_t = tensor([shape_of(t)[1]], i32, single_dim_slice(encoding(t), 1))
    mask = fb.cmpi("eq", fb.make_range(col_t), fb.splat(column, col_t))
    return _convert_and_broadcast(fb, mask, 0, t)


def _ret(fb: Builder, *values: SSAValue) -> None:
    fb.op("tt.return", [list(values)])


# ----------------------------------------------------------------------------- the helpers and their call sites


class Helpers:
    """Makes the helper functions of `module` (once each) and their call sites, reading state from `aux`."""

    def __init__(self, module: Operation, aux: AuxData):
        self.module, self.aux = module, aux
        self.funcs = {op.sym_name.data: op for op in module.body.block.ops if isinstance(op, FuncOp)}

    # ------------------------------------------------------------------ machinery
    def _call(self, b: Builder, name: str, args: list[SSAValue], spec: list, body, message: str | None = None,
              assert_type: Attribute | None = None) -> None:
        """Call the helper `name` (made by `body(fb, args)` if it does not exist yet); assert its result."""
        warps = region_num_warps(b.region)
        arg_types = [a.type for a in args]
        parts = arg_types + spec + ([assert_type] if assert_type is not None else [])
        fname = f"__triton_consan_{name}_nw{warps}" + "".join(_mangle(p) for p in parts)
        if fname not in self.funcs:
            self.funcs[fname] = self._function(fname, arg_types, assert_type, warps, body)
        result = b.call(fname, args, [assert_type] if assert_type is not None else [])
        if message is not None:
            b.op("tti.experimental_assert_in_thread", [result], None,
                 {"message": StringAttr(message), "check_any": BoolAttr(False, i1)})

    def _function(self, name: str, arg_types: list, assert_type, warps: int, body) -> FuncOp:
        entry = Block(arg_types=arg_types)
        results = [assert_type] if assert_type is not None else []
        func = FuncOp.create(properties={"sym_name": StringAttr(name),
                                         "function_type": FunctionType.from_lists(arg_types, results),
                                         "sym_visibility": StringAttr("private")},
                             attributes={"ttg.num-warps": IntegerAttr(warps, i32)}, regions=[Region(entry)])
        func.location = self.module.location
        top = self.module.body.block
        top.insert_op_before(func, top.first_op)
        body(Builder(self.module.location).at_end(entry), list(entry.args))
        return func

    def _pred(self, b: Builder, pred: SSAValue | None) -> SSAValue:
        return pred if pred is not None else b.const(1, 1)

    def _address(self, b: Builder, memdesc: SSAValue) -> tuple[SSAValue, SSAValue]:
        """`tti.experimental_memdesc_to_i32` of `memdesc` and its length (bytes, or tensor-memory columns)."""
        offset = b.op("tti.experimental_memdesc_to_i32", [memdesc], i32)
        return offset, b.const(memdesc_bytes(memdesc.type), 32)

    # ------------------------------------------------------------------ waiting (deadlock detection)
    def set_waiting(self, b, mbar, thread, phase, pred, op):
        """Mark base thread `thread` waiting on `mbar` for `phase`."""
        a = self.aux
        if not a.barriers or not a.waiting:
            return
        pred = self._pred(b, pred)
        thread_v = b.const(thread, 32)
        (bars, bars_t), (waiting, waiting_t) = a.barriers.at(op), a.waiting.at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, base, phase_, p, barriers, waiting_ptr = args
            if_b, then_b = _if(fb, p)
            w = load_scratch(fb, waiting_ptr, waiting_t)
            eq = _cmp_scalar(fb, barriers, _descriptor(fb, off, n))
            bits, flag, phase_bit = fb.const(2, 32), fb.const(0, 32), fb.const(1, 32)
            one, minus_one = fb.const(1, 32), fb.const(-1, 32)
            base_bits = fb.binary("muli", base, bits)
            flag_shift, phase_shift = fb.binary("addi", base_bits, flag), fb.binary("addi", base_bits, phase_bit)
            flag_mask = fb.binary("shli", one, flag_shift)
            both = fb.binary("ori", flag_mask, fb.binary("shli", one, phase_shift))
            clear = fb.binary("xori", both, minus_one)
            flag_t, clear_t = fb.splat(flag_mask, waiting_t), fb.splat(clear, waiting_t)
            shift_t = fb.splat(phase_shift, waiting_t)
            with_flag = fb.binary("ori", fb.binary("andi", w, clear_t), flag_t)
            phase_t = fb.splat(fb.binary("andi", phase_, one), waiting_t)
            pending = fb.binary("ori", with_flag, fb.binary("shli", phase_t, shift_t))
            cond = fb.binary("andi", eq, fb.splat(p, eq.type))
            store_scratch(fb, waiting_ptr, fb.select(cond, pending, w), waiting_t)
            _ret(fb.at_end(then_b))

        self._call(b, "set_waiting", [offset, length, thread_v, phase, pred, bars, waiting], [bars_t, waiting_t], body)

    def clear_waiting(self, b, mbar, thread, pred, op):
        """Clear base thread `thread`'s waiting flag and phase for `mbar`."""
        a = self.aux
        if not a.barriers or not a.waiting:
            return
        pred = self._pred(b, pred)
        thread_v = b.const(thread, 32)
        (bars, bars_t), (waiting, waiting_t) = a.barriers.at(op), a.waiting.at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, base, p, barriers, waiting_ptr = args
            if_b, then_b = _if(fb, p)
            w = load_scratch(fb, waiting_ptr, waiting_t)
            eq = _cmp_scalar(fb, barriers, _descriptor(fb, off, n))
            bits, flag, phase_bit = fb.const(2, 32), fb.const(0, 32), fb.const(1, 32)
            one, minus_one = fb.const(1, 32), fb.const(-1, 32)
            base_bits = fb.binary("muli", base, bits)
            flag_shift, phase_shift = fb.binary("addi", base_bits, flag), fb.binary("addi", base_bits, phase_bit)
            both = fb.binary("ori", fb.binary("shli", one, flag_shift), fb.binary("shli", one, phase_shift))
            clear_t = fb.splat(fb.binary("xori", both, minus_one), waiting_t)
            cleared = fb.binary("andi", w, clear_t)
            store_scratch(fb, waiting_ptr, fb.select(eq, cleared, w), waiting_t)
            _ret(fb.at_end(then_b))

        self._call(b, "clear_waiting", [offset, length, thread_v, pred, bars, waiting], [bars_t, waiting_t], body)

    def check_all_active_waiting(self, b, active_mask, pred, op):
        """Assert that not every active thread waits on a barrier for the phase it is in (a deadlock)."""
        a = self.aux
        if not a.waiting or not a.barrier_states:
            return
        pred = self._pred(b, pred)
        expanded = sum(1 << (2 * i) for i in range(NUM_THREADS) if active_mask >> i & 1)
        mask_v = b.const(expanded, 32)
        (waiting, waiting_t), (states, states_t) = a.waiting.at(op), a.barrier_states.at(op)

        def body(fb, args):
            mask, p, waiting_ptr, states_ptr = args
            w = load_scratch(fb, waiting_ptr, waiting_t)
            s = load_scratch(fb, states_ptr, states_t)
            flag_t, phase_t = fb.const_tensor(FLAG_MASK, waiting_t), fb.const_tensor(PHASE_MASK, waiting_t)
            flags, phases = fb.binary("andi", w, flag_t), fb.binary("andi", w, phase_t)
            aligned = fb.binary("shrui", phases, fb.const_tensor(1, waiting_t))
            waiting0 = fb.binary("andi", flags, fb.binary("xori", aligned, flag_t))
            waiting1 = fb.binary("andi", flags, aligned)
            one = fb.const_tensor(1, states_t)
            phase_is_one = fb.cmpi("eq", fb.binary("andi", s, one), one)
            any_ = fb.or_reduce(fb.select(phase_is_one, waiting1, waiting0), 0)
            eq = fb.cmpi("eq", fb.binary("andi", any_, mask), mask)
            true = fb.const(1, 1)
            _ret(fb, fb.select(p, fb.binary("xori", eq, true), true))

        self._call(b, "check_all_active_waiting", [mask_v, pred, waiting, states], [waiting_t, states_t], body,
                   "Deadlock detected: all active threads are waiting on mbarriers", i1)

    # ------------------------------------------------------------------ barrier phases and counts
    def init_barrier_state(self, b, mbar, count, op):
        a = self.aux
        if not a.barriers or not a.barrier_states:
            return
        count_v = b.const(count, 32)
        (bars, bars_t), (states, states_t) = a.barriers.at(op), a.barrier_states.at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, count_, barriers, states_ptr = args
            s = load_scratch(fb, states_ptr, states_t)
            mask = _cmp_scalar(fb, barriers, _descriptor(fb, off, n))
            count_t = fb.splat(fb.binary("andi", count_, fb.const(COUNT_MASK, 32)), states_t)
            shift_init = fb.const_tensor(INIT_COUNT_LSB, states_t)
            shift_current = fb.const_tensor(CURRENT_COUNT_LSB, states_t)
            new = fb.binary("ori", fb.binary("shli", count_t, shift_init), fb.binary("shli", count_t, shift_current))
            store_scratch(fb, states_ptr, fb.select(mask, new, s), states_t)
            _ret(fb)

        self._call(b, "init_barrier_state", [offset, length, count_v, bars, states], [bars_t, states_t], body)

    def verify_barrier_arrive(self, b, mbar, count, pred, op):
        a = self.aux
        if not a.barriers or not a.barrier_states:
            return
        pred = self._pred(b, pred)
        count_v = b.const(count, 32)
        (bars, bars_t), (states, states_t) = a.barriers.at(op), a.barrier_states.at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, count_, p, barriers, states_ptr = args
            s = load_scratch(fb, states_ptr, states_t)
            mask = _cmp_scalar(fb, barriers, _descriptor(fb, off, n))
            zero = fb.const_tensor(0, states_t)
            mask_ff = fb.const_tensor(COUNT_MASK, states_t)
            shift_current = fb.const_tensor(CURRENT_COUNT_LSB, states_t)
            current = fb.binary("andi", fb.binary("shrui", s, shift_current), mask_ff)
            arrive = fb.splat(fb.binary("andi", count_, fb.const(COUNT_MASK, 32)), states_t)
            new = fb.select(mask, fb.binary("subi", current, arrive), zero)
            ok = fb.cmpi("sge", new, zero)
            _ret(fb, fb.select(p, ok, fb.const_tensor(1, ok.type)))

        self._call(b, "verify_barrier_arrive", [offset, length, count_v, pred, bars, states], [bars_t, states_t], body,
                   "Barrier arrive underflow: current count would become negative", _with_elt(states_t, i1))

    def update_barrier_state(self, b, mbar, count, pred, op):
        a = self.aux
        if not a.barriers or not a.barrier_states:
            return
        pred = self._pred(b, pred)
        count_v = b.const(count, 32)
        (bars, bars_t), (states, states_t) = a.barriers.at(op), a.barrier_states.at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, count_, p, barriers, states_ptr = args
            if_b, then_b = _if(fb, p)
            s = load_scratch(fb, states_ptr, states_t)
            mask = _cmp_scalar(fb, barriers, _descriptor(fb, off, n))
            zero, one = fb.const_tensor(0, states_t), fb.const_tensor(1, states_t)
            mask_ff = fb.const_tensor(COUNT_MASK, states_t)
            shift_init = fb.const_tensor(INIT_COUNT_LSB, states_t)
            shift_current = fb.const_tensor(CURRENT_COUNT_LSB, states_t)
            phase = fb.binary("andi", s, one)
            init = fb.binary("andi", fb.binary("shrui", s, shift_init), mask_ff)
            current = fb.binary("andi", fb.binary("shrui", s, shift_current), mask_ff)
            arrive = fb.splat(fb.binary("andi", count_, fb.const(COUNT_MASK, 32)), states_t)
            new_current = fb.select(mask, fb.binary("subi", current, arrive), current)
            zero_cond = fb.binary("andi", fb.cmpi("eq", new_current, zero), mask)
            new_phase = fb.binary("xori", phase, fb.cast("extui", zero_cond, states_t))
            new_current = fb.select(zero_cond, init, new_current)
            init_field = fb.binary("shli", init, shift_init)
            current_field = fb.binary("shli", new_current, shift_current)
            new = fb.binary("ori", fb.binary("ori", new_phase, init_field), current_field)
            store_scratch(fb, states_ptr, fb.select(mask, new, s), states_t)
            _ret(fb.at_end(then_b))

        self._call(b, "update_barrier_state", [offset, length, count_v, pred, bars, states], [bars_t, states_t], body)

    # ------------------------------------------------------------------ visibility of buffers
    def set_write_visibility(self, b, buf, thread_mask, pred, mem, op):
        """The buffer's last write is now visible to the threads of `thread_mask` (and only them)."""
        a = self.aux
        if not a.buffers[mem] or not a.write_visibility[mem]:
            return
        pred = self._pred(b, pred)
        mask_v = b.const(thread_mask, 64)
        (buffers, buffers_t), (vis, vis_t) = a.buffers[mem].at(op), a.write_visibility[mem].at(op)
        offset, length = self._address(b, buf)

        def body(fb, args):
            off, n, p, mask, bufs, vis_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, vis_ptr, vis_t)
            eq = _cmp_scalar(fb, bufs, _descriptor(fb, off, n))
            mask_t = fb.splat(_adjust_width(fb, mask, elt(vis_t)), vis_t)
            store_scratch(fb, vis_ptr, fb.select(eq, mask_t, v), vis_t)
            _ret(fb.at_end(then_b))

        self._call(b, "set_write_visibility", [offset, length, pred, mask_v, buffers, vis], [buffers_t, vis_t, mem],
                   body)

    def set_read_visibility(self, b, buf, thread_mask, pred, mem, op):
        """The threads of `thread_mask` add themselves to what they see of the buffer's reads."""
        a = self.aux
        if not a.buffers[mem] or not a.read_visibility[mem] or not a.alias_matrices[mem]:
            return
        pred = self._pred(b, pred)
        mask_v = b.const(thread_mask, 64)
        (buffers, buffers_t), (vis, vis_t) = a.buffers[mem].at(op), a.read_visibility[mem].at(op)
        offset, length = self._address(b, buf)

        def body(fb, args):
            off, n, p, mask, bufs, vis_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, vis_ptr, vis_t)
            eq = _cmp_scalar(fb, bufs, _descriptor(fb, off, n))
            eq = _convert_and_broadcast(fb, eq, 1, vis_t)
            bit = fb.splat(_adjust_width(fb, mask, elt(vis_t)), vis_t)
            columns = _thread_column_mask(fb, mask, vis_t)
            with_bit = fb.binary("ori", v, bit)
            store_scratch(fb, vis_ptr, fb.select(fb.binary("andi", eq, columns), with_bit, v), vis_t)
            _ret(fb.at_end(then_b))

        self._call(b, "set_read_visibility", [offset, length, pred, mask_v, buffers, vis], [buffers_t, vis_t, mem],
                   body)

    def _clear_rows(self, b, name, buf, pred, mem, table, op):
        """Zero the buffer's row of a B x N table (write tracking, read visibility, read tracking)."""
        a = self.aux
        if not a.buffers[mem] or not table[mem]:
            return
        pred = self._pred(b, pred)
        (buffers, buffers_t), (tab, tab_t) = a.buffers[mem].at(op), table[mem].at(op)
        offset, length = self._address(b, buf)

        def body(fb, args):
            off, n, p, bufs, tab_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, tab_ptr, tab_t)
            eq = _convert_and_broadcast(fb, _cmp_scalar(fb, bufs, _descriptor(fb, off, n)), 1, tab_t)
            store_scratch(fb, tab_ptr, fb.select(eq, fb.const_tensor(0, tab_t), v), tab_t)
            _ret(fb.at_end(then_b))

        self._call(b, name, [offset, length, pred, buffers, tab], [buffers_t, tab_t, mem], body)

    def clear_write_tracking(self, b, buf, pred, mem, op):
        self._clear_rows(b, "clear_write_tracking", buf, pred, mem, self.aux.write_tracking, op)

    def clear_read_visibility(self, b, buf, pred, mem, op):
        self._clear_rows(b, "clear_read_visibility", buf, pred, mem, self.aux.read_visibility, op)

    def clear_read_tracking(self, b, buf, pred, mem, op):
        self._clear_rows(b, "clear_read_tracking", buf, pred, mem, self.aux.read_tracking, op)

    # ------------------------------------------------------------------ barriers tracking accesses
    def track_visible_writes(self, b, mbar, thread, pred, mem, op):
        """`mbar` now tracks the writes visible to `thread`."""
        a = self.aux
        if not a.barriers or not a.write_visibility[mem] or not a.write_tracking[mem]:
            return
        pred = self._pred(b, pred)
        thread_v = b.const(thread, 32)
        (bars, bars_t) = a.barriers.at(op)
        (vis, vis_t), (track, track_t) = a.write_visibility[mem].at(op), a.write_tracking[mem].at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, p, thread_, barriers, vis_ptr, track_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, vis_ptr, vis_t)
            tr = load_scratch(fb, track_ptr, track_t)
            eq = _convert_and_broadcast(fb, _cmp_scalar(fb, barriers, _descriptor(fb, off, n)), 0, track_t)
            thread64 = fb.cast("extui", thread_, i64)
            bit = fb.splat(fb.binary("shli", fb.const(1, 64), thread64), vis_t)
            visible = fb.cmpi("eq", fb.binary("andi", v, bit), bit)
            visible = _convert_and_broadcast(fb, visible, 1, track_t)
            both = fb.binary("andi", eq, visible)
            store_scratch(fb, track_ptr, fb.select(both, fb.const_tensor(1, track_t), tr), track_t)
            _ret(fb.at_end(then_b))

        self._call(b, "track_visible_writes", [offset, length, pred, thread_v, bars, vis, track],
                   [bars_t, vis_t, track_t, mem], body)

    def track_visible_reads(self, b, mbar, thread, pred, mem, op):
        """`mbar` now tracks the reads visible to `thread`."""
        a = self.aux
        if not a.barriers or not a.read_visibility[mem] or not a.read_tracking[mem]:
            return
        pred = self._pred(b, pred)
        thread_v = b.const(thread, 32)
        (bars, bars_t) = a.barriers.at(op)
        (vis, vis_t), (track, track_t) = a.read_visibility[mem].at(op), a.read_tracking[mem].at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, p, thread_, barriers, vis_ptr, track_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, vis_ptr, vis_t)
            tr = load_scratch(fb, track_ptr, track_t)
            eq = _convert_and_broadcast(fb, _cmp_scalar(fb, barriers, _descriptor(fb, off, n)), 0, track_t)
            column = _column_mask(fb, thread_, vis_t)
            visible = fb.or_reduce(fb.select(column, v, fb.const_tensor(0, vis_t)), 1)
            visible = _convert_and_broadcast(fb, visible, 1, track_t)
            store_scratch(fb, track_ptr, fb.select(eq, fb.binary("ori", tr, visible), tr), track_t)
            _ret(fb.at_end(then_b))

        self._call(b, "track_visible_reads", [offset, length, pred, thread_v, bars, vis, track],
                   [bars_t, vis_t, track_t, mem], body)

    def transfer_visible_writes(self, b, mbar, thread_mask, pred, mem, op):
        """The writes `mbar` tracks become visible to the threads of `thread_mask`."""
        a = self.aux
        if not a.barriers or not a.write_visibility[mem] or not a.write_tracking[mem]:
            return
        pred = self._pred(b, pred)
        mask_v = b.const(thread_mask, 64)
        (bars, bars_t) = a.barriers.at(op)
        (vis, vis_t), (track, track_t) = a.write_visibility[mem].at(op), a.write_tracking[mem].at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, p, mask, barriers, vis_ptr, track_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, vis_ptr, vis_t)
            tr = load_scratch(fb, track_ptr, track_t)
            eq = _convert_and_broadcast(fb, _cmp_scalar(fb, barriers, _descriptor(fb, off, n)), 0, track_t)
            tracked = fb.or_reduce(fb.select(eq, tr, fb.const_tensor(0, track_t)), 1)
            tracked = fb.convert(tracked, encoding(vis_t))
            tracked = fb.cmpi("eq", tracked, fb.const_tensor(1, tracked.type))
            mask_t = fb.splat(_adjust_width(fb, mask, elt(vis_t)), vis_t)
            bits = fb.select(tracked, mask_t, fb.const_tensor(0, vis_t))
            store_scratch(fb, vis_ptr, fb.binary("ori", v, bits), vis_t)
            _ret(fb.at_end(then_b))

        self._call(b, "transfer_visible_writes", [offset, length, pred, mask_v, bars, vis, track],
                   [bars_t, vis_t, track_t, mem], body)

    def transfer_visible_reads(self, b, mbar, thread_mask, pred, mem, op):
        """The reads `mbar` tracks become visible to the threads of `thread_mask`."""
        a = self.aux
        if not a.barriers or not a.read_visibility[mem] or not a.read_tracking[mem]:
            return
        pred = self._pred(b, pred)
        mask_v = b.const(thread_mask, 64)
        (bars, bars_t) = a.barriers.at(op)
        (vis, vis_t), (track, track_t) = a.read_visibility[mem].at(op), a.read_tracking[mem].at(op)
        offset, length = self._address(b, mbar)

        def body(fb, args):
            off, n, p, mask, barriers, vis_ptr, track_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, vis_ptr, vis_t)
            tr = load_scratch(fb, track_ptr, track_t)
            eq = _convert_and_broadcast(fb, _cmp_scalar(fb, barriers, _descriptor(fb, off, n)), 0, track_t)
            tracked = fb.or_reduce(fb.select(eq, tr, fb.const_tensor(0, track_t)), 1)
            tracked = _convert_and_broadcast(fb, tracked, 1, vis_t)
            with_tracked = fb.binary("ori", v, tracked)
            columns = _thread_column_mask(fb, mask, vis_t)
            store_scratch(fb, vis_ptr, fb.select(columns, with_tracked, v), vis_t)
            _ret(fb.at_end(then_b))

        self._call(b, "transfer_visible_reads", [offset, length, pred, mask_v, bars, vis, track],
                   [bars_t, vis_t, track_t, mem], body)

    # ------------------------------------------------------------------ the checks before an access
    def verify_write_visibility(self, b, buf, thread, operand, pred, mem, op):
        """Assert that no one writes the buffer (or an overlapping one), or that `thread` sees the write."""
        a = self.aux
        if not a.buffers[mem] or not a.write_visibility[mem] or not a.alias_matrices[mem]:
            return
        pred = self._pred(b, pred)
        thread_v = b.const(thread, 32)
        (buffers, buffers_t), (vis, vis_t) = a.buffers[mem].at(op), a.write_visibility[mem].at(op)
        (alias, alias_t) = a.alias_matrices[mem].at(op)
        offset, length = self._address(b, buf)
        message = "Buffer being accessed has outstanding writes." + (f" Operand: {operand}" if operand else "")

        def body(fb, args):
            off, n, p, thread_, bufs, vis_ptr, alias_ = args
            v = load_scratch(fb, vis_ptr, vis_t)
            eq = _cmp_scalar(fb, bufs, _descriptor(fb, off, n))
            eq = _expand_aliases(fb, eq, alias_, alias_t)
            zero = fb.const_tensor(0, vis_t)
            buf_vis = fb.select(eq, v, zero)
            no_writer = fb.cmpi("eq", buf_vis, zero)
            thread_t = fb.splat(fb.cast("extui", thread_, i64), vis_t)
            thread_bit = fb.binary("shli", fb.cast("extui", eq, vis_t), thread_t)
            sees = fb.cmpi("eq", fb.binary("andi", buf_vis, thread_bit), thread_bit)
            ok = fb.binary("ori", no_writer, sees)
            _ret(fb, fb.select(p, ok, fb.const_tensor(1, ok.type)))

        self._call(b, "verify_write_visibility", [offset, length, pred, thread_v, buffers, vis, alias],
                   [buffers_t, vis_t, alias_t, mem], body, message, _with_elt(buffers_t, i1))

    def verify_read_visibility(self, b, buf, thread, operand, pred, mem, op):
        """Assert that `thread` sees every read of the buffer (or of an overlapping one)."""
        a = self.aux
        if not a.buffers[mem] or not a.read_visibility[mem]:
            return
        pred = self._pred(b, pred)
        thread_v = b.const(thread, 32)
        (buffers, buffers_t), (vis, vis_t) = a.buffers[mem].at(op), a.read_visibility[mem].at(op)
        (alias, alias_t) = a.alias_matrices[mem].at(op)
        offset, length = self._address(b, buf)
        message = "Buffer being accessed has outstanding reads" + (f". Operand: {operand}" if operand else "")

        def body(fb, args):
            off, n, p, thread_, bufs, vis_ptr, alias_ = args
            v = load_scratch(fb, vis_ptr, vis_t)
            eq = _cmp_scalar(fb, bufs, _descriptor(fb, off, n))
            eq = _expand_aliases(fb, eq, alias_, alias_t)
            eq = _convert_and_broadcast(fb, eq, 1, vis_t)
            zero = fb.const_tensor(0, vis_t)
            buf_vis = fb.select(eq, v, zero)
            total = fb.or_reduce(buf_vis, 1)
            column = _column_mask(fb, thread_, vis_t)
            mine = fb.or_reduce(fb.select(column, buf_vis, zero), 1)
            ok = fb.cmpi("eq", fb.binary("andi", mine, total), total)
            ok = fb.select(p, ok, fb.const_tensor(1, ok.type))
            _ret(fb, fb.convert(ok, encoding(buffers_t)))

        self._call(b, "verify_read_visibility", [offset, length, pred, thread_v, buffers, vis, alias],
                   [buffers_t, vis_t, alias_t, mem], body, message, _with_elt(buffers_t, i1))

    # ------------------------------------------------------------------ warp specialization
    def copy_write_visibility(self, b, source, dest_mask, pred, mem, op):
        """The threads of `dest_mask` see the writes `source` sees."""
        a = self.aux
        if not a.write_visibility[mem]:
            return
        pred = self._pred(b, pred)
        (vis, vis_t) = a.write_visibility[mem].at(op)
        source_v, mask_v = b.const(source, 32), b.const(dest_mask, 64)

        def body(fb, args):
            src, mask, p, vis_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, vis_ptr, vis_t)
            e = elt(vis_t)
            zero = fb.const_tensor(0, vis_t)
            full = fb.const(-1, 64)
            mask_e = _adjust_width(fb, mask, e)
            clear_e = fb.binary("xori", mask_e, _adjust_width(fb, full, e))
            mask_t, clear_t = fb.splat(mask_e, vis_t), fb.splat(clear_e, vis_t)
            cleared = fb.binary("andi", v, clear_t)
            src_e = _adjust_width(fb, src, e)
            src_bit = fb.splat(fb.binary("shli", fb.const(1, e.width.data), src_e), vis_t)
            is_set = fb.cmpi("ne", fb.binary("andi", v, src_bit), zero)
            store_scratch(fb, vis_ptr, fb.binary("ori", cleared, fb.select(is_set, mask_t, zero)), vis_t)
            _ret(fb.at_end(then_b))

        self._call(b, "copy_write_visibility", [source_v, mask_v, pred, vis], [vis_t, mem], body)

    def copy_read_visibility(self, b, source, dest_mask, pred, mem, op):
        """The threads of `dest_mask` see the reads `source` sees."""
        a = self.aux
        if not a.read_visibility[mem]:
            return
        pred = self._pred(b, pred)
        (vis, vis_t) = a.read_visibility[mem].at(op)
        source_v = b.const(source, 32)
        mask_v = b.const(dest_mask, 64)

        def body(fb, args):
            src, _mask, p, vis_ptr = args
            if_b, then_b = _if(fb, p)
            v = load_scratch(fb, vis_ptr, vis_t)
            zero = fb.const_tensor(0, vis_t)
            dest = _multi_column_mask(fb, dest_mask, vis_t)
            cleared = fb.select(dest, zero, v)
            column = _column_mask(fb, src, vis_t)
            row = fb.or_reduce(fb.select(column, v, zero), 1)
            row = _convert_and_broadcast(fb, row, 1, vis_t)
            store_scratch(fb, vis_ptr, fb.binary("ori", cleared, fb.select(dest, row, zero)), vis_t)
            _ret(fb.at_end(then_b))

        self._call(b, "copy_read_visibility", [source_v, mask_v, pred, vis], [vis_t, mem, dest_mask], body)

    # ------------------------------------------------------------------ commit counts (cp.async, wgmma, TMA stores)
    def stage_access_for_commit(self, b, buf, thread, pred, mem, kind, op):
        """Mark the buffer staged (-1) for the next commit of base thread `thread`."""
        a = self.aux
        if not a.buffers[mem] or not a.commits[kind]:
            return
        pred = self._pred(b, pred)
        (buffers, buffers_t), (commits, commits_t) = a.buffers[mem].at(op), a.commits[kind].at(op)
        thread_v = b.const(thread, 32)
        offset, length = self._address(b, buf)

        def body(fb, args):
            off, n, p, thread_, bufs, commits_ptr = args
            if_b, then_b = _if(fb, p)
            c = load_scratch(fb, commits_ptr, commits_t)
            eq = _convert_and_broadcast(fb, _cmp_scalar(fb, bufs, _descriptor(fb, off, n)), 1, commits_t)
            both = fb.binary("andi", eq, _column_mask(fb, thread_, commits_t))
            store_scratch(fb, commits_ptr, fb.select(both, fb.const_tensor(-1, commits_t), c), commits_t)
            _ret(fb.at_end(then_b))

        self._call(b, "stage_access_for_commit", [offset, length, pred, thread_v, buffers, commits],
                   [buffers_t, commits_t], body)

    def commit_accesses(self, b, thread, pred, kind, op):
        """Base thread `thread` commits: its staged accesses become 1, its outstanding ones one more."""
        a = self.aux
        if not a.commits[kind]:
            return
        pred = self._pred(b, pred)
        (commits, commits_t) = a.commits[kind].at(op)
        thread_v = b.const(thread, 32)

        def body(fb, args):
            thread_, p, commits_ptr = args
            if_b, then_b = _if(fb, p)
            c = load_scratch(fb, commits_ptr, commits_t)
            w = elt(commits_t).width.data
            zero, minus_one = fb.const(0, w), fb.const(-1, w)
            ones = fb.const_tensor(1, commits_t)
            column = _column_mask(fb, thread_, commits_t)
            positive = fb.binary("andi", _cmp_scalar(fb, c, zero, "sgt"), column)
            c = fb.select(positive, fb.binary("addi", c, ones), c)
            staged = fb.binary("andi", _cmp_scalar(fb, c, minus_one, "eq"), column)
            store_scratch(fb, commits_ptr, fb.select(staged, ones, c), commits_t)
            _ret(fb.at_end(then_b))

        self._call(b, "commit_accesses", [thread_v, pred, commits], [commits_t], body)

    def _clear_outstanding(self, b, name, thread, transfer_mask, num, pred, kind, mem, table, op):
        """Base thread `thread` waits until at most `num` commits are outstanding: the older ones are cleared,
        and their buffers' write (or read) visibility goes to the threads of `transfer_mask`."""
        a = self.aux
        if not a.commits[kind] or not table[mem]:
            return
        reads = table is a.read_visibility
        if reads:  # Triton reads the tables before making the predicate here
            (commits, commits_t), (vis, vis_t) = a.commits[kind].at(op), table[mem].at(op)
            pred = self._pred(b, pred)
        else:
            pred = self._pred(b, pred)
            (commits, commits_t), (vis, vis_t) = a.commits[kind].at(op), table[mem].at(op)
        thread_v, mask_v, num_v = b.const(thread, 32), b.const(transfer_mask, 64), b.const(num, 32)

        def body(fb, args):
            thread_, mask, num_, p, commits_ptr, vis_ptr = args
            if_b, then_b = _if(fb, p)
            c = load_scratch(fb, commits_ptr, commits_t)
            v = load_scratch(fb, vis_ptr, vis_t)
            num_e = _adjust_width(fb, num_, elt(commits_t))
            column = _column_mask(fb, thread_, commits_t)
            older = fb.binary("andi", _cmp_scalar(fb, c, num_e, "sgt"), column)
            rows = fb.or_reduce(older, 1)
            rows = _convert_and_broadcast(fb, rows, 1, vis_t) if reads else fb.convert(rows, encoding(vis_t))
            mask_t = fb.splat(_adjust_width(fb, mask, elt(vis_t)), vis_t)
            store_scratch(fb, vis_ptr, fb.select(rows, fb.binary("ori", v, mask_t), v), vis_t)
            store_scratch(fb, commits_ptr, fb.select(older, fb.const_tensor(0, commits_t), c), commits_t)
            _ret(fb.at_end(then_b))

        self._call(b, name, [thread_v, mask_v, num_v, pred, commits, vis], [commits_t, vis_t], body)

    def clear_outstanding_commits_transfer_writes(self, b, thread, transfer_mask, num, pred, kind, mem, op):
        self._clear_outstanding(b, "clear_outstanding_commits_transfer_writes", thread, transfer_mask, num, pred,
                                kind, mem, self.aux.write_visibility, op)

    def clear_outstanding_commits_transfer_reads(self, b, thread, transfer_mask, num, pred, kind, mem, op):
        self._clear_outstanding(b, "clear_outstanding_commits_transfer_reads", thread, transfer_mask, num, pred,
                                kind, mem, self.aux.read_visibility, op)

    def check_outstanding_commits(self, b, buf, thread, access, pred, mem, kind, op):
        """Assert that no commit of kind `kind` is outstanding on the buffer (or an overlapping one)."""
        a = self.aux
        if not a.buffers[mem] or not a.commits[kind] or not a.alias_matrices[mem]:
            return
        (buffers, buffers_t), (commits, commits_t) = a.buffers[mem].at(op), a.commits[kind].at(op)
        (alias, alias_t) = a.alias_matrices[mem].at(op)
        if thread >= NUM_THREADS:
            raise ConsanError(op, "commit-count tracking must operate on base threads")
        offset = b.op("tti.experimental_memdesc_to_i32", [buf], i32)
        pred = self._pred(b, pred)
        thread_v = b.const(thread, 32)
        length = b.const(memdesc_bytes(buf.type), 32)

        def body(fb, args):
            off, n, p, _thread, bufs, commits_ptr, alias_ = args
            c = load_scratch(fb, commits_ptr, commits_t)
            eq = _cmp_scalar(fb, bufs, _descriptor(fb, off, n))
            eq = _expand_aliases(fb, eq, alias_, alias_t)
            eq = _convert_and_broadcast(fb, eq, 1, commits_t)
            zero = fb.const_tensor(0, commits_t)
            ok = fb.cmpi("eq", fb.select(eq, c, zero), zero)
            _ret(fb, fb.select(p, ok, fb.const_tensor(1, ok.type)))

        self._call(b, "check_outstanding_commits", [offset, length, pred, thread_v, buffers, commits, alias],
                   [buffers_t, commits_t, alias_t, thread], body,
                   f"Accessing buffer with pending access. Pending access type: {access}", _with_elt(commits_t, i1))
