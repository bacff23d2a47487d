// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-hoist-tmem-alloc -tritongpu-assign-latencies -tritongpu-schedule-loops -tritongpu-automatic-warp-specialization=num-stages=2 | filecheck %s

// tritongpu-automatic-warp-specialization on a TMA matmul loop: the loads go to their own partition, the MMA to
// another, the accumulator read after the loop stays outside (the default region is empty); the operands pass through two-slot shared
// buffers guarded by mbarriers; a descriptor made in the loop is written to one of three tensormaps in turn.

#bl = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @matmul
  tt.func @matmul(%pa: !tt.ptr<f16>, %db: !tt.tensordesc<tensor<64x64xf16, #nv>>, %n: i32, %m: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %true = arith.constant true
    %false = arith.constant false
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #bl>
    // CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.warp_specialize
    // CHECK-NEXT: default {
    // CHECK-NEXT: ttg.warp_yield
    // CHECK: partition0
    // CHECK: scf.for
    // CHECK: ttng.wait_barrier
    // CHECK: ttng.tc_gen5_mma {{.*}} {is_async
    // CHECK: ttng.tc_gen5_commit
    // CHECK: partition1
    // CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 384 : i32}
    // CHECK: scf.for
    // CHECK: ttng.tensormap_create
    // CHECK: ttng.barrier_expect
    // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
    // CHECK-NOT: partition2
    // CHECK: ttng.tmem_load
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %st = ttng.tmem_store %zero, %acc[%tok], %true : tensor<128x64xf32, #bl> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%use = %false, %t = %st) -> (i1, !ttg.async.token) : i32 {
      %da = tt.make_tensor_descriptor %pa, [%n, %n], [%m, %c1_i64] : <f16>, <tensor<128x64xf16, #nv>>
      %off = arith.muli %k, %c64 : i32
      %a = tt.descriptor_load %da[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #nv>> -> tensor<128x64xf16, #ld>
      %as = ttg.local_alloc %a : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nv, #smem>
      %b = tt.descriptor_load %db[%off, %c0] : !tt.tensordesc<tensor<64x64xf16, #nv>> -> tensor<64x64xf16, #ld>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #smem>
      %mt = ttng.tc_gen5_mma %as, %bs, %acc[%t], %use, %true : !ttg.memdesc<128x64xf16, #nv, #smem>, !ttg.memdesc<64x64xf16, #nv, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      scf.yield %true, %mt : i1, !ttg.async.token
    } {tt.warp_specialize}
    %v, %lt = ttng.tmem_load %acc[%r#1] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #bl>
    "use"(%v) : (tensor<128x64xf32, #bl>) -> ()
    tt.return
  }
}
