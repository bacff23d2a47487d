"""make-ttir: Triton's `make_ttir` stage (python/triton/backends/nvidia/compiler.py, `CUDABackend.make_ttir`) as
one pass: the frontend's TTIR in, the TTIR Triton hands to `make_ttgir` out.

The passes, in Triton 3.6's order: `-inline`, `-triton-rewrite-tensor-pointer`,
`-triton-rewrite-tensor-descriptor-to-pointer` (only for targets below sm_90: `target=cuda:80`), `-canonicalize`,
`-triton-combine`, `-triton-reorder-broadcast`, `-cse`, `-symbol-dce`, `-triton-loop-unroll`. The pass manager verifies the module after the
whole pipeline; `tt-opt -inline -triton-rewrite-tensor-pointer ...` runs the same passes one at a time, with
a verification after each.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttc.opt.passmanager import Pass, make_pass, option

PIPELINE = (
    "inline",
    "triton-rewrite-tensor-pointer",
    "canonicalize",
    "triton-combine",
    "triton-reorder-broadcast",
    "cse",
    "symbol-dce",
    "triton-loop-unroll",
)


def capability_of(target: str) -> int:
    """The compute capability of a `cuda:NN` target (0 for others). Here, not in make_ttgir (which uses it too):
    importing that module brings the TTGIR dialect and its layouts, ~7% of a short `tt-opt -make-ttir`."""
    return int(target.split(":")[1]) if target.startswith("cuda:") else 0


@dataclass(frozen=True)
class MakeTTIR(Pass):
    """Triton's make_ttir pipeline: inline, rewrite tensor pointers, canonicalize, combine, reorder broadcasts,
    CSE, symbol DCE, unroll loops."""

    name = "make-ttir"
    display = "MakeTTIR"
    summary = "Triton's make_ttir stage: " + ", ".join(PIPELINE)

    target: str = option("cuda:90", "the target: below cuda:90, tensor descriptors become pointer loads")

    def apply(self, ctx, op) -> None:
        capability = capability_of(self.target)
        for name in PIPELINE:
            make_pass(name).apply(ctx, op)
            if name == "triton-rewrite-tensor-pointer" and capability < 90:
                make_pass("triton-rewrite-tensor-descriptor-to-pointer").apply(ctx, op)
