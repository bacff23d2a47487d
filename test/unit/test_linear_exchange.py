"""Layout exchanges through a linear (XOR-swizzled) buffer (`linear_exchange`, lowered by `convert.exchange`),
simulated thread by thread from the addresses the lowering computes (`LinearExchange.addresses` on ints, the same
code that builds the LLVM IR) and the PTX ISA's definitions of the instructions:

- st/ld.shared of a vector: slot i at byte offset + i * E, the offset aligned to the vector's size;
- ldmatrix / stmatrix .x4 (.b16): lane L passes the address of row L % 8 of matrix L // 8 (16 bytes, aligned);
  thread l's 32-bit register j holds matrix j's row l // 4, bytes 4 (l % 4) .. 4 (l % 4) + 3: the elements
  p (l % 4) + e of p = 4 / E a register, e from the low bits up (with .trans, 16-bit: rows 2 (l % 4) + e,
  column l // 4, e = 0, 1 the low and high half).

Every destination register must receive the element it holds, no two source elements may share a byte, every
byte lies in the buffer. Also: what the plans promise the matmul epilogue (128-bit stores and ldmatrix, no bank
conflicts) and how the instruction kinds are picked.
"""

from __future__ import annotations

import itertools
import random

import pytest

from ttc.ir.layouts import blocked, DotOperandEncoding, NvidiaMmaEncoding
from ttc.ir.linear_layout import LinearLayout, layout_for
from random_layouts import random_blocked
from ttc.lowering.exchange_plan import INT, _wavefronts, exchange_plan, mapped_layout, merged_byte_loads
from ttc.lowering.linear_exchange import linear_exchange, thread_offset


def mma(warps, version=2, n=8):
    shape = [16, 8] if version == 2 else [16, n, 16]
    return NvidiaMmaEncoding.make(versionMajor=version, versionMinor=0, warpsPerCTA=list(warps), instrShape=shape)


def operand(idx, parent):
    return DotOperandEncoding.make(opIdx=idx, parent=parent, kWidth=2)


def addresses(plan, side, warps):
    """[instruction][thread]: byte offsets, and the register slots of each instruction."""
    per_thread = [list(plan.addresses(side, INT, tid)) for tid in range(32 * warps)]
    slots = [s for _, _, s in per_thread[0]]
    return [[t[k][0] + t[k][1] for t in per_thread] for k in range(len(slots))], slots


def places(kind, addr, warps, E, width):
    """[thread][slot]: the byte offset each slot of each thread's access goes to."""
    out = []
    for w, l in itertools.product(range(warps), range(32)):
        a = addr[32 * w + l]
        if kind == "vec":
            assert a % (width * E) == 0, ("misaligned", a, width)
            out.append([a + i * E for i in range(width)])
            continue
        row = []
        per = 2 if kind.endswith("trans") else 4 // E   # elements of a 32-bit register (.trans: 16-bit ones)
        for j, e in itertools.product(range(4), range(per)):
            if kind.endswith("trans"):
                lane, col = 8 * j + 2 * (l % 4) + e, l // 4
            else:
                lane, col = 8 * j + l // 4, per * (l % 4) + e
            r = addr[32 * w + lane]
            assert r % 16 == 0, ("row misaligned", r)
            row.append(r + col * E)
        out.append(row)
    return out


def simulate(src, dst, f, E, **kw):
    """Run the exchange's linear plan for every thread; returns the plan."""
    dst_in_src = mapped_layout(dst, src.shape, f)
    plan = linear_exchange(src, dst_in_src, E, **kw)
    assert plan is not None
    warps = src.num_warps
    loaded = {}
    for store, load in zip(plan.rounds(plan.store), plan.rounds(plan.load)):   # each round: a fresh buffer
        mem = {}
        addr, slots = addresses(plan, store, warps)
        for k, regs in enumerate(slots):
            for t, ps in enumerate(places(store.kind, addr[k], warps, E, len(regs))):
                for r, p in zip(regs, ps):
                    elem = src.apply(r, t % 32, t // 32)
                    for b in range(E):
                        assert 0 <= p + b < plan.nbytes, ("store outside the buffer", p)
                        assert mem.setdefault(p + b, (elem, b)) == (elem, b), ("two elements share a byte", p)
        addr, slots = addresses(plan, load, warps)
        for k, regs in enumerate(slots):
            for t, ps in enumerate(places(load.kind, addr[k], warps, E, len(regs))):
                for r, p in zip(regs, ps):
                    want = tuple(f(dst.apply(r, t % 32, t // 32)))
                    for b in range(E):
                        assert mem.get(p + b) == (want, b), ("wrong bytes", r, t, p, mem.get(p + b), want)
                    loaded[t, r] = want
    for t, r in itertools.product(range(32 * warps), range(dst.num_regs)):
        want = tuple(f(dst.apply(r, t % 32, t // 32)))
        if (t, r) not in loaded:  # a repeated register copies the first holding its element
            r0 = dst_in_src.first_reg[dst_in_src.reg_coords[r]]
            assert loaded[t, r0] == want, ("repeated register holds another element", r, r0)
    return plan


def identity(c):
    return tuple(c)


def swap(c):
    return (c[1], c[0])


A_BLOCKED = blocked([1, 8], [8, 4], [4, 1], [1, 0])
B_BLOCKED = blocked([1, 8], [4, 8], [4, 1], [1, 0])

CASES = [
    # (name, shape, src encoding, dst encoding, elem bytes)
    ("wgmma epilogue f16", (64, 64), mma([4, 1], 3, 64), B_BLOCKED, 2),
    ("wgmma epilogue f32", (64, 64), mma([4, 1], 3, 64), blocked([1, 4], [2, 16], [4, 1], [1, 0]), 4),
    ("wgmma epilogue 128x256 w8", (128, 256), mma([8, 1], 3, 256), blocked([1, 8], [1, 32], [8, 1], [1, 0]), 2),
    ("wgmma epilogue 2 warp groups along N", (64, 128), mma([4, 2], 3, 64), blocked([1, 8], [4, 8], [8, 1], [1, 0]), 2),
    ("mma.sync epilogue f16", (64, 64), mma([2, 2]), B_BLOCKED, 2),
    ("mma.sync A", (64, 32), A_BLOCKED, operand(0, mma([2, 2])), 2),
    ("mma.sync B", (32, 64), B_BLOCKED, operand(1, mma([2, 2])), 2),
    ("transpose f16", (64, 64), blocked([8, 1], [8, 4], [1, 4], [0, 1]), B_BLOCKED, 2),
    ("transpose f32", (32, 32), blocked([1, 1], [32, 1], [1, 4], [0, 1]), blocked([1, 1], [1, 32], [4, 1], [1, 0]), 4),
    ("blocked i8", (32, 64), blocked([1, 16], [8, 4], [4, 1], [1, 0]), blocked([2, 2], [8, 4], [2, 2], [0, 1]), 1),
    ("blocked i64", (32, 32), blocked([1, 2], [4, 8], [4, 1], [1, 0]), blocked([2, 1], [8, 4], [1, 4], [0, 1]), 8),
    ("replicated source", (16, 16), blocked([1, 4], [8, 4], [4, 1], [1, 0]), blocked([1, 1], [1, 32], [4, 1], [1, 0]), 4),
    ("1-d, repeated destination", (1024,), blocked([8], [32], [4], [0]), blocked([4], [32], [4], [0]), 4),
    ("3-d", (2, 16, 32), blocked([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0]),
     blocked([1, 4, 1], [2, 8, 2], [1, 1, 4], [1, 2, 0]), 4),
]


@pytest.mark.parametrize("stmatrix", [False, True])
@pytest.mark.parametrize("name,shape,src_enc,dst_enc,E", CASES, ids=[c[0] for c in CASES])
def test_exchange(name, shape, src_enc, dst_enc, E, stmatrix):
    simulate(layout_for(shape, src_enc), layout_for(shape, dst_enc), identity, E, stmatrix=stmatrix)


def test_trans_and_broadcast():
    src = layout_for((64, 64), blocked([1, 4], [2, 16], [4, 1], [1, 0]))
    simulate(src, layout_for((64, 64), blocked([4, 1], [16, 2], [1, 4], [0, 1])), swap, 4)
    src = layout_for((64, 1), blocked([1, 1], [32, 1], [4, 1], [1, 0]))
    simulate(src, layout_for((64, 32), blocked([1, 4], [4, 8], [4, 1], [1, 0])), lambda c: (c[0], 0), 4)


@pytest.mark.parametrize("seed", range(40))
def test_random_blocked_pairs(seed):
    rng = random.Random(seed)
    shape = (rng.choice([8, 16, 32, 64]), rng.choice([8, 16, 32, 64]))
    warps = rng.choice([1, 2, 4])
    E = rng.choice([1, 2, 4, 8])
    src = layout_for(shape, random_blocked(rng, shape, warps))
    dst = layout_for(shape, random_blocked(rng, shape, warps))
    simulate(src, dst, identity, E, stmatrix=bool(seed % 2))
    if shape[0] == shape[1]:
        simulate(src, dst, swap, E)


def test_reps_as_triton():
    """sort_i32_16x128_k32_w8's last conversion (16x256 i32): row 8 is a register of both layouts, so the
    exchange runs in two rounds through 8 KiB (Triton's scratch for it, `swizzled_scratch_elems`), half the
    registers of each side a round, through Triton's swizzle; the 32x32 tile of one element a thread keeps its
    one round."""
    from ttc.analysis.scratch import swizzled_scratch_elems

    src = layout_for((16, 256), blocked([1, 8], [1, 32], [8, 1], [1, 0]))
    dst = layout_for((16, 256), blocked([1, 4], [1, 32], [4, 2], [1, 0]))
    plan = simulate(src, dst, identity, 4)
    assert (plan.reps, plan.nbytes) == (1, 8192) == (1, 4 * swizzled_scratch_elems(src, dst, 32))
    for side in (plan.store, plan.load):
        assert [len(r.instrs) for r in plan.rounds(side)] == [2, 2]
    # Triton's buffer (optimalSwizzling, the first dimension's bits lowest): vector columns 1, 2, bank columns
    # 8, 16, 32, segment rows 1, 2, 4, columns 64, 128 and 4 ^ 32, rounds row 8 (Triton 3.6's PTX of
    # Inputs/exchange_reps.ttgir: lane 0 of the loads at byte 4160, their second register row at +512, the rounds at the same offsets of one 8 KiB buffer)
    assert plan.bases == (1, 2, 8, 16, 32, 256, 512, 1024, 64, 128, 36, 2048)
    assert [plan.offset(c) * 4 for c, _ in plan.load.instrs] == [0, 512, 8192, 8704]   # round 1: 8192 up
    assert plan.offset(4) * 4 == 4160
    src = layout_for((32, 32), blocked([1, 1], [32, 1], [1, 4], [0, 1]))
    plan = simulate(src, layout_for((32, 32), blocked([1, 1], [1, 32], [4, 1], [1, 0])), identity, 4)
    assert (plan.reps, plan.nbytes) == (0, 4096)


def _conflicts(plan, side, E):
    addr, slots = addresses(plan, side, 1)
    width = 16 if side.kind != "vec" else len(slots[0]) * E
    return _wavefronts([a[:32] for a in addr], width), len(slots)


def test_wgmma_epilogue_is_128_bit_and_conflict_free():
    """The wgmma accumulator (f16) to the store's blocked layout: st.shared.v4 of 8 registers that are not
    consecutive (columns c, c + 1, c + 8, c + 9, c + 16, ...) and ldmatrix, as Triton; every 8-lane phase in
    distinct banks (4 wavefronts a 16-byte access)."""
    src = layout_for((64, 64), mma([4, 1], 3, 64))
    dst = layout_for((64, 64), B_BLOCKED)
    plan = simulate(src, dst, identity, 2)
    assert (plan.store.kind, plan.store.width, len(plan.store.instrs)) == ("vec", 8, 4)
    assert (plan.load.kind, len(plan.load.instrs)) == ("ldmatrix", 4)
    assert plan.nbytes == 64 * 64 * 2
    for side in (plan.store, plan.load):
        assert _conflicts(plan, side, 2) == (4 * 4, 4)
    # f32: 128-bit on both sides, conflict-free
    plan = simulate(src, layout_for((64, 64), blocked([1, 4], [2, 16], [4, 1], [1, 0])), identity, 4)
    assert plan.store.width == 4 and plan.load.width == 4
    assert _conflicts(plan, plan.store, 4) == (4 * 8, 8) and _conflicts(plan, plan.load, 4) == (4 * 8, 8)


def test_stmatrix_only_where_allowed():
    """stmatrix (sm_90) stores the mma accumulator when the destination's registers run down a column (8 rows a
    thread: the transposed form, then 128-bit loads), and only where the target has it."""
    src = layout_for((64, 64), mma([4, 1], 3, 64))
    dst = layout_for((64, 64), blocked([8, 1], [8, 4], [1, 4], [0, 1]))
    assert linear_exchange(src, dst, 2, stmatrix=False).store.kind == "vec"
    plan = simulate(src, dst, identity, 2, stmatrix=True)
    assert plan.store.kind.startswith("stmatrix")


def test_matrix_instructions_of_8_and_32_bit_elements():
    """ldmatrix / stmatrix .x4 move 8- and 32-bit elements too (4 or 1 a 32-bit register, lanes 0 and 1 along a
    16-byte row, not transposed), as Triton's ldstmatrix tiles: the gather kernel's f32 exchanges (Triton: 2
    stmatrix, 4 ldmatrix) and an i8 tile of 16 bytes a thread's row; the matmul epilogue's f16 words pair a
    row's columns c and c + 8 (a register other than the first as the word's halves) so that the loads are 128
    bits. Each against the same exchange without them."""
    f32_rows = layout_for((32, 32), blocked([1, 4], [4, 8], [4, 1], [1, 0]))
    f32_cols = layout_for((32, 32), blocked([1, 1], [32, 1], [1, 4], [0, 1]))
    plan = simulate(f32_rows, f32_cols, identity, 4, stmatrix=True)
    assert (plan.store.kind, len(plan.store.instrs), plan.load.kind, len(plan.load.instrs)) == ("stmatrix", 2, "vec", 2)
    assert linear_exchange(f32_rows, f32_cols, 4, stmatrix=False).store.kind == "vec"
    cols = layout_for((64, 32), blocked([1, 1], [32, 1], [1, 4], [0, 1]))
    rows = layout_for((64, 32), blocked([1, 4], [4, 8], [4, 1], [1, 0]))
    plan = simulate(cols, rows, identity, 4)
    assert (plan.store.kind, plan.load.kind, len(plan.load.instrs)) == ("vec", "ldmatrix", 4)
    assert linear_exchange(cols, rows, 4, ldmatrix=False).load.kind == "vec"
    i8_src = layout_for((256, 16), blocked([2, 4], [8, 4], [4, 1], [1, 0]))
    i8_dst = layout_for((256, 16), blocked([1, 16], [32, 1], [4, 1], [1, 0]))
    plan = simulate(i8_src, i8_dst, identity, 1, stmatrix=True)
    assert (plan.store.kind, len(plan.store.instrs), plan.load.kind, len(plan.load.instrs)) == ("stmatrix", 2, "vec", 2)
    plan = simulate(i8_dst, i8_src, identity, 1)
    assert (plan.store.kind, len(plan.store.instrs), plan.load.kind, len(plan.load.instrs)) == ("vec", 2, "ldmatrix", 2)
    acc = layout_for((64, 64), mma([4, 1], 3, 64))
    dst = layout_for((64, 64), blocked([1, 1], [32, 1], [2, 2], [0, 1]))
    plan = simulate(acc, dst, identity, 2, stmatrix=True)
    assert plan.store.kind == "stmatrix" and plan.store.instrs[0][1][:2] == (0, 4)
    assert (plan.load.kind, len(plan.load.instrs), len(plan.load.instrs[0][1])) == ("vec", 4, 8)


def test_thread_offset_terms():
    """A thread's base offset is the XOR of the offsets of its id's set bits, whichever form computes it: shifted
    runs, a swizzle's bits moving to two places, (0 - bit) & v, a multiplied run."""
    from ttc.lowering.linear_exchange import thread_terms

    cases = ([16, 32, 64, 0, 4096, 8192], [3, 0, 12, 8, 1024], [64, 32, 16], [0, 0, 0],
             [16 | 128, 32 | 256, 64 | 512, 1024], [288, 576, 16, 0, 4096], [5, 10, 20, 40], [0x41, 0x82, 0, 0x1000],
             [0x21, 0, 0x300])
    kinds = set()
    for vecs in cases:
        kinds |= {t[0] for t in thread_terms(vecs)}
        for tid in range(1 << len(vecs)):
            got, known = thread_offset(INT, tid, vecs)
            want = 0
            for i, v in enumerate(vecs):
                if tid >> i & 1:
                    want ^= v
            assert (got or 0) == want and want & ~known == 0
    assert kinds == {"shift", "bit", "mul"}


def _check_buffer(ll, buf, side):
    """Every thread's accesses of `side` (addresses on ints, ISA semantics) touch exactly the bytes the buffer
    layout `buf` gives each register's element."""
    from ttc.lowering.linear_exchange import addresses, buffer_inverse

    E = buf.elem_bytes
    inv = buffer_inverse(lambda c: buf.byte_offset(c, INT), buf.shape, E)
    warps = ll.num_warps
    per_thread = [list(addresses(inv, E, side, INT, tid)) for tid in range(32 * warps)]
    seen = set()
    for k, (_, _, regs) in enumerate(per_thread[0]):
        addr = [t[k][0] + t[k][1] for t in per_thread]
        for t, ps in enumerate(places(side.kind, addr, warps, E, len(regs))):
            for r, p in zip(regs, ps):
                assert p == buf.byte_offset(list(ll.apply(r, t % 32, t // 32)), INT), (side.kind, r, t, p)
                seen.add((t, r))
    for t, r in itertools.product(range(32 * warps), range(ll.num_regs)):
        if (t, r) not in seen:
            r0 = ll.first_reg[ll.reg_coords[r]]
            assert (t, r0) in seen


def test_registers_to_and_from_nvmma_buffers():
    """local_store / local_load of a linear buffer (`buffer_side`): the wgmma accumulator into the 64-byte
    swizzled buffer of a TMA store with 4 stmatrix.x4 (as Triton), a blocked tile with 128-bit vectors, A's
    fragments read back with ldmatrix; every access checked against the buffer's own byte offsets."""
    from ttc.lowering.exchange_plan import swizzled_buffer
    from ttc.lowering.linear_exchange import buffer_inverse, buffer_side
    from ttc.lowering.nvmma_shared import nvmma_buffer

    acc = layout_for((64, 32), mma([4, 1], 3, 32))
    for swizzle in (32, 64):   # rows of 32 halves: at most 64 bytes
        buf = nvmma_buffer((64, 32), swizzle, False, 2)
        inv = buffer_inverse(lambda c: buf.byte_offset(c, INT), buf.shape, 2)
        side = buffer_side(acc, inv, 2, "stmatrix")
        assert side.kind == "stmatrix" and len(side.instrs) == 2
        _check_buffer(acc, buf, side)
        assert buffer_side(acc, inv, 2, "").kind == "vec"
        _check_buffer(acc, buf, buffer_side(acc, inv, 2, ""))
    buf = nvmma_buffer((64, 64), 128, False, 2)
    inv = buffer_inverse(lambda c: buf.byte_offset(c, INT), buf.shape, 2)
    tile = layout_for((64, 64), B_BLOCKED)
    side = buffer_side(tile, inv, 2, "stmatrix")
    assert side.kind == "vec" and side.width == 8
    _check_buffer(tile, buf, side)
    # ldmatrix for an mma operand from a swizzled buffer; .trans for a K-major one in a transposed buffer
    for shape, max_phase, op_idx, kind in (((64, 32), 4, 0, "ldmatrix"), ((32, 64), 8, 1, "ldmatrix.trans")):
        buf = swizzled_buffer(shape, [1, 0], 2, vec=8, per_phase=1, max_phase=max_phase)
        inv = buffer_inverse(lambda c: buf.byte_offset(c, INT), buf.shape, 2)
        lay = layout_for(shape, operand(op_idx, mma([2, 2])))
        side = buffer_side(lay, inv, 2, "ldmatrix")
        assert side.kind == kind
        _check_buffer(lay, buf, side)


def test_byte_loads_two_at_a_time_and_apart():
    """1-byte elements stored one by one are loaded two at a time (ld.shared.v2.b8 fills two registers: nothing to
    unpack), and no two of a thread's loads share a 4-byte word, which LLVM's load-store vectorizer would merge
    into a word load unpacked byte by byte (prmt): dot_scaled's B scales, one byte a thread to 32 a thread (16
    rows x 2 columns), took two 16-byte loads and 32 prmt. 2-byte elements keep their 16-byte loads; bytes that
    both sides hold in registers together keep their wider loads (as the stores); the row-swizzled buffers'
    plans (`exchange_plan`) have the same cap."""
    src = layout_for((64, 2), blocked([1, 1], [16, 2], [4, 1], [1, 0]))
    dst = LinearLayout((64, 2), ((1, 0), (2, 0), (4, 0), (8, 0), (0, 1)),
                       ((16, 0), (32, 0), (0, 0), (0, 0), (0, 0)), ((0, 0), (0, 0)))
    plan = simulate(src, dst, identity, 1)
    assert (plan.load.kind, plan.load.width, len(plan.load.instrs)) == ("vec", 2, 16)
    addr, _ = addresses(plan, plan.load, 4)
    for t in range(128):
        words = [a[t] >> 2 for a in addr]
        assert len(set(words)) == len(words), ("two loads of a thread share a word", t)
    assert merged_byte_loads([a[0] for a in addr], 2) == 0
    assert merged_byte_loads([0, 2, 8], 2) == 1 + 4 - 2 and merged_byte_loads([0, 1, 2, 3], 1) == 1
    assert simulate(src, dst, identity, 2).load.width == 8
    assert exchange_plan(src, dst, 1).load_vec == 2 and exchange_plan(src, dst, 2).load_vec == 8
    four = layout_for((64, 16), blocked([2, 4], [8, 4], [4, 1], [1, 0]))   # 4 columns a thread, 8 below
    eight = layout_for((64, 16), blocked([1, 8], [16, 2], [4, 1], [1, 0]))
    assert simulate(four, eight, identity, 1, ldmatrix=False).load.width == 4
    assert simulate(four, eight, identity, 2, ldmatrix=False).load.width == 8
