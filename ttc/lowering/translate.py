"""TTGIR -> LLVM IR: one kernel (`tt.func public`) becomes a `ptx_kernel` function in an llvmlite module.

Kernel parameters are the function's arguments (pointers as `ptr addrspace(1)`), in order, with nothing added.
The thread count `32 * num_warps` is required (`nvvm.reqntid`), as Triton does. Calls must have been inlined
(`tt-opt -inline`). The result is unoptimized LLVM IR text, the kernel's metadata, and the libraries it calls
into (libdevice functions, `tt.extern_elementwise` bitcode).

The cyclic garbage collector is paused while a kernel is lowered: lowering allocates a few objects per LLVM
instruction, none of them garbage before it ends, and each full collection would walk all of them and the whole
TTGIR module again (on large kernels that was a third of the time, and made it grow faster than the kernel). The
text is written by `llvm_text.module_text` (what `str(module)` gives, faster).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import llvmlite.ir as ir
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr

from ttc.analysis.axis_info import AxisInfoAnalysis
from ttc.ir.dialects import building
from ttc.ir.diagnostics import CompileError, Diagnostic, at_op
from ttc.ir.layout_utils import module_int
from ttc.ir.tensordesc import TensorDescType
from ttc.ir.tt import FuncOp
from ttc.lowering import (  # noqa: F401  (importing registers the op lowerings)
    async_copy,
    atomics,
    control_flow,
    convert,
    device_print,
    dot,
    elementwise,
    gather,
    global_memory,
    histogram,
    inline_asm,
    libdevice,
    local_memory,
    program,
    reduce,
    scan,
    shapes,
    tma,
    wgmma,
)
from ttc.lowering.context import Lowering
from ttc.lowering.llvm_text import module_text
from ttc.lowering.metadata import KernelMetadata
from ttc.lowering.target import TRIPLE, max_shared_bytes
from ttc.lowering.types import UnsupportedType, i32, llvm_type


@dataclass
class LoweredKernel:
    llvm_ir: str
    metadata: KernelMetadata
    libdevice: set = field(default_factory=set)
    externs: dict = field(default_factory=dict)
    largest_block: int = 0  # instructions in the largest basic block (`target.optimize` bounds SLP by it)


def module_target(module: ModuleOp) -> str | None:
    a = module.attributes.get("ttg.target")
    return a.data if isinstance(a, StringAttr) else None


def _kernel(module: ModuleOp, source) -> FuncOp:
    for op in module.walk():
        if op.name == "tt.call":
            raise CompileError(at_op(op, source, "calls must be inlined before lowering (run tt-opt -inline)"))
        if elementwise.calls_libdevice(op):  # parsed on a thread while the kernel is lowered
            libdevice.prefetch()
    kernels = [op for op in module.body.ops if isinstance(op, FuncOp) and not op.is_declaration
               and (op.sym_visibility is None or op.sym_visibility.data == "public")]
    if len(kernels) != 1:
        name = source.name if source is not None else ""
        raise CompileError(Diagnostic(name, 0, 0, "the module defines no kernel (a public tt.func with a body)" if not kernels
                                      else f"expected one public tt.func (the kernel), found {len(kernels)}"))
    return kernels[0]


def lower_module(module: ModuleOp, *, source, data_layout: str, target: str, source_hash: str) -> LoweredKernel:
    with building():  # a module's worth of LLVM objects: the cycle collector would free nothing
        return _lower_module(module, source=source, data_layout=data_layout, target=target, source_hash=source_hash)


def _lower_module(module: ModuleOp, *, source, data_layout: str, target: str, source_hash: str) -> LoweredKernel:
    func = _kernel(module, source)
    from ttc.ir.tma import DESCRIPTOR_OP_NAMES, NOT_LOWERED_YET, first_unsupported

    if (err := first_unsupported(func, DESCRIPTOR_OP_NAMES, "the LLVM lowering", arguments=False,
                                 hint=" (make-ttgir lowers descriptors to TMA first)")) is not None:
        raise err
    from ttc.ir.tmem import UNLOWERED

    if (err := first_unsupported(func, UNLOWERED | NOT_LOWERED_YET, "the LLVM lowering", arguments=False)) is not None:
        raise err  # Blackwell's ops and descriptor gather/scatter, found before lowering anything else
    if (bad := dot.first_mma_dot_without_form(func)) is not None:
        raise CompileError(at_op(bad[0], source, bad[1]))
    num_warps = module_int(module, "ttg.num-warps", 4)
    tpw = module_int(module, "ttg.threads-per-warp", 32)
    if module_int(module, "ttg.num-ctas", 1) != 1:
        raise CompileError(at_op(module, source, "only one CTA per program is supported (ttg.num-ctas = 1)"))
    if tpw != 32:
        raise CompileError(at_op(module, source, "NVIDIA GPUs have 32 threads per warp"))
    name = func.sym_name.data
    llmod = ir.Module(name=name)
    llmod.triple = TRIPLE
    llmod.data_layout = data_layout
    inputs = func.function_type.inputs.data
    try:
        arg_types = [ir.PointerType() if isinstance(t, TensorDescType) else llvm_type(t) for t in inputs]
    except UnsupportedType as e:
        raise CompileError(at_op(func, source, str(e))) from None
    scratch_offsets, scratch_size = tma.global_scratch_layout(func)
    if scratch_size:  # Triton's global scratch pointer, after the kernel's own parameters
        arg_types.append(ir.PointerType(addrspace=1))
    fn = ir.Function(llmod, ir.FunctionType(ir.VoidType(), arg_types), name)
    descriptors = [tma.tensordesc_meta(t) for t in inputs if isinstance(t, TensorDescType)]
    for t, arg in zip(inputs, fn.args):
        if isinstance(t, TensorDescType):
            tma.descriptor_parameter(arg)
    fn.calling_convention = "ptx_kernel"
    fn.attributes.add("nounwind")
    ctx = Lowering(llmod, fn, num_warps=num_warps, threads_per_warp=tpw, source=source,
                   axis=AxisInfoAnalysis(module))
    entry = func.body.blocks.first
    for a, v in zip(entry.args, fn.args):
        ctx.set(a, v)
    ctx.global_scratch, ctx.global_scratch_size = scratch_offsets, scratch_size
    ctx.global_scratch_ptr = fn.args[-1] if scratch_size else None
    local_memory.assign_buffers(ctx, func)
    control_flow.lower_function_body(ctx, func.body)
    shared = ctx.shared_end  # the buffers' end, or the furthest scratch use
    declared = module.attributes.get("ttg.shared")
    if isinstance(declared, IntegerAttr):
        shared = max(shared, declared.value.data)
    limit = max_shared_bytes(int("".join(ch for ch in target.split(":")[-1] if ch.isdigit()) or 0))
    if shared > limit:
        raise CompileError(at_op(func, source, f"the kernel needs {shared} bytes of shared memory ({ctx.buffer_end} "
                                               f"in buffers), more than the {limit} a block may use on {target}"))
    meta = KernelMetadata(name=name, num_warps=num_warps, threads_per_warp=tpw, shared=shared, hash=source_hash,
                          target=target, tensordesc_meta=descriptors or None,
                          global_scratch_size=scratch_size or None)
    annotations = llmod.add_named_metadata("nvvm.annotations")
    annotations.add(llmod.add_metadata([fn, ir.MetaDataString(llmod, "reqntidx"), ir.Constant(i32, num_warps * tpw)]))
    if ctx.libdevice or ctx.externs:  # libdevice's flush-to-zero variants, as Triton
        llmod.add_named_metadata("llvm.module.flags", [ir.Constant(i32, 4), ir.MetaDataString(llmod, "nvvm-reflect-ftz"),
                                                      ir.Constant(i32, 1)])
    llmod.add_named_metadata("ttc.metadata", [ir.MetaDataString(llmod, meta.to_json())])
    largest = max((len(b.instructions) for f in llmod.functions for b in f.blocks), default=0)
    return LoweredKernel(module_text(llmod), meta, set(ctx.libdevice), dict(ctx.externs), largest)
