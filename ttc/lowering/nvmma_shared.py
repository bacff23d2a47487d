"""`#ttg.nvmma_shared` buffers and the shared-memory matrix descriptors wgmma reads them through.

`#ttg.nvmma_shared<{swizzlingByteWidth = S, transposed, elementBitWidth}>` (Triton's NVMMASharedEncoding, the
layout TMA writes and wgmma reads): the contiguous dimension is the last one (the first when `transposed`); the
buffer is made of rows of S bytes (W = S / element bytes elements of the contiguous dimension), one row per
index of the other dimension, consecutive; a contiguous dimension wider than W is split into chunks of W, each
chunk a whole buffer of rows, chunk after chunk (Triton's nvmmaSharedToLinearLayout: an 8 x W tile, then more
rows, then more chunks). Within each 8-row group, the 16-byte units of row r are XOR-swizzled by
`(r / (128 / S)) % (S / 16)`: CUDA's 128/64/32-byte swizzle modes, which the hardware computes from the address
bits (byte bits [4, 4 + log2(S/16)) XOR bits [7, 7 + log2(S/16))), so buffers start on S * 8 byte boundaries
(`NVMMA_ALIGN` covers all three).

Matrix descriptors (PTX ISA, "Matrix Descriptor Format" of wgmma): a 64-bit value with the start address >> 4 in
bits 0-13, the leading-dimension byte offset >> 4 in bits 16-29, the stride-dimension byte offset >> 4 in bits
32-45, the base offset in bits 49-51 (0: atoms are aligned) and the swizzle mode in bits 62-63 (1: 128-byte,
2: 64-byte, 3: 32-byte). With the canonical layouts of the ISA, for an operand tile whose first element is at
(row 0 mod 8) of the buffer:
- K-major (the contiguous dimension is K: A not transposed, B transposed): the stride offset is the distance
  between 8-row groups (8 * S bytes); the leading offset is unused (K of one instruction, 16 or 32 bytes, stays
  within a row) and set to 0, as Triton's (a zero low word, which ptxas moves rather than or-ing).
- MN-major (the contiguous dimension is M for A, N for B): the stride offset is the distance between groups of 8
  rows along K (8 * S bytes); the leading offset the distance between chunks along M/N (rows * S bytes), 0 (as
  Triton's) where the buffer is one chunk: an instruction's M/N then stays within a row.
Stepping along K within a row adds K's bytes to the start address (the hardware swizzles the sum).
"""

from __future__ import annotations

import math

from dataclasses import dataclass

from ttc.lowering.exchange_plan import INT, BufferLayout, _log2

NVMMA_ALIGN = 1024
SWIZZLE_MODE = {128: 1, 64: 2, 32: 3}


@dataclass(frozen=True)
class NvmmaBuffer(BufferLayout):
    """A BufferLayout (rows of `row_elems` = W elements, 16-byte units swizzled by the row's phase) whose
    contiguous dimension has `chunks` chunks of W, chunk after chunk."""
    chunks: int = 1
    swizzle_bytes: int = 128

    @property
    def nbytes(self) -> int:
        return self.rows * self.row_elems * self.elem_bytes * self.chunks

    @property
    def chunk_bytes(self) -> int:
        return self.rows * self.row_elems * self.elem_bytes

    def byte_offset(self, c, ops=INT):
        if self.chunks == 1:
            return super().byte_offset(c, ops)
        col = c[self.inner]
        chunk = ops.lshr(col, _log2(self.row_elems))
        inside = list(c)
        inside[self.inner] = ops.and_(col, self.row_elems - 1)
        return ops.add(super().byte_offset(inside, ops), ops.shl(chunk, _log2(self.chunk_bytes)))

    def transposed(self) -> NvmmaBuffer:
        """The same bytes seen as the transposed (rank 2) tensor (`ttg.memdesc_trans {order = [1, 0]}`)."""
        return NvmmaBuffer(self.shape[::-1], 1 - self.inner, self.elem_bytes, self.unit, self.row_elems,
                           self.per_phase_log, self.max_phase, self.chunks, self.swizzle_bytes)


class NvmmaError(Exception):
    pass


def nvmma_buffer(shape, swizzle: int, transposed: bool, elem_bytes: int) -> NvmmaBuffer:
    """The layout of a `#ttg.nvmma_shared` buffer of `shape`: swizzled ones of rank 2, and unswizzled ones of any
    rank (raises NvmmaError for what we do not model: a contiguous dimension narrower than a swizzled row,
    transposed or oversized unswizzled buffers).

    Without swizzling (`swizzlingByteWidth = 0`, what descriptors get for rows under 32 bytes, fewer than 8 rows,
    or more than 2 dimensions, such as the 5-d scale blocks of block-scaled matmuls) the buffer is the block in
    row-major order, as Triton's nvmmaSharedToLinearLayout has it and as an unswizzled TMA box writes it (one box:
    every dimension at most 256, rows a multiple of 16 bytes)."""
    if swizzle == 0:
        if transposed and len(shape) > 1:
            raise NvmmaError("transposed #ttg.nvmma_shared buffers without swizzling are not supported yet")
        if any(d > 256 for d in shape) or shape[-1] * elem_bytes % 16:
            raise NvmmaError(f"an unswizzled #ttg.nvmma_shared buffer of shape {list(shape)} is not supported yet "
                             "(one TMA box: dimensions of at most 256, rows of a multiple of 16 bytes)")
        return NvmmaBuffer(tuple(shape), len(shape) - 1, elem_bytes, max(1, 16 // elem_bytes), shape[-1], 0, 1, 1, 0)
    if len(shape) < 2 or (len(shape) > 2 and transposed):
        raise NvmmaError(f"swizzled #ttg.nvmma_shared buffers of rank {len(shape)}"
                         f"{' (transposed)' if transposed else ''} are not supported yet")
    if swizzle not in SWIZZLE_MODE:
        raise NvmmaError(f"#ttg.nvmma_shared with swizzlingByteWidth = {swizzle} is not supported (32, 64 or 128)")
    # more than 2 dimensions: the outer ones flattened into rows (Triton's layout of the 2-d reshape)
    inner = 0 if transposed else len(shape) - 1
    width = swizzle // elem_bytes
    n, rows = shape[inner], math.prod(shape) // shape[inner]
    if n % width or rows % 8:
        raise NvmmaError(f"a {'x'.join(map(str, shape))} buffer cannot have {swizzle}-byte swizzled rows: its "
                         f"contiguous dimension must be a multiple of {width} elements and its rows of 8")
    unit = 16 // elem_bytes
    max_phase = swizzle // 16
    per_phase = 128 // swizzle
    return NvmmaBuffer(tuple(shape), inner, elem_bytes, unit, width, _log2(per_phase), max_phase, n // width, swizzle)


def descriptor_fields(buf: NvmmaBuffer, k_dim: int) -> tuple[int, int, int]:
    """(leading byte offset, stride byte offset, swizzle mode) of descriptors into `buf` for an operand whose
    reduction dimension is `k_dim` of the buffer's shape (swizzled buffers only)."""
    if buf.swizzle_bytes not in SWIZZLE_MODE:
        raise NvmmaError("wgmma operands from #ttg.nvmma_shared buffers without swizzling are not supported yet")
    group = 8 * buf.swizzle_bytes
    if buf.inner == k_dim:                      # K-major: the leading offset is unused
        return 0, group, SWIZZLE_MODE[buf.swizzle_bytes]
    # MN-major: unused where the buffer is one chunk (an instruction's M/N stays within a row)
    return (buf.chunk_bytes if buf.chunks > 1 else 0), group, SWIZZLE_MODE[buf.swizzle_bytes]


def k_step(buf: NvmmaBuffer, k_dim: int, k: int) -> int:
    """What stepping K by `k` adds to a descriptor (in its 16-byte units): tiles start on a multiple of 8 rows,
    where the swizzle phase is 0, so the byte distance is the same for every tile (the hardware swizzles the
    sum)."""
    at = [0, 0]
    at[k_dim] = k
    return buf.byte_offset(tuple(at)) >> 4


def descriptor_constant(lead: int, stride: int, mode: int) -> int:
    """The descriptor's bits other than the start address."""
    return ((lead >> 4) & 0x3FFF) << 16 | ((stride >> 4) & 0x3FFF) << 32 | mode << 62
