"""The checks tt, ttg and ttng ops make of their layouts, with Triton's messages (the layout attributes' own
verifiers are in ttc/ir/layouts.py).

- `tensor_layout_problem` / `memdesc_layout_problem`: TritonGPU's DialectVerifyTensorLayoutInterface, the
  check every tt/ttg/ttng op makes of the layouts of its operands and results against its module (rank, the
  shape's powers of two, threads per warp, warps per CTA, CTAs per CGA).
- `check_warp_group_dot`: `WarpGroupDotOp::verify` (lib/Dialect/TritonNvidiaGPU/IR/Ops.cpp).

Each returns the message of the first problem, or None.
"""

from __future__ import annotations

from math import prod

from ttc.ir.layouts import _list, _pow2, shape_per_cta


def layout_rank(enc) -> int | None:
    """A layout's rank (Triton's LayoutEncodingTrait::getRank); None for what is not a layout."""
    from ttc.ir import layouts as L
    from ttc.ir.memdesc import shared_rank

    rank = shared_rank(enc)
    if rank is None and isinstance(enc, L.DISTRIBUTED):
        rank = L.cga_rank(enc)
    return rank


# ----------------------------------------------------------------------------- layouts against the module


def _in_dims(enc) -> tuple[int, int, int, int] | None:
    """(rank, lanes, warps, CTAs) of a distributed layout: its rank and its linear layout's input sizes."""
    from ttc.ir import layouts as L

    if isinstance(enc, L.BlockedEncoding):
        return len(enc["order"]), prod(enc["threadsPerWarp"]), prod(enc["warpsPerCTA"]), 2 ** len(enc.get("CGALayout", ()))
    if isinstance(enc, L.NvidiaMmaEncoding):
        return len(enc["warpsPerCTA"]), 32, prod(enc["warpsPerCTA"]), 2 ** len(enc.get("CGALayout", ()))
    if isinstance(enc, (L.SliceEncoding, L.DotOperandEncoding)):
        parent = _in_dims(enc["parent"])
        if parent is None:
            return None
        return (parent[0] - (1 if isinstance(enc, L.SliceEncoding) else 0),) + parent[1:]
    if isinstance(enc, L.LinearEncoding):
        return (L.cga_rank(enc),) + tuple(2 ** len(enc[k]) for k in ("lane", "warp", "block"))
    if hasattr(enc, "in_dims"):  # AMD's MFMA / WMMA (ttc/ir/amd_layouts.py)
        return enc.in_dims()
    return None


def num_warps_context(op) -> int | None:
    """Triton's maybeLookupNumWarps: `ttg.num-warps` of the nearest function or module, or the warp count of
    the warp-specialize partition the op is in (ttc/ir/warp_specialize.py)."""
    from ttc.ir.warp_specialize import lookup_num_warps

    return lookup_num_warps(op)


def _module_int(op, name: str, default: int) -> int:
    from xdsl.dialects.builtin import IntegerAttr

    while op is not None and op.name != "builtin.module":
        op = op.parent_op()
    a = op.attributes.get(name) if op is not None else None
    return a.value.data if isinstance(a, IntegerAttr) else default


def tensor_layout_problem(enc, shape, op) -> str | None:
    """TritonGPU's verifyTensorLayout for a tensor of `shape` in layout `enc` used by `op`."""
    from ttc.ir import layouts as L
    from ttc.ir.attr_printer import attr_text

    if isinstance(enc, L.SHARED) or getattr(enc, "SHARED", False):
        return "Non-distributed layout is not allowed in tensor type."
    dims = _in_dims(enc)
    if dims is None:
        return None
    rank, lanes, warps, ctas = dims
    if rank != len(shape):
        return f"Layout has rank {rank}, but the tensor it's attached to has rank {len(shape)}."
    if not all(_pow2(d) for d in shape):
        s = _list(shape)
        return f"Layout has shape {s}, but the tensor it's attached to has shape {s} which is not a power of two."
    want = _module_int(op, "ttg.threads-per-warp", 32)
    if lanes != want:
        return (f"{attr_text(enc)}.\nLayout has {lanes} threads per warp, but the module specifies {want} threads "
                "per warp.")
    want = num_warps_context(op)
    if want is None:
        return ("Could not determine the number of warps per CTA. Operation is not in a context with "
                "`ttg.num-warps`.")
    if warps != want:
        return f"{attr_text(enc)}.\nLayout has {warps} warps per CTA, but the context requires {want} warps per CTA."
    want = _module_int(op, "ttg.num-ctas", 1)
    if ctas != want:
        return f"{attr_text(enc)}.\nLayout has {ctas} CTAs per CGA, but the context requires {want} CTAs per CGA."
    return None


def memdesc_layout_problem(enc, memdesc, op) -> str | None:
    """TritonGPU's verifyMemDescLayout: the layout's CTAs against the module, its extent against the buffer."""
    from ttc.ir import layouts as L
    from ttc.ir.attr_printer import attr_text

    if isinstance(enc, L.SHARED) or isinstance(enc, L.DISTRIBUTED):
        rank = L.cga_rank(enc)
        cga = enc.get("CGALayout", ())
    else:
        return None
    want = _module_int(op, "ttg.num-ctas", 1)
    if 2 ** len(cga) != want:
        return (f"{attr_text(enc)}.\nLayout has {2 ** len(cga)} CTAs per CGA, but the context requires {want} CTAs "
                "per CGA.")
    size = prod(1 << max((b[d] for b in cga), default=0).bit_length() for d in range(rank))
    elements = prod(memdesc.get_alloc_shape()[len(memdesc.get_alloc_shape()) - rank:]) if rank else 1
    if size > elements:
        return (f"{attr_text(enc)}.\nLayout has tensor size at least {size}, but the memdesc type has {elements} "
                "elements.")
    return None


# ----------------------------------------------------------------------------- ops


def support_mma(element_type, version: int) -> bool:
    """Triton's supportMMA(Value, version): the element types MMA takes (fp8 always, promoted if need be)."""
    from ttc.ir.attr_printer import attr_text

    t = attr_text(element_type)
    return t in ("f8E5M2", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f16", "bf16") or (
        t in ("f32", "f64", "i8") and version >= 2)


def check_warp_group_dot(op) -> str | None:
    """Triton's WarpGroupDotOp::verify (the back end reports what it cannot lower, ttc/lowering/wgmma.py)."""
    from ttc.ir.layouts import DotOperandEncoding, NVMMASharedEncoding, NvidiaMmaEncoding
    from ttc.ir.attr_printer import attr_text
    from ttc.ir.types import bitwidth, encoding, shape_of
    from ttc.ir.memdesc import MemDescType

    mma = encoding(op.d.type)
    if not isinstance(mma, NvidiaMmaEncoding) or mma["versionMajor"] != 3:
        return "WGMMA result layout must be Hopper NVMMA"
    a_enc = op.a.type.encoding if isinstance(op.a.type, MemDescType) else encoding(op.a.type)
    if not isinstance(a_enc, (NVMMASharedEncoding, DotOperandEncoding)):
        return "WGMMA A operand must have NVMMA shared or dot layout"
    if not isinstance(op.b.type.encoding, NVMMASharedEncoding):
        return "WGMMA B operand must have NVMMA shared layout"
    warps = num_warps_context(op)
    if warps is not None and warps % 4:
        return "WGMMA requires num_warps to be divisible by 4"
    shape = shape_per_cta(shape_of(op.d.type), mma)
    if len(shape) != 2:
        return "WGMMA result shape must be 2D"
    if shape[0] % 64:
        return "WGMMA result M dimension must be divisible by 64"
    if shape[1] % 8:
        return "WGMMA result N dimension must be divisible by 8"
    a_elt = op.a.type.element_type
    if not support_mma(a_elt, 3) or not support_mma(op.b.type.element_type, 3):
        return "unsupported MMA version for the given operands"
    if (op.maxNumImpreciseAcc.value.data < 32 and attr_text(a_elt) in ("f8E5M2", "f8E4M3FN")
            and attr_text(op.d.type.element_type) == "f32"):
        return ("Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32")
    if isinstance(a_enc, DotOperandEncoding) and not isinstance(op.a.type, MemDescType):
        k_width = 32 // bitwidth(a_elt)
        if a_enc.get("kWidth", 0) != k_width:
            return f"in-register LHS operand must have a kWidth of {k_width} but got {a_enc.get('kWidth', 0)}"
    return None
