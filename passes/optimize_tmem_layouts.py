"""triton-nvidia-optimize-tmem-layouts: pick better register layouts and shapes for tensor-memory loads and stores
(Triton's TritonNvidiaGPUOptimizeTMemLayouts).

Five rewrites under MLIR's greedy driver:
- split load: `tt.split(trans[0,2,1](reshape(tmem_load X)))` (layout conversions looked through) with 128 rows
  per CTA and halves of at least 8 columns becomes two `ttng.tmem_subslice`s of X (N = 0 and the half width),
  each loaded in the default TMEM layout and converted to the split's result type; nested splits repeat it;
- store join: `tmem_store(reshape(trans[0,2,1](tt.join(a, b))))` likewise becomes two stores into subslices
  (operands converted to the default layout, predicate `true`);
- load for a reduction: with 8 warps, a `tmem_load` whose results reach (through conversions and elementwise
  ops) a `tt.reduce` along axis 1 loads in the 32x32b layout with warp 4 and lane 16 swapped (so the warps
  split M), converted back to the old type;
- store from shared memory: a `tmem_store` whose operand's backward slice holds 16-bit `ttg.local_load`s that
  cannot vectorize (and none that can) stores in the 16x256b layout, through a conversion;
- load to shared memory: a `tmem_load` whose results reach a sub-32-bit `ttg.local_store` that cannot
  vectorize loads in the 16x256b layout, converted back.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, TensorType, i1, i32
from xdsl.ir import Operation, SSAValue

from ttc.opt.greedy_rewrite import GreedyDriver, Rewriter, fold_in_place
from ttc.ir.format import build_op
from ttc.ir.layout_utils import infer_dst_encoding, is_elementwise, with_encoding
from ttc.ir.layouts import LinearEncoding
from ttc.ir.shared_ll import UnsupportedSharedLayout, to_linear_layout
from ttc.ir.tmem import TMEMLoadOp, TMEMStoreOp, TMEMSubSliceOp, _cta_split
from ttc.ir.tmem_attrs import TensorMemoryEncoding
from ttc.ir.tmem_layout import LL, distributed_tmem_layout, register_layout, tmem_layout
from ttc.ir.ttg import ConvertLayoutOp
from ttc.ir.types import bitwidth, elt, encoding
from ttc.ir.memdesc import MemDescType
from ttc.ir.warp_specialize import lookup_num_warps
from ttc.passes.remove_layout_conversions import convert_backward_slice
from ttc.opt.passmanager import Pass


def _owner(v: SSAValue, name: str) -> Operation | None:
    o = v.owner
    return o if isinstance(o, Operation) and o.name == name else None


def _strip_cvt(v: SSAValue) -> SSAValue:
    while (c := _owner(v, "ttg.convert_layout")) is not None:
        v = c.operands[0]
    return v


def _is_021(trans: Operation | None) -> bool:
    return trans is not None and list(trans.order.get_values()) == [0, 2, 1]


def _ld_st_layout(memdesc, num_warps: int, atom: str) -> LL | None:
    return distributed_tmem_layout(tmem_layout(memdesc.get_shape(), memdesc.encoding), num_warps,
                                   bitwidth(memdesc.element_type), atom)


def _linear(ll: LL) -> LinearEncoding:
    return LinearEncoding.make(**{k: tuple(ll.bases.get(k, ())) for k in ("register", "lane", "warp")}, block=())


def _rows_per_cta(memdesc) -> int:
    return memdesc.get_shape()[0] // _cta_split(memdesc.encoding)[0]


def _subslice(rw: Rewriter, tmem: SSAValue, offset: int, width: int, anchor: Operation) -> SSAValue:
    t = tmem.type
    shape = ArrayAttr([IntAttr(d) for d in [*t.get_shape()[:-1], width]])
    st = MemDescType(shape, t.element_type, t.encoding, t.memory_space, t.mutable, t.alloc_shape)
    op = build_op(TMEMSubSliceOp, [tmem], [st], properties={"N": IntegerAttr(offset, i32)})
    op.location = anchor.location
    return rw.insert_before(op, anchor).result


def _add(rw: Rewriter, op: Operation, anchor: Operation) -> Operation:
    op.location = anchor.location
    return rw.insert_before(op, anchor)


def split_load(split: Operation, rw: Rewriter) -> bool:
    trans = _owner(_strip_cvt(split.operands[0]), "tt.trans")
    if not _is_021(trans):
        return False
    reshape = _owner(trans.operands[0], "tt.reshape")
    if reshape is None:
        return False
    src = _strip_cvt(reshape.operands[0])
    load = _owner(src, "ttng.tmem_load")
    if load is None:
        return False
    shape = reshape.results[0].type.get_shape()
    if shape[0] != src.type.get_shape()[0] or _rows_per_cta(load.src.type) != 128 or shape[2] < 8:
        return False
    warps, out_t, vals = lookup_num_warps(load) or 4, split.results[0].type, []
    for offset in (0, shape[2]):
        sub = _subslice(rw, load.src, offset, shape[2], load)
        new = _add(rw, build_op(TMEMLoadOp, [sub, None], [with_encoding(out_t, _linear(
            _ld_st_layout(sub.type, warps, "32x32b"))), None]), load)
        vals.append(_add(rw, build_op(ConvertLayoutOp, [new.results[0]], [out_t]), load).results[0])
    rw.replace_op(split, vals)
    return True


def store_join(store: Operation, rw: Rewriter) -> bool:
    reshape = _owner(_strip_cvt(store.src), "tt.reshape")
    if reshape is None:
        return False
    shape = reshape.operands[0].type.get_shape()
    if reshape.results[0].type.get_shape()[0] != shape[0]:
        return False
    trans = _owner(reshape.operands[0], "tt.trans")
    if not _is_021(trans):
        return False
    join = _owner(trans.operands[0], "tt.join")
    if join is None or _rows_per_cta(store.dst.type) != 128 or shape[2] < 8:
        return False
    if store.token is not None and store.token.uses:
        return False
    warps = lookup_num_warps(store) or 4
    true = _add(rw, arith.ConstantOp(IntegerAttr(1, i1)), store).result
    for value, offset in ((join.operands[0], 0), (join.operands[1], shape[2])):
        sub = _subslice(rw, store.dst, offset, shape[2], store)
        cvt = _add(rw, build_op(ConvertLayoutOp, [value], [with_encoding(value.type, _linear(
            _ld_st_layout(sub.type, warps, "32x32b")))]), store)
        _add(rw, build_op(TMEMStoreOp, [sub, None, cvt.results[0], true], [None]), store)
    rw.erase(store)
    return True


def _retype_load(load: Operation, enc, rw: Rewriter) -> None:
    """Give the load's result layout `enc`; its users keep the old type through a conversion after it."""
    old = load.result.type
    load.result._type = with_encoding(old, enc)
    cvt = build_op(ConvertLayoutOp, [load.result], [old])
    cvt.location = load.location
    load.parent.insert_op_after(cvt, load)
    rw.driver.inserted(cvt)
    for use in list(load.result.uses):
        if use.operation is not cvt:
            use.operation.operands[use.index] = cvt.results[0]
            rw.modified(use.operation)
    rw.modified(load)


def _reduces_along_n(load: Operation) -> bool:
    """Triton's forward slice through conversions and elementwise ops: whether the last `tt.reduce` met
    reduces axis 1."""
    found, seen, stack = False, set(), [load]
    while stack:
        op = stack.pop()
        for r in op.results:
            for use in r.uses:
                user = use.operation
                if user in seen:
                    continue
                if user.name == "tt.reduce":
                    found = user.axis.value.data == 1
                    continue
                if user.name == "ttg.convert_layout" or is_elementwise(user):
                    seen.add(user)
                    stack.append(user)
    return found


def load_for_reduce(load: Operation, rw: Rewriter) -> bool:
    if lookup_num_warps(load) != 8 or not _reduces_along_n(load):
        return False
    ll = _ld_st_layout(load.src.type, 8, "32x32b")
    if ll is None:
        return False
    warp, lane = ll.bases["warp"], ll.bases["lane"]
    for dim in (0, 1):
        w1, w2, w4, l16 = (b[dim] == 0 for b in (warp[0], warp[1], warp[2], lane[4]))
        if l16 != w4 and w1 == w2 == l16:
            bases = {**ll.bases, "warp": (*warp[:2], lane[4], *warp[3:]), "lane": (*lane[:4], warp[2], *lane[5:])}
            enc = _linear(ll.with_bases(bases))
            if enc == encoding(load.result.type):
                return False
            _retype_load(load, enc, rw)
            return True
    return False


def _consecutive(ll: LL) -> int:
    """Triton's getNumConsecutiveInOut."""
    ins = ll.in_names
    if not ins or not ll.out_names:
        return 1
    first, consec = ll.bases[ins[0]], 0
    while consec < len(first) and first[consec][0] == 1 << consec and not any(first[consec][1:]):
        consec += 1
    other = 0
    for d in ins:
        for i, b in enumerate(ll.bases[d]):
            if d != ins[0] or i >= consec:
                other |= b[0]
    tz = (other & -other).bit_length() - 1 if other else 31
    return 1 << min(consec, tz)


def _vectorizes(tensor_type, memdesc) -> bool | None:
    """Whether registers in `tensor_type`'s layout move more than one consecutive element to or from shared
    memory laid out as `memdesc` (None when ttc does not model a layout)."""
    reg = register_layout(tensor_type)
    try:
        s = to_linear_layout(memdesc.get_shape(), memdesc.encoding)
    except UnsupportedSharedLayout:
        return None
    if reg is None:
        return None
    cvt = reg.invert_and_compose(LL(dict(s.ins), dict(s.outs)))
    return None if cvt is None else _consecutive(cvt) != 1


def from_shared(store: Operation, rw: Rewriter) -> bool:
    dst = store.dst.type
    if not isinstance(dst.encoding, TensorMemoryEncoding):
        return False
    ll = _ld_st_layout(dst, lookup_num_warps(store) or 4, "16x256b")
    if ll is None:
        return False
    enc = _linear(ll)
    old = store.src.type
    if with_encoding(old, enc) == old:
        return False
    index = list(store.operands).index(store.src)
    found = convert_backward_slice((store, index), enc)
    if found is None:
        return False
    improved = False
    for v in found[0]:
        ld = _owner(v, "ttg.local_load")
        if ld is None:
            continue
        if bitwidth(elt(ld.results[0].type)) != 16 or _vectorizes(ld.results[0].type, ld.operands[0].type) is not False:
            return False
        improved = True
    if not improved:
        return False
    cvt = _add(rw, build_op(ConvertLayoutOp, [store.src], [with_encoding(old, enc)]), store)
    store.operands = [cvt.results[0] if o is store.src else o for o in store.operands]
    rw.modified(store)
    return True


_NO_FOLLOW = ("scf.if", "scf.for", "scf.while", "scf.execute_region", "scf.yield", "cf.br", "cf.cond_br",
              "ttg.warp_specialize")


def to_shared(load: Operation, rw: Rewriter) -> bool:
    src = load.src.type
    if not isinstance(src.encoding, TensorMemoryEncoding):
        return False
    ll = _ld_st_layout(src, lookup_num_warps(load) or 4, "16x256b")
    if ll is None:
        return False
    enc = _linear(ll)
    if with_encoding(load.result.type, enc) == load.result.type:
        return False
    work, seen, improved = [(load.result, enc)], set(), False
    while work and not improved:
        v, e = work.pop()
        if (v, e) in seen:
            continue
        seen.add((v, e))
        for use in list(v.uses):
            user = use.operation
            if user.name == "ttg.local_store":
                t = user.operands[0].type
                if bitwidth(elt(t)) < 32 and _vectorizes(t, user.operands[1].type) is False:
                    improved = True
                    break
                continue
            if user.name in _NO_FOLLOW:
                continue
            ue = infer_dst_encoding(user, e)
            if ue is None:
                if user.name != "ttg.convert_layout":
                    continue
                ue = e
            work.extend((r, ue) for r in user.results)
    if not improved:
        return False
    _retype_load(load, enc, rw)
    return True


@dataclass(frozen=True)
class OptimizeTMemLayouts(Pass):
    """Split tensor-memory loads and stores into subslices and pick their register layouts for their users."""

    name = "triton-nvidia-optimize-tmem-layouts"
    display = "TritonNvidiaGPUOptimizeTMemLayoutsPass"
    summary = "Optimize TMEM layouts."

    def apply(self, ctx, module) -> None:
        patterns = {"tt.split": [split_load], "ttng.tmem_store": [store_join, from_shared],
                    "ttng.tmem_load": [load_for_reduce, to_shared]}
        for region in module.regions:
            GreedyDriver(patterns, fold_in_place=fold_in_place).run(region)
