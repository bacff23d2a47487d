"""The state of lowering one kernel to LLVM IR, and the helpers every op lowering uses.

Each SSA value of the kernel maps to LLVM values: a scalar to one value, a tensor to a Python list with one
value per register of its layout (`LinearLayout.reg_coords` says which element each one holds; every thread
runs the same code on its own registers). Op lowerings are registered by name (`registry.lowering`) and called
with this context; they read operands with `get`, write results with `set`, and build IR with `b`.

Shared memory is one dynamic `extern` array, `@global_smem`, as in Triton. Where each thing lives in it is
Triton's liveness-based allocation (`local_memory.assign_buffers`, `ttc.analysis.allocation`), as Triton's
lowering reads `allocation.offset`: the kernel's buffers (mutable or nvmma `ttg.local_alloc`s), each at a fixed
offset for the whole kernel, and every scratch user's area (layout conversions, cross-warp reductions and scans,
gathers, histograms, broadcasts of atomic results, tensor maps), live only at its op, so it may lie over
buffers dead there and over other ops' scratch. A scratch user takes its area with `use_scratch` (never more
bytes than the allocation gave it; one the allocation foresaw none for gets room after everything it placed, at
`scratch_base`) and brackets its use with barriers; `shared_end` records the furthest byte used.

Barriers for the buffers (Triton's membar analysis, in program order and conservatively, buffer by buffer: the
`ttg.local_alloc` a view comes from, with every buffer sharing its bytes; a view of unknown origin counts as every
buffer): a read of a buffer
(`local_load`) after a write by threads (`local_store`) to it since the last barrier gets one, and so does a write
(`local_store`, `async_copy_global_to_local`) after a read or a write by threads; `async_wait` always ends with
one (cp.async writes are ordered by it, not by these rules). Entering or leaving
a region (but the kernel's entry, and the combine regions of `tt.reduce`/`tt.scan`) counts as both (a loop's
back edge brings the accesses of its end). A scratch area over buffers' bytes counts, once its op is lowered, as
a read and a write of those buffers (their next writer waits for the op's last reads). A scratch user's first barrier, before it writes, is the same rule:
`barrier_before_scratch` skips it when no thread has touched shared memory since the last barrier (nothing
took `smem` for an address, no op had a shared-memory operand or result, no region was entered or left), as at
the start of a kernel whose first shared-memory use is a reduction, like Triton's membar analysis, which puts
no barrier before the first write. A region op none of whose ops touched shared memory (a loop of global loads
and arithmetic) leaves the barrier state as it found it.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.types import encoding, shape_of
from ttc.ir.memdesc import MemDescType
from ttc.lowering import indexing, nvvm
from ttc.ir.linear_layout import LinearLayout, UnsupportedLayout, layout_for

class _Any:
    """Every buffer: what the barrier rules assume where accesses are not known (a region's entry)."""

    def __bool__(self):
        return True

    def __repr__(self):
        return "ANY"


ANY = _Any()
VIEW_OPS = ("ttg.memdesc_index", "ttg.memdesc_trans", "ttg.memdesc_subslice", "ttg.memdesc_reshape")


def buffer_root(v: SSAValue):
    """The `ttg.local_alloc` whose buffer the memdesc `v` views, or None when not known (a block argument)."""
    while isinstance(v.owner, Operation) and v.owner.name in VIEW_OPS:
        v = v.owner.operands[0]
    return v.owner if isinstance(v.owner, Operation) and v.owner.name == "ttg.local_alloc" else None


def _add(seen, roots):
    if seen is ANY or any(r is None for r in roots):
        return ANY
    return seen | set(roots)


# ops whose regions are scalar combine functions, run inline on registers: not control flow, so lowering them
# leaves the barrier state as their own lowering left it
COMBINE_OPS = ("tt.reduce", "tt.scan")
from ttc.lowering.types import SHARED, UnsupportedType, bits_of, i8, i32, i64, llvm_type, sptr


class Lowering:
    def __init__(self, module: ir.Module, fn: ir.Function, *, num_warps: int, threads_per_warp: int, source, axis):
        self.module = module
        self.fn = fn
        self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.values: dict[SSAValue, object] = {}
        self.num_warps = num_warps
        self.threads_per_warp = threads_per_warp
        self.source = source
        self.axis = axis
        self.scratch_base = 0       # the end of the allocation, 128-aligned: scratch it did not foresee goes here
        self.scratch_at = 0         # where the current op's scratch starts
        self.shared_end = 0         # the end of the allocation or of the furthest scratch use
        self.buffer_end = 0         # the end of the furthest buffer
        self.current_op: Operation | None = None
        self.scratch_areas: dict[Operation, tuple[int, int]] = {}  # op -> (offset, bytes) of its scratch area
        self.scratch_meets: dict[Operation, set] = {}  # op -> the buffers (local_allocs) its scratch area meets
        self._scratch_taken: dict = {}  # ops being lowered that took their area -> the buffers it meets
        self.buffer_overlap: dict = {}  # each buffer's local_alloc -> those whose bytes meet its own (itself too)
        self.buffer_written = ANY   # the buffers written by threads since the last barrier (unknown at entry)
        self.buffer_read = ANY      # the buffers read since the last barrier
        self.shared_touched = True  # any shared-memory address taken, or buffer used, since the last barrier
        self.shared_uses = 0        # how many times shared memory was touched so far (regions without any keep
                                    # the barrier state they found)
        self.deferred_selects: dict = {}  # scf.if -> the arith.selects its join defines (control_flow.defer_select)
        self.libdevice: set[str] = set()
        self.externs: dict[str, str] = {}  # function name -> bitcode library to link (tt.extern_elementwise)
        self._smem = None
        self._smem_base = {}        # function -> smem_base_unknown's value
        self.tid_read = None        # set: what `tid()` returns (a store's rematerialized indices, see `fresh_tid`)
        self.fresh_reads = (None, 0, 0)  # the last `fresh_tid` of the stores: (block, op index, key)
        self.op_positions: dict = {}  # TTGIR block -> {op: its index} (the TTGIR does not change while lowered)
        self.smem_align = 16        # 1024 with nvmma buffers (swizzled by address bits)

    # ------------------------------------------------------------------ diagnostics

    def error(self, op: Operation, message: str) -> CompileError:
        return CompileError(at_op(op, self.source, message))

    # ------------------------------------------------------------------ values

    def get(self, v: SSAValue):
        try:
            return self.values[v]
        except KeyError:
            raise self.error(v.owner if isinstance(v.owner, Operation) else v.owner.parent_op(),
                             "internal error: value used before it was lowered") from None

    def set(self, v: SSAValue, x) -> None:
        self.values[v] = x

    def type_of(self, t, op: Operation) -> ir.Type:
        try:
            return llvm_type(t)
        except UnsupportedType as e:
            raise self.error(op, str(e)) from None

    def layout(self, t, op: Operation) -> LinearLayout:
        enc = encoding(t)
        if enc is None:
            raise self.error(op, "tensors need a layout (run the TTGIR passes first)")
        try:
            ll = layout_for(tuple(shape_of(t)), enc)
            ll.check_injective()
        except UnsupportedLayout as e:
            raise self.error(op, str(e)) from None
        if ll.num_lanes != self.threads_per_warp or ll.num_warps != self.num_warps:
            raise self.error(op, f"layout is for {ll.num_warps} warps of {ll.num_lanes} threads, the kernel has "
                                 f"{self.num_warps} warps of {self.threads_per_warp}")
        return ll

    def splat(self, x, t, op) -> list:
        return [x] * self.layout(t, op).num_regs

    # ------------------------------------------------------------------ threads

    def tid(self) -> ir.Value:
        """tid.x with its range (0, threads) as `!range`: the optimizer runs without a target machine (as
        Triton's), so nothing else tells LLVM that a thread id is below the CTA's thread count."""
        if self.tid_read is not None:
            return self.tid_read
        return self._thread_range(nvvm.sreg(self.b, "tid.x"))

    def _thread_range(self, tid: ir.Value) -> ir.Value:
        """`tid` with `!range` (0, the CTA's thread count)."""
        tid.set_metadata("range", self.b.module.add_metadata(
            [ir.Constant(i32, 0), ir.Constant(i32, self.num_warps * self.threads_per_warp)]))
        return tid

    def fresh_tid(self, key: int) -> ir.Value:
        """tid.x, ranged as `tid()`, from a read that LLVM merges neither with `tid()`'s nor `owner_pred`'s nor
        with those of another `key` (its own asm text, `mov.b32`, and `key` as an unused immediate operand):
        indices computed from it are not the ones computed from the first read, so LLVM does not keep those live
        from the top of the kernel. readnone: reads of one key merge, and so do the indices made from them."""
        read = ir.InlineAsm(ir.FunctionType(i32, [i32]), "mov.b32 $0, %tid.x;", "=r,n")
        return self._thread_range(self.b.call(read, [ir.Constant(i32, key)], attrs=("readnone",)))

    def lane(self) -> ir.Value:
        return self.b.and_(self.tid(), ir.Constant(i32, self.threads_per_warp - 1))

    def warp(self) -> ir.Value:
        return self.b.lshr(self.tid(), ir.Constant(i32, self.threads_per_warp.bit_length() - 1))

    def coords(self, ll: LinearLayout, per_bit: bool = False) -> list[list[ir.Value]]:
        """Per register, the coordinates of its element (i32); `per_bit` as for `indexing.id_part`."""
        return indexing.register_coords(self.b, ll, self.lane(), self.warp(), per_bit)

    def owner_pred(self, ll: LinearLayout) -> ir.Value | None:
        """True in the one thread (of those holding the same elements) that should write them; None when no
        thread shares its elements with another. The lane is tid's low bits and the warp the bits above, so one
        mask of tid tests both (Triton's redundant-thread predicate)."""
        mask = ll.free_lane_bits | ll.free_warp_bits << (self.threads_per_warp.bit_length() - 1)
        if not mask:
            return None
        # tid.x unknown to LLVM (as Triton's, which has no `!range`): knowing tid < threads, LLVM folds the mask
        # test into `tid < n`, and ptxas turns the copies and stores predicated on that into branches, one
        # BSSY/BRA region each (attention_bwd: 146 registers against Triton's 134 from the same TTGIR). An
        # inline asm without side effects: the intrinsic would be merged with the ranged reads by CSE.
        read = ir.InlineAsm(ir.FunctionType(i32, []), "mov.u32 $0, %tid.x;", "=r")
        tid = self.b.call(read, [], attrs=("readnone",))  # readnone: CSE merges the reads of one function
        return self.b.icmp_unsigned("==", self.b.and_(tid, ir.Constant(i32, mask)), ir.Constant(i32, 0))

    # ------------------------------------------------------------------ moving values as 32-bit words

    def to_words(self, v: ir.Value) -> list[ir.Value]:
        b = self.b
        t = v.type
        if isinstance(t, ir.PointerType):
            v, t = b.ptrtoint(v, i64), i64
        bits = t.width if isinstance(t, ir.IntType) else bits_of(t)
        if not isinstance(t, ir.IntType):
            v = b.bitcast(v, ir.IntType(bits))
        if bits < 32:
            return [b.zext(v, i32)]
        if bits == 32:
            return [v]
        return [b.trunc(b.lshr(v, ir.Constant(v.type, 32 * k)) if k else v, i32) for k in range(bits // 32)]

    def from_words(self, words: list[ir.Value], t: ir.Type) -> ir.Value:
        b = self.b
        if isinstance(t, ir.PointerType):
            return b.inttoptr(self.from_words(words, i64), t)
        bits = t.width if isinstance(t, ir.IntType) else bits_of(t)
        it = ir.IntType(bits)
        if bits < 32:
            v = b.trunc(words[0], it)
        elif bits == 32:
            v = words[0]
        else:
            v = b.zext(words[0], it)
            for k, w in enumerate(words[1:], 1):
                v = b.or_(v, b.shl(b.zext(w, it), ir.Constant(it, 32 * k)))
        return v if isinstance(t, ir.IntType) else b.bitcast(v, t)

    def shuffle(self, kind: str, v: ir.Value, arg) -> ir.Value:
        return self.from_words([nvvm.shfl(self.b, kind, w, arg) for w in self.to_words(v)], v.type)

    # ------------------------------------------------------------------ shared memory

    @property
    def smem(self) -> ir.GlobalVariable:
        self.shared_touched = True  # every shared-memory access starts from this base
        self.shared_uses += 1
        if self._smem is None:
            g = self.module.globals.get("global_smem")
            if g is None:
                g = ir.GlobalVariable(self.module, ir.ArrayType(i8, 0), "global_smem", addrspace=SHARED)
                g.linkage = "external"
                g.align = self.smem_align
            self._smem = g
        return self._smem

    def smem_base_unknown(self) -> ir.Value:
        """Shared memory's base address (i32) through a pure inline `mov` in the function's entry, so that LLVM
        does not know its low bits, as it does not know Triton's (declared 16-byte aligned): knowing ours
        1024-byte aligned, LLVM proves the adds of small constants to addresses derived from it carry-free and
        makes them `or`s. wgmma's descriptors: a K step's `add.s64` is one UIADD3.64 for ptxas, where the
        `or.b64` is two uniform instructions (the low word's or, the high word's move); 8 SASS instructions
        per iteration of the flash-attention loop at D = 128."""
        smem = self.smem  # touches shared memory, as an address from `shared_ptr` does
        v = self._smem_base.get(self.fn)
        if v is None:
            entry = self.fn.blocks[0]
            b = ir.IRBuilder(entry)
            if entry.instructions:
                b.position_before(entry.instructions[0])
            mov = ir.InlineAsm(ir.FunctionType(i32, [i32]), "mov.b32 $0, $1;", "=r,r")
            v = self._smem_base[self.fn] = b.call(mov, [smem.ptrtoint(i32)], attrs=("readnone",))
        return v

    def use_scratch(self, nbytes: int) -> None:
        """The current op uses `nbytes` of scratch (`smem_ptr` offsets from its start): the area the allocation
        gave the op, which `nbytes` must not outgrow; an op it gave none, after everything it placed."""
        op = self.current_op
        area = self.scratch_areas.get(op)
        if area is None:
            self.scratch_at = self.scratch_base
            self.shared_end = max(self.shared_end, self.scratch_base + nbytes)
            return
        self.scratch_at, size = area
        if nbytes > size:
            raise self.error(op, f"internal error: the lowering of {op.name} needs {nbytes} bytes of shared-memory "
                                 f"scratch where the allocation gave it {size}")
        self._scratch_taken[op] = self.scratch_meets.get(op, set())
        self.shared_end = max(self.shared_end, self.scratch_at + nbytes)

    def smem_ptr(self, byte_offset) -> ir.Value:
        """A pointer into the current op's scratch area."""
        if self.scratch_at:
            byte_offset = (byte_offset + self.scratch_at if isinstance(byte_offset, int)
                           else self.b.add(byte_offset, ir.Constant(i32, self.scratch_at)))
        return self.shared_ptr(byte_offset)

    def shared_ptr(self, byte_offset) -> ir.Value:
        """A pointer to byte `byte_offset` of shared memory."""
        if isinstance(byte_offset, int):
            byte_offset = ir.Constant(i32, byte_offset)
        p = self.b.gep(self.smem, [ir.Constant(i32, 0), byte_offset], source_etype=self.smem.value_type)
        p.type = sptr  # an opaque pointer, so that any type can be stored through it
        return p

    def buffer_access(self, write: bool, asynchronous: bool = False, values=()) -> None:
        """Before threads read (`write` False) or write the kernel's buffers that `values` (memdescs) view
        (`asynchronous`: with cp.async or TMA, whose writes their waits order): a barrier if the last barrier does
        not separate this access from a conflicting one to the same buffer (a read after a write by threads; a
        write after a read or a write by threads). A view whose buffer is not known (a loop-carried memdesc)
        conflicts with every buffer."""
        self.shared_uses += 1
        roots = [buffer_root(v) for v in values] or [None]
        roots = [o for r in roots for o in self.buffer_overlap.get(r, (r,))]  # buffers sharing its bytes too
        def hit(seen):
            return bool(seen) and (seen is ANY or any(r is None or r in seen for r in roots))
        if (hit(self.buffer_read) or hit(self.buffer_written)) if write else hit(self.buffer_written):
            self.barrier()
        if not write:
            self.buffer_read = _add(self.buffer_read, roots)
        elif not asynchronous:
            self.buffer_written = _add(self.buffer_written, roots)

    @staticmethod
    def stored_type(t: ir.Type) -> ir.Type:
        if isinstance(t, ir.IntType) and t.width == 1:
            return i8
        if isinstance(t, ir.PointerType):
            return i64
        return t

    def smem_store(self, index: ir.Value, v: ir.Value, base: int = 0, elem_bytes: int | None = None,
                   pred: ir.Value | None = None) -> None:
        """Store `v` at element `index` of an array of `elem_bytes`-sized slots starting at byte `base`."""
        b = self.b
        st = self.stored_type(v.type)
        size = elem_bytes or bits_of(st) // 8
        if st is not v.type:
            v = b.zext(v, st) if isinstance(v.type, ir.IntType) else b.ptrtoint(v, st)
        off = b.add(b.mul(index, ir.Constant(i32, size)), ir.Constant(i32, base)) if base else b.mul(index, ir.Constant(i32, size))
        if pred is None:
            b.store(v, self.smem_ptr(off), align=min(size, 16))
            return
        bits = bits_of(st)
        if bits in (16, 32, 64):  # the slot's first `bits` bits, as the store without `pred`
            # a predicated `st.shared` as Triton's storeShared, not a branch around a store: after a branch LLVM
            # sinks the selects that make `v` past it, so their operands stay live across the barrier that follows
            # (cumsum: 22 registers against Triton's 16 with ptxas 13.0)
            if not isinstance(st, ir.IntType):
                v = b.bitcast(v, ir.IntType(bits))
            reg = nvvm.REG[bits]
            nvvm.asm(b, f"@$2 st.shared.b{bits} [ $0 + 0 ], $1;", f"r,{reg},b", ir.VoidType(),
                     [self.smem_ptr(off), v, pred])
            return
        with b.if_then(pred):
            b.store(v, self.smem_ptr(off), align=min(size, 16))

    def smem_load(self, index: ir.Value, t: ir.Type, base: int = 0, elem_bytes: int | None = None,
                  pred: ir.Value | None = None) -> ir.Value:
        """The value at element `index` (as `smem_store` puts it); with `pred`, undefined where `pred` is false
        (a predicated `ld.shared` as Triton's loadShared; 8-bit values load slot 0 there instead)."""
        b = self.b
        st = self.stored_type(t)
        size = elem_bytes or bits_of(st) // 8
        bits = bits_of(st)
        if pred is not None and bits not in (16, 32, 64):
            index, pred = b.select(pred, index, ir.Constant(i32, 0)), None
        off = b.add(b.mul(index, ir.Constant(i32, size)), ir.Constant(i32, base)) if base else b.mul(index, ir.Constant(i32, size))
        if pred is None:
            v = b.load(self.smem_ptr(off), typ=st, align=min(size, 16))
        else:
            reg = nvvm.REG[bits]
            v = nvvm.asm(b, f"@$2 ld.shared.b{bits} $0, [ $1 + 0 ];", f"={reg},r,b", ir.IntType(bits),
                         [self.smem_ptr(off), pred])
            if not isinstance(st, ir.IntType):
                v = b.bitcast(v, st)
        if st is not t:
            v = b.trunc(v, t) if isinstance(t, ir.IntType) else b.inttoptr(v, t)
        return v

    def store_vector(self, ptr: ir.Value, values: list[ir.Value]) -> None:
        """Store `values` (of one type, already in their stored type) at consecutive slots from shared pointer
        `ptr`, as one access aligned to its size (the caller guarantees the alignment)."""
        b = self.b
        if len(values) == 1:
            b.store(values[0], ptr, align=bits_of(values[0].type) // 8)
            return
        vt = ir.VectorType(values[0].type, len(values))
        vec = ir.Constant(vt, ir.Undefined)
        for i, v in enumerate(values):
            vec = b.insert_element(vec, v, ir.Constant(i32, i))
        b.store(vec, ptr, align=len(values) * bits_of(values[0].type) // 8)

    def load_vector(self, ptr: ir.Value, st: ir.Type, n: int) -> list[ir.Value]:
        """`n` consecutive values of (stored) type `st` from shared pointer `ptr`, as one access aligned to its
        size."""
        b = self.b
        if n == 1:
            return [b.load(ptr, typ=st, align=bits_of(st) // 8)]
        vec = b.load(ptr, typ=ir.VectorType(st, n), align=n * bits_of(st) // 8)
        return [b.extract_element(vec, ir.Constant(i32, i)) for i in range(n)]

    def barrier(self) -> None:
        nvvm.barrier(self.b)
        self.buffer_written, self.buffer_read, self.shared_touched = set(), set(), False

    def barrier_before_scratch(self) -> None:
        """Before a scratch user's writes: a barrier unless no thread has touched shared memory since the last
        one (the threads' earlier reads and writes of the same bytes could otherwise still be in flight)."""
        if self.shared_touched or self.buffer_read or self.buffer_written:
            self.barrier()

    # ------------------------------------------------------------------ lowering ops and regions

    def lower_block(self, block: Block) -> Operation | None:
        """Lower every op of `block` but its terminator, which is returned for the caller to handle."""
        from ttc.lowering.registry import lower_op

        term = None
        parent = block.parent_op()
        kernel_entry = parent is not None and parent.name == "tt.func" and block is block.parent.blocks.first
        if parent is None or parent.name not in COMBINE_OPS:  # a combine region runs inline on registers
            self.buffer_written, self.buffer_read = (set(), set()) if kernel_entry else (ANY, ANY)
            self.shared_touched = not kernel_entry
        for op in block.ops:
            if op is block.last_op and op.has_trait(IsTerminator):
                term = op
                break
            state, uses = (self.buffer_written, self.buffer_read, self.shared_touched), self.shared_uses
            lower_op(self, op)
            if op.regions and op.name not in COMBINE_OPS:
                if self.shared_uses == uses:  # nothing in the regions touched shared memory
                    self.buffer_written, self.buffer_read, self.shared_touched = state
                else:
                    self.buffer_written, self.buffer_read, self.shared_touched = ANY, ANY, True
            elif any(isinstance(v.type, MemDescType) for v in (*op.operands, *op.results)):
                self.shared_touched = True  # a buffer's address, reused from its local_alloc
                self.shared_uses += 1
            if met := self._scratch_taken.pop(op, None):  # its scratch lay over these buffers' bytes
                self.buffer_read = _add(self.buffer_read, met)
                self.buffer_written = _add(self.buffer_written, met)
        return term

    def combine(self, region, args: list[ir.Value]) -> list[ir.Value]:
        """Run a reduce/scan combine region on scalar values; returns what it yields."""
        block = region.blocks.first
        for a, v in zip(block.args, args):
            self.set(a, v)
        state = self.buffer_written, self.buffer_read  # a combine region touches no buffer
        term = self.lower_block(block)
        self.buffer_written, self.buffer_read = state
        if term is None:
            raise self.error(region.parent_op(), "combine region has no terminator")
        return [self.get(v) for v in term.operands]


def constancy_sources(ll: LinearLayout, constancy) -> list[int] | None:
    """Per register, the register whose value it may reuse when the values are constant over aligned runs of
    `constancy[d]` along each dimension d (the axis analysis' constancy; Triton's maybeDeduplicate): the register
    holding the same coordinates with their bits below each run length cleared. Both elements lie in one run,
    whatever the thread adds (a lane's or warp's coordinates change the bits of both alike). None when no register
    reuses another."""
    if len(constancy) != ll.rank:
        return None
    keep = [~((c & -c) - 1) if c > 1 else -1 for c in constancy]  # the largest power of two dividing each run
    if all(k == -1 for k in keep):
        return None
    first = ll.first_reg
    out = [first.get(tuple(x & k for x, k in zip(c, keep)), r) for r, c in enumerate(ll.reg_coords)]
    return None if out == list(range(len(out))) else out


# ops lowered through map_elementwise whose registers are not deduplicated by constancy: as Triton's, whose
# AddPtrOp and impure extern calls are not ElementwiseOpConversionBase patterns (or are skipped there)
_NO_DEDUP = ("tt.addptr",)


def map_elementwise(ctx, op, fn, result=None) -> None:
    """Set `op`'s (first) result to `fn` applied to its operands, register by register; scalar operands of a
    tensor op are broadcast. Registers that the axis analysis proves equal to another (a result constant over runs
    longer than the registers' distance, e.g. a mask `row < K` with K a multiple of 16) reuse its value rather
    than compute it again, as Triton's elementwise lowering does."""
    res = result if result is not None else op.results[0]
    operands = [ctx.get(v) for v in op.operands]
    if isinstance(res.type, TensorType):
        ll = ctx.layout(res.type, op)
        n = ll.num_regs
        cols = [x if isinstance(x, list) else [x] * n for x in operands]
        src = None
        if ctx.axis is not None and op.name not in _NO_DEDUP and not (
                op.name == "tt.extern_elementwise" and not op.is_pure):
            src = constancy_sources(ll, ctx.axis.get(res).constancy)
        if src is None:
            ctx.set(res, [fn(*[c[i] for c in cols]) for i in range(n)])
            return
        done: dict[int, object] = {}
        for i in src:
            if i not in done:
                done[i] = fn(*[c[i] for c in cols])
        ctx.set(res, [done[i] for i in src])
    else:
        ctx.set(res, fn(*operands))
