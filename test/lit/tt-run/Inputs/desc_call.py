"""A descriptor passed to a noinline device function (a tt.call with a tensor descriptor operand)."""
import triton
import triton.language as tl


@triton.jit(noinline=True)
def load_twice(desc, row):
    return desc.load([row, 0]) * 2


@triton.jit
def desc_call_kernel(x_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    row = tl.program_id(0) * BM
    out_desc.store([row, 0], load_twice(x_desc, row))
