"""Hopper's TMA (sm_90): tensor descriptor kernel parameters, mbarriers and bulk tensor copies, as Triton lowers
`ttng.*` TMA ops.

* A `!tt.tensordesc` kernel parameter is a 128-byte CUtensorMap passed by value (`.param .align 64 .b8 [128]`,
  LLVM `ptr byval([128 x i8]) align 64 "nvvm.grid_constant"`); the copies take its generic address.
* `init_barrier` / `inval_barrier`: thread 0 runs `mbarrier.init` / `mbarrier.inval` (a CTA barrier after the
  init and before the inval, so no thread polls a barrier that is not there); `barrier_expect`: thread 0
  arrives with the expected transaction bytes; `wait_barrier`: every thread polls `mbarrier.try_wait.parity`.
* `async_tma_copy_global_to_local`: thread 0 issues `cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::
  complete_tx::bytes`, one per chunk of the `#ttg.nvmma_shared` buffer (a TMA box is one swizzle row wide; a
  wider block is several boxes, chunk after chunk, as nvmma_shared.py lays the buffer out), coordinates
  innermost first.
* `async_tma_copy_local_to_global` / `async_tma_reduce`: after a CTA barrier (every thread's writes and proxy
  fences done), thread 0 issues `cp.async.bulk.tensor ... global.shared::cta.bulk_group` (or `cp.reduce.async.
  bulk.tensor ... .<op>.tile.bulk_group`) per chunk and commits the group; `async_tma_store_wait {pendings}`:
  thread 0 waits until at most `pendings` groups still read shared memory, then a CTA barrier.
`tensordesc_meta` (Triton's metadata of each descriptor parameter: swizzle mode, element size and PTX type, box)
tells the launcher how to encode the tensor maps. Descriptors made in the kernel: see the section at the end.
"""

from __future__ import annotations

import llvmlite.ir as ir
from llvmlite.ir.values import ArgumentAttributes
from xdsl.dialects.builtin import IntegerType, Signedness

from ttc.ir import tma as ttc_tma
from ttc.ir.tensordesc import REDUCE_KIND, TensorDescType
from ttc.lowering import nvvm
from ttc.lowering.context import ANY
from ttc.lowering.convert import IROps
from ttc.lowering.local_memory import whole_buffer
from ttc.lowering.nvmma_shared import NvmmaBuffer
from ttc.lowering.registry import lowering
from ttc.lowering.types import bits_of, i32, llvm_type

TENSORMAP_BYTES = 128
# the tensor map's swizzle mode (CUtensorMapSwizzle / PTX): none 0, 32B 1, 64B 2, 128B 3
TMA_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
REDUCE_OPS = {v: k for k, v in REDUCE_KIND.items()}


class GridConstantTensorMap(ArgumentAttributes):
    """The attributes of a tensor map parameter: a 128-byte byval struct the kernel only reads."""

    def _to_list(self, typ):
        return [f"byval([{TENSORMAP_BYTES} x i8])", "align 64", '"nvvm.grid_constant"']


def descriptor_parameter(arg: ir.Argument) -> None:
    arg.attributes = GridConstantTensorMap()


def tma_element_type(desc: TensorDescType) -> int:
    """The PTX tensormap element type of the descriptor's elements (Triton's tensordesc_meta elem_type)."""
    e = desc.block_type.element_type
    return ttc_tma.tma_element_type(e, isinstance(e, IntegerType) and e.signedness.data == Signedness.SIGNED)


def tensordesc_meta(desc: TensorDescType) -> dict:
    """What the launcher needs to encode a tensor map for a descriptor parameter, as Triton's metadata has it."""
    enc = desc.encoding
    swizzle = enc["swizzlingByteWidth"] if enc is not None else 0
    bits = bits_of(llvm_type(desc.value_type()))
    return {"swizzle": TMA_SWIZZLE[swizzle], "elem_size": bits // 8, "elem_type": tma_element_type(desc),
            "block_size": list(desc.shape), "fp4_padded": False}


def _thread0(ctx) -> ir.Value:
    return ctx.b.icmp_unsigned("==", ctx.tid(), ir.Constant(i32, 0))


def _barrier_ptr(ctx, op, value) -> ir.Value:
    buf = whole_buffer(ctx, op, value)
    return ctx.shared_ptr(IROps(ctx.b).value(buf.base))


def _asm(ctx, text: str, constraints: str, args: list) -> None:
    nvvm.asm(ctx.b, text, constraints, ir.VoidType(), args)


@lowering("ttng.init_barrier")
def _init_barrier(ctx, op):
    bar = _barrier_ptr(ctx, op, op.alloc)
    ctx.buffer_access(write=True, values=[op.alloc])
    _asm(ctx, f"@$0 mbarrier.init.shared::cta.b64 [$1], {op.count.value.data};", "b,r", [_thread0(ctx), bar])
    ctx.barrier()


@lowering("ttng.inval_barrier")
def _inval_barrier(ctx, op):
    bar = _barrier_ptr(ctx, op, op.alloc)
    ctx.barrier()
    _asm(ctx, "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r", [_thread0(ctx), bar])


@lowering("ttng.barrier_expect")
def _barrier_expect(ctx, op):
    bar = _barrier_ptr(ctx, op, op.alloc)
    pred = ctx.b.and_(_thread0(ctx), ctx.get(op.pred))
    _asm(ctx, f"@$0 mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], {op.size.value.data};", "b,r", [pred, bar])


@lowering("ttng.wait_barrier")
def _wait_barrier(ctx, op):
    if op.pred is not None:
        raise ctx.error(op, "a predicated ttng.wait_barrier is not supported yet")
    bar = _barrier_ptr(ctx, op, op.alloc)
    text = ("{\n\t.reg .pred complete;\n\twaitLoop:\n\tmbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1;\n"
            "\t@!complete bra.uni waitLoop;\n}")
    _asm(ctx, text, "r,r", [bar, ctx.get(op.phase)])


def _boxes(ctx, op, value, coords):
    """(shared pointer, innermost-first coordinates) of each TMA box of the buffer `value` at `coords`."""
    buf = whole_buffer(ctx, op, value)
    lay = buf.layout
    if not isinstance(lay, NvmmaBuffer) or lay.inner != len(lay.shape) - 1:
        raise ctx.error(op, f"'{op.name}' is supported on row-major (not transposed) #ttg.nvmma_shared buffers: "
                            "of rank 2 with 32, 64 or 128-byte swizzling, or unswizzled")
    b = ctx.b
    ops = IROps(b)
    inner_first = list(reversed(coords))
    out = []
    for j in range(lay.chunks):
        base = ops.add(ops.value(buf.base), j * lay.chunk_bytes)
        at = list(inner_first)
        if j:
            at[0] = b.add(at[0], ir.Constant(i32, j * lay.row_elems))
        out.append((ctx.shared_ptr(base), at))
    return out


def _coord_text(first: int, n: int) -> str:
    return "{" + ", ".join(f"${first + i}" for i in range(n)) + "}"


@lowering("ttng.async_tma_copy_global_to_local")
def _tma_load(ctx, op):
    tmap = ctx.get(op.desc)
    coords = [ctx.get(c) for c in op.coord]
    n = len(coords)
    bar = _barrier_ptr(ctx, op, op.barrier)
    boxes = _boxes(ctx, op, op.result, coords)
    ctx.buffer_access(write=True, asynchronous=True, values=[op.result])
    pred = ctx.b.and_(_thread0(ctx), ctx.get(op.pred))
    text = (f"@$0 cp.async.bulk.tensor.{n}d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], "
            f"[$2, {_coord_text(3, n)}], [${3 + n}];")
    for dst, at in boxes:
        _asm(ctx, text, "b,r,l," + "r," * n + "r", [pred, dst, tmap, *at, bar])


def _tma_write(ctx, op, instruction: str):
    tmap = ctx.get(op.desc)
    coords = [ctx.get(c) for c in op.coord]
    n = len(coords)
    boxes = _boxes(ctx, op, op.src, coords)
    ctx.barrier()  # every thread's writes to the buffer (and their proxy fences) are done
    p = _thread0(ctx)
    text = f"@$0 {instruction} [$1, {_coord_text(2, n)}], [${2 + n}];"
    for src, at in boxes:
        _asm(ctx, text, "b,l," + "r," * n + "r", [p, tmap, *at, src])
    _asm(ctx, "@$0 cp.async.bulk.commit_group;", "b", [p])


@lowering("ttng.async_tma_copy_local_to_global")
def _tma_store(ctx, op):
    n = len(op.coord)
    _tma_write(ctx, op, f"cp.async.bulk.tensor.{n}d.global.shared::cta.bulk_group")


@lowering("ttng.async_tma_reduce")
def _tma_reduce(ctx, op):
    n = len(op.coord)
    kind = REDUCE_OPS[op.kind.value.data]
    _tma_write(ctx, op, f"cp.reduce.async.bulk.tensor.{n}d.global.shared::cta.{kind}.tile.bulk_group")


@lowering("ttng.async_tma_store_wait")
def _tma_store_wait(ctx, op):
    _asm(ctx, f"@$0 cp.async.bulk.wait_group.read {op.pendings.value.data};", "b", [_thread0(ctx)])
    ctx.barrier()


# ----------------------------------------------------------------------------- descriptors made in the kernel
# Each `ttg.global_scratch_alloc` gets bytes of the program's part of the kernel's global scratch buffer (a
# trailing pointer parameter, `global_scratch_size` bytes per program in the metadata, as Triton's launcher
# allocates it). `tensormap_create` zeroes a 128-byte tensor map in shared memory (warp 0), fills its fields with
# `tensormap.replace` (thread 0) and copies it to global memory with a release proxy fence (warp 0);
# `tensormap_fenceproxy_acquire` makes it visible to TMA (warp 0's acquire fence, an empty bulk group waited for:
# Triton's ptxas workaround, then a CTA barrier); `reinterpret_tensor_descriptor` is its generic address.

def global_scratch_layout(func) -> tuple[dict, int]:
    """The offset of each of the kernel's global scratch allocations, and the bytes one program needs. In program
    order, but the branches of an `scf.if` that no loop encloses start at the same offset: one program runs one
    of them, once, so their allocations are never live together (as Triton's, whose conversion to branches
    merges such branches when they are alike and so allocates once for both). Then branches that differ only in
    their operands lower to the same code, which LLVM merges."""
    offsets = {}

    def place(region_ops, offset: int, in_loop: bool) -> int:
        for op in region_ops:
            if op.name == "ttg.global_scratch_alloc":
                align = op.alignment.value.data
                offset = -(-offset // align) * align
                offsets[op] = offset
                offset += op.nbytes.value.data
            elif op.name == "scf.if" and not in_loop:
                offset = max(place(_ops(r), offset, False) for r in op.regions)
            elif op.regions:
                loop = in_loop or op.name in ("scf.for", "scf.while")
                for r in op.regions:
                    offset = place(_ops(r), offset, loop)
        return offset

    return offsets, place(_ops(func.body), 0, False)


def _ops(region):
    return [op for block in region.blocks for op in block.ops]


@lowering("ttg.global_scratch_alloc")
def _global_scratch_alloc(ctx, op):
    b = ctx.b
    x, y, z = (nvvm.sreg(b, f"ctaid.{a}") for a in "xyz")
    nx, ny = (nvvm.sreg(b, f"nctaid.{a}") for a in "xy")
    program = b.add(b.mul(b.add(b.mul(z, ny), y), nx), x)
    start = b.add(b.mul(program, ir.Constant(i32, ctx.global_scratch_size)), ir.Constant(i32, ctx.global_scratch[op]))
    ptr = b.gep(ctx.global_scratch_ptr, [b.sext(start, ir.IntType(64))], source_etype=ir.IntType(8))
    ctx.set(op.result, ptr)


def _map_in_shared(ctx) -> ir.Value:
    """The 128-byte staging tensor map in the shared scratch area (64-bit, as tensormap.replace takes it)."""
    ctx.use_scratch(TENSORMAP_BYTES)
    ctx.smem_align = max(ctx.smem_align, TENSORMAP_BYTES)  # tensormap.replace needs a 128-byte aligned map
    smem = ctx.smem_ptr(0)
    return ctx.b.zext(ctx.b.ptrtoint(smem, i32), ir.IntType(64))


def _masked_tid(ctx) -> ir.Value:
    """tid.x masked with the block size minus one, as Triton's getThreadId makes it (`mov.u32 %r, %tid.x;
    and.b32 %r1, %r, 127`). Read through a pure inline `mov`: from the intrinsic, LLVM knows the range from
    `nvvm.reqntid` and drops the mask, and then ptxas puts a branch with its own reconvergence around each
    `tensormap.replace` predicated on `tid == 0` (13 per map, each a dependent shared-memory read-modify-write)
    where, with the mask, it predicates them and interleaves their loads and stores, as in Triton's SASS."""
    tid = ctx.b.call(ir.InlineAsm(ir.FunctionType(i32, []), "mov.u32 $0, %tid.x;", "=r"), [], attrs=("readnone",))
    return ctx.b.and_(tid, ir.Constant(i32, ctx.num_warps * ctx.threads_per_warp - 1))


@lowering("ttng.tensormap_create")
def _tensormap_create(ctx, op):
    b = ctx.b
    rank = len(op.box_dim)
    tid = _masked_tid(ctx)
    warp0 = b.icmp_unsigned("<", tid, ir.Constant(i32, 32))
    thread0 = b.icmp_unsigned("==", tid, ir.Constant(i32, 0))
    ctx.barrier()
    ctx.use_scratch(TENSORMAP_BYTES)
    lane_ptr = ctx.smem_ptr(b.mul(b.and_(tid, ir.Constant(i32, 31)), ir.Constant(i32, 4)))
    _asm(ctx, "@$0 st.shared.b32 [$1], 0;", "b,r", [warp0, lane_ptr])
    _asm(ctx, "bar.warp.sync -1;", "", [])
    smem = _map_in_shared(ctx)
    pre = "@$0 tensormap.replace.tile"
    suffix = ".shared::cta.b1024"
    base = b.ptrtoint(ctx.get(op.global_address), ir.IntType(64))
    _asm(ctx, f"{pre}.global_address{suffix}.b64 [$1], $2;", "b,l,l", [thread0, smem, base])
    _asm(ctx, f"{pre}.rank{suffix}.b32 [$1], {rank - 1};", "b,l", [thread0, smem])
    for field, values, width in (("box_dim", op.box_dim, 32), ("global_dim", op.global_dim, 32),
                                 ("global_stride", op.global_stride, 64), ("element_stride", op.element_stride, 32)):
        for i, v in enumerate(values):
            c = "r" if width == 32 else "l"
            _asm(ctx, f"{pre}.{field}{suffix}.b{width} [$1], {i}, $2;", f"b,l,{c}", [thread0, smem, ctx.get(v)])
    for field in ("elem_type", "interleave_layout", "swizzle_mode", "fill_mode"):
        name = "elemtype" if field == "elem_type" else field
        _asm(ctx, f"{pre}.{name}{suffix}.b32 [$1], {getattr(op, field).value.data};", "b,l", [thread0, smem])
    dst = b.ptrtoint(ctx.get(op.desc_ptr), ir.IntType(64))
    _asm(ctx, "@$0 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
              f"[$1], [$2], {TENSORMAP_BYTES};", "b,l,l", [warp0, dst, smem])
    ctx.buffer_written = ANY


@lowering("ttng.tensormap_fenceproxy_acquire")
def _tensormap_acquire(ctx, op):
    b = ctx.b
    warp0 = b.icmp_unsigned("<", _masked_tid(ctx), ir.Constant(i32, 32))
    ptr = b.ptrtoint(ctx.get(op.desc_ptr), ir.IntType(64))
    # then an empty bulk group committed and waited for, as Triton's lowering does to work around a ptxas bug
    # that leaves out a fence after the acquire (in SASS: UTMACMDFLUSH and a scoreboard wait)
    _asm(ctx, f"@$0 fence.proxy.tensormap::generic.acquire.gpu [$1], {TENSORMAP_BYTES};\n\t"
              "@$0 cp.async.bulk.commit_group;\n\t@$0 cp.async.bulk.wait_group.read 0;", "b,l", [warp0, ptr])
    ctx.barrier()


@lowering("ttng.reinterpret_tensor_descriptor")
def _reinterpret(ctx, op):
    ctx.set(op.result, ctx.b.addrspacecast(ctx.get(op.rawDesc), ir.PointerType()))
