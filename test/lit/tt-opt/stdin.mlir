// RUN: tt-opt < %s | FileCheck %s
// RUN: tt-opt - < %s | FileCheck %s
// RUN: cat %s | tt-opt -cse - | FileCheck %s --check-prefix=CSE
// RUN: echo 'tt.func @k() {' | not tt-opt - 2>&1 | FileCheck %s --check-prefix=ERR

// The input is read from stdin when no file is named or when it is `-`; its
// diagnostics name it <stdin>.

// CHECK:      tt.func @kernel(%arg0: i32) -> i32 {
// CHECK-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:   %1 = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:   %2 = arith.muli %0, %1 : i32
// CHECK-NEXT:   tt.return %2 : i32

// CSE:      tt.func @kernel(%arg0: i32) -> i32 {
// CSE-NEXT:   %0 = arith.addi %arg0, %arg0 : i32
// CSE-NEXT:   %1 = arith.muli %0, %0 : i32

// ERR:     {{^}}<stdin>:{{[0-9]+}}:{{[0-9]+}}: error:
// ERR-NOT: Traceback

tt.func @kernel(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  tt.return %2 : i32
}
