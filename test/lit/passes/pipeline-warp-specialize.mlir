// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-pipeline | filecheck %s

// tritongpu-pipeline on a scheduled loop inside a ttg.warp_specialize partition: the partition is isolated from
// above, so the -1 that starts the buffer indices is made at the top of the partition, not of the function.

#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @load_in_partition
  tt.func @load_in_partition(%p: tensor<32x32x!tt.ptr<f16>, #bl> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>}, %n: i32) {
    ttg.warp_specialize(%p, %n)
    default {
      ttg.warp_yield
    }
    // CHECK: partition0
    // CHECK: arith.constant -1 : i32
    // CHECK: ttg.async_copy_global_to_local
    // CHECK: scf.for
    partition0(%ptrs: tensor<32x32x!tt.ptr<f16>, #bl>, %ub: i32) num_warps(4) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      scf.for %i = %c0 to %ub step %c1 : i32 {
        %x = tt.load %ptrs {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32x32x!tt.ptr<f16>, #bl>
        %s = ttg.local_alloc %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<32x32xf16, #bl>) -> !ttg.memdesc<32x32xf16, #nv, #smem>
        "use"(%s) {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (!ttg.memdesc<32x32xf16, #nv, #smem>) -> ()
      } {tt.scheduled_max_stage = 1 : i32}
      ttg.warp_return
    } : (tensor<32x32x!tt.ptr<f16>, #bl>, i32) -> ()
    tt.return
  }
}
