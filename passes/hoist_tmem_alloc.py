"""tritongpu-hoist-tmem-alloc: keep an MMA v5 accumulator in tensor memory across loop iterations (Triton's
HoistTMEMAlloc).

Without `hoist-out-of-if`, for each `ttng.tc_gen5_mma[_scaled]` directly in an `scf.for` body:
- its immutable `ttng.tmem_alloc` operands made in the loop (the scales) leave the loop, with the chain of pure
  one-operand ops that computes their source, when that chain starts outside the loop;
- the `ttng.tmem_alloc` of its accumulator (with a token, in the MMA's block) moves before the loop without its
  initial value: the loop carries its token (the init is the new alloc's token, the yield the last token of the
  memory in the body, which must be a single token of the body's own block) and, where the alloc had a value,
  a `ttng.tmem_store` of it (predicate `true`) takes the alloc's place.
Then MLIR's greedy driver applies, with scf.for's canonicalizations, the rewrites of TMEM ops that have tokens:
- a store of a loop argument (used only there) with a loop-invariant predicate and destination whose token
  comes in through the loop is rotated: a copy before the loop stores the init, the store moves before the
  yield storing the yielded value, and a `ttng.tmem_load` after the loop replaces the loop's result;
- a load whose only use is the yield and whose token the yield carries, of memory allocated without a value
  before the loop, is rotated to the start of the body (the init is stored before the loop, a load after the
  loop replaces the result);
- a store of what a load of the same memory just read (the store depends on the load's token) is dropped;
- a store of `arith.select` between a value and what a load of the same memory just read stores only the other
  value, under the (negated when the load is the true side) select condition;
- a load moves down to the nearest common dominator of its users when every user of its token post-dominates
  it (not past a run of loads only); the token is redefined through the `scf.if`/`scf.for` it sank into;
- a load whose value is unused passes its dependency on to its token's users.
With `hoist-out-of-if` the accumulator step is skipped and three more rewrites join: a store with predicate true
right after an alloc (in its block, its value defined before the alloc) becomes the alloc's value; an alloc with
a value inside an `scf.if` whose then branch yields a load of it where the else branch yields that value moves
before the if (the if yields tokens and a load after it reads the result); an alloc of exactly what a load of
the same type read, whose token nothing else uses, is that memory.
Finally every mutable alloc with a value is split into an alloc without one and a `ttng.tmem_store` (predicate
true), the form later passes expect.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Block, Operation, SSAValue

from ttc.ir.diagnostics import CompileError, at_op
from ttc.ir.fold import constant_attr
from ttc.opt.greedy_rewrite import GreedyDriver, Rewriter, fold_in_place
from ttc.ir.format import build_op
from ttc.ir.inserter import Inserter, set_operand_group, with_if_results, with_iter_args
from ttc.ir.tmem import TMEMLoadOp, TMEMStoreOp
from ttc.ir.types import AsyncTokenType
from ttc.passes.canonicalize import _for_iter_args, _for_trivial
from ttc.passes.licm import should_move
from ttc.opt.passmanager import Pass, option

MMAV5 = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")


# ----------------------------------------------------------------------------- helpers


def _def(v: SSAValue | None, name: str) -> Operation | None:
    """The op named `name` defining `v` with a token result (Triton's HasToken<Op>), else None."""
    o = v.owner if v is not None else None
    return o if isinstance(o, Operation) and o.name == name and getattr(o, "token", None) is not None else None


def outside(v: SSAValue, loop: Operation) -> bool:
    """MLIR's isDefinedOutsideOfLoop: the op whose region defines `v` is not `loop` or inside it."""
    o = v.owner.parent_op()
    return o is None or not loop.is_ancestor(o)


def _true(anchor: Operation) -> SSAValue:
    return Inserter(anchor, anchor.location).constant(1, i1)


def _is_one(v: SSAValue) -> bool:
    a = constant_attr(v)
    return isinstance(a, IntegerAttr) and a.value.data != 0


def _store(dst, dep, src, pred) -> Operation:
    return build_op(TMEMStoreOp, [dst, dep, src, pred], [AsyncTokenType()])


def _load(src, dep, result_type) -> Operation:
    return build_op(TMEMLoadOp, [src, dep], [result_type, AsyncTokenType()])


def _insert_after(new: Operation, anchor: Operation, loc) -> Operation:
    new.location = loc
    anchor.parent.insert_op_after(new, anchor)
    return new


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    while op is not None and op.parent is not block:
        op = op.parent_op()
    return op


def properly_dominates(a: Operation, b: Operation, post: bool = False) -> bool:
    """MLIR's (Post)DominanceInfo::properlyDominates(a, b) for single-block regions (an op enclosing `b`
    dominates it)."""
    if a is b:
        return False
    b = _ancestor_in(b, a.parent)
    if b is None:
        return False
    if a is b:
        return True
    return b.is_before_in_block(a) if post else a.is_before_in_block(b)


def common_dominator(ops: list[Operation]) -> Operation | None:
    """Triton's findNearestCommonDominator: the first, in the innermost block enclosing them all, of the ops'
    ancestors there."""
    if not ops:
        return None
    if len(ops) == 1:
        return ops[0]
    block = ops[0].parent
    while block is not None and any(_ancestor_in(o, block) is None for o in ops):
        parent = block.parent_op()
        block = parent.parent if parent is not None else None
    if block is None:
        return None
    first = None
    for o in ops:
        a = _ancestor_in(o, block)
        if first is None or a.is_before_in_block(first):
            first = a
    return first


def _block_of(v: SSAValue) -> Block:
    return v.owner if isinstance(v.owner, Block) else v.owner.parent


def sink_redefinition(in_: SSAValue, out: SSAValue, block: Block, rw: Rewriter | None) -> SSAValue:
    """Triton's sinkValueRedefinition: `out`, defined in `block`, redefines `in_`; returns the value that holds
    the redefinition in `in_`'s block, carried out through each enclosing `scf.for` (an iteration argument
    initialized to `in_`) and `scf.if` (a result: `out` from the branch taken, `in_` from the other)."""
    while block is not _block_of(in_):
        op = block.parent_op()
        if isinstance(op, scf.ForOp):
            loop = with_iter_args(op, [in_], [out])
            out = loop.results[-1]
            new = loop
        elif isinstance(op, scf.IfOp):
            taken_then = block is op.true_region.blocks.first
            new = with_if_results(op, [out if taken_then else in_], [in_ if taken_then else out])
            out = new.results[-1]
        else:
            raise CompileError(at_op(op, None, f"FIXME: sinking into unhandled control flow op: {op.name}"))
        if rw is not None:
            rw.modified(new)
        block = new.parent
    return out


# ----------------------------------------------------------------------------- hoisting before the patterns


def _token_of_user(op: Operation) -> SSAValue:
    if op.name in MMAV5 + ("ttng.tmem_load", "ttng.tmem_store") and op.token is not None:
        return op.token
    raise CompileError(at_op(op, None, "unknown TMEM memory user"))


def join_last_uses(token: SSAValue) -> SSAValue:
    """Triton's joinLastMemoryUses: the one token that ends the chain of `token`'s users in its block."""
    last, seen, todo = [], set(), [token]
    while todo:
        t = todo.pop()
        if t in seen:
            continue
        seen.add(t)
        users = [u.operation for u in t.uses]
        if not users:
            last.append(t)
        todo.extend(reversed([_token_of_user(u) for u in users]))
    if len(last) == 1 and last[0].owner.parent is token.owner.parent:
        return last[0]
    raise CompileError(at_op(token.owner, None, "FIXME: can't hoist TMEM alloc with multiple or conditional uses"))


def hoist_alloc(alloc: Operation, loop: scf.ForOp) -> None:
    """Triton's hoistTMEMAlloc: `alloc` before `loop`, its memory carried by the loop's tokens."""
    v_true = _true(loop)
    new = alloc.clone()
    set_operand_group(new, "src", [])
    loop.parent.insert_op_before(new, loop)
    last = join_last_uses(alloc.token)
    loop = with_iter_args(loop, [new.token], [last])
    tok = loop.body.block.args[-1]
    if alloc.src is not None:
        tok = Inserter(alloc, alloc.location).add(_store(new.result, tok, alloc.src, v_true)).owner.token
    alloc.result.replace_all_uses_with(new.result)
    alloc.token.replace_all_uses_with(tok)
    alloc.detach()
    alloc.erase()


def hoist_invariant_inputs(mma: Operation, loop: scf.ForOp) -> None:
    """Triton's hoistInvariantInputs: immutable TMEM operands made in the loop from loop-invariant values."""
    for operand in mma.operands:
        if outside(operand, loop):
            continue
        alloc = operand.owner
        if not (isinstance(alloc, Operation) and alloc.name == "ttng.tmem_alloc") or alloc.result.type.mutable.data:
            continue
        chain, src = [alloc], alloc.src
        while isinstance(src.owner, Operation):
            d = src.owner
            if outside(src, loop) or not (should_move(d) and len(d.operands) == 1):
                break
            chain.append(d)
            src = d.operands[0]
        if not outside(src, loop):
            continue
        for op in reversed(chain):
            op.detach()
            loop.parent.insert_op_before(op, loop)


# ----------------------------------------------------------------------------- the patterns


def combine_store_and_select(store: Operation, rw: Rewriter) -> bool:
    if store.dep is None:
        return False
    sel = store.src.owner
    if not (isinstance(sel, Operation) and sel.name == "arith.select"):
        return False

    def from_tmem(v):
        load = _def(v, "ttng.tmem_load")
        return load is not None and load.src is store.dst and load.token is store.dep

    t, f = from_tmem(sel.lhs), from_tmem(sel.rhs)
    if t == f:
        return False
    em = Inserter(store, sel.location)
    pred = sel.cond
    if t:
        pred = em.add(arith.XOrIOp(pred, em.constant(1, i1)))
        rw.driver.inserted(pred.owner)
        rw.driver.inserted(pred.owner.operands[1].owner)
    new = _store(store.dst, store.dep, sel.rhs if t else sel.lhs, pred)
    rw.replace_with_new(store, new)
    return True


def remove_unused_load(load: Operation, rw: Rewriter) -> bool:
    if load.dep is None or load.result.first_use is not None:
        return False
    rw.replace_value(load.token, load.dep)
    return True


def combine_load_and_store(store: Operation, rw: Rewriter) -> bool:
    if store.dep is None:
        return False
    load = _def(store.dep, "ttng.tmem_load")
    if load is None or load.result is not store.src or load.src is not store.dst:
        return False
    rw.replace_op(store, [load.token])
    return True


def sink_load(load: Operation, rw: Rewriter) -> bool:
    if load.dep is None:
        return False
    loop = load.parent_op()
    while loop is not None and not isinstance(loop, scf.ForOp):
        loop = loop.parent_op()
    if loop is None:
        return False
    dom = common_dominator([u.operation for u in load.result.uses])
    if dom is None or not properly_dominates(load, dom):
        return False
    uses = list(load.token.uses)
    if not all(properly_dominates(u.operation, dom, post=True) for u in uses):
        return False
    nxt = load.next_op
    while nxt is not None and nxt.name == "ttng.tmem_load":
        nxt = nxt.next_op
    if dom is nxt:
        return False
    load.detach()
    dom.parent.insert_op_before(load, dom)
    rw.driver.inserted(load)
    new_token = sink_redefinition(load.dep, load.token, dom.parent, rw)
    if new_token is not load.token:
        for u in uses:
            u.operation.operands = [new_token if i == u.index else v for i, v in enumerate(u.operation.operands)]
            rw.modified(u.operation)
    return True


def combine_store_and_alloc(store: Operation, rw: Rewriter) -> bool:
    if store.dep is None or not _is_one(store.pred):
        return False
    alloc = _def(store.dep, "ttng.tmem_alloc")
    if alloc is None or store.dst is not alloc.result or alloc.parent is not store.parent:
        return False
    d = store.src.owner
    if isinstance(d, Operation) and d.parent is alloc.parent and alloc.is_before_in_block(d):
        return False
    set_operand_group(alloc, "src", [store.src])
    rw.modified(alloc)
    rw.replace_op(store, [alloc.token])
    return True


def hoist_alloc_out_of_if(alloc: Operation, rw: Rewriter) -> bool:
    if alloc.token is None or alloc.src is None:
        return False
    if_op = alloc.parent_op()
    if not isinstance(if_op, scf.IfOp) or not if_op.false_region.blocks:
        return False
    then_y, else_y = if_op.true_region.block.last_op, if_op.false_region.block.last_op
    args = [i for i, (t, e) in enumerate(zip(then_y.operands, else_y.operands))
            if (ld := _def(t, "ttng.tmem_load")) is not None and ld.src is alloc.result and e is alloc.src]
    if not args:
        return False
    alloc.detach()
    if_op.parent.insert_op_before(alloc, if_op)
    rw.driver.inserted(alloc)
    anchor = if_op
    for i in args:
        load = then_y.operands[i].owner
        new = _insert_after(load.clone(), anchor, load.location)
        anchor = new
        rw.driver.inserted(new)
        res = if_op.results[i]
        res.replace_all_uses_with(new.result)
        set_operand_group(new, "dep", [res])
        then_y.operands = [load.token if j == i else v for j, v in enumerate(then_y.operands)]
        else_y.operands = [alloc.token if j == i else v for j, v in enumerate(else_y.operands)]
        res._type = new.token.type  # the result now carries the token (MLIR setType)
    rw.modified(if_op)
    return True


def forward_load(alloc: Operation, rw: Rewriter) -> bool:
    if alloc.token is None or alloc.src is None:
        return False
    load = _def(alloc.src, "ttng.tmem_load")
    if load is None or load.dep is None:
        return False
    if sum(1 for r in load.results for _ in r.uses) != 1 or sum(1 for _ in load.dep.uses) != 1:
        return False
    if alloc.result.type != load.src.type:
        return False
    rw.replace_op(alloc, [load.src, load.dep])
    return True


def _loop_arg(v: SSAValue, loop: scf.ForOp):
    return v if isinstance(v.owner, Block) and v.owner is loop.body.block else None


def rotate_store(store: Operation, rw: Rewriter) -> bool:
    if store.dep is None:
        return False
    loop = store.parent_op()
    if not isinstance(loop, scf.ForOp) or not outside(store.pred, loop) or not outside(store.dst, loop):
        return False
    src = _loop_arg(store.src, loop)
    if src is None or len(list(src.uses)) != 1:
        return False
    tok = _loop_arg(store.dep, loop)
    if tok is None:
        return False
    tok_no, arg_no = tok.index - 1, src.index - 1
    init = _store(store.dst, loop.iter_args[tok_no], loop.iter_args[arg_no], store.pred)
    rw.insert_before(init, loop)
    init.location = store.location
    _set_init(loop, tok_no, init.token)
    y = loop.body.block.last_op
    store.token.replace_all_uses_with(tok)
    store.detach()
    y.parent.insert_op_before(store, y)
    rw.driver.inserted(store)
    set_operand_group(store, "dep", [y.operands[tok_no]])
    y.operands = [store.token if j == tok_no else v for j, v in enumerate(y.operands)]
    set_operand_group(store, "src", [y.operands[arg_no]])
    after = _insert_after(_load(store.dst, loop.results[tok_no], store.src.type), loop, store.location)
    rw.driver.inserted(after)
    loop.results[arg_no].replace_all_uses_with(after.result)
    y.operands = [loop.body.block.args[arg_no + 1] if j == arg_no else v for j, v in enumerate(y.operands)]
    return True


def rotate_load(load: Operation, rw: Rewriter) -> bool:
    if load.dep is None:
        return False
    loop = load.parent_op()
    if not isinstance(loop, scf.ForOp) or not outside(load.src, loop):
        return False
    uses = list(load.result.uses)
    if len(uses) != 1 or not isinstance(uses[0].operation, scf.YieldOp):
        return False
    y = uses[0].operation
    tok_no = next((u.index for u in load.token.uses if u.operation is y), None)
    if tok_no is None:
        return False
    init_alloc = _def(loop.iter_args[tok_no], "ttng.tmem_alloc")
    if init_alloc is None or init_alloc.src is not None:
        return False
    arg_no = uses[0].index
    em = Inserter(loop, load.location)
    v_true = em.constant(1, i1)
    rw.driver.inserted(v_true.owner)
    init = em.add(_store(load.src, init_alloc.token, loop.iter_args[arg_no], v_true)).owner
    rw.driver.inserted(init)
    _set_init(loop, tok_no, init.token)
    y.operands = [load.dep if j == tok_no else v for j, v in enumerate(y.operands)]
    body = loop.body.block
    load.detach()
    body.insert_op_before(load, body.first_op)
    rw.driver.inserted(load)
    tok_arg = body.args[tok_no + 1]
    set_operand_group(load, "dep", [tok_arg])
    for u in list(tok_arg.uses):
        if u.operation is not load:
            u.operation.operands = [load.token if i == u.index else v for i, v in enumerate(u.operation.operands)]
    body.args[arg_no + 1].replace_all_uses_with(load.result)
    after = _insert_after(_load(load.src, loop.results[tok_no], load.result.type), loop, load.location)
    rw.driver.inserted(after)
    loop.results[arg_no].replace_all_uses_with(after.result)
    y.operands = [body.args[arg_no + 1] if j == arg_no else v for j, v in enumerate(y.operands)]
    return True


def _set_init(loop: scf.ForOp, index: int, value: SSAValue) -> None:
    ops = list(loop.operands)
    ops[3 + index] = value
    loop.operands = ops


def split_alloc_init(module: Operation) -> None:
    """A mutable `ttng.tmem_alloc` with a value becomes an alloc without one and a `ttng.tmem_store`."""
    for alloc in [o for o in module.walk() if o.name == "ttng.tmem_alloc"]:
        if not (alloc.result.type.mutable.data and alloc.src is not None):
            continue
        c = _insert_after(arith.ConstantOp(IntegerAttr(-1, i1), i1), alloc, alloc.location)
        store = _insert_after(_store(alloc.result, alloc.token, alloc.src, c.result), c, alloc.location)
        if alloc.token is not None:
            for u in list(alloc.token.uses):
                if u.operation is not store:
                    u.operation.operands = [store.token if i == u.index else v
                                            for i, v in enumerate(u.operation.operands)]
        set_operand_group(alloc, "src", [])


@dataclass(frozen=True)
class HoistTMEMAlloc(Pass):
    """Hoist the tensor-memory allocation of MMA v5 accumulators out of loops and rotate their loads and stores."""

    name = "tritongpu-hoist-tmem-alloc"
    display = "TritonGPUHoistTMEMAlloc"
    summary = "Hoist TMEM allocations out of the loop"

    hoist_out_of_if: bool = option(False, "Hoist TMEM allocations out of if statements")

    def apply(self, ctx, module) -> None:
        if not self.hoist_out_of_if:
            for mma in [o for o in module.walk() if o.name in MMAV5]:
                loop = mma.parent_op()
                if not isinstance(loop, scf.ForOp):
                    continue
                hoist_invariant_inputs(mma, loop)
                alloc = _def(mma.d, "ttng.tmem_alloc")
                if alloc is None or alloc.parent_region() is not mma.parent_region():
                    continue
                hoist_alloc(alloc, loop)
        store = [rotate_store, combine_load_and_store, combine_store_and_select]
        alloc = []
        if self.hoist_out_of_if:
            store.append(combine_store_and_alloc)
            alloc = [hoist_alloc_out_of_if, forward_load]
        patterns = {"ttng.tmem_store": store, "ttng.tmem_alloc": alloc,
                    "ttng.tmem_load": [rotate_load, sink_load, remove_unused_load],
                    "scf.for": [_for_iter_args, _for_trivial]}
        for region in module.regions:
            GreedyDriver(patterns, fold_in_place=fold_in_place).run(region)
        split_alloc_init(module)
