"""Layout index math of the LLVM lowering: which element each (register, lane, warp) holds.

`ttc.ir.linear_layout` builds Triton's linear layouts from bases; here they are checked against direct,
arithmetic definitions of the same layouts (mixed-radix digits of the register, lane and warp ids, wrapped
around the tensor's shape), and the LLVM IR that computes the coordinates is JIT-compiled for the host and
compared with the Python model for every lane and warp.
"""

import ctypes
import itertools
import math
import random

import llvmlite.binding as llvm
import llvmlite.ir as ir
import pytest

from ttc.ir.layout_utils import slice_of
from ttc.ir.layouts import blocked
from ttc.ir.layouts import DotOperandEncoding
from ttc.lowering import indexing
from ttc.ir.linear_layout import UnsupportedLayout, layout_for


def digits(value, radices):
    out = []
    for r in radices:
        out.append(value % r)
        value //= r
    return out


def blocked_reference(shape, spt, tpw, wpc, order, r, lane, warp):
    """Element of register r of (lane, warp): sizePerThread digits (fastest dim first), then one digit per
    repetition of the CTA tile; lanes and warps likewise; coordinates wrap around smaller tensors."""
    rank = len(shape)
    tile = [spt[d] * tpw[d] * wpc[d] for d in range(rank)]
    reps = [max(1, shape[d] // tile[d]) for d in range(rank)]
    rd = digits(r, [spt[d] for d in order] + [reps[d] for d in order])
    s = {d: rd[i] for i, d in enumerate(order)}
    k = {d: rd[rank + i] for i, d in enumerate(order)}
    ld = dict(zip(order, digits(lane, [tpw[d] for d in order])))
    wd = dict(zip(order, digits(warp, [wpc[d] for d in order])))
    return tuple((k[d] * tile[d] + (wd[d] * tpw[d] + ld[d]) * spt[d] + s[d]) % shape[d] for d in range(rank))


def random_blocked(rng, rank, warps=4):
    def split(total):
        out = [1] * rank
        while total > 1:
            out[rng.randrange(rank)] *= 2
            total //= 2
        return out

    spt = [1 << rng.randint(0, 2) for _ in range(rank)]
    order = list(range(rank))
    rng.shuffle(order)
    shape = [1 << rng.randint(0, 7 if rank == 1 else 5) for _ in range(rank)]
    return shape, spt, split(32), split(warps), order


CASES = [random_blocked(random.Random(seed), rank) for seed in range(12) for rank in (1, 2, 3)]
FIXED = [
    ([1024], [4], [32], [4], [0]),       # vector add: 8 registers, two tiles
    ([128], [4], [32], [4], [0]),        # smaller than the tile: warps replicate
    ([2], [4], [32], [4], [0]),          # smaller than sizePerThread: registers replicate
    ([32, 32], [1, 1], [1, 32], [4, 1], [1, 0]),
    ([64, 64], [2, 2], [4, 8], [2, 2], [0, 1]),
]


@pytest.mark.parametrize("shape,spt,tpw,wpc,order", FIXED + CASES)
def test_blocked_matches_reference(shape, spt, tpw, wpc, order):
    ll = layout_for(tuple(shape), blocked(spt, tpw, wpc, order))
    tile = [spt[d] * tpw[d] * wpc[d] for d in range(len(shape))]
    assert ll.num_regs == math.prod(spt[d] * max(1, shape[d] // tile[d]) for d in range(len(shape)))
    assert (ll.num_lanes, ll.num_warps) == (math.prod(tpw), math.prod(wpc))
    for lane, warp in itertools.product(range(ll.num_lanes), range(ll.num_warps)):
        for r in range(ll.num_regs):
            assert ll.apply(r, lane, warp) == blocked_reference(shape, spt, tpw, wpc, order, r, lane, warp)
    ll.check_injective()


@pytest.mark.parametrize("shape,spt,tpw,wpc,order", FIXED[3:] + [c for c in CASES if len(c[0]) > 1][:30])
def test_slice_holds_what_the_parent_holds(shape, spt, tpw, wpc, order):
    parent = blocked(spt, tpw, wpc, order)
    for dim in range(len(shape)):
        sshape = shape[:dim] + shape[dim + 1:]
        ll = layout_for(tuple(sshape), slice_of(dim, parent))
        pshape = list(shape)
        pshape[dim] = 1
        tile = [spt[d] * tpw[d] * wpc[d] for d in range(len(shape))]
        pregs = math.prod(spt[d] * max(1, pshape[d] // tile[d]) for d in range(len(shape)))
        for lane, warp in itertools.product(range(32), range(4)):
            held = [ll.apply(r, lane, warp) for r in range(ll.num_regs)]
            assert len(set(held)) == len(held), "a slice has no replicated registers"
            want = {c[:dim] + c[dim + 1:] for c in (blocked_reference(pshape, spt, tpw, wpc, order, r, lane, warp)
                                                    for r in range(pregs))}
            assert set(held) == want


@pytest.mark.parametrize("op_idx", [0, 1])
@pytest.mark.parametrize("spt,tpw,wpc,order,m,n,k", [
    ([2, 2], [2, 16], [4, 1], [1, 0], 32, 32, 16),
    ([1, 4], [4, 8], [4, 1], [1, 0], 64, 64, 8),
    ([4, 1], [8, 4], [1, 4], [0, 1], 16, 128, 32),
])
def test_dot_operand_rows_and_columns(op_idx, spt, tpw, wpc, order, m, n, k):
    """FMA dot operands: the thread holding accumulator element (i, j) holds row i of A and column j of B,
    all of K, in registers."""
    parent = blocked(spt, tpw, wpc, order)
    acc = layout_for((m, n), parent)
    shape = (m, k) if op_idx == 0 else (k, n)
    ll = layout_for(shape, DotOperandEncoding.make(opIdx=op_idx, parent=parent, kWidth=0))
    for lane, warp in itertools.product(range(32), range(4)):
        owned = {acc.apply(r, lane, warp) for r in range(acc.num_regs)}
        if op_idx == 0:
            want = {(i, kk) for i, _ in owned for kk in range(k)}
        else:
            want = {(kk, j) for _, j in owned for kk in range(k)}
        assert {ll.apply(r, lane, warp) for r in range(ll.num_regs)} == want


def test_vector_add_registers_are_contiguous():
    ll = layout_for((1024,), blocked([4], [32], [4], [0]))
    assert ll.contiguous_regs(0) == 4
    assert [ll.apply(r, 1, 0) for r in range(8)] == [(4,), (5,), (6,), (7,), (516,), (517,), (518,), (519,)]
    assert ll.free_lane_bits == 0 and ll.free_warp_bits == 0


def test_replication_is_reported():
    ll = layout_for((128,), blocked([4], [32], [4], [0]))
    assert ll.free_warp_bits == 0b11 and ll.free_lane_bits == 0
    tiny = layout_for((2,), blocked([4], [32], [4], [0]))
    assert tiny.unique_regs == (0, 1) and tiny.free_lane_bits == 0b11111


def test_unsupported_layouts_are_refused():
    with pytest.raises(UnsupportedLayout):
        layout_for((48,), blocked([4], [32], [4], [0]))  # not a power of two


# ---------------------------------------------------------------------------- the emitted index math, run on the host


@pytest.fixture(scope="module")
def host_jit():
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    engines = []

    def compile_coords(ll):
        """A host function f(lane, warp, out) writing every register's coordinates, built by `indexing`."""
        m = ir.Module()
        m.triple = llvm.get_default_triple()
        i32 = ir.IntType(32)
        fn = ir.Function(m, ir.FunctionType(ir.VoidType(), [i32, i32, ir.PointerType()]), "coords")
        b = ir.IRBuilder(fn.append_basic_block())
        coords = indexing.register_coords(b, ll, fn.args[0], fn.args[1])
        for r, c in enumerate(coords):
            for d, v in enumerate(c):
                b.store(v, b.gep(fn.args[2], [ir.Constant(i32, r * ll.rank + d)], source_etype=i32))
        b.ret_void()
        mod = llvm.parse_assembly(str(m))
        engine = llvm.create_mcjit_compiler(mod, llvm.Target.from_default_triple().create_target_machine())
        engine.finalize_object()
        engines.append(engine)
        return ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_int32))(
            engine.get_function_address("coords"))

    return compile_coords


@pytest.mark.parametrize("shape,enc", [
    ((1024,), blocked([4], [32], [4], [0])),
    ((128,), blocked([4], [32], [4], [0])),
    ((64, 64), blocked([2, 2], [4, 8], [2, 2], [0, 1])),
    ((32,), slice_of(1, blocked([1, 1], [1, 32], [4, 1], [1, 0]))),
    ((32, 16), DotOperandEncoding.make(opIdx=0, parent=blocked([2, 2], [2, 16], [4, 1], [1, 0]), kWidth=0)),
    ((8, 4, 16), blocked([1, 2, 2], [2, 2, 8], [1, 4, 1], [2, 0, 1])),
])
def test_emitted_coordinates_match_the_model(host_jit, shape, enc):
    ll = layout_for(shape, enc)
    f = host_jit(ll)
    out = (ctypes.c_int32 * (ll.num_regs * ll.rank))()
    for lane, warp in itertools.product(range(32), range(4)):
        f(lane, warp, out)
        got = [tuple(out[r * ll.rank:(r + 1) * ll.rank]) for r in range(ll.num_regs)]
        assert got == [ll.apply(r, lane, warp) for r in range(ll.num_regs)]


def test_slice_of_a_linear_layout_broadcasts_the_sliced_bases():
    # a #ttg.linear parent for 8x2x4 (as reshape layout inference makes for dot_scaled's scale broadcast), sliced
    # along dim 2: the parent's bases along dim 2 broadcast (Triton's ensureLayoutNotLargerThan), the rest stay
    from ttc.ir.parser import parse

    text = """#lin = #ttg.linear<{register = [[0, 0, 1], [0, 0, 2], [0, 1, 0]], lane = [[1, 0, 0], [2, 0, 0], [4, 0, 0],
        [0, 0, 0], [0, 0, 0]], warp = [], block = []}>
tt.func @f(%x: tensor<8x2xf32, #ttg.slice<{dim = 2, parent = #lin}>>) { tt.return }"""
    func = next(op for op in parse(text).walk() if op.name == "tt.func")
    enc = func.function_type.inputs.data[0].encoding
    ll = layout_for((8, 2), enc)
    assert ll.reg == ((0, 1),) and ll.lane[:3] == ((1, 0), (2, 0), (4, 0))
    # the parent as the slice sees it: extent 1 along dim 2, so its bases there broadcast, and the registers
    # that become broadcast go (LinearEncodingAttr::toLinearLayout: broadcastRegisters=false)
    parent = layout_for((8, 2, 1), enc["parent"])
    assert parent.reg == ((0, 1, 0),)
    parent.check_injective()
    held = {ll.apply(r, lane, 0) for r in range(ll.num_regs) for lane in range(32)}
    assert held == {(m, k) for m in range(8) for k in range(2)}
