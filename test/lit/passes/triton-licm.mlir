// RUN: tt-opt %s -split-input-file -triton-licm | FileCheck %s

// An invariant load of a loop that only reads leaves it, masked by the trip-count check splat to the
// pointers' shape; what uses the load leaves with it.
// CHECK-LABEL: tt.func public @unmasked_tensor_load
// CHECK: %[[C:.*]] = arith.cmpi slt, %arg1, %arg2 : i32
// CHECK-NEXT: %[[S:.*]] = tt.splat %[[C]] : i1 -> tensor<16xi1>
// CHECK-NEXT: %[[V:.*]] = tt.load %arg0, %[[S]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[V]], %[[V]] : tensor<16xf32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.addf %{{.*}}, %[[D]] : tensor<16xf32>
// CHECK-NEXT: scf.yield
tt.func public @unmasked_tensor_load(%p: tensor<16x!tt.ptr<f32>>, %lb: i32, %ub: i32) -> tensor<16xf32> {
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<16xf32>
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %z) -> (tensor<16xf32>)  : i32 {
    %v = tt.load %p : tensor<16x!tt.ptr<f32>>
    %d = arith.mulf %v, %v : tensor<16xf32>
    %a = arith.addf %acc, %d : tensor<16xf32>
    scf.yield %a : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// -----

// A load with a mask keeps it, ANDed after the splat trip-count check.
// CHECK-LABEL: tt.func public @masked_tensor_load
// CHECK: %[[C:.*]] = arith.cmpi slt, %arg2, %arg3 : i32
// CHECK-NEXT: %[[S:.*]] = tt.splat %[[C]] : i1 -> tensor<16xi1>
// CHECK-NEXT: %[[M:.*]] = arith.andi %[[S]], %arg1 : tensor<16xi1>
// CHECK-NEXT: tt.load %arg0, %[[M]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: scf.for
tt.func public @masked_tensor_load(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>, %lb: i32, %ub: i32) -> tensor<16xf32> {
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<16xf32>
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %z) -> (tensor<16xf32>)  : i32 {
    %v = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
    %a = arith.addf %acc, %v : tensor<16xf32>
    scf.yield %a : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// -----

// A scalar load takes the i1 check itself (no splat); its `other` value stays.
// CHECK-LABEL: tt.func public @scalar_load_with_other
// CHECK: %[[C:.*]] = arith.cmpi slt, %arg1, %arg2 : i32
// CHECK-NEXT: %[[M:.*]] = arith.andi %[[C]], %arg3 : i1
// CHECK-NEXT: tt.load %arg0, %[[M]], %cst : !tt.ptr<f32>
// CHECK-NEXT: scf.for
tt.func public @scalar_load_with_other(%p: !tt.ptr<f32>, %lb: i32, %ub: i32, %m: i1) -> f32 {
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %z) -> (f32)  : i32 {
    %v = tt.load %p, %m, %z : !tt.ptr<f32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  tt.return %r : f32
}

// -----

// Anything in the loop that writes (here a tt.print) keeps its loads in; pure invariant ops still leave.
// CHECK-LABEL: tt.func public @writer_in_loop
// CHECK: arith.mulf %arg1, %arg1
// CHECK-NEXT: scf.for
// CHECK-NEXT: tt.load %arg0 : tensor<16x!tt.ptr<f32>>
// CHECK: tt.print
tt.func public @writer_in_loop(%p: tensor<16x!tt.ptr<f32>>, %x: tensor<16xf32>, %lb: i32, %ub: i32) -> tensor<16xf32> {
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<16xf32>
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %z) -> (tensor<16xf32>)  : i32 {
    %v = tt.load %p : tensor<16x!tt.ptr<f32>>
    %x2 = arith.mulf %x, %x : tensor<16xf32>
    %a = arith.addf %acc, %v : tensor<16xf32>
    %b = arith.addf %a, %x2 : tensor<16xf32>
    tt.print " acc: " {hex = false, isSigned = array<i32: 0>} : %b : tensor<16xf32>
    scf.yield %b : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// -----

// A volatile load writes as well as reads: it stays.
// CHECK-LABEL: tt.func public @volatile_load
// CHECK-NOT: arith.cmpi
// CHECK: scf.for
// CHECK-NEXT: tt.load %arg0 {isVolatile = true}
tt.func public @volatile_load(%p: tensor<16x!tt.ptr<f32>>, %lb: i32, %ub: i32) -> tensor<16xf32> {
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<16xf32>
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %z) -> (tensor<16xf32>)  : i32 {
    %v = tt.load %p {isVolatile = true} : tensor<16x!tt.ptr<f32>>
    %a = arith.addf %acc, %v : tensor<16xf32>
    scf.yield %a : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// -----

// A load whose pointer changes with the iteration stays.
// CHECK-LABEL: tt.func public @variant_pointer
// CHECK-NOT: arith.cmpi
// CHECK: scf.for
// CHECK: tt.addptr
// CHECK-NEXT: tt.load
tt.func public @variant_pointer(%p: !tt.ptr<f32>, %lb: i32, %ub: i32) -> f32 {
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %z) -> (f32)  : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  tt.return %r : f32
}

// -----

// Loads in an scf.while stay; the invariant pure ops of its condition region leave.
// CHECK-LABEL: tt.func public @while_load_stays
// CHECK: %[[N:.*]] = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT: scf.while
// CHECK: arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK: } do {
// CHECK: tt.load %arg0 : !tt.ptr<i32>
tt.func public @while_load_stays(%p: !tt.ptr<i32>, %k: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = scf.while (%x = %c0) : (i32) -> i32 {
    %n = arith.muli %k, %k : i32
    %c = arith.cmpi slt, %x, %n : i32
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%x: i32):
    %v = tt.load %p : !tt.ptr<i32>
    %y = arith.addi %x, %v : i32
    scf.yield %y : i32
  }
  tt.return %r : i32
}

// -----

// Nested loops, inner first: the load leaves the inner loop under its check, then the outer loop under
// the outer check ANDed with the (hoisted) inner one.
// CHECK-LABEL: tt.func public @nested_loops
// CHECK: %[[CI:.*]] = arith.cmpi slt, %c0_i32, %arg2 : i32
// CHECK-NEXT: %[[SI:.*]] = tt.splat %[[CI]] : i1 -> tensor<16xi1>
// CHECK-NEXT: %[[CO:.*]] = arith.cmpi slt, %c0_i32, %arg1 : i32
// CHECK-NEXT: %[[SO:.*]] = tt.splat %[[CO]] : i1 -> tensor<16xi1>
// CHECK-NEXT: %[[M:.*]] = arith.andi %[[SO]], %[[SI]] : tensor<16xi1>
// CHECK-NEXT: tt.load %arg0, %[[M]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.addf
tt.func public @nested_loops(%p: tensor<16x!tt.ptr<f32>>, %n: i32, %k: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<16xf32>)  : i32 {
    %r2 = scf.for %j = %c0 to %k step %c1 iter_args(%acc2 = %acc) -> (tensor<16xf32>)  : i32 {
      %v = tt.load %p : tensor<16x!tt.ptr<f32>>
      %a = arith.addf %acc2, %v : tensor<16xf32>
      scf.yield %a : tensor<16xf32>
    }
    scf.yield %r2 : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// -----

// arith ops count as effect-free (arith.remui included): the loop only reads, and its load leaves.
// CHECK-LABEL: tt.func public @remui_in_loop
// CHECK: arith.cmpi slt
// CHECK-NEXT: tt.load %arg0, %{{.*}} : !tt.ptr<i32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.remui
tt.func public @remui_in_loop(%p: !tt.ptr<i32>, %lb: i32, %ub: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %lb) -> (i32)  : i32 {
    %v = tt.load %p : !tt.ptr<i32>
    %m = arith.remui %acc, %i : i32
    %s = arith.addi %m, %v : i32
    scf.yield %s : i32
  }
  tt.return %r : i32
}
