// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Shared-memory buffers as Triton 3.6 checks them: the !ttg.memdesc type when it is parsed (MemDescType::verify:
// the error is at the type), and the ttg ops that make, read, write and view buffers, with Triton's messages.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @below {{shape must have power-of-2 and non-zero dimensions; got 3, 24}}
!bad = !ttg.memdesc<3x24xf32, #shared, #ttg.shared_memory>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @below {{shape must be less than or equal to allocShape. shape = 32, 16, allocShape = 16, 16}}
!bad = !ttg.memdesc<32x16xf32, #shared, #ttg.shared_memory, 16x16>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @below {{rank must be equal to or one less than the shape size. Got 2 and 4}}
!bad = !ttg.memdesc<2x2x16x16xf32, #shared, #ttg.shared_memory>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}> is not a valid encoding}}
!bad = !ttg.memdesc<16x16xf32, #blocked, #ttg.shared_memory>

// -----

// An nvmma_shared buffer's contiguous rows hold at least one swizzle pattern (Triton's getTMABlockShape).
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @below {{block shape along the contiguous dimension 1 is too small for the swizzle byte size 128 in an NVMMASharedLayout, got 32 but expected at least 64}}
!bad = !ttg.memdesc<64x32xf16, #shared, #ttg.shared_memory>

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_immutable() {
    // expected-error @below {{'ttg.local_alloc' op uninitialized alloc must have a mutable memdesc type}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_view() {
    // expected-error @below {{'ttg.local_alloc' op result shape and its alloc shape must match}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable, 2x32x32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_shape(%arg0: tensor<32x32xf16, #blocked>) {
    // expected-error @below {{'ttg.local_alloc' op source shape [32, 32] must match [destination shape 64, 32]}}
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_element_type(%arg0: tensor<32x32xf16, #blocked>) {
    // expected-error-re @below {{'ttg.local_alloc' op source element type 'tensor<32x32xf16, {{.*}}>' must match destination element type 'f32'}}
    %0 = ttg.local_alloc %arg0 : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_rank(%arg0: tensor<2x32x32xf16, #blocked>) {
    // expected-error @below {{'ttg.local_alloc' op source has rank 3 but memdesc encoding has rank 2}}
    %0 = ttg.local_alloc %arg0 : (tensor<2x32x32xf16, #blocked>) -> !ttg.memdesc<2x32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @store_immutable(%arg0: tensor<32x32xf16, #blocked>, %arg1: !ttg.memdesc<32x32xf16, #shared, #smem>) {
    // expected-error @below {{'ttg.local_store' op Cannot store into immutable memory}}
    ttg.local_store %arg0, %arg1 : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @load_shape(%arg0: !ttg.memdesc<32x32xf16, #shared, #smem>) {
    // expected-error @below {{'ttg.local_load' op source shape [32, 32] must match [destination shape 32, 64]}}
    %0 = ttg.local_load %arg0 : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x64xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @async_copy_immutable(%arg0: tensor<64x64x!tt.ptr<f16>, #blocked>, %arg1: !ttg.memdesc<64x64xf16, #shared, #smem>) {
    // expected-error @below {{'ttg.async_copy_global_to_local' op Cannot store into immutable memory}}
    %0 = ttg.async_copy_global_to_local %arg0, %arg1 : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @convert_shape(%arg0: tensor<64x64xf16, #blocked>) {
    // expected-error @below {{'ttg.convert_layout' op requires the same shape for all operands and results}}
    %0 = ttg.convert_layout %arg0 : tensor<64x64xf16, #blocked> -> tensor<64x32xf16, #blocked>
    tt.return
  }
}

// -----

// ttg.memdesc_index: one buffer of a multi-buffered allocation.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_element_type(%arg0: !ttg.memdesc<2x32x32xf16, #shared, #smem>, %i: i32) {
  // expected-error @below {{result element type must match desc element type}}
  %0 = ttg.memdesc_index %arg0[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem> -> !ttg.memdesc<32x32xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_rank(%arg0: !ttg.memdesc<2x32x32xf16, #shared, #smem>, %i: i32) {
  // expected-error @below {{result rank must be input rank - 1}}
  %0 = ttg.memdesc_index %arg0[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem> -> !ttg.memdesc<2x32x32xf16, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_shape(%arg0: !ttg.memdesc<2x32x32xf16, #shared, #smem>, %i: i32) {
  // expected-error @below {{result shape must equal to srcShape[1:]}}
  %0 = ttg.memdesc_index %arg0[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_of_index(%arg0: !ttg.memdesc<2x32x32xf16, #shared, #smem, 3x2x32x32>, %i: i32) {
  // expected-error @below {{We don't allow taking memdesc_index of a memdesc_index}}
  %0 = ttg.memdesc_index %arg0[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, 3x2x32x32> -> !ttg.memdesc<32x32xf16, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_of_subview(%arg0: !ttg.memdesc<2x16x32xf16, #shared, #smem, 2x32x32>, %i: i32) {
  // expected-error @below {{We don't support memdesc_index of a subview}}
  %0 = ttg.memdesc_index %arg0[%i] : !ttg.memdesc<2x16x32xf16, #shared, #smem, 2x32x32> -> !ttg.memdesc<16x32xf16, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @index_alloc_shape(%arg0: !ttg.memdesc<2x32x32xf16, #shared, #smem>, %i: i32) {
  // expected-error @below {{alloc shape must match shape for both result and src}}
  %0 = ttg.memdesc_index %arg0[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem> -> !ttg.memdesc<32x32xf16, #shared, #smem, 2x32x32>
  tt.return
}

// -----

// ttg.memdesc_subslice: a tile of a buffer, at a multiple of the tile's size, not across the swizzle.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_offsets(%arg0: !ttg.memdesc<32x32xf16, #shared, #smem>) {
  // expected-error @below {{offsets must have the same rank as input}}
  %0 = ttg.memdesc_subslice %arg0[0] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<16x32xf16, #shared, #smem, 32x32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_unsplit_offset(%arg0: !ttg.memdesc<32x32xf16, #shared, #smem>) {
  // expected-error @below {{A non zero offset found in a dimension that is not being split}}
  %0 = ttg.memdesc_subslice %arg0[0, 16] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<16x32xf16, #shared, #smem, 32x32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_unaligned(%arg0: !ttg.memdesc<32x32xf16, #shared, #smem>) {
  // expected-error @below {{The split offset may not touch the tile}}
  %0 = ttg.memdesc_subslice %arg0[8, 0] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<16x32xf16, #shared, #smem, 32x32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_swizzle(%arg0: !ttg.memdesc<32x32xf16, #shared, #smem>) {
  // expected-error @below {{We don't support splitting along the swizzling pattern}}
  %0 = ttg.memdesc_subslice %arg0[16, 0] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<4x32xf16, #shared, #smem, 32x32>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[0, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32} {
  tt.func @subslice_ctas(%arg0: !ttg.memdesc<32x32xf16, #shared, #smem>) {
    // expected-error @below {{non-trivial block dimension not supported}}
    %0 = ttg.memdesc_subslice %arg0[16, 0] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<16x32xf16, #shared, #smem, 32x32>
    tt.return
  }
}

// -----

// Valid: tiles whose steps stay off the swizzle pattern, and views of a multi-buffered allocation.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @views(%arg0: !ttg.memdesc<32x32xf16, #shared, #smem>, %arg1: !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>, %i: i32) {
  %0 = ttg.memdesc_subslice %arg0[0, 16] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared, #smem, 32x32>
  %1 = ttg.memdesc_subslice %arg0[8, 0] : !ttg.memdesc<32x32xf16, #shared, #smem> -> !ttg.memdesc<8x32xf16, #shared, #smem, 32x32>
  %2 = ttg.memdesc_index %arg1[%i] : !ttg.memdesc<2x32x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
  tt.return
}
