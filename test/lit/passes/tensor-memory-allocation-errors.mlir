// RUN: not tt-opt %s -triton-tensor-memory-allocation 2>&1 | FileCheck %s

#tm64 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // A 64-row A operand in tensor memory that comes in as a function argument: no allocation to tie its rows to.
  // CHECK: tensor-memory-allocation-errors.mlir:[[# @LINE + 1]]:3: error: unhandled parent op when looking for TMEM alloc: tt.func
  tt.func @from_argument(%a: !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>, %b: !ttg.memdesc<64x64xf32, #sb, #smem>, %c: i1) {
    %d = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_mma %a, %b, %d, %c, %c : !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xf32, #sb, #smem>, !ttg.memdesc<64x64xf32, #tm64, #ttng.tensor_memory, mutable>
    tt.return
  }
}
