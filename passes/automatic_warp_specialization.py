"""tritongpu-automatic-warp-specialization: warp-specialize the loops marked `tt.warp_specialize`, composing the
steps as Triton 3.6's AutomaticWarpSpecialization does: tritongpu-partition-scheduling, nvws-hoist-tmem-store,
nvws-insert-aref, nvws-insert-tmem-aref, sccp, cse, nvws-lower-aref (`num-stages` slots for TMA arefs),
tritongpu-partition-loops, nvws-lower-warp-group and tritongpu-schedule-loops.

Last, tensor descriptors made inside warp-specialized loops are multi-buffered (the pipeliner cannot do it for
descriptors updated in nested loops): each loop of a warp-specialized partition that makes descriptors gets
`num-stages + 1` tensormaps per descriptor in global scratch, written in turn (passes/pipeliner/descriptors.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf

from ttc.passes.pipeliner.descriptors import multibuffer_descriptors
from ttc.passes.cse import CSE
from ttc.passes.hoist_tmem_store import HoistTmemStore
from ttc.passes.insert_aref import InsertAref
from ttc.passes.insert_tmem_aref import InsertTmemAref
from ttc.passes.lower_aref import LowerAref
from ttc.passes.lower_warp_group import LowerWarpGroup
from ttc.passes.partition_loops import PartitionLoops
from ttc.passes.partition_scheduling import PartitionScheduling
from ttc.passes.sccp import SCCP
from ttc.passes.schedule_loops import ScheduleLoops
from ttc.opt.passmanager import Pass, option


@dataclass(frozen=True)
class AutomaticWarpSpecialization(Pass):
    """Automatic warp specialization of loops."""

    name = "tritongpu-automatic-warp-specialization"
    summary = "automatic warp specialization of loops"
    display = "TritonGPUAutomaticWarpSpecialization"
    num_stages: int = option(3, "number of pipeline stages")

    def apply(self, ctx, module) -> None:
        for p in (PartitionScheduling(), HoistTmemStore(), InsertAref(), InsertTmemAref(), SCCP(), CSE(),
                  LowerAref(num_stages=self.num_stages), PartitionLoops(), LowerWarpGroup(), ScheduleLoops()):
            p.apply(ctx, module)
        loops = []
        for ws in [op for op in module.walk() if isinstance(op, scf.ForOp) and "tt.warp_specialize" in op.attributes]:
            for make in [op for op in ws.walk() if op.name == "tt.make_tensor_descriptor"]:
                loop = make.parent_op()
                while loop is not None and not isinstance(loop, scf.ForOp):
                    loop = loop.parent_op()
                if loop is not None and loop not in loops:
                    loops.append(loop)
        for loop in loops:
            multibuffer_descriptors(loop, self.num_stages + 1)
