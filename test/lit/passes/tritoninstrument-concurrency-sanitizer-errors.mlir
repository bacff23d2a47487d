// RUN: tt-opt %s -split-input-file -tritoninstrument-concurrency-sanitizer -verify-diagnostics

// The sanitizer instruments one kernel: the module's only public function.
// expected-error @+1 {{expected exactly one public function, found 2}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @a() {
    tt.return
  }
  tt.func public @b() {
    tt.return
  }
}

// -----

// A memory access in another function cannot reach the kernel's state.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel() {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    %x = ttg.local_load %a : !ttg.memdesc<16xf32, #sh, #smem, mutable> -> tensor<16xf32, #blk>
    tt.return
  }
  tt.func private @helper(%a: !ttg.memdesc<16xf32, #sh, #smem, mutable>) {
    // expected-error @+1 {{Concurrency sanitizer supports only one instrumented function in the module}}
    %x = ttg.local_load %a : !ttg.memdesc<16xf32, #sh, #smem, mutable> -> tensor<16xf32, #blk>
    tt.return
  }
}

// -----

// Buffers are told apart by their offsets: shared memory must be allocated first.
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel() {
    // expected-error @+1 {{buffer regions need shared-memory offsets: run -allocate-shared-memory first}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<16xf32, #sh, #smem, mutable>
    %x = ttg.local_load %a : !ttg.memdesc<16xf32, #sh, #smem, mutable> -> tensor<16xf32, #blk>
    tt.return
  }
}
