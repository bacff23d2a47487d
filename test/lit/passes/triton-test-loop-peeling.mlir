// RUN: tt-opt %s -split-input-file -triton-test-loop-peeling | FileCheck %s

// The last iteration of a marked loop runs after it, in an scf.if on lb < ub, with the last induction value
// (ub - lb - 1) / step * step + lb and the loop's results for its iteration arguments; the loop stops one
// step earlier and later uses take the if's results.
// CHECK-LABEL: tt.func public @peel_one
// CHECK: %[[NUB:.*]] = arith.subi %arg1, %arg2 : i32
// CHECK-NEXT: %[[FOR:.*]] = scf.for %{{.*}} = %arg0 to %[[NUB]] step %arg2 iter_args(%{{.*}} = %cst) -> (f32)
// CHECK: } {__test_peel_epilogue}
// CHECK-NEXT: %[[R:.*]] = arith.subi %arg1, %arg0 : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[R1:.*]] = arith.subi %[[R]], %[[ONE]] : i32
// CHECK-NEXT: %[[N1:.*]] = arith.divsi %[[R1]], %arg2 : i32
// CHECK-NEXT: %[[D:.*]] = arith.muli %[[N1]], %arg2 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[D]], %arg0 : i32
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK-NEXT: %[[IF:.*]] = scf.if %[[C]] -> (f32) {
// CHECK-NEXT: %[[X:.*]] = arith.sitofp %[[LAST]] : i32 to f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[FOR]], %[[X]] : f32
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[FOR]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[IF]] : f32
tt.func public @peel_one(%lb: i32, %ub: i32, %step: i32) -> f32 {
  %init = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %init) -> (f32) : i32 {
    %x = arith.sitofp %i : i32 to f32
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  } {__test_peel_epilogue}
  tt.return %r : f32
}

// -----

// A loop without results over index: an if without results (its else just yields).
// CHECK-LABEL: tt.func public @index_no_results
// CHECK: arith.subi %arg1, %c2 : index
// CHECK: arith.constant 1 : index
// CHECK: %[[LAST:.*]] = arith.addi %{{.*}}, %c0 : index
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[V:.*]] = arith.index_cast %[[LAST]] : index to i32
// CHECK-NEXT: tt.store %arg0, %[[V]] : !tt.ptr<i32>
// CHECK-NEXT: } else {
// CHECK-NEXT: }
tt.func public @index_no_results(%p: !tt.ptr<i32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %n step %c2 {
    %v = arith.index_cast %i : index to i32
    tt.store %p, %v : !tt.ptr<i32>
  } {__test_peel_epilogue}
  tt.return
}

// -----

// Unmarked loops stay as they are.
// CHECK-LABEL: tt.func public @unmarked
// CHECK-NOT: scf.if
// CHECK: scf.for %{{.*}} = %arg0 to %arg1 step %arg2
// CHECK-NOT: scf.if
tt.func public @unmarked(%lb: i32, %ub: i32, %step: i32, %p: !tt.ptr<i32>) {
  scf.for %i = %lb to %ub step %step : i32 {
    tt.store %p, %i : !tt.ptr<i32>
  }
  tt.return
}

// -----

// Nested marked loops: the inner one is peeled first (its if in the outer body), then the outer one; the
// inner loop in the outer's peeled copy is not peeled again.
// CHECK-LABEL: tt.func public @nested
// CHECK: scf.for
// CHECK: scf.for
// CHECK: } {__test_peel_epilogue}
// CHECK: scf.if
// CHECK: } {__test_peel_epilogue}
// CHECK: scf.if
// CHECK-NEXT: arith.subi
// CHECK-NEXT: scf.for
// CHECK: } {__test_peel_epilogue}
// CHECK: scf.if
// CHECK-NOT: scf.if
// CHECK: tt.return
tt.func public @nested(%lb: i32, %ub: i32, %s: i32) -> i32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %lb) -> (i32) : i32 {
    %q = scf.for %j = %lb to %ub step %s iter_args(%b = %a) -> (i32) : i32 {
      %x = arith.addi %b, %j : i32
      scf.yield %x : i32
    } {__test_peel_epilogue}
    scf.yield %q : i32
  } {__test_peel_epilogue}
  tt.return %r : i32
}
