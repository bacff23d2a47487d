import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice


@triton.jit
def packed(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(x_ptr + tl.arange(0, 128), y)


@triton.jit
def two_results(a_ptr, b_ptr):
    a = tl.load(a_ptr + tl.arange(0, 64))
    b, c = tl.inline_asm_elementwise("mov.b32 $0, $2;\n\tcvt.rn.f32.s32 $1, $2;", "=r,=r,r", [a],
                                     dtype=(tl.int32, tl.float32), is_pure=False, pack=1)
    tl.store(a_ptr + tl.arange(0, 64), b)
    tl.store(b_ptr + tl.arange(0, 64), c)


@triton.jit
def broadcast_scalar(a_ptr, s):
    a = tl.load(a_ptr + tl.arange(0, 64))
    b = tl.inline_asm_elementwise("add.s32 $0, $1, $2;", "=r,r,r", [a, s], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(a_ptr + tl.arange(0, 64), b)


@triton.jit
def gdc(x_ptr):
    tl.extra.cuda.gdc_wait()
    x = tl.load(x_ptr)
    tl.extra.cuda.gdc_launch_dependents()
    tl.store(x_ptr, x + 1)


@triton.jit
def math(x_ptr, n_ptr):
    x = tl.load(x_ptr + tl.arange(0, 64))
    y = libdevice.pow(x, 3) + cuda_libdevice.asin(x) + tl.extra.cuda.libdevice.fast_dividef(x, 2.0)
    tl.store(x_ptr + tl.arange(0, 64), y % 1.5)
    tl.store(n_ptr + tl.arange(0, 64), libdevice.isinf(x).to(tl.int32) + libdevice.ilogb(x))


@triton.jit
def wrong_constraints(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 128))
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;", "=r,r,r", [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(x_ptr + tl.arange(0, 128), y)


@triton.jit
def unknown_function(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, libdevice.no_such_function(x))


@triton.jit
def wrong_dtype(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, libdevice.asin(x))


@triton.jit
def bad_pack(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=0))
