// RUN: tt-opt %s -triton-nvidia-optimize-descriptor-encoding | FileCheck %s

// Descriptors passed on by control flow get the layout of those that reach them (it depends on the type
// alone): an arith.select of two arguments, an scf.if yielding made descriptors, an scf.for carrying and
// swapping two, and the loop's results.
// CHECK: #[[S:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @flow
// CHECK: arith.select %{{.*}}, %arg0, %arg1 : !tt.tensordesc<tensor<64x64xf16, #[[S]]>>
// CHECK: scf.if %{{.*}} -> (!tt.tensordesc<tensor<64x64xf16, #[[S]]>>)
// CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[S]]>>
// CHECK: scf.for {{.*}} -> (!tt.tensordesc<tensor<64x64xf16, #[[S]]>>, !tt.tensordesc<tensor<64x64xf16, #[[S]]>>)
// CHECK: scf.yield %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[S]]>>, !tt.tensordesc<tensor<64x64xf16, #[[S]]>>
// CHECK: tt.descriptor_load %{{.*}}#0[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<64x64xf16, #[[S]]>> -> tensor<64x64xf16, #{{.*}}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @flow(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>, %p: !tt.ptr<f16>, %c: i1, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c64l = arith.constant 64 : i64
    %c1l = arith.constant 1 : i64
    %s = arith.select %c, %a, %b : !tt.tensordesc<tensor<64x64xf16>>
    %m = scf.if %c -> (!tt.tensordesc<tensor<64x64xf16>>) {
      %d = tt.make_tensor_descriptor %p, [%c64, %c64], [%c64l, %c1l] : <f16>, <tensor<64x64xf16>>
      scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
    } else {
      scf.yield %b : !tt.tensordesc<tensor<64x64xf16>>
    }
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %s, %y = %m) -> (!tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<64x64xf16>>) : i32 {
      scf.yield %y, %x : !tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<64x64xf16>>
    }
    %v = tt.descriptor_load %r#0[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %r#1[%c0, %c0], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    tt.return
  }
}
