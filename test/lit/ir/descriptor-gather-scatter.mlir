// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Row gathers and scatters through a one-row descriptor print as Triton does: tt.descriptor_gather with a
// functional type, tt.descriptor_scatter and the TMA ops with the types of all their operands.

// CHECK-LABEL: tt.func @rows
// CHECK: %[[G:.*]] = tt.descriptor_gather %arg0[%arg1, %arg2] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<16xi32>, i32) -> tensor<16x64xf16>
// CHECK-NEXT: tt.descriptor_scatter %arg0[%arg1, %arg2], %[[G]] : !tt.tensordesc<tensor<1x64xf16>>, tensor<16xi32>, i32, tensor<16x64xf16>
tt.func @rows(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<16xi32>, %y: i32) {
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<16xi32>, i32) -> tensor<16x64xf16>
  tt.descriptor_scatter %d[%x, %y], %0 : !tt.tensordesc<tensor<1x64xf16>>, tensor<16xi32>, i32, tensor<16x64xf16>
  tt.return
}

// CHECK-LABEL: tt.func @tma_rows
// CHECK: ttng.async_tma_gather %arg0[%arg1, %arg2] %arg4, %arg3, %arg5 : !tt.tensordesc<tensor<1x32xf32, #{{.*}}>>, tensor<8xi32, #{{.*}}>, i32, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>, !ttg.memdesc<8x32xf32, #{{.*}}, #smem, mutable>, i1
// CHECK-NEXT: ttng.async_tma_scatter %arg0[%arg1, %arg2] %arg4 : !tt.tensordesc<tensor<1x32xf32, #{{.*}}>>, tensor<8xi32, #{{.*}}>, i32, !ttg.memdesc<8x32xf32, #{{.*}}, #smem, mutable>
#l = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @tma_rows(%d: !tt.tensordesc<tensor<1x32xf32, #nv>>, %x: tensor<8xi32, #l>, %y: i32,
                  %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %buf: !ttg.memdesc<8x32xf32, #nv, #smem, mutable>, %p: i1) {
  ttng.async_tma_gather %d[%x, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x32xf32, #nv>>, tensor<8xi32, #l>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<8x32xf32, #nv, #smem, mutable>, i1
  ttng.async_tma_scatter %d[%x, %y] %buf : !tt.tensordesc<tensor<1x32xf32, #nv>>, tensor<8xi32, #l>, i32, !ttg.memdesc<8x32xf32, #nv, #smem, mutable>
  tt.return
}
}
