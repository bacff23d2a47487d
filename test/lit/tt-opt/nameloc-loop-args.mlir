// RUN: tt-opt %s --mlir-use-nameloc-as-prefix | FileCheck %s

// scf.for prints no locations for its region arguments, so a name from a Triton dump (%acc) is kept as the
// argument's name; a positional name (%arg7) is not a value's name: arguments are numbered where they stand.

// CHECK-LABEL: tt.func @loop
// CHECK: scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%acc = %arg0, %arg4 = %arg0, %arg5 = %arg0) -> (f32, f32, f32)  : i32 {
// CHECK-NEXT: %1 = arith.addf %acc, %arg4 : f32
// CHECK-NEXT: scf.yield %1, %arg5, %acc : f32, f32, f32
module {
  tt.func @loop(%arg0: f32, %arg1: i32) -> f32 {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %r:3 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%acc = %arg0, %arg7 = %arg0, %arg3 = %arg0) -> (f32, f32, f32)  : i32 {
      %0 = arith.addf %acc, %arg7 : f32
      scf.yield %0, %arg3, %acc : f32, f32, f32
    }
    tt.return %r#0 : f32
  }
}
