"""make-ttgir: Triton's `make_ttgir` stage (backends/nvidia/compiler.py), as one pass.

The passes, in Triton's order for `cuda:80`..`cuda:99` targets (the ones marked * are Triton passes for
prefetching, Blackwell memory and the like, which are not part of this pipeline and are skipped; for the kernels
ttc compiles they leave the IR unchanged):

    convert-triton-to-tritongpu{target num-warps threads-per-warp=32 num-ctas}, tritongpu-coalesce,
    *f32-dot-tc, *plan-cta, tritongpu-remove-layout-conversions, tritongpu-optimize-thread-locality,
    tritongpu-accelerate-matmul, tritongpu-remove-layout-conversions, tritongpu-optimize-dot-operands,
    triton-nvidia-optimize-descriptor-encoding, triton-loop-aware-cse, tritongpu-fuse-nested-loops, canonicalize,
    loop-invariant-code-motion, canonicalize, tritongpu-combine-tensor-select-and-if, nvgpu-warp-specialization,
    tritongpu-assign-latencies{num-stages}, tritongpu-schedule-loops, tritongpu-pipeline{num-stages}, canonicalize,
    cse, *prefetch,
    tritongpu-optimize-dot-operands, tritongpu-coalesce-async-copy, *optimize-tmem-layouts, triton-nvidia-tma-lowering (sm90),
    tritongpu-remove-layout-conversions, *interleave-tmem, tritongpu-reduce-data-duplication,
    tritongpu-reorder-instructions, triton-loop-aware-cse, symbol-dce, triton-nvidia-gpu-fence-insertion (sm90),
    *lower-mma, sccp,
    cse, canonicalize

For other targets (below sm80) Triton runs loop-invariant-code-motion alone in place of the sm80/sm90 group.
`num-stages` configures the software pipeline, built as Triton 3.6 builds it: latencies for the loads that feed
dots, a coarse stage/cluster schedule, then cp.async (or, for descriptor loads on sm90, TMA with mbarriers) into
multi-buffers, the modulo-scheduled loop with a predicated prologue, and on sm90 asynchronous wgmma with
Triton's waits; the TTGIR equals Triton's for the matmul, attention and TMA kernels of the fixtures. Shared memory is not
allocated here: Triton does that in make_llir (`-allocate-shared-memory`).

tritongpu-accelerate-matmul gives dots Triton's MMA v2 layouts (`mma.sync` m16n8k8/k16/k32) on sm80-89: f16/bf16 ->
f32, f16 -> f16, tf32, i8 -> i32 and fp8 -> f32 (before sm89 e5m2 only, upcast to f16); on sm90 these dots (and
fp8 -> f16) get its MMA v3 (wgmma) form instead, as Triton's supportMMA(dot, 3) decides. Other dots that
Triton would put on tensor cores (e4m3 before sm89; f32 dots of tf32x3/bf16x3/bf16x6 precision, which Triton's
f32-dot-tc splits; dots smaller than one instruction's tile) stay on a blocked layout and run on FMA units: the
pipeline warns at each such dot, once, after its passes, saying why (MLIR_ENABLE_DIAGNOSTICS=warnings shows it).
Dots that Triton also keeps on FMA (f32 with ieee input precision, f64, targets before sm80) get no warning.

Loop hints (`tl.range(...)` attributes on `scf.for`) are kept on the loops as Triton keeps them; they act where
the passes here can: `tt.num_stages` (per-loop stage count, tritongpu-pipeline), `tt.warp_specialize`
(nvgpu-warp-specialization: no partitioning, pipelining off as in Triton's output). `tt.loop_unroll_factor` was
used by make-ttir. `tt.disallow_acc_multi_buffer` concerns Blackwell accumulators and needs nothing here.
`tt.flatten` (tritongpu-fuse-nested-loops) fuses a loop nest into one loop, which tritongpu-pipeline then pipelines;
a nest it cannot fuse (more than one inner loop, inner bounds that depend on the outer loop, an op with regions
between the loops) gets a remark (MLIR_ENABLE_DIAGNOSTICS=remarks).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IntegerType

from ttc.ir.diagnostics import at_op, emit, reported
from ttc.ir.layouts import BlockedEncoding
from ttc.ir.attr_printer import attr_text
from ttc.ir.tt import INPUT_PRECISION
from ttc.ir.types import elt, encoding, shape_of
from ttc.lowering.mma_v2 import mma_v2_kind
from ttc.opt.passmanager import Pass, make_pass, option
from ttc.passes.convert_triton_to_tritongpu import check_counts, check_target
from ttc.passes.make_ttir import capability_of


def pipeline(target: str, num_warps: int, num_ctas: int, num_stages: int = 3) -> list[tuple[str, str]]:
    """(pass name, options) of the pipeline for `target`."""
    capability = capability_of(target)
    conv = f"target={target} num-warps={num_warps} threads-per-warp=32 num-ctas={num_ctas}"
    steps = [
        ("convert-triton-to-tritongpu", conv),
        ("tritongpu-coalesce", ""),
        ("tritongpu-remove-layout-conversions", ""),
        ("tritongpu-optimize-thread-locality", ""),
        ("tritongpu-accelerate-matmul", ""),
        ("tritongpu-remove-layout-conversions", ""),
        ("tritongpu-optimize-dot-operands", ""),
        ("triton-nvidia-optimize-descriptor-encoding", ""),
        ("triton-loop-aware-cse", ""),
    ]
    if capability // 10 in (8, 9):
        steps += [
            ("tritongpu-fuse-nested-loops", ""),
            ("canonicalize", ""),
            ("loop-invariant-code-motion", ""),
            ("canonicalize", ""),
            ("tritongpu-combine-tensor-select-and-if", ""),
            ("nvgpu-warp-specialization", ""),
            ("tritongpu-assign-latencies", f"num-stages={num_stages}"),
            ("tritongpu-schedule-loops", ""),
            ("tritongpu-pipeline", f"num-stages={num_stages}"),
            ("canonicalize", ""),
            ("cse", ""),
            ("tritongpu-optimize-dot-operands", ""),
            ("tritongpu-coalesce-async-copy", ""),
        ]
    else:
        steps += [("loop-invariant-code-motion", ""), ("canonicalize", ""), ("cse", "")]
    if capability >= 90:
        steps += [("triton-nvidia-tma-lowering", "")]
    steps += [
        ("tritongpu-remove-layout-conversions", ""),
        ("tritongpu-reduce-data-duplication", ""),
        ("tritongpu-reorder-instructions", ""),
        ("triton-loop-aware-cse", ""),
        ("symbol-dce", ""),
    ]
    if capability // 10 == 9:
        steps += [("triton-nvidia-gpu-fence-insertion", f"compute-capability={capability}")]
    steps += [
        ("sccp", ""),
        ("cse", ""),
        ("canonicalize", ""),
    ]
    return steps


_THROUGH = ("tt.fp_to_fp", "arith.extf", "ttg.convert_layout", "ttg.local_load", "ttg.local_alloc")


def operand_elt(v):
    """The element type a dot operand had before the FMA path's upcasts (tt.fp_to_fp, arith.extf; through
    layout conversions and shared-memory round trips): accelerate-matmul upcasts operands of dots it leaves on
    FMA units, and the warning is about the dot as written."""
    while v.owner is not None and getattr(v.owner, "name", None) in _THROUGH:
        v = v.owner.operands[0]
    return elt(v.type)


def triton_uses_mma(dot, capability: int) -> bool:
    """Whether Triton's accelerate-matmul would give `dot` a tensor-core layout (its supportMMA): sm80 and
    later; fp8, f16, bf16 or i8 operands, or f32 ones with a tf32/bf16 input precision (f32-dot-tc splits the
    x3/x6 ones into such dots); not f32 with ieee precision, nor f64."""
    if capability < 80:
        return False
    a = operand_elt(dot.a)
    if isinstance(a, Float32Type):
        return dot.inputPrecision.value.data != INPUT_PRECISION["ieee"]
    if isinstance(a, (Float16Type, BFloat16Type)):
        return True
    if isinstance(a, IntegerType):
        return a.width.data == 8
    return attr_text(a).startswith("f8")


def fma_dot_message(dot, capability: int) -> str:
    a, b, d = shape_of(dot.a.type), shape_of(dot.b.type), shape_of(dot.d.type)
    a_elt, b_elt = operand_elt(dot.a), operand_elt(dot.b)
    types = " x ".join(attr_text(t) for t in (a_elt, b_elt)) + " -> " + attr_text(elt(dot.d.type))
    names = {v: k for k, v in INPUT_PRECISION.items()}
    precision = names.get(dot.inputPrecision.value.data, "?")
    if isinstance(a_elt, Float32Type):
        types += ", " + precision
    batch = f"{d[0]}x" if len(d) == 3 else ""
    if isinstance(a_elt, Float32Type) and precision not in ("tf32", "ieee"):
        why = (f"Triton splits an f32 dot of {precision} precision into several tf32/bf16 tensor-core dots "
               "(its f32-dot-tc pass), which ttc does not do")
    else:
        why = mma_v2_kind(a_elt, b_elt, elt(dot.d.type), dot.inputPrecision.value.data,
                          capability, (d[-2], d[-1], a[-1]))
        why = why if isinstance(why, str) else "its layouts did not take the MMA v2 layout"
    return f"tt.dot {batch}{a[-2]}x{b[-1]}x{a[-1]} ({types}) runs on FMA units: {why}, so make-ttgir keeps it on a blocked layout"


@dataclass(frozen=True)
class MakeTTGIR(Pass):
    """Triton's make_ttgir: TTIR to optimized TTGIR (memory-bound passes, MMA v2 / v3 tensor-core layouts,
    software pipelining of dot operand loads in the sm80 and sm90 forms, asynchronous wgmma, TMA lowering)."""

    name = "make-ttgir"
    display = "MakeTTGIR"
    summary = "Triton's make_ttgir pass pipeline (MMA v2 / v3 dots, cp.async pipelining, TMA lowering): TTIR -> TTGIR"

    target: str = option("cuda:90", "the target, e.g. cuda:90")
    num_warps: int = option(4, "number of warps")
    num_stages: int = option(3, "number of software pipelining stages (tritongpu-pipeline)")
    num_ctas: int = option(1, "number of CTAs in a cluster")

    def __post_init__(self):
        check_target(self.target, self.name)
        if not self.target.startswith("cuda:"):
            raise ValueError(f"'{self.name}' supports cuda targets only, got '{self.target}'")
        check_counts(self.num_warps, 32, self.num_ctas)
        if self.num_stages < 0:
            raise ValueError(f"option 'num-stages' must not be negative, got {self.num_stages}")

    def passes(self) -> list[Pass]:
        return [make_pass(n, o) for n, o in pipeline(self.target, self.num_warps, self.num_ctas, self.num_stages)]

    def apply(self, ctx, module) -> None:
        from ttc.ir.tma import DESCRIPTOR_OP_NAMES, first_unsupported

        if capability_of(self.target) < 90:  # make-ttir (Triton's make_ttir) rewrites descriptors to pointers there
            hint = f" (run -make-ttir with target={self.target} first: it rewrites descriptors to pointers there)"
            if (err := first_unsupported(module, DESCRIPTOR_OP_NAMES, f"make-ttgir for {self.target}",
                                         hint=hint)) is not None:
                raise err
        for p in self.passes():
            p.apply(ctx, module)
        if reported("remark"):
            for op in module.walk():
                if op.name == "scf.for" and "tt.flatten" in op.attributes and any(
                        o.name == "scf.for" for o in op.regions[0].walk()):
                    emit(at_op(op, None, "loop nest not flattened despite tt.flatten: tritongpu-fuse-nested-loops "
                                         "fuses one inner loop whose bounds do not depend on the outer loop", "remark"))
        if not reported("warning"):
            return
        capability = capability_of(self.target)
        for op in module.walk():
            if (op.name == "tt.dot" and isinstance(encoding(op.d.type), BlockedEncoding)
                    and triton_uses_mma(op, capability)):
                emit(at_op(op, None, fma_dot_message(op, capability), "warning"))
