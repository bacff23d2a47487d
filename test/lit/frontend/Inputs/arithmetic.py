import triton
import triton.language as tl

SCALE: tl.constexpr = 0.5
OFFSET = 3


@triton.jit
def promote(a_ptr, b_ptr, out_ptr, s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = a + b
    d = a * 2 - b / 3
    e = (c // 2) if False else c * 3
    f = a / b
    g = -a + s
    tl.store(out_ptr + offs, (c + d + e + f + g).to(out_ptr.dtype.element_ty))


@triton.jit
def int_ops(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    a = (x << 2) | (y >> 1)
    b = (x & y) ^ ~x
    c = x // y + x % y
    d = tl.where(x > y, x, y) + (x != 0) + (y <= n)
    e = x ** 2 if BLOCK > 1000 else x * (OFFSET ** 2)
    m = (x < 0) & (y >= 1) | (x == y)
    out = a + b + c + d + e + m
    tl.store(out_ptr + offs, out)


@triton.jit
def casts(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    h = x.to(tl.float16)
    bits = x.to(tl.int32, bitcast=True)
    back = (bits + 1).to(tl.float32, bitcast=True)
    r = x.to(tl.bfloat16, fp_downcast_rounding="rtz")
    i = x.to(tl.int8)
    u = x.to(tl.uint32)
    flag = x.to(tl.int1)
    tl.store(out_ptr + offs, h.to(tl.float32) + back + r.to(tl.float32) + i + u + flag * SCALE)


@triton.jit
def math_fns(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sqrt(x) + tl.rsqrt(x) + tl.sin(x) + tl.cos(x)
    y += tl.abs(x) + tl.erf(x) + tl.floor(x) + tl.ceil(x) + tl.sqrt_rn(x) + tl.math.exp2(x)
    y += tl.fma(x, x, 1.0) + tl.sigmoid(x) + tl.minimum(x, 0.5) + tl.maximum(x, y) + tl.clamp(x, -1.0, 1.0)
    y += tl.fdiv(x, y) + tl.div_rn(x, 2.0) + tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
    tl.store(out_ptr + offs, y)


@triton.jit
def int_math(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.abs(x) + tl.cdiv(x, 4) + tl.umulhi(x, 3) + min(x, n) + max(x, 1)
    tl.store(out_ptr + offs, y)
