"""nvws-lower-warp-group: turn each `nvws.warp_group` into a `ttg.warp_specialize`, as Triton 3.6's NVWS
LowerWarpGroup (a step of tritongpu-automatic-warp-specialization, after tritongpu-partition-loops).

The first region becomes the default region (its `nvws.warp_group.yield` a `ttg.warp_yield`) when its number of
warps is the module's `ttg.num-warps`; otherwise the default region only yields, and a warp group with results is
left as it is. The other regions become partitions with their numbers of warps. Partitions are isolated from
above, so what they use from outside becomes an explicit capture (a block argument of every partition), except:
constants and other pure ops making tensors are copied into every partition (with what they use, recursively),
and a tensor made otherwise goes through shared memory: a `ttg.local_alloc` (unswizzled layout in the tensor's
order) before the `ttg.warp_specialize`, captured, and a `ttg.local_load` at the start of every partition.

The rewrite runs in MLIR's greedy driver, as in Triton, so constants are folded and ops left unused (the copied
constants' originals) are erased module-wide.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import ConstantLike, is_side_effect_free, is_speculatable

from ttc.opt.greedy_rewrite import GreedyDriver, Rewriter, fold_in_place
from ttc.ir import ttg
from ttc.ir.layout_utils import get_order
from ttc.ir.layouts import SwizzledSharedEncoding
from ttc.ir.nvws import WarpGroupOp
from ttc.ir.types import encoding
from ttc.ir.warp_specialize import WarpReturnOp, WarpSpecializeOp, WarpSpecializePartitionsOp, WarpYieldOp
from ttc.passes.tma_lowering import memdesc
from ttc.opt.passmanager import Pass


def _module_num_warps(op: Operation) -> int | None:
    while op is not None:
        a = op.attributes.get("ttg.num-warps")
        if op.name == "builtin.module" and isinstance(a, IntegerAttr):
            return a.value.data
        op = op.parent_op()
    return None


def _defined_above(region: Region) -> list[SSAValue]:
    """getUsedValuesDefinedAbove: the values the region's ops use from outside it, in walk (post-order) order."""
    found = {}
    for block in region.blocks:
        for top in block.ops:
            for op in top.walk(region_first=True):
                for v in op.operands:
                    if not region.is_ancestor(v.owner):
                        found.setdefault(v, None)
    return list(found)


def _pure(op: Operation) -> bool:
    return op.name.startswith(("arith.", "math.")) and op.name not in ("arith.divsi", "arith.divui", "arith.remsi",
                                                                        "arith.remui", "arith.ceildivsi",
                                                                        "arith.ceildivui", "arith.floordivsi") \
        or is_side_effect_free(op) and is_speculatable(op)


def _replace_in(region: Region, old: SSAValue, new: SSAValue) -> None:
    old.replace_uses_with_if(new, lambda u: region.is_ancestor(u.operation))


def lower(wg: Operation, rw: Rewriter) -> bool:
    if not isinstance(wg, WarpGroupOp):
        return False
    regions, warps = list(wg.regions), list(wg.numWarps.get_values())
    default = None
    if warps and warps[0] == _module_num_warps(wg):
        default, regions, warps = regions[0], regions[1:], warps[1:]
    elif wg.results:
        return False  # Triton's pattern fails: results need a default region

    captures = []
    for region in regions:
        for v in _defined_above(region):
            if v not in captures:
                captures.append(v)
    starts = [r.blocks.first for r in regions]
    anchors = [b.first_op for b in starts]
    maps = [{} for _ in regions]

    def insert(i: int, op: Operation) -> None:
        if anchors[i] is None:
            starts[i].add_op(op)
        else:
            starts[i].insert_op_before(op, anchors[i])

    inputs, to_clone, queue = [], {}, list(captures)
    while queue:
        v = queue.pop(0)
        d = v.owner if isinstance(v.owner, Operation) else None
        if d is not None and _pure(d) and (d.has_trait(ConstantLike) or isinstance(v.type, TensorType)):
            queue += list(d.operands)
            to_clone[d] = None
        elif isinstance(v.type, TensorType):
            enc = SwizzledSharedEncoding.make(vec=1, perPhase=1, maxPhase=1, order=get_order(encoding(v.type)))
            alloc = ttg.LocalAllocOp.create(operands=[v], result_types=[memdesc(v.type.get_shape(),
                                                                                v.type.element_type, enc, False)])
            alloc.location = wg.location
            rw.insert_before(alloc, wg)
            for i, region in enumerate(regions):
                load = ttg.LocalLoadOp.create(operands=[alloc.results[0]], result_types=[v.type])
                load.location = wg.location
                insert(i, load)
                _replace_in(region, v, load.results[0])
                maps[i][v] = load.results[0]
            inputs.append(alloc.results[0])
        else:
            inputs.append(v)

    order = {op: n for n, op in enumerate(wg.get_toplevel_object().walk())}  # defs before uses
    for i, region in enumerate(regions):
        for op in sorted(to_clone, key=lambda o: order.get(o, -1)):
            new = op.clone(value_mapper=dict(maps[i]))
            insert(i, new)
            maps[i][op.results[0]] = new.results[0]
            _replace_in(region, op.results[0], new.results[0])

    default_block = Block()
    if default is not None:
        src = default.blocks.first
        term = src.last_op
        y = WarpYieldOp.create(operands=list(term.operands))
        for op in list(src.ops)[:-1]:
            op.detach()
            default_block.add_op(op)
        default_block.add_op(y)
    else:
        default_block.add_op(WarpYieldOp.create())
    new_regions = []
    for region in regions:
        body = Block(arg_types=[v.type for v in inputs])
        src = region.blocks.first
        for op in list(src.ops)[:-1]:
            op.detach()
            body.add_op(op)
        body.add_op(WarpReturnOp.create())
        out = Region(body)
        for v, arg in {v: a for v, a in zip(inputs, body.args)}.items():
            _replace_in(out, v, arg)
        new_regions.append(out)
    holder = WarpSpecializePartitionsOp.create(regions=new_regions)
    ws = WarpSpecializeOp.create(operands=inputs, result_types=[r.type for r in wg.results],
                                 properties={"partitionNumWarps": DenseArrayBase.from_list(i32, warps)},
                                 regions=[Region(default_block), Region(Block([holder]))])
    ws.location = wg.location
    rw.insert_before(ws, wg)
    rw.replace_op(wg, ws.results)
    return True


@dataclass(frozen=True)
class LowerWarpGroup(Pass):
    """Lower `nvws.warp_group` ops to `ttg.warp_specialize`."""

    name = "nvws-lower-warp-group"
    summary = "Convert nvws.warp_group to ttg.warp_specialize"
    display = "NVWSLowerWarpGroup"

    def apply(self, ctx, module) -> None:
        for region in module.regions:
            GreedyDriver({"nvws.warp_group": [lower]}, fold_in_place=fold_in_place).run(region)
