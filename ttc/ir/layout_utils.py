"""Helpers over TritonGPU layouts: building blocked layouts as Triton does, inferring the layout an op's result
(or operand) gets from its operand's (or result's), and which threads hold which elements.

- `blocked_for_shape` is Triton's `BlockedEncodingAttr::get(shape, sizePerThread, order, numWarps,
  threadsPerWarp)`: lanes, then warps, are spread over the dimensions from the most contiguous one, as far as
  the shape needs them; what is left goes to the slowest dimension. `default_blocked` is
  `getDefaultBlockedEncoding` (one element per thread, row-major order).
- `infer_dst_encoding` / `infer_src_encoding` are Triton's transfer functions used by layout propagation:
  elementwise ops keep the layout, `tt.reduce` slices it, `tt.expand_dims` un-slices it, `tt.trans` permutes a
  blocked layout, `tt.join`/`tt.split` add/drop a minor dimension of size 2.
- `owners(type)` says which (warp, lane) pairs hold each element (factored by dimension), which decides whether a
  conversion between two layouts only moves registers within threads (`reorders_registers_only`).
Module options (`ttg.num-warps`, `ttg.threads-per-warp`) are read with `num_warps_of` / `threads_per_warp_of`.
"""

from __future__ import annotations

import math
from functools import lru_cache

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, Operation

from ttc.ir.layouts import (
    BlockedEncoding,
    LinearEncoding,
    DotOperandEncoding,
    NvidiaMmaEncoding,
    NVMMASharedEncoding,
    SliceEncoding,
    SwizzledSharedEncoding,
    blocked,
    blocked_for_shape,
    default_blocked,
)
from ttc.ir.dialects import prebuilt
from ttc.ir.types import NO_ENCODING, PointerType, bitwidth, elt, encoding

# ----------------------------------------------------------------------------- module attributes


def module_of(op: Operation) -> ModuleOp | None:
    while op is not None and not isinstance(op, ModuleOp):
        op = op.parent_op()
    return op


def module_int(op: Operation, name: str, default: int) -> int:
    """An i32 module attribute (`ttg.num-warps`, ...) of `op`'s module, or `default`."""
    m = module_of(op)
    a = m.attributes.get(name) if m is not None else None
    return a.value.data if isinstance(a, IntegerAttr) else default


def target_capability(op: Operation) -> int:
    """The compute capability of `op`'s module's `ttg.target` (`cuda:90` -> 90; 0 when not cuda)."""
    m = module_of(op)
    a = m.attributes.get("ttg.target") if m is not None else None
    if not isinstance(a, StringAttr) or not a.data.startswith("cuda:"):
        return 0
    try:
        return int(a.data.split(":")[1])
    except ValueError:
        return 0


def num_warps_of(op: Operation) -> int:
    """Triton's lookupNumWarps: the nearest `ttg.num-warps` (an op may override the module's), or the warp count
    of the ttg.warp_specialize partition the op is in."""
    from ttc.ir.warp_specialize import lookup_num_warps

    n = lookup_num_warps(op)
    return 4 if n is None else n


def threads_per_warp_of(op: Operation) -> int:
    return module_int(op, "ttg.threads-per-warp", 32)


# ----------------------------------------------------------------------------- building layouts


_SLICES: dict[tuple, SliceEncoding] = {}  # slice_of's layouts: each is made and verified once


def slice_of(dim: int, parent: Attribute) -> SliceEncoding:
    if type(dim) is not int:
        return SliceEncoding.make(dim=dim, parent=parent)
    if (enc := _SLICES.get((dim, parent))) is None:
        enc = _SLICES[(dim, parent)] = SliceEncoding.make(dim=dim, parent=parent)
    return enc


def with_encoding(t: Attribute, enc: Attribute | None) -> Attribute:
    """The tensor type `t` with layout `enc` (scalars are returned as they are)."""
    if not isinstance(t, TensorType):
        return t
    return prebuilt(TensorType, t.shape, t.element_type, enc if enc is not None else NO_ENCODING)


# ----------------------------------------------------------------------------- layout properties


def rank_of(enc: Attribute) -> int:
    if isinstance(enc, BlockedEncoding):
        return len(enc["order"])
    if isinstance(enc, SliceEncoding):
        return rank_of(enc["parent"]) - 1
    if isinstance(enc, NvidiaMmaEncoding):
        return len(enc["warpsPerCTA"])
    if isinstance(enc, DotOperandEncoding):
        return rank_of(enc["parent"])
    if isinstance(enc, LinearEncoding):
        return len(next(b for _, bases in enc.data for b in bases)) if any(b for _, b in enc.data) else 0
    raise ValueError(f"no rank for layout {enc}")


def get_order(enc: Attribute) -> list[int]:
    """Triton's getOrder: dimensions from the most to the least contiguous."""
    if isinstance(enc, BlockedEncoding):
        return list(enc["order"])
    if isinstance(enc, SliceEncoding):
        dim = enc["dim"]
        return [o - (o > dim) for o in get_order(enc["parent"]) if o != dim]
    rank = rank_of(enc)
    if isinstance(enc, LinearEncoding):  # Triton's orderPerDim("register"): dimensions as registers first step them
        order = []
        for basis in enc["register"]:
            d = next((i for i, x in enumerate(basis) if x != 0), None)
            if d is not None and d not in order:
                order.append(d)
        return order + [d for d in reversed(range(rank)) if d not in order]
    if isinstance(enc, DotOperandEncoding):
        # the K dimension is the fastest for a, the slowest for b
        order = list(reversed(range(rank)))
        if enc["opIdx"] == 1 and rank >= 2:
            order[0], order[1] = order[1], order[0]
        return order
    return list(reversed(range(rank)))






def pointee_bitwidth(t: Attribute) -> int:
    """Bits of the element a tensor of pointers points to (or of the element itself)."""
    e = elt(t)
    if isinstance(e, PointerType):
        p = e.pointee
        if isinstance(p, TensorType):
            p = p.element_type
        return bitwidth(p)
    return bitwidth(e)


# ----------------------------------------------------------------------------- which threads hold what


def _dim_owners(extent: int, spt: int, tpw: int, wpc: int) -> list[frozenset]:
    """Per coordinate along one dimension of a blocked layout: the (lane, warp) coordinates along that
    dimension holding it. Coordinates wrap around when the layout's tile is larger than the extent."""
    out = [set() for _ in range(extent)]
    for w in range(wpc):
        for l in range(tpw):
            for r in range(spt):
                out[((w * tpw + l) * spt + r) % extent].add((l, w))
            # a layout tile smaller than the extent repeats: the thread holds every tile's copy
    tile = spt * tpw * wpc
    if tile < extent:
        for c in range(tile, extent):
            out[c] = out[c % tile]
    return [frozenset(s) for s in out]


@lru_cache(maxsize=256)
def _owners(shape: tuple, enc: Attribute) -> tuple | None:
    """Which threads hold each element, factored by dimension: `(common, per_dim)`, (warp id, lane id) offsets
    in sets: element (c0, c1, ...) is held by every sum of an offset of `common` and one of `per_dim[d][c_d]`
    for each d, distinct choices giving distinct threads (each dimension of the blocked layout spreads its own
    lanes and warps). None for layouts we do not model."""
    if isinstance(enc, BlockedEncoding):
        spt, tpw, wpc, order = enc["sizePerThread"], enc["threadsPerWarp"], enc["warpsPerCTA"], enc["order"]
        lane_stride, warp_stride = [0] * len(shape), [0] * len(shape)
        ls = ws = 1
        for d in order:
            lane_stride[d], warp_stride[d] = ls, ws
            ls *= tpw[d]
            ws *= wpc[d]
        per_dim = tuple(
            tuple(frozenset((w * warp_stride[d], l * lane_stride[d]) for l, w in s)
                  for s in _dim_owners(shape[d], spt[d], tpw[d], wpc[d]))
            for d in range(len(shape)))
        return frozenset({(0, 0)}), per_dim
    if isinstance(enc, SliceEncoding):
        # a slice holds each element wherever the parent holds any element of the sliced dimension
        dim, parent = enc["dim"], enc["parent"]
        pshape = list(shape)
        pshape.insert(dim, 1)
        p = _owners(tuple(pshape), parent)
        if p is None:
            return None
        common, per_dim = p
        common = frozenset((w + w2, l + l2) for w, l in common for w2, l2 in per_dim[dim][0])
        return common, per_dim[:dim] + per_dim[dim + 1:]
    return None


def owners(t: TensorType):
    """Which threads hold each element of `t`, factored by dimension (see `_owners`); None for layouts we do
    not model, and for tensors of more than 65536 elements."""
    enc = encoding(t)
    if enc is None:
        return None
    shape = tuple(t.get_shape())
    if math.prod(shape) > (1 << 16):
        return None
    return _owners(shape, enc)


def reorders_registers_only(src: TensorType, dst: TensorType) -> bool:
    """Triton's cvtReordersRegisters: converting `src` to `dst` (of one shape) only permutes registers within
    threads. As in Triton (where the conversion, a linear map, must be the identity on warps and lanes), this
    needs every element held by exactly one thread, the same in both layouts: a tensor smaller than the layout's
    tile (held by several threads) is never converted for free. With one thread per element, every dimension
    maps coordinate 0 to offset (0, 0), so the layouts place elements alike exactly when their factors agree."""
    if encoding(src) == encoding(dst):
        return True
    a, b = owners(src), owners(dst)
    return (a is not None and a == b and len(a[0]) == 1
            and all(len(s) == 1 for per_coord in a[1] for s in per_coord))


def _bits(basis, shape) -> int:
    """A basis (coordinates) as one bit vector, dimension 0 in the lowest bits."""
    out, shift = 0, 0
    for c, n in zip(basis, shape):
        out |= c << shift
        shift += max(n - 1, 0).bit_length()
    return out


def _solve(columns: list[int], targets: list[int]) -> list[int] | None:
    """Per target, the columns (a bit mask of indices) XOR-ing to it, using only the columns independent of
    the ones before them (Triton's lstsq: RREF with the free variables zero); None when one is unreachable."""
    basis: dict[int, tuple[int, int]] = {}  # leading bit -> (vector, columns)

    def reduce(v: int, mask: int) -> tuple[int, int]:
        while v:
            top = v.bit_length() - 1
            if top not in basis:
                break
            bv, bm = basis[top]
            v, mask = v ^ bv, mask ^ bm
        return v, mask

    for i, col in enumerate(columns):
        v, mask = reduce(col, 1 << i)
        if v:
            basis[v.bit_length() - 1] = (v, mask)
    out = []
    for t in targets:
        v, mask = reduce(t, 0)
        if v:
            return None
        out.append(mask)
    return out


_HW = ("register", "lane", "warp")


def cvt_dims(src: TensorType, dst: TensorType) -> list[str] | None:
    """What converting `src` to `dst` (one shape) moves data across, as Triton's minimalCvtLayout says: the
    hardware dimensions ("register", "lane", "warp") left in the map from each destination register, lane and
    warp to the source one holding its element, after quotienting out, slowest first, the dimensions it maps
    to themselves alone. Dimensions laid out alike in both layouts map to themselves (the broadcast ones too);
    the others map to the earliest source bases that reach the element (registers before lanes before warps).
    [] or ["register"]: registers only; ["register", "lane"]: within warps. None for layouts without a linear
    form."""
    shape = tuple(src.get_shape())
    a, b = _linear_bases(encoding(src), shape), _linear_bases(encoding(dst), shape)
    if a is None or b is None:
        return None
    identity = [i for i in range(3) if [list(x) for x in a[i]] == [list(x) for x in b[i]]]
    rest = [i for i in range(3) if i not in identity]
    cols = [(i, j) for i in rest for j in range(len(a[i]))]
    sol = _solve([_bits(a[i][j], shape) for i, j in cols], [_bits(x, shape) for i in rest for x in b[i]])
    if sol is None:
        return None
    # image[(in dim, index)] = {out dim: bit mask of its indices}
    image: dict[tuple[int, int], dict[int, int]] = {}
    for i in identity:
        for j in range(len(b[i])):
            image[(i, j)] = {i: 1 << j}
    k = 0
    for i in rest:
        for j in range(len(b[i])):
            m: dict[int, int] = {}
            for c, (oi, oj) in enumerate(cols):
                if sol[k] >> c & 1:
                    m[oi] = m.get(oi, 0) | 1 << oj
            image[(i, j)] = m
            k += 1
    left = [0, 1, 2]
    for d in (2, 1, 0):
        square = len(a[d]) == len(b[d]) and all(image[(d, j)].get(d, 0) == 1 << j for j in range(len(b[d])))
        others_in = all(not image[(i, j)].get(d) for i in left if i != d for j in range(len(b[i])))
        others_out = all(not image[(d, j)].get(o) for o in left if o != d for j in range(len(b[d])))
        if not (square and others_in and others_out):
            break
        left.remove(d)
    return [_HW[i] for i in left]


def cvt_reorders_registers(src: TensorType, dst: TensorType) -> bool:
    """Triton's cvtReordersRegisters: the conversion moves data within threads only (`cvt_dims`; for layouts
    without a linear form, `reorders_registers_only`)."""
    dims = cvt_dims(src, dst)
    return reorders_registers_only(src, dst) if dims is None else dims in ([], ["register"])


def layouts_equivalent(shape, a: Attribute, b: Attribute) -> bool:
    """Triton's areLayoutsEquivalent: both layouts place every element of `shape` on the same register, lane and
    warp (equal linear layouts); layouts without a linear form only when equal."""
    if a == b:
        return True
    la, lb = _linear_bases(a, shape), _linear_bases(b, shape)
    return la is not None and la == lb


def _free_masks(bases: tuple, shape) -> list[int]:
    """Per hardware dimension, the bit mask of its bases that are free variables (Triton's
    getFreeVariableMasks: dependent on the bases before them, registers first, then lanes, then warps)."""
    basis: dict[int, int] = {}
    masks = []
    for group in bases:
        m = 0
        for i, b in enumerate(group):
            v = _bits(b, shape)
            while v and (v.bit_length() - 1) in basis:
                v ^= basis[v.bit_length() - 1]
            if v:
                basis[v.bit_length() - 1] = v
            else:
                m |= 1 << i
        masks.append(m)
    return masks


def is_expensive_view(src: TensorType, dst: TensorType) -> bool:
    """Triton's isExpensiveView: a view (reshape) between these types moves data, unless both layouts replicate
    along the same hardware bits and hold as many elements per thread. Layouts without a linear form count as
    expensive."""
    a = _linear_bases(encoding(src), tuple(src.get_shape()))
    b = _linear_bases(encoding(dst), tuple(dst.get_shape()))
    if a is None or b is None:
        return True
    if _free_masks(a, src.get_shape()) != _free_masks(b, dst.get_shape()):
        return True
    return len(a[0]) != len(b[0])


def total_elems_per_thread(t: TensorType) -> int:
    """How many elements each thread holds (Triton's getTotalElemsPerThread), for blocked and slice layouts:
    the product over dimensions of the most coordinates one offset holds."""
    own = owners(t)
    if own is None:
        return 1
    total = 1
    for per_coord in own[1]:
        counts: dict = {}
        for s in per_coord:
            for off in s:
                counts[off] = counts.get(off, 0) + 1
        total *= max(counts.values(), default=0)
    return max(total, 1)


# ----------------------------------------------------------------------------- transfer functions


def _linear_bases(enc: Attribute, shape) -> tuple | None:
    """(register, lane, warp) bases of `enc` as lists: a #ttg.linear layout's own, another layout's through its
    linear layout for `shape` (None when there is no shape, or the layout has no linear form)."""
    if isinstance(enc, LinearEncoding):
        return tuple([list(b) for b in enc[f]] for f in ("register", "lane", "warp"))
    if shape is None:
        return None
    from ttc.ir.linear_layout import UnsupportedLayout, layout_for

    try:
        ll = layout_for(tuple(shape), enc)
    except UnsupportedLayout:
        return None
    return tuple([list(b) for b in g] for g in (ll.reg, ll.lane, ll.warp))


def _order_of(bases, default) -> list[int]:
    """Triton's orderPerDim: the dimensions in the order the non-zero bases first move along them, then the
    rest in `default`'s order."""
    order = []
    for b in bases:
        d = next((i for i, x in enumerate(b) if x), None)
        if d is not None and d not in order:
            order.append(d)
    return order + [d for d in default if d not in order]


def linear_orders(shape, enc: Attribute) -> tuple[list[int], list[int], list[int]] | None:
    """(order, thread order, warp order) of `enc` over `shape` as Triton 3.6 reads them off the linear layout
    (getOrder / getThreadOrder / getWarpOrder): registers, lanes, warps, each defaulting to the register order,
    which defaults to [rank-1, ..., 0]. Dimensions a layout broadcasts over (a tile larger than the tensor) drop
    back, so these may differ from the layout's `order`. None when the layout has no linear form."""
    bases = _linear_bases(enc, shape)
    if bases is None:
        return None
    reg, lane, warp = bases
    order = _order_of(reg, list(reversed(range(len(shape)))))
    return order, _order_of(lane, order), _order_of(warp, order)


def order_for_memory(shape, enc: Attribute) -> list[int]:
    """Triton's getOrderForMemory: the order to store a distributed layout in shared memory, its register order
    unless that differs from its thread order and the thread order's first dimension holds one element per
    thread (Triton counts a broadcast register basis towards the last dimension a register moved along, the
    first before any did). Layouts without a linear form keep `get_order`."""
    orders = linear_orders(shape, enc)
    if orders is None:
        return get_order(enc)
    order, thread_order, _ = orders
    if order == thread_order:
        return order
    per_thread, last = [1] * len(shape), 0
    for b in _linear_bases(enc, shape)[0]:
        last = next((i for i, x in enumerate(b) if x), last)
        per_thread[last] *= 2
    return thread_order if per_thread[thread_order[0]] == 1 else order


def _linear(register, lane, warp) -> LinearEncoding:
    return LinearEncoding.make(register=register, lane=lane, warp=warp, block=[])


def trans_encoding(enc: Attribute, order, shape=None) -> Attribute | None:
    """The layout of `tt.trans(x, order)` (or `ttg.memdesc_trans`) for x of `shape` in `enc`, as Triton's
    inferTransOpEncoding: blocked and swizzled shared layouts are permuted, an nvmma_shared layout transposed in
    2-D flips `transposed` (a CGALayout is permuted with them), others (linear, mma, ...) become `#ttg.linear`
    with every basis permuted."""
    order = list(order)
    if isinstance(enc, (SwizzledSharedEncoding, NVMMASharedEncoding, BlockedEncoding)):
        if isinstance(enc, NVMMASharedEncoding) and order != [1, 0]:
            return None
        inv = inverse_permutation(order)

        def field(k, v):
            if k == "order":
                return tuple(inv[o] for o in v)
            if k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA"):
                return tuple(v[o] for o in order)
            if k == "CGALayout":
                return tuple(tuple(b[o] for o in order) for b in v)
            if k == "transposed":
                return not v
            return v

        return type(enc)(tuple((k, field(k, v)) for k, v in enc.data))
    bases = _linear_bases(enc, shape)
    if bases is None:
        return None
    return _linear(*[[[b[o] for o in order] for b in g] for g in bases])


def inverse_permutation(order) -> list[int]:
    inv = [0] * len(order)
    for i, o in enumerate(order):
        inv[o] = i
    return inv


def join_encoding(enc: Attribute, shape=None) -> Attribute | None:
    """Triton's inferDefaultJoinOpEncoding for operands of `shape`: a slice of the last dimension of a layout
    that splits back to it gives that layout; a blocked layout gets a new minor dimension of size 2 held by each
    thread; others a `#ttg.linear` layout whose first register basis is the new dimension."""
    if isinstance(enc, SliceEncoding) and shape is not None and enc["dim"] == len(shape):
        parent = enc["parent"]
        split = split_encoding(parent, list(shape) + [2])
        if split is not None and layouts_equivalent(shape, split, enc):
            return parent
    if isinstance(enc, BlockedEncoding):
        rank = len(enc["order"])
        return blocked(
            list(enc["sizePerThread"]) + [2],
            list(enc["threadsPerWarp"]) + [1],
            list(enc["warpsPerCTA"]) + [1],
            [rank] + list(enc["order"]),
        )
    bases = _linear_bases(enc, shape)
    if bases is None:
        return None
    reg, lane, warp = [[b + [0] for b in g] for g in bases]
    rank = len(shape) if shape is not None else len((reg or lane)[0]) - 1
    return _linear([[0] * rank + [1]] + reg, lane, warp)


def split_encoding(enc: Attribute, shape=None) -> Attribute | None:
    """Triton's inferSplitOpEncoding for a source of `shape`: a blocked layout holding the minor dimension (of
    size 2) in each thread's registers drops it; other layouts (shape's last dimension 2) become `#ttg.linear`:
    the register basis along that dimension is dropped, and that coordinate of every other basis."""
    if isinstance(enc, BlockedEncoding) and (enc["sizePerThread"][-1] == 2 and enc["threadsPerWarp"][-1] == 1
                                             and enc["warpsPerCTA"][-1] == 1):
        rank = len(enc["order"])
        return blocked(enc["sizePerThread"][:-1], enc["threadsPerWarp"][:-1], enc["warpsPerCTA"][:-1],
                       [o for o in enc["order"] if o != rank - 1])
    if shape is not None and shape[-1] != 2:
        return None
    bases = _linear_bases(enc, shape)
    if bases is None:
        return None
    reg, lane, warp = bases
    if not any(b[-1] == 1 for b in reg):
        return None
    return _linear([b[:-1] for b in reg if b[-1] != 1], [b[:-1] for b in lane], [b[:-1] for b in warp])


# ops whose results have their operands' layout (MLIR's Elementwise trait, and Triton's
# SameOperandsAndResultEncoding)
ELEMENTWISE_TT = {
    "tt.addptr", "tt.fp_to_fp", "tt.int_to_ptr", "tt.ptr_to_int", "tt.bitcast", "tt.clampf", "tt.precise_sqrt",
    "tt.precise_divf", "tt.mulhiui", "tt.extern_elementwise", "tt.elementwise_inline_asm",
}
SAME_ENCODING = {"tt.broadcast", "tt.scan", "tt.atomic_rmw", "tt.atomic_cas", "tt.splat"}
SAME_LOAD_STORE_ENCODING = {"tt.load", "tt.store"}


def is_elementwise(op: Operation) -> bool:
    name = op.name
    if name.startswith("math."):
        return True
    if name.startswith("arith."):
        return name != "arith.constant"
    return name in ELEMENTWISE_TT


def same_operands_and_result_encoding(op: Operation) -> bool:
    return op.name in SAME_ENCODING


def infer_dst_encoding(op: Operation, enc: Attribute) -> Attribute | None:
    """The layout `op`'s result gets when its (tensor) operand has layout `enc` (Triton's inferDstEncoding)."""
    name = op.name
    if name == "tt.scan" and not isinstance(enc, BlockedEncoding):
        return None
    if (
        same_operands_and_result_encoding(op)
        or name in SAME_LOAD_STORE_ENCODING
        or is_elementwise(op)
        or name in ("scf.while", "scf.for", "scf.yield", "scf.condition", "ttng.warp_group_dot_wait")
        or name == "tt.gather"  # result, indices (and, as Triton assumes, source) share one layout
    ):
        return enc
    if name == "tt.reduce":
        return slice_of(op.axis.value.data, enc)
    if name == "tt.expand_dims":
        if isinstance(enc, SliceEncoding) and enc["dim"] == op.axis.value.data:
            return enc["parent"]
        return None
    shape = list(op.operands[0].type.get_shape()) if name in ("tt.join", "tt.split", "tt.trans") else None
    if name == "tt.join":
        return join_encoding(enc, shape)
    if name == "tt.split":
        return split_encoding(enc, shape)
    if name == "tt.trans":
        return trans_encoding(enc, op.order.get_values(), shape)
    if name == "tt.reshape":
        return _reshape_encoding(op, enc, forward=True)
    if name == "ttg.fp4_to_fp":
        return fp4_to_fp_encoding(enc, op.axis.value.data, True, list(op.operands[0].type.get_shape()))
    return None


def infer_src_encoding(op: Operation, enc: Attribute) -> Attribute | None:
    """The layout `op`'s operands need for its result to have layout `enc` (Triton's inferSrcEncoding)."""
    name = op.name
    if name == "tt.scan" and not isinstance(enc, BlockedEncoding):
        return None
    if (
        same_operands_and_result_encoding(op)
        or name in SAME_LOAD_STORE_ENCODING
        or is_elementwise(op)
        or name in ("scf.while", "scf.yield", "scf.condition", "ttng.warp_group_dot_wait", "tt.gather")
    ):
        return enc
    if name == "tt.reduce":
        if isinstance(enc, SliceEncoding) and enc["dim"] == op.axis.value.data:
            return enc["parent"]
        return None
    if name == "tt.expand_dims":
        return slice_of(op.axis.value.data, enc)
    shape = list(op.results[0].type.get_shape()) if name in ("tt.join", "tt.split", "tt.trans") else None
    if name == "tt.join":
        return split_encoding(enc, shape)
    if name == "tt.split":
        return join_encoding(enc, shape)
    if name == "tt.trans":
        return trans_encoding(enc, inverse_permutation(op.order.get_values()), shape)
    if name == "tt.reshape":
        return _reshape_encoding(op, enc, forward=False)
    if name == "ttg.fp4_to_fp":
        return fp4_to_fp_encoding(enc, op.axis.value.data, False, list(op.results[0].type.get_shape()))
    return None


def fp4_to_fp_encoding(enc: Attribute, axis: int, forward: bool, shape=None) -> Attribute | None:
    """The result layout of `ttg.fp4_to_fp` along `axis` from its operand's (`forward`), or the operand's from
    the result's (Triton's inferFp4ToFpOpEncoding); `shape` is the tensor `enc` lays out. Where `axis` is the
    layout's fastest dimension (Triton's getOrder, from the linear layout), a dot operand's kWidth, or a blocked
    layout's sizePerThread along the axis, doubles (halves backwards; none below one). Other layouts become
    `#ttg.linear`: forwards a new first register basis along the axis and the others' axis coordinates doubled,
    backwards the register basis of 1 along the axis dropped and the others' halved (none without one)."""
    orders = linear_orders(shape, enc) if shape is not None else None
    order = orders[0] if orders else (get_order(enc) if isinstance(enc, (DotOperandEncoding, BlockedEncoding))
                                      else None)
    if order is not None and order[axis] == 0 and isinstance(enc, (DotOperandEncoding, BlockedEncoding)):
        if isinstance(enc, DotOperandEncoding):
            k = enc["kWidth"]
            if not forward and k <= 1:
                return None
            return DotOperandEncoding.make(opIdx=enc["opIdx"], parent=enc["parent"],
                                           kWidth=k * 2 if forward else k // 2)
        spt = list(enc["sizePerThread"])
        if not forward and spt[axis] <= 1:
            return None
        spt[axis] = spt[axis] * 2 if forward else spt[axis] // 2
        return blocked(spt, enc["threadsPerWarp"], enc["warpsPerCTA"], enc["order"])
    bases = _linear_bases(enc, shape)
    if bases is None:
        return None
    reg, lane, warp = bases
    if forward:
        scale = lambda b: [x * 2 if d == axis else x for d, x in enumerate(b)]  # noqa: E731
        unit = [1 if d == axis else 0 for d in range(len(shape))]
        return _linear([unit] + [scale(b) for b in reg], [scale(b) for b in lane], [scale(b) for b in warp])
    if not any(b[axis] == 1 for b in reg):
        return None
    half = lambda b: [x // 2 if d == axis else x for d, x in enumerate(b)]  # noqa: E731
    return _linear([half(b) for b in reg if b[axis] != 1], [half(b) for b in lane], [half(b) for b in warp])


def _reshape_encoding(op: Operation, enc: Attribute, forward: bool) -> Attribute | None:
    """A reshape's result layout from its operand's (`forward`), or its operand's from its result's; none for
    reshapes that may reorder elements."""
    from ttc.ir.reshape_layout import infer_reshape_encoding

    if op.properties.get("allow_reorder") is not None:
        return None
    src, dst = list(op.operands[0].type.get_shape()), list(op.results[0].type.get_shape())
    return infer_reshape_encoding(src, enc, dst) if forward else infer_reshape_encoding(dst, enc, src)


def is_expensive_load_or_store(op: Operation) -> bool:
    """Triton's isExpensiveLoadOrStore: a load/store of a tensor with at least one element per thread (or of a
    block pointer) is worth keeping in its layout."""
    ptr_t = op.operands[0].type
    if isinstance(ptr_t, PointerType) and isinstance(ptr_t.pointee, TensorType):
        return True
    if not isinstance(ptr_t, TensorType):
        return False
    n = math.prod(ptr_t.get_shape())
    if n == 1:
        return False
    return n >= num_warps_of(op) * threads_per_warp_of(op)


def can_fold_into_conversion(op: Operation, target: Attribute) -> bool:
    """Triton's canFoldIntoConversion: ops that can produce any layout directly (a conversion of their result
    folds into them)."""
    name = op.name
    if name == "ttg.convert_layout":
        if isinstance(target, NvidiaMmaEncoding):
            return encoding(op.operands[0].type) == target
        return True
    if name == "tt.reshape":
        return False
    if name == "tt.cat":
        return False
    return name in (
        "arith.constant", "tt.make_range", "tt.splat", "tt.histogram", "ttg.local_alloc", "ttg.local_load",
        "ttg.local_store",
    )

