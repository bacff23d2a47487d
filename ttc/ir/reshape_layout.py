"""The layout a `tt.reshape` result gets from its operand's layout (and back), as Triton's
inferReshapeOpEncoding computes it, so that the reshape moves no data: every thread keeps the elements it
holds, under their new coordinates.

1. A blocked operand gives a blocked result when one exists (Triton's "legacy" inference): the reshape is
   split into chunks of operand dimensions merged and re-split into result dimensions; each chunk's operand
   dimensions must be consecutive in the layout's order, and within a chunk the sizePerThread, threadsPerWarp
   and warpsPerCTA must fill the more minor dimensions before the more major ones. The result's
   sizePerThread, threadsPerWarp and warpsPerCTA then fill each chunk's result dimensions minor to major, and
   its order follows the operand's.
2. Otherwise the operand's linear layout with each basis moved to the element of the same row-major position
   in the result's shape: a `#ttg.linear` layout.

The inference is symmetric: the operand layout for a wanted result layout is the inference run backwards
(result shape to operand shape), which tritongpu-remove-layout-conversions uses to rematerialize reshapes.
Reshapes that may reorder elements (`allow_reorder`) are left to tritongpu-optimize-thread-locality.
"""

from __future__ import annotations

import math

from xdsl.ir import Attribute

from ttc.ir.layouts import BlockedEncoding, LinearEncoding


def reshape_decomposition(src: list[int], dst: list[int]) -> list[tuple[list[int], list[int]]]:
    """Chunks (operand dims, result dims): operand dims merged, then split into result dims (Triton's
    getReshapeDecomposition; size-1 dimensions join the chunk being built)."""
    if not src:
        return []
    out: list[tuple[list[int], list[int]]] = [([], [])]
    i = j = 0
    n_src = n_dst = 1
    while i < len(src) or j < len(dst):
        if n_src < n_dst or (i < len(src) and (n_src == 1 or src[i] == 1)):
            n_src *= src[i]
            out[-1][0].append(i)
            i += 1
        elif n_dst < n_src or (j < len(dst) and dst[j] == 1):
            n_dst *= dst[j]
            out[-1][1].append(j)
            j += 1
        else:
            out.append(([], []))
            n_src = n_dst = 1
    return out


def _inverse(perm) -> list[int]:
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


def _blocked_reshape(src_shape, enc: BlockedEncoding, dst_shape) -> BlockedEncoding | None:
    from ttc.ir.layouts import blocked, default_blocked

    if list(src_shape) == list(dst_shape):
        return enc
    spt, tpw, wpc, order = (list(enc[k]) for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"))
    if enc == default_blocked(list(src_shape), math.prod(wpc), math.prod(tpw)):
        return default_blocked(list(dst_shape), math.prod(wpc), math.prod(tpw))
    if enc.get("CGALayout"):  # several CTAs
        return None
    for sub in (spt, tpw, wpc):
        if any(s >= b and s % b for s, b in zip(src_shape, sub)):
            return None
    chunks = reshape_decomposition(list(src_shape), list(dst_shape))
    inv_order = _inverse(order)
    for src_dims, _ in chunks:
        pos = [inv_order[d] for d in reversed(src_dims)]
        if any(b != a + 1 for a, b in zip(pos, pos[1:])):
            return None
    for src_dims, _ in chunks:
        remaining = [src_shape[d] for d in src_dims]
        for sub in (spt, tpw, wpc):
            for i in range(len(src_dims) - 1, -1, -1):
                if sub[src_dims[i]] == 1:
                    continue
                if any(remaining[k] != 1 for k in range(i + 1, len(src_dims))):
                    return None
                remaining[i] = remaining[i] // sub[src_dims[i]] if remaining[i] >= sub[src_dims[i]] else 0
                if remaining[i] == 0 and i != 0:
                    return None
    dst_remaining = list(dst_shape)
    fields = []
    for sub in (spt, tpw, wpc):
        out = [0] * len(dst_shape)
        for src_dims, dst_dims in chunks:
            left = math.prod(sub[d] for d in src_dims)
            for d in reversed(dst_dims):
                out[d] = min(left, dst_remaining[d])
                left //= out[d]
                dst_remaining[d] //= out[d]
            out[dst_dims[0]] *= left
        fields.append(out)
    chunks.sort(key=lambda c: inv_order[c[0][0]])
    dst_inv = [0] * len(dst_shape)
    k = 0
    for _, dst_dims in chunks:
        for d in reversed(dst_dims):
            dst_inv[d] = k
            k += 1
    return blocked(*fields, _inverse(dst_inv))


def _row_major_move(b, src_shape, dst_shape) -> tuple[int, ...]:
    flat = 0
    for x, n in zip(b, src_shape):
        flat = flat * n + x
    out = []
    for n in reversed(dst_shape):
        out.append(flat % n)
        flat //= n
    return tuple(reversed(out))


def linear_reshape(src_shape, enc: Attribute, dst_shape) -> LinearEncoding | None:
    from ttc.ir.linear_layout import UnsupportedLayout, layout_for

    try:
        ll = layout_for(tuple(src_shape), enc)
    except UnsupportedLayout:
        return None
    move = [[list(_row_major_move(b, src_shape, dst_shape)) for b in group] for group in (ll.reg, ll.lane, ll.warp)]
    return LinearEncoding.make(register=move[0], lane=move[1], warp=move[2], block=[])


_INFERRED: dict[tuple, Attribute | None] = {}  # infer_reshape_encoding's answers: each inferred once


def infer_reshape_encoding(src_shape, enc: Attribute, dst_shape) -> Attribute | None:
    """The result layout of reshaping a tensor of `src_shape` in layout `enc` to `dst_shape` without moving
    data (None when there is none: an unsupported layout)."""
    key = (tuple(src_shape), enc, tuple(dst_shape))
    if key in _INFERRED:
        return _INFERRED[key]
    out = _blocked_reshape(src_shape, enc, dst_shape) if isinstance(enc, BlockedEncoding) else None
    if out is None:
        out = linear_reshape(src_shape, enc, dst_shape)
    if all(type(d) is int for d in key[0] + key[2]):
        _INFERRED[key] = out
    return out
