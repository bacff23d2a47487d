// RUN: tt-opt %s -split-input-file -verify-diagnostics

// ttg.predicate_stage takes one type for its three operands; ttg.mask.return ends a ttg.mask.

// expected-note @below {{prior use here}}
tt.func @stage_types(%iv: i32, %ub: i64) -> i1 {
  // expected-error @below {{use of value '%ub' expects different type than prior uses: 'i32' vs 'i64'}}
  %p = ttg.predicate_stage %iv, %ub, %iv maxStage 3 stage 1 : i32 -> i1
  tt.return %p : i1
}

// -----

tt.func @return_outside(%v: i32) {
  // expected-error @below {{'ttg.mask.return' op expects parent op 'ttg.mask'}}
  ttg.mask.return %v : i32
}
