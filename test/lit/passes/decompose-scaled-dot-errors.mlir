// RUN: not tt-opt %s -tritongpu-accelerate-matmul -o %t 2>&1 | FileCheck %s --check-prefix=BATCHED
// RUN: not test -e %t

// A batched product is not decomposed yet: a located error.
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @batched(%a: tensor<2x64x64xbf16, #blocked>, %c: tensor<2x64x64xf32, #blocked>) -> tensor<2x64x64xf32, #blocked> {
    // BATCHED: decompose-scaled-dot-errors.mlir:[[# @LINE + 1]]:5: error: 'tt.dot_scaled' op a batched (3D) product is not supported yet by its decomposition
    %d = tt.dot_scaled %a, %a, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<2x64x64xbf16, #blocked> * tensor<2x64x64xbf16, #blocked> -> tensor<2x64x64xf32, #blocked>
    tt.return %d : tensor<2x64x64xf32, #blocked>
  }
}
