// RUN: tt-opt %s -split-input-file -triton-nvidia-gpu-remove-tmem-tokens | FileCheck %s

#acc = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Every TMEM op loses its dependency and its token; the loop that carried the token gets a poison value.
  // CHECK-LABEL: tt.func @tokens_gone
  // CHECK-NEXT: %[[P:.*]] = ub.poison : !ttg.async.token
  // CHECK: %[[BUF:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
  // CHECK-NEXT: ttng.tmem_store %arg2, %[[BUF]], %true :
  // CHECK-NEXT: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[P]]) -> (!ttg.async.token)
  // CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %[[BUF]], %true, %true :
  // CHECK-NEXT: scf.yield %[[P]] : !ttg.async.token
  // CHECK: %[[V:.*]] = ttng.tmem_load %[[BUF]] : !ttg.memdesc
  // CHECK-NEXT: tt.return %[[V]]
  tt.func @tokens_gone(%a: !ttg.memdesc<128x32xf16, #sa, #smem>, %b: !ttg.memdesc<32x64xf16, #sb, #smem>, %init: tensor<128x64xf32, #acc>, %n: i32) -> tensor<128x64xf32, #acc> {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf, %t0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %t1 = ttng.tmem_store %init, %buf[%t0], %true : tensor<128x64xf32, #acc> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t1) -> (!ttg.async.token)  : i32 {
      %m = ttng.tc_gen5_mma %a, %b, %buf[%t], %true, %true : !ttg.memdesc<128x32xf16, #sa, #smem>, !ttg.memdesc<32x64xf16, #sb, #smem>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
      scf.yield %m : !ttg.async.token
    }
    %v, %t2 = ttng.tmem_load %buf[%r] : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    tt.return %v : tensor<128x64xf32, #acc>
  }

  // A function without TMEM ops still gets its (unused) poison token.
  // CHECK-LABEL: tt.func @no_tmem
  // CHECK-NEXT: ub.poison : !ttg.async.token
  // CHECK-NEXT: tt.return
  tt.func @no_tmem() {
    tt.return
  }
}
