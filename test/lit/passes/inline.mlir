// RUN: tt-opt %s -split-input-file -inline='default-pipeline=' | FileCheck %s
// RUN: tt-opt %s -split-input-file -inline='default-pipeline=' --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: tt-opt %S/../../fixtures/triton/helper_call.source.ttir -inline -symbol-dce | FileCheck %s --check-prefix=FIXTURE
// The first two run the mechanics without the inliner's default pipeline (as MLIR's tests do); by
// default -inline canonicalizes each function before and after inlining into it, as MLIR's inliner does.

// A single-block callee: its ops replace the call, arguments mapped to the call's operands and the
// returned value to the call's result. The private callee, inlined at its only call, is erased (as MLIR's
// inliner erases dead private functions).
// CHECK-LABEL: tt.func public @single_block
// CHECK-SAME: (%[[X:.*]]: tensor<16xf32>)
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[X]] : tensor<16xf32>
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[M]], %[[X]] : tensor<16xf32>
// CHECK-NEXT: tt.return %[[A]] : tensor<16xf32>
// CHECK-NOT: @square
tt.func public @single_block(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = tt.call @square(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = arith.addf %0, %x : tensor<16xf32>
  tt.return %1 : tensor<16xf32>
}
tt.func private @square(%v: tensor<16xf32>) -> tensor<16xf32> {
  %0 = arith.mulf %v, %v : tensor<16xf32>
  tt.return %0 : tensor<16xf32>
}

// -----

// Calls through several levels are all inlined; no call is left anywhere in the module.
// CHECK-LABEL: tt.func public @chain
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tt.return
// CHECK-NOT: tt.call
tt.func public @chain(%a: i32) -> i32 {
  %0 = tt.call @outer(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func private @outer(%a: i32) -> i32 {
  %0 = tt.call @inner(%a) : (i32) -> i32
  %1 = arith.muli %0, %a : i32
  tt.return %1 : i32
}
tt.func private @inner(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}

// -----

// A multi-block callee at function level: the caller's block is split after the call, the callee's
// blocks go in between, each tt.return becomes a branch to the continuation block, which takes the
// result as its argument.
// CHECK-LABEL: tt.func public @multi_block
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT: %[[S:.*]] = arith.subi %[[A]], %[[B]] : i32
// CHECK-NEXT: cf.cond_br %[[C]], ^bb1, ^bb2
// CHECK-NEXT: ^bb1:  // pred: ^bb0
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[S]], %[[A]] : i32
// CHECK-NEXT: cf.br ^bb3(%[[T]] : i32)
// CHECK-NEXT: ^bb2:  // pred: ^bb0
// CHECK-NEXT: cf.br ^bb3(%[[B]] : i32)
// CHECK-NEXT: ^bb3(%[[R:.*]]: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[R]], %[[R]] : i32
// CHECK-NEXT: tt.return %[[M]] : i32
tt.func public @multi_block(%c: i1, %a: i32, %b: i32) -> i32 {
  %s = arith.subi %a, %b : i32
  %0 = tt.call @select(%c, %s, %a, %b) : (i1, i32, i32, i32) -> i32
  %1 = arith.muli %0, %0 : i32
  tt.return %1 : i32
}
tt.func private @select(%c: i1, %s: i32, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %t = arith.addi %s, %a : i32
  tt.return %t : i32
^bb2:
  tt.return %b : i32
}

// -----

// A multi-block callee cannot go into a loop body, which must keep one block: that call stays. A callee
// whose extra block is unreachable (the frontend's `^bb1:  // no predecessors`) has one live block and is
// inlined there, without the dead block.
// CHECK-LABEL: tt.func public @in_loop
// CHECK: scf.for
// CHECK-NEXT: tt.call @two_returns
// CHECK-NEXT: arith.addf
// CHECK-NOT: ub.poison
// CHECK-NOT: tt.call
// CHECK: scf.yield
tt.func public @in_loop(%n: i32, %c: i1, %x: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32)  : i32 {
    %0 = tt.call @two_returns(%c, %acc) : (i1, f32) -> f32
    %1 = tt.call @dead_tail(%0) : (f32) -> f32
    scf.yield %1 : f32
  }
  tt.return %r : f32
}
tt.func private @two_returns(%c: i1, %x: f32) -> f32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  tt.return %x : f32
^bb2:
  %0 = arith.negf %x : f32
  tt.return %0 : f32
}
tt.func private @dead_tail(%x: f32) -> f32 {
  %0 = arith.addf %x, %x : f32
  tt.return %0 : f32
^bb1:  // no predecessors
  %1 = ub.poison : f32
  tt.return %1 : f32
}

// -----

// Recursive calls (direct or mutual), calls to declarations and to `noinline = true` functions stay.
// CHECK-LABEL: tt.func public @not_inlined
// CHECK-NEXT: tt.call @self
// CHECK-NEXT: tt.call @ping
// CHECK-NEXT: tt.call @external
// CHECK-NEXT: tt.call @kept
// CHECK-LABEL: tt.func private @self
// CHECK-NEXT: tt.call @self
// CHECK-LABEL: tt.func private @ping
// CHECK-NEXT: tt.call @pong
// CHECK-LABEL: tt.func private @pong
// CHECK-NEXT: tt.call @ping
tt.func public @not_inlined(%a: i32) -> i32 {
  %0 = tt.call @self(%a) : (i32) -> i32
  %1 = tt.call @ping(%0) : (i32) -> i32
  %2 = tt.call @external(%1) : (i32) -> i32
  %3 = tt.call @kept(%2) : (i32) -> i32
  tt.return %3 : i32
}
tt.func private @self(%a: i32) -> i32 {
  %0 = tt.call @self(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func private @ping(%a: i32) -> i32 {
  %0 = tt.call @pong(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func private @pong(%a: i32) -> i32 {
  %0 = tt.call @ping(%a) : (i32) -> i32
  tt.return %0 : i32
}
tt.func private @external(i32) -> i32
tt.func private @kept(%a: i32) -> i32 attributes {noinline = true} {
  tt.return %a : i32
}

// -----

// A call in a tt.reduce combiner (how tl.sum / tl.max reach TTIR) is inlined into the combiner.
// CHECK-LABEL: tt.func public @in_reduce
// CHECK: ^bb0(%[[L:.*]]: f32, %[[R:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[L]], %[[R]] : f32
// CHECK-NEXT: tt.reduce.return %[[S]] : f32
tt.func public @in_reduce(%v: tensor<16xf32>) -> f32 {
  %0 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = tt.call @combine(%l, %r) : (f32, f32) -> f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> f32
  tt.return %0 : f32
}
tt.func private @combine(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b : f32
  tt.return %0 : f32
}

// -----

// Inlined ops are located at `callsite(<their loc> at <the call's loc>)`; inlining an already inlined op
// again stacks the call sites on the caller side, as MLIR does.
// LOC-LABEL: tt.func public @locations
// LOC-NEXT: arith.addi {{.*}} loc(#[[L1:loc[0-9]*]])
// LOC-NEXT: arith.muli {{.*}} loc(#[[L2:loc[0-9]*]])
// LOC-DAG: #[[ADD:loc[0-9]*]] = loc("inner.py":2:3)
// LOC-DAG: #[[MUL:loc[0-9]*]] = loc("outer.py":5:6)
// LOC-DAG: #[[CALL_INNER:loc[0-9]*]] = loc("outer.py":4:5)
// LOC-DAG: #[[CALL_OUTER:loc[0-9]*]] = loc("kernel.py":7:8)
// LOC-DAG: #[[L2]] = loc(callsite(#[[MUL]] at #[[CALL_OUTER]]))
// LOC-DAG: #[[STACK:loc[0-9]*]] = loc(callsite(#[[CALL_INNER]] at #[[CALL_OUTER]]))
// LOC-DAG: #[[L1]] = loc(callsite(#[[ADD]] at #[[STACK]]))
tt.func public @locations(%a: i32) -> i32 {
  %0 = tt.call @loc_outer(%a) : (i32) -> i32 loc("kernel.py":7:8)
  tt.return %0 : i32
}
tt.func private @loc_outer(%a: i32) -> i32 {
  %0 = tt.call @loc_inner(%a) : (i32) -> i32 loc("outer.py":4:5)
  %1 = arith.muli %0, %a : i32 loc("outer.py":5:6)
  tt.return %1 : i32
}
tt.func private @loc_inner(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32 loc("inner.py":2:3)
  tt.return %0 : i32
}

// Triton's own frontend output: gelu calls sigmoid, both with unreachable `^bb1` blocks; after
// -inline -symbol-dce only the kernel is left, with no call and no poison.
// FIXTURE-LABEL: tt.func public @bias_gelu_kernel
// FIXTURE: tt.load
// FIXTURE: math.exp
// FIXTURE: arith.divf
// FIXTURE: tt.store
// FIXTURE-NOT: tt.call
// FIXTURE-NOT: ub.poison
// FIXTURE-NOT: tt.func

// -----

// Which functions -inline erases (MLIR's dead callables): private functions with a body that nothing refers
// to, when their turn comes (callees first) or once inlined at their last reference. A private function only
// a dead one refers to stays (its reference counted until the end), as do recursive and noinline ones that
// are still called, public functions and declarations.
// CHECK-LABEL: tt.func private @declared(i32)
// CHECK-NOT: @twice
// CHECK-NOT: @unreferenced
// CHECK-LABEL: tt.func private @only_from_dead
// CHECK-LABEL: tt.func private @recursive
// CHECK-LABEL: tt.func public @public_helper
// CHECK-LABEL: tt.func public @erasing
// CHECK-NOT: tt.call @twice
// CHECK: tt.call @public_helper
// CHECK-NOT: @twice
tt.func private @declared(i32)
tt.func private @twice(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}
tt.func private @unreferenced(%a: i32) {
  tt.call @only_from_dead(%a) : (i32) -> ()
  tt.return
}
tt.func private @only_from_dead(%a: i32) {
  tt.return
}
tt.func private @recursive(%a: i32) {
  tt.call @recursive(%a) : (i32) -> ()
  tt.return
}
tt.func public @public_helper(%a: i32) attributes {noinline = true} {
  tt.return
}
tt.func public @erasing(%a: i32) -> i32 {
  %0 = tt.call @twice(%a) : (i32) -> i32
  %1 = tt.call @twice(%0) : (i32) -> i32
  tt.call @public_helper(%1) : (i32) -> ()
  tt.call @recursive(%1) : (i32) -> ()
  tt.return %1 : i32
}
