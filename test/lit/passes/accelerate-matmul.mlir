// RUN: tt-opt %s -split-input-file -tritongpu-accelerate-matmul | FileCheck %s
// RUN: env TRITON_PREFER_TMEM_16x256_LAYOUT=1 tt-opt %s -split-input-file -tritongpu-accelerate-matmul | FileCheck %s --check-prefix=TMEM16

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

// bf16 on sm80. 128x64: warps go where the 16x8 instruction repeats more per warp, M on ties (Triton 3.6's
// warpsPerTileV2): 8 x 8 repetitions, M (4 x 8), then N: [2, 2].
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @bf16_dot_sm80
// CHECK: tt.dot {{.*}} : tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>> -> tensor<128x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bf16_dot_sm80(%a: tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x64xf32, #blocked>
    tt.return %d : tensor<128x64xf32, #blocked>
  }
}

// -----

// 8 warps on 128x128: 8 x 16 repetitions: N (8 x 8), M on the tie (4 x 8), then N: [2, 4].
// CHECK: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
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
// tf32 dots: not implemented), an i8 dot with K = 16 (less than m16n8k32's K). make-ttgir warns at the ones
// Triton runs on tensor cores
// (test/lit/tt-opt/diagnostics-*.mlir, tensor-core-warnings.mlir).
// CHECK-NOT: #ttg.nvidia_mma
// CHECK-LABEL: tt.func public @unchanged
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unchanged(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>, %a8: tensor<64x16xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b8: tensor<16x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c32: tensor<64x64xi32, #blocked>) {
    %ieee = tt.dot %a, %b, %c : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %x3 = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %i8 = tt.dot %a8, %b8, %c32 : tensor<64x16xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xi32, #blocked>
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

// -----

// MMA v3 on sm90: an f16 dot of loaded operands (Triton's matmul fixture, 64x64x32, 4 warps): instrShape
// [16, 64, 16], warpsPerCTA [4, 1]; each operand goes to shared memory right after its load (the conversion to the
// blocked dot operand layout is dropped), in an nvmma_shared layout of its register order: A's rows are 64 bytes
// (swizzle 64), B's 128; ttng.warp_group_dot reads them (synchronous until tritongpu-pipeline).
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @f16_wgmma
// CHECK-NEXT: %[[A:.*]] = tt.load %arg0
// CHECK-NEXT: %[[SMA:.*]] = ttg.local_alloc %[[A]] : (tensor<64x32xf16, #{{.*}}>) -> !ttg.memdesc<64x32xf16, #[[SA]], #smem>
// CHECK-NEXT: %[[B:.*]] = tt.load %arg1
// CHECK-NEXT: %[[SMB:.*]] = ttg.local_alloc %[[B]] : (tensor<32x64xf16, #{{.*}}>) -> !ttg.memdesc<32x64xf16, #[[SB]], #smem>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg2 : {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[SMA]], %[[SMB]], %[[C]] {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #[[SA]], #smem> * !ttg.memdesc<32x64xf16, #[[SB]], #smem> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[R:.*]] = ttg.convert_layout %[[D]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #{{.*}}>
// CHECK-NEXT: tt.return %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#la = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f16_wgmma(%pa: tensor<64x32x!tt.ptr<f16>, #la>, %pb: tensor<32x64x!tt.ptr<f16>, #lb>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #la>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #lb>
    %a1 = ttg.convert_layout %a : tensor<64x32xf16, #la> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b1 = ttg.convert_layout %b : tensor<32x64xf16, #lb> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a1, %b1, %c, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// bf16, 128x256 with 8 warps (Triton's matmul_128x256x64_s3_w8): [4, 1] doubled along M while M exceeds 16 rows
// per warp: [8, 1]; one warp group column, so N = 256. Block arguments go to shared memory at the top of the block.
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
// CHECK-LABEL: tt.func public @bf16_wgmma_8_warps
// CHECK-NEXT: ttg.local_alloc %arg1
// CHECK-NEXT: ttg.local_alloc %arg0
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<128x256xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bf16_wgmma_8_warps(%a: tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x256xf32, #blocked>) -> tensor<128x256xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x256xf32, #blocked>
    tt.return %d : tensor<128x256xf32, #blocked>
  }
}

// -----

// 64x128 with 8 warps: M = 64 fills one warp group ([4, 1]), so the other four warps go along N: [4, 2], and
// instrShape N = 128 / 2 warp group columns = 64.
// CHECK: #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 64, 16]}>
// CHECK-LABEL: tt.func public @wgmma_warps_along_n
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_warps_along_n(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x128xf32, #blocked>) -> tensor<64x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x128xf32, #blocked>
    tt.return %d : tensor<64x128xf32, #blocked>
  }
}

// -----

// tf32 (f32 operands, tf32 input precision) on sm90: K = 256 / 32 = 8, and wgmma transposes no 32-bit operand in
// shared memory, so B is stored K-major (order [0, 1]: transposed) whatever its register order.
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-LABEL: tt.func public @tf32_wgmma
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<64x32xf32, #[[SA]], #smem> * !ttg.memdesc<32x64xf32, #[[SB]], #smem> -> tensor<64x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tf32_wgmma(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// Chained dots (attention) on sm90, 64x64 tiles with 8 warps: the first dot's result reaches the second dot, so
// the first takes all warps along M, [8, 1]; the second, chained to no later dot, gets [4, 1] doubled along N
// (64 rows fill one warp group): [4, 2]. Both have N = 64 / 2 = 32 (the instruction shape assumes 8 warps over
// 64 rows make two warp group columns, chained or not, as Triton's mmaVersionToInstrShape does). The second's A comes from registers (truncf), not from a
// load: it stays in registers as #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>, converted right before the
// wgmma. The first dot's B (a transpose of a load) is stored in the transpose's column-major order:
// transposed = true (tritongpu-optimize-dot-operands then moves the transpose onto the descriptor).
// CHECK-DAG: #[[MMA0:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 32, 16]}>
// CHECK-DAG: #[[MMA1:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
// CHECK-DAG: #[[ST:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @chained_wgmma
// CHECK: %[[T:.*]] = tt.trans
// CHECK-NEXT: ttg.local_alloc %[[T]] : (tensor<64x64xf16, #{{.*}}>) -> !ttg.memdesc<64x64xf16, #[[ST]], #smem>
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[MMA0]]>
// CHECK: %[[P:.*]] = arith.truncf
// CHECK: %[[PA:.*]] = ttg.convert_layout %[[P]] : {{.*}} -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked{{[0-9]*}}}>>
// CHECK: %[[PR:.*]] = ttg.convert_layout %[[PA]] : {{.*}} -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA1]], kWidth = 2}>>
// CHECK-NEXT: ttng.warp_group_dot %[[PR]], {{.*}} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA1]], kWidth = 2}>> * !ttg.memdesc<64x64xf16
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#lk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @chained_wgmma(%pq: tensor<64x64x!tt.ptr<f16>, #lk>, %pk: tensor<64x64x!tt.ptr<f16>, #lk>, %pv: tensor<64x64x!tt.ptr<f16>, #lk>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %q = tt.load %pq : tensor<64x64x!tt.ptr<f16>, #lk>
    %qa = ttg.convert_layout %q : tensor<64x64xf16, #lk> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %k = tt.load %pk : tensor<64x64x!tt.ptr<f16>, #lk>
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x64xf16, #lk> -> tensor<64x64xf16, #bt>
    %kb = ttg.convert_layout %kt : tensor<64x64xf16, #bt> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %s = tt.dot %qa, %kb, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %p = arith.truncf %s : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    %pa = ttg.convert_layout %p : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %v = tt.load %pv : tensor<64x64x!tt.ptr<f16>, #lk>
    %vb = ttg.convert_layout %v : tensor<64x64xf16, #lk> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %o = tt.dot %pa, %vb, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %o : tensor<64x64xf32, #blocked>
  }
}

// -----

// sm90 dots that MMA v3 does not take fall back to MMA v2, as in Triton: M = 32 (not a multiple of 64); K = 8 is
// below wgmma's K of 16 and mma.sync's too, so those dots stay blocked (FMA; make-ttgir warns).
// CHECK-NOT: versionMajor = 3
// CHECK: #ttg.nvidia_mma<{versionMajor = 2
// CHECK-NOT: versionMajor = 3
// CHECK-LABEL: tt.func public @sm90_v2_fallback
// CHECK-NOT: ttng.warp_group_dot
// CHECK: tt.dot {{.*}} -> tensor<32x64xf32, #mma{{[0-9]*}}>
// CHECK-COUNT-2: tt.dot {{.*}} -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sm90_v2_fallback(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x64xf32, #blocked>, %a8: tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b8: tensor<8x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c8: tensor<64x64xf32, #blocked>) {
    %m32 = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf32, #blocked>
    %k8 = tt.dot %a8, %b8, %c8 : tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<8x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %k8b = tt.dot %a8, %b8, %c8 : tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<8x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

// 2 warps on sm90: not a warp group, MMA v2 (64x64: 4 x 8 repetitions, so along N).
// CHECK: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @sm90_two_warps
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sm90_two_warps(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// i8 -> i32 on sm90 (Triton's matmul_acc fixture): MMA v3 with K = 256 / 8 = 32. wgmma transposes no 8-bit operand
// in shared memory, so both are stored K-major whatever their register order: A row-major (transposed = false),
// B column-major (order [0, 1]: transposed = true; B's registers are row-major, the store transposes them). Each
// buffer's contiguous K is 32 bytes: swizzle 32. N = 64 is on the i8 list (which has no 256, 240 nor 248).
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func public @i8_wgmma
// CHECK-NEXT: %[[A:.*]] = tt.load %arg0
// CHECK-NEXT: %[[SMA:.*]] = ttg.local_alloc %[[A]] : (tensor<64x32xi8, #{{.*}}>) -> !ttg.memdesc<64x32xi8, #[[SA]], #smem>
// CHECK-NEXT: %[[B:.*]] = tt.load %arg1
// CHECK-NEXT: %[[SMB:.*]] = ttg.local_alloc %[[B]] : (tensor<32x64xi8, #{{.*}}>) -> !ttg.memdesc<32x64xi8, #[[SB]], #smem>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg2 : {{.*}} -> tensor<64x64xi32, #[[MMA]]>
// CHECK-NEXT: ttng.warp_group_dot %[[SMA]], %[[SMB]], %[[C]] {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xi8, #[[SA]], #smem> * !ttg.memdesc<32x64xi8, #[[SB]], #smem> -> tensor<64x64xi32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#la = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @i8_wgmma(%pa: tensor<64x32x!tt.ptr<i8>, #la>, %pb: tensor<32x64x!tt.ptr<i8>, #lb>, %c: tensor<64x64xi32, #blocked>) -> tensor<64x64xi32, #blocked> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<i8>, #la>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<i8>, #lb>
    %a1 = ttg.convert_layout %a : tensor<64x32xi8, #la> -> tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b1 = ttg.convert_layout %b : tensor<32x64xi8, #lb> -> tensor<32x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a1, %b1, %c, inputPrecision = tf32 : tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xi32, #blocked>
    tt.return %d : tensor<64x64xi32, #blocked>
  }
}

// -----

// i8 instrShape N: 64x256 with 4 warps takes 128, the largest entry of Triton's i8 list dividing 256 (the list
// has no 256; the f16/fp8 list would give 256).
// CHECK-DAG: #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 32]}>
// CHECK-LABEL: tt.func public @i8_instr_n
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @i8_instr_n(%a: tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b2: tensor<32x256xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c2: tensor<64x256xi32, #blocked>) {
    %d2 = tt.dot %a, %b2, %c2 : tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x256xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x256xi32, #blocked>
    tt.return
  }
}

// -----

// e4m3 -> f32 on sm90 (Triton's matmul_acc_e4m3 fixture, fp8 read as bytes): A is a bitcast of a load, not a load,
// so it stays in registers as #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>; B (a bitcast too) goes to
// shared memory right after the bitcast, K-major (transposed = true) although its registers are row-major.
// 64-bit K rows: 32 bytes, swizzle 32. maxNumImpreciseAcc is kept (Triton's 2^30 default for fp8).
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func public @e4m3_wgmma
// CHECK: %[[BB:.*]] = tt.bitcast %{{.*}} : tensor<32x64xi8, #{{.*}}> -> tensor<32x64xf8E4M3FN, #{{.*}}>
// CHECK-NEXT: %[[SMB:.*]] = ttg.local_alloc %[[BB]] : (tensor<32x64xf8E4M3FN, #{{.*}}>) -> !ttg.memdesc<32x64xf8E4M3FN, #[[SB]], #smem>
// CHECK: %[[AR:.*]] = ttg.convert_layout %{{.*}} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked{{[0-9]*}}}>> -> tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>>
// CHECK-NEXT: ttng.warp_group_dot %[[AR]], %[[SMB]], %{{.*}} {inputPrecision = 0 : i32, maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>> * !ttg.memdesc<32x64xf8E4M3FN, #[[SB]], #smem> -> tensor<64x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#la = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @e4m3_wgmma(%pa: tensor<64x32x!tt.ptr<i8>, #la>, %pb: tensor<32x64x!tt.ptr<i8>, #lb>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<i8>, #la>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<i8>, #lb>
    %a8 = tt.bitcast %a : tensor<64x32xi8, #la> -> tensor<64x32xf8E4M3FN, #la>
    %b8 = tt.bitcast %b : tensor<32x64xi8, #lb> -> tensor<32x64xf8E4M3FN, #lb>
    %a1 = ttg.convert_layout %a8 : tensor<64x32xf8E4M3FN, #la> -> tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b1 = ttg.convert_layout %b8 : tensor<32x64xf8E4M3FN, #lb> -> tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a1, %b1, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// e5m2 and mixed fp8 on sm90, operands loaded as fp8: both in shared memory; A row-major (K-major already), B
// K-major. 128x128 with 8 warps: [8, 1], N = 128. A mixed e5m2 x e4m3 dot is MMA v3 too (wgmma has every fp8 pair).
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 32]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func public @e5m2_wgmma
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<128x64xf8E5M2, #[[SA]], #smem> * !ttg.memdesc<64x128xf8E5M2, #[[SB]], #smem> -> tensor<128x128xf32, #[[MMA]]>
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<128x64xf8E5M2, #[[SA]], #smem> * !ttg.memdesc<64x128xf8E4M3FN, #[[SB]], #smem> -> tensor<128x128xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @e5m2_wgmma(%a: tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %b2: tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 1073741824 : i32} : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    %d2 = tt.dot %a, %b2, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 1073741824 : i32} : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return
  }
}

// -----

// A K-major (column-major in registers, order [0, 1]) fp8 B, as a tt.trans of an N x K load gives it: already
// wgmma's K-major order, stored as it is (transposed = true, no transpose in the store); an fp8 A loaded
// column-major is forced to row-major (transposed = false): fp8 wgmma reads K-major operands only, whatever the
// register order (Triton's allowTranspose is for f16/bf16 only; for them the order is kept, see @chained_wgmma).
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: tt.func public @fp8_transposed_operands
// CHECK: %[[A:.*]] = tt.load %arg0
// CHECK-NEXT: ttg.local_alloc %[[A]] : (tensor<64x32xf8E4M3FN, #{{.*}}>) -> !ttg.memdesc<64x32xf8E4M3FN, #[[SA]], #smem>
// CHECK: %[[BT:.*]] = tt.trans
// CHECK-NEXT: ttg.local_alloc %[[BT]] : (tensor<32x64xf8E4M3FN, #{{.*}}>) -> !ttg.memdesc<32x64xf8E4M3FN, #[[SB]], #smem>
// CHECK: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#lat = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#lbn = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#lbt = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_transposed_operands(%pa: tensor<64x32x!tt.ptr<f8E4M3FN>, #lat>, %pb: tensor<64x32x!tt.ptr<f8E4M3FN>, #lbn>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f8E4M3FN>, #lat>
    %a1 = ttg.convert_layout %a : tensor<64x32xf8E4M3FN, #lat> -> tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = tt.load %pb : tensor<64x32x!tt.ptr<f8E4M3FN>, #lbn>
    %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<64x32xf8E4M3FN, #lbn> -> tensor<32x64xf8E4M3FN, #lbt>
    %b1 = ttg.convert_layout %bt : tensor<32x64xf8E4M3FN, #lbt> -> tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a1, %b1, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// fp8 into f32 with maxNumImpreciseAcc below 32 stays on MMA v2 on sm90 (Triton's supportMMA: wgmma would need
// Triton's split accumulation, which ttc does not do).
// CHECK-NOT: versionMajor = 3
// CHECK-LABEL: tt.func public @sm90_fp8_imprecise_v2
// CHECK-NOT: ttng.warp_group_dot
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sm90_fp8_imprecise_v2(%a: tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 16 : i32} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// f16 accumulators on sm90: f16 -> f16 and fp8 -> f16 are MMA v3 (wgmma .f16 D), whatever maxNumImpreciseAcc
// (the split-accumulation rule concerns f32 accumulators only).
// CHECK-DAG: #[[MMA16:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[MMA8:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK-LABEL: tt.func public @f16_accumulators_wgmma
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf16, #[[MMA16]]>
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf16, #[[MMA8]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f16_accumulators_wgmma(%a: tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %a16: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b16: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c16: tensor<64x64xf16, #blocked>) {
    %h = tt.dot %a16, %b16, %c16 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
    %d = tt.dot %a, %b, %c16 : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// Before sm80 a dot stays on FMA; its f16 operands are extended to the f32 accumulator's type (Triton's
// decomposeMixedModeDotOp).
// CHECK-LABEL: tt.func public @fma_promotes
// CHECK-NEXT: %[[A:.*]] = arith.extf %arg0 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK-NEXT: %[[B:.*]] = arith.extf %arg1
// CHECK-NEXT: tt.dot %[[A]], %[[B]], %arg2 : tensor<64x32xf32, {{.*}} * tensor<32x64xf32, {{.*}} -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fma_promotes(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}


// -----

// An A operand loaded and transposed in registers still comes from a load (Triton's comesFromLoadOrBlockArg looks
// through tt.trans): it is stored to shared memory from the transpose, not kept in registers.
// CHECK-LABEL: tt.func public @a_from_transposed_load
// CHECK: %[[T:.*]] = tt.trans
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %[[T]]
// CHECK: ttng.warp_group_dot %[[A]],
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tr = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @a_from_transposed_load(%p: tensor<64x64x!tt.ptr<f16>, #ld>, %b: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %x = tt.load %p : tensor<64x64x!tt.ptr<f16>, #ld>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #tr>
    %a = ttg.convert_layout %t : tensor<64x64xf16, #tr> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %d = tt.dot %a, %b, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// A wgmma operand behind several layout conversions is stored from the first value (Triton's
// getSharedMemoryMMAOperand looks through all of them): a transposed B keeps its column-major order in shared
// memory (transposed = true), so tritongpu-optimize-dot-operands can later store the untransposed tensor as loaded.
// CHECK-DAG: #[[SBT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @b_through_two_converts
// CHECK: %[[T:.*]] = tt.trans
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc %[[T]] : (tensor<64x64xf16, #{{.*}}>) -> !ttg.memdesc<64x64xf16, #[[SBT]], #smem>
// CHECK: ttng.warp_group_dot %{{.*}}, %[[B]],
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tr = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @b_through_two_converts(%pa: tensor<64x64x!tt.ptr<f16>, #ld>, %pb: tensor<64x64x!tt.ptr<f16>, #ld>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %a = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #ld>
    %x = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #ld>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #tr>
    %r = ttg.convert_layout %t : tensor<64x64xf16, #tr> -> tensor<64x64xf16, #ld>
    %a1 = ttg.convert_layout %a : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b1 = ttg.convert_layout %r : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a1, %b1, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// sm100: an f16 dot becomes tcgen05.mma (Triton's BlockedToMMAv5). A and B are stored to shared memory (B, a block
// argument, at the function's start, after the constants; A right after its load), the accumulator moves to
// tensor memory (blockM 128, blockN = N, 32-bit columns) in the default TMEM load/store layout (32x32b message:
// a row per thread), the MMA runs unconditionally (`true` hoisted to the top) and its result is loaded back and
// converted to the dot's layout. The conversions to the blocked dot operand layouts go away.
// With TRITON_PREFER_TMEM_16x256_LAYOUT the 16x256b message's layout is used instead.
// CHECK-DAG: #[[L:.*]] = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[TM:.*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-LABEL: tt.func public @f16_mma_v5
// CHECK-NEXT: %[[T:.*]] = arith.constant true
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc %arg1 : (tensor<64x128xf16, #{{.*}}>) -> !ttg.memdesc<64x128xf16, #[[SB]], #smem>
// CHECK-NEXT: %[[LA:.*]] = tt.load %arg0
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %[[LA]] : (tensor<128x64xf16, #{{.*}}>) -> !ttg.memdesc<128x64xf16, #[[SA]], #smem>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg2 : tensor<128x128xf32, #{{.*}}> -> tensor<128x128xf32, #[[L]]>
// CHECK-NEXT: %[[ACC:.*]], %[[TOK:.*]] = ttng.tmem_alloc %[[C]] : (tensor<128x128xf32, #[[L]]>) -> (!ttg.memdesc<128x128xf32, #[[TM]], #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK-NEXT: %[[MT:.*]] = ttng.tc_gen5_mma %[[A]], %[[B]], %[[ACC]][%[[TOK]]], %[[T]], %[[T]] : !ttg.memdesc<128x64xf16, #[[SA]], #smem>, !ttg.memdesc<64x128xf16, #[[SB]], #smem>, !ttg.memdesc<128x128xf32, #[[TM]], #ttng.tensor_memory, mutable>
// CHECK-NEXT: %[[R:.*]], %{{.*}} = ttng.tmem_load %[[ACC]][%[[MT]]] : !ttg.memdesc<128x128xf32, #[[TM]], #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #[[L]]>
// CHECK-NEXT: %[[D:.*]] = ttg.convert_layout %[[R]] : tensor<128x128xf32, #[[L]]> -> tensor<128x128xf32, #{{.*}}>
// CHECK-NEXT: tt.return %[[D]]
// TMEM16: #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [16, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>
// TMEM16-LABEL: tt.func public @f16_mma_v5
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blt = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f16_mma_v5(%pa: tensor<128x64x!tt.ptr<f16>, #bl>, %b: tensor<64x128xf16, #blt>, %c: tensor<128x128xf32, #bl>) -> tensor<128x128xf32, #bl> {
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #bl>
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #bl> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #bl}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #blt> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #bl}>>
    %d = tt.dot %ad, %bd, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #bl}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #bl}>> -> tensor<128x128xf32, #bl>
    tt.return %d : tensor<128x128xf32, #bl>
  }
}

// -----

// sm100, f32 operands: a tf32 dot takes MMA v5 with K-major operands (B stored transposed: tcgen05 reads tf32
// only so); M = 64 gives blockM 64, N = 512 blockN 256. A full-precision (ieee) f32 dot is left as it is (not MMA v2
// either), unless an operand was loaded narrower (here f16, extended): then it takes MMA v5 too. One `true` serves
// both MMAs.
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-DAG: #[[TM:.*]] = #ttng.tensor_memory_encoding<blockM = 64, blockN = 256, colStride = 1>
// CHECK-LABEL: tt.func public @f32_mma_v5
// CHECK-COUNT-1: arith.constant true
// CHECK-NOT: arith.constant true
// CHECK: %[[TF32:.*]] = ttng.tc_gen5_mma {{.*}} : !ttg.memdesc<64x32xf32, #{{.*}}, #smem>, !ttg.memdesc<32x512xf32, #[[SB]], #smem>, !ttg.memdesc<64x512xf32, #[[TM]], #ttng.tensor_memory, mutable>
// CHECK: %[[IEEE:.*]] = tt.dot %{{.*}}, %{{.*}}, %arg2 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #[[BL:.*]]}>> * tensor<32x512xf32, #ttg.dot_op<{opIdx = 1, parent = #[[BL]]}>> -> tensor<64x512xf32, #[[BL]]>
// CHECK: %[[H:.*]] = arith.extf
// CHECK-NEXT: ttg.local_alloc %[[H]]
// CHECK: ttng.tc_gen5_mma
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f32_mma_v5(%a: tensor<64x32xf32, #bl>, %b: tensor<32x512xf32, #bl>, %c: tensor<64x512xf32, #bl>, %ph: tensor<64x32x!tt.ptr<f16>, #bl>) -> (tensor<64x512xf32, #bl>, tensor<64x512xf32, #bl>, tensor<64x512xf32, #bl>) {
    %ad = ttg.convert_layout %a : tensor<64x32xf32, #bl> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #bl}>>
    %bd = ttg.convert_layout %b : tensor<32x512xf32, #bl> -> tensor<32x512xf32, #ttg.dot_op<{opIdx = 1, parent = #bl}>>
    %tf32 = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #bl}>> * tensor<32x512xf32, #ttg.dot_op<{opIdx = 1, parent = #bl}>> -> tensor<64x512xf32, #bl>
    %ieee = tt.dot %ad, %bd, %c, inputPrecision = ieee : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #bl}>> * tensor<32x512xf32, #ttg.dot_op<{opIdx = 1, parent = #bl}>> -> tensor<64x512xf32, #bl>
    %h = tt.load %ph : tensor<64x32x!tt.ptr<f16>, #bl>
    %x = arith.extf %h : tensor<64x32xf16, #bl> to tensor<64x32xf32, #bl>
    %xd = ttg.convert_layout %x : tensor<64x32xf32, #bl> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #bl}>>
    %ext = tt.dot %xd, %bd, %c, inputPrecision = ieee : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #bl}>> * tensor<32x512xf32, #ttg.dot_op<{opIdx = 1, parent = #bl}>> -> tensor<64x512xf32, #bl>
    tt.return %tf32, %ieee, %ext : tensor<64x512xf32, #bl>, tensor<64x512xf32, #bl>, tensor<64x512xf32, #bl>
  }
}

// -----

// sm100 with 16 warps: TMEM loads and stores take 4 or 8 warps, so MMA v2 instead.
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 4], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @sm100_16_warps
// CHECK: tt.dot {{.*}} -> tensor<128x128xf32, #[[MMA]]>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [16, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 16 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sm100_16_warps(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #bl}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #bl}>>, %c: tensor<128x128xf32, #bl>) -> tensor<128x128xf32, #bl> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #bl}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #bl}>> -> tensor<128x128xf32, #bl>
    tt.return %d : tensor<128x128xf32, #bl>
  }
}

// -----

// sm100: a block-scaled dot becomes tcgen05.mma with block scales (Triton's ScaledBlockedToMMAv5): operands and
// accumulator as for tc_gen5_mma (blockM 128), each scale into an immutable TMEM scales buffer in the default
// TMEM layout. A scale that comes from a load is first staged through unswizzled shared memory (a local_alloc
// of the load and a local_load in its place, for the pipeliner to multi-buffer); one from elsewhere is not.
// CHECK-DAG: #[[S0:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[LSA:.*]] = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
// CHECK-DAG: #[[LSB:.*]] = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
// CHECK-DAG: #[[TS:.*]] = #ttng.tensor_memory_scales_encoding<>
// CHECK-LABEL: tt.func public @scaled_mma_v5
// CHECK: %[[LD:.*]] = tt.load %arg1
// CHECK-NEXT: %[[SS:.*]] = ttg.local_alloc %[[LD]] : (tensor<128x4xi8, #{{.*}}>) -> !ttg.memdesc<128x4xi8, #[[S0]], #smem>
// CHECK-NEXT: %[[SA:.*]] = ttg.local_load %[[SS]] : !ttg.memdesc<128x4xi8, #[[S0]], #smem> -> tensor<128x4xi8, #{{.*}}>
// CHECK: %[[ACC:.*]], %[[TOK:.*]] = ttng.tmem_alloc
// CHECK-NEXT: %[[CA:.*]] = ttg.convert_layout %[[SA]] : {{.*}} -> tensor<128x4xi8, #[[LSA]]>
// CHECK-NEXT: %[[CB:.*]] = ttg.convert_layout %arg3 : {{.*}} -> tensor<64x4xi8, #[[LSB]]>
// CHECK-NEXT: %[[TA:.*]] = ttng.tmem_alloc %[[CA]] : (tensor<128x4xi8, #[[LSA]]>) -> !ttg.memdesc<128x4xi8, #[[TS]], #ttng.tensor_memory>
// CHECK-NEXT: %[[TB:.*]] = ttng.tmem_alloc %[[CB]] : (tensor<64x4xi8, #[[LSB]]>) -> !ttg.memdesc<64x4xi8, #[[TS]], #ttng.tensor_memory>
// CHECK-NEXT: %[[M:.*]] = ttng.tc_gen5_mma_scaled %{{.*}}, %{{.*}}, %[[ACC]][%[[TOK]]], %[[TA]], %[[TB]], %{{.*}}, %{{.*}} lhs = e4m3 rhs = e4m3 :
// CHECK-NEXT: ttng.tmem_load %[[ACC]][%[[M]]]
// CHECK-NOT: tt.dot_scaled
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bs = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scaled_mma_v5(%a: tensor<128x128xf8E4M3FN, #bl>, %psa: tensor<128x4x!tt.ptr<i8>, #bs>, %b: tensor<128x64xf8E4M3FN, #bl>, %sb: tensor<64x4xi8, #bs>, %c: tensor<128x64xf32, #bl>) -> tensor<128x64xf32, #bl> {
    %sa = tt.load %psa : tensor<128x4x!tt.ptr<i8>, #bs>
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x128xf8E4M3FN, #bl>, tensor<128x4xi8, #bs> * tensor<128x64xf8E4M3FN, #bl>, tensor<64x4xi8, #bs> -> tensor<128x64xf32, #bl>
    tt.return %d : tensor<128x64xf32, #bl>
  }
}

// -----

// An e2m1 B with an e5m2 A (mixed formats) is padded in shared memory (`fp4Padded`: each byte's two values take
// a byte each, so its row counts twice for the swizzle: 32 bytes -> 64); packed along N (rhs_k_pack = false) its
// order flips from K-major to N-major: stored as its registers hold it.
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8, fp4Padded = true}>
// CHECK-LABEL: tt.func public @mixed_scaled_mma_v5
// CHECK: ttng.tc_gen5_mma_scaled {{.*}} lhs = e5m2 rhs = e2m1 : !ttg.memdesc<128x128xf8E5M2, #{{.*}}, #smem>, !ttg.memdesc<128x32xi8, #[[SB]], #smem>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bs = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mixed_scaled_mma_v5(%a: tensor<128x128xf8E5M2, #bl>, %sa: tensor<128x4xi8, #bs>, %b: tensor<128x32xi8, #bl>, %sb: tensor<64x4xi8, #bs>, %c: tensor<128x64xf32, #bl>) -> tensor<128x64xf32, #bl> {
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e5m2 rhs = e2m1 {fastMath = false, rhs_k_pack = false} : tensor<128x128xf8E5M2, #bl>, tensor<128x4xi8, #bs> * tensor<128x32xi8, #bl>, tensor<64x4xi8, #bs> -> tensor<128x64xf32, #bl>
    tt.return %d : tensor<128x64xf32, #bl>
  }
}

// -----

// A block-scaled dot with M < 128 has no tcgen05 form: it is decomposed (upcasts to bf16 and a tt.dot), and that
// dot then takes MMA v5 (blockM 64).
// CHECK-DAG: #[[TM:.*]] = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
// CHECK-LABEL: tt.func public @scaled_m64
// CHECK: tt.fp_to_fp %arg0 : tensor<64x128xf8E4M3FN, #{{.*}}> -> tensor<64x128xbf16, #{{.*}}>
// CHECK: ttng.tc_gen5_mma {{.*}} : !ttg.memdesc<64x128xbf16, {{.*}}>, !ttg.memdesc<128x64xbf16, {{.*}}>, !ttg.memdesc<64x64xf32, #[[TM]], #ttng.tensor_memory, mutable>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bs = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scaled_m64(%a: tensor<64x128xf8E4M3FN, #bl>, %sa: tensor<64x4xi8, #bs>, %b: tensor<128x64xf8E4M3FN, #bl>, %sb: tensor<64x4xi8, #bs>, %c: tensor<64x64xf32, #bl>) -> tensor<64x64xf32, #bl> {
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<64x128xf8E4M3FN, #bl>, tensor<64x4xi8, #bs> * tensor<128x64xf8E4M3FN, #bl>, tensor<64x4xi8, #bs> -> tensor<64x64xf32, #bl>
    tt.return %d : tensor<64x64xf32, #bl>
  }
}

// -----

// sm120: a block-scaled dot stays a tt.dot_scaled (mma.sync's block-scale form, Triton's ScaledBlockedToMMA) with
// an MMA v2 result, operands in its dot operand layouts (kWidth 4 for 8-bit), and each scale in the layout that
// instruction reads: its K groups in registers, rows over lanes (A: lanes to rows 8, -, 1, 2, 4; B: -, -, 1, 2, 4),
// the MMA's warps along the rows (broadcast along the other operand's), registers for the remaining rows.
// CHECK-DAG: #[[LA:.*]] = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0]], lane = [[8, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[0, 0], [16, 0]], block = []}>
// CHECK-DAG: #[[LB:.*]] = #ttg.linear<{register = [[0, 1], [0, 2], [16, 0], [32, 0]], lane = [[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [0, 0]], block = []}>
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func public @scaled_sm120
// CHECK: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}} scale %{{.*}}, %{{.*}} lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x128xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>>, tensor<128x4xi8, #[[LA]]> * tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>>, tensor<64x4xi8, #[[LB]]> -> tensor<128x64xf32, #[[MMA]]>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bs = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:120", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scaled_sm120(%a: tensor<128x128xf8E4M3FN, #bl>, %sa: tensor<128x4xi8, #bs>, %b: tensor<128x64xf8E4M3FN, #bl>, %sb: tensor<64x4xi8, #bs>, %c: tensor<128x64xf32, #bl>) -> tensor<128x64xf32, #bl> {
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x128xf8E4M3FN, #bl>, tensor<128x4xi8, #bs> * tensor<128x64xf8E4M3FN, #bl>, tensor<64x4xi8, #bs> -> tensor<128x64xf32, #bl>
    tt.return %d : tensor<128x64xf32, #bl>
  }
}

// -----

// f64 on sm80 (and sm90, where wgmma has no f64): MMA v2 with kWidth 1 (one f64 per register; the lowering runs
// mma.sync m8n8k4 .f64). Triton gives f64 dots tensor cores on sm80 and sm90 only; on sm86 this one stays blocked.
// CHECK-LABEL: tt.func public @f64_sm80
// CHECK: tt.dot {{.*}} : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #[[MMA:.*]], kWidth = 1}>> * tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 1}>> -> tensor<32x32xf64, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f64_sm80(%a: tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf64, #blocked>) -> tensor<32x32xf64, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf64, #blocked>
    tt.return %d : tensor<32x32xf64, #blocked>
  }
}

// -----

// CHECK-LABEL: tt.func public @f64_sm86
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.dot {{.*}} -> tensor<32x32xf64, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:86", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f64_sm86(%a: tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf64, #blocked>) -> tensor<32x32xf64, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf64, #blocked>
    tt.return %d : tensor<32x32xf64, #blocked>
  }
}

// -----

// fp8 on MMA v2 runs natively on sm89 and sm120 only (Triton's mmav2SupportsFp8Operands); elsewhere the operands,
// in their fp8 layouts (kWidth 4), are converted to f16 and the dot is an f16 one. On sm90 with K = 16 (below
// wgmma's fp8 K of 32) the dot falls back to MMA v2 and is upcast; a mixed e4m3 x e5m2 dot on sm80 too.
// CHECK-LABEL: tt.func public @fp8_upcast_sm90
// CHECK: %[[A:.*]] = tt.fp_to_fp %{{.*}} : tensor<64x16xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #[[MMA:.*]], kWidth = 4}>> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>>
// CHECK: %[[B:.*]] = tt.fp_to_fp %{{.*}} : tensor<16x64xf8E5M2, {{.*}}> -> tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>>
// CHECK: tt.dot %[[A]], %[[B]], {{.*}} -> tensor<64x64xf32, #[[MMA]]>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_upcast_sm90(%a: tensor<64x16xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x16xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// CHECK-LABEL: tt.func public @fp8_upcast_sm80
// CHECK: tt.fp_to_fp %{{.*}} : tensor<64x32xf8E4M3FN, {{.*}}kWidth = 4}>> -> tensor<64x32xf16,
// CHECK: tt.dot {{.*}} : tensor<64x32xf16, {{.*}}kWidth = 4}>> * tensor<32x64xf16, {{.*}}kWidth = 4}>> -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_upcast_sm80(%a: tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// The fnuz fp8 types: Triton's MMA v2 gate takes every fp8 type and upcasts only e4m3fn / e5m2, so an f8E4M3FNUZ
// operand stays fp8 (kWidth 4) on sm89; ttc's back end has no mma.sync for it and tt-translate says so
// (test/lit/tt-translate/mma-v2-gaps.test).
// CHECK-LABEL: tt.func public @fnuz_kept
// CHECK-NOT: tt.fp_to_fp
// CHECK: tt.dot {{.*}} : tensor<64x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:89", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fnuz_kept(%a: tensor<64x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// MMA v2 kWidth follows the width the operands were loaded with (Triton's computeOrigBitWidth): f16 operands
// converted from i8 loads get kWidth 32 / 8 = 4; through a tt.join the width counts half, 4 bits: kWidth 8.
// CHECK-LABEL: tt.func public @kwidth_from_loads
// CHECK: tt.dot {{.*}} : tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: tt.dot {{.*}} : tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked8 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kwidth_from_loads(%pa: tensor<32x64x!tt.ptr<i8>, #blocked>, %pb: tensor<64x32x!tt.ptr<i8>, #blocked>, %ph: tensor<32x32x!tt.ptr<i8>, #blocked>, %c: tensor<32x32xf32, #blocked>) -> (tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked>) {
    %a8 = tt.load %pa : tensor<32x64x!tt.ptr<i8>, #blocked>
    %b8 = tt.load %pb : tensor<64x32x!tt.ptr<i8>, #blocked>
    %a = arith.sitofp %a8 : tensor<32x64xi8, #blocked> to tensor<32x64xf16, #blocked>
    %b = arith.sitofp %b8 : tensor<64x32xi8, #blocked> to tensor<64x32xf16, #blocked>
    %ad = ttg.convert_layout %a : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bd = ttg.convert_layout %b : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %ad, %bd, %c : tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    %h8 = tt.load %ph : tensor<32x32x!tt.ptr<i8>, #blocked>
    %h = arith.sitofp %h8 : tensor<32x32xi8, #blocked> to tensor<32x32xf16, #blocked>
    %j = tt.join %h, %h : tensor<32x32xf16, #blocked> -> tensor<32x32x2xf16, #blocked3>
    %r = tt.reshape %j : tensor<32x32x2xf16, #blocked3> -> tensor<32x64xf16, #blocked8>
    %rd = ttg.convert_layout %r : tensor<32x64xf16, #blocked8> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %e = tt.dot %rd, %bd, %c : tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    tt.return %d, %e : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked>
  }
}
