import triton
import triton.language as tl


@triton.jit
def spin_lock(lock, flags, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    while tl.atomic_cas(lock, 0, 1, sem="acquire", scope="cta") == 1:
        pass
    old = tl.atomic_xchg(flags, 7, sem="relaxed", scope="sys")
    tl.store(out + offs, old + offs)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0, sem="release")


@triton.jit
def bad_sem(lock):
    tl.atomic_cas(lock, 0, 1, sem="seq_cst")


@triton.jit
def bad_scope(lock):
    tl.atomic_xchg(lock, 0, scope="cluster")


@triton.jit
def int8_add(p):
    tl.atomic_add(p, 1)


@triton.jit
def fp16_max(p):
    tl.atomic_max(p, 1.0)


@triton.jit
def cas_ints(p):
    tl.atomic_cas(p, 0, 1)


@triton.jit
def tensor_atomics(p, q, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.atomic_add(p + offs, 1, sem="relaxed", scope="cta")
    b = tl.atomic_max(p + offs, a, sem="acquire", scope="sys")
    c = tl.atomic_cas(q + offs, a, b, sem="release")
    tl.store(q + offs, c)


@triton.jit
def barriers(p, q):
    tl.debug_barrier()
    tl.debug_barrier()
    x = tl.load(p)
    tl.debug_barrier()
    tl.store(q, x)
    tl.atomic_xchg(p, 0)
    tl.atomic_xchg(p, 0)
    tl.debug_barrier()
    tl.debug_barrier()
