// RUN: tt-opt %s -split-input-file -triton-loop-unroll | FileCheck %s

// Trip count 4, factor 2: no epilogue, the step becomes a new constant 2, and the second copy of the body
// takes iv + 1 * step and the first copy's sum.
// CHECK-LABEL: tt.func public @static_even
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[STEP:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[R:.*]] = scf.for %[[I:.*]] = %c0_i32 to %c8_i32 step %[[STEP]] iter_args(%[[ACC:.*]] = %[[Z]]) -> (f32)  : i32 {
// CHECK-NEXT: %[[Q:.*]] = tt.addptr %arg0, %[[I]]
// CHECK-NEXT: %[[V:.*]] = tt.load %[[Q]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %[[C1]], %[[K]] : i32
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[I]], %[[STRIDE]] : i32
// CHECK-NEXT: %[[Q1:.*]] = tt.addptr %arg0, %[[I1]]
// CHECK-NEXT: %[[V1:.*]] = tt.load %[[Q1]]
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S]], %[[V1]] : f32
// CHECK-NEXT: scf.yield %[[S1]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]] : f32
tt.func public @static_even(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (f32)  : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : f32
}

// -----

// Trip count 7, factor 3: the main loop runs to 6 (three copies, attributes kept but the unroll factor), the
// one-iteration epilogue is replaced by its body at iv = 6.
// CHECK-LABEL: tt.func public @static_epilogue
// CHECK: %[[UB:.*]] = arith.constant 6 : i32
// CHECK-NEXT: %[[STEP:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[R:.*]] = scf.for %{{.*}} = %c0_i32 to %[[UB]] step %[[STEP]]
// CHECK-COUNT-3: tt.load
// CHECK: } {tt.num_stages = 3 : i32}
// CHECK-NEXT: %[[Q:.*]] = tt.addptr %arg0, %[[UB]] : !tt.ptr<f32>, i32
// CHECK-NEXT: %[[V:.*]] = tt.load %[[Q]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[R]], %[[V]] : f32
// CHECK-NEXT: tt.return %[[S]] : f32
tt.func public @static_epilogue(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c7 step %c1 iter_args(%acc = %z) -> (f32)  : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 3 : i32, tt.num_stages = 3 : i32}
  tt.return %r : f32
}

// -----

// Dynamic bounds (index type, two iteration values): the unrolled bounds are computed before the loop, the
// epilogue loop continues from the main loop's results, takes over their uses and is not pipelined.
// CHECK-LABEL: tt.func public @dynamic
// CHECK: %[[DIFF:.*]] = arith.subi %arg1, %c0 : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[SM1:.*]] = arith.subi %c3, %[[ONE]] : index
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[DIFF]], %[[SM1]] : index
// CHECK-NEXT: %[[TRIP:.*]] = arith.divui %[[SUM]], %c3 : index
// CHECK-NEXT: %[[F:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[REM:.*]] = arith.remsi %[[TRIP]], %[[F]] : index
// CHECK-NEXT: %[[EVEN:.*]] = arith.subi %[[TRIP]], %[[REM]] : index
// CHECK-NEXT: %[[SPAN:.*]] = arith.muli %[[EVEN]], %c3 : index
// CHECK-NEXT: %[[UB:.*]] = arith.addi %c0, %[[SPAN]] : index
// CHECK-NEXT: %[[STEP:.*]] = arith.muli %c3, %[[F]] : index
// CHECK-NEXT: %[[MAIN:.*]]:2 = scf.for %{{.*}} = %c0 to %[[UB]] step %[[STEP]] iter_args(
// CHECK-COUNT-3: tt.load
// CHECK: %[[EPI:.*]]:2 = scf.for %{{.*}} = %[[UB]] to %arg1 step %c3 iter_args(%{{.*}} = %[[MAIN]]#0, %{{.*}} = %[[MAIN]]#1) -> (f32, i32) {
// CHECK-NEXT: tt.load
// CHECK-NOT: tt.load
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: %[[U:.*]] = arith.addf %[[EPI]]#0, %[[EPI]]#0 : f32
// CHECK-NEXT: tt.return %[[U]], %[[EPI]]#1 : f32, i32
tt.func public @dynamic(%p: !tt.ptr<f32>, %n: index) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.000000e+00 : f32
  %k = arith.constant 0 : i32
  %r:2 = scf.for %i = %c0 to %n step %c3 iter_args(%acc = %z, %cnt = %k) -> (f32, i32) {
    %v = tt.load %p : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    %c1 = arith.constant 1 : i32
    %t = arith.addi %cnt, %c1 : i32
    scf.yield %s, %t : f32, i32
  } {tt.loop_unroll_factor = 3 : i32}
  %u = arith.addf %r#0, %r#0 : f32
  tt.return %u, %r#1 : f32, i32
}

// -----

// Trip count 2, factor 2: the unrolled loop runs once and is replaced by its two bodies.
// CHECK-LABEL: tt.func public @fully_unrolled
// CHECK-NOT: scf.for
// CHECK: %[[Q0:.*]] = tt.addptr %arg0, %c0_i32
// CHECK-NEXT: %[[V0:.*]] = tt.load %[[Q0]]
// CHECK-NEXT: %[[S0:.*]] = arith.addf %cst, %[[V0]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %c2_i32, %[[K]] : i32
// CHECK-NEXT: %[[I1:.*]] = arith.addi %c0_i32, %[[STRIDE]] : i32
// CHECK-NEXT: %[[Q1:.*]] = tt.addptr %arg0, %[[I1]]
// CHECK-NEXT: %[[V1:.*]] = tt.load %[[Q1]]
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[S0]], %[[V1]] : f32
// CHECK-NEXT: tt.return %[[S1]] : f32
tt.func public @fully_unrolled(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c2 = arith.constant 2 : i32
  %z = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c4 step %c2 iter_args(%acc = %z) -> (f32)  : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : f32
}

// -----

// Trip count 3, factor 4: the main loop would not run and is erased; the epilogue does all the work.
// CHECK-LABEL: tt.func public @factor_above_trip_count
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[LB:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.constant 4 : i32
// CHECK-NEXT: scf.for %{{.*}} = %[[LB]] to %c3_i32 step %c1_i32  : i32 {
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return
tt.func public @factor_above_trip_count(%p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.000000e+00 : f32
  scf.for %i = %c0 to %c3 step %c1  : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %z : !tt.ptr<f32>
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return
}

// -----

// Not unrolled: a factor of 1 (the attribute stays), no attribute, an empty body (the attribute goes).
// CHECK-LABEL: tt.func public @not_unrolled
// CHECK: scf.for
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.loop_unroll_factor = 1 : i32}
// CHECK-NEXT: scf.for
// CHECK-NEXT: tt.store
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %{{.*}} = %c0_i32 to %c10_i32 step %c1_i32  : i32 {
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @not_unrolled(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.000000e+00 : f32
  scf.for %i = %c0 to %n step %c1  : i32 {
    tt.store %p, %z : !tt.ptr<f32>
  } {tt.loop_unroll_factor = 1 : i32}
  scf.for %i = %c0 to %n step %c1  : i32 {
    tt.store %p, %z : !tt.ptr<f32>
  }
  scf.for %i = %c0 to %c10 step %c1  : i32 {
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return
}

// -----

// Inner loops are unrolled first; the outer loop's copies hold the unrolled inner loop.
// CHECK-LABEL: tt.func public @nested
// CHECK: scf.for %[[I:.*]] = %c0_i32 to %{{.*}} step %{{.*}}  : i32 {
// CHECK-NEXT: %[[S:.*]] = arith.constant 2 : i32
// CHECK-NEXT: scf.for %{{.*}} = %c0_i32 to %c4_i32 step %[[S]]  : i32 {
// CHECK-COUNT-2: tt.store
// CHECK: }
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK-NEXT: arith.constant 2 : i32
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.addi %[[I1]]
// CHECK-COUNT-2: tt.store
// CHECK: scf.for
// CHECK-COUNT-2: tt.store
// CHECK: } {tt.num_stages = 1 : i32}
tt.func public @nested(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.000000e+00 : f32
  scf.for %i = %c0 to %n step %c1  : i32 {
    scf.for %j = %c0 to %c4 step %c1  : i32 {
      %k = arith.addi %i, %j : i32
      %q = tt.addptr %p, %k : !tt.ptr<f32>, i32
      tt.store %q, %z : !tt.ptr<f32>
    } {tt.loop_unroll_factor = 2 : i32}
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return
}
