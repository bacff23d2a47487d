// RUN: not tt-opt %s -triton-nvidia-optimize-descriptor-encoding 2>&1 | FileCheck %s


// A descriptor carried by a loop is not handled yet.
// CHECK: optimize-descriptor-encoding-errors.mlir:10:5: error: 'scf.for' with a tensor descriptor is not supported yet by triton-nvidia-optimize-descriptor-encoding
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop(%a: !tt.tensordesc<tensor<64x64xf16>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%d = %a) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
      scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
    }
    tt.return
  }
}
