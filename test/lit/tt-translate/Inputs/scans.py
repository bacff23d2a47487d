import triton
import triton.language as tl


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def scan_1d(x_ptr, out_ptr, N: tl.constexpr):
    # One row of N: forward and reverse sums and products (values near 1, so the products stay finite).
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs) * 0.01 + 0.995
    tl.store(out_ptr + offs, tl.cumsum(x, 0))
    tl.store(out_ptr + N + offs, tl.cumsum(x, 0, reverse=True))
    tl.store(out_ptr + 2 * N + offs, tl.cumprod(x, 0, reverse=True))
    tl.store(out_ptr + 3 * N + offs, tl.associative_scan(x, 0, _mul))


@triton.jit
def scan_2d(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    # An M x N tile scanned along its rows, forward and reverse.
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    tl.store(out_ptr + rows * N + cols, tl.cumsum(x, 1))
    tl.store(out_ptr + M * N + rows * N + cols, tl.cumsum(x, 1, reverse=True))


@triton.jit
def scan_masked(x_ptr, out_ptr, start, n, N: tl.constexpr):
    # Loaded from an offset without a divisibility hint: one element a thread, 8 repeats of the 128-wide tile.
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + start + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + start + offs, tl.cumsum(x, 0), mask=offs < n)
    tl.store(out_ptr + N + start + offs, tl.cumsum(x, 0, reverse=True), mask=offs < n)
