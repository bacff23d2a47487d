"""tritongpu-fuse-nested-loops: flatten a `tt.flatten` loop nest into one loop (Triton's FuseNestedLoops), so the
software pipeliner sees one loop that runs the inner loop's body on every iteration and overlaps the loads of the
next outer iteration with the epilogue of the current one (the persistent matmul: tile loop around a K loop).

Only a loop marked `tt.flatten` (`tl.range(..., flatten=True)`) with exactly one loop nested in it (directly in
its body; an `scf.if` or `scf.while` in between starts a separate nest) is fused, and only when the inner loop's
bounds are, or can be made by hoisting scalar pure ops, invariant to the outer loop. Before fusing:

- loop-invariant code of the outer loop is hoisted, and pure ops of the part before the inner loop whose every
  user is after the inner loop sink to just after it;
- the inner loop's length is speculated: `scf.if (len_inner == 0)` runs a copy of the nest with the inner loop
  removed (its results replaced by its inits), the else branch the nest, whose inner loop now runs at least once.

The fused loop (`for _ in range(len_outer * max(1, len_inner))`) carries T (position in the inner range, 0
first, stepped and wrapped around at the end of each iteration), the outer induction variable (lb - step first), the outer iteration arguments, the inner induction
variable, the inner loop's results (initialized to zero, or `ub.poison` for non-numeric types) and the values
the prologue defines and later ops use. Each iteration runs the prologue in `scf.if T == 0`
(which steps the outer induction variable and yields the inner loop's lower bound and the prologue's outputs),
the inner body (under `T in [0, len_inner)`, or unconditionally since the length was speculated) and the epilogue
in `scf.if T == inner_len - 1`. Inner loop inits defined outside the fused loop become its inits directly and are
reset by the epilogue `scf.if` (then: the init, else: the body's value). The outer loop's `tt.num_stages` (the
larger of it and the inner loop's) carries over, as do `tt.disallow_acc_multi_buffer` and the outer loop's
`tt.warp_specialize`; `tt.flatten` does not. `ttg.always-fuse` on a loop (for testing) fuses every nested loop
in it without the preprocessing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf, ub
from xdsl.dialects.builtin import (AnyFloat, DenseIntOrFPElementsAttr, FloatAttr, IndexType, IntegerAttr, IntegerType,
                                   TensorType, UnitAttr, i1)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ttc.ir.fold import CMPI
from ttc.opt.greedy_rewrite import would_be_trivially_dead
from ttc.ir.inserter import Inserter
from ttc.ir.types import PointerType
from ttc.passes.licm import hoist_from, should_move
from ttc.opt.passmanager import Pass

FLATTEN, MUST_EXECUTE, ALWAYS_FUSE = "tt.flatten", "ttg.must-execute", "ttg.always-fuse"


# ---- loop nests -------------------------------------------------------------------------------------------------

class Nest:
    """A loop and the loops nested in it (directly, or through ops without regions) as child nests."""

    def __init__(self, loop: scf.ForOp):
        self.loop, self.children = loop, []

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children)


def _collect(node: Nest, region_ops, nests: list[Nest]) -> None:
    for op in region_ops:
        if isinstance(op, scf.ForOp):
            child = Nest(op)
            node.children.append(child)
            _collect(child, _body_ops(op), nests)
        elif op.regions:
            find_nests(op, nests)


def _body_ops(op: Operation):
    return [o for r in op.regions for b in r.blocks for o in b.ops]


def find_nests(container: Operation, nests: list[Nest]) -> None:
    """The outermost loops under `container`, each with its nest (a region op other than scf.for between two
    loops starts a new nest)."""
    for op in _body_ops(container):
        if isinstance(op, scf.ForOp):
            nest = Nest(op)
            _collect(nest, _body_ops(op), nests)
            nests.append(nest)
        elif op.regions:
            find_nests(op, nests)


# ---- small helpers ----------------------------------------------------------------------------------------------

def _outside(value: SSAValue, loop: Operation) -> bool:
    """`value` is defined outside `loop` (so it dominates it: it is in scope there)."""
    owner = value.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    return op is not loop and not loop.is_ancestor(op) if op is not None else True


def _replace_uses_if(value: SSAValue, new: SSAValue, keep) -> None:
    for use in list(value.uses):
        if not keep(use.operation):
            use.operation.operands[use.index] = new


def _yield(block: Block, values, loc) -> None:
    y = scf.YieldOp(*values)
    y.location = loc
    block.add_op(y)


def _new_if(cond: SSAValue, types, at: Inserter) -> scf.IfOp:
    op = scf.IfOp.create(operands=[cond], result_types=list(types), regions=[Region(Block()), Region(Block())])
    at.add(op)
    return op


def _index(op: Operation) -> int:
    return list(op.parent.ops).index(op)


def _int_width(t: Attribute) -> int:
    return 64 if isinstance(t, IndexType) else t.width.data


def _cast_int(at: Inserter, v: SSAValue, t: Attribute) -> SSAValue:
    if v.type == t:
        return v
    if isinstance(v.type, IndexType) or isinstance(t, IndexType):
        return at.add(arith.IndexCastOp(v, t))
    if _int_width(v.type) > _int_width(t):
        return at.add(arith.TruncIOp(v, t))
    return at.add(arith.ExtSIOp(v, t))


def _poison_or_zero(at: Inserter, t: Attribute) -> SSAValue:
    """Zero for integers, floats and tensors of them, `ub.poison` for anything else."""
    el = t.element_type if isinstance(t, TensorType) else t
    if isinstance(el, (IntegerType, IndexType)):
        scalar = IntegerAttr(0, el)
    elif isinstance(el, AnyFloat):
        scalar = FloatAttr(0.0, el)
    else:
        return at.add(ub.PoisonOp(t))
    if isinstance(t, TensorType):
        zero = 0 if isinstance(scalar, IntegerAttr) else 0.0
        return at.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [zero]), t))
    return at.add(arith.ConstantOp(scalar, el))


def num_iters(at: Inserter, loop: scf.ForOp, vmap: dict | None = None) -> SSAValue:
    """len(range(lb, ub, step)) = ceildiv(ub - lb, step), with the bounds looked up in `vmap` if given."""
    lb, ub, step = ((vmap or {}).get(v, v) for v in (loop.lb, loop.ub, loop.step))
    return at.add(arith.CeilDivSIOp(at.add(arith.SubiOp(ub, lb)), step))


def _clone_slice(ops: list[Operation], vmap: dict, before: Operation) -> None:
    """Clone `ops` (in program order, each once per `vmap`) before `before`, mapping operands through `vmap`."""
    order = {o: i for i, o in enumerate(ops[0].parent.ops)} if ops else {}  # all in the outer body
    for op in sorted(ops, key=order.__getitem__):
        if op.results and op.results[0] in vmap:
            continue
        before.parent.insert_op_before(op.clone(value_mapper=vmap), before)


def _hoistable_scalar(op: Operation) -> bool:
    """A loop bound computation that may move: no effect but reads (nested ops included), scalar (or pointer)
    operands and results."""
    def scalar(t):
        return isinstance(t, (IntegerType, IndexType, AnyFloat, PointerType))
    return (would_be_trivially_dead(op) and all(scalar(v.type) for v in op.operands)
            and all(scalar(r.type) for r in op.results))


def _inputs(op: Operation) -> list[SSAValue]:
    """The operands of `op` and the values its nested ops read from outside it."""
    vals = list(op.operands)
    for inner in op.walk():
        if inner is not op:
            vals += [v for v in inner.operands if _outside(v, op)]
    return vals


def outer_invariant(outer: scf.ForOp, values, to_hoist: list[Operation], iv_ok: bool = False) -> bool:
    """Whether all of `values` are defined outside `outer` or computed from such values by scalar pure ops,
    which are then added to `to_hoist` (only when all of them can be). With `iv_ok` the computation may also
    read `outer`'s induction variable (the ops are then the slice that computes the values, not hoistable)."""
    visited: list[Operation] = []
    queue = list(values)
    while queue:
        v = queue.pop(0)
        if _outside(v, outer):
            continue
        if isinstance(v.owner, Block):
            if iv_ok and v is outer.body.block.args[0]:
                continue
            return False
        op = v.owner
        if op in visited:
            continue
        if not _hoistable_scalar(op):
            return False
        visited.append(op)
        queue.extend(_inputs(op))
    to_hoist.extend(o for o in visited if o not in to_hoist)
    return True


def _hoist(ops: list[Operation], before: Operation) -> None:
    order = {o: i for i, o in enumerate(before.walk())}
    for op in sorted(ops, key=order.__getitem__):
        op.detach()
        before.parent.insert_op_before(op, before)


# ---- preprocessing (sinking, speculation) ------------------------------------------------------------------------

def sink_into_epilogue(outer: scf.ForOp, inner: scf.ForOp) -> None:
    """Move the pure ops before `inner` whose users all come after it (or are such ops) to just after it."""
    block = outer.body.block
    pos = {o: i for i, o in enumerate(block.ops)}
    inner_at = pos[inner]

    def after_inner(user: Operation) -> bool:
        anc = block.find_ancestor_op_in_block(user)
        return anc is not None and pos[anc] > inner_at

    sunk: list[Operation] = []
    prologue = list(block.ops)[:inner_at]
    for op in reversed(prologue):
        if not should_move(op) or op.name == "tt.dot" or op.regions:
            continue
        if all(after_inner(u.operation) or u.operation in sunk for r in op.results for u in r.uses):
            sunk.append(op)
    anchor = inner.next_op
    for op in sorted(sunk, key=pos.__getitem__):
        op.detach()
        block.insert_op_before(op, anchor)


def positive_trip_count(loop: scf.ForOp) -> bool:
    """`llvm.intr.assume(ub > lb)` (or `lb < ub`) is said of the loop's bounds: it runs at least once."""
    for use in loop.ub.uses:
        cmp = use.operation
        if cmp.name != "arith.cmpi" or not any(u.operation.name == "llvm.intr.assume" for u in cmp.results[0].uses):
            continue
        pred = CMPI[cmp.predicate.value.data]
        if (pred == "sgt" and cmp.lhs is loop.ub and cmp.rhs is loop.lb) or (
                pred == "slt" and cmp.lhs is loop.lb and cmp.rhs is loop.ub):
            return True
    return False


def speculate_inner_length(outer: scf.ForOp, inner: scf.ForOp) -> bool:
    """Wrap the nest in `scf.if (len_inner == 0)`: then a copy without the inner loop (and without
    `tt.warp_specialize`), else the nest, whose inner loop is marked to run at least once. An inner loop assumed
    to run (`positive_trip_count`) is only marked."""
    if positive_trip_count(inner):
        inner.attributes[MUST_EXECUTE] = UnitAttr()
        return True
    to_hoist: list[Operation] = []
    if not outer_invariant(outer, [inner.lb, inner.ub, inner.step], to_hoist):
        return False
    _hoist(to_hoist, outer)
    inner.attributes[MUST_EXECUTE] = UnitAttr()
    at = Inserter(outer, inner.location)
    length = num_iters(at, inner)
    empty = at.add(arith.CmpiOp(length, at.constant(0, length.type), "eq"))
    if_op = _new_if(empty, [r.type for r in outer.results], at)
    copy = outer.clone()
    k = _index(inner)
    copy_inner = list(copy.body.block.ops)[k]
    for r, init in zip(copy_inner.results, copy_inner.iter_args):
        r.replace_all_uses_with(init)
    copy_inner.detach()
    copy_inner.erase()
    copy.attributes.pop("tt.warp_specialize", None)
    if_op.true_region.block.add_op(copy)
    _yield(if_op.true_region.block, copy.results, outer.location)
    for r, nr in zip(outer.results, if_op.results):
        r.replace_all_uses_with(nr)
    outer.detach()
    if_op.false_region.block.add_op(outer)
    _yield(if_op.false_region.block, outer.results, outer.location)
    return True


# ---- fusion of one level ----------------------------------------------------------------------------------------

class Logue:
    """A contiguous range of ops in the outer body, and its outputs: results used after its last op."""

    def __init__(self, ops: list[Operation]):
        self.ops, self.outputs = ops, []
        if not ops:
            return
        last, block = ops[-1], ops[-1].parent
        pos = {o: i for i, o in enumerate(block.ops)}

        def later(user: Operation) -> bool:
            anc = block.find_ancestor_op_in_block(user)
            return anc is not None and (pos[anc] > pos[last] or (anc is last and user is not last))

        self.outputs = [r for op in ops for r in op.results if any(later(u.operation) for u in r.uses)]

    def move_to(self, block: Block) -> None:
        for op in self.ops:
            op.detach()
            block.add_op(op)

    def replace_outputs(self, values, region: Region) -> None:
        """Uses of the outputs outside `region` (where the logue now is) take `values`."""
        for out, new in zip(self.outputs, values):
            _replace_uses_if(out, new, lambda user: region.is_ancestor(user))


def _rebuild_if(if_op: scf.IfOp, then_vals, else_vals) -> scf.IfOp:
    """`if_op` with its yields replaced by `then_vals` / `else_vals` (and result types to match)."""
    for region, vals in ((if_op.true_region, then_vals), (if_op.false_region, else_vals)):
        old = region.block.last_op
        loc = old.location
        old.detach()
        old.erase()
        _yield(region.block, vals, loc)
    new = scf.IfOp.create(operands=[if_op.cond], result_types=[v.type for v in then_vals], regions=[Region(),
                                                                                                    Region()])
    new.location = if_op.location
    if_op.parent.insert_op_before(new, if_op)
    if_op.true_region.move_blocks(new.true_region)
    if_op.false_region.move_blocks(new.false_region)
    return new


def fuse_one_level(node: Nest) -> None:
    """Fuse the (leaf) child loops of `node` whose bounds can be made invariant to it, or computed from its
    induction variable by scalar pure ops (a "slice"), into one loop."""
    outer = node.loop
    inners, slices, to_hoist = [], [], []
    for child in node.children:
        bounds = [child.loop.lb, child.loop.ub, child.loop.step]
        sliced: list[Operation] = []
        if outer_invariant(outer, bounds, to_hoist) or outer_invariant(outer, bounds, sliced, iv_ok=True):
            inners.append(child.loop)
            slices.append(sliced)  # empty: invariant bounds
    node.children = []
    if not inners:
        return
    _hoist(to_hoist, outer)
    loc = outer.location
    at = Inserter(outer, loc)
    outer_iv = outer.body.block.args[0]
    width = max(_int_width(v.type) for v in [outer_iv, *(lp.body.block.args[0] for lp in inners)])
    int_t = IntegerType(width)
    all_invariant = not any(slices)

    def cst(v: int) -> SSAValue:
        return at.constant(v, int_t)

    len_outer = num_iters(at, outer)
    # lengths of variant inner loops are computed in the first prologue (a zero stands for them until then)
    len_inners = [cst(0) if sl else _cast_int(at, num_iters(at, lp), int_t) for lp, sl in zip(inners, slices)]
    n_last = len(inners) - 1
    inner_len = cst(0)
    for n, sl in zip(len_inners, slices):
        if not sl:
            inner_len = at.add(arith.AddiOp(inner_len, at.add(arith.MaxSIOp(cst(1), n))))
    inner_len = at.add(arith.SubiOp(inner_len, cst(n_last)))
    total = at.add(arith.MuliOp(_cast_int(at, len_outer, int_t), inner_len))

    # total += max(1, len_jk) for each variant inner loop, over a copy of the outer loop (a loop with nothing
    # to add folds away)
    peel_body = Block(arg_types=[outer_iv.type, int_t])
    peel = scf.ForOp(outer.lb, outer.ub, outer.step, [total], Region(peel_body))
    at.add(peel)
    peel_yield = scf.YieldOp(peel_body.args[1])
    peel_yield.location = loc
    peel_body.add_op(peel_yield)
    pb, vmap, acc = Inserter(peel_yield, loc), {outer_iv: peel_body.args[0]}, peel_body.args[1]
    for lp, sl in zip(inners, slices):
        if sl:
            _clone_slice(sl, vmap, peel_yield)
            n = _cast_int(pb, num_iters(pb, lp, vmap), int_t)
            acc = pb.add(arith.AddiOp(acc, pb.add(arith.MaxSIOp(pb.constant(1, int_t), n))))
    peel_yield.operands = [acc]
    total = peel.results[0]

    body = outer.body.block
    ops = list(body.ops)
    idx = [ops.index(loop) for loop in inners]
    logues = [Logue(ops[:idx[0]])]
    logues += [Logue(ops[idx[k] + 1:idx[k + 1]]) for k in range(n_last)]
    logues.append(Logue(ops[idx[-1] + 1:-1]))

    inits = [cst(0), at.add(arith.SubiOp(outer.lb, outer.step))]
    outer_start = len(inits)
    inits += list(outer.iter_args)
    len_start = len(inits)
    inits += [*len_inners, inner_len]
    ivar_start = len(inits)
    inits += [_poison_or_zero(at, loop.body.block.args[0].type) for loop in inners]
    outs_start = len(inits)
    inits += [_poison_or_zero(at, r.type) for loop in inners for r in loop.results]
    logue_start = len(inits)
    inits += [_poison_or_zero(at, o.type) for lg in logues[:-1] for o in lg.outputs]

    fused_body = Block(arg_types=[int_t, *[v.type for v in inits]])
    fused = scf.ForOp(cst(0), total, cst(1), inits, Region(fused_body))
    at.add(fused)
    fargs = list(fused_body.args[1:])
    for arg, farg in zip(outer.body.block.args[1:], fargs[outer_start:]):
        arg.replace_all_uses_with(farg)
    n_inners = len(inners)
    outside_inner_len, len_inners = inner_len, fargs[len_start:len_start + n_inners]

    anchor = scf.YieldOp()  # ops are built at the end of the fused body, before this placeholder
    fused_body.add_op(anchor)
    b = Inserter(anchor, loc)
    t = fargs[0]
    cur_i = fargs[1]
    i = None
    body_outs = outs_start
    logue_outs = logue_start
    prologue_ifs, body_ifs = [], []
    body_partial = None
    for k, inner in enumerate(inners):
        # max(1, len_j0) + ... + max(1, len_jk-1), summed again in the body (as Triton 3.6 does)
        body_partial = b.constant(0, int_t) if k == 0 else b.add(arith.AddiOp(body_partial, b.add(arith.MaxSIOp(
            b.constant(1, int_t), len_inners[k - 1]))))
        start_t = b.add(arith.SubiOp(body_partial, b.constant(k, int_t)))
        cond = b.add(arith.CmpiOp(t, start_t, "eq"))
        pro = logues[k]
        inner_iv = inner.body.block.args[0]
        types = [inner_iv.type, *[o.type for o in pro.outputs], *[v.type for v in inner.iter_args]]
        if k == 0:
            types += [cur_i.type, *[int_t] * n_inners, int_t]
        pro_if = _new_if(cond, types, b)
        prologue_ifs.append(pro_if)
        then = pro_if.true_region.block
        pro.move_to(then)
        then_yield = scf.YieldOp()
        then_yield.location = loc
        then.add_op(then_yield)
        then_vals = [inner.lb, *pro.outputs, *inner.iter_args]
        if k == 0:
            # i += stepi, then the lengths of the variant inner loops for this i (their slices cloned)
            tb = Inserter(then.first_op, loc)
            new_i = tb.add(arith.AddiOp(cur_i, outer.step))
            _replace_uses_if(outer_iv, new_i, lambda user: not pro_if.true_region.is_ancestor(user))
            tb.anchor = new_i.owner.next_op
            vmap, lens, then_len = {outer_iv: new_i}, list(len_inners), inner_len
            for q, (lp, sl) in enumerate(zip(inners, slices)):
                if sl:
                    _clone_slice(sl, vmap, tb.anchor)
                    lens[q] = _cast_int(tb, num_iters(tb, lp, vmap), int_t)
                    then_len = tb.add(arith.AddiOp(then_len, tb.add(arith.MaxSIOp(tb.constant(1, int_t), lens[q]))))
            then_vals += [new_i, *lens, then_len]
        then_yield.operands = then_vals
        n_out = len(pro.outputs)
        else_vals = [fargs[ivar_start + k], *fargs[logue_outs:logue_outs + n_out],
                     *fargs[body_outs:body_outs + len(inner.results)]]
        if k == 0:
            # with invariant lengths only, inner_len stays the value computed before the loop
            else_vals += [cur_i, *len_inners, outside_inner_len if all_invariant else fargs[len_start + n_inners]]
        logue_outs += n_out
        _yield(pro_if.false_region.block, else_vals, loc)

        jk = pro_if.results[0]
        inner_iv.replace_all_uses_with(jk)
        pro.replace_outputs(pro_if.results[1:1 + n_out], pro_if.true_region)
        for init, arg in zip(pro_if.results[1 + n_out:1 + n_out + len(inner.results)], inner.body.block.args[1:]):
            arg.replace_all_uses_with(init)
        if k == 0:
            i = pro_if.results[-2 - n_inners]
            len_inners, inner_len = list(pro_if.results[-1 - n_inners:-1]), pro_if.results[-1]
            outer_iv.replace_all_uses_with(i)

        end_t = b.add(arith.AddiOp(start_t, len_inners[k]))
        ge = b.add(arith.CmpiOp(t, start_t, "sge"))
        lt = b.add(arith.CmpiOp(t, end_t, "slt"))
        body_cond = b.add(arith.AndIOp(ge, lt))
        body_if = scf.IfOp.create(operands=[body_cond], result_types=[jk.type, *[r.type for r in inner.results]],
                                  regions=[Region(), Region(Block())])
        b.add(body_if)
        body_ifs.append(body_if)
        for arg in list(inner.body.block.args)[::-1]:
            inner.body.block.erase_arg(arg)
        inner.body.move_blocks(body_if.true_region)
        yield_op = body_if.true_region.block.last_op
        next_jk = arith.AddiOp(jk, inner.step)
        next_jk.location = loc
        body_if.true_region.block.insert_op_before(next_jk, yield_op)
        yield_op.operands = [next_jk.results[0], *yield_op.operands]
        _yield(body_if.false_region.block, [jk, *fargs[body_outs:body_outs + len(inner.results)]], loc)
        body_outs += len(inner.results)
        for r, nr in zip(inner.results, body_if.results[1:]):
            r.replace_all_uses_with(nr)
        if MUST_EXECUTE in inner.attributes:
            true = arith.ConstantOp(IntegerAttr(1, i1), i1)
            true.location = loc
            body_if.parent.insert_op_before(true, body_if)
            body_if.operands = [true.results[0]]

    epi = logues[-1]
    outer_yield = outer.body.block.last_op
    used_args = [fargs[outer_start + u.index] for o in epi.outputs for u in o.uses if u.operation is outer_yield]
    epi_cond = b.add(arith.CmpiOp(t, b.add(arith.SubiOp(inner_len, b.constant(1, int_t))), "eq"))
    epi_if = _new_if(epi_cond, [o.type for o in epi.outputs], b)
    epi.move_to(epi_if.true_region.block)
    _yield(epi_if.true_region.block, epi.outputs, loc)
    _yield(epi_if.false_region.block, used_args, loc)
    epi.replace_outputs(epi_if.results, epi_if.true_region)

    # T = 0 if T == inner_len - 1 else T + 1, for the next iteration
    next_t = b.add(arith.AddiOp(t, b.constant(1, int_t)))
    roll = b.add(arith.CmpiOp(t, b.add(arith.SubiOp(inner_len, b.constant(1, int_t))), "eq"))
    next_t = b.add(arith.SelectOp(roll, b.constant(0, int_t), next_t))
    outs = [next_t, i, *outer_yield.operands, *len_inners, inner_len, *[bi.results[0] for bi in body_ifs]]
    outs += [r for bi, loop in zip(body_ifs, inners) for r in bi.results[1:1 + len(loop.results)]]
    outs += [r for pi, lg in zip(prologue_ifs, logues[:-1]) for r in pi.results[1:1 + len(lg.outputs)]]
    anchor.detach()
    anchor.erase()
    _yield(fused_body, outs, loc)
    for r, nr in zip(outer.results, fused.results[outer_start:]):
        r.replace_all_uses_with(nr)

    # Inner loop inits defined outside the fused loop: initialize them there and reset them in the epilogue.
    fused_yield = fused_body.last_op
    in_pos = outs_start
    updates, reset, forwarded = [], [], []
    for n, (loop, pro_if, body_if, pro) in enumerate(zip(inners, prologue_ifs, body_ifs, logues)):
        skip = 1 + len(pro.outputs)
        init_vals = list(pro_if.true_region.block.last_op.operands)[skip:skip + len(loop.results)]
        drop, replace = set(), {}
        for j, init in enumerate(init_vals):
            if not _outside(init, fused):
                continue
            fused.operands = [*fused.operands[:3 + in_pos + j], init, *fused.operands[4 + in_pos + j:]]
            replace[skip + j] = fargs[in_pos + j]
            drop.add(skip + j)
            updates.append(in_pos + j)
            forwarded.append(body_if.results[1 + j])
            reset.append(init)
        if drop:
            keep = [q for q in range(len(pro_if.results)) if q not in drop]
            then_v, else_v = (list(r.block.last_op.operands) for r in (pro_if.true_region, pro_if.false_region))
            new = _rebuild_if(pro_if, [then_v[q] for q in keep], [else_v[q] for q in keep])
            for q, r in enumerate(pro_if.results):
                r.replace_all_uses_with(replace[q] if q in drop else new.results[keep.index(q)])
            pro_if.detach()
            pro_if.erase()
            prologue_ifs[n] = new
        in_pos += len(loop.results)
    if updates:
        then_v = [*epi_if.true_region.block.last_op.operands, *reset]
        else_v = [*epi_if.false_region.block.last_op.operands, *forwarded]
        n_epi = len(epi_if.results)
        new = _rebuild_if(epi_if, then_v, else_v)
        for r, nr in zip(epi_if.results, new.results):
            r.replace_all_uses_with(nr)
        epi_if.detach()
        epi_if.erase()
        operands = list(fused_yield.operands)
        for q, pos in enumerate(updates):
            operands[pos] = new.results[n_epi + q]
        fused_yield.operands = operands

    stages = [lp.attributes["tt.num_stages"].value.data for lp in (outer, *inners) if "tt.num_stages" in lp.attributes]
    if any("tt.disallow_acc_multi_buffer" in lp.attributes for lp in (outer, *inners)):
        fused.attributes["tt.disallow_acc_multi_buffer"] = UnitAttr()
    if any("tt.warp_specialize" in lp.attributes for lp in (outer, *inners)):
        fused.attributes["tt.warp_specialize"] = UnitAttr()
    if stages and max(stages) > 1:
        fused.attributes["tt.num_stages"] = IntegerAttr(max(stages), 32)
    for loop in inners:
        loop.detach()
        loop.erase()
    outer.detach()
    outer.erase()
    node.loop = fused


def flatten(node: Nest) -> None:
    for child in node.children:
        flatten(child)
    fuse_one_level(node)


def should_fuse(nest: Nest) -> bool:
    if ALWAYS_FUSE in nest.loop.attributes:
        return True
    return nest.size() == 2 and len(nest.children) == 1 and FLATTEN in nest.loop.attributes


def preprocess(nest: Nest) -> bool:
    outer, inner = nest.loop, nest.children[0].loop
    hoist_from(outer)
    sink_into_epilogue(outer, inner)
    return speculate_inner_length(outer, inner)


@dataclass(frozen=True)
class FuseNestedLoops(Pass):
    """Flatten `tt.flatten` loop nests (one outer loop, one inner loop) into a single loop."""

    name = "tritongpu-fuse-nested-loops"
    display = "TritonGPUFuseNestedLoops"
    summary = "Fuse a tt.flatten loop nest into one loop (Triton's FuseNestedLoops)"

    def apply(self, ctx, module) -> None:
        for func in [op for op in module.walk() if op.name == "tt.func"]:
            nests: list[Nest] = []
            find_nests(func, nests)
            for nest in nests:
                if not should_fuse(nest):
                    continue
                if ALWAYS_FUSE not in nest.loop.attributes and not preprocess(nest):
                    continue
                flatten(nest)
