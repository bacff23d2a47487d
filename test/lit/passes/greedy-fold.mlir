// RUN: tt-opt %s -split-input-file -tritongpu-remove-layout-conversions | FileCheck %s

// The greedy rewrites inside the TritonGPU passes fold every op they visit, in place too, as MLIR's driver
// does: arith.cmpi with a constant on the left gets it on the right, the predicate swapped (eq and ne stay).
// CHECK-LABEL: tt.func @cmpi_constant_left
// CHECK: %[[C:.*]] = arith.constant dense<4>
// CHECK: arith.cmpi slt, %arg0, %[[C]]
// CHECK: arith.cmpi uge, %arg1, %[[C]]
// CHECK: arith.cmpi ne, %arg0, %[[C]]
// CHECK: arith.cmpi sgt, %arg0, %[[C]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cmpi_constant_left(%arg0: tensor<128xi32, #blocked>, %arg1: tensor<128xi32, #blocked>)
      -> (tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, tensor<128xi1, #blocked>) {
    %c = arith.constant dense<4> : tensor<128xi32, #blocked>
    %0 = arith.cmpi sgt, %c, %arg0 : tensor<128xi32, #blocked>
    %1 = arith.cmpi ule, %c, %arg1 : tensor<128xi32, #blocked>
    %2 = arith.cmpi ne, %c, %arg0 : tensor<128xi32, #blocked>
    %3 = arith.cmpi sgt, %arg0, %c : tensor<128xi32, #blocked>
    tt.return %0, %1, %2, %3 : tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, tensor<128xi1, #blocked>, tensor<128xi1, #blocked>
  }
}
