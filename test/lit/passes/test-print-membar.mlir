// RUN: tt-opt %s -split-input-file -allocate-shared-memory -test-print-membar | FileCheck %s

// A read of a buffer after a write to it gets a barrier; so does a write after a read. Two reads in a row
// need none.
// CHECK-LABEL: tt.func @raw_war
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_store
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @raw_war(%x: tensor<256xf32, #blk>) {
    %a = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    %l0 = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    %l1 = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    ttg.local_store %l1, %a : tensor<256xf32, #blk> -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    tt.return
  }
}

// -----

// Accesses to buffers that do not overlap need no barrier; writes to disjoint tiles of one buffer
// (memdesc_subslice views of one layout) do not conflict either, while a read of the whole buffer does.
// CHECK-LABEL: tt.func @disjoint
// CHECK: ttg.local_store
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttg.memdesc_subslice
// CHECK-NEXT: ttg.memdesc_subslice
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @disjoint(%x: tensor<256xf32, #blk>, %h: tensor<128xf32, #blk>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    %c = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    ttg.local_store %x, %b : tensor<256xf32, #blk> -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    %l = ttg.local_load %c : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    %lo = ttg.memdesc_subslice %a[0] : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> !ttg.memdesc<128xf32, #sh, #smem, mutable, 256>
    %hi = ttg.memdesc_subslice %a[128] : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> !ttg.memdesc<128xf32, #sh, #smem, mutable, 256>
    ttg.local_store %h, %lo : tensor<128xf32, #blk> -> !ttg.memdesc<128xf32, #sh, #smem, mutable, 256>
    ttg.local_store %h, %hi : tensor<128xf32, #blk> -> !ttg.memdesc<128xf32, #sh, #smem, mutable, 256>
    %all = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    tt.return
  }
}

// -----

// An async wait is followed by a barrier (the threads' copies become visible to all); the read after it then
// needs none.
// CHECK-LABEL: tt.func @wait
// CHECK: ttg.async_wait
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wait(%p: tensor<256x!tt.ptr<f32>, #blk>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %a : tensor<256x!tt.ptr<f32>, #blk> -> <256xf32, #sh, #smem, mutable>
    %w = ttg.async_wait %t {num = 0 : i32}
    %l = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    tt.return
  }
}

// -----

// Each branch of an scf.if is analysed from what reaches the op: the then branch's read gets a barrier after
// the write before the op, the else branch has one already (gpu.barrier counts). Both leave only reads behind,
// so the read after the op needs none; without an else, the write reaches it past the op and it does.
// CHECK-LABEL: tt.func @branches
// CHECK: scf.if
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK: } else {
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: }
// CHECK-NEXT: ttg.local_load
// CHECK: scf.if
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: }
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @branches(%c: i1, %x: tensor<256xf32, #blk>) {
    %a = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    scf.if %c {
      %l = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    } else {
      gpu.barrier
      %l = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    }
    %m = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    ttg.local_store %x, %a : tensor<256xf32, #blk> -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    scf.if %c {
      %l = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    }
    %n = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    tt.return
  }
}

// -----

// A loop's back edge brings the end of one iteration to the start of the next: the store at the top of the
// body conflicts with the load at its bottom.
// CHECK-LABEL: tt.func @back_edge
// CHECK: scf.for
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_load
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @back_edge(%x: tensor<256xf32, #blk>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      ttg.local_store %x, %a : tensor<256xf32, #blk> -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
      %l = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    }
    tt.return
  }
}

// -----

// A layout conversion through shared memory writes its scratch: a barrier separates it from an earlier read
// of the same bytes (the buffer is dead by then, so the scratch reuses its place).
// CHECK-LABEL: tt.func @scratch
// CHECK: ttg.local_load
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.convert_layout
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scratch(%x: tensor<256xf32, #blk>) -> tensor<256xf32, #row> {
    %a = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem> -> tensor<256xf32, #blk>
    %c = ttg.convert_layout %l : tensor<256xf32, #blk> -> tensor<256xf32, #row>
    tt.return %c : tensor<256xf32, #row>
  }
}

// -----

// Two inits of one mbarrier need no barrier between them (NVIDIA's filter); a wait after them does.
// CHECK-LABEL: tt.func @mbarriers
// CHECK: ttng.init_barrier
// CHECK-NEXT: ttng.init_barrier
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttng.wait_barrier
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mbarriers(%phase: i32) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #sh, #smem, mutable>
    tt.return
  }
}

// -----

// A call counts as what its callee leaves unsynchronised: the caller's read of the same bytes after it gets
// a barrier.
// CHECK-LABEL: tt.func @caller
// CHECK: tt.call @callee
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: ttg.local_alloc
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @callee(%x: tensor<256xf32, #blk>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<256xf32, #sh, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<256xf32, #sh, #smem, mutable> -> tensor<256xf32, #blk>
    tt.return
  }
  tt.func @caller(%x: tensor<256xf32, #blk>) {
    tt.call @callee(%x) : (tensor<256xf32, #blk>) -> ()
    %a = ttg.local_alloc %x : (tensor<256xf32, #blk>) -> !ttg.memdesc<256xf32, #sh, #smem>
    tt.return
  }
}
