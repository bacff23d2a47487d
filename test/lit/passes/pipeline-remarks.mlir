// RUN: tt-opt %s -split-input-file -verify-diagnostics -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 | FileCheck %s

// A loop's own tt.num_stages of 2 or more that tritongpu-pipeline cannot act on gets a remark saying why; the
// loop is left as it is (attribute included). The stage count of the option (num-stages=3) says nothing.
// A loop with its own tt.num_stages and no dot has all its loads pipelined (into unswizzled buffers, read back
// with local_load), as Triton does.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-LABEL: tt.func public @plain_loads
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x512xf32, #[[SH]], #smem, mutable>
// CHECK-COUNT-2: ttg.async_copy_global_to_local
// CHECK: scf.for
// CHECK: ttg.local_load
// CHECK: ttg.async_copy_global_to_local
// CHECK: } {tt.num_stages = 3 : i32}
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: } {tt.num_stages = 1 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @plain_loads(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<512xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #blocked>
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<512xf32, #blocked>) : i32 {
      %x = tt.load %ptrs : tensor<512x!tt.ptr<f32>, #blocked>
      %s = arith.addf %acc, %x : tensor<512xf32, #blocked>
      scf.yield %s : tensor<512xf32, #blocked>
    } {tt.num_stages = 3 : i32}
    // A stage count below 2 asks for no pipelining: no remark.
    %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<512xf32, #blocked>) : i32 {
      %x = tt.load %ptrs : tensor<512x!tt.ptr<f32>, #blocked>
      %s = arith.addf %acc, %x : tensor<512xf32, #blocked>
      scf.yield %s : tensor<512xf32, #blocked>
    } {tt.num_stages = 1 : i32}
    tt.return %r2 : tensor<512xf32, #blocked>
  }
}

// -----

// CHECK-LABEL: tt.func public @outer
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @outer(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop not pipelined despite tt.num_stages = 4: only innermost loops are pipelined}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
    } {tt.num_stages = 4 : i32}
    tt.return
  }
}

// -----

// The module's target (sm75 here) plays no part: the loop has no load.
// CHECK-LABEL: tt.func public @sm75
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sm75(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop not pipelined despite tt.num_stages = 2: no load in it is worth pipelining}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p, %i : !tt.ptr<i32>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
}

// -----

// tritongpu-schedule-loops leaves a loop with a tt.assert (or tt.print, gpu.barrier) alone: they must not be
// reordered.
// CHECK-LABEL: tt.func public @assert_in_loop
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.assert
// CHECK-NEXT: tt.store
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @assert_in_loop(%p: tensor<512x!tt.ptr<f32>, #blocked> {tt.divisibility = 16 : i32}, %n: i32, %ok: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop not pipelined despite tt.num_stages = 2: 'tt.assert' in it must stay in order}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p : tensor<512x!tt.ptr<f32>, #blocked>
      tt.assert %ok, "bad" : i1
      tt.store %p, %v : tensor<512x!tt.ptr<f32>, #blocked>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
}
