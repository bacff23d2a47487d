// RUN: not tt-opt %s -split-input-file -tritongpu-hoist-tmem-alloc 2>&1 | FileCheck %s

#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The accumulator's token reaches an op that is not a TMEM access: its last use cannot be found.
  // CHECK: hoist-tmem-alloc-errors.mlir:[[# @LINE + 8]]:7: error: unknown TMEM memory user
  tt.func @unknown_user(%a: !ttg.memdesc<128x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %init: tensor<128x64xf32, #acc>, %n: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1  : i32 {
      %buf, %t = ttng.tmem_alloc %init : (tensor<128x64xf32, #acc>) -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %m = ttng.tc_gen5_mma %a, %b, %buf[%t], %true, %true : !ttg.memdesc<128x32xf16, #sa, #smem>, !ttg.memdesc<32x64xf16, #sb, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      %w = ttg.async_wait %m {num = 0 : i32}
    }
    tt.return
  }
}
