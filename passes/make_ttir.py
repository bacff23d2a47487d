"""make-ttir: Triton's `make_ttir` stage (python/triton/backends/nvidia/compiler.py, `CUDABackend.make_ttir`) as
one pass: the frontend's TTIR in, the TTIR Triton hands to `make_ttgir` out.

The passes, in Triton 3.6's order: `-inline`, `-triton-rewrite-tensor-pointer`, `-canonicalize`,
`-triton-combine`, `-triton-reorder-broadcast`, `-cse`, `-symbol-dce`, `-triton-loop-unroll`. (Triton also
runs `rewrite_tensor_descriptor_to_pointer` after the tensor pointer rewrite for GPUs below sm_90; this IR has
no tensor descriptor ops, so there is nothing for it to do.) The pass manager verifies the module after the
whole pipeline; `tt-opt -inline -triton-rewrite-tensor-pointer ...` runs the same passes one at a time, with
a verification after each.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttc.passmanager import Pass, make_pass

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


@dataclass(frozen=True)
class MakeTTIR(Pass):
    """Triton's make_ttir pipeline: inline, rewrite tensor pointers, canonicalize, combine, reorder broadcasts,
    CSE, symbol DCE, unroll loops."""

    name = "make-ttir"
    display = "MakeTTIR"
    summary = "Triton's make_ttir stage: " + ", ".join(PIPELINE)

    def apply(self, ctx, op) -> None:
        for name in PIPELINE:
            make_pass(name).apply(ctx, op)
