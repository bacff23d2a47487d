// RUN: tt-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// ttg.memdesc_subslice (a tile of a shared buffer, as Triton's sm90 pipeline splits wgmma's B operand along K)
// and memdesc types with an allocation shape of several dimensions round-trip.

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @tiles
// CHECK: ttg.memdesc_subslice %arg0[16, 0] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xbf16, #shared, #smem, 64x64>
// CHECK: ttg.memdesc_subslice %arg0[48, 32] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> !ttg.memdesc<16x32xbf16, #shared, #smem, mutable, 64x64>
tt.func @tiles(%buf: !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>) {
  %0 = ttg.memdesc_subslice %buf[16, 0] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xbf16, #shared, #smem, 64x64>
  %1 = ttg.memdesc_subslice %buf[48, 32] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> !ttg.memdesc<16x32xbf16, #shared, #smem, mutable, 64x64>
  tt.return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @outside(%buf: !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{The split offset may not touch the tile}}
  %0 = ttg.memdesc_subslice %buf[56, 0] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xbf16, #shared, #smem, 64x64>
  tt.return
}
