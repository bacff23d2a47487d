// RUN: tt-opt %s -split-input-file -dce | FileCheck %s

// Unused pure ops go, whole chains of them; what the result needs stays.
// CHECK-LABEL: tt.func public @pure_chain
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT: tt.return %[[S]] : i32
tt.func public @pure_chain(%a: i32, %b: i32) -> i32 {
  %c = arith.constant 7 : i32
  %m = arith.muli %a, %c : i32
  %n = arith.subi %m, %b : i32
  %r = tt.splat %n : i32 -> tensor<16xi32>
  %s = arith.addi %a, %b : i32
  tt.return %s : i32
}

// -----

// An unused tt.load only reads: it goes. A volatile load also writes (Triton's LoadOp::getEffects): it stays.
// CHECK-LABEL: tt.func public @loads
// CHECK-NEXT: %{{.*}} = tt.load %arg0 {isVolatile = true} : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
tt.func public @loads(%p: tensor<16x!tt.ptr<f32>>) {
  %a = tt.load %p : tensor<16x!tt.ptr<f32>>
  %b = tt.load %p {isVolatile = true} : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// Ops that write stay even when their results are unused.
// CHECK-LABEL: tt.func public @writes_stay
// CHECK-NEXT: tt.atomic_rmw fadd, acq_rel, gpu
// CHECK-NEXT: tt.atomic_cas acq_rel, gpu
// CHECK-NEXT: tt.print " v: "
// CHECK-NEXT: tt.assert
// CHECK-NEXT: tt.store
// CHECK-NEXT: tt.return
tt.func public @writes_stay(%p: !tt.ptr<f32>, %ps: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<16xi1>, %f: f32) {
  %0 = tt.atomic_rmw fadd, acq_rel, gpu, %ps, %v, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
  %1 = tt.atomic_cas acq_rel, gpu, %p, %f, %f : (!tt.ptr<f32>, f32, f32) -> f32
  tt.print " v: " {hex = false, isSigned = array<i32: 0>} : %v : tensor<16xf32>
  tt.assert %m, "mask" : tensor<16xi1>
  tt.store %ps, %v : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A loop whose results are unused and whose body only computes goes whole, with what only it used
// (the values its body yields do not keep anything alive). A loop that stores stays, but the dead ops in
// its body go.
// CHECK-LABEL: tt.func public @loops
// CHECK-NOT: arith.mulf
// CHECK-NOT: arith.divf
// CHECK: scf.for
// CHECK-NOT: arith.subf
// CHECK: tt.store
// CHECK-NOT: scf.for
// CHECK: tt.return
tt.func public @loops(%ps: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %w = arith.mulf %v, %v : tensor<16xf32>
  %u = arith.divf %v, %v : tensor<16xf32>
  %dead = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %w) -> (tensor<16xf32>)  : i32 {
    %x = arith.addf %acc, %u : tensor<16xf32>
    scf.yield %x : tensor<16xf32>
  }
  scf.for %i = %c0 to %n step %c1  : i32 {
    %y = arith.subf %v, %v : tensor<16xf32>
    tt.store %ps, %v : tensor<16x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Unused scf.if and tt.reduce with pure bodies go; an unused call stays (its effects are unknown).
// CHECK-LABEL: tt.func public @regions_and_calls
// CHECK-NOT: scf.if
// CHECK-NOT: tt.reduce
// CHECK: tt.call @helper
// CHECK-NEXT: tt.return
tt.func public @regions_and_calls(%c: i1, %v: tensor<16xf32>) {
  %0 = scf.if %c -> (tensor<16xf32>) {
    %a = arith.addf %v, %v : tensor<16xf32>
    scf.yield %a : tensor<16xf32>
  } else {
    scf.yield %v : tensor<16xf32>
  }
  %1 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> f32
  %2 = tt.call @helper(%v) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}
// The private helper is a symbol: -dce never removes it (that is -symbol-dce's job).
// CHECK-LABEL: tt.func private @helper
tt.func private @helper(%v: tensor<16xf32>) -> tensor<16xf32> {
  tt.return %v : tensor<16xf32>
}

// -----

// The frontend's `^bb1:  // no predecessors` block after a return is unreachable: it goes.
// CHECK-LABEL: tt.func private @unreachable
// CHECK-NEXT: %[[R:.*]] = arith.addf
// CHECK-NEXT: tt.return %[[R]] : f32
// CHECK-NEXT: }
tt.func private @unreachable(%x: f32) -> f32 {
  %0 = arith.addf %x, %x : f32
  tt.return %0 : f32
^bb1:  // no predecessors
  %1 = ub.poison : f32
  tt.return %1 : f32
}

// -----

// A value that only travels around a CFG loop is dead: the block argument and the branch operands that
// feed it go; the live argument stays.
// CHECK-LABEL: tt.func public @cfg_loop
// CHECK: cf.br ^bb1(%{{.*}} : i32)
// CHECK: ^bb1(%[[I:.*]]: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : i32
// CHECK-NEXT: cf.cond_br %[[C]], ^bb1(%[[N]] : i32), ^bb2
// CHECK: ^bb2:  // pred: ^bb1
// CHECK-NEXT: tt.return %[[N]] : i32
tt.func public @cfg_loop(%n: i32, %f: f32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^bb1(%c0, %f : i32, f32)
^bb1(%i: i32, %acc: f32):
  %next = arith.addi %i, %c1 : i32
  %acc2 = arith.mulf %acc, %f : f32
  %cond = arith.cmpi slt, %next, %n : i32
  cf.cond_br %cond, ^bb1(%next, %acc2 : i32, f32), ^bb2(%acc2 : f32)
^bb2(%out: f32):
  tt.return %next : i32
}

// -----

// Nothing is dead here: the function comes out unchanged.
// CHECK-LABEL: tt.func public @all_live
// CHECK-NEXT: %[[R:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK-NEXT: %[[P:.*]] = tt.addptr %arg0, %[[R]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT: %[[V:.*]] = tt.load %[[P]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: %[[W:.*]] = arith.addf %[[V]], %[[V]] : tensor<16xf32>
// CHECK-NEXT: tt.store %[[P]], %[[W]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
tt.func public @all_live(%p: tensor<16x!tt.ptr<f32>>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %q = tt.addptr %p, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %q : tensor<16x!tt.ptr<f32>>
  %w = arith.addf %v, %v : tensor<16xf32>
  tt.store %q, %w : tensor<16x!tt.ptr<f32>>
  tt.return
}
