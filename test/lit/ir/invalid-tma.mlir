// RUN: tt-opt %s -split-input-file -verify-diagnostics

// The TMA ops check what Triton checks: mbarriers are one i64 per CTA at most; a copy into shared memory has 1 to
// 5 coordinates and mutable memory; a copy's shared memory has the descriptor's NVMMA layout (same swizzle, element
// width, transposition; the rank may differ), not transposed; tensormap_create has one global dimension and element
// stride per box dimension and one stride fewer.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
tt.func @barrier_width(%bar: !ttg.memdesc<1xi32, #bar, #smem, mutable>) {
  // expected-error @+1 {{'ttng.init_barrier' op barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs}}
  ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi32, #bar, #smem, mutable>
  tt.return
}
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
tt.func @barrier_count(%bar: !ttg.memdesc<2xi64, #bar, #smem, mutable>, %phase: i32) {
  // expected-error @+1 {{'ttng.wait_barrier' op barrier allocation must be a descriptor of Nxi64 type with N <= number of CTAs}}
  ttng.wait_barrier %bar, %phase : !ttg.memdesc<2xi64, #bar, #smem, mutable>
  tt.return
}
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
tt.func @immutable(%d: !tt.tensordesc<tensor<64x64xf16, #nv>>, %i: i32, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #nv, #smem>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op Cannot store into immutable memory}}
  ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #nv>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nv, #smem>
  tt.return
}
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 6}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
tt.func @coordinates(%d: !tt.tensordesc<tensor<1x1x1x1x8x64xf16, #nv>>, %i: i32, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %buf: !ttg.memdesc<1x1x1x1x8x64xf16, #nv, #smem, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op TMA copies must have between 1 and 5 coordinates}}
  ttng.async_tma_copy_global_to_local %d[%i, %i, %i, %i, %i, %i] %buf, %bar, %p : !tt.tensordesc<tensor<1x1x1x1x8x64xf16, #nv>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1x1x1x1x8x64xf16, #nv, #smem, mutable>
  tt.return
}
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
tt.func @not_nvmma(%d: !tt.tensordesc<tensor<64x64xf16, #sw>>, %i: i32, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #sw, #smem, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op TMA descriptor must have NVMMA shared layout}}
  ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #sw>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #sw, #smem, mutable>
  tt.return
}
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
tt.func @mismatch(%d: !tt.tensordesc<tensor<64x64xf16, #nv>>, %i: i32, %buf: !ttg.memdesc<64x64xf16, #nv64, #smem>) {
  // expected-error @+1 {{'ttng.async_tma_copy_local_to_global' op TMA descriptor layout must match shared layout}}
  ttng.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #nv>>, !ttg.memdesc<64x64xf16, #nv64, #smem>
  tt.return
}
}

// -----

#nvt = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
tt.func @transposed(%d: !tt.tensordesc<tensor<64x64xf16, #nvt>>, %i: i32, %buf: !ttg.memdesc<64x64xf16, #nvt, #smem>) {
  // expected-error @+1 {{'ttng.async_tma_copy_local_to_global' op TMA descriptor layout must not be transposed}}
  ttng.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #nvt>>, !ttg.memdesc<64x64xf16, #nvt, #smem>
  tt.return
}
}

// -----

// A rank-reducing copy: the buffer's layout has its own rank.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nv3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
tt.func @rank_reducing(%d: !tt.tensordesc<tensor<1x64x64xf16, #nv3>>, %i: i32, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %buf: !ttg.memdesc<64x64xf16, #nv, #smem, mutable>, %p: i1) {
  ttng.async_tma_copy_global_to_local %d[%i, %i, %i] %buf, %bar, %p : !tt.tensordesc<tensor<1x64x64xf16, #nv3>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nv, #smem, mutable>
  tt.return
}
}

// -----

tt.func @tensormap_ranks(%scratch: !tt.ptr<i8>, %base: !tt.ptr<f16>, %c: i32, %s: i64) {
  // expected-error @+1 {{Rank mismatch for global stride. Got 2 but expected 1}}
  ttng.tensormap_create %scratch, %base, [%c, %c], [%c, %c], [%s, %s], [%c, %c] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i64, i32, i32) -> ()
  tt.return
}
