// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -canonicalize -cse | FileCheck %s
// RUN: not tt-opt %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not tt-opt %S/Inputs/unknown-custom-op.mlir -allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=CUSTOM

// -allow-unregistered-dialect reads ops of unknown dialects in the generic
// form and prints them back the same way. Their effects are unknown: neither
// DCE nor CSE removes or merges them, while the registered ops around them are
// still simplified.

// CHECK-LABEL: tt.func @keep
// CHECK-NEXT:    %0 = "def"() : () -> i32
// CHECK-NEXT:    %1 = "def"() : () -> i32
// CHECK-NEXT:    %2 = arith.addi %arg0, %0 : i32
// CHECK-NEXT:    "use"(%2, %1) {tag = 1 : i32} : (i32, i32) -> ()
// CHECK-NEXT:    "test.region"() ({
// CHECK-NEXT:      "body"(%arg0) : (i32) -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    tt.return
// ERR: unregistered-dialect.mlir:[[# @LINE + 2]]:13: error: custom op 'def' is unknown
tt.func @keep(%a: i32) {
  %0 = "def"() : () -> i32
  %1 = "def"() : () -> i32
  %2 = arith.addi %a, %0 : i32
  %dead = arith.addi %a, %a : i32
  "use"(%2, %1) {tag = 1 : i32} : (i32, i32) -> ()
  "test.region"() ({
    "body"(%a) : (i32) -> ()
  }) : () -> ()
  tt.return
}

// An op of a dialect ttc does not know, written in a custom form, cannot be
// read even with the flag: the error names it.
// CUSTOM: unknown-custom-op.mlir:4:14: error: custom op 'unknown.op' is unknown
