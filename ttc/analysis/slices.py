"""MLIR's def-use slices (`getSlice`, Triton's `multiRootGetSlice`): the ops reachable from one op by repeatedly
following operand definitions backward and result uses forward, as the layout passes use them to find the ops
that must agree on a layout (coalesce) or on MMA warps (accelerate-matmul). `def_use_slice` yields one slice;
`slice_summaries` combines a value over the slice of every op of a set at once, in time linear in the ops and
edges the slices cover (strongly connected components of the def-use graph, as slices are unions of them)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from xdsl.ir import Block, Operation

T = TypeVar("T")


def _neighbours(cur: Operation, keep: Callable[[Operation], bool], block_args: bool, regions: bool
                ) -> Iterator[Operation]:
    for v in cur.operands:
        owner = v.owner
        if not isinstance(owner, Block):
            if keep(owner):
                yield owner
        elif block_args and (p := owner.parent_op()) is not None and keep(p):
            yield p
    for r in cur.results:
        for u in r.uses:
            if keep(u.operation):
                yield u.operation
    if regions:
        for region in cur.regions:
            for b in region.blocks:
                yield from (o for o in b.ops if keep(o))


def def_use_slice(op: Operation, keep: Callable[[Operation], bool], *, block_args: bool, regions: bool
                  ) -> Iterator[Operation]:
    """`op` and every op reachable from it through kept ops, in the order found (breadth-first; lazily, so that
    a caller looking for one op stops the search there). `block_args`: a block argument leads to the op owning
    its block; `regions`: an op leads to the ops nested in its regions."""
    seen = {op}
    out = [op]
    i = 0
    while i < len(out):
        cur = out[i]
        i += 1
        yield cur
        for n in _neighbours(cur, keep, block_args, regions):
            if n not in seen:
                seen.add(n)
                out.append(n)


def slice_summaries(roots: Sequence[Operation], keep: Callable[[Operation], bool],
                    value: Callable[[Operation], T | None], merge: Callable[[T, T], T], *, block_args: bool,
                    regions: bool) -> dict[Operation, T | None]:
    """For each op of `roots`, the values (`value`, None for none) of the ops of its `def_use_slice` combined with
    `merge` (a new value from two, leaving them alone; associative, commutative and idempotent, such as a
    maximum: values are combined in no particular order, some twice); None when no op has a value. Tarjan's
    algorithm finds the strongly connected components of the reachability graph, sinks first; a component's
    summary combines its ops' values and the summaries of the components it reaches directly."""
    index: dict[Operation, int] = {}
    low: dict[Operation, int] = {}
    edges: dict[Operation, list[Operation]] = {}
    component: dict[Operation, int] = {}
    summaries: list[T] = []
    stack: list[Operation] = []
    work: list = []  # the depth-first search: (op, iterator over its remaining edges)

    def visit(v: Operation) -> None:
        index[v] = low[v] = len(index)
        edges[v] = list(_neighbours(v, keep, block_args, regions))
        stack.append(v)
        work.append((v, iter(edges[v])))

    for root in roots:
        if root in index:
            continue
        visit(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    visit(w)
                    break
                if w not in component:  # on the stack
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
                if low[v] != index[v]:
                    continue
                c = len(summaries)
                members = []
                while True:
                    w = stack.pop()
                    component[w] = c
                    members.append(w)
                    if w is v:
                        break
                parts = [value(m) for m in members]
                parts += [summaries[d] for d in {component[w] for m in members for w in edges[m]} - {c}]
                acc = None
                for x in parts:
                    if x is not None:
                        acc = x if acc is None else merge(acc, x)
                summaries.append(acc)
    return {r: summaries[component[r]] for r in roots}
