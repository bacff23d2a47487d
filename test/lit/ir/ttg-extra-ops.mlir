// RUN: tt-opt %s -split-input-file | FileCheck %s
// RUN: tt-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=CANON

// The pipeliner's and the back end's small ttg ops, in Triton 3.6's syntax.

// CHECK-LABEL: tt.func @stage
// CHECK-NEXT: %0 = ttg.predicate_stage %arg0, %arg1, %arg2 maxStage 3 stage 1 : i32 -> i1
// CHECK-NEXT: %1 = ttg.predicate_stage %arg3, %arg3, %arg3 maxStage 2 stage 0 : index -> i1
tt.func @stage(%iv: i32, %ub: i32, %step: i32, %i: index) -> (i1, i1) {
  %p = ttg.predicate_stage %iv, %ub, %step maxStage 3 stage 1 : i32 -> i1
  %q = ttg.predicate_stage %i, %i, %i maxStage 2 stage 0 : index -> i1
  tt.return %p, %q : i1, i1
}

// -----

// ttg.mask has no custom syntax in Triton: it is written and printed in the generic form.
// CHECK-LABEL: tt.func @masked
// CHECK-NEXT: %0 = "ttg.mask"(%arg0) ({
// CHECK-NEXT:   %1 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:   ttg.mask.return %1 : i32
// CHECK-NEXT: }) : (i1) -> i32
tt.func @masked(%p: i1, %v: i32) -> i32 {
  %r = "ttg.mask"(%p) ({
    %s = arith.addi %v, %v : i32
    ttg.mask.return %s : i32
  }) : (i1) -> i32
  tt.return %r : i32
}

// -----

// ttg.local_barrier has unknown effects (canonicalize keeps it); an unused ttg.warp_id is dead.
// CHECK-LABEL: tt.func @barrier
// CHECK-NEXT: ttg.local_barrier
// CHECK-NEXT: %0 = ttg.warp_id
// CANON-LABEL: tt.func @barrier
// CANON-NEXT: ttg.local_barrier
// CANON-NEXT: tt.return
tt.func @barrier() {
  ttg.local_barrier
  %w = ttg.warp_id
  tt.return
}
