"""Kernels whose decorators tt-tune evaluates: configs from a helper with a comprehension, prune_configs_by with
early_config_prune, perf_model and top_k, heuristics outside and inside @triton.autotune, and globals that only
Triton or torch could give (placeholders, an error only where used)."""
import torch  # noqa: F401  (absent here: a placeholder, unused by the decorators)
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
WARPS = (1, 2, 4)


def block_configs(blocks):
    return [triton.Config({"BLOCK": b}, num_warps=w, num_stages=1) for b in blocks for w in WARPS if b >= 32 * w]


def drop_large(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] <= triton.next_power_of_2(named_args["n"])]


def model(**kw):
    return kw["BLOCK"] * kw["num_warps"] + kw["scale"]


@triton.heuristics({"SCALE2": lambda args: args["scale"] * 2})
@triton.autotune(configs=block_configs([32, 64, 128, 256]), key=["n"],
                 prune_configs_by={"early_config_prune": drop_large, "perf_model": model, "top_k": 3})
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, scale: tl.constexpr, BLOCK: tl.constexpr, EVEN: tl.constexpr,
                 SCALE2: tl.constexpr, CLAMP: tl.constexpr = False):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if EVEN:
        tl.store(out_ptr + offs, x * SCALE2)
    else:
        tl.store(out_ptr + offs, x * SCALE2, mask=mask)


@triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=["n"],
                 prune_configs_by={"early_config_prune": lambda configs, nargs, **kw: configs[:DEVICE.index]})
@triton.jit
def uses_device(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros([BLOCK], tl.float32))


@triton.autotune(configs=[triton.Config({"BLOCK": 64})], key=["n"],
                 prune_configs_by={"early_config_prune": lambda configs, nargs, **kw: []})
@triton.jit
def prunes_all(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros([BLOCK], tl.float32))
