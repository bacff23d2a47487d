import triton
import triton.language as tl


@triton.jit
def loops(x_ptr, out_ptr, n, K: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in tl.range(0, n, 2, num_stages=2, loop_unroll_factor=4):
        acc += tl.load(x_ptr + k * BLOCK + offs)
    for i in range(K):
        acc = acc * 2
    for j in tl.static_range(3):
        acc += j
    for m in range(n, 0, -1):
        acc -= m
    count = 0
    while count < n:
        count += 3
    tl.store(out_ptr + offs, acc + count)


@triton.jit
def branches(x_ptr, out_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid)
    if pid == 0:
        y = x + 1
    elif pid < n:
        y = x * 2
    else:
        y = x
    if MODE == 1:
        y = y - 1
    z = y if pid > 3 else x
    if n > 5:
        tl.store(out_ptr + pid, z)
    w = tl.where(x > 0, x, -x) if MODE == 2 else x
    tl.store(out_ptr + pid + 1, w)


@triton.jit
def nested(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    total = tl.zeros([BLOCK], dtype=tl.int32)
    for i in range(0, n):
        v = tl.load(x_ptr + i * BLOCK + offs)
        if i % 2 == 0:
            total += v
        else:
            for j in range(i):
                total -= j
    tl.store(out_ptr + offs, total)
