// RUN: tt-opt %s -split-input-file -triton-loop-aware-cse -allow-unregistered-dialect | FileCheck %s

// Two iteration arguments with the same initial value whose yields are the same expression of them (%a + 32,
// %b + 32) are one value: the second's uses take the first, and the loop keeps one argument and one result.
// Equal initial values computed twice outside the loop are made one by the CSE that runs first.
// CHECK-LABEL: tt.func public @merged
// CHECK: %[[X1:.*]] = arith.addi %arg0, %c1_i32 : i32
// CHECK-NEXT: %[[R:.*]] = scf.for %{{[^ ]+}} = %c0_i32 to %arg1 step %c1_i32 iter_args(%[[A:[^ ]+]] = %[[X1]]) -> (i32)
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[A]], %c32_i32 : i32
// CHECK-NEXT: tt.store %arg2, %[[A]]
// CHECK-NEXT: tt.store %arg3, %[[A]]
// CHECK-NEXT: scf.yield %[[Y]] : i32
// CHECK: tt.store %arg2, %[[R]]
// CHECK-NEXT: tt.store %arg3, %[[R]]
tt.func public @merged(%x: i32, %n: i32, %p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %x1 = arith.addi %x, %c1 : i32
  %x2 = arith.addi %x, %c1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x1, %b = %x2) -> (i32, i32) : i32 {
    %a2 = arith.addi %a, %c32 : i32
    %b2 = arith.addi %b, %c32 : i32
    tt.store %p, %a : !tt.ptr<i32>
    tt.store %q, %b : !tt.ptr<i32>
    scf.yield %a2, %b2 : i32, i32
  }
  tt.store %p, %r#0 : !tt.ptr<i32>
  tt.store %q, %r#1 : !tt.ptr<i32>
  tt.return
}

// -----

// Mutually dependent pairs: %a0 and %a1 are equal if %b0 and %b1 are, and those are if %a0 and %a1 are; assuming
// it of both pairs holds, so each pair is merged.
// CHECK-LABEL: tt.func public @mutual
// CHECK: scf.for {{.*}} iter_args(%[[A:[^ ]+]] = %arg0, %[[B:[^ ]+]] = %arg0) -> (i32, i32)
// CHECK-NEXT: %[[NA:.*]] = arith.addi %[[B]], %c1_i32 : i32
// CHECK-NEXT: %[[NB:.*]] = arith.addi %[[A]], %c3_i32 : i32
// CHECK-NEXT: scf.yield %[[NA]], %[[NB]] : i32, i32
// CHECK: tt.store %arg2, %[[R:.*]]#1
// CHECK-NEXT: tt.store %arg3, %[[R]]#1
tt.func public @mutual(%x: i32, %n: i32, %p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %x, %a1 = %x, %b0 = %x, %b1 = %x) -> (i32, i32, i32, i32) : i32 {
    %na0 = arith.addi %b0, %c1 : i32
    %na1 = arith.addi %b1, %c1 : i32
    %nb0 = arith.addi %a0, %c3 : i32
    %nb1 = arith.addi %a1, %c3 : i32
    scf.yield %na0, %na1, %nb0, %nb1 : i32, i32, i32, i32
  }
  tt.store %p, %r#2 : !tt.ptr<i32>
  tt.store %q, %r#3 : !tt.ptr<i32>
  tt.return
}

// -----

// The same pairs, but %a0 and %a1 add different constants: neither pair is equal (from the second iteration %b0
// and %b1 differ too, though their yields look alike once %a0 = %a1 is assumed); all four arguments stay.
// CHECK-LABEL: tt.func public @mutual_different
// CHECK: %[[R:.*]]:4 = scf.for {{.*}} iter_args(%{{[^ ]+}} = %arg0, %{{[^ ]+}} = %arg0, %{{[^ ]+}} = %arg0, %{{[^ ]+}} = %arg0) -> (i32, i32, i32, i32)
// CHECK: tt.store %arg2, %[[R]]#2
// CHECK-NEXT: tt.store %arg3, %[[R]]#3
tt.func public @mutual_different(%x: i32, %n: i32, %p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %x, %a1 = %x, %b0 = %x, %b1 = %x) -> (i32, i32, i32, i32) : i32 {
    %na0 = arith.addi %b0, %c1 : i32
    %na1 = arith.addi %b1, %c2 : i32
    %nb0 = arith.addi %a0, %c3 : i32
    %nb1 = arith.addi %a1, %c3 : i32
    scf.yield %na0, %na1, %nb0, %nb1 : i32, i32, i32, i32
  }
  tt.store %p, %r#2 : !tt.ptr<i32>
  tt.store %q, %r#3 : !tt.ptr<i32>
  tt.return
}

// -----

// Different initial values: the same increments do not make them equal; both arguments stay.
// CHECK-LABEL: tt.func public @different_inits
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[A:[^ ]+]] = %arg0, %[[B:[^ ]+]] = %arg1) -> (i32, i32)
// CHECK-NEXT: %[[A2:.*]] = arith.addi %[[A]], %c32_i32 : i32
// CHECK-NEXT: %[[B2:.*]] = arith.addi %[[B]], %c32_i32 : i32
// CHECK-NEXT: scf.yield %[[A2]], %[[B2]] : i32, i32
// CHECK: tt.store %arg3, %[[R]]#0
// CHECK-NEXT: tt.store %arg4, %[[R]]#1
tt.func public @different_inits(%x: i32, %y: i32, %n: i32, %p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y) -> (i32, i32) : i32 {
    %a2 = arith.addi %a, %c32 : i32
    %b2 = arith.addi %b, %c32 : i32
    scf.yield %a2, %b2 : i32, i32
  }
  tt.store %p, %r#0 : !tt.ptr<i32>
  tt.store %q, %r#1 : !tt.ptr<i32>
  tt.return
}

// -----

// The same initial value, but the yields differ (+ 32 and + 64), or are loads with a store between them (memory
// effects: the two loads of the same pointer need not give the same value): every argument stays.
// CHECK-LABEL: tt.func public @different_yields
// CHECK: %[[R:.*]]:4 = scf.for {{.*}} iter_args(%[[A:[^ ]+]] = %arg0, %[[B:[^ ]+]] = %arg0, %[[C:[^ ]+]] = %arg0, %[[D:[^ ]+]] = %arg0) -> (i32, i32, i32, i32)
// CHECK-NEXT: %[[A2:.*]] = arith.addi %[[A]], %c32_i32 : i32
// CHECK-NEXT: %[[B2:.*]] = arith.addi %[[B]], %c64_i32 : i32
// CHECK-NEXT: %[[C2:.*]] = tt.load %arg2
// CHECK-NEXT: tt.store %arg2, %[[C2]]
// CHECK-NEXT: %[[D2:.*]] = tt.load %arg2
// CHECK-NEXT: scf.yield %[[A2]], %[[B2]], %[[C2]], %[[D2]] : i32, i32, i32, i32
// CHECK: tt.store %arg2, %[[R]]#0
// CHECK-NEXT: tt.store %arg3, %[[R]]#1
// CHECK-NEXT: tt.store %arg2, %[[R]]#2
// CHECK-NEXT: tt.store %arg3, %[[R]]#3
tt.func public @different_yields(%x: i32, %n: i32, %p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x, %c = %x, %d = %x) -> (i32, i32, i32, i32) : i32 {
    %a2 = arith.addi %a, %c32 : i32
    %b2 = arith.addi %b, %c64 : i32
    %c2 = tt.load %p : !tt.ptr<i32>
    tt.store %p, %c2 : !tt.ptr<i32>
    %d2 = tt.load %p : !tt.ptr<i32>
    scf.yield %a2, %b2, %c2, %d2 : i32, i32, i32, i32
  }
  tt.store %p, %r#0 : !tt.ptr<i32>
  tt.store %q, %r#1 : !tt.ptr<i32>
  tt.store %p, %r#2 : !tt.ptr<i32>
  tt.store %q, %r#3 : !tt.ptr<i32>
  tt.return
}

// -----

// An op of an unregistered dialect has unknown effects: the loop around it stays though its results are unused,
// and its two equal counters (same start, same xori) are still merged into one.
// CHECK-LABEL: tt.func public @unknown_effects
// CHECK: scf.for {{.*}} iter_args(%[[A:[^ ]+]] = %c0_i32) -> (i32)
// CHECK-NEXT: %[[X:.*]] = arith.xori %[[A]], %c1_i32 : i32
// CHECK-NEXT: "probe.use"(%[[A]], %[[A]]) : (i32, i32) -> ()
// CHECK-NEXT: scf.yield %[[X]] : i32
tt.func public @unknown_effects(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0) -> (i32, i32) : i32 {
    %a2 = arith.xori %a, %c1 : i32
    %b2 = arith.xori %b, %c1 : i32
    "probe.use"(%a, %b) : (i32, i32) -> ()
    scf.yield %a2, %b2 : i32, i32
  }
  tt.return
}
