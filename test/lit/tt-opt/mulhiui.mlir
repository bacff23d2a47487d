// RUN: tt-opt %s -split-input-file | FileCheck %s
// RUN: tt-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tt-opt %s -split-input-file --mlir-print-op-generic | tt-opt -split-input-file | FileCheck %s

// tt.mulhiui, the high half of an unsigned product: scalars and tensors, 32 and 64 bits, round-trip in the
// custom and the generic form.
// CHECK-LABEL: tt.func @mulhi
// CHECK-NEXT: %[[S:.*]] = tt.mulhiui %arg0, %arg1 : i32
// CHECK-NEXT: %[[T:.*]] = tt.mulhiui %arg2, %arg2 : tensor<128xi64>
// CHECK-NEXT: tt.return %[[S]], %[[T]] : i32, tensor<128xi64>
// GENERIC: "tt.mulhiui"(%arg0, %arg1) : (i32, i32) -> i32
// GENERIC: "tt.mulhiui"(%arg2, %arg2) : (tensor<128xi64>, tensor<128xi64>) -> tensor<128xi64>
tt.func @mulhi(%a: i32, %b: i32, %c: tensor<128xi64>) -> (i32, tensor<128xi64>) {
  %0 = tt.mulhiui %a, %b : i32
  %1 = tt.mulhiui %c, %c : tensor<128xi64>
  tt.return %0, %1 : i32, tensor<128xi64>
}

// -----

// canonicalize and cse keep it (it is pure: an unused one goes)
// RUN: tt-opt %s -split-input-file -canonicalize -cse | FileCheck %s --check-prefix=CANON
// CANON-LABEL: tt.func @mulhi_pure
// CANON-NEXT: %[[H:.*]] = tt.mulhiui %arg0, %arg1 : i32
// CANON-NEXT: tt.return %[[H]], %[[H]] : i32, i32
tt.func @mulhi_pure(%a: i32, %b: i32) -> (i32, i32) {
  %0 = tt.mulhiui %a, %b : i32
  %1 = tt.mulhiui %a, %b : i32
  %2 = tt.mulhiui %b, %b : i32
  tt.return %0, %1 : i32, i32
}
