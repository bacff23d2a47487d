"""Triton's checks of the TritonGPU layouts, with Triton's messages, and nothing more.

- `verify_layout`: the attribute verifiers (`BlockedEncodingAttr::verify`, `SliceEncodingAttr::verify`,
  `DotOperandEncodingAttr::verify`, `SwizzledSharedEncodingAttr::verify`, `NVMMASharedEncodingAttr::verify`,
  `LinearEncodingAttr::verify` in lib/Dialect/TritonGPU/IR/Dialect.cpp), run when a layout is parsed or made.
  `#ttg.nvidia_mma` has none: what the back end cannot lower is reported by the back end, at the op.
- `tensor_layout_problem` / `memdesc_layout_problem`: TritonGPU's DialectVerifyTensorLayoutInterface, the
  check every tt/ttg/ttng op makes of the layouts of its operands and results against its module (rank, the
  shape's powers of two, threads per warp, warps per CTA, CTAs per CGA).
- `check_warp_group_dot`: `WarpGroupDotOp::verify` (lib/Dialect/TritonNvidiaGPU/IR/Ops.cpp).

Each returns the message of the first problem, or None.
"""

from __future__ import annotations

from math import prod


def _pow2(x) -> bool:
    return x > 0 and x & (x - 1) == 0


def _list(v) -> str:
    return ", ".join(str(x) for x in v)


def _order_problem(order) -> str | None:
    if sorted(order) != list(range(len(order))):
        return f"order must be a permutation of 0..(rank-1), but was [{_list(order)}]"
    return None


def verify_layout(cls, f: dict) -> str | None:
    """Triton's verifier of layout class `cls` over its (canonical) fields."""
    from ttc.ir import layouts as L

    if cls is L.BlockedEncoding:
        spt, tpw, wpc, order = (f[k] for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"))
        if len({len(spt), len(tpw), len(wpc), len(order)}) != 1:
            return "sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have the same rank."
        for key, what in ((spt, "sizePerThread"), (tpw, "threadsPerWarp"), (wpc, "warpsPerCTA")):
            if not all(_pow2(x) for x in key):
                return f"Every element in {what} must be a power of two."
        return _order_problem(order)
    if cls is L.SwizzledSharedEncoding:
        return _order_problem(f["order"])
    if cls is L.NVMMASharedEncoding:
        if f["elementBitWidth"] == 0:
            return "elementBitWidth must be non-zero"
        if f["swizzlingByteWidth"] not in (0, 32, 64, 128):
            return "swizzlingByteWidth must be 0, 32, 64, or 128"
        return None
    if cls is L.SliceEncoding:
        rank = L.cga_rank(f["parent"])
        if rank <= 1:
            return "parent layout must have at least rank >= 2"
        if f["dim"] >= rank:
            return f"slice dim={f['dim']} must be less than the parent rank={rank}"
        return None
    if cls is L.DotOperandEncoding:
        return _dot_operand_problem(f["opIdx"], f["parent"], f.get("kWidth", 0))
    if cls is L.LinearEncoding:
        for _, bases in f.items():
            if any(sum(1 for x in b if x) > 1 for b in bases):
                return "In a distributed layout, each base must move in at most one dimension."
        return None
    return None


def _dot_operand_problem(op_idx: int, parent, k_width: int) -> str | None:
    from ttc.ir.layouts import BlockedEncoding, NvidiaMmaEncoding

    if op_idx not in (0, 1):
        return f"ttg.dot_op opIdx parameter can be 0 or 1, got: {op_idx}"
    if isinstance(parent, NvidiaMmaEncoding):
        ampere_or_hopper = parent["versionMajor"] in (2, 3)
        if k_width and not ampere_or_hopper:
            return "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent"
        if not k_width and ampere_or_hopper:
            return "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent"
        if op_idx != 0 and parent["versionMajor"] == 3:
            return ("ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows "
                    "first operand to be in registers")
        return None
    if isinstance(parent, BlockedEncoding):
        if k_width:
            return "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout"
        return None
    check = getattr(type(parent), "dot_operand_problem", None)  # a parent layout that brings its own rules
    if check is not None:
        return check(parent, op_idx, k_width)
    from ttc.ir.printer import attr_text

    return f"ttg.dot_op unexpected parent layout: {attr_text(parent)}"


def layout_rank(enc) -> int | None:
    """A layout's rank (Triton's LayoutEncodingTrait::getRank); None for what is not a layout."""
    from ttc.ir import layouts as L
    from ttc.ir.types import shared_rank

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
    from ttc.ir.printer import attr_text

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
    from ttc.ir.printer import attr_text

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
    from ttc.ir.printer import attr_text

    t = attr_text(element_type)
    return t in ("f8E5M2", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f16", "bf16") or (
        t in ("f32", "f64", "i8") and version >= 2)


def shape_per_cta(shape, enc) -> tuple[int, ...]:
    """A tensor's shape divided by its layout's CTA split (Triton's getShapePerCTA)."""
    cga = enc.get("CGALayout", ()) if hasattr(enc, "get") else ()
    return tuple(s // max(1, 2 ** sum(1 for b in cga if b[d])) for d, s in enumerate(shape))


def check_warp_group_dot(op) -> str | None:
    """Triton's WarpGroupDotOp::verify (the back end reports what it cannot lower, ttc/lowering/wgmma.py)."""
    from ttc.ir.layouts import DotOperandEncoding, NVMMASharedEncoding, NvidiaMmaEncoding
    from ttc.ir.printer import attr_text
    from ttc.ir.types import MemDescType, bitwidth, encoding, shape_of

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
