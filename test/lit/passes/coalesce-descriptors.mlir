// RUN: tt-opt %s -split-input-file -tritongpu-coalesce | FileCheck %s

// Descriptor loads, stores and reduces: 128-bit vectors along the block's rows whatever the offsets (8 x f16),
// lanes and warps spread from the last dimension; at most the block's elements per thread (8x16 f16 over 128
// threads: 1 each).
// CHECK: #[[V8:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[DEF:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #[[V1:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @rows
// CHECK: %[[L:.*]] = tt.descriptor_load %arg0[%arg2, %arg2] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #[[V8]]>
// CHECK-NEXT: ttg.convert_layout %[[L]] : tensor<64x64xf16, #[[V8]]> -> tensor<64x64xf16, #[[DEF]]>
// CHECK: %[[S:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64xf16, #[[DEF]]> -> tensor<64x64xf16, #[[V8]]>
// CHECK-NEXT: tt.descriptor_store %arg1[%arg2, %arg2], %[[S]] : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #[[V8]]>
// CHECK: tt.descriptor_reduce add, %arg1[%arg2, %arg2], %{{.*}} : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #[[V8]]>
// CHECK: tt.descriptor_load %arg3[%arg2, %arg2] : !tt.tensordesc<tensor<8x16xf16>> -> tensor<8x16xf16, #[[V1]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rows(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %c: !tt.tensordesc<tensor<8x16xf16>>) {
    %0 = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    %1 = arith.addf %0, %0 : tensor<64x64xf16, #blocked>
    tt.descriptor_store %b[%i, %i], %1 : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    tt.descriptor_reduce add, %b[%i, %i], %1 : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    %2 = tt.descriptor_load %c[%i, %i] : !tt.tensordesc<tensor<8x16xf16>> -> tensor<8x16xf16, #blocked>
    tt.return
  }
}
