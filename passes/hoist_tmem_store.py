"""nvws-hoist-tmem-store: fold the first `ttng.tmem_store` of a TMEM accumulator into its `ttng.tmem_alloc` and,
where the accumulator's MMA loop starts with `useD` false, hoist that alloc out of the whole warp-specialized loop
nest, threading its token through the loops; as Triton 3.6's NVWS HoistTmemStore.

First, in MLIR's greedy driver with `ttg.convert_layout`'s canonicalizations: a `ttng.tmem_alloc` without source
under a `tt.warp_specialize` loop, with a `ttng.tmem_store` user whose source is made by an op dominating the
alloc, becomes `ttng.tmem_alloc %src` (its token replacing the alloc's and the store's; in the store's
partitions when it has any) and the store goes.

Then, per warp-specialized loop, each alloc with a source whose token feeds, as the only use, an `scf.for` whose
matching iteration argument feeds only an MMAv5 reading `useD` from an iteration argument initialised to the
constant false, moves before the warp-specialized loop (without partitions) when the trip counts of the loops
between do not depend on the enclosing loops' induction variables, or the inner loop provably runs (constant
bounds, or an `llvm.intr.assume` of an `arith.cmpi` of a bound against a constant). Its token then enters every
loop of the nest as a new iteration argument (the loops' partitions and output partitions growing by the
partitions of the MMA loop's token output), and the last token of the chain (through tmem_load, tmem_store and
MMA tokens) is yielded out from the inside. Allocs that cannot move are put in partition 1 (the MMA partition).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, i32
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttc.ir.fold import constant_attr
from ttc.opt.greedy_rewrite import GreedyDriver, fold_in_place
from ttc.ir.inserter import with_iter_args
from ttc.ir.std import CMPI
from ttc.ir.tmem import TMEMAllocOp
from ttc.ir.types import AsyncTokenType
from ttc.passes.insert_aref import MMAV5, WS, set_partition
from ttc.passes.partition_loops import OUTPUTS, ids, outputs
from ttc.ir.convert_layout_patterns import CONVERT_PATTERNS
from ttc.opt.passmanager import Pass


def _parent_for(op: Operation) -> scf.ForOp | None:
    op = op.parent_op()
    while op is not None and not isinstance(op, scf.ForOp):
        op = op.parent_op()
    return op


def under_ws_loop(op: Operation) -> bool:
    loop = _parent_for(op)
    while loop is not None:
        if WS in loop.attributes:
            return True
        loop = _parent_for(loop)
    return False


def dominates(a: Operation, b: Operation) -> bool:
    """`a` properly dominates `b` (structured code): `a` comes before `b`'s ancestor in `a`'s block."""
    top = a.parent.find_ancestor_op_in_block(b) if a.parent is not None else None
    return top is not None and top is not a and a.parent.get_operation_index(a) < a.parent.get_operation_index(top)


def fold_store_into_alloc(alloc: Operation, rw) -> bool:
    if not isinstance(alloc, TMEMAllocOp) or alloc.src is not None or not under_ws_loop(alloc):
        return False
    users = [u.operation for r in alloc.results for u in r.uses]
    for store in users:
        if store.name != "ttng.tmem_store" or not isinstance(store.src.owner, Operation):
            continue
        if not dominates(store.src.owner, alloc):
            continue
        new = TMEMAllocOp.create(operands=[store.src], result_types=[alloc.result.type, AsyncTokenType()])
        new.location = alloc.location
        rw.insert_before(new, alloc)
        if alloc.token is not None:
            rw.replace_value(alloc.token, new.token)
        if store.token is not None:
            rw.replace_value(store.token, new.token)
        if ids(store):
            set_partition(new, ids(store))
        rw.erase(store)
        rw.replace_op(alloc, [new.result, new.token][:len(alloc.results)])
        return True
    return False


def user_loop_and_mma(alloc: TMEMAllocOp):
    """getUniqueUserLoopAndMMA: the loop taking the alloc's token as its only use, and the MMAv5 that is the only
    user of the matching iteration argument."""
    tok = alloc.token
    uses = list(tok.uses) if tok is not None else []
    if len(uses) != 1 or not isinstance(uses[0].operation, scf.ForOp) or uses[0].index < 3:
        return None
    loop = uses[0].operation
    arg = loop.body.block.args[uses[0].index - 2]
    arg_uses = list(arg.uses)
    if len(arg_uses) != 1 or arg_uses[0].operation.name not in MMAV5:
        return None
    return loop, arg_uses[0].operation


def _const_int(v: SSAValue) -> int | None:
    a = constant_attr(v)
    return a.value.data if isinstance(a, IntegerAttr) else None


def can_remove_store(alloc: TMEMAllocOp) -> bool:
    found = user_loop_and_mma(alloc)
    if found is None:
        return False
    loop, mma = found
    use_d = mma.useD
    if not isinstance(use_d, BlockArgument) or use_d.owner is not loop.body.block or use_d.index == 0:
        return False
    init = loop.iter_args[use_d.index - 1]
    c = _const_int(init)
    return c is not None and c == 0 and getattr(init.type, "width", None) is not None and init.type.width.data == 1


_UNSIGNED = {"ult", "ule", "ugt", "uge"}


def _bound(v: SSAValue) -> tuple[int, int]:
    """The signed range of a loop bound: a constant, else what an `llvm.intr.assume` of a comparison of it
    with a constant says, else everything."""
    w = v.type.width.data
    smin, smax = -(1 << (w - 1)), (1 << (w - 1)) - 1
    c = _const_int(v)
    if c is not None:
        return c, c
    for use in v.uses:
        cmp = use.operation
        if cmp.name != "arith.cmpi" or not any(u.operation.name == "llvm.intr.assume" for u in cmp.result.uses):
            continue
        lhs = cmp.lhs is v
        k = _const_int(cmp.rhs if lhs else cmp.lhs)
        if k is None:
            continue
        pred = next(n for n, i in CMPI.items() if i == cmp.predicate.value.data)
        lo, hi = (0, (1 << w) - 1) if pred in _UNSIGNED else (smin, smax)
        if pred in _UNSIGNED:
            k &= (1 << w) - 1
        elif v.owner is not None and getattr(v.owner, "name", "") in ("tt.get_program_id", "tt.get_num_programs"):
            lo = 0
        if pred == "eq":
            lo = hi = k
        elif pred in ("sge", "uge"):
            lo, hi = (k, hi) if lhs else (lo, k)
        elif pred in ("sgt", "ugt"):
            lo, hi = (k + 1, hi) if lhs else (lo, k - 1)
        elif pred in ("sle", "ule"):
            lo, hi = (lo, k) if lhs else (k, hi)
        elif pred in ("slt", "ult"):
            lo, hi = (lo, k - 1) if lhs else (k + 1, hi)
        else:
            continue
        if pred in _UNSIGNED and hi > smax:
            return smin, smax
        return lo, hi
    return smin, smax


def runs_once(loop: scf.ForOp) -> bool:
    return _bound(loop.lb)[1] < _bound(loop.ub)[0]


def depends_on(x: SSAValue, y: SSAValue) -> bool:
    """Whether a user of `y` is `x`'s producer or in its backward slice (not through block arguments)."""
    slice_, work = set(), [x.owner] if isinstance(x.owner, Operation) else []
    while work:
        op = work.pop()
        if op in slice_:
            continue
        slice_.add(op)
        work.extend(v.owner for v in op.operands if isinstance(v.owner, Operation))
    return any(u.operation in slice_ for u in y.uses)


def hoist(alloc: TMEMAllocOp) -> bool:
    nest, loop = [], _parent_for(alloc)
    while loop is not None and WS not in loop.attributes:
        nest.append(loop)
        loop = _parent_for(loop)
    if loop is None:
        return False
    ws = loop
    nest.append(ws)
    found = user_loop_and_mma(alloc)
    if found is None:
        return False
    inner = [found[0], *nest[:-1]]
    for i, f in enumerate(inner):
        for outer in nest[i:]:
            iv = outer.body.block.args[0]
            if (depends_on(f.lb, iv) or depends_on(f.ub, iv)) and not runs_once(f):
                return False
    alloc.detach()
    ws.parent.insert_op_before(alloc, ws)
    alloc.attributes.pop("ttg.partition", None)
    use = next(iter(alloc.token.uses))
    mma_loop, pos = use.operation, use.index - 3
    token_parts = sorted(outputs(mma_loop)[pos])
    token = alloc.token
    nest.reverse()
    for k, f in enumerate(nest):
        n = len(f.iter_args)
        f = nest[k] = with_iter_args(f, [token], [])
        outs = [list(o) for o in outputs(f)] if OUTPUTS in f.attributes else []
        f.attributes[OUTPUTS] = ArrayAttr([DenseArrayBase.from_list(i32, sorted(o)) for o in outs + [token_parts]])
        set_partition(f, sorted(set(ids(f)) | set(token_parts)))
        token = f.body.block.args[n + 1]
    mma_loop.operands[use.index] = token
    token = mma_loop.results[pos]
    while token.uses:
        user = next(iter(token.uses)).operation
        token = user.token
    nest.reverse()
    for f in nest:
        y = f.body.block.last_op
        y.operands = [*y.operands, token]
        set_partition(y, ids(f))
        token = f.results[-1]
    return True


@dataclass(frozen=True)
class HoistTmemStore(Pass):
    """Hoist tmem store before the inner loop to the top level if possible."""

    name = "nvws-hoist-tmem-store"
    summary = "Hoist tmem store before the inner loop to the top level if possible."
    display = "NVWSHoistTmemStore"

    def apply(self, ctx, module) -> None:
        patterns = {**CONVERT_PATTERNS, "ttng.tmem_alloc": [fold_store_into_alloc]}
        for region in module.regions:
            GreedyDriver(patterns, fold_in_place=fold_in_place).run(region)
        for loop in [op for op in module.walk(region_first=True) if isinstance(op, scf.ForOp) and WS in op.attributes]:
            if loop.parent is None:  # replaced while threading a token through it
                continue
            allocs = [op for op in loop.walk(region_first=True)
                      if isinstance(op, TMEMAllocOp) and op.src is not None and can_remove_store(op)]
            for alloc in allocs:
                if not hoist(alloc):
                    set_partition(alloc, [1])
