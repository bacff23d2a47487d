"""Downcasts as the persistent-matmul and fused-attention tutorials' FP8 outputs do them: f32 (and f16) to fp8
e4m3 / e5m2 with `.to(tl.float8e4nv)` (round to nearest even, saturating), stored as their bytes, and f32 to
f16 towards zero with `fp_downcast_rounding="rtz"`."""
import triton
import triton.language as tl


@triton.jit
def fp8_downcast_kernel(x_ptr, e4m3_ptr, e5m2_ptr, e4m3_from_f16_ptr, f16_rtz_ptr, n, scale,
                        BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok) * scale
    tl.store(e4m3_ptr + offs, x.to(tl.float8e4nv).to(tl.uint8, bitcast=True), mask=ok)
    tl.store(e5m2_ptr + offs, x.to(tl.float8e5).to(tl.uint8, bitcast=True), mask=ok)
    tl.store(e4m3_from_f16_ptr + offs, x.to(tl.float16).to(tl.float8e4nv).to(tl.uint8, bitcast=True), mask=ok)
    tl.store(f16_rtz_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=ok)
