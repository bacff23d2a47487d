// RUN: tt-opt %s -split-input-file -triton-rewrite-tensor-descriptor-to-pointer | FileCheck %s
// RUN: tt-opt %s -split-input-file -make-ttir=target=cuda:80 | FileCheck %s --check-prefix=TTIR
// RUN: tt-opt %s -split-input-file -make-ttir | FileCheck %s --check-prefix=SM90

// A descriptor argument becomes its pointer, i64 shape and strides and an i1 padding flag (the i32 shape and
// i64 stride arguments after it stay); a load is a masked tt.load whose `other` is select(padding, NaN, 0), its
// pointers splat(base) advanced per dimension by broadcast((splat(offset) + make_range) * splat(stride)), its
// mask 0 <= offsets < shape; a store a masked tt.store. make-ttir does this for targets below sm_90 only.
// CHECK-LABEL: tt.func public @copy(%arg0: !tt.ptr<f16>, %arg1: i64, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i1, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: i32)
// CHECK: %[[OFF:.*]] = arith.extsi %arg10 : i32 to i64
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7E00> : tensor<16x32xf16>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf16>
// CHECK-NEXT: %[[OTHER:.*]] = arith.select %arg5, %[[NAN]], %[[ZERO]] : tensor<16x32xf16>
// CHECK-NEXT: %[[S0:.*]] = tt.splat %[[OFF]] : i64 -> tensor<16xi64>
// CHECK-NEXT: %[[R0:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK: %[[E0:.*]] = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: %[[P:.*]] = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
// CHECK-NEXT: %[[ST0:.*]] = tt.splat %arg3 : i64 -> tensor<16x1xi64>
// CHECK-NEXT: %[[M0:.*]] = arith.muli %[[E0]], %[[ST0]] : tensor<16x1xi64>
// CHECK-NEXT: %[[B0:.*]] = tt.broadcast %[[M0]] : tensor<16x1xi64> -> tensor<16x32xi64>
// CHECK-NEXT: %[[P0:.*]] = tt.addptr %[[P]], %[[B0]] : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi64>
// CHECK: %[[LO:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<16x1xi64>
// CHECK: %[[SH0:.*]] = tt.splat %arg1 : i64 -> tensor<16x1xi64>
// CHECK-NEXT: %[[HI:.*]] = arith.cmpi slt, %{{.*}}, %[[SH0]] : tensor<16x1xi64>
// CHECK: %[[L:.*]] = tt.load %{{.*}}, %{{.*}}, %[[OTHER]] : tensor<16x32x!tt.ptr<f16>>
// CHECK: tt.store %{{.*}}, %[[L]], %{{.*}} : tensor<16x32x!tt.ptr<f16>>
// TTIR-LABEL: tt.func public @copy(%arg0: !tt.ptr<f16>
// TTIR: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32x!tt.ptr<f16>>
// SM90-LABEL: tt.func public @copy(%arg0: !tt.tensordesc<tensor<16x32xf16>>
// SM90: tt.descriptor_load
tt.func public @copy(%d: !tt.tensordesc<tensor<16x32xf16>>, %d0: i32, %d1: i32, %d2: i64, %d3: i64, %off: i32) {
  %c0 = arith.constant 0 : i32
  %v = tt.descriptor_load %d[%off, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  tt.descriptor_store %d[%off, %c0], %v : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
  tt.return
}

// -----

// Made in the kernel: the shape extended to i64, the padding a constant; an integer block's `other` is zeros;
// an atomic add through the descriptor is a tt.atomic_rmw (release, gpu) of the same pointers and mask.
// CHECK-LABEL: tt.func public @made
// CHECK: %[[N:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK-NEXT: %[[PAD:.*]] = arith.constant false
// CHECK: %[[Z:.*]] = arith.constant dense<0> : tensor<64xi32>
// CHECK: tt.splat %arg0 : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
// CHECK: %[[HI:.*]] = tt.splat %[[N]] : i64 -> tensor<64xi64>
// CHECK: tt.load %{{.*}}, %{{.*}}, %[[Z]] : tensor<64x!tt.ptr<i32>>
// CHECK: tt.atomic_rmw add, release, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi1>) -> tensor<64xi32>
tt.func public @made(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %p, [%n], [%c1] : <i32>, <tensor<64xsi32>>
  %v = tt.descriptor_load %d[%c0] : !tt.tensordesc<tensor<64xsi32>> -> tensor<64xi32>
  tt.descriptor_reduce add, %d[%c0], %v : !tt.tensordesc<tensor<64xsi32>>, tensor<64xi32>
  tt.return
}
