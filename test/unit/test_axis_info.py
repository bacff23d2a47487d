"""Unit tests of the axis analysis (`ttc.analysis.axis_info`): contiguity, divisibility and constancy of values,
as Triton's AxisInfoAnalysis computes them."""

from __future__ import annotations

import pytest

from ttc.analysis.axis_info import MAX_DIVISOR, AxisInfo, AxisInfoAnalysis, join, pow2_divisor

RANGE0 = 1 << 30  # a make_range from 0: Triton takes its 32-bit start's divisor, 2^30
from ttc.ir.parser import parse


def analyze(body: str, args: str = "", extra_funcs: str = ""):
    """Parse a kernel whose body binds values to `%v_NAME`; return ({NAME: AxisInfo}, analysis, kernel)."""
    text = f"""module {{
  {extra_funcs}
  tt.func public @k({args}) {{
{body}
    tt.return
  }}
}}"""
    module = parse(text)
    analysis = AxisInfoAnalysis(module)
    func = [op for op in module.walk() if op.name == "tt.func" and op.sym_name.data == "k"][0]
    out = {}
    for op in func.walk():
        for r in op.results[:1]:
            if r.name_hint and r.name_hint.startswith("v_"):
                out[r.name_hint[2:]] = analysis.get(r)
    return out, analysis, func


def info(c, d, k, const=None) -> AxisInfo:
    return AxisInfo(tuple(c), tuple(d), tuple(k), const)


def test_pow2_divisor():
    assert pow2_divisor(0) == MAX_DIVISOR
    assert pow2_divisor(48) == 16
    assert pow2_divisor(-8) == 8
    assert pow2_divisor(7) == 1


def test_join_takes_gcds_and_bounds_divisibility_by_runs():
    a = info([4], [16], [1])
    b = info([2], [16], [1])
    # runs of different lengths: a run may start inside another, so divisibility is bounded by the lengths
    assert join(a, b) == info([2], [2], [1])
    assert join(a, a) == a
    assert join(None, a) == a
    # a maximal (unknown) contiguity does not bound the divisibility
    assert join(info([MAX_DIVISOR], [MAX_DIVISOR], [MAX_DIVISOR]), a) == info([4], [16], [1])


def test_vector_add_pointer():
    body = """
    %c1024 = arith.constant 1024 : i32
    %v_pid = tt.get_program_id x : i32
    %v_start = arith.muli %v_pid, %c1024 : i32
    %v_range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %v_splat = tt.splat %v_start : i32 -> tensor<1024xi32>
    %v_offs = arith.addi %v_splat, %v_range : tensor<1024xi32>
    %v_base = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %v_ptr = tt.addptr %v_base, %v_offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %v_n = tt.splat %arg1 : i32 -> tensor<1024xi32>
    %v_mask = arith.cmpi slt, %v_offs, %v_n : tensor<1024xi32>
"""
    v, _, _ = analyze(body, "%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32")
    assert v["pid"] == info([1], [1], [1])
    assert v["start"] == info([1], [1024], [1])
    assert v["range"] == info([1024], [RANGE0], [1])
    assert v["splat"] == info([1], [1024], [1024])
    assert v["offs"] == info([1024], [1024], [1])
    assert v["base"] == info([1], [16], [1024])
    # 16-byte aligned runs of 1024 f32 addresses
    assert v["ptr"] == info([1024], [16], [1])
    assert v["mask"] == info([1], [1], [1])


def test_mask_against_aligned_bound_is_constant_in_blocks():
    body = """
    %v_range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %v_n = tt.splat %arg0 : i32 -> tensor<256xi32>
    %v_mask = arith.cmpi slt, %v_range, %v_n : tensor<256xi32>
"""
    v, _, _ = analyze(body, "%arg0: i32 {tt.divisibility = 16 : i32}")
    # x < n with n a multiple of 16: the mask is constant over runs of 16
    assert v["mask"].constancy == (16,)


def test_constants_and_arithmetic():
    body = """
    %v_c = arith.constant 48 : i32
    %v_t = arith.constant dense<8> : tensor<64xi32>
    %v_neg = arith.constant -1 : i32
    %v_sum = arith.addi %v_c, %v_c : i32
    %v_range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %v_div = arith.divsi %v_range, %v_t : tensor<64xi32>
    %v_rem = arith.remsi %v_range, %v_t : tensor<64xi32>
    %v_mul = arith.muli %v_range, %v_t : tensor<64xi32>
    %v_shl = arith.shli %v_t, %v_t : tensor<64xi32>
"""
    v, _, _ = analyze(body)
    assert v["c"] == info([1], [16], [1], 48)
    assert v["t"] == info([1], [8], [64], 8)
    assert v["neg"].constant == 0xFFFFFFFF  # Triton reads integer constants zero-extended
    assert v["sum"] == info([1], [32], [1], 96)
    # [0..63] / 8: runs of 8 equal values
    assert v["div"] == info([1], [1], [8])
    # [0..63] % 8: runs of 8 consecutive values starting at multiples of 8
    assert v["rem"] == info([8], [8], [1])
    # a contiguous run times 8 is not known to be divisible beyond 8
    assert v["mul"] == info([1], [8], [1])
    assert v["shl"].constant == 8 << 8


def test_two_dimensional_offsets():
    body = """
    %v_r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %v_row = tt.expand_dims %v_r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %v_stride = tt.splat %arg0 : i32 -> tensor<32x1xi32>
    %v_rows = arith.muli %v_row, %v_stride : tensor<32x1xi32>
    %v_col = tt.expand_dims %v_r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %v_rb = tt.broadcast %v_rows : tensor<32x1xi32> -> tensor<32x32xi32>
    %v_cb = tt.broadcast %v_col : tensor<1x32xi32> -> tensor<32x32xi32>
    %v_offs = arith.addi %v_rb, %v_cb : tensor<32x32xi32>
"""
    v, _, _ = analyze(body, "%arg0: i32 {tt.divisibility = 16 : i32}")
    assert v["row"] == info([32, 1], [RANGE0, 1], [1, 1])
    assert v["rows"] == info([1, 1], [16, 16], [1, 1])
    assert v["col"] == info([1, 32], [1, RANGE0], [1, 1])
    assert v["rb"] == info([1, 1], [16, 16], [1, 32])
    assert v["cb"] == info([1, 32], [1, RANGE0], [32, 1])
    # rows are 16-aligned, columns contiguous
    assert v["offs"] == info([1, 32], [1, 16], [1, 1])


def test_hints_override():
    body = """
    %v_x = arith.muli %arg0, %arg0 {tt.divisibility = dense<16> : tensor<1xi32>} : i32
    %v_r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %v_y = arith.addi %v_r, %v_r {tt.contiguity = dense<64> : tensor<1xi32>, tt.divisibility = dense<64> : tensor<1xi32>} : tensor<128xi32>
"""
    v, _, _ = analyze(body, "%arg0: i32")
    assert v["x"].divisibility == (16,)
    assert v["y"].contiguity == (64,) and v["y"].divisibility == (64,)


def test_function_argument_attributes():
    body = """
    %v_s = tt.splat %arg0 : i32 -> tensor<64xi32>
"""
    v, _, _ = analyze(body, "%arg0: i32 {tt.divisibility = 8 : i32, tt.constancy = 1 : i32}")
    assert v["s"] == info([1], [8], [64])


def test_loop_carried_values_are_joined():
    body = """
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %v_r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %v_step = arith.constant dense<128> : tensor<128xi32>
    %v_odd = arith.constant dense<3> : tensor<128xi32>
    %v_loop:2 = scf.for %i = %c0 to %arg0 step %c1 iter_args(%a = %v_r, %b = %v_r) -> (tensor<128xi32>, tensor<128xi32>) : i32 {
      %na = arith.addi %a, %v_step : tensor<128xi32>
      %nb = arith.addi %b, %v_odd : tensor<128xi32>
      scf.yield %na, %nb : tensor<128xi32>, tensor<128xi32>
    }
"""
    v, analysis, func = analyze(body, "%arg0: i32")
    loop = [op for op in func.walk() if op.name == "scf.for"][0]
    a, b = loop.body.blocks.first.args[1:]
    # adding 128 keeps runs of 128 aligned to 128
    assert analysis.get(a) == info([128], [128], [1])
    # adding 3 breaks the alignment of the second value
    assert analysis.get(b) == info([128], [1], [1])
    assert analysis.get(loop.results[0]) == info([128], [128], [1])
    iv = loop.body.blocks.first.args[0]
    assert analysis.get(iv) == info([1], [1], [1])


def test_select_and_load():
    body = """
    %v_r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %v_s = tt.splat %arg1 : i32 -> tensor<64xi32>
    %v_sel = arith.select %arg2, %v_r, %v_s : tensor<64xi32>
    %v_p = tt.splat %arg0 : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %v_ld = tt.load %v_p : tensor<64x!tt.ptr<i32>>
"""
    v, _, _ = analyze(body, "%arg0: !tt.ptr<i32>, %arg1: i32 {tt.divisibility = 16 : i32}, %arg2: i1")
    assert v["sel"] == info([1], [1], [1])
    # loading through a splat pointer gives the same value everywhere
    assert v["ld"] == info([1], [1], [64])


def test_call_sites_define_callee_arguments():
    callee = """tt.func private @helper(%x: i32) -> i32 {
    %y = arith.addi %x, %x : i32
    tt.return %y : i32
  }"""
    body = """
    %c64 = arith.constant 64 : i32
    %v_a = arith.muli %arg0, %c64 : i32
    %v_r = tt.call @helper(%v_a) : (i32) -> i32
"""
    _, analysis, func = analyze(body, "%arg0: i32", extra_funcs=callee)
    module = func.parent_op()
    helper = [op for op in module.walk() if op.name == "tt.func" and op.sym_name.data == "helper"][0]
    x = helper.body.blocks.first.args[0]
    assert analysis.get(x).divisibility == (64,)


@pytest.mark.parametrize("pred, expected", [("sgt", 16), ("slt", 1)])
def test_compare_constant_left(pred, expected):
    body = f"""
    %v_n = tt.splat %arg0 : i32 -> tensor<64xi32>
    %v_r = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32>
    %v_m = arith.cmpi {pred}, %v_n, %v_r : tensor<64xi32>
"""
    v, _, _ = analyze(body, "%arg0: i32 {tt.divisibility = 16 : i32}")
    # n > x (constant on the left, gt): runs of 16; n < x gives no such guarantee in Triton's rules
    assert v["m"].constancy == (expected,)


def test_reused_only_while_what_it_reads_is_unchanged():
    from xdsl.dialects.builtin import IntegerAttr, i32

    from ttc.analysis.axis_info import reused

    body = """
    %v_range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %v_base = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %v_ptr = tt.addptr %v_base, %v_range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
"""
    _, _, func = analyze(body, "%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}")
    module = func.parent_op()
    first = reused(module)
    ptr = [op for op in func.walk() if op.name == "tt.addptr"][0]
    ptr.attributes["loop.stage"] = IntegerAttr(0, i32)  # the pipeliner's schedule: not read by the analysis
    assert reused(module) is first
    ptr.attributes["tt.contiguity"] = IntegerAttr(4, i32)  # a hint: read
    again = reused(module)
    assert again is not first and again.get(ptr.results[0]).contiguity == (4,)
    rng = [op for op in func.walk() if op.name == "tt.make_range"][0]
    rng.properties["end"] = IntegerAttr(32, i32)  # a property in place: read
    assert reused(module) is not again
