// RUN: tt-opt %s -split-input-file -tritongpu-accelerate-matmul | FileCheck %s

// An f16 dot on sm80: MMA v2 (mma.sync m16n8k16) layouts, the accumulator and the operands converted to them
// and the result back, as Triton's BlockedToMMA does. 64x64 with 4 warps: warpsPerCTA = [2, 2].
// CHECK: #[[BL:.*]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @f16_dot
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg2 : tensor<64x64xf32, #[[BL]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[A:.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK-NEXT: %[[B:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>>
// CHECK-NEXT: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[C]], inputPrecision = tf32 : {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[R:.*]] = ttg.convert_layout %[[D]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[BL]]>
// CHECK-NEXT: tt.return %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f16_dot(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// bf16 on sm90 (ttc uses MMA v2 there too, where Triton would use v3 / wgmma). 128x64: warps along M first,
// while M / 16 per warp >= N / 16 per warp (Triton's warpsPerTileV2): [4, 1].
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @bf16_dot_sm90
// CHECK: tt.dot {{.*}} : tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>> -> tensor<128x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bf16_dot_sm90(%a: tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x64xf32, #blocked>
    tt.return %d : tensor<128x64xf32, #blocked>
  }
}

// -----

// 8 warps on 128x128: [2, 1], [2, 2], then [4, 2].
// CHECK: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @eight_warps
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @eight_warps(%a: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

// Chained dots (attention): the second dot's operand comes from the first one's result. Both get all warps
// along M (64x64: M >= N), the second one taking the first one's MMA layout.
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-NOT: #ttg.nvidia_mma
// CHECK-LABEL: tt.func public @chained
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @chained(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %p = arith.truncf %d : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    %pa = ttg.convert_layout %p : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %e = tt.dot %pa, %b, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %e : tensor<64x64xf32, #blocked>
  }
}

// -----

// The other mma.sync forms (ttc/lowering/mma_v2.py): f32 with tf32 precision (m16n8k8, kWidth = 1), i8 -> i32
// (m16n8k32, kWidth = 4), f16 -> f16 (m16n8k16, kWidth = 2), and fp8 -> f32 on sm89 (m16n8k32, kWidth = 4); the
// same #mma for all (warpsPerTileV2 depends on the shape only).
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @other_kinds
// CHECK: tt.dot {{.*}} : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 1}>> -> tensor<64x64xf32, #[[MMA]]>
// CHECK: tt.dot {{.*}} : tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>> * tensor<32x64xi8, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>> -> tensor<64x64xi32, #[[MMA]]>
// CHECK: tt.dot {{.*}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>> -> tensor<64x64xf16, #[[MMA]]>
// CHECK: tt.dot {{.*}} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>> -> tensor<64x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:89", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @other_kinds(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>, %a8: tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b8: tensor<32x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c32: tensor<64x64xi32, #blocked>, %a16: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b16: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c16: tensor<64x64xf16, #blocked>, %af8: tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %bf8: tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) {
    %tf32 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %i8 = tt.dot %a8, %b8, %c32 : tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xi32, #blocked>
    %h = tt.dot %a16, %b16, %c16 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
    %f8 = tt.dot %af8, %bf8, %c : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

// e5m2 before sm89: converted to f16 in the fp8 operand layouts (kWidth 4), then an f16 dot (Triton's
// decomposition of fp8 dots on sm80).
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @e5m2_sm80
// CHECK: %[[A:.*]] = ttg.convert_layout %arg0 : {{.*}} -> tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>>
// CHECK: %[[B:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>>
// CHECK: %[[A16:.*]] = tt.fp_to_fp %[[A]] : tensor<64x32xf8E5M2, {{.*}}> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>>
// CHECK: %[[B16:.*]] = tt.fp_to_fp %[[B]] : tensor<32x64xf8E5M2, {{.*}}> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>>
// CHECK: tt.dot %[[A16]], %[[B16]], {{.*}} -> tensor<64x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @e5m2_sm80(%a: tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// Not rewritten: f32 operands of ieee precision (FMA in Triton too) or tf32x3 (Triton's f32-dot-tc splits it into
// tf32 dots: not implemented), an i8 dot with K = 16 (less than m16n8k32's K), e4m3 before sm89 (only e5m2 is
// upcast there; Triton's frontend refuses e4m3 before sm89). make-ttgir warns at the ones Triton runs on tensor cores
// (test/lit/tt-opt/diagnostics-*.mlir, tensor-core-warnings.mlir).
// CHECK-NOT: #ttg.nvidia_mma
// CHECK-LABEL: tt.func public @unchanged
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unchanged(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>, %a8: tensor<64x16xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b8: tensor<16x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c32: tensor<64x64xi32, #blocked>, %af8: tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %bf8: tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) {
    %ieee = tt.dot %a, %b, %c : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %x3 = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %i8 = tt.dot %a8, %b8, %c32 : tensor<64x16xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xi32, #blocked>
    %f8 = tt.dot %af8, %bf8, %c : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

// Not rewritten before sm80 (Triton uses MMA v2, versionMinor = 1, from sm75 on; ttc's lowering targets sm80+).
// CHECK-NOT: #ttg.nvidia_mma
// CHECK-LABEL: tt.func public @sm75
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sm75(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}
