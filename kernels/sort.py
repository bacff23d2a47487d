import triton
import triton.language as tl


@triton.jit
def sort_kernel(x_ptr, asc_ptr, desc_ptr, top_ptr, flip_ptr, pairs_ptr, n_rows,
                BLOCK_M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # Each program sorts BLOCK_M rows of N values (N a power of two) both ways, keeps the K largest, reverses
    # the rows and interleaves the ascending and descending rows.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, N)
    row_ok = rows[:, None] < n_rows
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=row_ok, other=0.0)
    asc = tl.sort(x)
    desc = tl.sort(x, descending=True)
    tl.store(asc_ptr + rows[:, None] * N + cols[None, :], asc, mask=row_ok)
    tl.store(desc_ptr + rows[:, None] * N + cols[None, :], desc, mask=row_ok)
    top_cols = tl.arange(0, K)
    tl.store(top_ptr + rows[:, None] * K + top_cols[None, :], tl.topk(x, K), mask=row_ok)
    tl.store(flip_ptr + rows[:, None] * N + cols[None, :], tl.flip(x, 1), mask=row_ok)
    pair_cols = tl.arange(0, 2 * N)
    tl.store(pairs_ptr + rows[:, None] * (2 * N) + pair_cols[None, :], tl.interleave(asc, desc), mask=row_ok)
