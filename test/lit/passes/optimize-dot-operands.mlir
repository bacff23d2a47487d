// RUN: tt-opt %s -split-input-file -tritongpu-optimize-dot-operands | FileCheck %s

// A wgmma operand stored from a register transpose (attention's K^T): the untransposed tensor is stored in the
// nvmma_shared layout of its own order and the descriptor is transposed instead; the tt.trans goes away.
// CHECK-DAG: #[[S:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[ST:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @fuse_trans
// CHECK-NOT: tt.trans
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<64x64xf16, #{{.*}}>) -> !ttg.memdesc<64x64xf16, #[[S]], #smem>
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[S]], #smem> -> !ttg.memdesc<64x64xf16, #[[ST]], #smem>
// CHECK-NEXT: ttng.warp_group_dot %arg1, %[[T]], %arg2
#lk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#st = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fuse_trans(%k: tensor<64x64xf16, #lk>, %q: !ttg.memdesc<64x64xf16, #s, #smem>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x64xf16, #lk> -> tensor<64x64xf16, #bt>
    %m = ttg.local_alloc %kt : (tensor<64x64xf16, #bt>) -> !ttg.memdesc<64x64xf16, #st, #smem>
    %d = ttng.warp_group_dot %q, %m, %c : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #st, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// 32-bit elements too (Triton's FuseTransMMAV3Plus checks no element type): the inner buffer's layout is the
// transpose of the old one, so the wgmma reads the same K-major bytes through the transposed descriptor.
// CHECK-DAG: #[[S32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[ST32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-LABEL: tt.func public @tf32_fuses_trans
// CHECK-NOT: tt.trans
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<64x32xf32, #{{.*}}>) -> !ttg.memdesc<64x32xf32, #[[S32]], #smem>
// CHECK-NEXT: ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf32, #[[S32]], #smem> -> !ttg.memdesc<32x64xf32, #[[ST32]], #smem>
#lk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#st = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tf32_fuses_trans(%k: tensor<64x32xf32, #lk>, %q: !ttg.memdesc<64x64xf32, #s, #smem>, %c: tensor<64x32xf32, #mma>) -> tensor<64x32xf32, #mma> {
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x32xf32, #lk> -> tensor<32x64xf32, #bt>
    %m = ttg.local_alloc %kt : (tensor<32x64xf32, #bt>) -> !ttg.memdesc<32x64xf32, #st, #smem>
    %d = ttng.warp_group_dot %q, %m, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf32, #s, #smem> * !ttg.memdesc<32x64xf32, #st, #smem> -> tensor<64x32xf32, #mma>
    tt.return %d : tensor<64x32xf32, #mma>
  }
}

// -----

// An MMA v2 operand converted from a register transpose (attention's K^T on sm80) goes through shared memory:
// the untransposed tensor is stored swizzled for the operand as seen before the transpose (Triton's needTrans:
// vec and stride swapped), and the transposed descriptor is loaded in the operand's layout.
// CHECK-DAG: #[[SW:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-DAG: #[[SWT:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
// CHECK-LABEL: tt.func public @mma_v2_transposed_b
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %arg1 : (tensor<64x32xf16, #{{.*}}>) -> !ttg.memdesc<64x32xf16, #[[SW]], #smem>
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #[[SW]], #smem> -> !ttg.memdesc<32x64xf16, #[[SWT]], #smem>
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[T]] : !ttg.memdesc<32x64xf16, #[[SWT]], #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: tt.dot %arg0, %[[L]], %arg2
#bn = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_v2_transposed_b(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %k: tensor<64x32xf16, #bn>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x32xf16, #bn> -> tensor<32x64xf16, #bt>
    %b = ttg.convert_layout %kt : tensor<32x64xf16, #bt> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
