"""Control flow: `scf.for`, `scf.if`, `scf.while`, and the blocks of a function with `cf.br` / `cf.cond_br` /
`tt.return`, as LLVM basic blocks with phis (one phi per register for tensor values).

`scf.for` compares the induction variable with the upper bound as signed integers, as MLIR does; its results are
the loop-carried values at the header when the loop exits. `scf.while`'s results are the values its
`scf.condition` forwards.

A tensor `arith.select` on a scalar condition that a later `scf.if` of the same block branches on, with no use
before that `scf.if` ends, becomes phis at the `scf.if`'s join (`defer_select`): its true values from the then
branch, its false values from the other path, as Triton's pipeline has it before LLVM (a persistent matmul's
accumulator reset, `select(last_k, 0, acc)` with the epilogue under `scf.if last_k`: copies on the epilogue's
path, not one `selp` a register on every iteration).
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import TensorType

from ttc.lowering.registry import lowering


def make_phis(ctx, t, op):
    """Phis (at the builder's position) for a value of MLIR type `t`: one, or one per register."""
    lt = ctx.type_of(t, op)
    if isinstance(t, TensorType):
        return [ctx.b.phi(lt) for _ in range(ctx.layout(t, op).num_regs)]
    return ctx.b.phi(lt)


def add_incoming(phis, values, block: ir.Block) -> None:
    if isinstance(phis, list):
        if not isinstance(values, list):
            values = [values] * len(phis)
        for p, v in zip(phis, values):
            p.add_incoming(v, block)
    else:
        phis.add_incoming(values, block)


@lowering("scf.for")
def _for(ctx, op):
    b = ctx.b
    lb, ub, step = ctx.get(op.lb), ctx.get(op.ub), ctx.get(op.step)
    inits = [ctx.get(v) for v in op.iter_args]
    pre = b.block
    header = ctx.fn.append_basic_block("for.header")
    body = ctx.fn.append_basic_block("for.body")
    exit_ = ctx.fn.append_basic_block("for.exit")
    b.branch(header)
    b.position_at_end(header)
    iv = b.phi(lb.type)
    iv.add_incoming(lb, pre)
    phis = []
    for v, init in zip(op.iter_args, inits):
        p = make_phis(ctx, v.type, op)
        add_incoming(p, init, pre)
        phis.append(p)
    b.cbranch(b.icmp_signed("<", iv, ub), body, exit_)
    b.position_at_end(body)
    block = op.body.blocks.first
    ctx.set(block.args[0], iv)
    for a, p in zip(block.args[1:], phis):
        ctx.set(a, p)
    term = ctx.lower_block(block)
    yielded = [ctx.get(v) for v in term.operands] if term is not None else []
    latch = b.block
    nxt = b.add(iv, step)
    b.branch(header)
    iv.add_incoming(nxt, latch)
    for p, v in zip(phis, yielded):
        add_incoming(p, v, latch)
    b.position_at_end(exit_)
    for r, p in zip(op.results, phis):
        ctx.set(r, p)


def defer_select(ctx, op) -> bool:
    """Whether `arith.select` `op` is left to the `scf.if` after it that branches on its condition (the module
    docstring); that `scf.if` then defines its result."""
    c = op.operands[0]
    if not isinstance(op.results[0].type, TensorType) or isinstance(c.type, TensorType):
        return False
    block = op.parent_block()
    ops = list(block.ops)
    at = ops.index(op)
    target = next((o for o in ops[at + 1:] if o.name == "scf.if" and o.cond is c), None)
    if target is None:
        return False
    end = ops.index(target)
    for use in op.results[0].uses:
        u = use.operation
        while u is not None and u.parent_block() is not block:
            u = u.parent_op()
        if u is None or ops.index(u) <= end:
            return False
    ctx.deferred_selects.setdefault(target, []).append(op)
    return True


def _alike_arms(ctx, op) -> dict | None:
    """For an `scf.if` whose two branches are the same ops (names, attributes, properties, result types, regions)
    and differ only in values from outside them: those values, then-branch value -> else-branch value (one for
    each; values with different axis information do not qualify). None when the branches are not alike so."""
    if not op.true_region.blocks or not op.false_region.blocks:
        return None
    inner, outer = {}, {}

    def same_block(x, y) -> bool:
        if len(x.args) != len(y.args) or any(a.type != c.type for a, c in zip(x.args, y.args)):
            return False
        inner.update(zip(x.args, y.args))
        xs, ys = list(x.ops), list(y.ops)
        return len(xs) == len(ys) and all(same_op(a, c) for a, c in zip(xs, ys))

    def same_op(x, y) -> bool:
        if (x.name != y.name or x.attributes != y.attributes or x.properties != y.properties
                or len(x.operands) != len(y.operands) or [r.type for r in x.results] != [r.type for r in y.results]
                or len(x.regions) != len(y.regions) or x.successors or y.successors):
            return False
        for u, v in zip(x.operands, y.operands):
            if u in inner:
                if inner[u] is not v:
                    return False
            elif outer.setdefault(u, v) is not v or u.type != v.type:
                return False
        inner.update(zip(x.results, y.results))
        return all(len(rx.blocks) == len(ry.blocks) and all(same_block(bx, by) for bx, by in zip(rx.blocks, ry.blocks))
                   for rx, ry in zip(x.regions, y.regions))

    if not same_block(op.true_region.blocks.first, op.false_region.blocks.first):
        return None
    if any(v in inner.values() for v in outer.values()):
        return None
    differ = {u: v for u, v in outer.items() if u is not v}
    if ctx.axis is not None and any(ctx.axis.get(u) != ctx.axis.get(v) for u, v in differ.items()):
        return None
    return differ


def _select(b, cond, x, y):
    if isinstance(x, list):
        return [p if p is q else b.select(cond, p, q) for p, q in zip(x, y)]
    return x if x is y else b.select(cond, x, y)


@lowering("scf.if")
def _if(ctx, op):
    b = ctx.b
    cond = ctx.get(op.cond)
    differ = None if op in ctx.deferred_selects else _alike_arms(ctx, op)
    if differ is not None:
        # the branches are one block whose differing operands are selected on the condition, as MLIR's
        # canonicalizer merges the two alike blocks of Triton's scf-to-cf output (in make_llir's inliner, before
        # the scratch allocation and the lowering)
        saved = {u: ctx.get(u) for u in differ}
        for u, v in differ.items():
            ctx.set(u, _select(b, cond, saved[u], ctx.get(v)))
        term = ctx.lower_block(op.true_region.blocks.first)
        for u, x in saved.items():
            ctx.set(u, x)
        for r, v in zip(op.results, term.operands if term is not None else ()):
            ctx.set(r, ctx.get(v) if v not in differ else _select(b, cond, saved[v], ctx.get(differ[v])))
        return
    entry = b.block
    then_bb = ctx.fn.append_basic_block("if.then")
    has_else = bool(op.false_region.blocks) and (bool(op.results) or bool(list(op.false_region.blocks.first.ops)[:-1]))
    else_bb = ctx.fn.append_basic_block("if.else") if has_else else None
    merge = ctx.fn.append_basic_block("if.end")
    b.cbranch(cond, then_bb, else_bb or merge)
    arms = []
    for region, bb in ((op.true_region, then_bb), (op.false_region, else_bb)):
        if bb is None:
            continue
        b.position_at_end(bb)
        term = ctx.lower_block(region.blocks.first)
        arms.append(([ctx.get(v) for v in term.operands] if term is not None else [], b.block))
        b.branch(merge)
    b.position_at_end(merge)
    for i, r in enumerate(op.results):
        p = make_phis(ctx, r.type, op)
        for vals, blk in arms:
            add_incoming(p, vals[i], blk)
        ctx.set(r, p)
    for sel in ctx.deferred_selects.pop(op, ()):
        res = sel.results[0]
        p = make_phis(ctx, res.type, sel)
        add_incoming(p, ctx.get(sel.operands[1]), arms[0][1])
        add_incoming(p, ctx.get(sel.operands[2]), arms[1][1] if else_bb is not None else entry)
        ctx.set(res, p)


@lowering("scf.while")
def _while(ctx, op):
    b = ctx.b
    inits = [ctx.get(v) for v in op.arguments]
    pre = b.block
    before_bb = ctx.fn.append_basic_block("while.before")
    after_bb = ctx.fn.append_basic_block("while.after")
    exit_ = ctx.fn.append_basic_block("while.exit")
    b.branch(before_bb)
    b.position_at_end(before_bb)
    before = op.before_region.blocks.first
    phis = []
    for a, init in zip(before.args, inits):
        p = make_phis(ctx, a.type, op)
        add_incoming(p, init, pre)
        ctx.set(a, p)
        phis.append(p)
    cond_op = ctx.lower_block(before)
    cond = ctx.get(cond_op.condition)
    forwarded = [ctx.get(v) for v in cond_op.args]
    b.cbranch(cond, after_bb, exit_)
    b.position_at_end(after_bb)
    after = op.after_region.blocks.first
    for a, v in zip(after.args, forwarded):
        ctx.set(a, v)
    term = ctx.lower_block(after)
    yielded = [ctx.get(v) for v in term.operands]
    latch = b.block
    b.branch(before_bb)
    for p, v in zip(phis, yielded):
        add_incoming(p, v, latch)
    b.position_at_end(exit_)
    for r, v in zip(op.results, forwarded):
        ctx.set(r, v)


def lower_function_body(ctx, region) -> None:
    """Lower a function's blocks; the first continues the entry block, the others get phis for their args."""
    b = ctx.b
    blocks = list(region.blocks)
    bbs = {blocks[0]: b.block}
    phis = {}
    for blk in blocks[1:]:
        bb = ctx.fn.append_basic_block("bb")
        bbs[blk] = bb
        b.position_at_end(bb)
        phis[blk] = []
        for a in blk.args:
            p = make_phis(ctx, a.type, blk.parent_op())
            ctx.set(a, p)
            phis[blk].append(p)
    for blk in blocks:
        b.position_at_end(bbs[blk])
        term = ctx.lower_block(blk)
        if term is None:
            raise ctx.error(blk.parent_op(), "function block has no terminator")
        _terminate(ctx, term, bbs, phis)


def _terminate(ctx, term, bbs, phis) -> None:
    b = ctx.b
    if term.name == "tt.return":
        if term.operands:
            raise ctx.error(term, "kernels cannot return values")
        b.ret_void()
    elif term.name == "cf.br":
        for p, v in zip(phis[term.successor], term.arguments):
            add_incoming(p, ctx.get(v), b.block)
        b.branch(bbs[term.successor])
    elif term.name == "cf.cond_br":
        for p, v in zip(phis[term.then_block], term.then_arguments):
            add_incoming(p, ctx.get(v), b.block)
        for p, v in zip(phis[term.else_block], term.else_arguments):
            add_incoming(p, ctx.get(v), b.block)
        b.cbranch(ctx.get(term.cond), bbs[term.then_block], bbs[term.else_block])
    else:
        raise ctx.error(term, f"'{term.name}' is not supported as a function terminator")
