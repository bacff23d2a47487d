"""convert-scf-to-cf: lower structured control flow to blocks and branches (MLIR's SCFToControlFlow pass), as
MLIR lays the blocks out, outer ops first:

- `scf.for`: the block is split at the loop; the loop's entry block becomes the condition block (induction
  variable and iteration values as its arguments, `arith.cmpi slt` (`ult` for `unsignedCmp`) of the induction
  variable against the upper bound, `cf.cond_br` to the body or past the loop, carrying those of the loop's
  attributes whose values belong to the llvm dialect); the body ends by stepping the induction variable (`arith.addi`) and branching back with the
  yielded values; the code before the loop branches to the condition with the lower bound and the initial
  values; the loop's results are the condition block's arguments;
- `scf.if`: `cf.cond_br` to the then and else blocks (or past the op when there is no else), each branching to
  a continuation block whose arguments are the results;
- `scf.while`: a branch into the "before" blocks, whose `scf.condition` becomes a `cf.cond_br` into the "after"
  blocks or past the loop, the "after" blocks branching back; when the "after" region only forwards its
  arguments (a do-while), the condition branches straight back to the "before" blocks;
- `scf.execute_region`: its blocks inlined, its yields branching to a continuation block.

Other scf ops (`scf.index_switch`, `scf.parallel`, `scf.forall`) are not lowered: an error says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, cf
from xdsl.ir import Block, Operation

from ttc.ir.diagnostics import CompileError, at_op
from ttc.opt.passmanager import Pass

LOWERED = ("scf.for", "scf.if", "scf.while", "scf.execute_region")
UNSUPPORTED = ("scf.index_switch", "scf.parallel", "scf.forall")


def _at(op: Operation, new: Operation) -> Operation:
    new.location = op.location
    return new


def _split_after(op: Operation) -> Block:
    """Split `op`'s block after it: the ops that follow go to a new block right after it."""
    block = op.parent_block()
    if op.next_op is not None:
        return block.split_before(op.next_op)
    tail = Block()
    block.parent.insert_block_after(tail, block)
    return tail


def _replace(op: Operation, values) -> None:
    for old, new in zip(op.results, values):
        old.replace_all_uses_with(new)
    op.parent_block().erase_op(op)


def _lower_for(op: Operation) -> None:
    init_block = op.parent_block()
    end = _split_after(op)
    cond = op.body.blocks.first
    iv = cond.args[0]
    body_first = cond.split_before(cond.first_op)
    last = op.body.blocks.last
    yield_op = last.last_op
    step = _at(op, arith.AddiOp(iv, op.step))
    last.insert_op_before(step, yield_op)
    last.insert_op_before(_at(op, cf.BranchOp(cond, step.result, *yield_op.operands)), yield_op)
    last.erase_op(yield_op)
    op.body.move_blocks_before(end)
    init_block.insert_op_before(_at(op, cf.BranchOp(cond, op.lb, *op.operands[3:])), op)
    pred = "ult" if "unsignedCmp" in op.attributes or "unsignedCmp" in op.properties else "slt"
    cmp = _at(op, arith.CmpiOp(iv, op.ub, pred))
    cond.add_op(cmp)
    br = _at(op, cf.ConditionalBranchOp(cmp.result, body_first, (), end, ()))
    for k, v in op.attributes.items():
        if getattr(v, "name", "").startswith("llvm."):  # attributes of the llvm dialect (loop annotations)
            br.attributes[k] = v
    cond.add_op(br)
    _replace(op, cond.args[1:])


def _lower_if(op: Operation) -> None:
    cond_block = op.parent_block()
    remaining = _split_after(op)
    if op.results:
        cont = Block(arg_types=[r.type for r in op.results])
        cond_block.parent.insert_block_before(cont, remaining)
        cont.add_op(_at(op, cf.BranchOp(remaining)))
    else:
        cont = remaining
    targets = []
    for region in (op.true_region, op.false_region):
        if not region.blocks:
            targets.append(cont)
            continue
        targets.append(region.blocks.first)
        last = region.blocks.last
        term = last.last_op
        last.insert_op_before(_at(op, cf.BranchOp(cont, *term.operands)), term)
        last.erase_op(term)
        region.move_blocks_before(cont)
    cond_block.insert_op_after(_at(op, cf.ConditionalBranchOp(op.cond, targets[0], (), targets[1], ())), op)
    _replace(op, cont.args)


def _forwards_args(block: Block) -> bool:
    term = block.last_op
    return block.first_op is term and term is not None and list(term.operands) == list(block.args)


def _lower_while(op: Operation) -> None:
    current = op.parent_block()
    cont = _split_after(op)
    before, after = op.before_region.blocks.first, op.after_region.blocks.first
    before_last = op.before_region.blocks.last
    condition = before_last.last_op
    args = list(condition.operands)[1:]
    if _forwards_args(after) and len(op.after_region.blocks) == 1:  # do-while
        before_last.insert_op_before(_at(op, cf.ConditionalBranchOp(condition.operands[0], before, args, cont, ())),
                                     condition)
        before_last.erase_op(condition)
        op.before_region.move_blocks_before(cont)
    else:
        before_last.insert_op_before(_at(op, cf.ConditionalBranchOp(condition.operands[0], after, args, cont, ())),
                                     condition)
        before_last.erase_op(condition)
        after_last = op.after_region.blocks.last
        yld = after_last.last_op
        after_last.insert_op_before(_at(op, cf.BranchOp(before, *yld.operands)), yld)
        after_last.erase_op(yld)
        op.after_region.move_blocks_before(cont)
        op.before_region.move_blocks_before(after)
    current.insert_op_after(_at(op, cf.BranchOp(before, *op.operands)), op)
    _replace(op, args)


def _lower_execute_region(op: Operation) -> None:
    block = op.parent_block()
    remaining = _split_after(op)
    if op.results:
        cont = Block(arg_types=[r.type for r in op.results])
        block.parent.insert_block_before(cont, remaining)
        cont.add_op(_at(op, cf.BranchOp(remaining)))
    else:
        cont = remaining
    entry = op.regions[0].blocks.first
    for b in list(op.regions[0].blocks):
        term = b.last_op
        if term is not None and term.name == "scf.yield":
            b.insert_op_before(_at(op, cf.BranchOp(cont, *term.operands)), term)
            b.erase_op(term)
    op.regions[0].move_blocks_before(cont)
    block.insert_op_after(_at(op, cf.BranchOp(entry)), op)
    _replace(op, cont.args)


LOWERINGS = {"scf.for": _lower_for, "scf.if": _lower_if, "scf.while": _lower_while,
             "scf.execute_region": _lower_execute_region}


@dataclass(frozen=True)
class ConvertSCFToCF(Pass):
    """Lower scf.for, scf.if, scf.while and scf.execute_region to cf branches."""

    name = "convert-scf-to-cf"
    display = "SCFToControlFlowPass"
    summary = "Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG"

    def apply(self, ctx, module) -> None:
        while True:
            op = next((o for o in module.walk() if o.name in LOWERED + UNSUPPORTED), None)
            if op is None:
                return
            if op.name in UNSUPPORTED:
                raise CompileError(at_op(op, None, f"failed to legalize operation '{op.name}' that was explicitly "
                                                   "marked illegal"))
            LOWERINGS[op.name](op)
