// RUN: tt-opt %s -split-input-file -loop-invariant-code-motion | FileCheck %s

// Invariant pure ops (a whole chain of them) leave the loop; ops using the induction variable or the
// loop-carried value stay.
// CHECK-LABEL: tt.func public @invariant_chain
// CHECK: %[[R:.*]] = tt.make_range
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg1 : i32 -> tensor<16xi32>
// CHECK-NEXT: %[[O:.*]] = arith.addi %[[R]], %[[S]] : tensor<16xi32>
// CHECK-NEXT: scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NEXT: %[[IS:.*]] = tt.splat %[[I]] : i32 -> tensor<16xi32>
// CHECK-NEXT: %[[X:.*]] = arith.addi %[[O]], %[[IS]] : tensor<16xi32>
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[ACC]], %[[X]] : tensor<16xi32>
// CHECK-NEXT: scf.yield %[[Y]] : tensor<16xi32>
tt.func public @invariant_chain(%n: i32, %k: i32, %init: tensor<16xi32>) -> tensor<16xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<16xi32>)  : i32 {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %s = tt.splat %k : i32 -> tensor<16xi32>
    %o = arith.addi %r, %s : tensor<16xi32>
    %is = tt.splat %i : i32 -> tensor<16xi32>
    %x = arith.addi %o, %is : tensor<16xi32>
    %y = arith.addi %acc, %x : tensor<16xi32>
    scf.yield %y : tensor<16xi32>
  }
  tt.return %res : tensor<16xi32>
}

// -----

// A load from an invariant pointer stays in the loop (it reads memory and the loop may not run);
// the pointer arithmetic feeding it leaves. Stores never move.
// CHECK-LABEL: tt.func public @loads_and_stores_stay
// CHECK: %[[P:.*]] = tt.addptr
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[V:.*]] = tt.load %[[P]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %[[P]], %[[V]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: }
tt.func public @loads_and_stores_stay(%p: tensor<16x!tt.ptr<f32>>, %off: tensor<16xi32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1  : i32 {
    %q = tt.addptr %p, %off : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %v = tt.load %q : tensor<16x!tt.ptr<f32>>
    tt.store %q, %v : tensor<16x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Nested loops: what is invariant in both leaves both; what uses the outer induction variable leaves
// only the inner loop.
// CHECK-LABEL: tt.func public @nested
// CHECK: %[[K2:.*]] = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT: scf.for %[[I:[a-z0-9]+]] =
// CHECK-NEXT: %[[IK:.*]] = arith.addi %[[I]], %[[K2]] : i32
// CHECK-NEXT: %[[SP:.*]] = tt.splat %[[IK]] : i32 -> tensor<16xi32>
// CHECK-NEXT: scf.for %[[J:[a-z0-9]+]] =
// CHECK-NEXT: %[[JS:.*]] = tt.splat %[[J]] : i32 -> tensor<16xi32>
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[SP]], %[[JS]] : tensor<16xi32>
// CHECK-NEXT: tt.store %arg2, %[[A]]
tt.func public @nested(%n: i32, %k: i32, %p: tensor<16x!tt.ptr<i32>>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1  : i32 {
    scf.for %j = %c0 to %n step %c1  : i32 {
      %k2 = arith.muli %k, %k : i32
      %ik = arith.addi %i, %k2 : i32
      %sp = tt.splat %ik : i32 -> tensor<16xi32>
      %js = tt.splat %j : i32 -> tensor<16xi32>
      %a = arith.addi %sp, %js : tensor<16xi32>
      tt.store %p, %a : tensor<16x!tt.ptr<i32>>
    }
  }
  tt.return
}

// -----

// scf.while: invariant ops leave both the condition region and the body.
// CHECK-LABEL: tt.func public @while_loop
// CHECK: %[[LIM:.*]] = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT: %[[STEP:.*]] = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT: scf.while (%[[X:.*]] = %arg0) : (i32) -> i32 {
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[X]], %[[LIM]] : i32
// CHECK-NEXT: scf.condition(%[[C]]) %[[X]] : i32
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[Y:.*]]: i32):
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[Y]], %[[STEP]] : i32
// CHECK-NEXT: scf.yield %[[N]] : i32
tt.func public @while_loop(%init: i32, %k: i32) -> i32 {
  %r = scf.while (%x = %init) : (i32) -> i32 {
    %lim = arith.muli %k, %k : i32
    %c = arith.cmpi slt, %x, %lim : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: i32):
    %step = arith.addi %k, %k : i32
    %n = arith.addi %y, %step : i32
    scf.yield %n : i32
  }
  tt.return %r : i32
}

// -----

// Speculation: dividing by a value that may be zero cannot run ahead of a loop that may not run;
// dividing by a non-zero constant can.
// CHECK-LABEL: tt.func public @division
// CHECK: arith.divsi %arg1, %c4_i32 : i32
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.divsi %arg1, %arg2 : i32
tt.func public @division(%n: i32, %a: i32, %b: i32, %p: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %n step %c1  : i32 {
    %q = arith.divsi %a, %c4 : i32
    %d = arith.divsi %a, %b : i32
    %s = arith.addi %q, %d : i32
    tt.store %p, %s : !tt.ptr<i32>
  }
  tt.return
}

// -----

// An scf.if on an invariant condition with pure branches moves as a whole; one that loads stays.
// CHECK-LABEL: tt.func public @region_ops
// CHECK: %[[SEL:.*]] = scf.if %arg1 -> (i32) {
// CHECK: scf.for
// CHECK-NEXT: %[[LD:.*]] = scf.if %arg1 -> (i32) {
// CHECK-NEXT: tt.load
tt.func public @region_ops(%n: i32, %c: i1, %a: i32, %p: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1  : i32 {
    %sel = scf.if %c -> (i32) {
      %m = arith.muli %a, %a : i32
      scf.yield %m : i32
    } else {
      scf.yield %a : i32
    }
    %ld = scf.if %c -> (i32) {
      %v = tt.load %p : !tt.ptr<i32>
      scf.yield %v : i32
    } else {
      scf.yield %a : i32
    }
    %s = arith.addi %sel, %ld : i32
    tt.store %p, %s : !tt.ptr<i32>
  }
  tt.return
}

// -----

// Nothing is invariant: the loop comes out unchanged.
// CHECK-LABEL: tt.func public @nothing_to_hoist
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[R:.*]] = scf.for %[[I:.*]] = %[[C0]] to %arg0 step %[[C1]] iter_args(%[[A:.*]] = %[[C0]]) -> (i32)  : i32 {
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[I]] : i32
// CHECK-NEXT: scf.yield %[[S]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]] : i32
tt.func public @nothing_to_hoist(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32)  : i32 {
    %s = arith.addi %a, %i : i32
    scf.yield %s : i32
  }
  tt.return %r : i32
}
