// RUN: not tt-opt %s -allow-unregistered-dialect -tritongpu-test-pipeline-lower-loop 2>&1 | FileCheck %s

#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// The accumulator's users span stages, yet no store resets it in the loop and the MMA always accumulates: there
// is no point where a second buffer could take over.
// CHECK: test-pipeline-lower-loop-errors.mlir:[[# @LINE + 7]]:3: error: trying to multibuffer TMEM while there is no store to the accumulator, and the mma uses the accumulator all the time
tt.func @acc_never_reset(%pa: tensor<128x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %pb: tensor<64x64x!tt.ptr<f16>, #ld> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>},
                   %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %acc, %t0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
  %tl = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!ttg.async.token) : i32 {
    %a = tt.load %pa {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #ld>
    %b = tt.load %pb {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #ld>
    %as = ttg.local_alloc %a {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<128x64xf16, #ld>) -> !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>
    %bs = ttg.local_alloc %b {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<64x64xf16, #ld>) -> !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>
    %m = ttng.tc_gen5_mma %as, %bs, %acc[%t], %true, %true {loop.cluster = 1 : i32, loop.stage = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nv, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %r, %rt = ttng.tmem_load %acc[%m] {loop.cluster = 1 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    "use"(%r) {loop.cluster = 1 : i32, loop.stage = 2 : i32} : (tensor<128x64xf32, #acc>) -> ()
    scf.yield %rt : !ttg.async.token
  } {tt.scheduled_max_stage = 2 : i32}
  tt.return
}
}
