// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// CHECK-LABEL: tt.func public @add_kernel
// CHECK-SAME: (%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32)
// CHECK: %[[CST:.*]] = arith.constant dense<0xFF800000> : tensor<1024xf32>
// CHECK: %[[PID:.*]] = tt.get_program_id x : i32
// CHECK: tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
// CHECK: tt.load %{{.*}}, %{{.*}}, %[[CST]] cacheModifier = ca : tensor<1024x!tt.ptr<f32>>
tt.func public @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %c = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %pid = tt.get_program_id x : i32
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %s = tt.splat %n : i32 -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %s : tensor<1024xi32>
  %p = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %q = tt.addptr %p, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %v = tt.load %q, %m, %c cacheModifier = ca : tensor<1024x!tt.ptr<f32>>
  tt.store %q, %v, %m : tensor<1024x!tt.ptr<f32>>
  tt.return
}
