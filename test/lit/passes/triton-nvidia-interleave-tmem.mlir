// RUN: tt-opt %s -triton-nvidia-interleave-tmem -allow-unregistered-dialect | FileCheck %s

#row = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The load and the pure op right after it (its only user) move down to the first op using the chain; a
  // store to the other half of the buffer does not stop them, a store to the same half does.
  // CHECK-LABEL: tt.func @sink_past_disjoint_store
  // CHECK: ttng.tmem_store %arg1, %[[HI:.*]], %true
  // CHECK-NEXT: arith.constant 5
  // CHECK-NEXT: %[[L:.*]] = ttng.tmem_load %[[LO:.*]] :
  // CHECK-NEXT: %[[N:.*]] = arith.negf %[[L]]
  // CHECK-NEXT: ttng.tmem_store %arg1, %[[LO]], %true
  // CHECK-NEXT: "use"(%[[N]])
  tt.func @sink_past_disjoint_store(%x: f32, %v: tensor<128x64xf32, #row>) {
    %true = arith.constant true
    %m = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
    %lo = ttng.tmem_subslice %m {N = 0 : i32} : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable, 128x128>
    %hi = ttng.tmem_subslice %m {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable, 128x128>
    %0 = ttng.tmem_load %lo : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable, 128x128> -> tensor<128x64xf32, #row>
    %1 = arith.negf %0 : tensor<128x64xf32, #row>
    ttng.tmem_store %v, %hi, %true : tensor<128x64xf32, #row> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable, 128x128>
    %k = arith.constant 5 : i32
    ttng.tmem_store %v, %lo, %true : tensor<128x64xf32, #row> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable, 128x128>
    "use"(%1) : (tensor<128x64xf32, #row>) -> ()
    tt.return
  }

  // An op of unknown effects stops the load at once.
  // CHECK-LABEL: tt.func @unknown_effects
  // CHECK: ttng.tmem_load
  // CHECK-NEXT: "other"()
  tt.func @unknown_effects(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #row>
    "other"() : () -> ()
    %c = arith.constant 1.0 : f32
    "use"(%0) : (tensor<128x64xf32, #row>) -> ()
    tt.return
  }

  // Barrier arrivals may end the buffer's live range: the load stops just before them.
  // CHECK-LABEL: tt.func @arrive
  // CHECK: %c1_i32 = arith.constant 1 : i32
  // CHECK-NEXT: ttng.tmem_load
  // CHECK-NEXT: ttng.arrive_barrier
  tt.func @arrive(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %b: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #row>
    %c = arith.constant 1 : i32
    ttng.arrive_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    "use"(%0) : (tensor<128x64xf32, #row>) -> ()
    tt.return
  }

  // With no user before the terminator, the load goes before the last other op.
  // CHECK-LABEL: tt.func @to_the_end
  // CHECK: arith.constant 2
  // CHECK-NEXT: ttng.tmem_load
  // CHECK-NEXT: arith.constant 3
  // CHECK-NEXT: tt.return
  tt.func @to_the_end(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) -> tensor<128x64xf32, #row> {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #row>
    %a = arith.constant 2 : i32
    %b = arith.constant 3 : i32
    tt.return %0 : tensor<128x64xf32, #row>
  }

  // An allocation sinks to its first user, past other allocations and stores to other buffers. Looking
  // through the index view of the other buffer leaves a zero offset constant before that view (the other
  // allocation then sinks to its view, past the constant).
  // CHECK-LABEL: tt.func @sink_alloc
  // CHECK: arith.constant 0 : i32
  // CHECK-NEXT: %[[B:.*]] = ttng.tmem_alloc
  // CHECK-NEXT: %[[BV:.*]] = ttg.memdesc_index %[[B]]
  // CHECK-NEXT: ttng.tmem_store %arg0, %[[BV]]
  // CHECK-NEXT: %[[A:.*]] = ttng.tmem_alloc
  // CHECK-NEXT: %[[AV:.*]] = ttg.memdesc_index %[[A]]
  // CHECK-NEXT: ttng.tmem_store %arg0, %[[AV]]
  tt.func @sink_alloc(%v: tensor<128x64xf32, #row>, %i: i32) {
    %true = arith.constant true
    %a = ttng.tmem_alloc : () -> !ttg.memdesc<2x128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %av = ttg.memdesc_index %a[%i] : !ttg.memdesc<2x128x64xf32, #tm, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %b = ttng.tmem_alloc : () -> !ttg.memdesc<2x128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %bv = ttg.memdesc_index %b[%i] : !ttg.memdesc<2x128x64xf32, #tm, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    ttng.tmem_store %v, %bv, %true : tensor<128x64xf32, #row> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    ttng.tmem_store %v, %av, %true : tensor<128x64xf32, #row> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }
}
