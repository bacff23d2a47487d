// RUN: tt-opt %s -cse --mlir-print-ir-before-all 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: tt-opt %s -cse --mlir-print-ir-before=cse 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: tt-opt %s -cse -cse --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: tt-opt %s -cse -cse --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: tt-opt %s -cse --mlir-print-ir-after-change 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: tt-opt %s -cse --mlir-print-ir-before=canonicalize 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: tt-opt %s -cse --mlir-print-ir-before-all 2>&1 >/dev/null | FileCheck %s --check-prefix=STDERR
// RUN: tt-opt %s -cse --mlir-print-ir-before-all --mlir-print-ir-module-scope --mlir-disable-threading 2>&1 | FileCheck %s --check-prefix=SCOPE

// IR printing around passes, as mlir-opt does it: on stderr, a header naming
// the pass (class name and flag), the IR, and two empty lines (the module's
// own trailing newline and the "\n\n" after it). The header names the
// operation only with --mlir-print-ir-module-scope (Triton's MLIR_ENABLE_DUMP
// turns that on; see dump-env.mlir). The final IR still goes to stdout.

// BEFORE:      // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT: module {
// BEFORE-NEXT:   tt.func @kernel(%arg0: i32) -> i32 {
// BEFORE-NEXT:     %0 = arith.addi %arg0, %arg0 : i32
// BEFORE-NEXT:     %1 = arith.addi %arg0, %arg0 : i32
// BEFORE-NEXT:     %2 = arith.muli %0, %1 : i32
// BEFORE-NEXT:     tt.return %2 : i32
// BEFORE-NEXT:   }
// BEFORE-NEXT: }
// BEFORE-EMPTY:
// BEFORE-EMPTY:
// BEFORE-NEXT: module {
// BEFORE-NEXT:   tt.func @kernel(%arg0: i32) -> i32 {
// BEFORE-NEXT:     %0 = arith.addi %arg0, %arg0 : i32
// BEFORE-NEXT:     %1 = arith.muli %0, %0 : i32
// BEFORE-NEXT:     tt.return %1 : i32
// BEFORE-NOT:  IR Dump

// AFTER:      // -----// IR Dump After CSE (cse) //----- //
// AFTER-NEXT: module {
// AFTER-NEXT:   tt.func @kernel(%arg0: i32) -> i32 {
// AFTER-NEXT:     %0 = arith.addi %arg0, %arg0 : i32
// AFTER-NEXT:     %1 = arith.muli %0, %0 : i32
// AFTER:      // -----// IR Dump After CSE (cse) //----- //
// AFTER-NOT:  IR Dump

// Only the first CSE changes the IR.
// CHANGE:     // -----// IR Dump After CSE (cse) //----- //
// CHANGE-NOT: IR Dump

// --mlir-print-ir-after-change alone prints nothing (it only filters the
// after-pass printing), nor does a filter naming a pass that is not run.
// NONE-NOT: IR Dump
// NONE:     module {
// NONE-NOT: IR Dump

// STDERR:      IR Dump Before CSE
// STDERR-NEXT: module {
// STDERR:      {{^}}}
// STDERR-NOT:  module {

// SCOPE:      // -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //
// SCOPE-NEXT: module {

tt.func @kernel(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  tt.return %2 : i32
}
