// RUN: tt-opt %s -split-input-file | FileCheck %s
// RUN: tt-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Literal LLVM struct types (nested, empty), llvm.mlir.undef and builtin.unrealized_conversion_cast read and
// print in MLIR's custom forms: a cast of several values, a cast from nothing, attributes after the types.
// CHECK-LABEL: tt.func @half_lowered
// CHECK-NEXT: %0 = builtin.unrealized_conversion_cast %arg0 : tensor<64xi32> to !llvm.struct<(i32, i32)>
// CHECK-NEXT: %1 = builtin.unrealized_conversion_cast %0 : !llvm.struct<(i32, i32)> to tensor<64xi32>
// CHECK-NEXT: %2:2 = builtin.unrealized_conversion_cast %arg0, %arg1 : tensor<64xi32>, i64 to !llvm.struct<(i64, !llvm.struct<(f16, i8)>)>, f32 {tag = 3 : i32}
// CHECK-NEXT: %3 = builtin.unrealized_conversion_cast to i32
// CHECK-NEXT: %4 = llvm.mlir.undef : !llvm.struct<()>
// CHECK-NEXT: %5 = llvm.mlir.undef {tag} : !llvm.struct<(i32, f32)>
// GENERIC: "builtin.unrealized_conversion_cast"(%arg0) : (tensor<64xi32>) -> !llvm.struct<(i32, i32)>
// GENERIC: "llvm.mlir.undef"() : () -> !llvm.struct<()>
tt.func @half_lowered(%x: tensor<64xi32>, %y: i64) {
  %s = builtin.unrealized_conversion_cast %x : tensor<64xi32> to !llvm.struct<(i32, i32)>
  %t = builtin.unrealized_conversion_cast %s : !llvm.struct<(i32, i32)> to tensor<64xi32>
  %u:2 = builtin.unrealized_conversion_cast %x, %y : tensor<64xi32>, i64 to !llvm.struct<(i64, !llvm.struct<(f16, i8)>)>, f32 {tag = 3 : i32}
  %v = builtin.unrealized_conversion_cast to i32
  %e = llvm.mlir.undef : !llvm.struct<()>
  %w = llvm.mlir.undef {tag} : !llvm.struct<(i32, f32)>
  tt.return
}
