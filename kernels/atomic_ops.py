import triton
import triton.language as tl


@triton.jit
def atomic_ops_kernel(h_ptr, b_ptr, f_ptr, d_ptr, l_ptr, s_ptr, old_ptr, n, BLOCK: tl.constexpr):
    # Every atomic with its memory semantics and scope, one lane per address (so the results are exact).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.atomic_add(h_ptr + offs, 1.0, mask=mask, sem="relaxed", scope="cta")
    b = tl.atomic_add(b_ptr + offs, 1.0, mask=mask, sem="acquire")
    f = tl.atomic_max(f_ptr + offs, 0.5, mask=mask, sem="release", scope="sys")
    d = tl.atomic_min(d_ptr + offs, 0.25, mask=mask, sem="acq_rel", scope="gpu")
    x = tl.atomic_xor(l_ptr + offs, 5, mask=mask, sem="relaxed", scope="sys")
    x = tl.atomic_or(l_ptr + offs, x & 8, mask=mask, sem="acquire", scope="cta")
    # each program swaps its own flag (programs run in any order on a GPU): every thread sees the old value 0
    s = tl.atomic_cas(s_ptr + tl.program_id(0), tl.full([], 0, tl.int16), tl.full([], 1, tl.int16), sem="acquire",
                      scope="gpu")
    tl.store(old_ptr + offs, a.to(tl.float32) + b.to(tl.float32) + f + d.to(tl.float32) + x.to(tl.float32) + s,
             mask=mask)
