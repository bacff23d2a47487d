"""wgmma's operands and results against the PTX ISA's definitions, independent of the lowering code.

- Matrix descriptors: the ISA's canonical layouts ("Shared Memory Matrix Layout" of wgmma: K-major
  ((8, m), (T, 2k)) : ((S / eb, SBO), (1, T)) and MN-major ((T, S / 16, m), (8, k)) : ((1, T, LBO), (S / eb, SBO))
  in elements, T = 16 bytes, then CUDA's swizzle on the address bits: bits [4, 4 + b) ^= bits [7, 7 + b), b =
  log2(S / 16)) decode the descriptors the lowering builds (start address, LBO, SBO, swizzle mode, K steps) into
  the byte each (row, k) element of an instruction's operand is read from; that must be where the buffer layout
  (what cp.async and local_alloc write) keeps the element.
- Fragments (and m64nNk32's 8-bit A fragment, 4 elements a register): the ISA's m64nNk16 D fragment (d[j] of lane l in warp w of a warp group: row 16 (w % 4) + l / 4 +
  8 (j >> 1 & 1), column 8 (j >> 2) + 2 (l % 4) + (j & 1)) and A fragment (a[i]: row 16 (w % 4) + l / 4 + 8 (i >> 1
  & 1), column 2 (l % 4) + (i & 1) + 8 (i >> 2)) against the v3 linear layouts.
"""

from __future__ import annotations

import pytest

from ttc.ir.dialects import context
from ttc.ir.layouts import DotOperandEncoding, NvidiaMmaEncoding
from ttc.ir.linear_layout import layout_for
from ttc.lowering.nvmma_shared import SWIZZLE_MODE, descriptor_constant, descriptor_fields, k_step, nvmma_buffer


def decode(desc: int, kind: str, rows: int, k: int, elem_bytes: int) -> dict:
    """(row, k) -> byte address read, per the ISA, for a descriptor of an operand tile of `rows` M/N rows and
    `k` K elements; `kind` is 'K' (K-major) or 'MN'."""
    start = (desc & 0x3FFF) << 4
    lbo = (desc >> 16 & 0x3FFF) << 4
    sbo = (desc >> 32 & 0x3FFF) << 4
    swizzle = {v: s for s, v in SWIZZLE_MODE.items()}[desc >> 62]
    b = (swizzle // 16).bit_length() - 1
    width = swizzle // elem_bytes            # elements in one swizzled row
    out = {}
    for r in range(rows):
        for c in range(k):
            if kind == "K":
                addr = start + (r // 8) * sbo + (r % 8) * swizzle + c * elem_bytes
            else:
                addr = start + (r // width) * lbo + (r % width) * elem_bytes + (c // 8) * sbo + (c % 8) * swizzle
            addr ^= ((addr >> 7) & ((1 << b) - 1)) << 4
            out[r, c] = addr
    return out


CASES = [  # (buffer shape, swizzle, transposed, elem bytes, operand: 'A' (M x K) or 'B' (K x N), n per instruction)
    ((64, 32), 64, False, 2, "A", 64),      # matmul's A, 64-byte rows
    ((128, 64), 128, False, 2, "A", 64),    # attention's Q
    ((32, 64), 128, False, 2, "B", 64),     # matmul's B, N-contiguous (MN-major)
    ((32, 64), 128, False, 2, "B", 32),     # 64x64x32 on 8 warps: n32 per warp group, the second from mid-row
    ((64, 128), 128, False, 2, "B", 128),   # 128x128x64's B: two 128-byte chunks along N
    ((64, 256), 128, False, 2, "B", 256),   # 128x256x64's B: four chunks
    ((64, 64), 128, True, 2, "B", 64),      # attention's K^T (memdesc_trans): K-major B
    ((64, 32), 128, False, 4, "A", 64),     # tf32 A
    ((32, 64), 128, True, 4, "B", 64),      # tf32 B, K-major
    ((32, 32), 32, False, 2, "B", 32),      # 32-byte swizzle
    ((64, 32), 32, False, 1, "A", 64),      # i8 / fp8 A (matmul_acc's sm90 fixtures): 32-byte rows
    ((32, 64), 32, True, 1, "B", 64),       # i8 / fp8 B, K-major (8-bit wgmma takes no MN-major operands)
    ((64, 128), 128, False, 1, "A", 64),    # 8-bit A, 128-byte rows: k32 steps of 32 bytes
    ((64, 128), 64, True, 1, "B", 128),     # e4m3 128x128x64's B, K-major: 64-byte K rows, n128
]


@pytest.mark.parametrize("shape,swizzle,transposed,eb,role,n_instr", CASES)
def test_descriptors_read_what_the_buffer_holds(shape, swizzle, transposed, eb, role, n_instr):
    buf = nvmma_buffer(shape, swizzle, transposed, eb)
    k_dim = 1 if role == "A" else 0
    k_instr = 32 // eb                      # 16 for 16-bit types, 8 for tf32
    lead, stride, mode = descriptor_fields(buf, k_dim)
    kind = "K" if buf.inner == k_dim else "MN"
    rows_total = shape[1 - k_dim]
    tile_rows = 64 if role == "A" else n_instr
    for origin in range(0, rows_total, tile_rows):
        for k in range(0, shape[k_dim], k_instr):
            first = [0, 0]
            first[1 - k_dim] = origin
            # as the lowering builds it: the tile's descriptor at k = 0, plus the K step
            desc = ((buf.byte_offset(tuple(first)) >> 4) | descriptor_constant(lead, stride, mode)) + k_step(buf, k_dim, k)
            read = decode(desc, kind, tile_rows, k_instr, eb)
            for (r, c), addr in read.items():
                coords = [0, 0]
                coords[1 - k_dim], coords[k_dim] = origin + r, k + c
                assert buf.byte_offset(tuple(coords)) == addr, (origin, k, r, c)


def test_a_wrong_descriptor_is_caught():
    """The check above fails for descriptors with the offsets swapped or another swizzle mode."""
    buf = nvmma_buffer((64, 128), 128, False, 2)
    lead, stride, mode = descriptor_fields(buf, 0)
    for bad in ((stride, lead, mode), (lead, stride, 2)):
        read = decode(descriptor_constant(*bad), "MN", 128, 16, 2)
        assert any(buf.byte_offset((c, r)) != a for (r, c), a in read.items())


def _mma(warps, n):
    return NvidiaMmaEncoding.make(versionMajor=3, versionMinor=0, warpsPerCTA=warps, instrShape=[16, n, 16])


@pytest.mark.parametrize("shape,warps,n", [((64, 64), [4, 1], 64), ((128, 128), [8, 1], 128), ((128, 64), [4, 1], 64)])
def test_accumulator_fragment_is_the_isas(shape, warps, n):
    context()
    ll = layout_for(shape, _mma(warps, n))
    for w in range(ll.num_warps):
        for lane in range(32):
            for j in range(n // 2):   # the first m64nN tile of the warp's group
                row = 16 * (w % 4) + lane // 4 + 8 * (j >> 1 & 1)
                col = 8 * (j >> 2) + 2 * (lane % 4) + (j & 1)
                reg = ll.first_reg[(8 * (j >> 1 & 1), 8 * (j >> 2) + (j & 1))]
                got = ll.apply(reg, lane, w)
                group = ll.apply(0, 0, w & ~3)   # the warp group's origin
                assert (got[0] - group[0], got[1] - group[1]) == (row, col)


def test_register_a_fragment_is_the_isas():
    context()
    ll = layout_for((64, 64), DotOperandEncoding.make(opIdx=0, parent=_mma([4, 1], 64), kWidth=2))
    for w in range(4):
        for lane in range(32):
            for i in range(8):
                row = 16 * w + lane // 4 + 8 * (i >> 1 & 1)
                col = 2 * (lane % 4) + (i & 1) + 8 * (i >> 2)
                reg = ll.first_reg[(8 * (i >> 1 & 1), (i & 1) + 8 * (i >> 2))]
                assert ll.apply(reg, lane, w) == (row, col)


def test_register_a_fragment_of_8bit_operands_is_the_isas():
    """m64nNk32 with .e4m3/.e5m2/.s8 A in registers: a[i] (4 per 32-bit register, the lowest in the low byte) at
    row 16 (w % 4) + l / 4 + 8 ((i >> 2) & 1), column 4 (l % 4) + (i & 3) + 16 (i >> 3)."""
    context()
    ll = layout_for((64, 64), DotOperandEncoding.make(opIdx=0, parent=_mma([4, 1], 64), kWidth=4))
    for w in range(4):
        for lane in range(32):
            for i in range(16):
                row = 16 * w + lane // 4 + 8 * ((i >> 2) & 1)
                col = 4 * (lane % 4) + (i & 3) + 16 * (i >> 3)
                reg = ll.first_reg[(8 * ((i >> 2) & 1), (i & 3) + 16 * (i >> 3))]
                assert ll.apply(reg, lane, w) == (row, col)
