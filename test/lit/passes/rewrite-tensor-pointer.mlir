// RUN: tt-opt %s -split-input-file -verify-diagnostics -triton-rewrite-tensor-pointer | FileCheck %s

// A load through a block pointer: i64 offsets (extsi), pointers splat(base) + per-dimension broadcast offsets *
// strides, the mask of the checked dimension (1), and the NaN padding as `other`.
// CHECK-LABEL: tt.func public @rewrite_load
// CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f16>)
// CHECK-DAG: %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1_I64:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C32_I64:.*]] = arith.constant 32 : i64
// CHECK: %[[OFF0:.*]] = arith.extsi %[[C0_I32]] : i32 to i64
// CHECK-NEXT: %[[OFF1:.*]] = arith.extsi %[[C0_I32]] : i32 to i64
// CHECK-NEXT: %[[PTRS:.*]] = tt.splat %[[BASE]] : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>>
// CHECK-NEXT: %[[S0:.*]] = tt.splat %[[OFF0]] : i64 -> tensor<128xi64>
// CHECK-NEXT: %[[R0:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT: %[[R0L:.*]] = arith.extsi %[[R0]] : tensor<128xi32> to tensor<128xi64>
// CHECK-NEXT: %[[O0:.*]] = arith.addi %[[S0]], %[[R0L]] : tensor<128xi64>
// CHECK-NEXT: %[[E0:.*]] = tt.expand_dims %[[O0]] {axis = 1 : i32} : tensor<128xi64> -> tensor<128x1xi64>
// CHECK-NEXT: %[[ST0:.*]] = tt.splat %[[C1_I64]] : i64 -> tensor<128x1xi64>
// CHECK-NEXT: %[[M0:.*]] = arith.muli %[[E0]], %[[ST0]] : tensor<128x1xi64>
// CHECK-NEXT: %[[B0:.*]] = tt.broadcast %[[M0]] : tensor<128x1xi64> -> tensor<128x32xi64>
// CHECK-NEXT: %[[P0:.*]] = tt.addptr %[[PTRS]], %[[B0]] : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi64>
// CHECK-NEXT: %[[S1:.*]] = tt.splat %[[OFF1]] : i64 -> tensor<32xi64>
// CHECK-NEXT: %[[R1:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT: %[[R1L:.*]] = arith.extsi %[[R1]] : tensor<32xi32> to tensor<32xi64>
// CHECK-NEXT: %[[O1:.*]] = arith.addi %[[S1]], %[[R1L]] : tensor<32xi64>
// CHECK-NEXT: %[[E1:.*]] = tt.expand_dims %[[O1]] {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK-NEXT: %[[ST1:.*]] = tt.splat %[[C1_I64]] : i64 -> tensor<1x32xi64>
// CHECK-NEXT: %[[M1:.*]] = arith.muli %[[E1]], %[[ST1]] : tensor<1x32xi64>
// CHECK-NEXT: %[[B1:.*]] = tt.broadcast %[[M1]] : tensor<1x32xi64> -> tensor<128x32xi64>
// CHECK-NEXT: %[[P1:.*]] = tt.addptr %[[P0]], %[[B1]] : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi64>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT: %[[SZ:.*]] = tt.splat %[[ZERO]] : i64 -> tensor<1x32xi64>
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[E1]], %[[SZ]] : tensor<1x32xi64>
// CHECK-NEXT: %[[SH:.*]] = tt.splat %[[C32_I64]] : i64 -> tensor<1x32xi64>
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[E1]], %[[SH]] : tensor<1x32xi64>
// CHECK-NEXT: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : tensor<1x32xi1>
// CHECK-NEXT: %[[MASK:.*]] = tt.broadcast %[[IN]] : tensor<1x32xi1> -> tensor<128x32xi1>
// CHECK-NEXT: %[[NAN:.*]] = arith.constant 0x7E00 : f16
// CHECK-NEXT: %[[OTHER:.*]] = tt.splat %[[NAN]] : f16 -> tensor<128x32xf16>
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P1]], %[[MASK]], %[[OTHER]] : tensor<128x32x!tt.ptr<f16>>
// CHECK-NEXT: tt.return %[[L]]
tt.func public @rewrite_load(%arg0: !tt.ptr<f16>) -> tensor<128x32xf16> {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c32_i64 = arith.constant 32 : i64
  %c128_i64 = arith.constant 128 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c32_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x32xf16>>
  %load = tt.load %0 {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x32xf16>>
  tt.return %load : tensor<128x32xf16>
}

// -----

// A 3-D store checking dimensions 2 then 0 (masks and-ed in that order); a load and a store without
// boundary check get no mask (and no `other`).
// CHECK-LABEL: tt.func public @rewrite_store
// CHECK: %[[E0:.*]] = tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<4x1xi64> -> tensor<4x1x1xi64>
// CHECK: tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<1x8xi64> -> tensor<1x8x1xi64>
// CHECK: %[[E2:.*]] = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<1x2xi64> -> tensor<1x1x2xi64>
// CHECK: %[[PTRS:.*]] = tt.addptr %{{.*}} : tensor<4x8x2x!tt.ptr<i32>>, tensor<4x8x2xi64>
// CHECK-NEXT: arith.constant 0 : i64
// CHECK-NEXT: tt.splat
// CHECK-NEXT: arith.cmpi sge, %[[E2]]
// CHECK-NEXT: tt.splat %c32_i64
// CHECK-NEXT: arith.cmpi slt, %[[E2]]
// CHECK-NEXT: arith.andi
// CHECK-NEXT: %[[M2:.*]] = tt.broadcast %{{.*}} : tensor<1x1x2xi1> -> tensor<4x8x2xi1>
// CHECK-NEXT: arith.constant 0 : i64
// CHECK-NEXT: tt.splat
// CHECK-NEXT: arith.cmpi sge, %[[E0]]
// CHECK-NEXT: tt.splat %c128_i64
// CHECK-NEXT: arith.cmpi slt, %[[E0]]
// CHECK-NEXT: arith.andi
// CHECK-NEXT: %[[M0:.*]] = tt.broadcast %{{.*}} : tensor<4x1x1xi1> -> tensor<4x8x2xi1>
// CHECK-NEXT: %[[MASK:.*]] = arith.andi %[[M2]], %[[M0]] : tensor<4x8x2xi1>
// CHECK-NEXT: tt.store %[[PTRS]], %arg1, %[[MASK]] : tensor<4x8x2x!tt.ptr<i32>>
// CHECK: %[[L:.*]] = tt.load %{{[0-9]+}} : tensor<4x8x2x!tt.ptr<i32>>
// CHECK: tt.store %{{[0-9]+}}, %[[L]] : tensor<4x8x2x!tt.ptr<i32>>
// CHECK-NEXT: tt.return
tt.func public @rewrite_store(%arg0: !tt.ptr<i32>, %v: tensor<4x8x2xi32>, %o: i32) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c32_i64 = arith.constant 32 : i64
  %c128_i64 = arith.constant 128 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c32_i64, %c32_i64], [%c32_i64, %c1_i64, %c1_i64], [%o, %c0_i32, %o] {order = array<i32: 2, 1, 0>} : <tensor<4x8x2xi32>>
  tt.store %0, %v {boundaryCheck = array<i32: 2, 0>} : !tt.ptr<tensor<4x8x2xi32>>
  %l = tt.load %0 : !tt.ptr<tensor<4x8x2xi32>>
  tt.store %0, %l : !tt.ptr<tensor<4x8x2xi32>>
  tt.return
}

// -----

// A loop carrying a block pointer carries its two i64 offsets instead (attributes kept); the loop's pointer
// result is used after the loop through those offsets.
// CHECK-LABEL: tt.func public @rewrite_for
// CHECK: %[[OFF0:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %[[OFF1:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %[[FOR:.*]]:4 = scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args(%[[ACC:.*]] = %cst, %[[A4:.*]] = %[[OFF0]], %[[A5:.*]] = %[[OFF1]], %[[A6:.*]] = %c0_i32) -> (tensor<128x32xf16>, i64, i64, i32) {
// CHECK: tt.splat %[[A4]] : i64 -> tensor<128xi64>
// CHECK: tt.splat %[[A5]] : i64 -> tensor<32xi64>
// CHECK: %[[L:.*]] = tt.load
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[L]]
// CHECK-NEXT: %[[D0:.*]] = arith.extsi %c32_i32 : i32 to i64
// CHECK-NEXT: %[[N0:.*]] = arith.addi %[[A4]], %[[D0]] : i64
// CHECK-NEXT: %[[D1:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %[[N1:.*]] = arith.addi %[[A5]], %[[D1]] : i64
// CHECK-NEXT: %[[I:.*]] = arith.addi %[[A6]], %c32_i32 : i32
// CHECK-NEXT: scf.yield %[[SUM]], %[[N0]], %[[N1]], %[[I]] : tensor<128x32xf16>, i64, i64, i32
// CHECK-NEXT: } {tt.num_stages = 2 : i32}
// CHECK-NEXT: tt.splat %arg0
// CHECK-NEXT: tt.splat %[[FOR]]#1 : i64 -> tensor<128xi64>
// CHECK: tt.splat %[[FOR]]#2 : i64 -> tensor<32xi64>
// CHECK: tt.store %{{.*}}, %[[FOR]]#0
tt.func public @rewrite_for(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c0_i32 = arith.constant 0 : i32
  %c32_i32 = arith.constant 32 : i32
  %c1_i64 = arith.constant 1 : i64
  %c32_i64 = arith.constant 32 : i64
  %c128_i64 = arith.constant 128 : i64
  %cst = arith.constant dense<0.000000e+00> : tensor<128x32xf16>
  %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c32_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x32xf16>>
  %1:3 = scf.for %arg2 = %c0 to %c32 step %c1 iter_args(%arg3 = %cst, %arg4 = %0, %arg5 = %c0_i32) -> (tensor<128x32xf16>, !tt.ptr<tensor<128x32xf16>>, i32) {
    %3 = tt.load %arg4 {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x32xf16>>
    %4 = arith.addf %arg3, %3 : tensor<128x32xf16>
    %5 = tt.advance %arg4, [%c32_i32, %c0_i32] : <tensor<128x32xf16>>
    %6 = arith.addi %arg5, %c32_i32 : i32
    scf.yield %4, %5, %6 : tensor<128x32xf16>, !tt.ptr<tensor<128x32xf16>>, i32
  } {tt.num_stages = 2 : i32}
  %2 = tt.load %1#1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x32xf16>>
  %7 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>>
  tt.store %7, %1#0 : tensor<128x32x!tt.ptr<f16>>
  tt.store %7, %2 : tensor<128x32x!tt.ptr<f16>>
  tt.return
}

// -----

// An scf.if yielding a block pointer yields its offsets.
// CHECK-LABEL: tt.func public @rewrite_if
// CHECK: %[[OFF0:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %[[OFF1:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %[[IF:.*]]:3 = scf.if %arg1 -> (i32, i64, i64) {
// CHECK-NEXT: %[[X:.*]] = arith.addi %arg2, %c32_i32 : i32
// CHECK-NEXT: %[[Y:.*]] = arith.muli %[[X]], %[[X]] : i32
// CHECK-NEXT: %[[D0:.*]] = arith.extsi %[[Y]] : i32 to i64
// CHECK-NEXT: %[[N0:.*]] = arith.addi %[[OFF0]], %[[D0]] : i64
// CHECK-NEXT: %[[D1:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %[[N1:.*]] = arith.addi %[[OFF1]], %[[D1]] : i64
// CHECK-NEXT: scf.yield %[[X]], %[[N0]], %[[N1]] : i32, i64, i64
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2, %[[OFF0]], %[[OFF1]] : i32, i64, i64
// CHECK-NEXT: }
// CHECK: tt.splat %[[IF]]#1 : i64 -> tensor<128xi64>
// CHECK: tt.splat %[[IF]]#2 : i64 -> tensor<32xi64>
// CHECK: tt.return %{{.*}}, %[[IF]]#0
tt.func public @rewrite_if(%arg0: !tt.ptr<f16>, %arg1: i1, %arg2: i32) -> (tensor<128x32xf16>, i32) {
  %c0_i32 = arith.constant 0 : i32
  %c32_i32 = arith.constant 32 : i32
  %c1_i64 = arith.constant 1 : i64
  %c32_i64 = arith.constant 32 : i64
  %c128_i64 = arith.constant 128 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c32_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<128x32xf16>>
  %1:2 = scf.if %arg1 -> (i32, !tt.ptr<tensor<128x32xf16>>) {
    %x = arith.addi %arg2, %c32_i32 : i32
    %y = arith.muli %x, %x : i32
    %2 = tt.advance %0, [%y, %c0_i32] : <tensor<128x32xf16>>
    scf.yield %x, %2 : i32, !tt.ptr<tensor<128x32xf16>>
  } else {
    scf.yield %arg2, %0 : i32, !tt.ptr<tensor<128x32xf16>>
  }
  %4 = tt.load %1#1 {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x32xf16>>
  tt.return %4, %1#0 : tensor<128x32xf16>, i32
}

// -----

// Nested loops: the inner loop carries the outer loop's offsets; zero padding of bf16.
// CHECK-LABEL: tt.func public @nested
// CHECK: scf.for %{{.*}} iter_args(%[[P0:.*]] = %{{.*}}, %[[P1:.*]] = %{{.*}}, %[[ACC:.*]] = %cst) -> (i64, i64, tensor<16x16xbf16>)
// CHECK-NEXT: %[[IN:.*]]:3 = scf.for %{{.*}} iter_args(%[[Q0:.*]] = %[[P0]], %[[Q1:.*]] = %[[P1]], %{{.*}} = %[[ACC]]) -> (i64, i64, tensor<16x16xbf16>)
// CHECK: arith.constant 0.000000e+00 : bf16
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}} : i64, i64, tensor<16x16xbf16>
// CHECK: arith.addi %[[IN]]#0
// CHECK: arith.addi %[[IN]]#1
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[IN]]#2 : i64, i64, tensor<16x16xbf16>
tt.func public @nested(%arg0: !tt.ptr<bf16>, %n: i32) -> tensor<16x16xbf16> {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c16_i32 = arith.constant 16 : i32
  %c0_i64 = arith.constant 0 : i64
  %c128_i64 = arith.constant 128 : i64
  %z = arith.constant dense<0.0> : tensor<16x16xbf16>
  %1 = tt.make_tensor_ptr %arg0, [%c128_i64, %c128_i64], [%c128_i64, %c0_i64], [%c0_i32, %c0_i32] {order = array<i32: 0, 1>} : <tensor<16x16xbf16>>
  %2:2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%p = %1, %acc = %z) -> (!tt.ptr<tensor<16x16xbf16>>, tensor<16x16xbf16>)  : i32 {
    %3:2 = scf.for %j = %c0_i32 to %n step %c1_i32 iter_args(%q = %p, %acc2 = %acc) -> (!tt.ptr<tensor<16x16xbf16>>, tensor<16x16xbf16>)  : i32 {
      %v = tt.load %q {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x16xbf16>>
      %s = arith.addf %acc2, %v : tensor<16x16xbf16>
      %4 = tt.advance %q, [%c0_i32, %c16_i32] : <tensor<16x16xbf16>>
      scf.yield %4, %s : !tt.ptr<tensor<16x16xbf16>>, tensor<16x16xbf16>
    }
    %5 = tt.advance %3#0, [%c16_i32, %c0_i32] : <tensor<16x16xbf16>>
    scf.yield %5, %3#1 : !tt.ptr<tensor<16x16xbf16>>, tensor<16x16xbf16>
  }
  tt.return %2#1 : tensor<16x16xbf16>
}

// -----

// No block pointers: unchanged.
// CHECK-LABEL: tt.func public @untouched
// CHECK-NEXT: %[[L:.*]] = tt.load %arg0 : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[R:.*]] = scf.if %arg1 -> (tensor<8xf32>) {
// CHECK-NEXT: scf.yield %[[L]] : tensor<8xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[L]] : tensor<8xf32>
// CHECK-NEXT: scf.yield %[[N]] : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]] : tensor<8xf32>
tt.func public @untouched(%arg0: tensor<8x!tt.ptr<f32>>, %c: i1) -> tensor<8xf32> {
  %l = tt.load %arg0 : tensor<8x!tt.ptr<f32>>
  %r = scf.if %c -> (tensor<8xf32>) {
    scf.yield %l : tensor<8xf32>
  } else {
    %n = arith.negf %l : tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  tt.return %r : tensor<8xf32>
}

// -----

// Block pointers may only flow through scf.for and scf.if (as in Triton); elsewhere the pass fails.
tt.func public @in_while(%arg0: !tt.ptr<f16>, %c: i1) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c1_i64, %c1_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16xf16>>
  // expected-error @+1 {{'scf.while' op uses a block pointer: only scf.for and scf.if may carry block pointers}}
  %1 = scf.while (%p = %0) : (!tt.ptr<tensor<16x16xf16>>) -> (!tt.ptr<tensor<16x16xf16>>) {
    scf.condition(%c) %p : !tt.ptr<tensor<16x16xf16>>
  } do {
  ^bb0(%q: !tt.ptr<tensor<16x16xf16>>):
    scf.yield %q : !tt.ptr<tensor<16x16xf16>>
  }
  tt.return
}
