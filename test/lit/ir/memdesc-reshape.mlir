// RUN: tt-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// ttg.memdesc_reshape: the result layout must be the one Triton infers for the reshaped buffer, or one with the
// same linear layout (which element each shared-memory offset holds).

// An nvmma_shared buffer whose contiguous dimension is kept stays nvmma_shared.
#src = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#dst = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @keep_nvmma
// CHECK: ttg.memdesc_reshape %arg0 : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared1, #smem, mutable>
tt.func @keep_nvmma(%b: !ttg.memdesc<2x64x64xf16, #src, #smem, mutable>) {
  %r = ttg.memdesc_reshape %b : !ttg.memdesc<2x64x64xf16, #src, #smem, mutable> -> !ttg.memdesc<128x64xf16, #dst, #smem, mutable>
  tt.return
}

// -----

// Any other layout becomes a #ttg.shared_linear; an equivalent layout may be written instead (here an
// unswizzled row-major buffer flattened, and the same buffer as a linear layout).
#rows = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#lin = #ttg.shared_linear<{offset = [[1], [2], [4], [8], [16], [32], [64], [128]]}, alignment = 16>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @equivalent
// CHECK-COUNT-2: ttg.memdesc_reshape
tt.func @equivalent(%b: !ttg.memdesc<16x16xf32, #rows, #smem>) {
  %r = ttg.memdesc_reshape %b : !ttg.memdesc<16x16xf32, #rows, #smem> -> !ttg.memdesc<256xf32, #flat, #smem>
  %s = ttg.memdesc_reshape %b : !ttg.memdesc<16x16xf32, #rows, #smem> -> !ttg.memdesc<256xf32, #lin, #smem>
  tt.return
}

// -----

// A swizzled buffer is not the plain row-major one: its rows are permuted within each 16-byte group.
#sw = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @not_equivalent(%b: !ttg.memdesc<16x16xf32, #sw, #smem>) {
  // expected-error @below {{'ttg.memdesc_reshape' op result type must be equivalent to '!ttg.memdesc<256xf32, #ttg.shared_linear<{offset = [[1], [2], [4], [8], [20], [40], [64], [128]]}, alignment = 16>, #ttg.shared_memory>' (the reshaped source)}}
  %r = ttg.memdesc_reshape %b : !ttg.memdesc<16x16xf32, #sw, #smem> -> !ttg.memdesc<256xf32, #flat, #smem>
  tt.return
}

// -----

#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#rows = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @element_count(%b: !ttg.memdesc<16x16xf32, #rows, #smem>) {
  // expected-error @below {{number of src and dst elements of reshape must be the same}}
  %r = ttg.memdesc_reshape %b : !ttg.memdesc<16x16xf32, #rows, #smem> -> !ttg.memdesc<128xf32, #flat, #smem>
  tt.return
}

// -----

#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#rows = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @element_type(%b: !ttg.memdesc<16x16xf32, #rows, #smem>) {
  // expected-error @below {{'ttg.memdesc_reshape' op requires the same element type for all operands and results}}
  %r = ttg.memdesc_reshape %b : !ttg.memdesc<16x16xf32, #rows, #smem> -> !ttg.memdesc<256xi32, #flat, #smem>
  tt.return
}

// -----

#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#rows = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @of_subslice(%b: !ttg.memdesc<8x16xf32, #rows, #smem, 16x16>) {
  // expected-error @below {{NYI: memdesc_reshape of memdesc_subslice}}
  %r = ttg.memdesc_reshape %b : !ttg.memdesc<8x16xf32, #rows, #smem, 16x16> -> !ttg.memdesc<128xf32, #flat, #smem>
  tt.return
}

// -----

// Triton gives layouts over several CTAs a linear layout too; ttc does not model them yet.
#two = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32} {
  tt.func @ctas(%b: !ttg.memdesc<16x16xf32, #two, #smem>) {
    // expected-error @below {{'ttg.memdesc_reshape' op cannot check the result layout: layouts over several CTAs are not supported yet}}
    %r = ttg.memdesc_reshape %b : !ttg.memdesc<16x16xf32, #two, #smem> -> !ttg.memdesc<256xf32, #flat, #smem>
    tt.return
  }
}

// -----

// The linear layouts of a transposed nvmma_shared buffer (16x16 f32, 64-byte swizzle: 16-element columns, each
// 8-column group swizzled) and of an AMD rotating buffer (the swizzle phase changes with each block of rows),
// flattened.
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 32}>
#rot = #ttg.amd_rotating_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#nvmma_flat = #ttg.shared_linear<{offset = [[16], [32], [64], [128], [1], [66], [132], [8]]}, alignment = 512>
#rot_flat = #ttg.shared_linear<{offset = [[1], [2], [4], [8], [18], [36], [66], [132]]}, alignment = 16>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @linear_layouts
// CHECK-COUNT-2: ttg.memdesc_reshape
tt.func @linear_layouts(%a: !ttg.memdesc<16x16xf32, #nvmma_t, #smem>, %b: !ttg.memdesc<16x16xf32, #rot, #smem>) {
  %0 = ttg.memdesc_reshape %a : !ttg.memdesc<16x16xf32, #nvmma_t, #smem> -> !ttg.memdesc<256xf32, #nvmma_flat, #smem>
  %1 = ttg.memdesc_reshape %b : !ttg.memdesc<16x16xf32, #rot, #smem> -> !ttg.memdesc<256xf32, #rot_flat, #smem>
  tt.return
}
