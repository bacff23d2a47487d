import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def libdevice_mod_kernel(x_ptr, y_ptr, rem_ptr, trig_ptr, pow_ptr, div_ptr, nan_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(rem_ptr + offsets, x % y, mask=mask)
    trig = libdevice.asin(libdevice.tanh(x)) + libdevice.rsqrt(y * y + 1.0)
    tl.store(trig_ptr + offsets, trig, mask=mask)
    tl.store(pow_ptr + offsets, libdevice.pow(tl.abs(x), y) + libdevice.pow(y, 2), mask=mask)
    tl.store(div_ptr + offsets, libdevice.fast_dividef(x, y), mask=mask)
    tl.store(nan_ptr + offsets, libdevice.isnan(libdevice.log(x)).to(tl.int8), mask=mask)
