import triton
import triton.language as tl


@triton.jit
def gather_kernel(table_ptr, ids_ptr, perm_ptr, rows_out_ptr, cols_out_ptr,
                  N_IDS: tl.constexpr, N_ROWS: tl.constexpr, D: tl.constexpr):
    # One program: an embedding-style lookup out[i, :] = table[ids[i], :] (gather along axis 0), and a
    # per-row column permutation out[i, j] = table[i, perm[i, j]] (gather along axis 1).
    r = tl.arange(0, N_ROWS)
    i = tl.arange(0, N_IDS)
    d = tl.arange(0, D)
    table = tl.load(table_ptr + r[:, None] * D + d[None, :])
    ids = tl.load(ids_ptr + i)
    looked_up = tl.gather(table, tl.broadcast_to(ids[:, None], (N_IDS, D)), 0)
    tl.store(rows_out_ptr + i[:, None] * D + d[None, :], looked_up)
    perm = tl.load(perm_ptr + r[:, None] * D + d[None, :])
    tl.store(cols_out_ptr + r[:, None] * D + d[None, :], tl.gather(table, perm, 1))
