"""tritongpu-pipeline: software pipelining of the loads that feed dots (Triton's TritonGPUPipeline): `cp.async`
copies into multi-stage shared buffers, in Triton's sm80 form for mma.sync operands and its sm90 form for wgmma
operands, and on sm90 the asynchronous launch of wgmma (Triton's asyncLaunchDots).

With `num-stages = S` (a loop's own `tt.num_stages` attribute wins; below 2, or a target before sm80, nothing
happens), an innermost `scf.for` is pipelined when some of its `tt.load`s qualify: a tensor of pointers (not a
block pointer), `other` absent or zero (cp.async zero-fills), at least 4 bytes per access (what the axis
analysis proves for the pointers and the mask, as the cp.async lowering will), and every use a
`ttg.convert_layout` to a `#ttg.dot_op` of an `#ttg.nvidia_mma` layout (mma.sync), or every use a
`ttg.local_alloc` into one `#ttg.nvmma_shared` layout (wgmma). The loads' addresses and masks, and
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

The sm90 form, when some load feeds wgmma: its buffer has the local_alloc's `#ttg.nvmma_shared` layout, the
alloc's users (the dot, a `memdesc_trans` on the way) read `%view` itself, and there are S = D + 1 buffers: the
copies for iteration k + D go to buffer (%idx + D) mod S, the one the wgmma of iteration k - 1 read, which the
`warp_group_dot_wait {pendings = 1}` after iteration k's dot has retired (Triton's one wgmma in flight).

The asynchronous launch, on sm90, in every `scf.for` with at least one stage: each `ttng.warp_group_dot`
directly in the body gets `isAsync`. One whose shared operands come from a multi-buffer (`memdesc_index`) or from
outside the loop and whose result only feeds the loop's yield stays in flight: one `ttng.warp_group_dot_wait
{pendings = <such dots>}` follows the last of them (or their loop-carried accumulators go through an existing
`pendings = 0` wait), and a `pendings = 0` wait on the loop's results follows the loop; the others get a
`pendings = 0` wait right after them. A wait takes the values it waits for (a dot's result with the shared
operands it reads) and the later uses in the block take its results. Triton's rule for the in-flight dots also
accepts an accumulator that is rescaled before the dot (attention); here the result must feed the yield alone.

`#shared` (sm80 form) is Triton's `#ttg.swizzled_shared` for an MMA v2 operand (`mma_v2_shared_layout`: vec = the
8 x 8 x 4*kWidth swizzle unit's contiguous extent, perPhase = max(128 / (row bytes), 1), maxPhase = the unit's
other extent / perPhase; order = the load layout's). Triton reaches the
same loop through its latency assignment and loop scheduling passes and carries async tokens through the loop;
this pass covers the loads-into-dots case only, and its text differs from Triton's (index arithmetic, tokens
left out: `async_wait` and `local_load` take them optionally).

A loop whose own `tt.num_stages` is 2 or more and that is not pipelined gets a remark saying why
(MLIR_ENABLE_DIAGNOSTICS=remarks): a target before sm80, a loop with loops in it, or loads that do not feed
dots (Triton's pipeliner also pipelines those in a loop that carries the attribute; this one does not).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ArrayAttr, BoolAttr, IntAttr, IntegerAttr, TensorType, i1, i32
from xdsl.ir import Attribute, BlockArgument, Operation, Region, SSAValue
from xdsl.traits import is_side_effect_free

from ttc.analysis.axis_info import AxisInfoAnalysis, access_width, mask_width
from ttc.diagnostics import at_op, emit
from ttc.fold import is_zero
from ttc.ir import ttg
from ttc.ir.inserter import Inserter
from ttc.ir.layout_utils import blocked_for_shape, get_order, target_capability, with_encoding
from ttc.ir.layouts import (BlockedEncoding, DotOperandEncoding, NvidiaMmaEncoding, NVMMASharedEncoding,
                            SharedMemorySpace, SwizzledSharedEncoding)
from ttc.ir.tt import SplatOp
from ttc.ir.types import AsyncTokenType, MemDescType, bitwidth, elt, encoding, shape_of
from ttc.lowering.linear_layout import UnsupportedLayout, layout_for
from ttc.passmanager import Pass, option


def _operand_layout(load: Operation) -> Attribute | None:
    """The one layout every use of `load` gives it on its way to a dot: a `#ttg.dot_op<{parent =
    #nvidia_mma}>` that each use converts it to (mma.sync reads registers), or the `#ttg.nvmma_shared` of the
    `ttg.local_alloc`s that store it for wgmma."""
    layouts = set()
    for use in load.results[0].uses:
        op = use.operation
        if op.name == "ttg.local_alloc" and isinstance(op.result.type.encoding, NVMMASharedEncoding):
            layouts.add(op.result.type.encoding)
            continue
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


def _as_mutable(t: MemDescType) -> MemDescType:
    return _memdesc(t.get_shape(), t.element_type, t.encoding)


def _use_view(alloc: Operation, view: SSAValue) -> None:
    """Replace `ttg.local_alloc %load` by a view of the multi-buffer: its users read the view (a mutable
    descriptor now, which `memdesc_trans` results follow)."""
    for use in list(alloc.result.uses):
        user = use.operation
        if user.name == "ttg.memdesc_trans":
            new = ttg.MemDescTransOp.build(operands=[view], result_types=[_as_mutable(user.result.type)],
                                           properties=dict(user.properties), attributes=dict(user.attributes))
            new.location = user.location
            user.parent.insert_op_before(new, user)
            _use_view(user, new.result)
            continue
        user.operands[use.index] = view
    alloc.detach()
    alloc.erase()


def pipeline_loop(info: _Loop, stages: int) -> None:
    loop = info.loop
    depth = stages - 1
    body = loop.body.block
    iv, args, yield_op = body.args[0], list(body.args[1:]), body.last_op
    before = Inserter(loop, loop.location)
    nvmma = [isinstance(_operand_layout(load), NVMMASharedEncoding) for load in info.loads]
    # a wgmma stays in flight while the next iteration copies: one more buffer than the copies run ahead
    nbuf = depth + 1 if any(nvmma) else depth
    allocs = []
    for load, wg in zip(info.loads, nvmma):
        shape = shape_of(load.result.type)
        enc = _operand_layout(load) if wg else shared_layout(load)
        allocs.append(before.add(ttg.LocalAllocOp.build(
            operands=[[]], result_types=[_memdesc([nbuf, *shape], elt(load.result.type), enc)]), load.location))

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
    for load, v, wg in zip(info.loads, stage_views, nvmma):
        for use in list(load.results[0].uses):
            if wg:
                _use_view(use.operation, v)
                continue
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
    if nbuf == depth:
        insert_views = stage_views
    else:  # the buffer of iteration k + D: (idx + D) mod nbuf, the one the wgmma of iteration k - 1 read
        shifted = end.add(arith.AddiOp(idx, end.constant(depth, i32)))
        over = end.add(arith.CmpiOp(shifted, end.constant(nbuf, i32), "sge"))
        insert = end.add(arith.SelectOp(over, end.add(arith.SubiOp(shifted, end.constant(nbuf, i32))), shifted))
        insert_views = views(end, insert)
    _copy_stage(end, info, mapping, ahead, insert_views)
    bumped = end.add(arith.AddiOp(idx, end.constant(1, i32)))
    wrapped = end.add(arith.CmpiOp(bumped, end.constant(nbuf, i32), "sge"))
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


def _wgmma_operand_ok(v: SSAValue, loop: scf.ForOp) -> bool:
    """Triton's dotCanBeProperlyAsync operand rule: registers, or shared memory defined outside the loop or taken
    from a multi-buffer (`memdesc_index`), through conversions, memdesc views and loop-carried values."""
    if isinstance(v.type, TensorType):
        return True
    body = loop.body.block
    seen = set()
    while v not in seen:
        seen.add(v)
        if isinstance(v, BlockArgument) and v.owner is body and v.index > 0:
            v = body.last_op.operands[v.index - 1]
        elif isinstance(v.owner, Operation) and v.owner.name in ("ttg.convert_layout", "ttg.memdesc_trans",
                                                                   "ttg.memdesc_reshape"):
            v = v.owner.operands[0]
        else:
            break
    if isinstance(v, BlockArgument):
        return not loop.is_ancestor(v.owner.parent_op())
    return not loop.is_ancestor(v.owner) or v.owner.name == "ttg.memdesc_index"


def _properly_async(dot: Operation, loop: scf.ForOp) -> int | None:
    """The iter_arg index the dot's result is yielded to, when the dot may stay in flight across iterations: its
    shared operands are multi-buffered or loop-invariant and its result is used by the loop's yield alone."""
    if not (_wgmma_operand_ok(dot.a, loop) and _wgmma_operand_ok(dot.b, loop)):
        return None
    uses = list(dot.results[0].uses)
    if len(uses) != 1 or uses[0].operation is not loop.body.block.last_op:
        return None
    return uses[0].index


def _thread_through_wait(wait: Operation, values: list[SSAValue]) -> Operation:
    """Triton's threadValuesThroughWait: a new wait with `values` (and the shared operands of the dots among them)
    added as operands; the uses of the tensors among them after the wait take its results."""
    operands = list(wait.operands)
    for v in values:
        extra = [v]
        if isinstance(v.owner, Operation) and v.owner.name == "ttng.warp_group_dot":
            extra += [o for o in (v.owner.a, v.owner.b) if isinstance(o.type, MemDescType)]
        for o in extra:
            if o not in operands:
                operands.append(o)
    new = ttg.WarpGroupDotWaitOp.build(operands=[operands], result_types=[[o.type for o in operands]],
                                       properties={"pendings": wait.pendings})
    new.location = wait.location
    wait.parent.insert_op_before(new, wait)
    block = new.parent
    for i, old in enumerate(wait.results):
        old.replace_all_uses_with(new.results[i])
    for i in range(len(wait.operands), len(operands)):
        v = operands[i]
        if isinstance(v.type, MemDescType):
            continue
        for use in list(v.uses):
            user = use.operation
            while user is not None and user.parent is not block:
                user = user.parent_op()
            if user is not None and user is not new and block.get_operation_index(user) > block.get_operation_index(new):
                use.operation.operands[use.index] = new.results[i]
    wait.detach()
    wait.erase()
    return new


def _new_wait(after: Operation, pendings: int, loc) -> Operation:
    wait = ttg.WarpGroupDotWaitOp.build(operands=[[]], result_types=[[]],
                                        properties={"pendings": IntegerAttr(pendings, i32)})
    wait.location = loc
    after.parent.insert_op_after(wait, after)
    return wait


def async_launch_dots(loop: scf.ForOp) -> None:
    """Triton's asyncLaunchDots: every `ttng.warp_group_dot` directly in the loop body becomes `isAsync`. One that
    cannot stay in flight gets a `warp_group_dot_wait {pendings = 0}` right after it; the others stay in flight
    across iterations: their loop-carried accumulators go through an existing `pendings = 0` wait in the loop,
    or else one wait `{pendings = number of such dots}` follows the last of them; a `pendings = 0` wait on the
    loop's results follows the loop."""
    body = loop.body.block
    dots = [op for op in body.ops if op.name == "ttng.warp_group_dot"]
    if not dots:
        return
    in_flight = []
    for dot in dots:
        dot.properties["isAsync"] = BoolAttr(True, i1)
        idx = _properly_async(dot, loop)
        if idx is None:
            _thread_through_wait(_new_wait(dot, 0, dot.location), [dot.results[0]])
        else:
            in_flight.append((dot, idx))
    if not in_flight:
        return
    zero_waits = [op for op in body.ops if op.name == "ttng.warp_group_dot_wait" and op.pendings.value.data == 0]
    if zero_waits:
        for wait in zero_waits:
            _thread_through_wait(wait, [body.args[idx + 1] for _, idx in in_flight])
    else:
        last = in_flight[-1][0]
        _thread_through_wait(_new_wait(last, len(in_flight), last.location), [d.results[0] for d, _ in in_flight])
    _thread_through_wait(_new_wait(loop, 0, loop.location), [loop.results[idx] for _, idx in in_flight])


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
        all_loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
        if target_capability(module) < 80:
            for loop in all_loops:
                _not_pipelined_remark(loop, "software pipelining needs sm80 or later")
            return
        loops = [op for op in all_loops if not any(isinstance(o, (scf.ForOp, scf.WhileOp)) for o in op.body.walk())]
        for loop in all_loops:
            if loop not in loops:
                _not_pipelined_remark(loop, "only innermost loops are pipelined")
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
            else:
                _not_pipelined_remark(loop, "ttc pipelines only the loads that feed MMA dot operands (Triton "
                                            "pipelines the other loads of a loop with its own tt.num_stages too)")

        if target_capability(module) // 10 == 9:
            for loop in [op for op in module.walk() if isinstance(op, scf.ForOp)]:
                attr = loop.attributes.get("tt.num_stages")
                if (attr.value.data if isinstance(attr, IntegerAttr) else self.num_stages) >= 1:
                    async_launch_dots(loop)


def _not_pipelined_remark(loop: scf.ForOp, why: str) -> None:
    """A remark for a loop whose own `tt.num_stages` (tl.range(num_stages=...)) asks for pipelining that this
    pass does not do."""
    attr = loop.attributes.get("tt.num_stages")
    if isinstance(attr, IntegerAttr) and attr.value.data >= 2:
        emit(at_op(loop, None, f"loop not pipelined despite tt.num_stages = {attr.value.data}: {why}", "remark"))

