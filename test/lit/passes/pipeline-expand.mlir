// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-pipeline | FileCheck %s

// The expander of an already scheduled loop (loop.stage / loop.cluster on its ops, tt.scheduled_max_stage on the
// loop). An iteration argument whose yielded value is defined outside the loop (here a flag that starts false
// and is true from the second iteration on, like an MMA's useD) holds the initial value in iteration 0 only:
// the prologue's later parts read the yielded value, and in the kernel loop the ops of stages below the last,
// which run iterations ahead of the loop's own, read it directly; only the last stage reads the argument.

// CHECK-LABEL: tt.func @flag_set_after_first
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[P0:.*]] = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK: tt.store %arg2, %[[FALSE]], %[[P0]] : !tt.ptr<i1>
// CHECK: %[[P1:.*]] = arith.cmpi slt, {{.*}}, %arg1 : i32
// CHECK: tt.store %arg2, %[[TRUE]], %[[P1]] : !tt.ptr<i1>
// CHECK: scf.for {{.*}} iter_args(%[[FLAG:.*]] = %[[FALSE]]) -> (i1)
// CHECK:   tt.store %arg3, %[[FLAG]] : !tt.ptr<i1>
// CHECK:   tt.store %arg2, %[[TRUE]], %{{.*}} : !tt.ptr<i1>
// CHECK:   scf.yield %[[TRUE]] : i1
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @flag_set_after_first(%lb: i32, %ub: i32, %early: !tt.ptr<i1>, %late: !tt.ptr<i1>) {
    %c1 = arith.constant 1 : i32
    %false = arith.constant false
    %true = arith.constant true
    %r = scf.for %i = %lb to %ub step %c1 iter_args(%flag = %false) -> (i1) : i32 {
      tt.store %early, %flag {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<i1>
      tt.store %late, %flag {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !tt.ptr<i1>
      scf.yield %true : i1
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// An op of an unregistered dialect (read with -allow-unregistered-dialect; its effects unknown) in an early stage
// does not stop the expansion: it runs unpredicated, in the prologue and in the kernel loop, as Triton's
// predication lets such ops (of lit tests) through.

// CHECK-LABEL: tt.func @unregistered_early
// CHECK: "test.touch"(%arg0) : (i32) -> ()
// CHECK-NEXT: scf.for %[[I:.*]] = %arg0 to %arg1
// CHECK-NEXT:   tt.store %arg2, %[[I]] : !tt.ptr<i32>
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addi %[[I]], %c1_i32 : i32
// CHECK-NEXT:   "test.touch"(%[[NEXT]]) : (i32) -> ()
// CHECK-NEXT: } {tt.num_stages = 2 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unregistered_early(%lb: i32, %ub: i32, %out: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    scf.for %i = %lb to %ub step %c1 : i32 {
      "test.touch"(%i) {loop.cluster = 1 : i32, loop.stage = 0 : i32} : (i32) -> ()
      tt.store %out, %i {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<i32>
    } {tt.num_stages = 2 : i32, tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}

// -----

// An op of the body with no stage (here the pointer bump; tritongpu-automatic-warp-specialization leaves the
// descriptor updates it makes after scheduling so) leaves the loop as it is, as Triton's expander refuses it:
// no prologue, the schedule's attributes dropped.

// CHECK-LABEL: tt.func @unstaged_op
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: scf.for %[[I:.*]] = %arg0 to %arg1 step %[[C1]] iter_args(%[[P:.*]] = %arg2)
// CHECK-NEXT:   %[[NEXT:.*]] = tt.addptr %[[P]], %[[C1]] : !tt.ptr<i32>, i32
// CHECK-NEXT:   tt.store %[[NEXT]], %[[I]] : !tt.ptr<i32>
// CHECK-NEXT:   tt.store %arg2, %[[I]] : !tt.ptr<i32>
// CHECK-NEXT:   scf.yield %[[NEXT]] : !tt.ptr<i32>
// CHECK-NEXT: } {tt.num_stages = 2 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unstaged_op(%lb: i32, %ub: i32, %out: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %lb to %ub step %c1 iter_args(%p = %out) -> (!tt.ptr<i32>) : i32 {
      %next = tt.addptr %p, %c1 : !tt.ptr<i32>, i32
      tt.store %next, %i {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<i32>
      tt.store %out, %i {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<i32>
      scf.yield %next : !tt.ptr<i32>
    } {tt.num_stages = 2 : i32, tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
