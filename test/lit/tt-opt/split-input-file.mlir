// RUN: tt-opt %s -split-input-file | FileCheck %s
// RUN: tt-opt %s --split-input-file -cse | FileCheck %s --check-prefix=CSE
// RUN: not tt-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// -split-input-file: every chunk between marker lines is a module of its own.
// As mlir-opt does, the tool prints each module followed by an empty line and
// puts a marker line between the chunks' outputs. Every chunk defines
// @kernel, so the chunks only verify when they are kept apart.

// CHECK:      {{^}}module {
// CHECK-NEXT:   tt.func @kernel(%arg0: i32) -> i32 {
// CHECK-NEXT:     %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:     tt.return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {{^//}} -----{{$}}
// CHECK-NEXT: module {
// CHECK-NEXT:   tt.func @kernel(%arg0: i64) -> i64 {
// CHECK-NEXT:     %0 = arith.muli %arg0, %arg0 : i64
// CHECK-NEXT:     tt.return %0 : i64
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: {{^//}} -----{{$}}
// CHECK-NEXT: module {
// CHECK-NEXT:   tt.func @kernel(%arg0: f32) -> f32 {
// CHECK-NEXT:     %0 = arith.addf %arg0, %arg0 : f32
// CHECK-NEXT:     %1 = arith.addf %arg0, %arg0 : f32
// CHECK-NEXT:     %2 = arith.mulf %0, %1 : f32
// CHECK-NEXT:     tt.return %2 : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NOT:  {{.}}

// Passes run on every chunk.
// CSE:       tt.func @kernel(%arg0: i32)
// CSE:       {{^//}} -----{{$}}
// CSE:       tt.func @kernel(%arg0: i64)
// CSE:       {{^//}} -----{{$}}
// CSE:       tt.func @kernel(%arg0: f32)
// CSE-NEXT:    %0 = arith.addf %arg0, %arg0 : f32
// CSE-NEXT:    %1 = arith.mulf %0, %0 : f32

// Without the flag the file is one module that defines @kernel three times.
// WHOLE: {{[Rr]}}edefinition of symbol {{.*}}kernel

tt.func @kernel(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  tt.return %0 : i32
}

// -----

tt.func @kernel(%a: i64) -> i64 {
  %0 = arith.muli %a, %a : i64
  tt.return %0 : i64
}

// -----

tt.func @kernel(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %a, %a : f32
  %2 = arith.mulf %0, %1 : f32
  tt.return %2 : f32
}
