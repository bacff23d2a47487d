"""Layout exchanges through shared memory (`convert.exchange`), simulated at the address level from the same plan
the lowering uses (`exchange_plan.exchange_plan`, `ExchangePlan.byte_offset` evaluated on ints): for every thread
(lane, warp) and every vector access it issues, the bytes written and read. Checked for many layout pairs:

(a) every destination register reads exactly the bytes where its source element was written (and no two source
    elements share a byte); registers the plan does not load repeat a loaded one holding the same element;
(b) every access is aligned to its width (the element size times the vector length, at most 16 bytes);
(c) every byte lies inside the plan's buffer (`nbytes`, the scratch size the lowering reports).
"""

from __future__ import annotations

import itertools
import random

import pytest

from ttc.ir.layouts import blocked, DotOperandEncoding, NvidiaMmaEncoding, SliceEncoding
from ttc.lowering.exchange_plan import INT, _wavefronts, exchange_plan, mapped_layout
from ttc.ir.linear_layout import layout_for
from random_layouts import random_blocked


def mma(warps):
    return NvidiaMmaEncoding.make(versionMajor=2, versionMinor=0, warpsPerCTA=list(warps), instrShape=[16, 8])


def operand(idx, parent):
    return DotOperandEncoding.make(opIdx=idx, parent=parent, kWidth=2)


def identity(c):
    return tuple(c)


def swap(c):
    return (c[1], c[0])


def simulate(src, dst, f, elem_bytes, plan=None):
    """Run the exchange's plan (by default the one `exchange_plan` makes) for every thread; returns the plan.
    Asserts (a), (b), (c)."""
    plan = plan or exchange_plan(src, mapped_layout(dst, src.shape, f), elem_bytes)
    dst_in_src = mapped_layout(dst, src.shape, f)
    E = elem_bytes
    mem: dict[int, tuple] = {}
    for w, l in itertools.product(range(src.num_warps), range(src.num_lanes)):
        for r in plan.stores:
            addr = plan.byte_offset(list(src.apply(r, l, w)), INT)
            assert addr % (plan.store_vec * E) == 0, ("store misaligned", r, l, w, addr)
            for i in range(plan.store_vec):
                elem = src.apply(r + i, l, w)
                for k in range(E):
                    a = addr + i * E + k
                    assert 0 <= a < plan.nbytes, ("store out of the buffer", a, plan.nbytes)
                    assert mem.setdefault(a, (elem, k)) == (elem, k), ("two elements share a byte", a)
    if plan.ldmatrix is not None:
        simulate_ldmatrix(plan, dst, f, mem)
        return plan
    for w, l in itertools.product(range(dst.num_warps), range(dst.num_lanes)):
        loaded = {}
        for r in plan.loads:
            addr = plan.byte_offset(list(dst_in_src.apply(r, l, w)), INT)
            assert addr % (plan.load_vec * E) == 0, ("load misaligned", r, l, w, addr)
            for i in range(plan.load_vec):
                want = tuple(f(dst.apply(r + i, l, w)))
                for k in range(E):
                    a = addr + i * E + k
                    assert 0 <= a < plan.nbytes, ("load out of the buffer", a, plan.nbytes)
                    assert mem.get(a) == (want, k), ("wrong bytes", r + i, l, w, a, mem.get(a), want)
                loaded[r + i] = want
        for r in range(dst.num_regs):
            want = tuple(f(dst.apply(r, l, w)))
            if r not in loaded:
                r0 = dst_in_src.first_reg[dst_in_src.reg_coords[r]]
                assert loaded[r0] == want, ("repeated register holds another element", r, r0)
    return plan


def simulate_ldmatrix(plan, dst, f, mem):
    """The plan's ldmatrix.x4 loads as the PTX ISA defines them: lane L passes the address of row L % 8 of matrix
    L // 8 (16 bytes, aligned); thread l's register j then holds matrix j's elements (row l // 4, columns
    2 (l % 4) + e), or with .trans (rows 2 (l % 4) + e, column l // 4), for e = 0, 1. Every destination
    register must get its element, and every unique register must be loaded."""
    check_ldmatrix(plan, plan.ldmatrix, dst, f, mem)


def check_ldmatrix(plan, ldm, dst, f, mem):
    """`ldm`'s loads from buffer `plan` holding `mem` ({byte: (element, byte index)}) deliver `dst`'s registers
    (of f's elements), as the PTX ISA defines ldmatrix (16-bit elements, or per_word 4 / 1 elements of 1 / 4
    bytes in each 32-bit word, untransposed)."""
    E = plan.elem_bytes
    p = ldm.per_word
    assert E * p == 4 and (p == 2 or not ldm.trans)
    for w in range(dst.num_warps):
        loaded = {}
        for g in ldm.groups:
            matrices = [[None] * 8 for _ in range(4)]
            for L in range(32):
                addr = plan.byte_offset(list(ldm.rows.apply(g, L, w)), INT)
                assert addr % 16 == 0 and 0 <= addr and addr + 16 <= plan.nbytes, ("bad row address", g, L, w, addr)
                row = []
                for c in range(16 // E):
                    elem = mem.get(addr + c * E)
                    assert elem is not None and elem[1] == 0
                    assert all(mem.get(addr + c * E + k) == (elem[0], k) for k in range(E))
                    row.append(elem[0])
                matrices[L // 8][L % 8] = row
            for l, j, e in itertools.product(range(32), range(4), range(p)):
                if ldm.trans:
                    got = matrices[j][2 * (l % 4) + e][l // 4]
                else:   # thread l's 4 bytes of row l // 4: elements p (l % 4) + e
                    got = matrices[j][l // 4][p * (l % 4) + e]
                r = g + p * j + e
                want = tuple(f(dst.apply(r, l, w)))
                assert got == want, ("ldmatrix delivers another element", g, j, e, l, w, got, want)
                loaded[(l, r)] = got
        for l, r in itertools.product(range(32), range(dst.num_regs)):
            if (l, r) not in loaded:
                r0 = dst.first_reg[dst.reg_coords[r]]
                assert loaded[(l, r0)] == tuple(f(dst.apply(r, l, w))), ("repeated register", r, r0)


A_BLOCKED = blocked([1, 8], [8, 4], [4, 1], [1, 0])
B_BLOCKED = blocked([1, 8], [4, 8], [4, 1], [1, 0])
T_ROWS = blocked([1, 4], [2, 16], [4, 1], [1, 0])
T_COLS = blocked([4, 1], [16, 2], [1, 4], [0, 1])

CASES = [
    # (name, shape, src encoding, dst encoding, elem bytes)
    ("matmul A", (64, 32), A_BLOCKED, operand(0, mma([2, 2])), 2),
    ("matmul B", (32, 64), B_BLOCKED, operand(1, mma([2, 2])), 2),
    ("matmul epilogue f16", (64, 64), mma([2, 2]), B_BLOCKED, 2),
    ("matmul epilogue f32", (64, 64), mma([2, 2]), blocked([1, 4], [4, 8], [4, 1], [1, 0]), 4),
    ("w8 A", (128, 64), A_BLOCKED, operand(0, mma([4, 2])), 2),
    ("w8 B", (64, 128), B_BLOCKED, operand(1, mma([4, 2])), 2),
    ("[1,4] A", (16, 16), blocked([1, 8], [16, 2], [4, 1], [1, 0]), operand(0, mma([1, 4])), 2),
    ("[4,1] B", (32, 32), B_BLOCKED, operand(1, mma([4, 1])), 2),
    ("[1,4] A from 4-byte rows", (16, 16), blocked([1, 2], [4, 8], [4, 1], [1, 0]), operand(0, mma([1, 4])), 2),
    ("transpose convert 64", (64, 64), T_COLS, T_ROWS, 4),
    ("transpose convert 32", (32, 32), blocked([1, 1], [32, 1], [1, 4], [0, 1]),
     blocked([1, 1], [1, 32], [4, 1], [1, 0]), 4),
    ("blocked f32 -> blocked", (64, 64), blocked([1, 4], [8, 4], [2, 2], [1, 0]),
     blocked([4, 1], [4, 8], [1, 4], [0, 1]), 4),
    ("blocked i8", (32, 64), blocked([1, 16], [8, 4], [4, 1], [1, 0]), blocked([2, 2], [8, 4], [2, 2], [0, 1]), 1),
    ("blocked i64", (32, 32), blocked([1, 2], [4, 8], [4, 1], [1, 0]), blocked([2, 1], [8, 4], [1, 4], [0, 1]), 8),
    ("replicated source", (16, 16), blocked([1, 4], [8, 4], [4, 1], [1, 0]),
     blocked([1, 1], [1, 32], [4, 1], [1, 0]), 4),
    ("3-d", (2, 16, 32), blocked([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0]),
     blocked([1, 4, 1], [2, 8, 2], [1, 1, 4], [1, 2, 0]), 4),
]


@pytest.mark.parametrize("name,shape,src_enc,dst_enc,E", CASES, ids=[c[0] for c in CASES])
def test_convert_layout_exchange(name, shape, src_enc, dst_enc, E):
    simulate(layout_for(shape, src_enc), layout_for(shape, dst_enc), identity, E)


def test_trans_exchange():
    """tt.trans of the transpose kernel's tile (the result's coordinates are the source's swapped)."""
    src = layout_for((64, 64), T_ROWS)
    dst = layout_for((64, 64), T_COLS)
    simulate(src, layout_for((64, 64), blocked([1, 1], [32, 1], [1, 4], [0, 1])), swap, 4)
    simulate(src, dst, swap, 4)


def test_broadcast_expand_dims_reshape():
    # broadcast (64, 1) -> (64, 32): the destination's column is dropped
    src = layout_for((64, 1), blocked([1, 1], [32, 1], [4, 1], [1, 0]))
    dst = layout_for((64, 32), blocked([1, 4], [4, 8], [4, 1], [1, 0]))
    simulate(src, dst, lambda c: (c[0], 0), 4)
    # expand_dims (32,) sliced -> (32, 1)
    src = layout_for((32,), SliceEncoding.make(dim=1, parent=blocked([1, 1], [1, 32], [4, 1], [1, 0])))
    dst = layout_for((32, 1), blocked([1, 1], [32, 1], [4, 1], [1, 0]))
    simulate(src, dst, lambda c: (c[0],), 4)
    # reshape (32, 64) -> (2048,)
    src = layout_for((32, 64), blocked([4, 1], [8, 4], [1, 4], [0, 1]))
    dst = layout_for((2048,), blocked([4], [32], [4], [0]))
    simulate(src, dst, lambda c: (c[0] // 64, c[0] % 64), 2)


@pytest.mark.parametrize("seed", range(40))
def test_random_blocked_pairs(seed):
    rng = random.Random(seed)
    shape = (rng.choice([8, 16, 32, 64]), rng.choice([8, 16, 32, 64]))
    warps = rng.choice([1, 2, 4])
    E = rng.choice([1, 2, 4, 8])
    src = layout_for(shape, random_blocked(rng, shape, warps))
    dst = layout_for(shape, random_blocked(rng, shape, warps))
    simulate(src, dst, identity, E)
    if shape[0] == shape[1]:
        simulate(src, dst, swap, E)


def test_vector_widths_and_conflicts():
    """What the plan promises the matmul and transpose kernels: 128-bit stores and conflict-free 32-bit loads for
    A, 128-bit loads for the transpose, whose column-walk stores stay at most 2-way conflicted (as with the
    one-bank padding before) in 4-byte stores."""
    a = exchange_plan(layout_for((64, 32), A_BLOCKED), layout_for((64, 32), operand(0, mma([2, 2]))), 2)
    assert (a.store_vec * 2, a.load_vec * 2) == (16, 4)
    assert a.nbytes == 64 * 32 * 2
    b = exchange_plan(layout_for((32, 64), B_BLOCKED), layout_for((32, 64), operand(1, mma([2, 2]))), 2)
    assert b.store_vec * 2 == 16
    src, dst = layout_for((64, 64), T_COLS), layout_for((64, 64), T_ROWS)
    t = exchange_plan(src, dst, 4)
    assert t.load_vec * 4 == 16 and t.store_vec == 1

    def wavefronts(ll, starts, width):
        return _wavefronts([[t.byte_offset(list(ll.apply(r, lane, 0))) for lane in range(32)] for r in starts], width)

    assert wavefronts(src, t.stores, 4) <= 2 * len(t.stores)
    assert wavefronts(dst, t.loads, 16) == 4 * len(t.loads)
    lds = layout_for((64, 32), operand(0, mma([2, 2])))
    assert _wavefronts([[a.byte_offset(list(lds.apply(r, lane, 0))) for lane in range(32)] for r in a.loads],
                       4) == len(a.loads)


def test_ldmatrix_for_mma_operands():
    """mma.sync's operands are read with ldmatrix.x4: A (K innermost in the buffer) as is, B (N innermost) with
    .trans, one instruction per 8 registers, each of its four 8-lane phases reading 8 distinct 16-byte bank
    groups (conflict-free). Layouts whose lanes do not hold ldmatrix's fragments keep vector loads."""
    for (M, N, K), warps in (((64, 64, 32), [2, 2]), ((128, 128, 64), [4, 2]), ((32, 32, 32), [4, 1])):
        a_dst = layout_for((M, K), operand(0, mma(warps)))
        b_dst = layout_for((K, N), operand(1, mma(warps)))
        a = exchange_plan(layout_for((M, K), A_BLOCKED), a_dst, 2)
        b = exchange_plan(layout_for((K, N), B_BLOCKED), b_dst, 2)
        for plan, dst, trans in ((a, a_dst, False), (b, b_dst, True)):
            ldm = plan.ldmatrix
            assert ldm is not None and ldm.trans == trans
            assert len(ldm.groups) * 8 == len(dst.unique_regs)
            rows = [[plan.byte_offset(list(ldm.rows.apply(g, L, 0))) for L in range(32)] for g in ldm.groups]
            assert _wavefronts(rows, 16) == 4 * len(ldm.groups)
    # a source of 4-byte vectors: the buffer is swizzled in 16-byte units (not the vectors' 4) so that ldmatrix's
    # rows stay whole
    narrow = exchange_plan(layout_for((16, 16), blocked([1, 2], [4, 8], [4, 1], [1, 0])),
                           layout_for((16, 16), operand(0, mma([1, 4]))), 2)
    assert narrow.store_vec == 2 and narrow.unit == 8 and narrow.ldmatrix is not None
    # A's lanes with groupID bits 0 and 1 swapped: ldmatrix still fits (the lanes pass their rows' addresses);
    # with bit 0 of threadID_in_group and of groupID swapped it does not (a thread's pair of columns would lie
    # in two rows)
    from ttc.lowering.exchange_plan import ldmatrix_loads
    from ttc.ir.linear_layout import LinearLayout

    good = layout_for((64, 32), operand(0, mma([2, 2])))
    lanes = list(good.lane)
    lanes[2], lanes[3] = lanes[3], lanes[2]
    rows_swapped = LinearLayout(good.shape, good.reg, tuple(lanes), good.warp)
    src = layout_for((64, 32), A_BLOCKED)
    assert simulate(src, rows_swapped, identity, 2).ldmatrix is not None
    lanes = list(good.lane)
    lanes[0], lanes[2] = lanes[2], lanes[0]
    odd = LinearLayout(good.shape, good.reg, tuple(lanes), good.warp)
    plan = simulate(src, odd, identity, 2)
    assert plan.ldmatrix is None and ldmatrix_loads(plan, odd) is None


def test_swizzled_buffer_roundtrip():
    """A `#ttg.swizzled_shared` buffer as local_memory.py and async_copy.py use it (Triton's sm80 matmul, 128x128x64,
    4 warps): the copies' 16-byte vectors and the dot operands' ldmatrix reads meet, for every thread."""
    from dataclasses import asdict

    from ttc.lowering.exchange_plan import ExchangePlan, ldmatrix_loads, swizzled_buffer, vector_starts, vector_width

    for shape, src_enc, idx in (((128, 64), blocked([1, 8], [4, 8], [4, 1], [1, 0]), 0),
                                ((64, 128), blocked([1, 8], [2, 16], [4, 1], [1, 0]), 1)):
        buf = swizzled_buffer(shape, [1, 0], 2, vec=8, per_phase=1, max_phase=8)
        assert (buf.unit, buf.max_phase, buf.nbytes) == (8, 8, shape[0] * shape[1] * 2)
        src, dst = layout_for(shape, src_enc), layout_for(shape, operand(idx, mma([2, 2])))
        vs = vector_width(src, buf.inner, buf.unit)
        ldm = ldmatrix_loads(buf, dst)
        assert vs == 8 and ldm is not None and ldm.trans == bool(idx)
        plan = ExchangePlan(**asdict(buf), store_vec=vs, load_vec=1, stores=vector_starts(src, vs),
                            loads=vector_starts(dst, 1), ldmatrix=ldm)
        simulate(src, dst, identity, 2, plan)


def test_xor_layouts_fall_back_to_narrower_accesses():
    """Registers 0..3 hold columns 0..3 in lane 0, but lane 1 holds 5, 4, 7, 6 (its basis 5 is not a multiple
    of 4): a 4-wide vector would be misplaced there, so the accesses must narrow (to one element)."""
    from ttc.lowering.exchange_plan import vector_width
    from ttc.ir.linear_layout import LinearLayout

    odd = LinearLayout((4, 32), ((0, 1), (0, 2)), ((0, 5), (0, 8), (0, 16), (1, 0), (2, 0)), ())
    plain = LinearLayout((4, 32), ((0, 1), (0, 2)), ((0, 4), (0, 8), (0, 16), (1, 0), (2, 0)), ())
    assert vector_width(odd, 1, 4) == 1 and vector_width(plain, 1, 4) == 4
    cols = LinearLayout((4, 32), ((1, 0), (2, 0)), tuple((0, 1 << i) for i in range(5)), ())
    for src, dst in ((odd, cols), (cols, odd), (odd, plain), (plain, odd)):
        for E in (1, 2, 4):
            simulate(src, dst, identity, E)


@pytest.mark.parametrize("bits,k_width,shape,buffer", [
    (8, 4, (64, 32), (16, 4, 2)),    # i8 / fp8 A of matmul_acc (sm80): vec, perPhase, maxPhase as Triton's
    (32, 1, (64, 32), (4, 1, 8)),    # tf32 A
    (8, 4, (128, 64), (16, 2, 4)),
])
def test_ldmatrix_for_8_and_32_bit_mma_operands(bits, k_width, shape, buffer):
    """local_load of an s8/fp8 (kWidth 4) or tf32 (kWidth 1) A operand from its swizzled buffer: ldmatrix's
    16-byte rows give each thread 4 bytes, which are the 4 consecutive k (one f32) its fragment register needs."""
    from ttc.lowering.exchange_plan import ldmatrix_loads, swizzled_buffer

    E = bits // 8
    buf = swizzled_buffer(shape, [1, 0], E, *buffer)
    dst = layout_for(shape, DotOperandEncoding.make(opIdx=0, parent=mma([2, 2]), kWidth=k_width))
    ldm = ldmatrix_loads(buf, dst)
    assert ldm is not None and ldm.per_word == 4 // E and not ldm.trans
    assert len(ldm.groups) * 16 // E == len(dst.unique_regs)
    mem = {}
    for c in itertools.product(*(range(n) for n in shape)):
        a = buf.byte_offset(list(c), INT)
        for k in range(E):
            assert mem.setdefault(a + k, (c, k)) == (c, k)
    check_ldmatrix(buf, ldm, dst, identity, mem)
    # B (N innermost in its buffer): its k run down the rows, which only .trans (16-bit) could gather
    b_dst = layout_for(shape[::-1], DotOperandEncoding.make(opIdx=1, parent=mma([2, 2]), kWidth=k_width))
    assert ldmatrix_loads(swizzled_buffer(shape[::-1], [1, 0], E, 8, 1, 8), b_dst) is None


def _random_linear(rng, shape, warps):
    """A layout whose bases are unit steps mixed by random XORs (invertible), 32 lanes, `warps` warps."""
    from ttc.ir.linear_layout import LinearLayout

    bases = [[(1 << i) if d == k else 0 for k in range(len(shape))] for d, n in enumerate(shape)
             for i in range(n.bit_length() - 1)]
    rng.shuffle(bases)
    for _ in range(len(bases)):
        i, j = rng.sample(range(len(bases)), 2)
        bases[i] = [x ^ y for x, y in zip(bases[i], bases[j])]
    bases = [tuple(b) for b in bases]
    n_warp = warps.bit_length() - 1
    n_reg = len(bases) - 5 - n_warp
    return LinearLayout(tuple(shape), tuple(bases[:n_reg]), tuple(bases[n_reg:n_reg + 5]), tuple(bases[n_reg + 5:]))


def test_linear_shortcuts_score_as_the_full_evaluation(monkeypatch):
    """`exchange_plan` scores most candidates on a few points (one access's lanes for all accesses, ldmatrix's
    check on basis vectors) where the buffer's offsets are linear; with `_CHECK_ALL` it evaluates every thread
    and register of every candidate. Both must give every candidate the same costs and ldmatrix loads, hence the
    same plans: every case above, random pairs, layouts whose bases mix dimensions or whose lanes do not hold
    ldmatrix's fragments, and 8/32-bit mma operands in swizzled and padded buffers."""
    from ttc.ir.linear_layout import LinearLayout
    from ttc.lowering import exchange_plan as ep

    pairs = [(layout_for(shape, s), layout_for(shape, d), E) for _, shape, s, d, E in CASES
             if shape[0] * shape[-1] <= 4096]  # the 8-warp tiles take seconds evaluated everywhere
    for seed in range(12):
        rng = random.Random(seed)
        shape = (rng.choice([16, 32, 64]), rng.choice([16, 32, 64]))
        warps, E = rng.choice([1, 2, 4]), rng.choice([1, 2, 4])
        pairs.append((layout_for(shape, random_blocked(rng, shape, warps)),
                      layout_for(shape, random_blocked(rng, shape, warps)), E))
    for seed in range(8):  # bases mixing dimensions: lanes and registers share coordinate bits
        rng = random.Random(seed)
        shape, warps = (rng.choice([8, 16, 32]), rng.choice([16, 32])), rng.choice([1, 2, 4])
        pairs.append((_random_linear(rng, shape, warps), _random_linear(rng, shape, warps), rng.choice([1, 2, 4])))
    good = layout_for((64, 32), operand(0, mma([2, 2])))
    variants = []
    for change in ({2: 3, 3: 2}, {0: 2, 2: 0}, {0: 1, 1: 0}):  # lanes swapped: fits, does not, does not
        lanes = list(good.lane)
        for i, j in change.items():
            lanes[i] = good.lane[j]
        variants.append(LinearLayout(good.shape, good.reg, tuple(lanes), good.warp))
    mixed = list(good.lane)
    mixed[2] = (mixed[2][0], mixed[2][1] ^ 8)  # a lane basis in both dimensions
    variants.append(LinearLayout(good.shape, good.reg, tuple(mixed), good.warp))
    pairs += [(layout_for((64, 32), A_BLOCKED), v, 2) for v in variants]
    odd = LinearLayout((4, 32), ((0, 1), (0, 2)), ((0, 5), (0, 8), (0, 16), (1, 0), (2, 0)), ())
    cols = LinearLayout((4, 32), ((1, 0), (2, 0)), tuple((0, 1 << i) for i in range(5)), ())
    pairs += [(odd, cols, 2), (cols, odd, 1)]
    loads = []
    for shape, E, k_width, buffer in (((64, 32), 1, 4, (16, 4, 2)), ((64, 32), 4, 1, (4, 1, 8)),
                                      ((128, 64), 2, 2, (8, 1, 8)), ((64, 64), 2, 2, (8, 2, 4))):
        buf = ep.swizzled_buffer(shape, [1, 0], E, *buffer)
        for idx in (0, 1):
            loads.append((buf, layout_for(shape, DotOperandEncoding.make(opIdx=idx, parent=mma([2, 2]),
                                                                        kWidth=k_width))))
    for row_elems in (40, 36, 34):  # padded rows of 80, 72, 68 bytes: integer-linear offsets
        loads += [(ep.BufferLayout((64, 32), 1, 2, 2, row_elems, 0, 1), v) for v in [good] + variants[:3]]

    scores = []
    costs, fit_each = ep._access_costs, ep._LdmatrixFit.fit_each
    monkeypatch.setattr(ep, "_access_costs", lambda *a: scores.append(costs(*a)) or scores[-1])
    monkeypatch.setattr(ep._LdmatrixFit, "fit_each", lambda *a: scores.append(fit_each(*a)) or scores[-1])

    def run():
        scores.clear()
        plans = [ep.exchange_plan.__wrapped__(*p) for p in pairs], [ep.ldmatrix_loads(b, d) for b, d in loads]
        return plans, list(scores)

    fast = run()
    ldm = fast[0][1]
    assert [x is not None for x in ldm[-12:]] == [True, True, False, False] + [False] * 8  # 72, 68: misaligned
    assert sum(p.ldmatrix is not None for p in fast[0][0]) >= 4
    monkeypatch.setattr(ep, "_CHECK_ALL", True)
    assert run() == fast


def test_planning_imports_no_numpy():
    """Importing NumPy took longer than planning a kernel's exchanges: the plans are pure Python."""
    import subprocess
    import sys

    code = ("import sys\nfrom ttc.ir.linear_layout import layout_for\nfrom test_exchange_plan import A_BLOCKED, "
            "operand, mma\nfrom ttc.lowering.exchange_plan import exchange_plan\n"
            "p = exchange_plan(layout_for((64, 32), A_BLOCKED), layout_for((64, 32), operand(0, mma([2, 2]))), 2)\n"
            "assert p.ldmatrix is not None\nprint('numpy' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=__import__("pathlib").Path(__file__).parent)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
