// RUN: tt-opt %s -split-input-file -triton-combine | FileCheck %s

// A zero-accumulator dot added to another value takes that value as its accumulator: the dot moves to the
// add, which goes away (the zero constant, now unused, goes too).
// CHECK-LABEL: tt.func public @dot_add_f
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x16xf16>, %[[D:.*]]: tensor<16x16xf32>)
// CHECK-NEXT: %[[X:.*]] = arith.mulf %[[D]], %[[D]] : tensor<16x16xf32>
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[X]] : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
// CHECK-NEXT: tt.return %[[R]] : tensor<16x16xf32>
tt.func public @dot_add_f(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %d: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %dot = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %x = arith.mulf %d, %d : tensor<16x16xf32>
  %res = arith.addf %x, %dot : tensor<16x16xf32>
  tt.return %res : tensor<16x16xf32>
}

// -----

// The integer form, with the dot on the left of the add.
// CHECK-LABEL: tt.func public @dot_add_i
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xi8>, %[[B:.*]]: tensor<16x16xi8>, %[[D:.*]]: tensor<16x16xi32>)
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[D]] : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
// CHECK-NEXT: tt.return %[[R]] : tensor<16x16xi32>
tt.func public @dot_add_i(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %d: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %zero = arith.constant dense<0> : tensor<16x16xi32>
  %dot = tt.dot %a, %b, %zero : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  %res = arith.addi %dot, %d : tensor<16x16xi32>
  tt.return %res : tensor<16x16xi32>
}

// -----

// No change: a dot with another use, a dot with a non-zero accumulator, an f32 add of a dot with
// maxNumImpreciseAcc set.
// CHECK-LABEL: tt.func public @dot_add_unchanged
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK-NEXT: %[[D1:.*]] = tt.dot %arg0, %arg1, %[[Z]] :
// CHECK-NEXT: tt.store %arg3, %[[D1]]
// CHECK-NEXT: %[[R1:.*]] = arith.addf %[[D1]], %arg2
// CHECK-NEXT: %[[D2:.*]] = tt.dot %arg0, %arg1, %arg2 :
// CHECK-NEXT: %[[R2:.*]] = arith.addf %[[D2]], %arg2
// CHECK-NEXT: %[[D3:.*]] = tt.dot %arg0, %arg1, %[[Z]] {maxNumImpreciseAcc = 4 : i32}
// CHECK-NEXT: %[[R3:.*]] = arith.addf %[[D3]], %arg2
// CHECK-NEXT: tt.return %[[R1]], %[[R2]], %[[R3]]
tt.func public @dot_add_unchanged(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %d: tensor<16x16xf32>, %p: tensor<16x16x!tt.ptr<f32>>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %dot1 = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.store %p, %dot1 : tensor<16x16x!tt.ptr<f32>>
  %r1 = arith.addf %dot1, %d : tensor<16x16xf32>
  %dot2 = tt.dot %a, %b, %d : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r2 = arith.addf %dot2, %d : tensor<16x16xf32>
  %dot3 = tt.dot %a, %b, %zero {maxNumImpreciseAcc = 4 : i32} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r3 = arith.addf %dot3, %d : tensor<16x16xf32>
  tt.return %r1, %r2, %r3 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// addptr(addptr(p, a), b) -> addptr(p, a + b) for i64 offsets (keeping tt.divisibility, dropping other
// attributes) and for i32 constants whose sum fits (the sum folds); not for other i32 offsets, nor when the
// constant sum overflows.
// CHECK-LABEL: tt.func public @addptr_chains
// CHECK-SAME: (%[[P:[^:]*]]: tensor<8x!tt.ptr<f32>>, %[[A:[^:]*]]: tensor<8xi64>, %[[B:[^:]*]]: tensor<8xi64>, %[[C:[^:]*]]: tensor<8xi32>, %[[D:[^:]*]]: tensor<8xi32>)
// CHECK-DAG: %[[C3:.*]] = arith.constant dense<3> : tensor<8xi32>
// CHECK-DAG: %[[BIG:.*]] = arith.constant dense<2147483647> : tensor<8xi32>
// CHECK-DAG: %[[C2:.*]] = arith.constant dense<2> : tensor<8xi32>
// CHECK: %[[AB:.*]] = arith.addi %[[A]], %[[B]] : tensor<8xi64>
// CHECK-NEXT: %[[R1:.*]] = tt.addptr %[[P]], %[[AB]] {tt.divisibility = dense<16> : tensor<1xi32>} : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
// CHECK-NEXT: %[[Q2:.*]] = tt.addptr %[[P]], %[[C]]
// CHECK-NEXT: %[[R2:.*]] = tt.addptr %[[Q2]], %[[D]]
// CHECK-NEXT: %[[R3:.*]] = tt.addptr %[[P]], %[[C3]]
// CHECK-NEXT: %[[Q4:.*]] = tt.addptr %[[P]], %[[BIG]]
// CHECK-NEXT: %[[R4:.*]] = tt.addptr %[[Q4]], %[[C2]]
// CHECK-NEXT: tt.return %[[R1]], %[[R2]], %[[R3]], %[[R4]]
tt.func public @addptr_chains(%p: tensor<8x!tt.ptr<f32>>, %a: tensor<8xi64>, %b: tensor<8xi64>, %c: tensor<8xi32>, %d: tensor<8xi32>) -> (tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>) {
  %q = tt.addptr %p, %a : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  %r = tt.addptr %q, %b {tt.divisibility = dense<16> : tensor<1xi32>, foo = 1 : i32} : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  %q2 = tt.addptr %p, %c : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %r2 = tt.addptr %q2, %d : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %c1 = arith.constant 1 : i32
  %s1 = tt.splat %c1 : i32 -> tensor<8xi32>
  %c2 = arith.constant dense<2> : tensor<8xi32>
  %q3 = tt.addptr %p, %s1 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %r3 = tt.addptr %q3, %c2 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %big = arith.constant dense<2147483647> : tensor<8xi32>
  %q4 = tt.addptr %p, %big : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %r4 = tt.addptr %q4, %c2 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.return %r, %r2, %r3, %r4 : tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>, tensor<8x!tt.ptr<f32>>
}

// -----

// select(c, load(p, splat(c)), o) -> load(p, splat(c), o), keeping the cache modifier; a select on another
// condition stays.
// CHECK-LABEL: tt.func public @select_masked_load
// CHECK-NEXT: %[[M:.*]] = tt.splat %arg1 : i1 -> tensor<8xi1>
// CHECK-NEXT: %[[L:.*]] = tt.load %arg0, %[[M]], %arg3 cacheModifier = ca : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[L2:.*]] = tt.load %arg0, %[[M]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[S2:.*]] = arith.select %arg2, %[[L2]], %arg3 : tensor<8xf32>
// CHECK-NEXT: tt.return %[[L]], %[[S2]]
tt.func public @select_masked_load(%p: tensor<8x!tt.ptr<f32>>, %c: i1, %d: i1, %o: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %m = tt.splat %c : i1 -> tensor<8xi1>
  %l = tt.load %p, %m cacheModifier = ca : tensor<8x!tt.ptr<f32>>
  %s = arith.select %c, %l, %o : tensor<8xf32>
  %l2 = tt.load %p, %m : tensor<8x!tt.ptr<f32>>
  %s2 = arith.select %d, %l2, %o : tensor<8xf32>
  tt.return %s, %s2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// sum(x[:, :, None] * y[None, :, :], 1) -> dot(x, y) in tf32 with a zero accumulator.
// CHECK-LABEL: tt.func public @broadcast_mul_reduce
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
// CHECK-NEXT: %[[R:.*]] = tt.dot %arg0, %arg1, %[[Z]], inputPrecision = tf32 : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func public @broadcast_mul_reduce(%x: tensor<32x16xf32>, %y: tensor<16x32xf32>) -> tensor<32x32xf32> {
  %ex = tt.expand_dims %x {axis = 2 : i32} : tensor<32x16xf32> -> tensor<32x16x1xf32>
  %bx = tt.broadcast %ex : tensor<32x16x1xf32> -> tensor<32x16x32xf32>
  %ey = tt.expand_dims %y {axis = 0 : i32} : tensor<16x32xf32> -> tensor<1x16x32xf32>
  %by = tt.broadcast %ey : tensor<1x16x32xf32> -> tensor<32x16x32xf32>
  %m = arith.mulf %bx, %by : tensor<32x16x32xf32>
  %r = "tt.reduce"(%m) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<32x16x32xf32>) -> tensor<32x32xf32>
  tt.return %r : tensor<32x32xf32>
}

// -----

// A 1-D reshape feeding only a reduction or a histogram may reorder elements; one returned may not.
// CHECK-LABEL: tt.func public @reshape_reduce
// CHECK-NEXT: tt.reshape %arg0 allow_reorder
// CHECK: tt.reshape %arg0 : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-NEXT: tt.reshape %arg1 allow_reorder
tt.func public @reshape_reduce(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>) -> (f32, tensor<32xf32>, tensor<8xi32>) {
  %r = tt.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<32xf32>) -> f32
  %r2 = tt.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %r3 = tt.reshape %y : tensor<4x8xi32> -> tensor<32xi32>
  %h = tt.histogram %r3 : tensor<32xi32> -> tensor<8xi32>
  tt.return %s, %r2, %h : f32, tensor<32xf32>, tensor<8xi32>
}

// -----

// Nothing to combine: unchanged.
// CHECK-LABEL: tt.func public @unchanged
// CHECK-NEXT: %[[Q:.*]] = tt.addptr %arg0, %arg1 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
// CHECK-NEXT: %[[L:.*]] = tt.load %[[Q]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[L]], %arg2 : tensor<8xf32>
// CHECK-NEXT: tt.return %[[S]] : tensor<8xf32>
tt.func public @unchanged(%p: tensor<8x!tt.ptr<f32>>, %o: tensor<8xi32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %q = tt.addptr %p, %o : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %l = tt.load %q : tensor<8x!tt.ptr<f32>>
  %s = arith.addf %l, %x : tensor<8xf32>
  tt.return %s : tensor<8xf32>
}

// -----

// A reshape that only drops the leading unit dimensions of a descriptor load folds into the load (TMA can load a
// block with fewer dimensions than the descriptor's). Not when the load has another use, when a dropped
// dimension is not 1, or when the reshape changes the kept dimensions.
// CHECK-LABEL: tt.func public @rank_reduce_desc_load
// CHECK-NEXT: %[[L:.*]] = tt.descriptor_load %arg0[%arg1, %arg1, %arg1, %arg1] : !tt.tensordesc<tensor<1x1x32x16xbf16>> -> tensor<32x16xbf16>
// CHECK-NEXT: %[[L2:.*]] = tt.descriptor_load %arg0[%arg1, %arg1, %arg1, %arg1] : !tt.tensordesc<tensor<1x1x32x16xbf16>> -> tensor<1x1x32x16xbf16>
// CHECK-NEXT: %[[R2:.*]] = tt.reshape %[[L2]] : tensor<1x1x32x16xbf16> -> tensor<32x16xbf16>
// CHECK-NEXT: %[[L3:.*]] = tt.descriptor_load %arg2[%arg1, %arg1] : !tt.tensordesc<tensor<2x16xbf16>> -> tensor<2x16xbf16>
// CHECK-NEXT: %[[R3:.*]] = tt.reshape %[[L3]] : tensor<2x16xbf16> -> tensor<32xbf16>
// CHECK-NEXT: %[[L4:.*]] = tt.descriptor_load %arg0[%arg1, %arg1, %arg1, %arg1] : !tt.tensordesc<tensor<1x1x32x16xbf16>> -> tensor<1x1x32x16xbf16>
// CHECK-NEXT: %[[R4:.*]] = tt.reshape %[[L4]] : tensor<1x1x32x16xbf16> -> tensor<16x32xbf16>
// CHECK-NEXT: tt.return %[[L]], %[[R2]], %[[L2]], %[[R3]], %[[R4]]
tt.func public @rank_reduce_desc_load(%d: !tt.tensordesc<tensor<1x1x32x16xbf16>>, %i: i32, %e: !tt.tensordesc<tensor<2x16xbf16>>) -> (tensor<32x16xbf16>, tensor<32x16xbf16>, tensor<1x1x32x16xbf16>, tensor<32xbf16>, tensor<16x32xbf16>) {
  %l = tt.descriptor_load %d[%i, %i, %i, %i] : !tt.tensordesc<tensor<1x1x32x16xbf16>> -> tensor<1x1x32x16xbf16>
  %r = tt.reshape %l : tensor<1x1x32x16xbf16> -> tensor<32x16xbf16>
  %l2 = tt.descriptor_load %d[%i, %i, %i, %i] : !tt.tensordesc<tensor<1x1x32x16xbf16>> -> tensor<1x1x32x16xbf16>
  %r2 = tt.reshape %l2 : tensor<1x1x32x16xbf16> -> tensor<32x16xbf16>
  %l3 = tt.descriptor_load %e[%i, %i] : !tt.tensordesc<tensor<2x16xbf16>> -> tensor<2x16xbf16>
  %r3 = tt.reshape %l3 : tensor<2x16xbf16> -> tensor<32xbf16>
  %l4 = tt.descriptor_load %d[%i, %i, %i, %i] : !tt.tensordesc<tensor<1x1x32x16xbf16>> -> tensor<1x1x32x16xbf16>
  %r4 = tt.reshape %l4 : tensor<1x1x32x16xbf16> -> tensor<16x32xbf16>
  tt.return %r, %r2, %l2, %r3, %r4 : tensor<32x16xbf16>, tensor<32x16xbf16>, tensor<1x1x32x16xbf16>, tensor<32xbf16>, tensor<16x32xbf16>
}
