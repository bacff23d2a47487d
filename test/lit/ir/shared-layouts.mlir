// RUN: tt-opt %s -split-input-file | FileCheck %s

// #ttg.padded_shared, #ttg.shared_linear and #ttg.amd_rotating_shared are read and printed as Triton does,
// under the alias #shared.

// A padded layout's linear component is printed by its order and shape when it is the identity for them (and
// has no CTA bases), however it was written; otherwise by its bases.
// CHECK: #shared = #ttg.padded_shared<[64:+8] {order = [1, 0], shape = [32, 64]}>
// CHECK: #shared1 = #ttg.padded_shared<[8:+1, 16:+2] {order = [0, 1], shape = [4, 8]}>
// CHECK: #shared2 = #ttg.padded_shared<[16:+4] {offset = [[0, 1], [0, 2], [2, 0], [1, 0]], block = []}>
// CHECK: #shared3 = #ttg.padded_shared<[16:+4] {offset = [[0, 1], [0, 2], [1, 0]], block = [[2, 0]]}>
#by_shape = #ttg.padded_shared<[64:+8] {shape = [32, 64], order = [1, 0]}>
#by_bases = #ttg.padded_shared<[8:+1, 16:+2] {offset = [[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]], block = []}>
#rows_swapped = #ttg.padded_shared<[16:+4] {offset = [[0, 1], [0, 2], [2, 0], [1, 0]], block = []}>
#two_ctas = #ttg.padded_shared<[16:+4] {offset = [[0, 1], [0, 2], [1, 0]], block = [[2, 0]]}>
#smem = #ttg.shared_memory
tt.func @padded(%a: !ttg.memdesc<32x64xf16, #by_shape, #smem>, %b: !ttg.memdesc<4x8xf16, #by_bases, #smem>,
                %c: !ttg.memdesc<4x4xf16, #rows_swapped, #smem>, %d: !ttg.memdesc<2x4x4xf16, #two_ctas, #smem, mutable>) {
  tt.return
}

// -----

// A linear shared layout prints its block bases only when it has some; the alignment follows the braces.
// CHECK: #shared = #ttg.shared_linear<{offset = [[0, 1], [1, 0], [0, 2], [2, 0]]}, alignment = 32>
// CHECK: #shared1 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = [[2, 0]]}, alignment = 16>
#swizzleish = #ttg.shared_linear<{offset = [[0, 1], [1, 0], [0, 2], [2, 0]], block = []}, alignment = 32>
#split = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = [[2, 0]]}, alignment = 16>
#smem = #ttg.shared_memory
tt.func @linear(%a: !ttg.memdesc<4x4xf32, #swizzleish, #smem>, %b: !ttg.memdesc<4x4xf32, #split, #smem>) {
  tt.return
}

// -----

// CHECK: #shared = #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>
#rot = #ttg.amd_rotating_shared<{order = [0, 1], vec = 4, perPhase = 2, maxPhase = 8}>
#smem = #ttg.shared_memory
tt.func @rotating(%a: !ttg.memdesc<64x64xf16, #rot, #smem>) {
  tt.return
}
