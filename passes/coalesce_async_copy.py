"""tritongpu-coalesce-async-copy (Triton's CoalesceAsyncCopy, its ClipAsyncCopySizePerThread pattern): a
`ttg.async_copy_global_to_local` whose source layout gives a thread more contiguous elements than its swizzled
buffer keeps together (the layout's `vec`) would need several cp.async per thread's run; its pointers, mask and
other are converted to a layout with sizePerThread clipped to `vec` (lanes and warps spread again over the
tensor) and the copy is rebuilt on them, as Triton's rewriter rebuilds it (without the pipeliner's
`contiguity` attribute). Unswizzled buffers in the copy's order (maxPhase 1) keep any run contiguous.

Triton runs it after the pipeliner and the canonicalize / loop-aware CSE that follow it, so the conversions of a
shared splat mask appear next to each copy; tritongpu-remove-layout-conversions later rematerializes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.ir import Attribute, Operation

from ttc.ir import ttg
from ttc.ir.inserter import Inserter
from ttc.ir.layout_utils import with_encoding
from ttc.ir.layouts import blocked_for_shape
from ttc.ir.layouts import BlockedEncoding, SwizzledSharedEncoding
from ttc.ir.types import encoding, shape_of
from ttc.opt.passmanager import Pass


def clipped_copy_layout(src: Attribute, shared: Attribute, shape) -> BlockedEncoding | None:
    """The source layout a copy from `src` into a buffer in `shared` takes; None when no clipping is needed."""
    if not isinstance(src, BlockedEncoding) or not isinstance(shared, SwizzledSharedEncoding):
        return None
    order, spt = list(src["order"]), list(src["sizePerThread"])
    if shared["maxPhase"] == 1 and list(shared["order"]) == order:
        return None  # unswizzled in the same order: a thread's whole run stays contiguous
    if spt[order[0]] <= shared["vec"]:
        return None
    spt[order[0]] = shared["vec"]
    return blocked_for_shape(shape, spt, order, prod(src["warpsPerCTA"]), prod(src["threadsPerWarp"]))


def clip(copy: Operation) -> bool:
    clipped = clipped_copy_layout(encoding(copy.src.type), copy.result.type.encoding, shape_of(copy.src.type))
    if clipped is None:
        return False
    at = Inserter(copy, copy.location)
    src, mask, other = (at.add(ttg.ConvertLayoutOp.build(operands=[v], result_types=[with_encoding(v.type, clipped)]))
                        if v is not None else None for v in (copy.src, copy.mask, copy.other))
    new = at.add(ttg.AsyncCopyGlobalToLocalOp.build(
        operands=[src, copy.result, [mask] if mask is not None else [], [other] if other is not None else []],
        result_types=[copy.token.type],
        properties={k: copy.properties[k] for k in ("cache", "evict", "isVolatile") if k in copy.properties}))
    copy.token.replace_all_uses_with(new)
    copy.detach()
    copy.erase()
    return True


@dataclass(frozen=True)
class CoalesceAsyncCopy(Pass):
    """Clip each async copy's source layout to its swizzled buffer's vector."""

    name = "tritongpu-coalesce-async-copy"
    display = "TritonGPUCoalesceAsyncCopy"
    summary = "Clip the source layout of async copies to the vector of their swizzled shared buffer"

    def apply(self, ctx, module) -> None:
        for copy in [op for op in module.walk() if op.name == "ttg.async_copy_global_to_local"]:
            clip(copy)
