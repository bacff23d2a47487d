// RUN: tt-opt %s -split-input-file -tritongpu-pipeline | FileCheck %s

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
