// RUN: tt-opt %s -split-input-file | FileCheck %s
// RUN: not tt-opt %S/Inputs/bad-quoted-predicate.mlir 2>&1 | FileCheck %s --check-prefix=BAD

// Forms people write that triton-opt reads (MLIR's parser accepts them) and
// that tt-opt prints back in the canonical form.

// Enum keywords may be quoted strings.
// CHECK-LABEL: tt.func @quoted_predicates
// CHECK: arith.cmpi slt, %arg0, %arg1 : i32
// CHECK: arith.cmpf olt, %arg2, %arg2 : f32
tt.func @quoted_predicates(%a: i32, %b: i32, %x: f32) -> i1 {
  %0 = arith.cmpi "slt", %a, %b : i32
  %1 = arith.cmpf "olt", %x, %x : f32
  %2 = arith.andi %0, %1 : i1
  tt.return %2 : i1
}

// -----

// A single result type after `->` needs no parentheses (scf.if, scf.for);
// the printer always adds them, as MLIR's does for these ops.
// CHECK-LABEL: tt.func @arrow_types
// CHECK: %0 = scf.if %arg1 -> (f32) {
// CHECK: %1 = scf.for %arg3 = %arg0 to %arg0 step %arg0 iter_args(%arg4 = %0) -> (f32)  : i32 {
// CHECK: %2 = scf.for %arg3 = %arg0 to %arg0 step %arg0 iter_args(%arg4 = %1) -> (f32)  : i32 {
tt.func @arrow_types(%n: i32, %c: i1, %x: f32) -> f32 {
  %0 = scf.if %c -> f32 {
    scf.yield %x : f32
  } else {
    scf.yield %x : f32
  }
  %1 = scf.for %i = %n to %n step %n iter_args(%v = %0) -> f32 : i32 {
    scf.yield %v : f32
  }
  %2 = scf.for %i = %n to %n step %n iter_args(%v = %1) -> (f32) : i32 {
    scf.yield %v : f32
  }
  tt.return %2 : f32
}

// -----

// A chunk holding only alias definitions is an empty module, and the next
// chunk may define the same alias anew.
// CHECK: module {
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @redeclared
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @redeclared(%a: tensor<256xi32, #blocked>) {
    tt.return
  }
}

// -----

// An optional operand in an optional group may be left out after the group's
// comma (MLIR reads it with parseOptionalOperand): `tt.load %p, :`.
// CHECK-LABEL: tt.func @load_trailing_comma
// CHECK: tt.load %arg0 : !tt.ptr<f32>
tt.func @load_trailing_comma(%p: !tt.ptr<f32>) -> f32 {
  %0 = tt.load %p, : !tt.ptr<f32>
  tt.return %0 : f32
}

// BAD: bad-quoted-predicate.mlir:4:19: error: Expected one of 'eq', 'ne', 'sge', 'sgt', 'sle', 'slt', 'uge', 'ugt', 'ule', 'ult' for 'predicate'
