"""The pass registry: one module per pass in this package, imported only when the pass is used.

Add a pass by writing `passes/<module>.py` with a `ttc.opt.passmanager.Pass` subclass and listing it here.
"""

from __future__ import annotations

import importlib

REGISTRY: dict[str, str] = {
    "canonicalize": "canonicalize:Canonicalize",
    "convert-triton-to-tritongpu": "convert_triton_to_tritongpu:ConvertTritonToTritonGPU",
    "convert-scf-to-cf": "convert_scf_to_cf:ConvertSCFToCF",
    "cse": "cse:CSE",
    "dce": "dce:DeadCodeElimination",
    "inline": "inline:Inliner",
    "loop-invariant-code-motion": "licm:LoopInvariantCodeMotion",
    "make-ttir": "make_ttir:MakeTTIR",
    "sccp": "sccp:SCCP",
    "symbol-dce": "symbol_dce:SymbolDCE",
    "triton-combine": "combine:TritonCombine",
    "triton-licm": "triton_licm:TritonLICM",
    "triton-loop-aware-cse": "loop_aware_cse:LoopAwareCSE",
    "triton-loop-unroll": "loop_unroll:TritonLoopUnroll",
    "triton-test-loop-peeling": "test_loop_peeling:TestLoopPeeling",
    "triton-nvidia-gpu-fence-insertion": "fence_insertion:FenceInsertion",
    "triton-nvidia-gpu-proxy-fence-insertion": "proxy_fence_insertion:ProxyFenceInsertion",
    "triton-nvidia-gpu-remove-tmem-tokens": "remove_tmem_tokens:RemoveTMEMTokens",
    "triton-tensor-memory-allocation": "tensor_memory_allocation:TensorMemoryAllocation",
    "triton-reorder-broadcast": "reorder_broadcast:TritonReorderBroadcast",
    "triton-rewrite-tensor-pointer": "rewrite_tensor_pointer:TritonRewriteTensorPointer",
    "triton-rewrite-tensor-descriptor-to-pointer": "rewrite_tensor_descriptor_to_pointer:RewriteTensorDescriptorToPointer",
    "tritongpu-F32DotTC": "f32_dot_tc:F32DotTC",
    "tritongpu-accelerate-matmul": "accelerate_matmul:AccelerateMatmul",
    "tritongpu-assign-latencies": "assign_latencies:AssignLatencies",
    "tritongpu-coalesce": "coalesce:Coalesce",
    "tritongpu-coalesce-async-copy": "coalesce_async_copy:CoalesceAsyncCopy",
    "tritongpu-fuse-nested-loops": "fuse_nested_loops:FuseNestedLoops",
    "tritongpu-hoist-tmem-alloc": "hoist_tmem_alloc:HoistTMEMAlloc",
    "tritongpu-global-scratch-memory-allocation": "global_scratch_allocation:GlobalScratchAllocation",
    "tritongpu-remove-layout-conversions": "remove_layout_conversions:RemoveLayoutConversions",
    "allocate-shared-memory": "allocate_shared_memory:AllocateSharedMemory",
    "tritongpu-allocate-warp-groups": "allocate_warp_groups:AllocateWarpGroups",
    "tritongpu-optimize-partition-warps": "optimize_partition_warps:OptimizePartitionWarps",
    "tritongpu-partition-loops": "partition_loops:PartitionLoops",
    "tritongpu-partition-scheduling": "partition_scheduling:PartitionScheduling",
    "make-ttgir": "make_ttgir:MakeTTGIR",
    "test-print-alias": "test_print_alias:TestPrintAlias",
    "test-print-alignment": "test_print_alignment:TestPrintAlignment",
    "test-print-allocation": "test_print_allocation:TestPrintAllocation",
    "test-print-buffer-region": "test_print_buffer_region:TestPrintBufferRegion",
    "test-print-membar": "test_print_membar:TestPrintMembar",
    "nvgpu-warp-specialization": "warp_specialization:WarpSpecialization",
    "nvws-lower-warp-group": "lower_warp_group:LowerWarpGroup",
    "nvws-insert-aref": "insert_aref:InsertAref",
    "nvws-hoist-tmem-store": "hoist_tmem_store:HoistTmemStore",
    "nvws-insert-tmem-aref": "insert_tmem_aref:InsertTmemAref",
    "nvws-assign-stage-phase": "assign_stage_phase:AssignStagePhase",
    "nvws-lower-aref": "lower_aref:LowerAref",
    "tritongpu-automatic-warp-specialization": "automatic_warp_specialization:AutomaticWarpSpecialization",
    "tritongpu-combine-tensor-select-and-if": "combine_tensor_select_and_if:CombineTensorSelectAndIf",
    "tritongpu-optimize-accumulator-init": "optimize_accumulator_init:OptimizeAccumulatorInit",
    "tritongpu-optimize-dot-operands": "optimize_dot_operands:OptimizeDotOperands",
    "tritongpu-optimize-thread-locality": "optimize_thread_locality:OptimizeThreadLocality",
    "tritongpu-pipeline": "pipeline:Pipeline",
    "tritongpu-test-pipeline-lower-loop": "pipeline:TestPipelineLowerLoop",
    "tritongpu-schedule-loops": "schedule_loops:ScheduleLoops",
    "tritongpu-prefetch": "prefetch:Prefetch",
    "tritongpu-promote-lhs-to-tmem": "promote_lhs_to_tmem:PromoteLHSToTMem",
    "triton-nvidia-mma-lowering": "mma_lowering:MMALowering",
    "triton-nvidia-optimize-tmem-layouts": "optimize_tmem_layouts:OptimizeTMemLayouts",
    "triton-nvidia-interleave-tmem": "interleave_tmem:InterleaveTMem",
    "relayout-tritongpu": "relayout_tritongpu:RelayoutTritonGPU",
    "tritoninstrument-concurrency-sanitizer": "concurrency_sanitizer:ConcurrencySanitizer",
    "tritongpu-reduce-data-duplication": "reduce_data_duplication:ReduceDataDuplication",
    "tritongpu-reorder-instructions": "reorder_instructions:ReorderInstructions",
    "triton-nvidia-optimize-descriptor-encoding": "optimize_descriptor_encoding:OptimizeDescriptorEncoding",
    "triton-nvidia-tma-lowering": "tma_lowering:TMALowering",
}


def get_pass(name: str):
    entry = REGISTRY.get(name)
    if entry is None:
        return None
    module, cls = entry.split(":")
    return getattr(importlib.import_module(f"ttc.passes.{module}"), cls)


def all_passes():
    return [get_pass(n) for n in sorted(REGISTRY)]
