// RUN: tt-opt %s -split-input-file -convert-scf-to-cf | FileCheck %s

// scf.for: the entry branches to a condition block (induction variable and iteration values as arguments)
// with the lower bound and the initial values; the condition compares against the upper bound (slt) and
// keeps none of the loop's attributes (only llvm dialect values, loop annotations, would stay); the body steps the induction variable and branches
// back with the yielded values; the loop's results are the condition block's arguments.
// CHECK-LABEL: tt.func @for_loop
// CHECK-NEXT: cf.br ^bb1(%arg0, %arg3 : i32, f32)
// CHECK-NEXT: ^bb1(%[[IV:.*]]: i32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[CMP:.*]] = arith.cmpi slt, %[[IV]], %arg1 : i32
// CHECK-NEXT: cf.cond_br %[[CMP]], ^bb2, ^bb3{{$}}
// CHECK-NEXT: ^bb2:
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[ACC]] : f32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[IV]], %arg2 : i32
// CHECK-NEXT: cf.br ^bb1(%[[NEXT]], %[[SUM]] : i32, f32)
// CHECK-NEXT: ^bb3:
// CHECK-NEXT: tt.return %[[ACC]] : f32
tt.func @for_loop(%lb: i32, %ub: i32, %step: i32, %x: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %x) -> (f32) : i32 {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  } {tt.num_stages = 3 : i32}
  tt.return %r : f32
}

// -----

// scf.if with results: both branches branch to a block whose arguments are the results, which branches on to
// the rest of the code; without an else, the condition branches straight past the op.
// CHECK-LABEL: tt.func @if_ops
// CHECK-NEXT: cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT: ^bb1:
// CHECK-NEXT: %[[A:.*]] = arith.addf %arg1, %arg1 : f32
// CHECK-NEXT: cf.br ^bb3(%[[A]] : f32)
// CHECK-NEXT: ^bb2:
// CHECK-NEXT: cf.br ^bb3(%arg1 : f32)
// CHECK-NEXT: ^bb3(%[[R:.*]]: f32):
// CHECK-NEXT: cf.br ^bb4
// CHECK-NEXT: ^bb4:
// CHECK-NEXT: cf.cond_br %arg0, ^bb5, ^bb6
// CHECK-NEXT: ^bb5:
// CHECK-NEXT: tt.print
// CHECK-NEXT: cf.br ^bb6
// CHECK-NEXT: ^bb6:
// CHECK-NEXT: tt.return %[[R]] : f32
tt.func @if_ops(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> (f32) {
    %a = arith.addf %x, %x : f32
    scf.yield %a : f32
  } else {
    scf.yield %x : f32
  }
  scf.if %c {
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : f32
  }
  tt.return %r : f32
}

// -----

// scf.while: a branch into the "before" block, whose scf.condition becomes a conditional branch into the
// "after" block (with the forwarded values) or past the loop; the "after" block branches back.
// CHECK-LABEL: tt.func @while_loop
// CHECK-NEXT: cf.br ^bb1(%arg0 : i32)
// CHECK-NEXT: ^bb1(%[[V:.*]]: i32):
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[V]], %arg1 : i32
// CHECK-NEXT: cf.cond_br %[[C]], ^bb2(%[[V]] : i32), ^bb3
// CHECK-NEXT: ^bb2(%[[W:.*]]: i32):
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[W]], %arg2 : i32
// CHECK-NEXT: cf.br ^bb1(%[[N]] : i32)
// CHECK-NEXT: ^bb3:
// CHECK-NEXT: tt.return %[[V]] : i32
tt.func @while_loop(%x: i32, %n: i32, %d: i32) -> i32 {
  %r = scf.while (%v = %x) : (i32) -> i32 {
    %c = arith.cmpi slt, %v, %n : i32
    scf.condition(%c) %v : i32
  } do {
  ^bb0(%w: i32):
    %next = arith.addi %w, %d : i32
    scf.yield %next : i32
  }
  tt.return %r : i32
}

// -----

// A do-while (the "after" region only forwards its arguments): the condition branches straight back to the
// "before" block.
// CHECK-LABEL: tt.func @do_while
// CHECK-NEXT: cf.br ^bb1(%arg0 : i32)
// CHECK-NEXT: ^bb1(%[[V:.*]]: i32):
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[V]], %arg2 : i32
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[N]], %arg1 : i32
// CHECK-NEXT: cf.cond_br %[[C]], ^bb1(%[[N]] : i32), ^bb2
// CHECK-NEXT: ^bb2:
// CHECK-NEXT: tt.return %[[N]] : i32
tt.func @do_while(%x: i32, %n: i32, %d: i32) -> i32 {
  %r = scf.while (%v = %x) : (i32) -> i32 {
    %next = arith.addi %v, %d : i32
    %c = arith.cmpi slt, %next, %n : i32
    scf.condition(%c) %next : i32
  } do {
  ^bb0(%w: i32):
    scf.yield %w : i32
  }
  tt.return %r : i32
}
