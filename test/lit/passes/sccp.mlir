// RUN: tt-opt %s -split-input-file -sccp | FileCheck %s
// RUN: tt-opt %s -split-input-file -sccp=fold-branches=false | FileCheck %s --check-prefix=NOBRANCH

// Constants propagate through scalar and splat arithmetic; what they feed becomes a constant at the start of
// the entry block and the ops computing them go. A loaded value and a function argument stay unknown.
// CHECK-LABEL: tt.func public @straight_line
// CHECK-DAG: %[[T:.*]] = arith.constant dense<84> : tensor<128xi32>
// CHECK-DAG: %[[C:.*]] = arith.constant 42 : i32
// CHECK: %[[L:.*]] = tt.load %arg1
// CHECK-NEXT: %[[A:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT: tt.store %arg1, %[[L]]
// CHECK-NEXT: tt.return %[[C]], %[[T]], %[[A]]
// NOBRANCH-LABEL: tt.func public @straight_line
// NOBRANCH-NOT: arith.muli
// NOBRANCH-NOT: tt.splat
tt.func public @straight_line(%x: i32, %p: tensor<128x!tt.ptr<i32>>) -> (i32, tensor<128xi32>, i32) {
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %0 = arith.muli %c6, %c7 : i32
  %1 = tt.splat %0 : i32 -> tensor<128xi32>
  %2 = arith.addi %1, %1 : tensor<128xi32>
  %3 = tt.load %p : tensor<128x!tt.ptr<i32>>
  %4 = arith.addi %x, %0 : i32
  tt.store %p, %3 : tensor<128x!tt.ptr<i32>>
  tt.return %0, %2, %4 : i32, tensor<128xi32>, i32
}

// -----

// A condition proven true selects the then region: the else region is never simulated (%x + 2 stays
// unknown), the result is the then value, and the scf.if is replaced by its then region.
// CHECK-LABEL: tt.func public @if_constant_condition
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: tt.store %arg1, %[[C3]] : !tt.ptr<i32>
// CHECK-NEXT: tt.return %[[C3]] : i32
// NOBRANCH-LABEL: tt.func public @if_constant_condition
// NOBRANCH: scf.if %true -> (i32) {
// NOBRANCH: arith.addi %arg0, %c2_i32 : i32
// NOBRANCH: tt.return %c3_i32 : i32
tt.func public @if_constant_condition(%x: i32, %p: !tt.ptr<i32>) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.cmpi slt, %c1, %c2 : i32
  %1 = scf.if %0 -> (i32) {
    %a = arith.addi %c1, %c2 : i32
    tt.store %p, %a : !tt.ptr<i32>
    scf.yield %a : i32
  } else {
    %b = arith.addi %x, %c2 : i32
    tt.store %p, %b : !tt.ptr<i32>
    scf.yield %b : i32
  }
  tt.return %1 : i32
}

// -----

// An unknown condition runs both regions: a result both yield as 4 is 4, one mixing 2 and %x is not.
// CHECK-LABEL: tt.func public @if_same_constant
// CHECK: %[[R:.*]]:2 = scf.if %arg0 -> (i32, i32) {
// CHECK-NEXT: scf.yield %[[C4:.*]], %arg1 : i32, i32
// CHECK: tt.return %[[C4]], %[[R]]#1 : i32, i32
tt.func public @if_same_constant(%c: i1, %x: i32) -> (i32, i32) {
  %c4 = arith.constant 4 : i32
  %c2 = arith.constant 2 : i32
  %0:2 = scf.if %c -> (i32, i32) {
    %a = arith.addi %c2, %c2 : i32
    scf.yield %a, %x : i32, i32
  } else {
    scf.yield %c4, %c2 : i32, i32
  }
  tt.return %0#0, %0#1 : i32, i32
}

// -----

// A loop-carried value that changes each iteration is not a constant; one that is yielded unchanged is.
// CHECK-LABEL: tt.func public @loop_carried
// CHECK: %[[L:.*]]:2 = scf.for
// CHECK-NEXT: %[[N:.*]] = arith.addi %{{.*}}, %c1_i32 : i32
// CHECK-NEXT: scf.yield %[[N]], %c5_i32 : i32, i32
// CHECK: tt.return %[[L]]#0, %c5_i32 : i32, i32
tt.func public @loop_carried(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0, %k = %c5) -> (i32, i32) : i32 {
    %next = arith.addi %acc, %c1 : i32
    %same = arith.muli %k, %c1 : i32
    scf.yield %next, %same : i32, i32
  }
  tt.return %0#0, %0#1 : i32, i32
}

// -----

// cf.cond_br on a condition proven false only executes its false edge: the block argument gets 2 from that
// edge alone; the branch becomes a cf.br and the block never reached goes.
// CHECK-LABEL: tt.func public @cfg
// CHECK: cf.br ^bb1(%c2_i32 : i32)
// CHECK-NEXT: ^bb1(%{{.*}}: i32):
// CHECK-NEXT: tt.return %c4_i32 : i32
// CHECK-NOT: ^bb2
// NOBRANCH-LABEL: tt.func public @cfg
// NOBRANCH: cf.cond_br %false, ^bb1(%arg0 : i32), ^bb2(%c2_i32 : i32)
// NOBRANCH: tt.return %c4_i32 : i32
tt.func public @cfg(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.cmpi eq, %c1, %c2 : i32
  cf.cond_br %0, ^bb1(%x : i32), ^bb2(%c2 : i32)
^bb1(%a: i32):
  tt.return %a : i32
^bb2(%b: i32):
  %r = arith.muli %b, %b : i32
  tt.return %r : i32
}

// -----

// Block arguments join the values of every executed edge: 1 and 2 make %a unknown, 2 and 2 make %b 2.
// CHECK-LABEL: tt.func public @cfg_merge
// CHECK: ^bb3(%[[A:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: tt.return %[[A]], %c2_i32 : i32, i32
tt.func public @cfg_merge(%c: i1) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3(%c1, %c2 : i32, i32)
^bb2:
  cf.br ^bb3(%c2, %c2 : i32, i32)
^bb3(%a: i32, %b: i32):
  tt.return %a, %b : i32, i32
}

// -----

// Around a CFG loop, the counter is unknown while the value passed unchanged stays 9.
// CHECK-LABEL: tt.func public @cfg_loop
// CHECK: ^bb1(%[[I:.*]]: i32, %{{.*}}: i32):
// CHECK: cf.cond_br %{{.*}}, ^bb1(%{{.*}}, %c9_i32 : i32, i32), ^bb2
// CHECK: tt.return %[[I]], %c9_i32 : i32, i32
tt.func public @cfg_loop(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c9 = arith.constant 9 : i32
  cf.br ^bb1(%c0, %c9 : i32, i32)
^bb1(%i: i32, %k: i32):
  %lt = arith.cmpi slt, %i, %n : i32
  %i1 = arith.addi %i, %c1 : i32
  cf.cond_br %lt, ^bb1(%i1, %k : i32, i32), ^bb2
^bb2:
  tt.return %i, %k : i32, i32
}

// -----

// A private function only called with constants sees constant arguments, and the call result is the
// constant it returns.
// CHECK-LABEL: tt.func private @helper
// CHECK: tt.return %c5_i32 : i32
// CHECK-LABEL: tt.func public @calls
// CHECK: tt.call @helper
// CHECK-NEXT: tt.return %c25_i32 : i32
tt.func private @helper(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  tt.return %s : i32
}
tt.func public @calls(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = tt.call @helper(%c2, %c3) : (i32, i32) -> i32
  %1 = arith.muli %0, %0 : i32
  tt.return %1 : i32
}
