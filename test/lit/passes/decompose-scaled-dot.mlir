// RUN: tt-opt %s -split-input-file -tritongpu-accelerate-matmul | FileCheck %s

// tt.dot_scaled has no native form before sm100: tritongpu-accelerate-matmul decomposes it into upcasts, the
// scale multiply (2^(s - 127) as bf16: s << 7; NaN where s = 0xFF) spread over 32 K elements per scale
// (expand_dims, broadcast, reshape; for b also a transpose), and a bf16 tt.dot, which then gets MMA v2 (sm80).

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[X2:.*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [16, 2, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2
// CHECK-LABEL: tt.func @mxfp4_x_bf16
// CHECK: %[[A:.*]] = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #[[X2]]>
// CHECK: %[[E:.*]] = arith.extui %arg1 : tensor<64x2xi8, #blocked1> to tensor<64x2xi16, #blocked1>
// CHECK: %[[SH:.*]] = arith.shli %[[E]], %{{.*}} : tensor<64x2xi16, #blocked1>
// CHECK: %[[F:.*]] = tt.bitcast %[[SH]] : tensor<64x2xi16, #blocked1> -> tensor<64x2xbf16, #blocked1>
// CHECK: %[[F1:.*]] = ttg.convert_layout %[[F]] : tensor<64x2xbf16, #blocked1> -> tensor<64x2xbf16, #ttg.slice<{dim = 2, parent = #[[S3]]}>>
// CHECK: %[[F2:.*]] = tt.expand_dims %[[F1]] {axis = 2 : i32} : {{.*}} -> tensor<64x2x1xbf16, #[[S3]]>
// CHECK: %[[F3:.*]] = tt.broadcast %[[F2]] : tensor<64x2x1xbf16, #[[S3]]> -> tensor<64x2x32xbf16, #[[S3]]>
// CHECK: %[[F4:.*]] = tt.reshape %[[F3]] : tensor<64x2x32xbf16, #[[S3]]> -> tensor<64x64xbf16, #[[X2]]>
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[F4]] : tensor<64x64xbf16, #[[X2]]>
// CHECK: %[[NAN:.*]] = arith.cmpi eq, %arg1, %{{.*}} : tensor<64x2xi8, #blocked1>
// CHECK: %[[N4:.*]] = tt.reshape %{{.*}} : tensor<64x2x32xi1, #[[S3]]> -> tensor<64x64xi1, #[[X2]]>
// CHECK: %[[Q:.*]] = arith.constant dense<0x7FC0> : tensor<64x64xbf16, #[[X2]]>
// CHECK: %[[V:.*]] = arith.select %[[N4]], %[[Q]], %[[P]]
// CHECK: ttg.convert_layout %[[V]] : tensor<64x64xbf16, #[[X2]]> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK: %[[D:.*]] = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tt.dot_scaled
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp4_x_bf16(%a: tensor<64x32xi8, #blocked>, %s: tensor<64x2xi8, #blocked1>, %b: tensor<64x64xbf16, #blocked2>, %c: tensor<64x64xf32, #blocked2>) -> tensor<64x64xf32, #blocked2> {
    %d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<64x32xi8, #blocked>, tensor<64x2xi8, #blocked1> * tensor<64x64xbf16, #blocked2> -> tensor<64x64xf32, #blocked2>
    tt.return %d : tensor<64x64xf32, #blocked2>
  }
}

// -----

// fp8 operands upcast with tt.fp_to_fp; b's scale (N x K/32) spreads to N x K and is transposed to K x N.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @mxfp8
// CHECK: tt.fp_to_fp %arg0 : tensor<64x64xf8E5M2, #blocked> -> tensor<64x64xbf16, #blocked>
// CHECK: tt.fp_to_fp %arg1 : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xbf16, #blocked>
// CHECK: tt.reshape %{{.*}} : tensor<64x2x32xbf16, #{{.*}}> -> tensor<64x64xbf16, #[[NK:.*]]>
// CHECK-NEXT: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<64x64xbf16, #[[NK]]> -> tensor<64x64xbf16, #blocked>
// CHECK: tt.dot
// CHECK-NOT: tt.dot_scaled
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp8(%a: tensor<64x64xf8E5M2, #blocked>, %b: tensor<64x64xf8E4M3FN, #blocked>, %s: tensor<64x2xi8, #blocked1>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot_scaled %a, %b scale %s, %c lhs = e5m2 rhs = e4m3 {fastMath = false} : tensor<64x64xf8E5M2, #blocked> * tensor<64x64xf8E4M3FN, #blocked>, tensor<64x2xi8, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

