// RUN: not tt-opt %s -split-input-file 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR --input-file %t.err

// A chunk that fails does not stop the others: as mlir-opt does, the tool
// prints every chunk that succeeded (the failed one leaves an empty slot
// between two marker lines), reports the error, and exits with 1.

// CHECK:      {{^}}module {
// CHECK-NEXT:   tt.func @first(%arg0: i32) -> i32 {
// CHECK-NEXT:     tt.return %arg0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {{^//}} -----{{$}}
// CHECK-NEXT: {{^//}} -----{{$}}
// CHECK-NEXT: module {
// CHECK-NEXT:   tt.func @third(%arg0: i64) -> i64 {
// CHECK-NEXT:     tt.return %arg0 : i64
// CHECK-NEXT:   }
// CHECK-NEXT: }

// ERR:     split-input-file-errors.mlir:{{.*}}error: 'tt.splat' op requires the same element type for all operands and results
// ERR-NOT: error:

tt.func @first(%a: i32) -> i32 {
  tt.return %a : i32
}

// -----

tt.func @second(%a: i32) {
  %0 = tt.splat %a : i32 -> tensor<4xi64>
  tt.return
}

// -----

tt.func @third(%a: i64) -> i64 {
  tt.return %a : i64
}
