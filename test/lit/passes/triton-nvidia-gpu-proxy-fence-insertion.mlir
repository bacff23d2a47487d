// RUN: tt-opt %s -split-input-file -triton-nvidia-gpu-proxy-fence-insertion -allow-unregistered-dialect | FileCheck %s
// RUN: tt-opt %s -split-input-file -triton-nvidia-gpu-proxy-fence-insertion=compute-capability=80 -allow-unregistered-dialect | FileCheck %s --check-prefix=SM80

// A TMA store reading a buffer just written through registers (generic proxy) gets a fence before it.
// CHECK-LABEL: tt.func @store_then_tma_store
// CHECK: ttg.local_store
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global
// SM80-LABEL: tt.func @store_then_tma_store
// SM80-NOT: ttng.fence_async_shared
// SM80: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_then_tma_store(%d: !tt.tensordesc<tensor<64x64xf16, #s>>, %x: tensor<64x64xf16, #bl>) {
    %c0 = arith.constant 0 : i32
    %m = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    ttg.local_store %x, %m : tensor<64x64xf16, #bl> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    ttng.async_tma_copy_local_to_global %d[%c0, %c0] %m : !tt.tensordesc<tensor<64x64xf16, #s>>, !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    tt.return
  }
}

// -----

// Reads through both proxies in a row need no fence; neither do accesses to two buffers that are live together
// (they do not overlap).
// CHECK-LABEL: tt.func @read_read_and_disjoint
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @read_read_and_disjoint(%d: !tt.tensordesc<tensor<64x64xf16, #s>>, %x: tensor<64x64xf16, #bl>) -> tensor<64x64xf16, #bl> {
    %c0 = arith.constant 0 : i32
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    ttg.local_store %x, %b : tensor<64x64xf16, #bl> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf16, #bl>
    ttng.async_tma_copy_local_to_global %d[%c0, %c0] %a : !tt.tensordesc<tensor<64x64xf16, #s>>, !ttg.memdesc<64x64xf16, #s, #smem>
    %l2 = ttg.local_load %b : !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf16, #bl>
    tt.return %l2 : tensor<64x64xf16, #bl>
  }
}

// -----

// A fence already there clears what is pending; a second async access after an async one needs none either.
// CHECK-LABEL: tt.func @fenced_and_async_after_async
// CHECK: ttg.local_store
// CHECK-NEXT: ttng.fence_async_shared {bCluster = true}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global
// CHECK-NEXT: ttng.async_tma_copy_local_to_global
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fenced_and_async_after_async(%d: !tt.tensordesc<tensor<64x64xf16, #s>>, %x: tensor<64x64xf16, #bl>) {
    %c0 = arith.constant 0 : i32
    %m = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    ttg.local_store %x, %m : tensor<64x64xf16, #bl> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    ttng.fence_async_shared {bCluster = true}
    ttng.async_tma_copy_local_to_global %d[%c0, %c0] %m : !tt.tensordesc<tensor<64x64xf16, #s>>, !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    ttng.async_tma_copy_local_to_global %d[%c0, %c0] %m : !tt.tensordesc<tensor<64x64xf16, #s>>, !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    tt.return
  }
}

// -----

// A TMA load into a buffer that the previous iteration read through registers: the fence goes before the copy,
// inside the loop (the read reaches it along the back edge). The mbarrier ops around it never call for one.
// CHECK-LABEL: tt.func @loop_war
// CHECK: ttng.init_barrier
// CHECK-NEXT: scf.for
// CHECK-NEXT: ttng.barrier_expect
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_global_to_local
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttg.local_load
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#s1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_war(%d: !tt.tensordesc<tensor<64x64xf16, #s>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %m = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #s1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #s1, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      ttng.barrier_expect %bar, 8192, %true : !ttg.memdesc<1xi64, #s1, #smem, mutable>
      ttng.async_tma_copy_global_to_local %d[%c0, %c0] %m, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #s>>, !ttg.memdesc<1xi64, #s1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #s1, #smem, mutable>
      %l = ttg.local_load %m : !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf16, #bl>
    }
    tt.return
  }
}

// -----

// A wgmma operand written through registers gets a fence before the dot (the safe fallback when
// -triton-nvidia-gpu-fence-insertion did not place one). An immutable local_alloc counts as a write only once
// -allocate-shared-memory has placed it (its allocation.offset), as in Triton.
// CHECK-LABEL: tt.func @wgmma_operand
// CHECK: ttg.local_alloc %arg0
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.warp_group_dot
// CHECK-LABEL: tt.func @wgmma_operand_unplaced
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_operand(%x: tensor<64x64xf16, #bl>, %k: !ttg.memdesc<64x64xf16, #s, #smem>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %q = ttg.local_alloc %x {allocation.offset = 0 : i32} : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    %r = ttng.warp_group_dot %q, %k, %c : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
    tt.return %r : tensor<64x64xf32, #mma>
  }
  tt.func @wgmma_operand_unplaced(%x: tensor<64x64xf16, #bl>, %k: !ttg.memdesc<64x64xf16, #s, #smem>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %q = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    %r = ttng.warp_group_dot %q, %k, %c : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// An unregistered op is not a terminator: the walk goes on past it and still sees the read before the TMA load.
// CHECK-LABEL: tt.func @past_unregistered
// CHECK: "x.use"
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_global_to_local
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#s1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @past_unregistered(%d: !tt.tensordesc<tensor<64x64xf16, #s>>, %bar: !ttg.memdesc<1xi64, #s1, #smem, mutable>) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %m = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    %l = ttg.local_load %m : !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf16, #bl>
    "x.use"(%l) : (tensor<64x64xf16, #bl>) -> ()
    ttng.async_tma_copy_global_to_local %d[%c0, %c0] %m, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #s>>, !ttg.memdesc<1xi64, #s1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    tt.return
  }
}
