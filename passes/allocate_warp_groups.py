"""tritongpu-allocate-warp-groups: give each `ttg.warp_specialize` partition its first warp ID, and the
kernel its total number of warps and, where partitions ask for register counts, each warp group's registers;
as Triton's AllocateWarpGroups.

Every `ttg.warp_specialize` is padded with do-nothing partitions (powers of two, largest first) so that all have
the same number of whole extra warp groups, the largest partitioning's rounded up to 4 warps; their requested
registers are 16. Partitions get `warpGroupStartIds` from the module's `ttg.num-warps` on, the largest first, and
the module gets `ttg.total-num-warps`. Where an op has `requestedRegisters` and its partitions fill whole warp
groups, each warp group gets the largest request among its partitions (rounded up to 8; at least 32 where a
partition asserts or prints, a driver requirement), and the default warps get what is left of the register file
(`ttg.maxnreg`, else 64K registers spread over all warps), rounded down to 8, if at least 24 (32 with asserts or
prints): `actualRegisters`, the default region's first, and `ttg.maxnreg` on the module.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i32
from xdsl.ir import Block, Region

from ttc.ir.warp_specialize import WarpReturnOp, WarpSpecializeOp, WarpSpecializePartitionsOp
from ttc.opt.passmanager import Pass

_MIN_REGS_WITH_PRINT = 32  # regions that may call the device's assert or printf need 32 registers


def _min_registers(region: Region, wanted: int) -> int:
    prints = any(op.name in ("tt.assert", "tt.print") for op in region.walk())
    return max(wanted, _MIN_REGS_WITH_PRINT) if prints else wanted


def _array(values) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, list(values))


def _pad(op: WarpSpecializeOp, extra_groups: int) -> None:
    """Add do-nothing partitions until the op's partitions have `extra_groups` * 4 warps."""
    warps = list(op.partitionNumWarps.get_values())
    missing, sizes = extra_groups * 4 - sum(warps), []
    while missing > 0:
        sizes.append(1 << (missing.bit_length() - 1))  # the largest power of two not above it
        missing -= sizes[-1]
    if not sizes:
        return
    old = op.partitions
    regions = []
    for region in old.regions:
        regions.append(Region())
        region.move_blocks(regions[-1])
    for _ in sizes:
        block = Block(arg_types=[v.type for v in op.explicitCaptures])
        block.add_op(WarpReturnOp.create())
        regions.append(Region(block))
    new = WarpSpecializePartitionsOp.create(regions=regions)
    old.parent_block().insert_op_before(new, old)
    old.detach()
    old.erase()
    op.properties["partitionNumWarps"] = _array(warps + sizes)
    if op.requestedRegisters is not None:
        op.properties["requestedRegisters"] = _array(list(op.requestedRegisters.get_values()) + [16] * len(sizes))


def _registers(op: WarpSpecializeOp, base_warps: int, threads: int, maxnreg: int) -> bool:
    """Set `actualRegisters` when the budget allows; True when it did."""
    warps = list(op.partitionNumWarps.get_values())
    if op.requestedRegisters is None or sum(warps) % 4:
        return False
    requested = list(op.requestedRegisters.get_values())
    starts = list(op.warpGroupStartIds.get_values())
    groups: list[list] = []  # [partition indices, largest request, warps]
    for i in sorted(range(len(warps)), key=lambda i: starts[i]):
        if starts[i] % 4 == 0:
            groups.append([[], 0, 0])
        regs = _min_registers(op.partition_regions()[i], requested[i])
        groups[-1][0].append(i)
        groups[-1][1] = max(groups[-1][1], -(-regs // 8) * 8)
        groups[-1][2] += warps[i]
    budget = maxnreg * base_warps * threads + sum((maxnreg - regs) * n * threads for _, regs, n in groups)
    if budget <= 0:
        return False
    leftover = budget // (base_warps * threads) // 8 * 8
    if leftover < _min_registers(op.defaultRegion, 24):
        return False
    actual = [leftover] + [0] * len(warps)
    for members, regs, _ in groups:
        for i in members:
            actual[1 + i] = regs
    op.properties["actualRegisters"] = _array(actual)
    return True


@dataclass(frozen=True)
class AllocateWarpGroups(Pass):
    """Pad warp-specialized partitions to whole warp groups, number their warps, and share out registers."""

    name = "tritongpu-allocate-warp-groups"
    summary = "Allocate warp groups (and registers) to the partitions of ttg.warp_specialize ops"
    display = "TritonGPUAllocateWarpGroups"

    def apply(self, ctx, module) -> None:
        ops = [op for op in module.walk() if isinstance(op, WarpSpecializeOp)]
        extra_groups = -(-max((sum(op.partitionNumWarps.get_values()) for op in ops), default=0) // 4)
        for op in ops:
            _pad(op, extra_groups)
        base = module.attributes["ttg.num-warps"].value.data if "ttg.num-warps" in module.attributes else 4
        for op in ops:
            warps = list(op.partitionNumWarps.get_values())
            starts, at = [0] * len(warps), base
            for i in sorted(range(len(warps)), key=lambda i: -warps[i]):  # stable: ties keep their order
                starts[i], at = at, at + warps[i]
            op.properties["warpGroupStartIds"] = _array(starts)
        total = base + extra_groups * 4
        module.attributes["ttg.total-num-warps"] = IntegerAttr(total, i32)
        if not any(op.requestedRegisters is not None for op in ops):
            return
        threads = module.attributes["ttg.threads-per-warp"].value.data if "ttg.threads-per-warp" in module.attributes else 32
        given = module.attributes.get("ttg.maxnreg")
        maxnreg = given.value.data if given is not None else 64 * 1024 // total // threads // 8 * 8
        for op in ops:
            if _registers(op, base, threads, maxnreg):
                module.attributes["ttg.maxnreg"] = IntegerAttr(maxnreg, i32)
