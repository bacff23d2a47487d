import triton
import triton.language as tl


@triton.jit
def atomics(ptr, fptr, vals, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(vals + offs)
    a = tl.atomic_add(ptr + offs, v, mask=mask)
    b = tl.atomic_max(ptr + offs, v, sem="relaxed", scope="cta")
    c = tl.atomic_min(ptr + offs, v, mask=mask, sem="acquire")
    d = tl.atomic_and(ptr + offs, v, sem="release", scope="sys")
    e = tl.atomic_or(ptr + offs, v)
    f = tl.atomic_xor(ptr + offs, v)
    g = tl.atomic_xchg(ptr + offs, v)
    h = tl.atomic_cas(ptr, 0, 1)
    fa = tl.atomic_add(fptr + offs, 1.0, mask=mask)
    fm = tl.atomic_max(fptr + offs, fa)
    fn = tl.atomic_min(fptr + offs, fa, mask=mask)
    tl.store(ptr + offs, a + b + c + d + e + f + g + h)
    tl.store(fptr + offs, fm + fn)
