"""nvgpu-warp-specialization: what Triton's Hopper warp specialization pass (`add_hopper_warpspec`, run for
sm80 and sm90 targets before the software pipeliner) leaves behind on the loops that ask for it with
`tl.range(..., warp_specialize=True)` (`tt.warp_specialize`), without partitioning anything.

ttc has no warp specialization: no loop is split into producer and consumer warp groups. What the pass does
is what Triton 3.6's output shows for such loops (TTGIR of kernels it compiles without specializing):

- a `tt.warp_specialize` loop with another `scf.for` nested in it turns software pipelining off for its whole
  function: every `scf.for` there gets `tt.num_stages = 0` (replacing any `tl.range(num_stages=...)`), so
  tritongpu-pipeline leaves them alone;
- a `tt.warp_specialize` loop without nested loops is left as it is (Triton 3.6 specializes such a loop when
  it has a dot, and asserts on the pointer-load dots ttc pipelines; ttc keeps and pipelines it as usual).

The `tt.warp_specialize` attribute itself stays on the loop, as in Triton. Each such loop gets a remark
(MLIR_ENABLE_DIAGNOSTICS=remarks shows it) saying that it is not warp-specialized, and whether pipelining was
turned off.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, i32

from ttc.ir.diagnostics import at_op, emit
from ttc.opt.passmanager import Pass

WARP_SPECIALIZE = "tt.warp_specialize"
NUM_STAGES = "tt.num_stages"


def _has_nested_loop(loop: scf.ForOp) -> bool:
    return any(isinstance(op, scf.ForOp) for op in loop.body.walk())


@dataclass(frozen=True)
class WarpSpecialization(Pass):
    """Leave `tt.warp_specialize` loops unspecialized, turning pipelining off where Triton does."""

    name = "nvgpu-warp-specialization"
    display = "NVGPUWarpSpecialization"
    summary = "tt.warp_specialize loops as Triton leaves them unspecialized (no partitioning; see the docstring)"

    def apply(self, ctx, module) -> None:
        for func in (op for op in module.walk() if op.name == "tt.func"):
            loops = [op for op in func.walk() if isinstance(op, scf.ForOp)]
            marked = [loop for loop in loops if WARP_SPECIALIZE in loop.attributes]
            nested = [loop for loop in marked if _has_nested_loop(loop)]
            for loop in marked:
                why = ("it has loops nested in it: software pipelining is off for every loop of the function "
                       "(tt.num_stages = 0)" if nested else "it is pipelined as an ordinary loop")
                emit(at_op(loop, None, f"loop not warp-specialized (ttc does not partition loops into warp "
                                       f"groups): {why}", "remark"))
            if nested:
                for loop in loops:
                    loop.attributes[NUM_STAGES] = IntegerAttr(0, i32)
