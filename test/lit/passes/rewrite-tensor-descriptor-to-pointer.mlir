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

// -----

// Descriptors cross functions as their values: a function's descriptor arguments and results (a declaration's
// too) become the pointer, shapes, strides and padding flag, the first taking the argument's attributes; tt.call
// passes and receives them, tt.return returns them.
// CHECK-LABEL: tt.func private @callee(%arg0: !tt.ptr<f16> {tt.note = 1 : i32}, %arg1: i64, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i1, %arg6: i32 {tt.divisibility = 16 : i32}) -> (!tt.ptr<f16>, i64, i64, i64, i64, i1)
// CHECK-NEXT: tt.return %arg0, %arg1, %arg2, %arg3, %arg4, %arg5 : !tt.ptr<f16>, i64, i64, i64, i64, i1
// CHECK-LABEL: tt.func private @decl(!tt.ptr<f32>, i64, i64, i1) -> i32
// CHECK-LABEL: tt.func public @caller(%arg0: !tt.ptr<f16>, %arg1: i64, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i1, %arg6: i32)
// CHECK-NEXT: %[[R:.*]]:6 = tt.call @callee(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) : (!tt.ptr<f16>, i64, i64, i64, i64, i1, i32) -> (!tt.ptr<f16>, i64, i64, i64, i64, i1)
// CHECK: tt.splat %[[R]]#0 : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
tt.func private @callee(%d: !tt.tensordesc<tensor<16x32xf16>> {tt.note = 1 : i32}, %k: i32 {tt.divisibility = 16 : i32}) -> !tt.tensordesc<tensor<16x32xf16>> {
  tt.return %d : !tt.tensordesc<tensor<16x32xf16>>
}
tt.func private @decl(!tt.tensordesc<tensor<16xf32>>) -> i32
tt.func public @caller(%d: !tt.tensordesc<tensor<16x32xf16>>, %k: i32) -> tensor<16x32xf16> {
  %r = tt.call @callee(%d, %k) : (!tt.tensordesc<tensor<16x32xf16>>, i32) -> !tt.tensordesc<tensor<16x32xf16>>
  %v = tt.descriptor_load %r[%k, %k] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  tt.return %v : tensor<16x32xf16>
}

// -----

// Control flow carries the values: an arith.select of descriptors becomes an scf.if yielding the chosen one's; scf.for
// carries them with its other values, scf.if and scf.while pass them on.
// CHECK-LABEL: tt.func public @flow
// CHECK: %[[S:.*]]:6 = scf.if %arg12 -> (!tt.ptr<f16>, i64, i64, i64, i64, i1) {
// CHECK-NEXT: scf.yield %arg0, %arg1, %arg2, %arg3, %arg4, %arg5 : !tt.ptr<f16>, i64, i64, i64, i64, i1
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg6, %arg7, %arg8, %arg9, %arg10, %arg11 : !tt.ptr<f16>, i64, i64, i64, i64, i1
// CHECK: %[[F:.*]]:7 = scf.for %{{.*}} = %{{.*}} to %arg13 step %{{.*}} iter_args(%[[P:[^ ]*]] = %[[S]]#0, %{{[^ ]*}} = %[[S]]#1, %{{[^ ]*}} = %[[S]]#2, %{{[^ ]*}} = %[[S]]#3, %{{[^ ]*}} = %[[S]]#4, %{{[^ ]*}} = %[[S]]#5, %[[ACC:[^ ]*]] = %{{.*}}) -> (!tt.ptr<f16>, i64, i64, i64, i64, i1, i32)
// CHECK: tt.splat %[[P]] : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
// CHECK: scf.yield %[[P]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<f16>, i64, i64, i64, i64, i1, i32
// CHECK: %[[G:.*]]:6 = scf.if %arg12 -> (!tt.ptr<f16>, i64, i64, i64, i64, i1) {
// CHECK-NEXT: scf.yield %[[F]]#0, %[[F]]#1, %[[F]]#2, %[[F]]#3, %[[F]]#4, %[[F]]#5
// CHECK: %[[W:.*]]:6 = scf.while (%{{.*}} = %[[G]]#0, {{.*}}) : (!tt.ptr<f16>, i64, i64, i64, i64, i1) -> (!tt.ptr<f16>, i64, i64, i64, i64, i1) {
// CHECK-NEXT: scf.condition(%arg12) %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<f16>, i64, i64, i64, i64, i1
// CHECK: ^bb0(%{{.*}}: !tt.ptr<f16>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i1):
// CHECK: tt.splat %[[W]]#0 : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
tt.func public @flow(%d: !tt.tensordesc<tensor<16x32xf16>>, %e: !tt.tensordesc<tensor<16x32xf16>>, %c: i1, %n: i32) -> tensor<16x32xf16> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = arith.select %c, %d, %e : !tt.tensordesc<tensor<16x32xf16>>
  %f:2 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %s, %acc = %c0) -> (!tt.tensordesc<tensor<16x32xf16>>, i32) : i32 {
    %v = tt.descriptor_load %x[%k, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
    tt.descriptor_store %e[%k, %c0], %v : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
    %a = arith.addi %acc, %k : i32
    scf.yield %x, %a : !tt.tensordesc<tensor<16x32xf16>>, i32
  }
  %g = scf.if %c -> (!tt.tensordesc<tensor<16x32xf16>>) {
    scf.yield %f#0 : !tt.tensordesc<tensor<16x32xf16>>
  } else {
    scf.yield %d : !tt.tensordesc<tensor<16x32xf16>>
  }
  %w = scf.while (%y = %g) : (!tt.tensordesc<tensor<16x32xf16>>) -> (!tt.tensordesc<tensor<16x32xf16>>) {
    scf.condition(%c) %y : !tt.tensordesc<tensor<16x32xf16>>
  } do {
  ^bb0(%z: !tt.tensordesc<tensor<16x32xf16>>):
    scf.yield %z : !tt.tensordesc<tensor<16x32xf16>>
  }
  %r = tt.descriptor_load %w[%f#1, %c0] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  tt.return %r : tensor<16x32xf16>
}

// -----

// A gather loads rows x_offsets[i] from column y_offset: the row offsets, expanded to a column and extended to
// i64, take dimension 0's place; a scatter stores to the same pointers under the same mask. A rank-reducing load
// reshapes the block it loads.
// CHECK-LABEL: tt.func public @rows
// CHECK: %[[X:.*]] = tt.expand_dims %arg2 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
// CHECK-NEXT: %[[Y:.*]] = arith.extsi %arg3 : i32 to i64
// CHECK-NEXT: %[[X64:.*]] = arith.extsi %[[X]] : tensor<8x1xi32> to tensor<8x1xi64>
// CHECK-NEXT: %[[YS:.*]] = tt.splat %[[Y]] : i64 -> tensor<16xi64>
// CHECK: %[[P:.*]] = tt.splat %arg0 : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>>
// CHECK-NEXT: %[[ST:.*]] = tt.splat %c64_i64 : i64 -> tensor<8x1xi64>
// CHECK-NEXT: arith.muli %[[X64]], %[[ST]] : tensor<8x1xi64>
// CHECK: arith.cmpi sge, %[[X64]], %{{.*}} : tensor<8x1xi64>
// CHECK: %[[G:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x16x!tt.ptr<f32>>
// CHECK: tt.store %{{.*}}, %[[G]], %{{.*}} : tensor<8x16x!tt.ptr<f32>>
// CHECK: %[[B:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8x16x!tt.ptr<f32>>
// CHECK-NEXT: tt.reshape %[[B]] : tensor<1x8x16xf32> -> tensor<8x16xf32>
tt.func public @rows(%p: !tt.ptr<f32>, %m: i32, %x: tensor<8xi32>, %y: i32, %e: !tt.tensordesc<tensor<1x8x16xf32>>) -> tensor<8x16xf32> {
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %d = tt.make_tensor_descriptor %p, [%m, %m], [%c64, %c1] : <f32>, <tensor<1x16xf32>>
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32) -> tensor<8x16xf32>
  tt.descriptor_scatter %d[%x, %y], %0 : !tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32, tensor<8x16xf32>
  %1 = tt.descriptor_load %e[%m, %m, %m] : !tt.tensordesc<tensor<1x8x16xf32>> -> tensor<8x16xf32>
  tt.return %1 : tensor<8x16xf32>
}
