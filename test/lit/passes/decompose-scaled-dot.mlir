// RUN: tt-opt %s -split-input-file -tritongpu-accelerate-matmul | FileCheck %s

// tt.dot_scaled has no native form before sm100: tritongpu-accelerate-matmul decomposes it as Triton's
// DecomposeScaledBlocked does: each operand upcast (ttg.fp4_to_fp / tt.fp_to_fp), its scales as bf16
// (s << 7, bitcast: 2^(s - 127)) spread over 32 K elements each (into a slice of the default blocked layout of
// R x K/32 x 1, expand_dims, broadcast, reshape in its inferred layout, a #ttg.linear here, converted to the
// operand's layout), multiplied in, NaN selected where s = 0xFF; each operand converted to its dot operand
// layout right after it; a bf16 tt.dot, which then gets MMA v2 (sm80). The constants go to the top of the
// function, the last one made first (Triton's rewriter hoists them as it makes them).

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[X2:.*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [16, 2, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[LIN:.*]] = #ttg.linear<{register = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = {{\[}}[0, 32], [1, 0], [2, 0], [4, 0], [8, 0]], warp = {{\[}}[16, 0], [32, 0]], block = []}>
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2
// CHECK-LABEL: tt.func @mxfp4_x_bf16
// CHECK-NEXT: %[[Q:.*]] = arith.constant dense<0x7FC0> : tensor<64x64xbf16, #[[X2]]>
// CHECK-NEXT: %[[FF:.*]] = arith.constant dense<-1> : tensor<64x2xi8, #blocked1>
// CHECK-NEXT: %[[SEVEN:.*]] = arith.constant dense<7> : tensor<64x2xi16, #blocked1>
// CHECK-NEXT: %[[A:.*]] = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #[[X2]]>
// CHECK-NEXT: %[[E:.*]] = arith.extui %arg1 : tensor<64x2xi8, #blocked1> to tensor<64x2xi16, #blocked1>
// CHECK-NEXT: %[[SH:.*]] = arith.shli %[[E]], %[[SEVEN]] : tensor<64x2xi16, #blocked1>
// CHECK-NEXT: %[[F:.*]] = tt.bitcast %[[SH]] : tensor<64x2xi16, #blocked1> -> tensor<64x2xbf16, #blocked1>
// CHECK-NEXT: %[[F1:.*]] = ttg.convert_layout %[[F]] : tensor<64x2xbf16, #blocked1> -> tensor<64x2xbf16, #ttg.slice<{dim = 2, parent = #[[S3]]}>>
// CHECK-NEXT: %[[F2:.*]] = tt.expand_dims %[[F1]] {axis = 2 : i32} : {{.*}} -> tensor<64x2x1xbf16, #[[S3]]>
// CHECK-NEXT: %[[F3:.*]] = tt.broadcast %[[F2]] : tensor<64x2x1xbf16, #[[S3]]> -> tensor<64x2x32xbf16, #[[S3]]>
// CHECK-NEXT: %[[F4:.*]] = tt.reshape %[[F3]] : tensor<64x2x32xbf16, #[[S3]]> -> tensor<64x64xbf16, #[[LIN]]>
// CHECK-NEXT: %[[F5:.*]] = ttg.convert_layout %[[F4]] : tensor<64x64xbf16, #[[LIN]]> -> tensor<64x64xbf16, #[[X2]]>
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[A]], %[[F5]] : tensor<64x64xbf16, #[[X2]]>
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpi eq, %arg1, %[[FF]] : tensor<64x2xi8, #blocked1>
// CHECK: %[[N4:.*]] = tt.reshape %{{.*}} : tensor<64x2x32xi1, #[[S3]]> -> tensor<64x64xi1, #[[LIN]]>
// CHECK-NEXT: %[[N5:.*]] = ttg.convert_layout %[[N4]] : tensor<64x64xi1, #[[LIN]]> -> tensor<64x64xi1, #[[X2]]>
// CHECK-NEXT: %[[V:.*]] = arith.select %[[N5]], %[[Q]], %[[P]]
// CHECK-NEXT: ttg.convert_layout %[[V]] : tensor<64x64xbf16, #[[X2]]> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK-NEXT: ttg.convert_layout %arg2 : tensor<64x64xbf16, #blocked2> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// CHECK: %[[D:.*]] = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]]{{.*}}>> * tensor<64x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]]{{.*}}>> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tt.dot_scaled
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp4_x_bf16(%a: tensor<64x32xi8, #blocked>, %s: tensor<64x2xi8, #blocked1>, %b: tensor<64x64xbf16, #blocked2>, %c: tensor<64x64xf32, #blocked2>) -> tensor<64x64xf32, #blocked2> {
    %d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<64x32xi8, #blocked>, tensor<64x2xi8, #blocked1> * tensor<64x64xbf16, #blocked2> -> tensor<64x64xf32, #blocked2>
    tt.return %d : tensor<64x64xf32, #blocked2>
  }
}

// -----

// b's scales come N x K/32, like a's: they are transposed to K/32 x N first (tt.trans in the transposed blocked
// layout), then spread to K/32 x N x 32, the 32 moved next to K/32 (tt.trans [0, 2, 1]) and reshaped to K x N;
// the NaN test compares the transposed scales. The NaN constant is made once for both operands.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[T:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[T3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[T3T:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [2, 1, 2], order = [1, 2, 0]}>
// CHECK-LABEL: tt.func @mxfp8
// CHECK-NEXT: arith.constant dense<-1> : tensor<2x64xi8, #[[T]]>
// CHECK-NEXT: arith.constant dense<7> : tensor<2x64xi16, #[[T]]>
// CHECK-NEXT: arith.constant dense<0x7FC0> : tensor<64x64xbf16, #blocked>
// CHECK-NEXT: arith.constant dense<-1> : tensor<64x2xi8, #blocked1>
// CHECK-NEXT: arith.constant dense<7> : tensor<64x2xi16, #blocked1>
// CHECK-NEXT: tt.fp_to_fp %arg0 : tensor<64x64xf8E5M2, #blocked> -> tensor<64x64xbf16, #blocked>
// CHECK: tt.fp_to_fp %arg1 : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xbf16, #blocked>
// CHECK-NEXT: %[[ST:.*]] = tt.trans %arg3 {order = array<i32: 1, 0>} : tensor<64x2xi8, #blocked1> -> tensor<2x64xi8, #[[T]]>
// CHECK-NEXT: arith.extui %[[ST]] : tensor<2x64xi8, #[[T]]> to tensor<2x64xi16, #[[T]]>
// CHECK: tt.broadcast %{{.*}} : tensor<2x64x1xbf16, #[[T3]]> -> tensor<2x64x32xbf16, #[[T3]]>
// CHECK-NEXT: tt.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<2x64x32xbf16, #[[T3]]> -> tensor<2x32x64xbf16, #[[T3T]]>
// CHECK-NEXT: tt.reshape %{{.*}} : tensor<2x32x64xbf16, #[[T3T]]> -> tensor<64x64xbf16, #{{.*}}>
// CHECK: arith.cmpi eq, %[[ST]], %{{.*}} : tensor<2x64xi8, #[[T]]>
// CHECK: tt.dot
// CHECK-NOT: tt.dot_scaled
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp8(%a: tensor<64x64xf8E5M2, #blocked>, %b: tensor<64x64xf8E4M3FN, #blocked>, %sa: tensor<64x2xi8, #blocked1>, %sb: tensor<64x2xi8, #blocked1>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e5m2 rhs = e4m3 {fastMath = false} : tensor<64x64xf8E5M2, #blocked>, tensor<64x2xi8, #blocked1> * tensor<64x64xf8E4M3FN, #blocked>, tensor<64x2xi8, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// On sm90 the unscaled bf16 operand b (already bf16: its upcast to its own type is folded away only after the
// dot's rewrite) goes to shared memory through a local_alloc of the value under its one conversion, placed
// where that upcast was: after a's chain.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func @mxfp4_x_bf16_sm90
// CHECK: %[[B:.*]] = ttg.convert_layout %arg2 : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blocked2>
// CHECK: %[[V:.*]] = arith.select
// CHECK-NEXT: ttg.convert_layout %[[V]] : {{.*}} -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK-NEXT: %[[AL:.*]] = ttg.local_alloc %[[B]] : (tensor<64x64xbf16, #blocked2>) -> !ttg.memdesc<64x64xbf16
// CHECK-NOT: tt.fp_to_fp
// CHECK: ttng.warp_group_dot %{{.*}}, %[[AL]], %{{.*}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp4_x_bf16_sm90(%a: tensor<64x32xi8, #blocked>, %s: tensor<64x2xi8, #blocked1>, %b0: tensor<64x64xbf16, #blocked>, %c: tensor<64x64xf32, #blocked2>) -> tensor<64x64xf32, #blocked2> {
    %b = ttg.convert_layout %b0 : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blocked2>
    %d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<64x32xi8, #blocked>, tensor<64x2xi8, #blocked1> * tensor<64x64xbf16, #blocked2> -> tensor<64x64xf32, #blocked2>
    tt.return %d : tensor<64x64xf32, #blocked2>
  }
}
