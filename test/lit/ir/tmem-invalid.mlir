// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Blackwell's tensor memory: what the attributes, the memdesc type and each ttng op refuse, in Triton's words.

// expected-error @below {{blockM must be 64 or 128 but got 32}}
#tm = #ttng.tensor_memory_encoding<blockM = 32, blockN = 64, colStride = 1>

// -----

// expected-error @below {{blockN must be a power of 2 but got 48}}
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 48, colStride = 1>

// -----

// expected-error @below {{blockN must be less than or equal to 512 but got 1024}}
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 1024, colStride = 1>

// -----

// expected-error @below {{colStride must be 1, 2, or 4 but got but got 3}}
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 3>

// -----

// expected-error @below {{CTASplitM and CTASplitN must be greater than 0 and a power of 2}}
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitN = 3>

// -----

// expected-error @below {{struct is missing required parameter: colStride}}
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64>

// -----

// expected-error @below {{duplicate or unknown struct parameter name: blockK}}
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockK = 64, colStride = 1>

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// expected-error @below {{memorySpace must be TensorMemorySpace}}
!t = !ttg.memdesc<128x64xf32, #tm, #ttg.shared_memory>

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// expected-error @below {{rank must be 2 or 3}}
!t = !ttg.memdesc<2x2x128x64xf32, #tm, #ttng.tensor_memory>

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 2>
// expected-error @below {{bitwidth * colStride must be less than or equal to 32. Got 32 and 2}}
!t = !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// expected-error @below {{the allocation shape must be at least 128x128. Got 128, 64}}
!t = !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>

// -----

// expected-error @below {{memorySpace must be TensorMemorySpace}}
!t = !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttg.shared_memory>

// -----

// expected-error @below {{Scales don't currently support multibuffering}}
!t = !ttg.memdesc<2x128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>

// -----

// expected-error @below {{bitwidth must be 8}}
!t = !ttg.memdesc<128x4xf16, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>

// -----

// expected-error @below {{rank 0 memdesc is not allowed}}
!t = !ttg.memdesc<i8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @alloc_not_tmem() {
  // expected-error @+1 {{'ttng.tmem_alloc' op should use tensor memory encoding}}
  %0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #shared, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @alloc_immutable() {
  // expected-error @+1 {{'ttng.tmem_alloc' op uninitialized alloc must have a mutable memdesc type}}
  %0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @alloc_view_shape() {
  // expected-error @+1 {{'ttng.tmem_alloc' op result shape and its alloc shape must match}}
  %0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable, 128x128>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1, 64], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [0, 1, 2]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @alloc_3d_source(%t: tensor<2x128x64xf32, #blocked>) {
  // expected-error @+1 {{'ttng.tmem_alloc' op source must be a 2D tensor}}
  %0 = ttng.tmem_alloc %t : (tensor<2x128x64xf32, #blocked>) -> !ttg.memdesc<2x128x64xf32, #tm, #ttng.tensor_memory>
  tt.return
}
}

// -----

// Lanes across the columns: no tcgen05.ld/st message reads a warp's rows that way.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @alloc_layout(%t: tensor<128x64xf32, #blocked>) {
  // expected-error @+1 {{'ttng.tmem_alloc' op source}}
  %0 = ttng.tmem_alloc %t : (tensor<128x64xf32, #blocked>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @alloc_element(%t: tensor<128x64xf16>) {
  // expected-error @+1 {{'ttng.tmem_alloc' op source element type 'tensor<128x64xf16>' must match destination element type 'f32'}}
  %0 = ttng.tmem_alloc %t : (tensor<128x64xf16>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @alloc_shape(%t: tensor<128x32xf32>) {
  // expected-error @+1 {{'ttng.tmem_alloc' op source shape [128, 32] must match [destination shape 128, 64]}}
  %0 = ttng.tmem_alloc %t : (tensor<128x32xf32>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  tt.return
}
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @load_not_tmem(%m: !ttg.memdesc<128x64xf32, #shared, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_load' op source must be a tensor memory buffer.}}
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #shared, #ttg.shared_memory, mutable> -> tensor<128x64xf32>
  tt.return
}
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @load_scales(%m: !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_load' op should use tensor memory encoding.}}
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory> -> tensor<128x4xi8>
  tt.return
}
}

// -----

// Warps 1 and 2 must read rows 32 and 64 (a warp reaches only its own 32 TMEM lanes).
#blocked = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @load_layout(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_load' op result}}
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #blocked>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @load_element(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_load' op source element type '!ttg.memdesc<128x64xf32, #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>, #ttng.tensor_memory, mutable>' must match destination element type 'f16'}}
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf16>
  tt.return
}
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @store_not_tmem(%m: !ttg.memdesc<128x64xf32, #shared, #ttg.shared_memory, mutable>, %t: tensor<128x64xf32>, %p: i1) {
  // expected-error @+1 {{'ttng.tmem_store' op should use tensor memory encoding.}}
  ttng.tmem_store %t, %m, %p : tensor<128x64xf32> -> !ttg.memdesc<128x64xf32, #shared, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @store_immutable(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>, %t: tensor<128x64xf32>, %p: i1) {
  // expected-error @+1 {{'ttng.tmem_store' op Cannot store into an immutable alloc}}
  ttng.tmem_store %t, %m, %p : tensor<128x64xf32> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  tt.return
}
}

// -----

// Eight warps, but 16 lanes down the rows: warp 1 would start at row 16, not at TMEM lane 32.
#blocked = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [16, 2], warpsPerCTA = [8, 1], order = [0, 1]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 8 : i32} {
tt.func @store_layout(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %t: tensor<128x64xf32, #blocked>, %p: i1) {
  // expected-error @+1 {{'ttng.tmem_store' op source}}
  ttng.tmem_store %t, %m, %p : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @subslice_not_tmem(%m: !ttg.memdesc<128x64xf32, #shared, #ttg.shared_memory>) {
  // expected-error @+1 {{'ttng.tmem_subslice' op The source must be a tensor memory buffer.}}
  %0 = ttng.tmem_subslice %m {N = 0 : i32} : !ttg.memdesc<128x64xf32, #shared, #ttg.shared_memory> -> !ttg.memdesc<128x32xf32, #shared, #ttg.shared_memory>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @subslice_scales(%m: !ttg.memdesc<128x64xi8, #tm, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_subslice' op The destination must be a tensor memory buffer.}}
  %0 = ttng.tmem_subslice %m {N = 0 : i32} : !ttg.memdesc<128x64xi8, #tm, #ttng.tensor_memory> -> !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#tm64 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @subslice_block(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_subslice' op The destination must have the same block size and CTASplit size as the source.}}
  %0 = ttng.tmem_subslice %m {N = 32 : i32} : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory> -> !ttg.memdesc<128x32xf32, #tm64, #ttng.tensor_memory, 128x64>
  tt.return
}
}

// -----

#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @copy_from_tmem(%s: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op The source must be a shared memory buffer}}
  ttng.tmem_copy %s, %d : !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @copy_shape(%s: !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, %d: !ttg.memdesc<128x8xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op source shape 128, 4 must match destination shape 128, 8}}
  ttng.tmem_copy %s, %d : !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, !ttg.memdesc<128x8xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @copy_barrier(%s: !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, %d: !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>, %b: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_copy' op The optional barrier should be a shared memory buffer}}
  ttng.tmem_copy %s, %d, %b : !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[0, 0]]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 2 : i32} {
tt.func @copy_ctas(%s: !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, %d: !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op NYI: Only one CTA is supported for now.}}
  ttng.tmem_copy %s, %d : !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @copy_transposed(%s: !ttg.memdesc<128x32xf32, #nvmma, #ttg.shared_memory>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op The source should not be transposed or padded}}
  ttng.tmem_copy %s, %d : !ttg.memdesc<128x32xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @copy_scales_swizzled(%s: !ttg.memdesc<128x32xi8, #nvmma, #ttg.shared_memory>, %d: !ttg.memdesc<128x32xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op The source should not be swizzled for now}}
  ttng.tmem_copy %s, %d : !ttg.memdesc<128x32xi8, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x32xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#tm = #ttng.tensor_memory_encoding<blockM = 64, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @copy_block_m(%s: !ttg.memdesc<128x32xf32, #nvmma, #ttg.shared_memory>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op Tmem layout must have blockM=128.}}
  ttng.tmem_copy %s, %d : !ttg.memdesc<128x32xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @copy_unswizzled(%s: !ttg.memdesc<128x32xf32, #nvmma, #ttg.shared_memory>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op Source layout should be swizzled.}}
  ttng.tmem_copy %s, %d : !ttg.memdesc<128x32xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @copy_16bit(%s: !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>, %d: !ttg.memdesc<128x64xf16, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op Source element type should be 32-bit.}}
  ttng.tmem_copy %s, %d : !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x64xf16, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_k(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<32x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<32x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_output(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_sync_barrier(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1, %bar: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The op is synchronous but a barrier is present.}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p, %bar[%p] : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_int16(%a: !ttg.memdesc<128x64xi16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xi16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op unsupported LHS operand dtype: 'i16'}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xi16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xi16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_kinds(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf8E4M3FN, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op LHS and RHS operand dtypes kinds don't match: LHS kind is f16 but RHS kind is f8f6f4}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf8E4M3FN, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 2>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_tf32_f16(%a: !ttg.memdesc<128x32xf32, #a, #ttg.shared_memory>, %b: !ttg.memdesc<32x128xf32, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf16, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op unsupported accumulator dtype for operand types 'f32' and 'f32', accumulator dtype is 'f16' but must be one of ['f32']}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x32xf32, #a, #ttg.shared_memory>, !ttg.memdesc<32x128xf32, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf16, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_lhs_layout(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op LHS operand must have a NVMMAShared or TensorMemory encoding}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_rhs_layout(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op RHS operand must have a NVMMAShared encoding}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#d = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_acc_in_smem(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #d, #ttg.shared_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op Return operand must have a TensorMemory encoding}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #d, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#a = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 2>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_lhs_unpacked(%a: !ttg.memdesc<128x64xf16, #a, #ttng.tensor_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The col stride of the LHS operand must be 1}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttng.tensor_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_acc_packed(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf16, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The col stride of the return operand must be 32 / 16 but got 1}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf16, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 512, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_block_n(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x512xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x512xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The block size of the return operand must be less than or equal to 256}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x512xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x512xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_two_ctas(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op twoCTA mode expects the RHS split along N to be twice the result split along N. Expected 2 but got 1}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p {two_ctas} : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

// A and D both laid out as blockM = 64 blocks over 128 rows (interleaved): tcgen05.mma cannot take that.
#a = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @mma_interleaved(%a: !ttg.memdesc<128x64xf16, #a, #ttng.tensor_memory>, %b: !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op does not support blockM=64 with interleaved blocks in TMEM layout}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttng.tensor_memory>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#d = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @scaled_acc(%a: !ttg.memdesc<128x128xf8E4M3FN, #a, #ttg.shared_memory>, %b: !ttg.memdesc<128x128xf8E4M3FN, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #d, #ttg.shared_memory, mutable>, %s: !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma_scaled' op expected accumulator layout to be a TensorMemoryLayout}}
  ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf8E4M3FN, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #d, #ttg.shared_memory, mutable>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#tm = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @scaled_block_m(%a: !ttg.memdesc<64x128xf8E4M3FN, #a, #ttg.shared_memory>, %b: !ttg.memdesc<128x128xf8E4M3FN, #b, #ttg.shared_memory>, %d: !ttg.memdesc<64x128xf32, #tm, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma_scaled' op only supports instruction shape blockM=128}}
  ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = e4m3 rhs = e4m3 : !ttg.memdesc<64x128xf8E4M3FN, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf8E4M3FN, #b, #ttg.shared_memory>, !ttg.memdesc<64x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>
  tt.return
}
}

// -----

// e2m1 packs two elements a byte along K (A not transposed): A's 64 bytes are 128 elements, B has 64 rows.
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @scaled_packed_k(%a: !ttg.memdesc<128x64xi8, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf8E4M3FN, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma_scaled' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = e2m1 rhs = e4m3 : !ttg.memdesc<128x64xi8, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf8E4M3FN, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>
  tt.return
}
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @arrive_type(%bar: !ttg.memdesc<2xi64, #bar, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.arrive_barrier' op barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs}}
  ttng.arrive_barrier %bar, 1 : !ttg.memdesc<2xi64, #bar, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @arrive_count(%bar: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.arrive_barrier' op count must be greater than or equal to 1}}
  ttng.arrive_barrier %bar, 0 : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
  tt.return
}
}
