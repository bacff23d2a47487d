"""`_interference` of `Allocation._live_together`'s pairs (a sweep over the buffers' live ranges, made once per
allocation) gives the same graph as its definition
checked on every pair: buffers overlapping in space and either in time or as ops of different partitions of one
`ttg.warp_specialize`. Random buffers, with ranges, offsets and owners inside and outside warp_specialize."""

import random

from ttc.analysis.allocation import INF, Allocation, Buffer, _interference


class _Op:
    def __init__(self, name, parent=None, region=None):
        self.name, self._parent, self._region = name, parent, region

    def parent_op(self):
        return self._parent

    def parent_region(self):
        return self._region


def _pairs(rng, buffers):
    def ws(op):
        p = op.parent_op()
        while p is not None and p.name != "ttg.warp_specialize":
            p = p.parent_op()
        return p

    graph = {}
    for x in buffers:
        for y in buffers:
            (a, b), (c, d) = rng[x], rng[y]
            space = x.offset < y.offset + y.size and y.offset < x.offset + x.size
            concurrent = ws(x.owner) is not None and ws(x.owner) is ws(y.owner) and \
                x.owner.parent_region() is not y.owner.parent_region()
            if x is not y and space and (a < d and c < b or concurrent):
                graph.setdefault(x, set()).add(y)
    return graph


def test_interference_sweep_matches_all_pairs():
    r = random.Random(7)
    for _ in range(300):
        func = _Op("tt.func")
        wss = [_Op("ttg.warp_specialize", func, "body") for _ in range(2)]
        owners = [_Op("ttg.local_alloc", func, "body") for _ in range(3)]
        owners += [_Op("ttg.convert_layout", w, f"partition{i}") for w in wss for i in range(3)]
        a = Allocation.__new__(Allocation)
        a._range, buffers = {}, []
        for i in range(r.randrange(1, 25)):
            b = Buffer("scratch", i, r.choice(owners), r.choice([16, 64, 128, 256]), 16)
            b.offset = r.randrange(0, 8) * 64
            lo = r.randrange(0, 40)
            a._range[b] = r.choice([(lo, lo + r.randrange(1, 12)), (0, INF), (INF, 0), (lo, lo + 1)])
            buffers.append(b)
        pairs = a._live_together(buffers)
        assert _interference(pairs) == _pairs(a._range, buffers)
        for b in buffers:  # the pairs do not depend on the offsets: moved buffers, the same pairs
            b.offset = r.randrange(0, 8) * 64
        assert _interference(pairs) == _pairs(a._range, buffers)
