// RUN: tt-opt %s -split-input-file -test-print-buffer-region -verify-diagnostics -o /dev/null

// A buffer's region is its allocation.offset and size in bytes; memdesc_index may view any of the buffer's
// slices; a block argument whatever reaches it. The op marked test.print_all_used_regions lists every region
// the accesses use (an mbarrier armed by init_barrier as a barrier region).
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#sh2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @regions(%c: i1, %i: i32) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64xf32, #sh, #smem, mutable>
    %b = ttg.local_alloc {allocation.offset = 256 : i32} : () -> !ttg.memdesc<3x64xf32, #sh2, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    // expected-remark @below {{Buffers: [0, 256]}}
    %la = ttg.local_load %a : !ttg.memdesc<64xf32, #sh, #smem, mutable> -> tensor<64xf32, #blk>
    %v = ttg.memdesc_index %b[%i] : !ttg.memdesc<3x64xf32, #sh2, #smem, mutable> -> !ttg.memdesc<64xf32, #sh, #smem, mutable>
    // expected-remark @below {{Buffers: [256, 256], [512, 256], [768, 256]}}
    %lv = ttg.local_load %v : !ttg.memdesc<64xf32, #sh, #smem, mutable> -> tensor<64xf32, #blk>
    cf.cond_br %c, ^bb1(%a : !ttg.memdesc<64xf32, #sh, #smem, mutable>), ^bb1(%v : !ttg.memdesc<64xf32, #sh, #smem, mutable>)
  ^bb1(%m: !ttg.memdesc<64xf32, #sh, #smem, mutable>):
    // expected-remark @below {{Buffers: [0, 256], [256, 256], [512, 256], [768, 256]}}
    ttg.local_store %la, %m : tensor<64xf32, #blk> -> !ttg.memdesc<64xf32, #sh, #smem, mutable>
    // expected-remark @below {{Buffers: [1024, 8]}}
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    tt.return
  }
  // expected-remark @below {{All Shared Regions: [0, 256], [256, 256], [512, 256], [768, 256]}}
  // expected-remark @below {{All Barrier Regions: [1024, 8]}}
  tt.func private @anchor() attributes {test.print_all_used_regions} {
    tt.return
  }
}

// -----

// Regions need offsets: a local_alloc without allocation.offset is an error.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_offset() {
    // expected-error @below {{buffer regions need shared-memory offsets: run -allocate-shared-memory first}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #sh, #smem, mutable>
    %la = ttg.local_load %a : !ttg.memdesc<64xf32, #sh, #smem, mutable> -> tensor<64xf32, #blk>
    tt.return
  }
}
