// RUN: tt-opt %s -triton-nvidia-optimize-descriptor-encoding | FileCheck %s

// Kernel arguments (and the kernel's type) and made descriptors get Triton's NVMMA layout for their block:
// 128-byte swizzle for 64 f16 per row, 32 bytes for 16 f16, none below 8 rows, none and `rank = 1` for 1-d
// blocks (rows 'transposed'), `rank = 3` for 3-d ones.
// CHECK: #[[B:.*]] = #ttg.blocked
// CHECK: #[[S128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #[[S32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
// CHECK: #[[S0:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
// CHECK: #[[R1:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = true, elementBitWidth = 32, rank = 1}>
// CHECK: #[[R3:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK: tt.func public @kernel(%arg0: !tt.tensordesc<tensor<64x64xf16, #[[S128]]>>, %arg1: i32, %arg2: !tt.tensordesc<tensor<8x16xf16, #[[S32]]>>, %arg3: !tt.tensordesc<tensor<4x64xf16, #[[S0]]>>, %arg4: !tt.tensordesc<tensor<16xf32, #[[R1]]>>, %arg5: !tt.ptr<f16>, %arg6: i64)
// CHECK: tt.make_tensor_descriptor %arg5, [%arg1, %arg1, %arg1], [%arg6, %arg6, %arg6] : <f16>, <tensor<2x16x64xf16, #[[R3]]>>
// CHECK: tt.descriptor_load %arg0[%arg1, %arg1] : !tt.tensordesc<tensor<64x64xf16, #[[S128]]>> -> tensor<64x64xf16, #[[B]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %b: !tt.tensordesc<tensor<8x16xf16>>, %c: !tt.tensordesc<tensor<4x64xf16>>, %d: !tt.tensordesc<tensor<16xf32>>, %p: !tt.ptr<f16>, %s: i64) {
    %m = tt.make_tensor_descriptor %p, [%i, %i, %i], [%s, %s, %s] : <f16>, <tensor<2x16x64xf16>>
    %0 = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}
