"""tritongpu-prefetch: load the first K slice of an MMA v2 dot's shared-memory operands one iteration ahead.

Triton's Prefetch pass (3.6). It first runs the convert_layout canonicalization patterns, then visits every
`scf.for` (inner loops first). A loop qualifies when its body has exactly one top-level `tt.dot` and that dot has
an MMA v2 or AMD MFMA result layout (any other dot layout, or a second dot, leaves the loop untouched). The
prefetch width is 8 * kWidth of the A operand (256 / its element bits when kWidth is 0); a dot whose K is smaller
is not prefetched. Each operand must come from a `ttg.local_load` into a dot-operand layout, possibly followed by
a chain of single-operand, single-use ops (e.g. `tt.fp_to_fp`), of a memdesc that is an iteration argument of
the loop. Then:
- before the loop, the first slice (`ttg.memdesc_subslice` K = [0, width), `ttg.local_load` into the dot-operand
  layout with kWidth = width / 8, the chain cloned with the slice's shape) of each operand's initial buffer;
- a new loop with two more iteration arguments (the prefetched A and B slices) and the same body, where the dot
  becomes one dot per slice: the first on the prefetched arguments, each further one on the slice at its K
  offset, loaded just before the previous dot; the last dot is issued as late as possible (ops that neither
  hold regions nor use the dot are placed before it);
- at the end of the body (or before that last dot), the first slices of the buffers the next iteration uses,
  yielded for the new arguments.
The original loop's results are replaced by the new loop's. As in Triton, a qualifying loop is rebuilt even
when its dot is not prefetched, and the rebuilt loop keeps no attributes of the original; the original dot,
cloned once before the split, stays behind unused (a later -canonicalize removes it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntAttr, TensorType, i32
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.traits import IsTerminator

from ttc.opt.greedy_rewrite import apply_tritongpu_patterns
from ttc.ir import ttg
from ttc.ir.amd_layouts import AMDMfmaEncoding
from ttc.ir.layouts import DotOperandEncoding, NvidiaMmaEncoding
from ttc.ir.types import bitwidth, encoding, shape_of, tensor
from ttc.ir.memdesc import MemDescType
from ttc.ir.convert_layout_patterns import CONVERT_PATTERNS
from ttc.opt.passmanager import Pass


class _Builder:
    """MLIR's OpBuilder insertion point in one block: before `anchor`, or (None) at the end of the block, before
    its terminator if it has one."""

    def __init__(self, block: Block, anchor: Operation | None = None):
        self.block, self.anchor = block, anchor

    def insert(self, op: Operation) -> Operation:
        anchor = self.anchor
        if anchor is None and self.block.last_op is not None and self.block.last_op.has_trait(IsTerminator):
            anchor = self.block.last_op
        if anchor is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, anchor)
        return op

    def clone(self, op: Operation, mapping: dict[SSAValue, SSAValue]) -> Operation:
        return self.insert(op.clone(mapping))


def _loc(v: SSAValue, default):
    return v.owner.location if isinstance(v.owner, Operation) else default


class _Prefetcher:
    def __init__(self, loop: scf.ForOp):
        self.loop, self.yield_op = loop, loop.body.block.last_op
        self.width = 32
        self.dot: Operation | None = None  # the dot to prefetch for, if any
        self.vals: dict[int, list[SSAValue]] = {}  # per operand: buffer, local_load, then the chain's results
        self.init: dict[int, SSAValue] = {}  # per operand: the buffer's initial value (the loop's init)
        self.arg: dict[int, SSAValue] = {}  # per operand: the buffer's iteration argument
        self.next: dict[int, SSAValue] = {}  # per operand: the buffer the body yields for the next iteration
        self.head: dict[int, SSAValue] = {}  # per operand: the slice prefetched before the loop

    def initialize(self) -> bool:
        dots = []
        for op in self.loop.body.block.ops:
            if op.name == "tt.dot":
                enc = encoding(op.results[0].type)
                if not (isinstance(enc, AMDMfmaEncoding) or isinstance(enc, NvidiaMmaEncoding)
                        and enc["versionMajor"] == 2):
                    return False
                dots.append(op)
        if len(dots) != 1:  # Triton handles a single dot per loop
            return False
        dot = dots[0]
        a_enc, b_enc = encoding(dot.a.type), encoding(dot.b.type)
        if not (isinstance(a_enc, DotOperandEncoding) and isinstance(b_enc, DotOperandEncoding)):
            return False
        k_width = a_enc.get("kWidth", 0)
        self.width = 256 // bitwidth(dot.a.type.element_type) if k_width == 0 else 8 * k_width
        if shape_of(dot.a.type)[-1] < self.width:
            return True
        vals = {0: self._source(dot.a), 1: self._source(dot.b)}
        if not (vals[0] and vals[1]):
            return True
        body = self.loop.body.block
        smem = {i: v[0] for i, v in vals.items()}
        if not all(isinstance(s, BlockArgument) and s.block is body and s.index > 0 for s in smem.values()):
            return True  # only buffers carried by the loop are prefetched
        self.dot, self.vals, self.arg = dot, vals, smem
        self.init = {i: self.loop.iter_args[s.index - 1] for i, s in smem.items()}
        self.next = {i: self.yield_op.operands[s.index - 1] for i, s in smem.items()}
        return True

    @staticmethod
    def _source(v: SSAValue) -> list[SSAValue]:
        """Triton's getPrefetchSrc: [buffer, local_load result, chain results..., v], or [] when `v` does not
        come from a local_load into a dot-operand layout through single-operand, single-use ops."""
        op = v.owner
        if not isinstance(op, Operation):
            return []
        rets, found = [op.results[0]], False
        while op is not None:
            if len(op.operands) != 1 or not op.results[0].has_one_use():
                break
            rets.append(op.operands[0])
            if op.name == "ttg.local_load":
                found = isinstance(encoding(op.results[0].type), DotOperandEncoding)
                break
            op = op.operands[0].owner if isinstance(op.operands[0].owner, Operation) else None
        return rets[::-1] if found else []

    def slice(self, v: SSAValue, idx: int, b: _Builder, offset_k: int | None = None,
              shape_k: int | None = None) -> SSAValue:
        """Triton's generatePrefetch: a K slice of buffer `v` for operand `idx` (the first `width` by default),
        loaded into the dot-operand layout, then the operand's chain of ops cloned onto it."""
        t = v.type
        shape = list(t.get_shape())
        offsets = [0] * len(shape)
        k = len(shape) - 1 if idx == 0 else len(shape) - 2
        offsets[k] = 0 if offset_k is None else offset_k
        shape[k] = self.width if shape_k is None else shape_k
        loc = _loc(v, self.loop.location)
        sub_t = MemDescType(ArrayAttr([IntAttr(d) for d in shape]), t.element_type, t.encoding, t.memory_space,
                            t.mutable, t.alloc_shape)
        sub = b.insert(ttg.MemDescSubsliceOp.build(operands=[v], result_types=[sub_t], properties={
            "offsets": DenseArrayBase.from_list(i32, offsets)}))
        sub.location = loc
        enc = DotOperandEncoding.make(opIdx=idx, parent=encoding(self.dot.results[0].type), kWidth=self.width // 8)
        load = b.insert(ttg.LocalLoadOp.build(operands=[sub.results[0], []],
                                              result_types=[tensor(shape, t.element_type, enc)]))
        load.location = loc
        ret = load.results[0]
        vals = self.vals[idx]
        mapping = {vals[1]: ret}
        for old in vals[2:]:
            new = b.clone(old.owner, mapping).results[0]
            src_t = new.owner.operands[0].type
            if isinstance(new.type, TensorType):
                new._type = tensor(shape, new.type.element_type, encoding(src_t))
            mapping[old] = new
        return mapping[vals[-1]]

    def prologue(self) -> None:
        b = _Builder(self.loop.parent, self.loop)
        for idx in (0, 1):
            self.head[idx] = self.slice(self.init[idx], idx, b)

    def new_loop(self) -> scf.ForOp:
        loop, dot = self.loop, self.dot
        inits = list(loop.iter_args) + ([self.head[0], self.head[1]] if dot else [])
        body = Block(arg_types=[loop.body.block.args[0].type, *[v.type for v in inits]])
        new = scf.ForOp.create(operands=[loop.lb, loop.ub, loop.step, *inits], result_types=[v.type for v in inits],
                               regions=[Region(body)])
        new.location = loop.location
        loop.parent.insert_op_before(new, loop)
        if not inits:  # MLIR's builder gives a loop without iteration arguments its yield
            y = scf.YieldOp()
            y.location = loop.location
            body.add_op(y)
        old_body = loop.body.block
        mapping: dict[SSAValue, SSAValue] = dict(zip(old_body.args, body.args))
        b = _Builder(body, body.first_op)
        for op in list(old_body.ops)[:-1]:
            if op.regions or (dot is not None and any(v.owner is dot for v in op.operands)):
                b = _Builder(body)
            new_op = b.clone(op, mapping)
            if op is dot:
                first = b.clone(dot, mapping)
                n = len(loop.iter_args)
                first.operands = [body.args[1 + n], body.args[2 + n], *first.operands[2:]]
                k_off, k_rem = self.width, shape_of(dot.a.type)[-1] - self.width
                prev = first
                if k_rem == 0:
                    b = _Builder(body, prev)
                    new_op = first
                while k_rem != 0:
                    k_shape = self.width
                    at = _Builder(body, prev)
                    a_rem = self.slice(mapping[self.arg[0]], 0, at, k_off, k_shape)
                    b_rem = self.slice(mapping[self.arg[1]], 1, at, k_off, k_shape)
                    new_op = b.clone(dot, mapping)
                    new_op.operands = [a_rem, b_rem, prev.results[0], *new_op.operands[3:]]
                    prev = new_op
                    k_off += k_shape
                    k_rem -= k_shape
                    if k_rem == 0:
                        b = _Builder(body, prev)
            for old_r, new_r in zip(op.results, new_op.results):
                mapping[old_r] = new_r
        values = [mapping.get(v, v) for v in self.yield_op.operands]
        if dot is not None:
            values += [self.slice(mapping.get(self.next[idx], self.next[idx]), idx, b) for idx in (0, 1)]
        if values:
            y = scf.YieldOp(*values)
            y.location = self.yield_op.location
            body.add_op(y)
        return new


def prefetch(loop: scf.ForOp) -> None:
    p = _Prefetcher(loop)
    if not p.initialize():
        return
    if p.dot is not None:
        p.prologue()
    new = p.new_loop()
    for old_r, new_r in zip(loop.results, new.results):
        old_r.replace_all_uses_with(new_r)
    loop.detach()
    loop.erase()


@dataclass(frozen=True)
class Prefetch(Pass):
    """Prefetch the first K slice of MMA v2 dot operands from shared memory one loop iteration ahead."""

    name = "tritongpu-prefetch"
    display = "TritonGPUPrefetch"
    summary = "prefetch"

    def apply(self, ctx, module) -> None:
        apply_tritongpu_patterns(module, CONVERT_PATTERNS)
        for loop in [op for op in module.walk(region_first=True) if isinstance(op, scf.ForOp)]:
            prefetch(loop)
