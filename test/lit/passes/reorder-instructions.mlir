// RUN: tt-opt %s -split-input-file -tritongpu-reorder-instructions | FileCheck %s

// A transpose moves right after the definition of its operand.
// CHECK-LABEL: tt.func public @trans_after_operand
// CHECK: %[[X:.*]] = tt.load %arg0
// CHECK-NEXT: %[[T:.*]] = tt.trans %[[X]]
// CHECK-NEXT: arith.addf %[[X]], %[[X]]
// CHECK: tt.store %arg1, %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @trans_after_operand(%p: tensor<32x32x!tt.ptr<f32>, #blocked>, %q: tensor<32x32x!tt.ptr<f32>, #blocked1>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<f32>, #blocked>
    %y = arith.addf %x, %x : tensor<32x32xf32, #blocked>
    tt.store %p, %y : tensor<32x32x!tt.ptr<f32>, #blocked>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    tt.store %q, %t : tensor<32x32x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// A shared-memory allocation of a value moves right after the value's definition.
// CHECK-LABEL: tt.func public @alloc_after_load
// CHECK: %[[X:.*]] = tt.load %arg0
// CHECK-NEXT: ttg.local_alloc %[[X]]
// CHECK-NEXT: tt.load %arg1
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @alloc_after_load(%p: tensor<64x32x!tt.ptr<f16>, #blocked>, %q: tensor<64x32x!tt.ptr<f16>, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem> {
    %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
    %y = tt.load %q : tensor<64x32x!tt.ptr<f16>, #blocked>
    tt.store %q, %y : tensor<64x32x!tt.ptr<f16>, #blocked>
    %m = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    tt.return %m : !ttg.memdesc<64x32xf16, #shared, #smem>
  }
}

// -----

// A conversion to a dot operand whose single user is inside a loop sinks into the loop, next to the user.
// CHECK-LABEL: tt.func public @sink_dot_operand_into_loop
// CHECK: scf.for
// CHECK-NEXT: %[[A:.*]] = ttg.convert_layout %arg0
// CHECK-NEXT: tt.dot %[[A]], %arg1
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sink_dot_operand_into_loop(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>, %n: i32) -> tensor<64x64xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
    %ad = ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #blocked1>) : i32 {
      %d = tt.dot %ad, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf32, #blocked1>
      scf.yield %d : tensor<64x64xf32, #blocked1>
    }
    tt.return %r : tensor<64x64xf32, #blocked1>
  }
}

// -----

// The b operand's shared-memory load moves after the a operand's.
// CHECK-LABEL: tt.func public @b_after_a
// CHECK: %[[A:.*]] = ttg.local_load %arg0
// CHECK-NEXT: %[[B:.*]] = ttg.local_load %arg1
// CHECK-NEXT: tt.dot %[[A]], %[[B]]
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @b_after_a(%ma: !ttg.memdesc<64x32xf16, #shared, #smem>, %mb: !ttg.memdesc<32x64xf16, #shared, #smem>, %acc: tensor<64x64xf32, #blocked1>) -> tensor<64x64xf32, #blocked1> {
    %b = ttg.local_load %mb : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    %a = ttg.local_load %ma : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf32, #blocked1>
    tt.return %d : tensor<64x64xf32, #blocked1>
  }
}

// -----

// Not changed: a conversion between blocked layouts does not sink into the loop.
// CHECK-LABEL: tt.func public @blocked_convert_stays
// CHECK: %[[Y:.*]] = ttg.convert_layout %arg0
// CHECK-NEXT: scf.for
// CHECK-NEXT: tt.store %arg1, %[[Y]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @blocked_convert_stays(%x: tensor<512xf32, #blocked>, %p: tensor<512x!tt.ptr<f32>, #blocked1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %y = ttg.convert_layout %x : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p, %y : tensor<512x!tt.ptr<f32>, #blocked1>
    }
    tt.return
  }
}

// -----

// A conversion moves below a deallocation that precedes its first use.
// CHECK-LABEL: tt.func public @convert_after_dealloc
// CHECK: ttg.local_dealloc
// CHECK-NEXT: %[[Y:.*]] = ttg.convert_layout %arg0
// CHECK-NEXT: tt.store %arg1, %[[Y]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @convert_after_dealloc(%x: tensor<512xf32, #blocked>, %p: tensor<512x!tt.ptr<f32>, #blocked1>) {
    %m = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %y = ttg.convert_layout %x : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    ttg.local_dealloc %m : !ttg.memdesc<512xf32, #shared, #smem, mutable>
    tt.store %p, %y : tensor<512x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// Not moved: the b operand's load stays before an op that writes memory (an mbarrier arrive) on the way.
// CHECK-LABEL: tt.func public @b_before_a_write
// CHECK: %[[B:.*]] = ttg.local_load %arg1
// CHECK-NEXT: ttng.arrive_barrier
// CHECK-NEXT: %[[A:.*]] = ttg.local_load %arg0
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @b_before_a_write(%ma: !ttg.memdesc<64x32xf16, #shared, #smem>, %mb: !ttg.memdesc<32x64xf16, #shared, #smem>, %acc: tensor<64x64xf32, #blocked1>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>) -> tensor<64x64xf32, #blocked1> {
    %b = ttg.local_load %mb : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %a = ttg.local_load %ma : !ttg.memdesc<64x32xf16, #shared, #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf32, #blocked1>
    tt.return %d : tensor<64x64xf32, #blocked1>
  }
}

// -----

// Not moved: an allocation of a splat stays where it is (it would only hold shared memory longer).
// CHECK-LABEL: tt.func public @alloc_of_splat_stays
// CHECK: tt.splat
// CHECK-NEXT: ttg.async_wait
// CHECK-NEXT: ttg.local_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @alloc_of_splat_stays(%x: f32) -> !ttg.memdesc<32x32xf32, #shared, #smem> {
    %t = tt.splat %x : f32 -> tensor<32x32xf32, #blocked>
    ttg.async_wait {num = 0 : i32}
    %m = ttg.local_alloc %t : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return %m : !ttg.memdesc<32x32xf32, #shared, #smem>
  }
}

// -----

// A transpose of a shared-memory view (ttg.memdesc_trans, also a transposition in Triton) moves right after the
// view.
// CHECK-LABEL: tt.func public @memdesc_trans_after_view
// CHECK: %[[V:.*]] = ttg.memdesc_index %arg0[%arg1]
// CHECK-NEXT: ttg.memdesc_trans %[[V]]
// CHECK-NEXT: ttg.local_load %[[V]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @memdesc_trans_after_view(%buf: !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable>, %i: i32) -> (tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked>) {
    %v = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %x = ttg.local_load %v : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked>
    %t = ttg.memdesc_trans %v {order = array<i32: 1, 0>} : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared1, #smem, mutable>
    %y = ttg.local_load %t : !ttg.memdesc<32x32xf32, #shared1, #smem, mutable> -> tensor<32x32xf32, #blocked>
    tt.return %x, %y : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked>
  }
}
