// RUN: tt-opt %s -split-input-file -test-print-allocation -verify-diagnostics -o /dev/null
// RUN: tt-opt %s -split-input-file -test-print-allocation="get-scratch-size-function=ValidConstant" 2>&1 | FileCheck %s --check-prefix=ALL128

// Buffers live at the same time get disjoint offsets; a buffer allocated after both died reuses offset 0.
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{two_then_one}}
  // expected-remark @below {{size = 2048}}
  tt.func @two_then_one(%x: tensor<256xf32, #blk>) {
    // expected-remark @below {{offset = 0, size = 1024}}
    %a = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
    // expected-remark @below {{offset = 1024, size = 1024}}
    %b = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
    %la = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem> -> tensor<256xf32, #blk>
    %lb = ttg.local_load %b : !ttg.memdesc<256xf32, #sh, #smem> -> tensor<256xf32, #blk>
    // expected-remark @below {{offset = 0, size = 1024}}
    %c = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
    tt.return
  }
}

// -----

// A layout conversion that moves data between threads has scratch for its exchange, only while it runs,
// aligned to 128 bytes: placed after the larger buffer that stays live across it (a 200 x f32 buffer, 800
// bytes, so the scratch starts at 896).
// ALL128: scratch offset = {{[0-9]+}}, size = 128
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{scratch_after_buffer}}
  // expected-remark @below {{size = 1408}}
  tt.func @scratch_after_buffer(%x: tensor<128xf32, #blk>) {
    // expected-remark @below {{offset = 0, size = 800}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<200xf32, #sh, #smem, mutable>
    // expected-remark @below {{scratch offset = 896, size = 512}}
    %c = ttg.convert_layout %x : tensor<128xf32, #blk> -> tensor<128xf32, #row>
    ttg.local_dealloc %a : !ttg.memdesc<200xf32, #sh, #smem, mutable>
    tt.return
  }
}

// -----

// A reduction across the 4 warps of its axis keeps one partial per (column, warp): 4 x 32 x f32; one whose
// axis lies within a warp needs none.
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{reduce}}
  // expected-remark @below {{size = 512}}
  tt.func @reduce(%x: tensor<32x32xf32, #b2>) {
    // expected-remark @below {{scratch offset = 0, size = 512}}
    %r0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tt.reduce.return %s : f32
    }) : (tensor<32x32xf32, #b2>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #b2}>>
    %r1 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tt.reduce.return %s : f32
    }) : (tensor<32x32xf32, #b2>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #b2}>>
    tt.return
  }
}

// -----

// A buffer carried through a loop (and read after it) lives across the whole loop: the buffer allocated in
// the body cannot take its place.
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{carried}}
  // expected-remark @below {{size = 2048}}
  tt.func @carried(%x: tensor<256xf32, #blk>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{offset = 0, size = 1024}}
    %a = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %a) -> (!ttg.memdesc<256xf32, #sh, #smem>) : i32 {
      // expected-remark @below {{offset = 1024, size = 1024}}
      %t = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
      %u = ttg.local_load %t : !ttg.memdesc<256xf32, #sh, #smem> -> tensor<256xf32, #blk>
      scf.yield %m : !ttg.memdesc<256xf32, #sh, #smem>
    }
    %l = ttg.local_load %r : !ttg.memdesc<256xf32, #sh, #smem> -> tensor<256xf32, #blk>
    tt.return
  }
}

// -----

// An nvmma buffer with 128-byte swizzling is aligned to 1024 bytes (128 per swizzle phase).
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{nvmma_alignment}}
  // expected-remark @below {{size = 5120}}
  tt.func @nvmma_alignment() {
    // expected-remark @below {{offset = 0, size = 4000}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<1000xf32, #sh, #smem, mutable>
    // expected-remark @below {{offset = 4096, size = 1024}}
    %b = ttg.local_alloc : () -> !ttg.memdesc<8x64xf16, #nv, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<1000xf32, #sh, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<8x64xf16, #nv, #smem, mutable>
    tt.return
  }
}

// -----

// A call holds its callee's shared memory (a virtual buffer) while it runs, next to the caller's live buffer.
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{callee}}
  // expected-remark @below {{size = 1024}}
  tt.func @callee(%x: tensor<256xf32, #blk>) {
    // expected-remark @below {{offset = 0, size = 1024}}
    %a = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
    tt.return
  }
  // expected-remark @below {{caller}}
  // expected-remark @below {{size = 2048}}
  tt.func @caller(%x: tensor<256xf32, #blk>) {
    // expected-remark @below {{offset = 0, size = 1024}}
    %a = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
    // expected-remark @below {{virtual offset = 1024, size = 1024}}
    tt.call @callee(%x) : (tensor<256xf32, #blk>) -> ()
    %l = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem> -> tensor<256xf32, #blk>
    tt.return
  }
}

// -----

// ttg.warp_specialize packs its captures (a pointer: 8 bytes; an i32: 4) in scratch aligned to 8, and the
// function keeps a byte per partition warp (2 + 1) for its whole life, aligned to 4, after them.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{captures}}
  // expected-remark @below {{size = 15}}
  // expected-remark @below {{scratch offset = 12, size = 3}}
  tt.func @captures(%p: !tt.ptr<f32>, %n: i32) {
    // expected-remark @below {{scratch offset = 0, size = 12}}
    ttg.warp_specialize(%p, %n)
    default {
      ttg.warp_yield
    }
    partition0(%q: !tt.ptr<f32>, %m: i32) num_warps(2) {
      ttg.warp_return
    }
    partition1(%q: !tt.ptr<f32>, %m: i32) num_warps(1) {
      ttg.warp_return
    } : (!tt.ptr<f32>, i32) -> ()
    tt.return
  }
}
