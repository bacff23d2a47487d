// RUN: tt-opt %s -split-input-file -triton-nvidia-gpu-fence-insertion | FileCheck %s

// A wgmma operand written from registers inside the loop: the fence goes right before the dot (Triton's
// matmul_64x64x32_s1). The operand written before the loop (attention's Q) alone would hoist it out.
// CHECK-LABEL: tt.func public @in_loop
// CHECK: scf.for
// CHECK: ttg.local_alloc
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.warp_group_dot
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @in_loop(%x: tensor<64x64xf16, #bl>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %q = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %k = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
      %d = ttng.warp_group_dot %q, %k, %acc : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Only the operand written before the loop comes from registers (attention's Q; K comes from async copies into a
// multi-buffer): the fence is hoisted out of the loop, right before it.
// CHECK-LABEL: tt.func public @hoisted
// CHECK: ttg.local_alloc %arg0
// CHECK: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: scf.for
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hoisted(%x: tensor<64x64xf16, #bl>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %q = ttg.local_alloc %x : (tensor<64x64xf16, #bl>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #s, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %k = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<3x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
      %d = ttng.warp_group_dot %q, %k, %acc : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    ttg.local_dealloc %buf : !ttg.memdesc<3x64x64xf16, #s, #smem, mutable>
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// No operand written from registers (async copies only), or compute capability below 90: no fence.
// RUN: tt-opt %s -split-input-file -triton-nvidia-gpu-fence-insertion=compute-capability=80 | FileCheck %s --check-prefix=SM80
// CHECK-LABEL: tt.func public @no_fence
// CHECK-NOT: ttng.fence_async_shared
// SM80-NOT: ttng.fence_async_shared
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_fence(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #s, #smem, mutable>
    %k = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<3x64x64xf16, #s, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s, #smem, mutable>
    %d = ttng.warp_group_dot %k, %k, %c : !ttg.memdesc<64x64xf16, #s, #smem, mutable> * !ttg.memdesc<64x64xf16, #s, #smem, mutable> -> tensor<64x64xf32, #mma>
    ttg.local_dealloc %buf : !ttg.memdesc<3x64x64xf16, #s, #smem, mutable>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
