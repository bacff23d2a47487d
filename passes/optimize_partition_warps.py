"""tritongpu-optimize-partition-warps: shrink the warps of each `ttg.warp_specialize` partition to what its tensors
need, guess each partition's registers, and lay out again the partitions whose number of warps changed; as
Triton 3.6's OptimizePartitionWarps.

A partition's register need is twice the i32 registers of its largest tensor (elements per thread times the
layout's threads and warps, 64 bits for pointers). Partitions are halved, the first one that can in order, and
again from the start, while the tensor still fits in the registers each thread would get from 64K spread evenly
over all warps (the default warps plus the partitions'), never below 1 warp, 2 where a partition has TMA copies,
gathers or scatters, 4 where it has TMEM loads, stores or allocs. `requestedRegisters` becomes 88 for partitions
with tensors and 24 for the others.

A partition with tensors whose number of warps changed is laid out again: its body is moved into a `tt.func
@container` of a module of its own (the module's attributes, the old number of warps; `ttg.warp_return` becomes
`tt.return`, the captures' axis info becomes argument attributes), every tensor loses its layout (not those in
tensor descriptors), convert-triton-to-tritongpu with the new number of warps and enable-source-remat gives them
new ones and relayout-tritongpu those of the TritonNvidiaGPU ops (TMEM loads, stores and allocs, gathers and
scatters); the casts back to layout-less types that source rematerialization left are dropped (their source
replaces them); then coalesce, remove-layout-conversions, optimize-thread-locality, accelerate-matmul and
remove-layout-conversions run, and the body goes back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    Region,
    TensorType,
    i32,
    i64,
)

from ttc.ir.layout_utils import threads_per_warp_of, total_elems_per_thread, with_encoding
from ttc.ir.layouts import BlockedEncoding
from ttc.ir.tt import FuncOp, ReturnOp
from ttc.ir.types import PointerType, bitwidth, encoding
from ttc.ir.warp_specialize import WarpReturnOp, WarpSpecializeOp, lookup_num_warps
from ttc.ir.diagnostics import CompileError, at_op
from ttc.opt.passmanager import Pass, make_pass

TOTAL_REGISTERS = 1 << 16  # per Blackwell SM
MIN_WARPS = {"ttng.async_tma_gather": 2, "ttng.async_tma_scatter": 2, "ttng.async_tma_copy_global_to_local": 2,
             "ttng.tmem_load": 4, "ttng.tmem_store": 4, "ttng.tmem_alloc": 4}


def _tensor_regs(t: TensorType, num_warps: int, threads: int) -> int:
    enc = encoding(t)
    if isinstance(enc, BlockedEncoding):
        threads, num_warps = math.prod(enc["threadsPerWarp"]), math.prod(enc["warpsPerCTA"])
    bits = 64 if isinstance(t.element_type, PointerType) else bitwidth(t.element_type)
    return total_elems_per_thread(t) * threads * num_warps * bits // 32


def _strip(t):
    """`t` without its layout when it is a tensor (tensors in descriptors keep theirs)."""
    if isinstance(t, TensorType) and encoding(t) is not None:
        return with_encoding(t, None)
    return t


def _relayout(module: ModuleOp, axis, ws: WarpSpecializeOp, region: Region, new_warps: int) -> None:
    attrs = dict(module.attributes)
    target = attrs.get("ttg.target")
    if target is None:
        raise CompileError(at_op(module, None, "module missing target specification"))
    # the container: the partition's body as a function of its captures
    body = Region()
    region.move_blocks(body)
    block = body.blocks.first
    arg_attrs = []
    for cap in ws.explicitCaptures:
        fields, info = {}, axis.get(cap)
        if info.contiguity:
            fields = {"tt.contiguity": IntegerAttr(info.contiguity[0], i64),
                      "tt.divisibility": IntegerAttr(info.divisibility[0], i64),
                      "tt.constancy": IntegerAttr(info.constancy[0], i64)}
        arg_attrs.append(DictionaryAttr(fields))
    func = FuncOp.create(regions=[body], properties={
        "sym_name": StringAttr("container"),
        "function_type": FunctionType.from_lists([a.type for a in block.args], []),
        "arg_attrs": ArrayAttr(arg_attrs)})
    for op in list(func.walk()):
        if isinstance(op, WarpReturnOp):
            op.parent_block().insert_op_before(ReturnOp.create(), op)
            op.detach()
            op.erase()
    # no layouts, then new ones
    for b in [bl for r in func.regions for bl in _blocks(r)]:
        for a in b.args:
            a._type = _strip(a.type)
    for op in func.walk():
        for r in op.results:
            r._type = _strip(r.type)
    func.function_type = FunctionType.from_lists([a.type for a in block.args], [])
    container = ModuleOp([func])
    container.attributes.update(attrs)
    container.attributes["ttg.num-warps"] = IntegerAttr(new_warps, i32)
    threads = attrs["ttg.threads-per-warp"].value.data if "ttg.threads-per-warp" in attrs else 32
    ctas = attrs["ttg.num-ctas"].value.data if "ttg.num-ctas" in attrs else 1
    make_pass("convert-triton-to-tritongpu", f"target={target.data} num-warps={new_warps} "
              f"threads-per-warp={threads} num-ctas={ctas} enable-source-remat=true").apply(None, container)
    make_pass("relayout-tritongpu").apply(None, container)
    for cast in [op for op in func.walk() if op.name == "builtin.unrealized_conversion_cast"]:
        cast.results[0].replace_all_uses_with(cast.operands[0])  # the source layout wins
        cast.detach()
        cast.erase()
    for name in ("tritongpu-coalesce", "tritongpu-remove-layout-conversions", "tritongpu-optimize-thread-locality",
                 "tritongpu-accelerate-matmul", "tritongpu-remove-layout-conversions"):
        make_pass(name).apply(None, container)
    # back into the partition
    for op in list(func.walk()):
        if isinstance(op, ReturnOp):
            op.parent_block().insert_op_before(WarpReturnOp.create(), op)
            op.detach()
            op.erase()
    func.body.move_blocks(region)


def _blocks(region: Region):
    for b in region.blocks:
        yield b
        for op in b.ops:
            for r in op.regions:
                yield from _blocks(r)


def optimize(module: ModuleOp, axis, ws: WarpSpecializeOp) -> None:
    regions = ws.partition_regions()
    old = list(ws.partitionNumWarps.get_values())
    threads = threads_per_warp_of(ws)
    regs, floor = [], []
    for region, n in zip(regions, old):
        need, low = 0, 1
        for op in region.walk():
            for t in [v.type for v in op.operands] + [v.type for v in op.results]:
                if isinstance(t, TensorType):
                    need = max(need, _tensor_regs(t, n, threads))
            low = MIN_WARPS.get(op.name, low)
        regs.append(need * 2)
        floor.append(low)
    warps = list(old)
    default = lookup_num_warps(ws) or 4
    changed = True
    while changed:
        changed, total = False, default + sum(warps)
        for i, n in enumerate(warps):
            if n <= floor[i]:
                continue
            if regs[i] // threads // (n // 2) <= TOTAL_REGISTERS // threads // (total - n // 2):
                warps[i], changed = n // 2, True
                break
    for region, new, prev, need in zip(regions, warps, old, regs):
        if new != prev and need:
            _relayout(module, axis, ws, region, new)
    ws.properties["requestedRegisters"] = DenseArrayBase.from_list(i32, [88 if r else 24 for r in regs])
    ws.properties["partitionNumWarps"] = DenseArrayBase.from_list(i32, warps)


@dataclass(frozen=True)
class OptimizePartitionWarps(Pass):
    """Shrink warp-specialized partitions to the warps their tensors need and lay them out again."""

    name = "tritongpu-optimize-partition-warps"
    summary = "Optimize the number of warps assigned to partitions"
    display = "TritonGPUOptimizePartitionWarps"

    def apply(self, ctx, module) -> None:
        ops = [op for op in module.walk() if isinstance(op, WarpSpecializeOp)]
        if not ops:
            return
        from ttc.analysis.axis_info import AxisInfoAnalysis

        axis = AxisInfoAnalysis(module)
        for ws in ops:
            optimize(module, axis, ws)
