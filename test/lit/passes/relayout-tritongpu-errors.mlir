// RUN: not tt-opt %s -relayout-tritongpu 2>&1 | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Only TritonNvidiaGPU ops are rewritten: any other op with a layout-less tensor fails the pass.
  // CHECK: relayout-tritongpu-errors.mlir:[[# @LINE + 3]]:5: error: failed to legalize operation 'arith.negf' that was explicitly marked illegal
  tt.func @other(%v: tensor<128xf32, #b>) {
    %0 = builtin.unrealized_conversion_cast %v : tensor<128xf32, #b> to tensor<128xf32>
    %1 = arith.negf %0 : tensor<128xf32>
    tt.return
  }
}
