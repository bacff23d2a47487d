// RUN: tt-opt %s -split-input-file -tritongpu-promote-lhs-to-tmem | FileCheck %s

#rows = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sa8 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#sb8 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The layouts: LIN, the default TMEM layout @computed_converted converts to; TA, A's TMEM encoding.
  // CHECK-DAG: #[[LIN:.*]] = #ttg.linear<{register = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = {{\[}}[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[}}[32, 0], [64, 0]], block = []}>
  // CHECK-DAG: #[[TA:.*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
  // A row per thread fits tcgen05.st: A goes to tensor memory (blockM of the accumulator, blockN = K, packed),
  // and the shared-memory copy, now unused, is erased.
  // CHECK-LABEL: tt.func @promoted
  // CHECK-NOT: ttg.local_alloc
  // CHECK: %[[A:.*]] = ttng.tmem_alloc %arg0 : (tensor<128x64xf16, #{{.*}}>) -> !ttg.memdesc<128x64xf16, #[[TA]], #ttng.tensor_memory>
  // CHECK-NEXT: ttng.tc_gen5_mma %[[A]], %arg1, %arg2,
  tt.func @promoted(%x: tensor<128x64xf16, #rows>, %b: !ttg.memdesc<64x32xf16, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1) {
    %a = ttg.local_alloc %x : (tensor<128x64xf16, #rows>) -> !ttg.memdesc<128x64xf16, #sa, #smem>
    ttng.tc_gen5_mma %a, %b, %d, %c, %c : !ttg.memdesc<128x64xf16, #sa, #smem>, !ttg.memdesc<64x32xf16, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }

  // 8-bit A stays in shared memory.
  // CHECK-LABEL: tt.func @fp8_stays
  // CHECK: ttg.local_alloc
  // CHECK-NOT: ttng.tmem_alloc
  tt.func @fp8_stays(%x: tensor<128x64xf8E4M3FN, #rows>, %b: !ttg.memdesc<64x32xf8E4M3FN, #sb8, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1) {
    %a = ttg.local_alloc %x : (tensor<128x64xf8E4M3FN, #rows>) -> !ttg.memdesc<128x64xf8E4M3FN, #sa8, #smem>
    ttng.tc_gen5_mma %a, %b, %d, %c, %c : !ttg.memdesc<128x64xf8E4M3FN, #sa8, #smem>, !ttg.memdesc<64x32xf8E4M3FN, #sb8, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }

  // A copied to shared memory outside the loop stays there (tensor memory is kept to one region's lifetime).
  // CHECK-LABEL: tt.func @outside_loop
  // CHECK: ttg.local_alloc
  // CHECK-NOT: ttng.tmem_alloc
  tt.func @outside_loop(%x: tensor<128x64xf16, #rows>, %b: !ttg.memdesc<64x32xf16, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc %x : (tensor<128x64xf16, #rows>) -> !ttg.memdesc<128x64xf16, #sa, #smem>
    scf.for %i = %c0 to %n step %c1  : i32 {
      ttng.tc_gen5_mma %a, %b, %d, %c, %c : !ttg.memdesc<128x64xf16, #sa, #smem>, !ttg.memdesc<64x32xf16, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    }
    tt.return
  }

  // A layout tcgen05.st cannot store, straight from a function argument: A stays in shared memory.
  // CHECK-LABEL: tt.func @argument_not_converted
  // CHECK: ttg.local_alloc
  // CHECK-NOT: ttng.tmem_alloc
  tt.func @argument_not_converted(%x: tensor<128x64xf16, #cols>, %b: !ttg.memdesc<64x32xf16, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1) {
    %a = ttg.local_alloc %x : (tensor<128x64xf16, #cols>) -> !ttg.memdesc<128x64xf16, #sa, #smem>
    ttng.tc_gen5_mma %a, %b, %d, %c, %c : !ttg.memdesc<128x64xf16, #sa, #smem>, !ttg.memdesc<64x32xf16, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }

  // The same layout computed in the kernel: converted to the default TMEM layout (two f16 per 32-bit column
  // register, a row per lane, warps over rows 32 and 64), then moved to tensor memory.
  // CHECK-LABEL: tt.func @computed_converted
  // CHECK: %[[H:.*]] = arith.truncf %arg0
  // CHECK-NEXT: %[[CV:.*]] = ttg.convert_layout %[[H]] : tensor<128x64xf16, #{{.*}}> -> tensor<128x64xf16, #[[LIN]]>
  // CHECK-NEXT: %[[A:.*]] = ttng.tmem_alloc %[[CV]]
  // CHECK-NEXT: ttng.tc_gen5_mma %[[A]]
  tt.func @computed_converted(%x: tensor<128x64xf32, #cols>, %b: !ttg.memdesc<64x32xf16, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1) {
    %h = arith.truncf %x : tensor<128x64xf32, #cols> to tensor<128x64xf16, #cols>
    %a = ttg.local_alloc %h : (tensor<128x64xf16, #cols>) -> !ttg.memdesc<128x64xf16, #sa, #smem>
    ttng.tc_gen5_mma %a, %b, %d, %c, %c : !ttg.memdesc<128x64xf16, #sa, #smem>, !ttg.memdesc<64x32xf16, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

#cols = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // With 8 warps the second warp group takes the upper half of the columns (f32: one element per column).
  // CHECK-DAG: #[[LIN:.*]] = #ttg.linear<{register = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = {{\[}}[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[}}[32, 0], [64, 0], [0, 32]], block = []}>
  // CHECK-LABEL: tt.func @eight_warps
  // CHECK: ttg.convert_layout %{{.*}} -> tensor<128x64xf32, #[[LIN]]>
  // CHECK-NEXT: ttng.tmem_alloc
  tt.func @eight_warps(%x: tensor<128x64xf32, #cols>, %b: !ttg.memdesc<64x32xf32, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1) {
    %h = arith.negf %x : tensor<128x64xf32, #cols>
    %a = ttg.local_alloc %h : (tensor<128x64xf32, #cols>) -> !ttg.memdesc<128x64xf32, #sa, #smem>
    ttng.tc_gen5_mma %a, %b, %d, %c, %c : !ttg.memdesc<128x64xf32, #sa, #smem>, !ttg.memdesc<64x32xf32, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }
}
