"""tritongpu-remove-layout-conversions: remove `ttg.convert_layout` ops by changing the layouts of the values
around them (Triton's TritonGPURemoveLayoutConversions).

1. Forward propagation. Anchors keep their layout: results of expensive loads (a tensor with at least one
   element per thread), dots and atomics, permuting reshapes, gathers with `efficient_layout`, and function
   arguments. Each anchor's layout flows to its users (elementwise ops, reductions (sliced), expand_dims
   (un-sliced), trans, join/split, reshapes (ttc/ir/reshape_layout.py), gathers, conversions,
   and through `scf.for`/`scf.while`/`scf.if` results and region arguments). A value reached by several layouts
   keeps the first (a blocked one for loads/stores/atomics, an MMA one otherwise). Values are then rewritten in
   place to their layout; users that keep theirs get a conversion.
2. Cleanup: a greedy rewrite (MLIR's default bottom-up traversal) with Triton's `ttg.convert_layout`
   canonicalization patterns, op folding, constant uniquing/hoisting and dead-code removal.
3. Backward rematerialization, repeated while it changes something: for each remaining conversion, the backward
   slice of its operand is recomputed directly in the target layout when every op in it can be (not an
   expensive load, a dot, an atomic, a while; operands already in the layout they need end the slice) and
   Triton's cost model says recomputing costs no more than the conversion; conversions already made are reused
   where they dominate, and any value of the slice already rematerialized in its layout is reused (as Triton
   3.6's rewriteSlice does).
4. Hoisting conversions above extensions/broadcasts (smaller tensors to convert), into the branch of an
   `scf.if` (inside loops) that needs it, and next to the loads feeding MMA dot operands.
5. Final cleanup: dead `scf.for` iteration arguments, conversion patterns, then `scf.for`/`scf.if`
   canonicalization.

The greedy rewrites run in `ttc.opt.greedy_rewrite.apply_tritongpu_patterns`.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import AnyFloat, IntegerType, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue

from ttc.analysis.order import OpOrder
from ttc.ir.convert_layout_patterns import CONVERT_PATTERNS, convert as _cvt
from ttc.ir.fold import ConstantTable, insertion_region, is_constant_op
from ttc.opt.greedy_rewrite import apply_tritongpu_patterns, walk, would_be_trivially_dead
from ttc.ir.layout_utils import (
    can_fold_into_conversion,
    cvt_reorders_registers,
    infer_dst_encoding,
    infer_src_encoding,
    is_elementwise,
    is_expensive_load_or_store,
    same_operands_and_result_encoding,
    with_encoding,
)
from ttc.ir.amd_layouts import AMD_LAYOUTS
from ttc.ir.layouts import BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding
from ttc.ir.types import encoding
from ttc.opt.passmanager import Pass

# ============================================================================= dominance helpers


def _ancestor_in_block(op: Operation, block: Block) -> Operation | None:
    while op is not None:
        if op.parent is block:
            return op
        op = op.parent_op()
    return None


def _before(a: Operation, b: Operation) -> bool:
    """`a` comes before `b` in their (common) block."""
    o = a.next_op
    while o is not None:
        if o is b:
            return True
        o = o.next_op
    return False


def properly_dominates(v: SSAValue, op: Operation, order: OpOrder) -> bool:
    owner = v.owner
    if isinstance(owner, Block):
        return _ancestor_in_block(op, owner) is not None
    anc = _ancestor_in_block(op, owner.parent)
    return anc is not None and anc is not owner and order.is_before(owner, anc)


# ============================================================================= 1. forward propagation


def is_layout_anchor(op: Operation) -> bool:
    name = op.name
    if name in ("tt.load", "tt.store"):
        return is_expensive_load_or_store(op)
    if name in ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", "tt.atomic_rmw", "tt.atomic_cas",
                "ttng.tmem_load"):
        return True
    if name == "tt.reshape":
        return op.properties.get("allow_reorder") is not None
    if name == "tt.gather":
        return op.properties.get("efficient_layout") is not None
    return False


def _propagates_through(op: Operation) -> bool:
    return (
        same_operands_and_result_encoding(op)
        or is_elementwise(op)
        or op.name in ("tt.reduce", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.join", "tt.split",
                       "ttg.convert_layout")
    )


class LayoutPropagation:
    def __init__(self, func: Operation):
        self.func = func
        self.layouts: dict[SSAValue, list] = {}
        self.original: dict[SSAValue, object] = {}

    def init_anchors(self) -> None:
        body = self.func.body.blocks.first
        for a in body.args:
            if isinstance(a.type, TensorType):
                self.layouts[a] = [encoding(a.type)]
        for op in self.func.walk():
            if is_layout_anchor(op):
                for r in op.results:
                    if isinstance(r.type, TensorType):
                        self.layouts[r] = [encoding(r.type)]

    def _set_encoding(self, values, info, changed, op) -> None:
        for v in values:
            if not isinstance(v.type, TensorType):
                continue
            has_changed = False
            lst = self.layouts.setdefault(v, [])
            for e in info:
                dst = e if op.name == "ttg.convert_layout" else infer_dst_encoding(op, e)
                if dst is not None and dst not in lst:
                    lst.append(dst)
                    has_changed = True
            if has_changed:
                changed.append(v)

    def _propagate_to_users(self, value: SSAValue, info) -> list:
        changed: list = []
        for use in list(value.uses):
            user, idx = use.operation, use.index
            name = user.name
            if name == "scf.for":
                if idx >= 3:
                    body = user.body.blocks.first
                    self._set_encoding([body.args[idx - 3 + 1], user.results[idx - 3]], info, changed, user)
                continue
            if name == "scf.while":
                self._set_encoding([user.before_region.blocks.first.args[idx]], info, changed, user)
                continue
            if name == "scf.yield":
                parent = user.parent_op()
                vals = []
                if parent.name in ("scf.for", "scf.if"):
                    vals.append(parent.results[idx])
                if parent.name == "scf.for":
                    vals.append(parent.body.blocks.first.args[idx + 1])
                if parent.name == "scf.while":
                    vals.append(parent.before_region.blocks.first.args[idx])
                if parent.name in ("scf.for", "scf.if", "scf.while"):
                    self._set_encoding(vals, info, changed, user)
                continue
            if name == "scf.condition":
                w = user.parent_op()
                if idx >= 1:
                    self._set_encoding([w.after_region.blocks.first.args[idx - 1], w.results[idx - 1]], info,
                                       changed, user)
                continue
            if name == "ttng.warp_group_dot_wait":
                self._set_encoding([user.results[idx]], info, changed, user)
                continue
            if name == "tt.gather":
                # only the indices carry their layout to the result, and only without an optimized layout
                if idx == 1 and user.properties.get("efficient_layout") is None:
                    self._set_encoding(list(user.results), info, changed, user)
                continue
            if _propagates_through(user):
                self._set_encoding(list(user.results), info, changed, user)
        return changed

    def propagate(self) -> None:
        queue = list(self.layouts)
        while queue:
            v = queue.pop()
            info = list(self.layouts.get(v, []))
            queue.extend(self._propagate_to_users(v, info))

    def resolve_conflicts(self) -> None:
        for v, info in self.layouts.items():
            if len(info) <= 1:
                continue
            owner = v.owner
            load_store = isinstance(owner, Operation) and owner.name in (
                "tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas")
            pick = info[0]
            for e in info:
                if (load_store and isinstance(e, BlockedEncoding)) or (
                    not load_store and isinstance(e, NvidiaMmaEncoding)
                ):
                    pick = e
                    break
            info[:] = [pick]

    # ---- rewrite

    def _picked(self, v: SSAValue):
        info = self.layouts.get(v)
        return info[0] if info else None

    def _encoding_before(self, v: SSAValue):
        if v in self.original:
            return self.original[v]
        return encoding(v.type) if isinstance(v.type, TensorType) else None

    def _set_in_place(self, v: SSAValue, enc) -> None:
        if v not in self.original:
            self.original[v] = encoding(v.type)
        v._type = with_encoding(v.type, enc)

    def value_as(self, v: SSAValue, enc) -> SSAValue:
        """`v` in layout `enc`: itself, or a new conversion right after its definition."""
        if not isinstance(v.type, TensorType) or encoding(v.type) == enc:
            return v
        cvt = _cvt(v, with_encoding(v.type, enc))
        owner = v.owner
        if isinstance(owner, Block):
            cvt.location = owner.parent_op().location
            if owner.first_op is None:
                owner.add_op(cvt)
            else:
                owner.insert_op_before(cvt, owner.first_op)
        else:
            cvt.location = owner.location
            owner.parent.insert_op_after(cvt, owner)
        return cvt.results[0]

    def rewrite(self) -> None:
        queue = deque([self.func.body])
        while queue:
            region = queue.popleft()
            for block in list(region.blocks):
                for op in list(block.ops):
                    if op.parent is None:
                        continue
                    need = False
                    for r in op.results:
                        p = self._picked(r)
                        if p is not None and encoding(r.type) != p:
                            need = True
                    if need:
                        self._rewrite_op(op)
                        queue.extend(op.regions)
                    elif op.name == "scf.yield":
                        self._rewrite_yield(op)
                    elif op.name == "scf.condition":
                        self._rewrite_condition(op)
                    elif op.name == "tt.reduce" and not isinstance(op.results[0].type, TensorType):
                        self._rewrite_reduce_to_scalar(op)
                    elif op.name == "tt.assert":
                        p = self._picked(op.operands[0])
                        if p is not None:
                            op.operands[0] = self.value_as(op.operands[0], p)
                    else:
                        for i, v in enumerate(list(op.operands)):
                            if v in self.layouts and self._picked(v) is not None:
                                op.operands[i] = self.value_as(v, self._encoding_before(v))
                        queue.extend(op.regions)

    def _rewrite_yield(self, op: Operation) -> None:
        parent = op.parent_op()
        for i, v in enumerate(list(op.operands)):
            t = v.type
            if parent.name in ("scf.for", "scf.if"):
                t = parent.results[i].type
            elif parent.name == "scf.while":
                t = parent.before_region.blocks.first.args[i].type
            if isinstance(t, TensorType):
                op.operands[i] = self.value_as(v, encoding(t))

    def _rewrite_condition(self, op: Operation) -> None:
        w = op.parent_op()
        for i in range(1, len(op.operands)):
            t = w.results[i - 1].type
            if isinstance(t, TensorType):
                op.operands[i] = self.value_as(op.operands[i], encoding(t))

    def _rewrite_reduce_to_scalar(self, op: Operation) -> None:
        enc = None
        for v in op.operands:
            if self._picked(v) is not None:
                enc = self._picked(v)
                break
        if enc is None:
            return
        for i, v in enumerate(list(op.operands)):
            op.operands[i] = self.value_as(v, enc)

    def _rewrite_op(self, op: Operation) -> None:
        name = op.name
        if name == "scf.for":
            body = op.body.blocks.first
            for i, (init, r) in enumerate(zip(list(op.iter_args), op.results)):
                p = self._picked(r)
                if p is None or not isinstance(r.type, TensorType):
                    continue
                op.operands[3 + i] = self.value_as(init, p)
                self._set_in_place(r, p)
                self._set_in_place(body.args[i + 1], p)
            return
        if name == "scf.while":
            before, after = op.before_region.blocks.first, op.after_region.blocks.first
            for i, a in enumerate(before.args):
                p = self._picked(a)
                if p is None:
                    continue
                op.operands[i] = self.value_as(op.operands[i], p)
                self._set_in_place(a, p)
            for r, a in zip(op.results, after.args):
                p = self._picked(r)
                if p is not None:
                    self._set_in_place(r, p)
                    self._set_in_place(a, p)
            return
        if name == "scf.if":
            for r in op.results:
                p = self._picked(r)
                if p is not None:
                    self._set_in_place(r, p)
            return
        enc = self._picked(op.results[0])
        if name == "ttg.convert_layout":
            src = op.operands[0]
            src_enc = self._picked(src) or encoding(src.type)
            op.operands[0] = self.value_as(src, src_enc)
            self._set_in_place(op.results[0], enc)
            return
        if can_fold_into_conversion(op, enc):
            # an op that can produce any layout: make it in the new layout through a conversion
            new = op.clone()
            op.parent.insert_op_before(new, op)
            cvt = _cvt(new.results[0], with_encoding(op.results[0].type, enc))
            cvt.location = op.location
            op.parent.insert_op_before(cvt, op)
            op.results[0].replace_all_uses_with(cvt.results[0])
            op.detach()
            op.erase()
            return
        operand_enc = None
        if op.operands:
            for v in op.operands:
                p = self._picked(v)
                if p is not None and infer_dst_encoding(op, p) == enc:
                    operand_enc = p
                    break
            if operand_enc is None:
                operand_enc = infer_src_encoding(op, enc)
        for i, v in enumerate(list(op.operands)):
            op.operands[i] = self.value_as(v, operand_enc)
        for r in op.results:
            if isinstance(r.type, TensorType):
                self._set_in_place(r, enc)


# ============================================================================= 3. backward rematerialization


def can_be_remat(op: Operation) -> bool:
    name = op.name
    if name in ("tt.load", "tt.store"):
        return not is_expensive_load_or_store(op)
    if name in ("tt.atomic_rmw", "tt.atomic_cas", "tt.dot", "scf.while", "scf.condition"):
        return False
    if name == "tt.gather":
        return op.properties.get("efficient_layout") is None
    return True


def convert_backward_slice(root: tuple, root_enc, stop=None, existing=None, admit=None, slice_=None, layout=None):
    """Triton's getConvertBackwardSlice: the tensor values `root` (an (op, operand index) use) depends on, each
    with the layout it needs for `root` to get `root_enc`. None when some value would need two layouts, or a
    dependency cannot change layout (for results, non-loop block arguments, ...). `existing(use, enc)` may
    return an existing value in that layout for a use; its definition is then not traversed further. With
    `admit`, also None as soon as a value defined by an op that `admit` rejects joins the slice (the caller
    would reject the slice: stopping there keeps a failing search from walking the whole function). `slice_` and
    `layout` (dicts), when given, are extended in place (Triton passes its slice on to the next search, which then
    conflicts with what it holds; a failed search leaves what it added)."""
    slice_ = {} if slice_ is None else slice_
    layout = {} if layout is None else layout
    seen: set = set()
    queue: list = []

    def enqueue(use, enc):
        key = (id(use[0]), use[1], enc)
        if key in seen:
            return
        seen.add(key)
        queue.append((use, enc))

    def update(v, enc) -> bool:
        if admit is not None and v not in slice_ and isinstance(v.owner, Operation) and not admit(v.owner):
            return False
        slice_[v] = None
        old = layout.get(v)
        if old is not None and old != enc:
            return False
        layout[v] = enc
        return True

    enqueue(root, root_enc)
    while queue:
        (user, idx), enc = queue.pop()
        cur = user.operands[idx]
        if not isinstance(cur.type, TensorType):
            continue
        owner = cur.owner
        if isinstance(owner, Operation) and owner.name == "scf.for":
            return None
        if not update(cur, enc):
            return None
        if existing is not None:
            e = existing((user, idx), enc)
            if e is not None:
                if not update(e, enc):
                    return None
                cur = e
                owner = cur.owner
        if isinstance(owner, Operation) and owner.name == "scf.if":
            if stop is not None and stop(owner):
                continue
            i = cur.index
            for region in (owner.true_region, owner.false_region):
                y = region.blocks.first.last_op
                enqueue((y, i), enc)
            continue
        if isinstance(owner, Operation):
            for r in owner.results:
                if r is cur or not isinstance(r.type, TensorType):
                    continue
                if not update(r, enc):
                    return None
            if owner.name == "ttg.convert_layout" and cvt_reorders_registers(owner.operands[0].type,
                                                                            owner.results[0].type):
                enqueue((owner, 0), enc)
                continue
            if can_fold_into_conversion(owner, enc):
                continue
            if stop is not None and stop(owner):
                continue
            if owner.name == "tt.cat":
                return None
            if owner.name == "tt.gather":
                # only the indices share the result's layout
                src_enc = infer_src_encoding(owner, enc)
                if src_enc is None:
                    return None
                enqueue((owner, 1), src_enc)
                continue
            src_enc = infer_src_encoding(owner, enc) if owner.operands else None
            for i in range(len(owner.operands)):
                if src_enc is None:
                    return None
                t = owner.operands[i].type
                if isinstance(t, TensorType) and encoding(t) == src_enc:
                    continue  # already in the layout it needs: nothing to propagate
                enqueue((owner, i), src_enc)
            continue
        block = owner
        parent = block.parent_op()
        if parent is not None and parent.name == "scf.for" and cur.index >= 1:
            k = cur.index - 1
            enqueue((parent, 3 + k), enc)
            enqueue((block.last_op, k), enc)
            continue
        return None
    return list(slice_), layout


def _is_expensive_math(op: Operation) -> bool:
    return op.name in (
        "arith.divf", "math.erfc", "math.sinh", "math.cosh", "math.tanh", "math.asinh", "math.acosh",
        "math.atanh", "math.ctpop", "math.ctlz", "math.cttz", "math.exp", "math.exp2", "math.expm1", "math.log",
        "math.log2", "math.log10", "math.log1p", "math.sin", "math.cos", "math.tan", "math.asin", "math.acos",
        "math.atan", "math.atan2", "math.powf", "math.sqrt", "math.rsqrt", "math.erf", "math.cbrt",
    )


def _byte_count(v: SSAValue, min_elems: int = 0, min_bits: int = 0) -> int:
    n = bits = 0
    t = v.type
    if isinstance(t, TensorType):
        n = math.prod(t.get_shape())
        e = t.element_type
        if isinstance(e, IntegerType) or hasattr(e, "bitwidth"):
            bits = e.width.data if isinstance(e, IntegerType) else e.bitwidth
    return (max(n, min_elems) * max(bits, min_bits)) >> 3


def convert_cost(src: SSAValue, dst_enc) -> int:
    """Triton's getConvertCost, in milli-SM-cycles: a round trip through shared memory. Triton 3.6 charges it for
    every conversion, even one that only moves registers (its debug log gives 16384 for 128 i32 from
    blocked<[1],[32],[4]> to a slice of blocked<[1,1],[1,32],[1,4]>, the same element placement; no fixture logs
    a cost of 0): a free conversion here kept layer_norm_bwd_dwdb from recomputing `cols` in the slice layout."""
    return 32 * _byte_count(src, 32, 32)


def _is_associative(reduce: Operation) -> bool:
    """Triton's ReduceOpHelper::isAssociative: a float reduction over more than 2 elements with an addf or mulf in
    its combiner is not (its result depends on the order the lanes combine in)."""
    src = reduce.operands[0].type
    if not isinstance(src.element_type, AnyFloat) or src.get_shape()[reduce.axis.value.data] <= 2:
        return True
    return not any(o.name in ("arith.addf", "arith.mulf") for o in reduce.walk())


def is_remat_beneficial(cvt: Operation, slice_: list) -> bool:
    """Triton's isRematBeneficial: recompute the slice only if that costs no more than the conversion. Ops whose
    results are only used within the slice move rather than duplicate, and cost nothing; a slice that would
    duplicate a non-associative reduction (`_is_associative`) is never recomputed."""
    ops = list(dict.fromkeys(v.owner for v in slice_ if isinstance(v.owner, Operation)))
    op_set = set(ops)
    in_slice = set(slice_)
    # the values used outside the slice, and (transitively) the slice values they are computed from
    outside = {v for v in slice_ if any(u.operation is not cvt and u.operation not in op_set for u in v.uses)}
    queue = list(outside)
    for v in queue:
        o = v.owner
        if isinstance(o, Operation):
            for x in o.operands:
                if x in in_slice and x not in outside:
                    outside.add(x)
                    queue.append(x)
    cvt_cost = convert_cost(cvt.operands[0], encoding(cvt.results[0].type))
    cost = 0
    for o in ops:
        if not any(r in outside for r in o.results):
            continue
        if o.name == "arith.constant":
            continue
        if o.name in ("tt.load", "ttg.local_load"):
            cost += sum(8 * _byte_count(r) for r in o.results)
        elif o.name.startswith("arith.") or o.name.startswith("math."):
            mult = 8 if _is_expensive_math(o) else 1
            cost += sum(mult * _byte_count(r) for r in o.results)
        elif o.name == "tt.reduce":
            if not _is_associative(o):
                return False  # recomputing it would compute a second, differently rounded, float sum or product
            from ttc.analysis.allocation import reduce_unique_sizes

            intra, inter = reduce_unique_sizes(o)
            cost += intra + 8 * inter
    return cvt_cost >= cost


class Rematerialization:
    def __init__(self, func: Operation):
        self.func = func
        self.remat: dict[tuple, SSAValue] = {}
        self.mapped: dict[SSAValue, object] = {}
        self.order = OpOrder()
        self.touched = False  # whether run_hoist changed the IR

    def add_remat(self, old: SSAValue, enc, new: SSAValue) -> None:
        self.remat[(old, enc)] = new
        self.mapped[old] = enc

    def get_remat(self, v: SSAValue, enc):
        r = self.remat.get((v, enc))
        if r is not None and (r.owner is None or (isinstance(r.owner, Operation) and r.owner.parent is None)):
            return None
        return r

    def _existing(self):
        """Triton's getExistingConversion: a recorded rematerialization of a use's value in `enc`, if it
        dominates the user."""
        def fn(use, enc):
            user, idx = use
            r = self.get_remat(user.operands[idx], enc)
            return r if r is not None and properly_dominates(r, user, self.order) else None

        return fn

    def slice_for(self, root, enc, stop=None):
        """getRematerializableSlice: a backward slice every op of which can be recomputed."""
        res = convert_backward_slice(root, enc, stop, self._existing(), can_be_remat)
        if res is None or not res[0]:
            return None
        return res[0], res[1]

    def backward(self, cvt: Operation) -> bool:
        target = encoding(cvt.results[0].type)
        if isinstance(target, DotOperandEncoding):
            return False
        old = cvt.operands[0]
        new = self.get_remat(old, target)
        if new is not None and properly_dominates(new, cvt, self.order):
            cvt.results[0].replace_all_uses_with(new)
            cvt.detach()
            cvt.erase()
            return True
        res = self.slice_for((cvt, 0), target)
        if res is None:
            return False
        slice_, layout = res
        if not is_remat_beneficial(cvt, slice_):
            return False
        self.rewrite_slice(slice_, layout, cvt, {})
        return True

    def rewrite_slice(self, slice_: list, layout: dict, cvt: Operation, mapping: dict) -> None:
        found_ops: dict[Operation, None] = {}
        yield_operands: dict[Operation, list[int]] = {}
        skip = set()

        def add(o):
            found_ops[o] = None

        for v in slice_:
            enc = layout[v]
            # Triton 3.6 reuses any recorded rematerialization of a slice value (its dominance was checked when
            # the slice was built, for the values reached through existing conversions)
            r = self.get_remat(v, enc)
            if r is not None:
                mapping[v] = r
                skip.add(v)
                continue
            owner = v.owner
            if isinstance(owner, Operation):
                add(owner)
                if owner.name == "scf.if":
                    for region in (owner.true_region, owner.false_region):
                        y = region.blocks.first.last_op
                        add(y)
                        yield_operands.setdefault(y, []).append(v.index)
            else:
                parent = owner.parent_op()
                if parent is not None and parent.name == "scf.for":
                    add(parent)
                    y = owner.last_op
                    yield_operands.setdefault(y, []).append(v.index - 1)
                    add(y)
        slice_ = [v for v in slice_ if v not in skip]
        in_slice = set(slice_)
        ops = self.order.pre_order(found_ops, self.func)

        replacements: list[tuple[SSAValue, SSAValue]] = []
        dead: list[Operation] = []
        for op in ops:
            if op.name == "scf.for":
                body = op.body.blocks.first
                n = len(op.iter_args)
                arg_map, new_inits = [], []
                for k, a in enumerate(body.args[1:]):
                    if a in in_slice:
                        arg_map.append((k, n + len(new_inits)))
                        new_inits.append(mapping.get(op.iter_args[k], op.iter_args[k]))
                new_for = _for_with_new_inits(op, new_inits, replacements)
                dead.append(op)
                nbody = new_for.body.blocks.first
                for k_old, k_new in arg_map:
                    mapping[op.results[k_old]] = new_for.results[k_new]
                    mapping[nbody.args[k_old + 1]] = nbody.args[k_new + 1]
                    old_arg = nbody.args[k_old + 1]
                    self.add_remat(new_for.results[k_old], layout[old_arg], new_for.results[k_new])
                    self.add_remat(old_arg, layout[old_arg], nbody.args[k_new + 1])
                continue
            if op.name == "scf.if":
                new_types = [with_encoding(r.type, layout[r]) for r in op.results if r in in_slice]
                new_if = _if_with_new_results(op, new_types, replacements)
                k = len(op.results)
                for r in op.results:
                    if r in in_slice:
                        mapping[r] = new_if.results[k]
                        self.add_remat(r, layout[r], new_if.results[k])
                        k += 1
                dead.append(op)
                continue
            if op.name == "scf.yield":
                idxs = sorted(yield_operands.get(op, []))
                vals = list(op.operands) + [mapping.get(op.operands[i], op.operands[i]) for i in idxs]
                new_y = scf.YieldOp(*vals)
                new_y.location = op.location
                op.parent.insert_op_before(new_y, op)
                op.detach()
                op.erase()
                continue
            if op.name == "arith.constant":
                new = op.clone()
                op.parent.insert_op_before(new, op)
                r = op.results[0]
                c = _cvt(new.results[0], with_encoding(r.type, layout[r]))
                c.location = op.location
                op.parent.insert_op_before(c, op)
                mapping[r] = c.results[0]
                self.add_remat(r, layout[r], c.results[0])
                continue
            new = op.clone(value_mapper=mapping)
            op.parent.insert_op_before(new, op)
            for old_r, new_r in zip(op.results, new.results):
                if old_r in layout:
                    new_r._type = with_encoding(old_r.type, layout[old_r])
                    self.add_remat(old_r, layout[old_r], new_r)
        src = cvt.operands[0]
        cvt.results[0].replace_all_uses_with(mapping.get(src, src))
        cvt.detach()
        cvt.erase()
        self._update_remat(replacements)
        for old, new in replacements:
            old.replace_all_uses_with(new)
        for op in dead:
            op.detach()
            op.erase()

    def _update_remat(self, values: list) -> None:
        for old, new in values:
            enc = self.mapped.pop(old, None)
            if enc is None:
                continue
            replaced = self.remat.pop((old, enc), None)
            for before, after in values:
                if before is replaced:
                    replaced = after
                    break
            self.remat[(new, enc)] = replaced
            self.mapped[new] = enc

    def _converts(self) -> list[Operation]:
        return [o for o in walk(self.func.body, pre_order=False) if o.name == "ttg.convert_layout"]

    def run_backward(self) -> bool:
        changed = False
        for cvt in self._converts():
            if cvt.parent is None:
                continue
            if self.backward(cvt):
                changed = True
            else:
                self.add_remat(cvt.operands[0], encoding(cvt.results[0].type), cvt.results[0])
        return changed

    # ---- 4. hoisting

    def hoist_ext_or_broadcast(self, cvt: Operation) -> bool:
        """Triton 3.6's hoistConvertOnTopOfExtOrBroadcast: when the slice can be recomputed but for one extension
        (or broadcast), convert that op's (smaller) operand instead and recompute the rest. No cost model decides
        (Triton's debug log shows none in this phase; later Triton versions added isRematBeneficial here)."""
        target = encoding(cvt.results[0].type)
        if isinstance(target, DotOperandEncoding):
            return False

        def is_ext(o: Operation) -> bool:
            if o.name in ("arith.extsi", "arith.extui", "arith.extf", "tt.broadcast", "tt.expand_dims"):
                return True
            if o.name == "tt.fp_to_fp":
                from ttc.ir.types import bitwidth

                return bitwidth(o.operands[0].type) < bitwidth(o.results[0].type)
            return False

        res = self.slice_for((cvt, 0), target, is_ext)
        if res is None:
            return False
        slice_, layout = res
        ext = None
        i = 0
        n = len(slice_)
        while i < n:
            v = slice_[i]
            i += 1
            o = v.owner
            if not isinstance(o, Operation) or not is_ext(o):
                continue
            src_enc = infer_src_encoding(o, layout[v])
            if src_enc is None:
                return False
            sub = self.slice_for((o, 0), src_enc)
            if sub is not None:
                ok = all(layout.get(x, sub[1][x]) == sub[1][x] for x in sub[0])
                if ok:
                    for x in sub[0]:
                        if x not in layout:
                            slice_.append(x)
                        layout[x] = sub[1][x]
                    continue
            if ext is not None:
                return False
            ext = o
        if ext is None:
            return False
        dst_enc = layout[ext.results[0]]
        src_enc = infer_src_encoding(ext, dst_enc)
        if src_enc is None:
            return False
        new_cvt = _cvt(ext.operands[0], with_encoding(ext.operands[0].type, src_enc))
        new_cvt.location = cvt.location
        ext.parent.insert_op_before(new_cvt, ext)
        new_ext = ext.clone()
        new_ext.operands[0] = new_cvt.results[0]
        new_ext.results[0]._type = with_encoding(ext.results[0].type, dst_enc)
        ext.parent.insert_op_before(new_ext, ext)
        mapping = {ext.results[0]: new_ext.results[0]}
        slice_ = [v for v in slice_ if v is not ext.results[0]]
        self.rewrite_slice(slice_, layout, cvt, mapping)
        return True

    def hoist_into_conditionals(self, cvt: Operation) -> bool:
        """Triton's hoistConvertIntoConditionals: the backward slice stops at `scf.if`s; for each one, slices along
        its two branches extend the current one (so they must agree with it, and the second with the first).
        Both succeeding, they join it; both failing, the if's result is converted where it is made; one failing,
        in a loop, the conversion goes into that branch."""
        def is_if(o):
            return o.name == "scf.if"

        def remat_slice(root, enc, sl, lay) -> bool:
            """getRematerializableSlice: extend `sl`/`lay` (only when every op of the result can be recomputed)."""
            s2, l2 = dict(sl), dict(lay)
            if convert_backward_slice(root, enc, is_if, self._existing(), can_be_remat, s2, l2) is None or not s2:
                return False
            if not all(can_be_remat(v.owner) for v in s2 if isinstance(v.owner, Operation)):
                return False
            sl.clear(), sl.update(s2), lay.clear(), lay.update(l2)
            return True

        sl: dict = {}
        layout: dict = {}
        if not remat_slice((cvt, 0), encoding(cvt.results[0].type), sl, layout) or not sl:
            return False
        hoist_above = []
        terminals = []
        i = 0
        while i < len(sl):
            v = list(sl)[i]
            i += 1
            o = v.owner
            if not isinstance(o, Operation) or o.name != "scf.if":
                continue
            root_layout = layout[v]
            k = v.index
            then_y = o.true_region.blocks.first.last_op
            else_y = o.false_region.blocks.first.last_op if o.false_region.blocks else None
            if else_y is None:
                terminals.append(v)
                continue
            new_sl, new_layout = dict(sl), dict(layout)
            t = remat_slice((then_y, k), root_layout, new_sl, new_layout)
            e = remat_slice((else_y, k), root_layout, new_sl, new_layout)
            if t and e:
                sl, layout = new_sl, new_layout
                continue
            if not t and not e:
                terminals.append(v)
                continue
            parent = o.parent_op()
            if parent is None or parent.name != "scf.for":
                terminals.append(v)
                continue
            sl, layout = new_sl, new_layout
            hoist_above.append((v, (else_y, k) if t else (then_y, k)))
        slice_ = list(sl)
        if not hoist_above:
            return False
        mapping: dict = {}

        def hoist(v, enc, anchor_after=None, before=None):
            c = _cvt(v, with_encoding(v.type, enc))
            c.location = cvt.location
            if before is not None:
                before.parent.insert_op_before(c, before)
            else:
                anchor_after.parent.insert_op_after(c, anchor_after)
            mapping[v] = c.results[0]
            if v in slice_:
                slice_.remove(v)

        for v in terminals:
            hoist(v, layout[v], anchor_after=v.owner)
        for result, (user, k) in hoist_above:
            hoist(user.operands[k], layout[result], before=user)
        self.rewrite_slice(slice_, layout, cvt, mapping)
        return True

    def hoist_dot_operands(self) -> None:
        """Hoist the conversions that a dot on MMA operands (NVIDIA's or AMD's: Triton's MmaEncodingTrait)
        post-dominates (one later in their block: the rewrites neither add nor move dots) next to the loads they
        convert."""
        self.last_mma_dot: dict[Block, Operation] = {}
        for o in walk(self.func.body, pre_order=False):
            if o.name in ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot"):
                enc = encoding(o.operands[0].type)
                if isinstance(enc, DotOperandEncoding) and isinstance(enc["parent"], (NvidiaMmaEncoding, *AMD_LAYOUTS)):
                    self.last_mma_dot[o.parent] = o
        self.run_hoist(self.hoist_dot_operand)

    def hoist_dot_operand(self, cvt: Operation) -> bool:
        target = encoding(cvt.results[0].type)
        dot = self.last_mma_dot.get(cvt.parent)
        if cvt.parent_op() is None or dot is None or not self.order.is_before(cvt, dot):
            return False

        def no_data_movement(o):  # elementwise and free of memory effects (pure inline asm too), or a view
            if o.name in ("tt.extern_elementwise", "tt.elementwise_inline_asm"):
                return bool(o.pure.value.data)
            return is_elementwise(o) \
                or o.name in ("tt.broadcast", "tt.expand_dims", "tt.reshape", "tt.trans", "tt.join", "tt.split",
                              "ttg.convert_layout", "ttg.fp4_to_fp")

        res = convert_backward_slice((cvt, 0), target, lambda o: not no_data_movement(o), self._existing())
        if res is None:
            return False
        slice_, layout = res
        mapping: dict = {}
        inner = []
        for v in slice_:
            o = v.owner
            if not isinstance(o, Operation):
                return False
            if o.name not in ("tt.load", "tt.descriptor_load"):
                if o.name == "arith.constant" or no_data_movement(o):
                    inner.append(v)
                    continue
                return False
            c = _cvt(o.results[0], with_encoding(o.results[0].type, layout[o.results[0]]))
            c.location = cvt.location
            o.parent.insert_op_after(c, o)
            self.touched = True  # kept (unused) where the hoist then gives up
            mapping[o.results[0]] = c.results[0]
        if not inner:
            return False
        self.rewrite_slice(inner, layout, cvt, mapping)
        return True

    def run_hoist(self, fn) -> None:
        for cvt in self._converts():
            if cvt.parent is None:
                continue
            if fn(cvt):
                self.touched = True
            else:
                self.add_remat(cvt.operands[0], encoding(cvt.results[0].type), cvt.results[0])


def _for_with_new_inits(loop: Operation, new_inits: list, replacements: list) -> Operation:
    """Triton's replaceForOpWithNewSignature: a copy of `loop` with extra iteration arguments, taking its body."""
    inits = list(loop.iter_args) + list(new_inits)
    new = scf.ForOp.create(
        operands=[loop.lb, loop.ub, loop.step, *inits],
        result_types=[v.type for v in inits],
        regions=[Region()],
        attributes=dict(loop.attributes),
        properties=dict(loop.properties),
    )
    new.location = loop.location
    loop.parent.insert_op_before(new, loop)
    loop.body.move_blocks(new.body)
    body = new.body.blocks.first
    for v in new_inits:
        body.insert_arg(v.type, len(body.args))
    for old, nr in zip(loop.results, new.results):
        replacements.append((old, nr))
    return new


def _if_with_new_results(op: Operation, new_types: list, replacements: list) -> Operation:
    new = scf.IfOp.create(
        operands=[op.cond], result_types=[r.type for r in op.results] + list(new_types),
        regions=[Region(), Region()], attributes=dict(op.attributes), properties=dict(op.properties),
    )
    new.location = op.location
    op.true_region.move_blocks(new.true_region)
    op.false_region.move_blocks(new.false_region)
    op.parent.insert_op_before(new, op)
    for old, nr in zip(op.results, new.results):
        replacements.append((old, nr))
    return new


# ============================================================================= 5. final cleanup


def for_dead_arg_elimination(op: Operation, rw) -> bool:
    """Triton's ForOpDeadArgElimination: iteration arguments whose values only feed themselves (and no side
    effect) are made to yield their own argument, so canonicalization drops them."""
    dead = dead_iter_args(op)
    if not dead:
        return False
    y = op.body.blocks.first.last_op
    for i in dead:
        y.operands[i] = op.body.blocks.first.args[i + 1]
    rw.modified(op)
    return True


def dead_iter_args(op: Operation) -> list[int]:
    """The iteration arguments of `op` that for_dead_arg_elimination rewrites (it changes nothing else)."""
    body = op.body.blocks.first
    y = body.last_op
    alive: set = set()
    queue: list = []

    nested: dict[Block | None, bool] = {}  # inside's answer by the value's block

    def inside(v) -> bool:
        """`v` is defined in the loop's body (or deeper)."""
        owner = v.owner
        block = owner if isinstance(owner, Block) else owner.parent
        known = nested.get(block)
        if known is not None:
            return known
        p = block.parent.parent_op() if block is not None and block.parent is not None else None
        while p is not None and p is not op:
            p = p.parent_op()
        nested[block] = p is not None
        return p is not None

    def mark(v):
        if not inside(v):
            return
        if v not in alive:
            alive.add(v)
            queue.append(v)

    for i, r in enumerate(op.results):
        if r.first_use is not None:
            mark(y.operands[i])
    if len(alive) == len(op.results):
        return []
    for o in walk(op.body, pre_order=False):
        if o.name not in ("scf.yield", "scf.for") and not would_be_trivially_dead(o):
            for v in o.operands:
                mark(v)
    while queue:
        v = queue.pop()
        owner = v.owner
        if isinstance(owner, Operation):
            if owner.name == "scf.for":
                k = v.index
                mark(owner.iter_args[k])
                mark(owner.body.blocks.first.last_op.operands[k])
                continue
            if owner.name == "scf.if":
                mark(owner.cond)
                for region in (owner.true_region, owner.false_region):
                    if region.blocks:
                        mark(region.blocks.first.last_op.operands[v.index])
                continue
            if owner.name == "scf.while":
                return []
            for x in owner.operands:
                mark(x)
            continue
        parent = owner.parent_op()
        if parent is not None and parent.name == "scf.for" and v.index >= 1:
            k = v.index - 1
            mark(owner.last_op.operands[k])
            mark(parent.iter_args[k])
    dead = []
    for i, v in enumerate(y.operands):
        if v in alive or v is body.args[i + 1]:
            continue
        if not inside(v) and v is not op.iter_args[i]:
            continue
        dead.append(i)
    return dead


def _scf_patterns() -> dict:
    from ttc.passes.canonicalize import PATTERNS

    return {"scf.for": list(PATTERNS.get("scf.for", [])), "scf.if": list(PATTERNS.get("scf.if", []))}


def _constants_settled(module: Operation) -> bool:
    """Whether a new driver's constant table would take every constant where it is (`ConstantTable.insert_known`
    over the driver's walk): none a duplicate, none outside its insertion region's entry block, none after an op
    that is not a constant registered before it."""
    for region in module.regions:
        keys: dict[Region, set] = {}
        owned: set[Operation] = set()
        for op in walk(region, False):
            if not is_constant_op(op):
                continue
            block = op.parent
            home = insertion_region(block)
            seen = keys.setdefault(home, set())
            key = ConstantTable._key(op)
            if key in seen or block is not home.blocks.first or (block.first_op is not op and op.prev_op not in owned):
                return False
            seen.add(key)
            owned.add(op)
    return True


def remove_layout_conversions(module: Operation) -> None:
    funcs = [op for op in module.walk() if op.name == "tt.func" and op.body.blocks.first is not None]
    for f in funcs:
        p = LayoutPropagation(f)
        p.init_anchors()
        p.propagate()
        p.resolve_conflicts()
        p.rewrite()
    # `last`: the drivers of the last greedy rewrite while nothing changed the IR since (else empty); a new driver
    # takes over the ops they processed without a change (GreedyDriver.inherit)
    last: list = []
    converged = apply_tritongpu_patterns(module, CONVERT_PATTERNS, drivers=last)
    for _ in range(10):
        changed = False
        for f in funcs:
            changed |= Rematerialization(f).run_backward()
        # run_backward changes nothing when it says so: on IR where the last driver reached its fixed point, a new
        # driver would change nothing either (the patterns, folds and dead-op checks depend on the IR alone) unless
        # its new constant table moved or merged constants
        if not changed and converged and _constants_settled(module):
            break
        prev, last = ([] if changed else last), []
        converged = apply_tritongpu_patterns(module, CONVERT_PATTERNS, after=prev, drivers=last)
        if not changed:
            break
    touched = False
    for f in funcs:
        r = Rematerialization(f)
        r.run_hoist(r.hoist_ext_or_broadcast)
        touched |= r.touched
    for f in funcs:
        r = Rematerialization(f)
        r.run_hoist(r.hoist_into_conditionals)
        touched |= r.touched
    for f in funcs:
        r = Rematerialization(f)
        r.hoist_dot_operands()
        touched |= r.touched
    # on the IR the last driver left at its fixed point, a new one with for_dead_arg_elimination added changes
    # nothing where that pattern finds no dead argument and its constant table would move nothing
    if touched:
        last = []
    if (touched or not converged or not _constants_settled(module)
            or any(dead_iter_args(op) for op in module.walk() if op.name == "scf.for")):
        prev, last = last, []
        apply_tritongpu_patterns(module, {**CONVERT_PATTERNS, "scf.for": [for_dead_arg_elimination]}, after=prev,
                                 drivers=last)
    apply_tritongpu_patterns(module, _scf_patterns(), after=last)


@dataclass(frozen=True)
class RemoveLayoutConversions(Pass):
    """Remove layout conversions: propagate anchor layouts forward, rematerialize backward slices, hoist."""

    name = "tritongpu-remove-layout-conversions"
    display = "TritonGPURemoveLayoutConversions"
    summary = "Remove superfluous ttg.convert_layout ops by propagating and rematerializing layouts"

    def apply(self, ctx, module) -> None:
        remove_layout_conversions(module)
