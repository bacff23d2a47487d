// RUN: tt-opt %s -split-input-file -verify-diagnostics
// RUN: not tt-opt %S/Inputs/verify-diagnostics-mismatch.mlir -split-input-file -verify-diagnostics 2>&1 | FileCheck %s

// -verify-diagnostics matches expectations as MLIR's verifier does: `@above` / `@below` go to the nearest line
// without an expectation, `-re` takes `{{regex}}` parts, and one expectation may meet several diagnostics.

tt.func @below_skips_designators(%arg0: tensor<32xf32>) {
  // expected-error @below {{last dimension of input tensor must be 2}}
  // expected-error @below {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %arg0 : tensor<32xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @above_skips_designators(%arg0: tensor<32xf32>) {
  %0, %1 = tt.split %arg0 : tensor<32xf32> -> tensor<16xf32>
  // expected-error @above {{last dimension of input tensor must be 2}}
  // expected-error @above {{'tt.split' op failed to infer returned types}}
  tt.return
}

// -----

// Both diagnostics contain "infer": one expectation meets both.
tt.func @one_for_two(%arg0: tensor<32x2xf32>) {
  // expected-error @+1 {{infer}}
  %0, %1 = tt.split %arg0 : tensor<32x2xf32> -> tensor<32xf16>
  tt.return
}

// -----

tt.func @regex(%arg0: i32) -> i32 {
  // expected-error-re @+1 {{'tt.return' op has 0 operands, but enclosing function (@{{[a-z]+}}) returns 1}}
  tt.return
}

// CHECK: verify-diagnostics-mismatch.mlir:5:6: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK: verify-diagnostics-mismatch.mlir:5:6: error: expected warning "rank of source" was not produced
// CHECK: verify-diagnostics-mismatch.mlir:14:3: error: unexpected error: rank of source must be same as rank of result
// CHECK: verify-diagnostics-mismatch.mlir:13:6: error: expected error "rank of result" was not produced
// CHECK: verify-diagnostics-mismatch.mlir:22:3: error: unexpected error: 'tt.return' op has 0 operands, but enclosing function (@no_match) returns 1
// CHECK: verify-diagnostics-mismatch.mlir:21:6: error: expected error "(@{{[{][{]}}[0-9]+{{[}][}]}})" was not produced
