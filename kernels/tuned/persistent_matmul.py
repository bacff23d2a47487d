"""An autotuned persistent TMA matmul in the style of Triton's persistent-matmul tutorial: NUM_SMS programs walk
the C tiles in grouped order with `tl.range(..., flatten=True)`, loading A and B through tensor descriptors the
kernel makes itself (`tl.make_tensor_descriptor`), so the block shapes follow each config. The configs come from a
helper function; EPILOGUE_SUBTILE stores the accumulator as two halves. A is M x K, B is N x K (both
K-contiguous): C = A @ B^T."""
import triton
import triton.language as tl


def persistent_configs():
    return [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8, "EPILOGUE_SUBTILE": sub},
                          num_stages=stages, num_warps=warps)
            for bm in (64, 128) for bn in (64, 128, 256) for bk in (64, 128) for stages in (3, 4)
            for warps in (4, 8) for sub in (False, True) if (bm + bn) * bk * 2 * stages <= 200 * 1024]


def fits(configs, named_args, **kwargs):
    m, n, k = (named_args[d] for d in ("M", "N", "K"))
    return [c for c in configs if c.kwargs["BLOCK_M"] <= max(64, triton.next_power_of_2(m))
            and c.kwargs["BLOCK_N"] <= max(64, triton.next_power_of_2(n))
            and c.kwargs["BLOCK_K"] <= max(64, triton.next_power_of_2(k))]


@triton.jit
def _tile_of(tile_id, num_pid_in_group, num_pid_m, GROUP_M: tl.constexpr):
    first_pid_m = (tile_id // num_pid_in_group) * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    return first_pid_m + (tile_id % group_size_m), (tile_id % num_pid_in_group) // group_size_m


@triton.autotune(configs=persistent_configs(), key=["M", "N", "K"], prune_configs_by={"early_config_prune": fits})
@triton.jit
def matmul_descriptor_persistent(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                 BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, EPILOGUE_SUBTILE: tl.constexpr,
                                 NUM_SMS: tl.constexpr):
    dtype = c_ptr.dtype.element_ty
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N // 2 if EPILOGUE_SUBTILE else BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, flatten=True):
        pid_m, pid_n = _tile_of(tile_id, num_pid_in_group, num_pid_m, GROUP_M)
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([offs_am, ki * BLOCK_K])
            b = b_desc.load([offs_bn, ki * BLOCK_K])
            accumulator = tl.dot(a, b.T, accumulator)
        if EPILOGUE_SUBTILE:
            acc = tl.permute(tl.reshape(accumulator, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1))
            left, right = tl.split(acc)
            c_desc.store([offs_am, offs_bn], left.to(dtype))
            c_desc.store([offs_am, offs_bn + BLOCK_N // 2], right.to(dtype))
        else:
            c_desc.store([offs_am, offs_bn], accumulator.to(dtype))
