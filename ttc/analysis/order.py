"""Program order of ops while a pass inserts and erases them, as MLIR keeps it for `Operation::isBeforeInBlock`:
each block's ops are numbered lazily, far apart, and an op inserted later gets a number between its neighbours'
(the block is renumbered only when there is no room left), so `is_before` and sorting ops in pre-order
(`pre_order`) cost O(1) amortized per op instead of a walk of the block. Ops must not move within a block while
an `OpOrder` is in use (inserting, erasing and moving whole blocks are fine)."""

from __future__ import annotations

from xdsl.ir import Block, Operation

STRIDE = 1 << 32


class OpOrder:
    def __init__(self):
        self._number: dict[Operation, tuple[Block, int]] = {}
        self._renumbered = 0  # how many times a block was renumbered: numbers read before are stale

    def _known(self, op: Operation | None, block: Block) -> bool:
        entry = self._number.get(op)
        return entry is not None and entry[0] is block

    def position(self, op: Operation) -> int:
        """A number of `op` that increases along its block."""
        block = op.parent
        entry = self._number.get(op)
        if entry is not None and entry[0] is block:
            return entry[1]
        # number the run of new ops around `op`, between the nearest numbered neighbours
        before, after = [], []
        lo = op.prev_op
        while lo is not None and not self._known(lo, block):
            before.append(lo)
            lo = lo.prev_op
        hi = op.next_op
        while hi is not None and not self._known(hi, block):
            after.append(hi)
            hi = hi.next_op
        run = before[::-1] + [op] + after
        first = self._number[lo][1] if lo is not None else None
        last = self._number[hi][1] if hi is not None else None
        if first is None and last is None:
            first = 0
        if first is None:
            first = last - STRIDE * (len(run) + 1)
        step = STRIDE if last is None else (last - first) // (len(run) + 1)
        if step == 0:  # no room: renumber the whole block
            run, first, step = list(block.ops), 0, STRIDE
            self._renumbered += 1
        for i, o in enumerate(run, 1):
            self._number[o] = (block, first + i * step)
        return self._number[op][1]

    def is_before(self, a: Operation, b: Operation) -> bool:
        """`a` comes before `b` in their (common) block."""
        while True:  # again if numbering `b` renumbered the block (then both are numbered)
            renumbered = self._renumbered
            before = self.position(a) < self.position(b)
            if renumbered == self._renumbered:
                return before

    def pre_order(self, ops, root: Operation) -> list[Operation]:
        """`ops` sorted as a pre-order walk of `root` visits them (an op before the ops of its regions, regions
        and blocks in order); ops not nested in `root` first, in their order in `ops`."""
        while True:  # again if numbering an op renumbered a block (then every op is numbered)
            renumbered = self._renumbered
            keys = {o: self._key(o, root) for o in ops}
            if renumbered == self._renumbered:
                return sorted(ops, key=keys.__getitem__)

    def _key(self, op: Operation, root: Operation) -> tuple:
        parts = []
        while op is not root:
            block = op.parent
            if block is None:
                return ()
            parts.append(self.position(op))
            region = block.parent
            parent = region.parent_op() if region is not None else None
            if parent is None:
                return ()
            parts.append(0 if block is region.blocks.first else region.get_block_index(block))
            parts.append(0 if len(parent.regions) == 1 else parent.get_region_index(region))
            op = parent
        return tuple(reversed(parts))
