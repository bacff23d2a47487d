// RUN: tt-opt %s -split-input-file | FileCheck %s

// AMD's MFMA and WMMA layouts are read and printed as Triton prints them (attributes only), under the alias
// #mma; fields at their default value are not printed.

// CHECK: #mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
// CHECK: #mma1 = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, tilesPerWarp = [2, 1], elementBitWidth = 64}>
// CHECK: #mma2 = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = false}>
// CHECK: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: tensor<32xf32, #ttg.slice<{dim = 1, parent = #mma}>>
#a = #ttg.amd_mfma<{isTransposed = true, version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8]}>
#b = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = false, tilesPerWarp = [2, 1], elementBitWidth = 64}>
#c = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = false, tilesPerWarp = [1, 1, 1], elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @mfma(%x: tensor<32x32xf32, #a>, %y: tensor<32x32xf32, #b>, %z: tensor<32x32xf32, #c>,
                %d: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #a, kWidth = 4}>>,
                %s: tensor<32xf32, #ttg.slice<{dim = 1, parent = #a}>>) {
    tt.return
  }
}

// -----

// WMMA: ctaLayout is a linear layout of warps (and register repetitions); empty bases and the default
// instrShape [16, 16, 16] are left out.

// CHECK: #mma = #ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {}}>
// CHECK: #mma1 = #ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = [[1, 0], [0, 1]]}, instrShape = [16, 16, 32]}>
// CHECK: #mma2 = #ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {register = [[0, 1]], warp = [[1, 0], [2, 0]]}, instrShape = [16, 16, 64]}>
#v1 = #ttg.amd_wmma<{version = 1, ctaLayout = {register = [], warp = []}}>
#v2 = #ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = [[1, 0], [0, 1]]}, instrShape = [16, 16, 32]}>
#v3 = #ttg.amd_wmma<{version = 3, ctaLayout = {register = [[0, 1]], warp = [[1, 0], [2, 0]]}, instrShape = [16, 16, 64]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma_one_warp(%x: tensor<16x16xf32, #v1>) attributes {"ttg.num-warps" = 1 : i32} {
    tt.return
  }
  tt.func @wmma(%x: tensor<16x16xf32, #v2>, %y: tensor<64x16xf32, #v3>) {
    tt.return
  }
}

// -----

// With several CTAs, CGALayout is printed after the fields Triton prints before it.

// CHECK: #mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = true, CGALayout = [[0, 1]]}>
#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = true, CGALayout = [[0, 1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @two_ctas(%x: tensor<32x32xf32, #m>) {
    tt.return
  }
}
