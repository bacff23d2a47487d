// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Row gathers and scatters check, as Triton's verifyGatherScatterOp does: a 2-d one-row block, 1-d i32 row
// offsets, a 2-d value of at least 8 rows (TMA's gather4 swizzle) and at least 32 bytes per row of at most 32-bit
// elements, as many rows as offsets, the block's columns and element type.

tt.func @block_rank(%d: !tt.tensordesc<tensor<64xf16>>, %x: tensor<16xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op block must be a 2D tensor, but got 'tensor<64xf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<64xf16>>, tensor<16xi32>, i32) -> tensor<16x64xf16>
  tt.return
}

// -----

tt.func @block_rows(%d: !tt.tensordesc<tensor<4x64xf16>>, %x: tensor<16xi32>, %y: i32, %v: tensor<16x64xf16>) {
  // expected-error @+1 {{'tt.descriptor_scatter' op block must have exactly 1 row, but got 'tensor<4x64xf16>'}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<4x64xf16>>, tensor<16xi32>, i32, tensor<16x64xf16>
  tt.return
}

// -----

tt.func @offsets_rank(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<4x4xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op x offsets must be a 1D tensor, but got 'tensor<4x4xi32>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<4x4xi32>, i32) -> tensor<16x64xf16>
  tt.return
}

// -----

tt.func @offsets_type(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<16xi64>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op operand #1 must be ranked tensor of 32-bit signless integer values, but got 'tensor<16xi64>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<16xi64>, i32) -> tensor<16x64xf16>
  tt.return
}

// -----

tt.func @result_rank(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<16xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op result must be a 2D tensor, but got 'tensor<16x1x64xf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<16xi32>, i32) -> tensor<16x1x64xf16>
  tt.return
}

// -----

tt.func @few_rows(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<4xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op must have at least 8 rows, but got 4}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<4xi32>, i32) -> tensor<4x64xf16>
  tt.return
}

// -----

tt.func @wide_elements(%d: !tt.tensordesc<tensor<1x64xf64>>, %x: tensor<16xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op TMA dtype cannot be greater than 32 bits}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf64>>, tensor<16xi32>, i32) -> tensor<16x64xf64>
  tt.return
}

// -----

tt.func @narrow_rows(%d: !tt.tensordesc<tensor<1x8xf16>>, %x: tensor<16xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op must have at least 16 columns for 'f16', but got 8}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x8xf16>>, tensor<16xi32>, i32) -> tensor<16x8xf16>
  tt.return
}

// -----

tt.func @row_count(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<16xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op result tensor must have as many rows as indices (16), but got 'tensor<32x64xf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<16xi32>, i32) -> tensor<32x64xf16>
  tt.return
}

// -----

tt.func @columns(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<16xi32>, %y: i32, %v: tensor<16x32xf16>) {
  // expected-error @+1 {{'tt.descriptor_scatter' op result tensor number of columns must match block (64), but got 'tensor<16x32xf16>'}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x64xf16>>, tensor<16xi32>, i32, tensor<16x32xf16>
  tt.return
}

// -----

tt.func @element(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<16xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op result tensor element type must match block ('f16'), but got 'tensor<16x64xbf16>'}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<16xi32>, i32) -> tensor<16x64xbf16>
  tt.return
}

// -----

// A signed block reads and writes signless values.
tt.func @signed_ok(%d: !tt.tensordesc<tensor<1x16xsi32>>, %x: tensor<8xi32>, %y: i32) -> tensor<8x16xi32> {
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x16xsi32>>, tensor<8xi32>, i32) -> tensor<8x16xi32>
  tt.return %0 : tensor<8x16xi32>
}

// -----

// The TMA ops check the same on their shared memory, which they show as a tensor, after their own checks: an
// mbarrier (one i64 per CTA), mutable memory to gather into, and the descriptor's untransposed NVMMA layout.
#l = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @tma_block(%d: !tt.tensordesc<tensor<2x64xf16, #nv>>, %x: tensor<16xi32, #l>, %y: i32, %buf: !ttg.memdesc<16x64xf16, #nv, #smem>) {
  // expected-error @+1 {{'ttng.async_tma_scatter' op descriptor block must have exactly 1 row, but got 'tensor<2x64xf16>'}}
  ttng.async_tma_scatter %d[%x, %y] %buf : !tt.tensordesc<tensor<2x64xf16, #nv>>, tensor<16xi32, #l>, i32, !ttg.memdesc<16x64xf16, #nv, #smem>
  tt.return
}
}

// -----

#l = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @tma_rows(%d: !tt.tensordesc<tensor<1x64xf16, #nv>>, %x: tensor<16xi32, #l>, %y: i32, %buf: !ttg.memdesc<32x64xf16, #nv, #smem>) {
  // expected-error @+1 {{'ttng.async_tma_scatter' op result tensor must have as many rows as indices (16), but got 'tensor<32x64xf16>'}}
  ttng.async_tma_scatter %d[%x, %y] %buf : !tt.tensordesc<tensor<1x64xf16, #nv>>, tensor<16xi32, #l>, i32, !ttg.memdesc<32x64xf16, #nv, #smem>
  tt.return
}
}

// -----

#l = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @tma_barrier(%d: !tt.tensordesc<tensor<1x64xf16, #nv>>, %x: tensor<16xi32, #l>, %y: i32, %bar: !ttg.memdesc<2xi64, #bar, #smem, mutable>, %buf: !ttg.memdesc<16x64xf16, #nv, #smem, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_gather' op barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs}}
  ttng.async_tma_gather %d[%x, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x64xf16, #nv>>, tensor<16xi32, #l>, i32, !ttg.memdesc<2xi64, #bar, #smem, mutable>, !ttg.memdesc<16x64xf16, #nv, #smem, mutable>, i1
  tt.return
}
}

// -----

#l = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @tma_immutable(%d: !tt.tensordesc<tensor<1x64xf16, #nv>>, %x: tensor<16xi32, #l>, %y: i32, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %buf: !ttg.memdesc<16x64xf16, #nv, #smem>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_gather' op cannot store into immutable memory}}
  ttng.async_tma_gather %d[%x, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x64xf16, #nv>>, tensor<16xi32, #l>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<16x64xf16, #nv, #smem>, i1
  tt.return
}
}

// -----

#l = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nv2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @tma_layout(%d: !tt.tensordesc<tensor<1x64xf16, #nv>>, %x: tensor<16xi32, #l>, %y: i32, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %buf: !ttg.memdesc<16x64xf16, #nv2, #smem, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_gather' op TMA descriptor layout must match shared layout}}
  ttng.async_tma_gather %d[%x, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x64xf16, #nv>>, tensor<16xi32, #l>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<16x64xf16, #nv2, #smem, mutable>, i1
  tt.return
}
}
