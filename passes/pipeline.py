"""tritongpu-pipeline: software pipelining of the loads that feed dots (Triton's TritonGPUPipeline, in the form
it takes for sm80: `cp.async` copies into multi-stage shared buffers).

With `num-stages = S` (a loop's own `tt.num_stages` attribute wins; below 2, or a target before sm80, nothing
happens), an innermost `scf.for` is pipelined when some of its `tt.load`s qualify: a tensor of pointers (not a
block pointer), `other` absent or zero (cp.async zero-fills), at least 4 bytes per access (what the axis
analysis proves for the pointers and the mask, as the cp.async lowering will), and every use a
`ttg.convert_layout` to a `#ttg.dot_op` of an `#ttg.nvidia_mma` layout. The loads' addresses and masks, and
the loop-carried values they depend on (X: the pointers), must be computed in the loop from X, the induction
variable and values from outside only (stage 0); the rest of the body (stage 1: the dot, the accumulator) must
not use X or what stage 0 computes from X (stage 0 values of the induction variable alone, such as a mask that
an unpipelined load shares, stay in place for it), and X's results must be unused after the loop. Then, with D = S - 1:

    %buf = ttg.local_alloc : () -> !ttg.memdesc<DxMxK, #shared, #smem, mutable>      (one per load)
    prologue, i = 0 .. D-1: stage 0 for iteration i; per load: memdesc_index %buf[i], async_copy_global_to_local
        with its mask AND (lb + i * step < ub), async_commit_group
    scf.for %k ... iter_args(..., X = X of iteration D, %idx = 0):
        ttg.async_wait {num = (D - 1) * loads}         (iteration k's copies are done)
        per load: %view = memdesc_index %buf[%idx]; ttg.local_load %view -> the dot operand layout
        stage 1 (the dot ...)
        stage 0 for iteration k + D (induction variable k + D * step, X as carried); per load: async copy into
            %view (the stage just read: the lowering puts a barrier between), masked by k + D * step < ub;
            async_commit_group
        scf.yield ..., X of iteration k + D + 1, (%idx + 1) mod D
    ttg.async_wait {num = 0}; ttg.local_dealloc %buf

`#shared` is Triton's `#ttg.swizzled_shared` for an MMA v2 operand (`mma_v2_shared_layout`: vec = the 8 x 8 x
4*kWidth swizzle unit's contiguous extent, perPhase = max(128 / (row bytes), 1), maxPhase = the unit's other
extent / perPhase; order = the load layout's). Triton reaches the
same loop through its latency assignment and loop scheduling passes and carries async tokens through the loop;
this pass covers the loads-into-dots case only, and its text differs from Triton's (index arithmetic, tokens
left out: `async_wait` and `local_load` take them optionally).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, TensorType, i1, i32
from xdsl.ir import Attribute, BlockArgument, Operation, Region, SSAValue
from xdsl.traits import is_side_effect_free

from ttc.analysis.axis_info import AxisInfoAnalysis, access_width, mask_width
from ttc.fold import is_zero
from ttc.ir import ttg
from ttc.ir.inserter import Inserter
from ttc.ir.layout_utils import blocked_for_shape, get_order, with_encoding
from ttc.ir.layouts import (BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, SharedMemorySpace,
                            SwizzledSharedEncoding)
from ttc.ir.tt import SplatOp
from ttc.ir.types import AsyncTokenType, MemDescType, bitwidth, elt, encoding, shape_of
from ttc.lowering.linear_layout import UnsupportedLayout, layout_for
from ttc.passes.accelerate_matmul import target_capability
from ttc.passmanager import Pass, option


def _operand_layout(load: Operation) -> Attribute | None:
    """The one `#ttg.dot_op<{parent = #nvidia_mma}>` layout that every use of `load` converts it to."""
    layouts = set()
    for use in load.results[0].uses:
        op = use.operation
        if op.name != "ttg.convert_layout":
            return None
        enc = encoding(op.results[0].type)
        if not isinstance(enc, DotOperandEncoding) or not isinstance(enc["parent"], NvidiaMmaEncoding):
            return None
        layouts.add(enc)
    return layouts.pop() if len(layouts) == 1 else None


def _wide_enough(load: Operation, axis: AxisInfoAnalysis) -> bool:
    """At least 4 bytes per access, as the cp.async lowering will find (pointers and mask)."""
    enc = encoding(load.ptr.type)
    if not isinstance(enc, BlockedEncoding):
        return False
    order0 = get_order(enc)[0]
    bits = max(8, bitwidth(elt(load.result.type)))
    try:
        contiguous = layout_for(shape_of(load.ptr.type), enc).contiguous_regs(order0)
    except UnsupportedLayout:
        return False
    vec = mask_width(axis, load.mask, order0, access_width(axis, load.ptr, order0, contiguous, bits))
    return vec * bits >= 32


def _qualifies(load: Operation, axis: AxisInfoAnalysis) -> bool:
    return (isinstance(load.result.type, TensorType) and not isinstance(elt(load.ptr.type).pointee, TensorType)
            and (load.other is None or is_zero(load.other)) and _operand_layout(load) is not None
            and _wide_enough(load, axis))


def shared_layout(load: Operation) -> SwizzledSharedEncoding:
    """Triton's swizzled shared layout for an MMA v2 operand loaded with `load`'s layout."""
    operand = _operand_layout(load)
    return mma_v2_shared_layout(shape_of(load.result.type), get_order(encoding(load.ptr.type)),
                                bitwidth(elt(load.result.type)), operand["opIdx"], operand["kWidth"])


def mma_v2_shared_layout(shape, order, bits: int, op_idx: int, k_width: int) -> SwizzledSharedEncoding:
    """Triton's `#ttg.swizzled_shared` for an MMA v2 operand (its SwizzledSharedEncodingAttr builder for Ampere
    dot operands, operands not transposed): a swizzle unit of 8 x 8 x (4 * kWidth) (M, N, K) elements; `vec`
    is the unit's extent along the contiguous dimension, `perPhase` the rows that share a phase (128 bytes /
    the row's 32-bit words * kWidth), `maxPhase` the unit's extent along the other dimension / perPhase."""
    rank = len(shape)
    per_phase = max(128 // (shape[order[0]] * 4 // k_width), 1)
    inner = rank - 1 if op_idx == 0 else rank - 2  # K
    if 32 // bits != k_width and order[0] == inner:  # upcast operands: kWidth is not the element's
        per_phase = max(per_phase, 2 * (32 // bits))
    k, mn = 4 * k_width, 8
    contiguous_is_k = order[0] == inner
    vec, stride = (k, mn) if contiguous_is_k else (mn, k)
    return SwizzledSharedEncoding.make(vec=vec, perPhase=per_phase, maxPhase=max(stride // per_phase, 1), order=order)


@dataclass
class _Loop:
    """What pipelining a loop needs to know: its loads, stage 0 (in body order) and the carried values X."""
    loop: scf.ForOp
    loads: list
    stage0: list
    carried: list  # indices of X among the iter_args


def _analyze(loop: scf.ForOp, axis: AxisInfoAnalysis) -> _Loop | None:
    body = loop.body.block
    iv, args, yield_op = body.args[0], list(body.args[1:]), body.last_op
    ops = [op for op in body.ops if op is not yield_op]
    loads = [op for op in ops if op.name == "tt.load" and _qualifies(op, axis)]
    if not loads:
        return None
    in_body, stage0, carried = set(ops), set(), set()
    work = [v for load in loads for v in load.operands]
    while work:
        v = work.pop()
        if isinstance(v, BlockArgument) and v.owner is body:
            if v is not iv and v.index - 1 not in carried:
                carried.add(v.index - 1)
                work.append(yield_op.operands[v.index - 1])
            continue
        op = v.owner
        if not isinstance(op, Operation) or op not in in_body or op in stage0:
            continue
        if op.regions or not is_side_effect_free(op):
            return None  # loads of addresses, nested control flow: not stage 0 material
        stage0.add(op)
        work.extend(op.operands)
    x_args = {args[i] for i in carried}
    # stage 0 values that depend on X hold iteration k + D's values once pipelined: stage 1 must not use them
    # (the others, from the induction variable and outside values only, stay where they are for stage 1)
    stage0_values = set()
    for op in ops:
        if op in stage0 and any(o in x_args or o in stage0_values for o in op.operands):
            stage0_values.update(op.results)
    for op in ops:
        if op in stage0 or op in loads:
            continue
        for inner in op.walk():  # the op itself and the ops nested in it
            if any(o in x_args or o in stage0_values for o in inner.operands):
                return None
    for i, y in enumerate(yield_op.operands):
        if i not in carried and (y in x_args or y in stage0_values):
            return None
    if any(loop.results[i].first_use is not None for i in carried):
        return None
    return _Loop(loop, loads, [op for op in ops if op in stage0], sorted(carried))


def _copy_stage(em: Inserter, info: _Loop, mapping: dict, iv_value: SSAValue, views: list) -> None:
    """Stage 0 for the iteration at `iv_value` (cloned with `mapping`), then one masked async copy per load into
    its view, each committed as a group."""
    for op in info.stage0:
        em.add(op.clone(mapping), op.location)
    valid = em.add(arith.CmpiOp(iv_value, info.loop.ub, "slt"))
    for load, view in zip(info.loads, views):
        at = load.location
        ptr = mapping.get(load.ptr, load.ptr)
        mask_type = TensorType(i1, shape_of(load.ptr.type), encoding(load.ptr.type))
        mask = em.add(SplatOp.build(operands=[valid], result_types=[mask_type]), at)
        if load.mask is not None:
            mask = em.add(arith.AndIOp(mapping.get(load.mask, load.mask), mask), at)
        other = [mapping.get(load.other, load.other)] if load.other is not None else []
        clipped = clipped_copy_layout(encoding(load.ptr.type), view.type.encoding, shape_of(load.ptr.type))
        if clipped is not None:  # Triton's coalesce-async-copy: no more per thread than the buffer's vec
            ptr, mask, *other = (em.add(ttg.ConvertLayoutOp.build(operands=[v], result_types=[with_encoding(v.type, clipped)]), at)
                                 for v in [ptr, mask, *other])
        copy = em.add(ttg.AsyncCopyGlobalToLocalOp.build(operands=[ptr, view, [mask], other],
                                                           result_types=[AsyncTokenType()]), at)
        em.add(ttg.AsyncCommitGroupOp.build(operands=[[copy]], result_types=[AsyncTokenType()]), at)


def clipped_copy_layout(src: Attribute, shared: Attribute, shape) -> BlockedEncoding | None:
    """Triton's tritongpu-coalesce-async-copy (its ClipAsyncCopySizePerThread): a copy's source layout whose
    threads hold more contiguous elements than the swizzled buffer keeps together (its `vec`) would need several
    cp.async per thread's run; the copy takes a layout with sizePerThread clipped to `vec` instead (lanes and
    warps spread again over the tensor). None when no clipping is needed."""
    if not isinstance(src, BlockedEncoding) or not isinstance(shared, SwizzledSharedEncoding):
        return None
    order, spt = list(src["order"]), list(src["sizePerThread"])
    if spt[order[0]] <= shared["vec"]:
        return None
    spt[order[0]] = shared["vec"]
    return blocked_for_shape(shape, spt, order, prod(src["warpsPerCTA"]), prod(src["threadsPerWarp"]))


def _memdesc(shape, element_type, enc) -> MemDescType:
    dims = ArrayAttr([IntAttr(d) for d in shape])
    return MemDescType(dims, element_type, enc, SharedMemorySpace(), IntAttr(1), dims)


def pipeline_loop(info: _Loop, stages: int) -> None:
    loop = info.loop
    depth = stages - 1
    body = loop.body.block
    iv, args, yield_op = body.args[0], list(body.args[1:]), body.last_op
    before = Inserter(loop, loop.location)
    allocs = []
    for load in info.loads:
        shape = shape_of(load.result.type)
        allocs.append(before.add(ttg.LocalAllocOp.build(
            operands=[[]], result_types=[_memdesc([depth, *shape], elt(load.result.type), shared_layout(load))]),
            load.location))

    def views(em, index):
        out = []
        for alloc, load in zip(allocs, info.loads):
            t = alloc.type
            sub = _memdesc(t.get_shape()[1:], t.element_type, t.encoding)
            out.append(em.add(ttg.MemDescIndexOp.build(operands=[alloc, index], result_types=[sub]), load.location))
        return out

    # prologue: iterations 0 .. D-1
    x_values = [loop.iter_args[i] for i in info.carried]
    for i in range(depth):
        iv_i = loop.lb if i == 0 else before.advance(loop.lb, loop.step, i)
        mapping = {iv: iv_i, **{args[c]: x for c, x in zip(info.carried, x_values)}}
        index = before.constant(i, i32)
        _copy_stage(before, info, mapping, iv_i, views(before, index))
        x_values = [mapping.get(yield_op.operands[c], yield_op.operands[c]) for c in info.carried]

    # the loop: X starts D iterations ahead, plus the stage index
    inits = list(loop.iter_args)
    for c, x in zip(info.carried, x_values):
        inits[c] = x
    zero = before.constant(0, i32)
    new = scf.ForOp.create(operands=[loop.lb, loop.ub, loop.step, *inits, zero],
                           result_types=[r.type for r in loop.results] + [i32], regions=[Region()],
                           attributes=dict(loop.attributes), properties=dict(loop.properties))
    new.location = loop.location
    loop.parent.insert_op_before(new, loop)
    loop.body.move_blocks(new.body)
    idx = body.insert_arg(i32, len(body.args))

    top = Inserter(body.first_op, loop.location)
    wait = top.add(ttg.AsyncWaitOp.build(operands=[[]], result_types=[AsyncTokenType()],
                                           properties={"num": IntegerAttr((depth - 1) * len(info.loads), i32)}))
    stage_views = views(top, idx)
    for load, v in zip(info.loads, stage_views):
        for use in list(load.results[0].uses):
            convert = use.operation
            local = ttg.LocalLoadOp.build(operands=[v, [wait]], result_types=[convert.results[0].type])
            local.location = convert.location
            convert.parent.insert_op_before(local, convert)  # the convert may be in a nested region
            convert.results[0].replace_all_uses_with(local.results[0])
            convert.detach()
            convert.erase()

    # stage 0 moves to the end, for iteration k + D, and copies into the stage just read
    end = Inserter(yield_op, loop.location)
    ahead = end.advance(iv, loop.step, depth)
    mapping = {iv: ahead}
    _copy_stage(end, info, mapping, ahead, stage_views)
    bumped = end.add(arith.AddiOp(idx, end.constant(1, i32)))
    wrapped = end.add(arith.CmpiOp(bumped, end.constant(depth, i32), "sge"))
    next_idx = end.add(arith.SelectOp(wrapped, zero, bumped))
    carried = set(info.carried)
    yield_op.operands = [*(mapping.get(v, v) if i in carried else v for i, v in enumerate(yield_op.operands)),
                         next_idx]
    for op in info.loads:
        op.detach()
        op.erase()
    for op in reversed(info.stage0):  # those stage 1 still uses stay, computing iteration k
        if all(r.first_use is None for r in op.results):
            op.detach()
            op.erase()

    for old, res in zip(loop.results, new.results):
        old.replace_all_uses_with(res)
    after = Inserter(loop, loop.location)
    after.add(ttg.AsyncWaitOp.build(operands=[[]], result_types=[AsyncTokenType()],
                                    properties={"num": IntegerAttr(0, i32)}))
    for a in allocs:
        after.add(ttg.LocalDeallocOp.build(operands=[a]))
    loop.detach()
    loop.erase()


@dataclass(frozen=True)
class Pipeline(Pass):
    """Software-pipeline the loads that feed dots: cp.async into `num-stages - 1` shared buffers."""

    name = "tritongpu-pipeline"
    display = "TritonGPUPipeline"
    summary = "Pipeline loads into dot operands through multi-stage shared buffers (cp.async, sm80 form)"

    num_stages: int = option(3, "number of stages: loads run num-stages - 1 iterations ahead")

    def __post_init__(self):
        if self.num_stages < 0:
            raise ValueError(f"option 'num-stages' must not be negative, got {self.num_stages}")

    def apply(self, ctx, module) -> None:
        if target_capability(module) < 80:
            return
        loops = [op for op in module.walk() if isinstance(op, scf.ForOp)
                 and not any(isinstance(o, (scf.ForOp, scf.WhileOp)) for o in op.body.walk())]
        if not loops:
            return
        axis = AxisInfoAnalysis(module)
        for loop in loops:
            attr = loop.attributes.get("tt.num_stages")
            stages = attr.value.data if isinstance(attr, IntegerAttr) else self.num_stages
            if stages < 2:
                continue
            info = _analyze(loop, axis)
            if info is not None:
                pipeline_loop(info, stages)
