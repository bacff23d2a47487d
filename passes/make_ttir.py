"""make-ttir: Triton's `make_ttir` stage (python/triton/backends/nvidia/compiler.py, `CUDABackend.make_ttir`) as
one pass: the frontend's TTIR in, the TTIR Triton hands to `make_ttgir` out.

The passes, in Triton 3.6's order: `-inline`, `-triton-rewrite-tensor-pointer`,
`-triton-rewrite-tensor-descriptor-to-pointer` (only for targets below sm_90: `target=cuda:80`), `-canonicalize`,
`-triton-combine`, `-triton-reorder-broadcast`, `-cse`, `-symbol-dce`, `-triton-loop-unroll`. The pass manager verifies the module after the
whole pipeline; `tt-opt -inline -triton-rewrite-tensor-pointer ...` runs the same passes one at a time, with
a verification after each. The `-canonicalize` after the inliner is skipped where it would change nothing (see
`MakeTTIR.apply`): the output is the same.
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
        from ttc.passes.inline import Inliner

        capability = capability_of(self.target)
        # the canonicalizer right after the inliner changes nothing when the inliner's own canonicalize runs
        # left every function at its fixed point and nothing rewrote them since: no block pointer (the tensor
        # pointer rewrite then changes nothing), no descriptor rewrite (below sm_90), nothing but functions in
        # the module. Triton runs it; it is skipped here only where it is a no-op.
        settled = Inliner().inline(op) and capability >= 90 and _only_functions(op) and not _block_pointers(op)
        for name in PIPELINE[1:]:
            if name == "canonicalize" and settled:
                continue
            make_pass(name).apply(ctx, op)
            if name == "triton-rewrite-tensor-pointer" and capability < 90:
                make_pass("triton-rewrite-tensor-descriptor-to-pointer").apply(ctx, op)


def _only_functions(op) -> bool:
    from ttc.ir import tt

    return all(isinstance(o, tt.FuncOp) for region in op.regions for block in region.blocks for o in block.ops)


def _block_pointers(op) -> bool:
    """Whether a value of the module is a block pointer (`!tt.ptr<tensor<...>>`): an op's result or a block's
    argument."""
    from ttc.passes.rewrite_tensor_pointer import is_tensor_pointer

    for o in op.walk():
        if any(is_tensor_pointer(r.type) for r in o.results):
            return True
        for region in o.regions:
            for block in region.blocks:
                if any(is_tensor_pointer(a.type) for a in block.args):
                    return True
    return False
