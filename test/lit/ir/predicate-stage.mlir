// RUN: tt-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// ttg.predicate_stage (the pipeliner's stage predicate, kept by loops marked __test_keep_predicate_stage) reads and
// prints in Triton's form: iv, ub, step of one integer type, then maxStage and stage written bare.
// CHECK-LABEL: tt.func @round_trip
// CHECK: %0 = ttg.predicate_stage %arg0, %arg1, %arg2 maxStage 3 stage 1 : index -> i1
tt.func @round_trip(%iv: index, %ub: index, %step: index) -> i1 {
  %p = ttg.predicate_stage %iv, %ub, %step maxStage 3 stage 1 : index -> i1
  tt.return %p : i1
}

// -----

tt.func @mixed_types(%iv: i32, %ub: i64, %step: i32) -> i1 {
  // expected-error @+1 {{'ttg.predicate_stage' op failed to verify that all of {iv, ub, step} have same type}}
  %p = "ttg.predicate_stage"(%iv, %ub, %step) <{maxStage = 2 : i32, stage = 0 : i32}> : (i32, i64, i32) -> i1
  tt.return %p : i1
}
