// RUN: not tt-opt %s -triton-nvidia-optimize-descriptor-encoding 2>&1 | FileCheck %s

// A descriptor passed to a call that was not inlined (noinline) is not handled yet.
// CHECK: optimize-descriptor-encoding-errors.mlir:[[# @LINE + 4]]:5: error: 'tt.call' with a tensor descriptor is not supported yet by triton-nvidia-optimize-descriptor-encoding
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @caller(%a: !tt.tensordesc<tensor<64x64xf16>>) {
    %c0 = arith.constant 0 : i32
    tt.call @callee(%a) : (!tt.tensordesc<tensor<64x64xf16>>) -> ()
    tt.return
  }
  tt.func private @callee(%d: !tt.tensordesc<tensor<64x64xf16>>) attributes {noinline = true} {
    tt.return
  }
}
