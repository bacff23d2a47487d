import torch
import triton
import triton.language as tl

DEVICE = torch.device("cuda")


def host_helper(x):
    return x


@triton.jit
def helper(x, n):
    return x + tl.arange(0, n)


@triton.jit
def recursive(x):
    return recursive(x)


@triton.jit
def uses_break(p, n):
    for i in range(n):
        break


@triton.jit
def uses_continue(p, n):
    while n > 0:
        continue


@triton.jit
def uses_try(p):
    try:
        tl.store(p, 1)
    except Exception:
        pass


@triton.jit
def uses_lambda(p):
    f = lambda v: v + 1
    tl.store(p, 1)


@triton.jit
def calls_recursive(p):
    tl.store(p, recursive(1))


@triton.jit
def undefined_name(p):
    tl.store(p, undefined_value)


@triton.jit
def calls_host(p):
    tl.store(p, host_helper(1))


@triton.jit
def uses_host_global(p):
    tl.store(p, DEVICE)


@triton.jit
def uses_torch(p):
    tl.store(p, torch.zeros(4))


@triton.jit
def pointer_plus_float(p):
    tl.store(p + 1.5, 1)


@triton.jit
def bad_bitcast(p):
    x = tl.load(p)
    tl.store(p, x.to(tl.int16, bitcast=True))


@triton.jit
def loop_type_change(p, n):
    acc = 0
    for i in range(n):
        acc += 1.5
    tl.store(p, acc)


@triton.jit
def branch_type_mismatch(p, n):
    if n > 0:
        v = 1
    else:
        v = 2.5
    tl.store(p, v)


@triton.jit
def shape_mismatch(p):
    a = tl.arange(0, 16)
    b = tl.arange(0, 32)
    tl.store(p + a, a + b)


@triton.jit
def not_power_of_two(p):
    tl.store(p + tl.arange(0, 12), 1)


@triton.jit
def bad_dot(p):
    a = tl.load(p + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
    tl.store(p, tl.sum(tl.dot(a, a)))


@triton.jit
def bad_helper_call(p):
    tl.store(p, helper(1, 3))


@triton.jit
def helper_arity(p):
    tl.store(p, helper(1))


@triton.jit
def bad_reduce_axis(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p, tl.sum(x, axis=2))


@triton.jit
def kernel(p, n, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), n)
