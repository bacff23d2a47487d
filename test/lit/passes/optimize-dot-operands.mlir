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

// Not for 32-bit elements (wgmma transposes only 16-bit operands in shared memory).
// CHECK-LABEL: tt.func public @tf32_keeps_trans
// CHECK: tt.trans
// CHECK-NOT: ttg.memdesc_trans
#lk = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#st = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tf32_keeps_trans(%k: tensor<64x32xf32, #lk>, %q: !ttg.memdesc<64x64xf32, #s, #smem>, %c: tensor<64x32xf32, #mma>) -> tensor<64x32xf32, #mma> {
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<64x32xf32, #lk> -> tensor<32x64xf32, #bt>
    %m = ttg.local_alloc %kt : (tensor<32x64xf32, #bt>) -> !ttg.memdesc<32x64xf32, #st, #smem>
    %d = ttng.warp_group_dot %q, %m, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf32, #s, #smem> * !ttg.memdesc<32x64xf32, #st, #smem> -> tensor<64x32xf32, #mma>
    tt.return %d : tensor<64x32xf32, #mma>
  }
}
