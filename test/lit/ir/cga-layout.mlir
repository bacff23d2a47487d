// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s | tt-opt | FileCheck %s

// Triton 3.6's CGALayout (how a layout spreads a tensor over the CTAs of a cluster: one basis per power of two
// of CTAs) round-trips in Triton's position: after the other fields (before instrShape in #ttg.nvidia_mma),
// printed only when there is more than one CTA. Fields Triton always prints (versionMinor, transposed) are filled
// in, and `rank = N` of an nvmma_shared layout is kept when its CGA layout is trivial.

// CHECK-DAG: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = {{\[\[}}1, 0], [0, 0]]}>
// CHECK-DAG: #[[ONE_CTA:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], CGALayout = {{\[\[}}0, 1], [1, 0]], instrShape = [16, 8]}>
// CHECK-DAG: #[[NVMMA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}1, 0], [0, 0]]}>
// CHECK-DAG: #[[NVMMA3:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8, rank = 3}>
// CHECK-DAG: #[[SWIZZLED:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0], CGALayout = {{\[\[}}0, 1], [1, 0]]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[1, 0], [0, 0]]}>
#one_cta = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = []}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8], CGALayout = [[0, 1], [1, 0]]}>
#nvmma = #ttg.nvmma_shared<{elementBitWidth = 16, swizzlingByteWidth = 128, CGALayout = [[1, 0], [0, 0]]}>
#nvmma3 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8, rank = 3}>
#swizzled = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0], CGALayout = [[0, 1], [1, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 4 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @layouts
  // CHECK-SAME: tensor<64x64xf16, #[[BLOCKED]]>, %arg1: tensor<64x64xf32, #[[MMA]]>, %arg2: !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem>, %arg3: !ttg.memdesc<2x64x64xf16, #[[SWIZZLED]], #smem>, %arg4: !ttg.memdesc<2x64x64xi8, #[[NVMMA3]], #smem>
  tt.func @layouts(%a: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>, %s: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %t: !ttg.memdesc<2x64x64xf16, #swizzled, #smem>, %u: !ttg.memdesc<2x64x64xi8, #nvmma3, #smem>) {
    // CHECK: ttg.convert_layout %arg0 : tensor<64x64xf16, #[[BLOCKED]]> -> tensor<64x64xf16, #[[MMA]]>
    %0 = ttg.convert_layout %a : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #mma>
    tt.return
  }
}

// The same layout written with an empty CGALayout is the same attribute: one alias, printed without it.
// CHECK-LABEL: tt.func @one_cta
// CHECK-SAME: tensor<16x16xf32, #[[ONE_CTA]]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @one_cta(%a: tensor<16x16xf32, #one_cta>) {
    tt.return
  }
}
