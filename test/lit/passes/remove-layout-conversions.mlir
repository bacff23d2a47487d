// RUN: tt-opt %s -split-input-file -tritongpu-remove-layout-conversions | FileCheck %s

// After coalescing: the load's layout (4 per thread) flows forward to its users and the address computation is
// recomputed in it; no conversion remains.
// CHECK: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NOT: #blocked1
// CHECK-LABEL: tt.func public @vector_f32
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {{.*}} : tensor<1024xi32, #[[V4]]>
// CHECK: tt.load {{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: tt.store {{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @vector_f32(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = ttg.convert_layout %2 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %4 = tt.load %3 : tensor<1024x!tt.ptr<f32>, #blocked1>
    %5 = ttg.convert_layout %4 : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
    %6 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %7 = tt.addptr %6, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %8 = ttg.convert_layout %7 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %9 = ttg.convert_layout %5 : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    tt.store %8, %9 : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// 2-D: offsets are rematerialized as slices of the coalesced layout, through expand_dims and broadcast.
// CHECK: #[[CM:.*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @column_major
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {{.*}} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[CM]]}>>
// CHECK: tt.expand_dims {{.*}} -> tensor<64x1xi32, #[[CM]]>
// CHECK: tt.make_range {{.*}} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #[[CM]]}>>
// CHECK: tt.load {{.*}} : tensor<64x64x!tt.ptr<f32>, #[[CM]]>
// CHECK: arith.addf {{.*}} : tensor<64x64xf32, #[[CM]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked5 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @column_major(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32 {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = ttg.convert_layout %0 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %3 = ttg.convert_layout %2 : tensor<64x1xi32, #blocked1> -> tensor<64x1xi32, #blocked2>
    %4 = ttg.convert_layout %0 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
    %5 = tt.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x64xi32, #blocked3>
    %6 = ttg.convert_layout %5 : tensor<1x64xi32, #blocked3> -> tensor<1x64xi32, #blocked4>
    %7 = tt.splat %arg1 : i32 -> tensor<1x64xi32, #blocked4>
    %8 = arith.muli %6, %7 : tensor<1x64xi32, #blocked4>
    %9 = tt.broadcast %3 : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %10 = ttg.convert_layout %9 : tensor<64x64xi32, #blocked2> -> tensor<64x64xi32, #blocked4>
    %11 = tt.broadcast %8 : tensor<1x64xi32, #blocked4> -> tensor<64x64xi32, #blocked4>
    %12 = arith.addi %10, %11 : tensor<64x64xi32, #blocked4>
    %13 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked4>
    %14 = tt.addptr %13, %12 : tensor<64x64x!tt.ptr<f32>, #blocked4>, tensor<64x64xi32, #blocked4>
    %15 = ttg.convert_layout %14 : tensor<64x64x!tt.ptr<f32>, #blocked4> -> tensor<64x64x!tt.ptr<f32>, #blocked5>
    %16 = tt.load %15 : tensor<64x64x!tt.ptr<f32>, #blocked5>
    %17 = ttg.convert_layout %16 : tensor<64x64xf32, #blocked5> -> tensor<64x64xf32, #blocked4>
    %18 = arith.addf %17, %17 : tensor<64x64xf32, #blocked4>
    %19 = ttg.convert_layout %14 : tensor<64x64x!tt.ptr<f32>, #blocked4> -> tensor<64x64x!tt.ptr<f32>, #blocked5>
    %20 = ttg.convert_layout %18 : tensor<64x64xf32, #blocked4> -> tensor<64x64xf32, #blocked5>
    tt.store %19, %20 : tensor<64x64x!tt.ptr<f32>, #blocked5>
    tt.return
  }
}

// -----

// Recomputing the slice (three exps) costs less than the conversion: it is duplicated in the store's layout.
// CHECK-LABEL: tt.func public @remat_cheap_slice
// CHECK-NOT: ttg.convert_layout
// CHECK-COUNT-6: math.exp
// CHECK-NOT: ttg.convert_layout
#A = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @remat_cheap_slice(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #A>
    %f = arith.sitofp %r : tensor<1024xi32, #A> to tensor<1024xf32, #A>
    %e1 = math.exp %f : tensor<1024xf32, #A>
    %e2 = math.exp %e1 : tensor<1024xf32, #A>
    %e3 = math.exp %e2 : tensor<1024xf32, #A>
    %rb = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #B>
    %pb = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #B>
    %ab = tt.addptr %pb, %rb : tensor<1024x!tt.ptr<f32>, #B>, tensor<1024xi32, #B>
    %c = ttg.convert_layout %e3 : tensor<1024xf32, #A> -> tensor<1024xf32, #B>
    tt.store %ab, %c : tensor<1024x!tt.ptr<f32>, #B>
    %pa = tt.splat %q : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #A>
    %aa = tt.addptr %pa, %r : tensor<1024x!tt.ptr<f32>, #A>, tensor<1024xi32, #A>
    tt.store %aa, %e3 : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Four exps cost more than the conversion, which stays (Triton's cost model).
// CHECK-LABEL: tt.func public @keep_costly_convert
// CHECK-COUNT-4: math.exp
// CHECK-NOT: math.exp
// CHECK: %[[C:.*]] = ttg.convert_layout %{{.*}} : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
// CHECK-NEXT: tt.store %{{.*}}, %[[C]]
#A = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @keep_costly_convert(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #A>
    %f = arith.sitofp %r : tensor<1024xi32, #A> to tensor<1024xf32, #A>
    %e1 = math.exp %f : tensor<1024xf32, #A>
    %e2 = math.exp %e1 : tensor<1024xf32, #A>
    %e3 = math.exp %e2 : tensor<1024xf32, #A>
    %e4 = math.exp %e3 : tensor<1024xf32, #A>
    %rb = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #B>
    %pb = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #B>
    %ab = tt.addptr %pb, %rb : tensor<1024x!tt.ptr<f32>, #B>, tensor<1024xi32, #B>
    %c = ttg.convert_layout %e4 : tensor<1024xf32, #A> -> tensor<1024xf32, #B>
    tt.store %ab, %c : tensor<1024x!tt.ptr<f32>, #B>
    %pa = tt.splat %q : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #A>
    %aa = tt.addptr %pa, %r : tensor<1024x!tt.ptr<f32>, #A>, tensor<1024xi32, #A>
    tt.store %aa, %e4 : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// A conversion that cannot be removed (its source is an expensive load) moves above the broadcast, where the
// tensor is 64 times smaller.
// CHECK-LABEL: tt.func public @hoist_above_broadcast
// CHECK: %[[X:.*]] = tt.load %arg0 : tensor<128x1x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[X]] : tensor<128x1xf32, #blocked> -> tensor<128x1xf32, #blocked1>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[C]] : tensor<128x1xf32, #blocked1> -> tensor<128x64xf32, #blocked1>
// CHECK-NEXT: tt.store %arg1, %[[B]]
#A = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#B = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hoist_above_broadcast(%p: tensor<128x1x!tt.ptr<f32>, #A>, %q: tensor<128x64x!tt.ptr<f32>, #B>) {
    %x = tt.load %p : tensor<128x1x!tt.ptr<f32>, #A>
    %b = tt.broadcast %x : tensor<128x1xf32, #A> -> tensor<128x64xf32, #A>
    %c = ttg.convert_layout %b : tensor<128x64xf32, #A> -> tensor<128x64xf32, #B>
    tt.store %q, %c : tensor<128x64x!tt.ptr<f32>, #B>
    tt.return
  }
}

// -----

// The loop-carried accumulator takes the load's layout (propagated through the scf.for iteration argument).
// CHECK-LABEL: tt.func public @loop_carried
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<1024xf32, #blocked>)
// CHECK: tt.store %arg1, %{{.*}} : tensor<1024x!tt.ptr<f32>, #blocked>
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#B = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop_carried(%p: tensor<1024x!tt.ptr<f32>, #A>, %q: tensor<1024x!tt.ptr<f32>, #A>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<1024xf32, #B>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<1024xf32, #B>) : i32 {
      %x = tt.load %p : tensor<1024x!tt.ptr<f32>, #A>
      %xb = ttg.convert_layout %x : tensor<1024xf32, #A> -> tensor<1024xf32, #B>
      %s = arith.addf %acc, %xb : tensor<1024xf32, #B>
      scf.yield %s : tensor<1024xf32, #B>
    }
    %ra = ttg.convert_layout %r : tensor<1024xf32, #B> -> tensor<1024xf32, #A>
    tt.store %q, %ra : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Not changed: no conversion.
// CHECK-LABEL: tt.func public @nothing_to_remove
// CHECK-NEXT: %[[X:.*]] = tt.load %arg0
// CHECK-NEXT: %[[Y:.*]] = math.exp %[[X]]
// CHECK-NEXT: tt.store %arg0, %[[Y]]
#A = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nothing_to_remove(%p: tensor<1024x!tt.ptr<f32>, #A>) {
    %x = tt.load %p : tensor<1024x!tt.ptr<f32>, #A>
    %y = math.exp %x : tensor<1024xf32, #A>
    tt.store %p, %y : tensor<1024x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// The pattern driver folds as MLIR's does, in-place folds included: the constant of `0 + n` moves to the right
// (commutative op), then `n + 0` folds to `n` (what triton-loop-unroll's bound arithmetic leaves).
// CHECK-LABEL: tt.func public @fold_commuted
// CHECK-NEXT: tt.return %arg0 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fold_commuted(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %r = arith.addi %c0, %n : i32
    tt.return %r : i32
  }
}
// -----

// A gather without efficient_layout takes the layout around it (its conversions go); one with
// efficient_layout is an anchor and keeps its conversions.
// CHECK-LABEL: tt.func public @gather_plain
// CHECK-NEXT: %[[X:.*]] = tt.load %arg0
// CHECK-NEXT: %[[G:.*]] = tt.gather %[[X]][%arg1] {axis = 1 : i32} : (tensor<32x32xf32, #[[A:.*]]>, tensor<32x32xi32, #[[A]]>) -> tensor<32x32xf32, #[[A]]>
// CHECK-NEXT: tt.store %arg2, %[[G]]
// CHECK-LABEL: tt.func public @gather_efficient
// CHECK: ttg.convert_layout
// CHECK: ttg.convert_layout
// CHECK: tt.gather {{.*}} efficient_layout
// CHECK: ttg.convert_layout
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather_plain(%p: tensor<32x32x!tt.ptr<f32>, #A>, %idx: tensor<32x32xi32, #A>, %q: tensor<32x32x!tt.ptr<f32>, #A>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<f32>, #A>
    %c = ttg.convert_layout %x : tensor<32x32xf32, #A> -> tensor<32x32xf32, #B>
    %i = ttg.convert_layout %idx : tensor<32x32xi32, #A> -> tensor<32x32xi32, #B>
    %g = tt.gather %c[%i] {axis = 1 : i32} : (tensor<32x32xf32, #B>, tensor<32x32xi32, #B>) -> tensor<32x32xf32, #B>
    %o = ttg.convert_layout %g : tensor<32x32xf32, #B> -> tensor<32x32xf32, #A>
    tt.store %q, %o : tensor<32x32x!tt.ptr<f32>, #A>
    tt.return
  }
  tt.func public @gather_efficient(%p: tensor<32x32x!tt.ptr<f32>, #A>, %idx: tensor<32x32xi32, #A>, %q: tensor<32x32x!tt.ptr<f32>, #A>) {
    %x = tt.load %p : tensor<32x32x!tt.ptr<f32>, #A>
    %c = ttg.convert_layout %x : tensor<32x32xf32, #A> -> tensor<32x32xf32, #B>
    %i = ttg.convert_layout %idx : tensor<32x32xi32, #A> -> tensor<32x32xi32, #B>
    %g = tt.gather %c[%i] {axis = 1 : i32, efficient_layout} : (tensor<32x32xf32, #B>, tensor<32x32xi32, #B>) -> tensor<32x32xf32, #B>
    %o = ttg.convert_layout %g : tensor<32x32xf32, #B> -> tensor<32x32xf32, #A>
    tt.store %q, %o : tensor<32x32x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// Reshapes pass layouts through without moving data (Triton's inferReshapeOpEncoding): the load's layout flows
// through the reshape to the hypercube (a blocked layout exists for it), the hypercube's layout back to the
// 4x64 result, and backwards into the 2-element range, for which no blocked layout keeps the elements in place:
// it gets a #ttg.linear one (lane 0 and lane 1 hold its two elements, everything else replicates).
// CHECK-DAG: #[[LD:.*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[CUBE:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1, 1, 1, 2], threadsPerWarp = [1, 1, 2, 2, 2, 2, 2, 1], warpsPerCTA = [2, 2, 1, 1, 1, 1, 1, 1], order = [7, 6, 5, 4, 3, 2, 1, 0]}>
// CHECK-DAG: #[[LIN:.*]] = #ttg.linear<{register = [[0]], lane = [[1], [0], [0], [0], [0]], warp = [[0], [0]], block = []}>
// CHECK-LABEL: tt.func public @cube
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[H:.*]] = tt.reshape %{{.*}} : tensor<4x64xf32, #[[LD]]> -> tensor<2x2x2x2x2x2x2x2xf32, #[[CUBE]]>
// CHECK-NEXT: %[[R:.*]] = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #[[LIN]]>
// CHECK-NEXT: tt.reshape %[[R]] : tensor<2xi32, #[[LIN]]> -> tensor<1x1x1x1x1x1x2x1xi32, #[[CUBE]]>
// CHECK: tt.reshape %{{.*}} : tensor<2x2x2x2x2x2x2x2xf32, #[[CUBE]]> -> tensor<4x64xf32, #[[LD]]>
// CHECK-NEXT: tt.store
#ld = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#d2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#d8 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1, 1, 1, 1], threadsPerWarp = [1, 1, 1, 2, 2, 2, 2, 2], warpsPerCTA = [1, 2, 2, 1, 1, 1, 1, 1], order = [7, 6, 5, 4, 3, 2, 1, 0]}>
#i8 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1, 1, 1, 1], threadsPerWarp = [16, 1, 1, 1, 1, 1, 2, 1], warpsPerCTA = [4, 1, 1, 1, 1, 1, 1, 1], order = [7, 6, 5, 4, 3, 2, 1, 0]}>
#r1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cube(%p: tensor<4x64x!tt.ptr<f32>, #ld>) {
    %x = tt.load %p : tensor<4x64x!tt.ptr<f32>, #ld>
    %xd = ttg.convert_layout %x : tensor<4x64xf32, #ld> -> tensor<4x64xf32, #d2>
    %h = tt.reshape %xd : tensor<4x64xf32, #d2> -> tensor<2x2x2x2x2x2x2x2xf32, #d8>
    %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #r1>
    %ri = tt.reshape %r : tensor<2xi32, #r1> -> tensor<1x1x1x1x1x1x2x1xi32, #i8>
    %rc = ttg.convert_layout %ri : tensor<1x1x1x1x1x1x2x1xi32, #i8> -> tensor<1x1x1x1x1x1x2x1xi32, #d8>
    %rf = arith.sitofp %rc : tensor<1x1x1x1x1x1x2x1xi32, #d8> to tensor<1x1x1x1x1x1x2x1xf32, #d8>
    %rb = tt.broadcast %rf : tensor<1x1x1x1x1x1x2x1xf32, #d8> -> tensor<2x2x2x2x2x2x2x2xf32, #d8>
    %s = arith.addf %h, %rb : tensor<2x2x2x2x2x2x2x2xf32, #d8>
    %b = tt.reshape %s : tensor<2x2x2x2x2x2x2x2xf32, #d8> -> tensor<4x64xf32, #d2>
    %bc = ttg.convert_layout %b : tensor<4x64xf32, #d2> -> tensor<4x64xf32, #ld>
    tt.store %p, %bc : tensor<4x64x!tt.ptr<f32>, #ld>
    tt.return
  }
}

// -----

// Rematerializing a gather changes the layout of its indices and result only (its source keeps its own).
// CHECK-LABEL: tt.func public @gather_remat
// CHECK-NEXT: %[[I:.*]] = arith.constant dense<3> : tensor<32x32xi32, #[[A:.*]]>
// CHECK-NEXT: tt.gather %arg0[%[[I]]] {axis = 1 : i32} : (tensor<32x32xf32, #[[B:.*]]>, tensor<32x32xi32, #[[A]]>) -> tensor<32x32xf32, #[[A]]>
// CHECK-NEXT: tt.store
#A = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather_remat(%src: tensor<32x32xf32, #B>, %q: tensor<32x32x!tt.ptr<f32>, #A>) {
    %idx = arith.constant dense<3> : tensor<32x32xi32, #B>
    %g = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<32x32xf32, #B>, tensor<32x32xi32, #B>) -> tensor<32x32xf32, #B>
    %o = ttg.convert_layout %g : tensor<32x32xf32, #B> -> tensor<32x32xf32, #A>
    tt.store %q, %o : tensor<32x32x!tt.ptr<f32>, #A>
    tt.return
  }
}

// -----

// The persistent-matmul tutorial's epilogue subtiling (reshape of the wgmma accumulator to BM x 2 x BN/2, trans,
// split): the linear layout of the reshape flows through tt.trans (every basis permuted) and tt.split (the
// register basis of the size-2 dimension dropped), as Triton's inferTransOpEncoding / inferSplitOpEncoding give
// it, so no conversion remains; these are Triton's layouts for this kernel.
// CHECK-DAG: #[[L:.*]] = #ttg.linear<{register = {{\[}}[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 1, 0]]
// CHECK-DAG: #[[T:.*]] = #ttg.linear<{register = {{\[}}[0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0], [0, 0, 1]], lane = {{\[}}[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = {{\[}}[16, 0, 0], [32, 0, 0]], block = []}>
// CHECK-DAG: #[[S:.*]] = #ttg.linear<{register = {{\[}}[0, 1], [8, 0], [0, 8], [0, 16]], lane = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[}}[16, 0], [32, 0]], block = []}>
// CHECK-LABEL: tt.func public @subtile
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<64x2x32xf32, #[[L]]> -> tensor<64x32x2xf32, #[[T]]>
// CHECK: tt.split %{{.*}} : tensor<64x32x2xf32, #[[T]]> -> tensor<64x32xf32, #[[S]]>
// CHECK: ttg.local_alloc %{{.*}} : (tensor<64x32xf16, #[[S]]>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#linear = #ttg.linear<{register = [[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 1, 0]], lane = [[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0]], block = []}>
#b3 = #ttg.blocked<{sizePerThread = [1, 2, 8], threadsPerWarp = [8, 1, 4], warpsPerCTA = [4, 1, 1], order = [1, 2, 0]}>
#t3 = #ttg.blocked<{sizePerThread = [1, 8, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @subtile(%acc: tensor<64x64xf32, #mma>, %d: !tt.tensordesc<tensor<64x32xf16, #shared>>, %m: i32) {
    %r = tt.reshape %acc : tensor<64x64xf32, #mma> -> tensor<64x2x32xf32, #linear>
    %c = ttg.convert_layout %r : tensor<64x2x32xf32, #linear> -> tensor<64x2x32xf32, #b3>
    %t = tt.trans %c {order = array<i32: 0, 2, 1>} : tensor<64x2x32xf32, #b3> -> tensor<64x32x2xf32, #t3>
    %lhs, %rhs = tt.split %t : tensor<64x32x2xf32, #t3> -> tensor<64x32xf32, #b2>
    %h0 = arith.truncf %lhs : tensor<64x32xf32, #b2> to tensor<64x32xf16, #b2>
    %a0 = ttg.local_alloc %h0 : (tensor<64x32xf16, #b2>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    ttng.async_tma_copy_local_to_global %d[%m, %m] %a0 : !tt.tensordesc<tensor<64x32xf16, #shared>>, !ttg.memdesc<64x32xf16, #shared, #smem>
    %h1 = arith.truncf %rhs : tensor<64x32xf32, #b2> to tensor<64x32xf16, #b2>
    %a1 = ttg.local_alloc %h1 : (tensor<64x32xf16, #b2>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    ttng.async_tma_copy_local_to_global %d[%m, %m] %a1 : !tt.tensordesc<tensor<64x32xf16, #shared>>, !ttg.memdesc<64x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

// tt.join of two wgmma-layout halves (the attention tutorial's split-and-rescale): the joined tensor's layout is
// the operands' linear layout with a first register basis along the new size-2 dimension (Triton's layout for
// it); the trans and the reshape take linear layouts forward instead of the blocked ones. (The input's layouts are
// ones Triton's verifier takes: each op's result layout is the one it infers from its operand's.)
// CHECK-DAG: #[[J:.*]] = #ttg.linear<{register = {{\[}}[0, 0, 1], [0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0]], lane = {{\[}}[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = {{\[}}[16, 0, 0], [32, 0, 0]], block = []}>
// CHECK-LABEL: tt.func public @join_back
// CHECK: tt.join %arg0, %arg1 : tensor<64x32xf32, #mma> -> tensor<64x32x2xf32, #[[J]]>
// CHECK-NEXT: tt.trans %{{.*}} -> tensor<64x2x32xf32, #linear
// CHECK-NEXT: tt.reshape %{{.*}} -> tensor<64x64xf32, #linear
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#t3 = #ttg.blocked<{sizePerThread = [1, 2, 1], threadsPerWarp = [8, 1, 4], warpsPerCTA = [4, 1, 1], order = [1, 2, 0]}>
#b2 = #ttg.linear<{register = [[0, 32], [0, 4], [0, 8], [0, 16], [32, 0]], lane = [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#s2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @join_back(%x0: tensor<64x32xf32, #mma>, %y0: tensor<64x32xf32, #mma>) -> tensor<64x64xf32, #mma1> {
    %x = ttg.convert_layout %x0 : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #s2>
    %y = ttg.convert_layout %y0 : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #s2>
    %j = tt.join %x, %y : tensor<64x32xf32, #s2> -> tensor<64x32x2xf32, #b3>
    %t = tt.trans %j {order = array<i32: 0, 2, 1>} : tensor<64x32x2xf32, #b3> -> tensor<64x2x32xf32, #t3>
    %r = tt.reshape %t : tensor<64x2x32xf32, #t3> -> tensor<64x64xf32, #b2>
    %c = ttg.convert_layout %r : tensor<64x64xf32, #b2> -> tensor<64x64xf32, #mma1>
    tt.return %c : tensor<64x64xf32, #mma1>
  }
}

// -----

// A conversion between MMA v3 layouts that differ only in instrShape N moves registers only (Triton's
// isFreeConvert, by linear layouts): the backward slice of the final conversion goes through it to a function
// argument, which cannot change layout, so nothing is rematerialized.
// CHECK-LABEL: tt.func public @free_convert
// CHECK-NEXT: %[[F:.*]] = ttg.convert_layout %arg0 : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma1>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %arg1 : tensor<64x1xf32, #mma1> -> tensor<64x128xf32, #mma1>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[F]], %[[B]] : tensor<64x128xf32, #mma1>
// CHECK-NEXT: ttg.convert_layout %[[M]] : tensor<64x128xf32, #mma1> -> tensor<64x128xf32, #blocked>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @free_convert(%acc: tensor<64x128xf32, #mma1>, %row: tensor<64x1xf32, #mma>) -> tensor<64x128xf32, #blocked> {
    %0 = ttg.convert_layout %acc : tensor<64x128xf32, #mma1> -> tensor<64x128xf32, #mma>
    %1 = tt.broadcast %row : tensor<64x1xf32, #mma> -> tensor<64x128xf32, #mma>
    %2 = arith.mulf %0, %1 : tensor<64x128xf32, #mma>
    %3 = ttg.convert_layout %2 : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #blocked>
    tt.return %3 : tensor<64x128xf32, #blocked>
  }
}


// -----

// tt.split of a blocked layout holding the size-2 minor dimension in registers drops it whatever the order
// (Triton's inferSplitOpEncoding): the argument's layout flows through, and the split's users follow.
// CHECK-DAG: #[[S:.*]] = #ttg.blocked<{sizePerThread = [2, 1, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [1, 0, 2]}>
// CHECK-DAG: #[[H:.*]] = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @split_any_order
// CHECK-NEXT: %[[L:.*]], %[[R:.*]] = tt.split %arg0 : tensor<32x16x2xf16, #[[S]]> -> tensor<32x16xf16, #[[H]]>
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[L]], %[[R]] : tensor<32x16xf16, #[[H]]>
// CHECK-NEXT: ttg.convert_layout %[[A]]
#src = #ttg.blocked<{sizePerThread = [2, 1, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [1, 0, 2]}>
#mid = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#out = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split_any_order(%x: tensor<32x16x2xf16, #src>) -> tensor<32x16xf16, #out> {
    %0 = ttg.convert_layout %x : tensor<32x16x2xf16, #src> -> tensor<32x16x2xf16, #mid>
    %a, %b = tt.split %0 : tensor<32x16x2xf16, #mid> -> tensor<32x16xf16, #out>
    %1 = arith.addf %a, %b : tensor<32x16xf16, #out>
    tt.return %1 : tensor<32x16xf16, #out>
  }
}


// -----

// Only a gather's indices carry their layout to its result, and a conversion of its source goes (the source
// goes through shared memory): the gather takes the indices argument's layout, its source as it is.
// CHECK-LABEL: tt.func public @gather_indices_layout
// CHECK-NEXT: %[[G:.*]] = tt.gather %arg0[%arg1] {axis = 0 : i32} : (tensor<64x32xf32, #blocked>, tensor<256x32xi32, #blocked1>) -> tensor<256x32xf32, #blocked1>
// CHECK-NEXT: ttg.convert_layout %[[G]] : tensor<256x32xf32, #blocked1> -> tensor<256x32xf32, #blocked>
#src = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#idx = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather_indices_layout(%src: tensor<64x32xf32, #src>, %idx: tensor<256x32xi32, #idx>) -> tensor<256x32xf32, #src> {
    %0 = ttg.convert_layout %idx : tensor<256x32xi32, #idx> -> tensor<256x32xi32, #other>
    %1 = tt.gather %src[%0] {axis = 0 : i32} : (tensor<64x32xf32, #src>, tensor<256x32xi32, #other>) -> tensor<256x32xf32, #other>
    %2 = ttg.convert_layout %1 : tensor<256x32xf32, #other> -> tensor<256x32xf32, #src>
    tt.return %2 : tensor<256x32xf32, #src>
  }
}


// -----

// A dot operand conversion is hoisted to the load over a pure inline asm (no data moves between threads);
// not over one with side effects.
// CHECK-LABEL: tt.func public @hoist_over_pure_asm
// CHECK-NEXT: %[[L:.*]] = tt.load %arg0
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<32x32xi8, #blocked> -> tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: tt.elementwise_inline_asm {{.*}} %[[C]] : tensor<32x32xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-LABEL: tt.func public @not_over_impure_asm
// CHECK-NEXT: %[[L:.*]] = tt.load %arg0
// CHECK-NEXT: %[[A:.*]] = tt.elementwise_inline_asm {{.*}} pure = false} %[[L]] : tensor<32x32xi8, #blocked> -> tensor<32x32xf16, #blocked>
// CHECK-NEXT: ttg.convert_layout %[[A]] : tensor<32x32xf16, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hoist_over_pure_asm(%p: tensor<32x32x!tt.ptr<i8>, #blocked> {tt.divisibility = 16 : i32, tt.contiguity = 4 : i32}, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
    %0 = tt.load %p : tensor<32x32x!tt.ptr<i8>, #blocked>
    %1 = tt.elementwise_inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;" {constraints = "=r,r", packed_element = 2 : i32, pure = true} %0 : tensor<32x32xi8, #blocked> -> tensor<32x32xf16, #blocked>
    %2 = ttg.convert_layout %1 : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %3 = tt.dot %2, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %3 : tensor<32x32xf32, #mma>
  }
  tt.func public @not_over_impure_asm(%p: tensor<32x32x!tt.ptr<i8>, #blocked> {tt.divisibility = 16 : i32, tt.contiguity = 4 : i32}, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #mma> {
    %0 = tt.load %p : tensor<32x32x!tt.ptr<i8>, #blocked>
    %1 = tt.elementwise_inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;" {constraints = "=r,r", packed_element = 2 : i32, pure = false} %0 : tensor<32x32xi8, #blocked> -> tensor<32x32xf16, #blocked>
    %2 = ttg.convert_layout %1 : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %3 = tt.dot %2, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %3 : tensor<32x32xf32, #mma>
  }
}


// -----

// fp4_to_fp into a #ttg.linear layout: its operand's layout is inferred backwards as a linear layout (the
// register basis of 1 along the axis dropped, the others halved), so the conversion goes into the constant.
// CHECK-DAG: #[[OUT:.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[\[}}0, 16], [0, 32]], block = []}>
// CHECK-DAG: #[[IN:.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[\[}}0, 8], [0, 16]], block = []}>
// CHECK-LABEL: tt.func public @fp4_to_linear
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<17> : tensor<32x32xi8, #[[IN]]>
// CHECK-NEXT: %[[F:.*]] = ttg.fp4_to_fp %[[C]] {axis = 1 : i32} : tensor<32x32xi8, #[[IN]]> -> tensor<32x64xbf16, #[[OUT]]>
// CHECK-NEXT: tt.return %[[F]]
#i8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#f16 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 16], [0, 32]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp4_to_linear() -> tensor<32x64xbf16, #linear> {
    %0 = arith.constant dense<17> : tensor<32x32xi8, #i8>
    %1 = ttg.fp4_to_fp %0 {axis = 1 : i32} : tensor<32x32xi8, #i8> -> tensor<32x64xbf16, #f16>
    %2 = ttg.convert_layout %1 : tensor<32x64xbf16, #f16> -> tensor<32x64xbf16, #linear>
    tt.return %2 : tensor<32x64xbf16, #linear>
  }
}


// -----

// A join of two slices (along the new dimension) of a layout whose split gives them back yields that layout
// (Triton's inferDefaultJoinOpEncoding): the conversion after the join goes.
// CHECK-LABEL: tt.func public @join_of_slices
// CHECK-NEXT: %[[J:.*]] = tt.join %arg0, %arg1 : tensor<64x16xf32, #ttg.slice<{dim = 2, parent = #blocked}>> -> tensor<64x16x2xf32, #blocked>
// CHECK-NEXT: tt.return %[[J]]
#j = #ttg.blocked<{sizePerThread = [2, 2, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [1, 0, 2]}>
#k = #ttg.blocked<{sizePerThread = [2, 2, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @join_of_slices(%a: tensor<64x16xf32, #ttg.slice<{dim = 2, parent = #j}>>, %b: tensor<64x16xf32, #ttg.slice<{dim = 2, parent = #j}>>) -> tensor<64x16x2xf32, #j> {
    %0 = tt.join %a, %b : tensor<64x16xf32, #ttg.slice<{dim = 2, parent = #j}>> -> tensor<64x16x2xf32, #k>
    %1 = ttg.convert_layout %0 : tensor<64x16x2xf32, #k> -> tensor<64x16x2xf32, #j>
    tt.return %1 : tensor<64x16x2xf32, #j>
  }
}

// -----

// Hoisting a conversion above an extension (Triton 3.6's hoistConvertOnTopOfExtOrBroadcast) asks no cost model:
// the store in #B2 gets trunci(addi(extsi(convert %x), %y)) recomputed in #B2 from the narrower i32 load, even
// though the #B1 chain stays for the other store (the conversion of the i32 costs as much as the one it replaces,
// and the recomputed addi and trunci come on top).
// CHECK-DAG: #[[B1:.*]] = #ttg.blocked<{sizePerThread = [1]
// CHECK-DAG: #[[B2:.*]] = #ttg.blocked<{sizePerThread = [2]
// CHECK-LABEL: tt.func @hoist_above_ext_without_cost_model
// CHECK: %[[Y:.*]] = tt.load %arg1
// CHECK: %[[X:.*]] = tt.load %arg0
// CHECK: %[[XC:.*]] = ttg.convert_layout %[[X]] : tensor<1024xi32, #[[B1]]> -> tensor<1024xi32, #[[B2]]>
// CHECK: %[[E:.*]] = arith.extsi %[[XC]] : tensor<1024xi32, #[[B2]]> to tensor<1024xi64, #[[B2]]>
// CHECK: %[[A:.*]] = arith.addi %[[E]], %[[Y]] : tensor<1024xi64, #[[B2]]>
// CHECK: %[[T:.*]] = arith.trunci %[[A]] : tensor<1024xi64, #[[B2]]> to tensor<1024xi32, #[[B2]]>
// CHECK: tt.store %arg3, %[[T]] : tensor<1024x!tt.ptr<i32>, #[[B2]]>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_above_ext_without_cost_model(%p: tensor<1024x!tt.ptr<i32>, #b1>, %q: tensor<1024x!tt.ptr<i64>, #b2>,
                                              %o1: tensor<1024x!tt.ptr<i32>, #b1>, %o2: tensor<1024x!tt.ptr<i32>, #b2>) {
    %y = tt.load %q : tensor<1024x!tt.ptr<i64>, #b2>
    %x = tt.load %p : tensor<1024x!tt.ptr<i32>, #b1>
    %yc = ttg.convert_layout %y : tensor<1024xi64, #b2> -> tensor<1024xi64, #b1>
    %e = arith.extsi %x : tensor<1024xi32, #b1> to tensor<1024xi64, #b1>
    %a = arith.addi %e, %yc : tensor<1024xi64, #b1>
    %t = arith.trunci %a : tensor<1024xi64, #b1> to tensor<1024xi32, #b1>
    tt.store %o1, %t : tensor<1024x!tt.ptr<i32>, #b1>
    %tc = ttg.convert_layout %t : tensor<1024xi32, #b1> -> tensor<1024xi32, #b2>
    tt.store %o2, %tc : tensor<1024x!tt.ptr<i32>, #b2>
    tt.return
  }
}

// -----

// Backward rematerialization never duplicates a float reduction over more than 2 elements that adds or
// multiplies (Triton's ReduceOpHelper::isAssociative: two copies could round differently): the sum keeps its
// conversion, the max is recomputed in the target layout.
// CHECK-LABEL: tt.func @remat_skips_float_sum
// CHECK: %[[R:.*]] = "tt.reduce"
// CHECK: arith.addf
// CHECK-NOT: "tt.reduce"
// CHECK: ttg.convert_layout %[[R]]
// CHECK-LABEL: tt.func @remat_recomputes_float_max
// CHECK: "tt.reduce"
// CHECK: "tt.reduce"
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @remat_skips_float_sum(%p1: tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>, %p2: tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b3}>>) {
    %x = arith.constant dense<1.000000e+00> : tensor<32x16xf32, #b>
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %s = arith.addf %a, %c : f32
      tt.reduce.return %s : f32
    }) : (tensor<32x16xf32, #b>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.store %p1, %r : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    %rc = ttg.convert_layout %r : tensor<32xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #b3}>>
    tt.store %p2, %rc : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b3}>>
    tt.return
  }
  tt.func @remat_recomputes_float_max(%p1: tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>, %p2: tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b3}>>) {
    %x = arith.constant dense<1.000000e+00> : tensor<32x16xf32, #b>
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %s = arith.maxnumf %a, %c : f32
      tt.reduce.return %s : f32
    }) : (tensor<32x16xf32, #b>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.store %p1, %r : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    %rc = ttg.convert_layout %r : tensor<32xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #b3}>>
    tt.store %p2, %rc : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b3}>>
    tt.return
  }
}
