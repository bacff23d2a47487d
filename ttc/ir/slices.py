"""MLIR's def-use slices (`getSlice`, Triton's `multiRootGetSlice`): the ops reachable from one op by repeatedly
following operand definitions backward and result uses forward, as the layout passes use them to find the ops
that must agree on a layout (coalesce) or on MMA warps (accelerate-matmul)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Block, Operation


def def_use_slice(op: Operation, keep: Callable[[Operation], bool], *, block_args: bool, regions: bool) -> list[Operation]:
    """`op` and every op reachable from it through kept ops, in the order found. `block_args`: a block argument
    leads to the op owning its block; `regions`: an op leads to the ops nested in its regions."""
    seen = {op}
    out = [op]
    i = 0
    while i < len(out):
        cur = out[i]
        i += 1
        nbrs: list[Operation] = []
        for v in cur.operands:
            owner = v.owner
            if not isinstance(owner, Block):
                nbrs.append(owner)
            elif block_args and owner.parent_op() is not None:
                nbrs.append(owner.parent_op())
        for r in cur.results:
            nbrs.extend(u.operation for u in r.uses)
        if regions:
            for region in cur.regions:
                for b in region.blocks:
                    nbrs.extend(b.ops)
        for n in nbrs:
            if n not in seen and keep(n):
                seen.add(n)
                out.append(n)
    return out
