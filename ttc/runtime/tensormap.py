"""Host tensor maps for descriptor arguments of a GPU launch: what `cuTensorMapEncodeTiled` gets for a spec's
descriptor argument (its buffer, row-major shape and strides) and the kernel's `tensordesc_meta` (the swizzle,
element type and block of each descriptor parameter, in Triton's metadata format), and the 128-byte CUtensorMap it
makes, passed by value.

As Triton's launcher: dimensions and boxes innermost first, strides in bytes without the innermost one, element
strides 1, no interleave, 128-byte L2 promotion, zero fill; a swizzled box is at most one swizzle row wide (the
kernel issues one copy per row-wide chunk of its block). The metadata's element type is PTX's enum; the host's
differs for f64, bf16 and f32.ftz.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

# PTX tensormap element type -> CUtensorMapDataType (the host enum): they differ from 8 on
DEVICE_TO_HOST_DTYPE = {**{i: i for i in range(16)}, 8: 10, 9: 8, 10: 9}
SWIZZLE_BYTES = {0: 0, 1: 32, 2: 64, 3: 128}


@dataclass(frozen=True)
class TensorMapArgs:
    data_type: int  # CUtensorMapDataType
    rank: int
    address: int
    global_dim: tuple  # innermost first
    global_strides: tuple  # bytes, outer dimensions innermost first
    box_dim: tuple
    element_strides: tuple
    swizzle: int  # CUtensorMapSwizzle


def tensormap_args(address: int, shape, elem_bytes: int, meta: dict, strides=None) -> TensorMapArgs:
    """The arguments of cuTensorMapEncodeTiled for a tensor of `shape` at `address` (`strides` in elements,
    row-major by default)."""
    rank = len(shape)
    block = list(meta["block_size"])
    if len(block) != rank:
        raise ValueError(f"the kernel's descriptor has a {len(block)}-d block, the argument a {rank}-d shape")
    if meta["elem_size"] != elem_bytes:
        raise ValueError(f"the kernel's descriptor has {meta['elem_size']}-byte elements, the argument {elem_bytes}")
    if strides is None:
        strides = [1] * rank
        for d in range(rank - 2, -1, -1):
            strides[d] = strides[d + 1] * shape[d + 1]
    box = block[::-1]
    swizzle_bytes = SWIZZLE_BYTES[meta["swizzle"]]
    if swizzle_bytes and box[0] * elem_bytes > swizzle_bytes:
        box[0] = swizzle_bytes // elem_bytes
    return TensorMapArgs(DEVICE_TO_HOST_DTYPE[meta["elem_type"]], rank, address, tuple(shape[::-1]),
                         tuple(s * elem_bytes for s in strides[:-1][::-1]), tuple(box), (1,) * rank, meta["swizzle"])


def encode(driver, args: TensorMapArgs) -> ctypes.Array:
    """The CUtensorMap's 128 bytes (a 64-byte aligned ctypes array) for a kernel parameter."""
    d = driver.d
    u64 = lambda xs: [d.cuuint64_t(x) for x in xs]  # noqa: E731  (cuda.bindings takes no plain ints here)
    u32 = lambda xs: [d.cuuint32_t(x) for x in xs]  # noqa: E731
    tmap = driver("cuTensorMapEncodeTiled", d.CUtensorMapDataType(args.data_type), args.rank, args.address,
                  u64(args.global_dim), u64(args.global_strides), u32(args.box_dim), u32(args.element_strides),
                  d.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE, d.CUtensorMapSwizzle(args.swizzle),
                  d.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                  d.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
    words = [int(w) for w in tmap.opaque]
    return (ctypes.c_uint64 * len(words))(*words)
