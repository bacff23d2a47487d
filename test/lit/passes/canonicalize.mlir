// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -canonicalize | FileCheck %s

// Scalar folds with exact wrap-around (i8 127 + 1), truncating signed division, f32 rounding (0.1 + 0.2) and
// overflow to +inf; constants end up at the start of the entry block, as MLIR's folder puts them.
// CHECK-LABEL: tt.func public @fold_scalars
// CHECK-NEXT: %[[C:.*]] = arith.constant -128 : i8
// CHECK-NEXT: %[[D:.*]] = arith.constant -3 : i32
// CHECK-NEXT: %[[R:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[S:.*]] = arith.constant 3.000000e-01 : f32
// CHECK-NEXT: %[[I:.*]] = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %[[F:.*]] = arith.constant false
// CHECK-NEXT: %[[E:.*]] = arith.constant -2 : i64
// CHECK-NEXT: tt.return %[[C]], %[[D]], %[[R]], %[[S]], %[[I]], %[[F]], %[[E]]
tt.func public @fold_scalars(%x: i32) -> (i8, i32, i32, f32, f32, i1, i64) {
  %c127 = arith.constant 127 : i8
  %c1_i8 = arith.constant 1 : i8
  %0 = arith.addi %c127, %c1_i8 : i8
  %c7 = arith.constant 7 : i32
  %cm2 = arith.constant -2 : i32
  %1 = arith.divsi %c7, %cm2 : i32
  %2 = arith.remsi %c7, %cm2 : i32
  %a = arith.constant 1.000000e-01 : f32
  %b = arith.constant 2.000000e-01 : f32
  %3 = arith.addf %a, %b : f32
  %big = arith.constant 3.000000e+38 : f32
  %4 = arith.mulf %big, %big : f32
  %5 = arith.cmpi ult, %cm2, %c7 : i32
  %6 = arith.extsi %cm2 : i32 to i64
  tt.return %0, %1, %2, %3, %4, %5, %6 : i8, i32, i32, f32, f32, i1, i64
}

// -----

// What LLVM refuses to fold stays: division by zero, a shift by the width, INT_MIN / -1, an inexact truncf.
// Tensor cmpf is not folded either (MLIR folds scalar cmpf only).
// CHECK-LABEL: tt.func public @no_fold
// CHECK: arith.divsi %c1_i32, %c0_i32 : i32
// CHECK: arith.shli %c1_i32, %c32_i32 : i32
// CHECK: arith.divsi %c-2147483648_i32, %c-1_i32 : i32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.cmpf oeq, %{{.*}}, %arg1 : tensor<4xf32>
tt.func public @no_fold(%x: i32, %t: tensor<4xf32>) -> (i32, i32, i32, f16, tensor<4xi1>) {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %0 = arith.divsi %c1, %c0 : i32
  %1 = arith.shli %c1, %c32 : i32
  %2 = arith.divsi %min, %m1 : i32
  %f = arith.constant 1.000000e-01 : f32
  %3 = arith.truncf %f : f32 to f16
  %nan = arith.constant dense<0x7FC00000> : tensor<4xf32>
  %4 = arith.cmpf oeq, %nan, %t : tensor<4xf32>
  tt.return %0, %1, %2, %3, %4 : i32, i32, i32, f16, tensor<4xi1>
}

// -----

// Splat tensor constants fold elementwise; tt.splat of a constant, and broadcast / expand_dims of a splat
// constant, become constants.
// CHECK-LABEL: tt.func public @splats
// CHECK-NEXT: %[[A:.*]] = arith.constant dense<6> : tensor<128xi32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<5> : tensor<64x128xi32>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<true> : tensor<128xi1>
// CHECK-NEXT: %[[D:.*]] = arith.constant dense<1.500000e+00> : tensor<1x128xf32>
// CHECK-NEXT: tt.return %[[A]], %[[B]], %[[C]], %[[D]]
tt.func public @splats(%x: i32) -> (tensor<128xi32>, tensor<64x128xi32>, tensor<128xi1>, tensor<1x128xf32>) {
  %c2 = arith.constant dense<2> : tensor<128xi32>
  %c3 = arith.constant dense<3> : tensor<128xi32>
  %0 = arith.muli %c2, %c3 : tensor<128xi32>
  %c5 = arith.constant 5 : i32
  %1 = tt.splat %c5 : i32 -> tensor<1x128xi32>
  %2 = tt.broadcast %1 : tensor<1x128xi32> -> tensor<64x128xi32>
  %3 = arith.cmpi sgt, %0, %c3 : tensor<128xi32>
  %f = arith.constant dense<1.500000e+00> : tensor<128xf32>
  %4 = tt.expand_dims %f {axis = 0 : i32} : tensor<128xf32> -> tensor<1x128xf32>
  tt.return %0, %2, %3, %4 : tensor<128xi32>, tensor<64x128xi32>, tensor<128xi1>, tensor<1x128xf32>
}

// -----

// x + 0, 1 * x, x * 0, x - x, x & x, select(c, x, x) and x + (-0.0) fold away; a constant moves to the right
// of cmpi (the predicate swapped); (x + 2) + 3 becomes x + 5.
// CHECK-LABEL: tt.func public @identities
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[CMP:.*]] = arith.cmpi sgt, %arg0, %[[C3]] : i32
// CHECK-NEXT: %[[ADD:.*]] = arith.addi %arg0, %[[C5]] : i32
// CHECK-NEXT: tt.return %arg0, %arg0, %[[C0]], %[[C0]], %arg1, %arg0, %[[CMP]], %arg3, %[[ADD]]
tt.func public @identities(%x: i32, %y: i32, %c: i1, %f: f32) -> (i32, i32, i32, i32, i32, i32, i1, f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.muli %c1, %x : i32
  %2 = arith.muli %x, %c0 : i32
  %3 = arith.subi %x, %x : i32
  %4 = arith.andi %y, %y : i32
  %5 = arith.select %c, %x, %x : i32
  %6 = arith.cmpi slt, %c3, %x : i32
  %m0 = arith.constant -0.000000e+00 : f32
  %7 = arith.addf %f, %m0 : f32
  %8 = arith.addi %x, %c2 : i32
  %9 = arith.addi %8, %c3 : i32
  tt.return %0, %1, %2, %3, %4, %5, %6, %7, %9 : i32, i32, i32, i32, i32, i32, i1, f32, i32
}

// -----

// tt.load with an all-true mask loses mask and other; with an all-false mask it is its `other`; a tt.store
// with an all-true mask loses it, with an all-false one it goes. Non-constant masks stay.
// CHECK-LABEL: tt.func public @masks
// CHECK-NEXT: %[[O:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-NEXT: %[[A:.*]] = tt.load %arg0 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %[[B:.*]] = tt.load %arg0, %arg1, %[[O]] : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg0, %arg2 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg0, %arg2, %arg1 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[A]], %[[O]], %[[B]]
tt.func public @masks(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %v: tensor<128xf32>) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
  %true = arith.constant dense<true> : tensor<128xi1>
  %false = arith.constant dense<false> : tensor<128xi1>
  %other = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %0 = tt.load %p, %true, %other : tensor<128x!tt.ptr<f32>>
  %1 = tt.load %p, %false, %other : tensor<128x!tt.ptr<f32>>
  %2 = tt.load %p, %m, %other : tensor<128x!tt.ptr<f32>>
  tt.store %p, %v, %true : tensor<128x!tt.ptr<f32>>
  tt.store %p, %v, %false : tensor<128x!tt.ptr<f32>>
  tt.store %p, %v, %m : tensor<128x!tt.ptr<f32>>
  tt.return %0, %1, %2 : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
}

// -----

// broadcast(expand_dims(splat)) is a splat; trans(trans) with inverse orders and reshape(reshape) collapse;
// addptr of a zero offset, a broadcast to the same type, and a one-element make_range fold.
// CHECK-LABEL: tt.func public @shapes
// CHECK-NEXT: %[[R:.*]] = arith.constant dense<5> : tensor<1xi32>
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg0 : i32 -> tensor<8x32xi32>
// CHECK-NEXT: %[[V:.*]] = tt.reshape %arg1 : tensor<4x8xf32> -> tensor<2x4x4xf32>
// CHECK-NEXT: tt.return %[[S]], %arg1, %[[V]], %arg2, %arg3, %[[R]]
// CHECK-NOT: tt.trans
tt.func public @shapes(%x: i32, %t: tensor<4x8xf32>, %p: tensor<128x!tt.ptr<f32>>, %s: tensor<16xi32>) -> (tensor<8x32xi32>, tensor<4x8xf32>, tensor<2x4x4xf32>, tensor<128x!tt.ptr<f32>>, tensor<16xi32>, tensor<1xi32>) {
  %0 = tt.splat %x : i32 -> tensor<32xi32>
  %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %2 = tt.broadcast %1 : tensor<1x32xi32> -> tensor<8x32xi32>
  %3 = tt.trans %t {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %4 = tt.trans %3 {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %5 = tt.reshape %t : tensor<4x8xf32> -> tensor<32xf32>
  %6 = tt.reshape %5 : tensor<32xf32> -> tensor<2x4x4xf32>
  %zero = arith.constant dense<0> : tensor<128xi32>
  %7 = tt.addptr %p, %zero : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %8 = tt.broadcast %s : tensor<16xi32> -> tensor<16xi32>
  %9 = tt.make_range {end = 6 : i32, start = 5 : i32} : tensor<1xi32>
  tt.return %2, %4, %6, %7, %8, %9 : tensor<8x32xi32>, tensor<4x8xf32>, tensor<2x4x4xf32>, tensor<128x!tt.ptr<f32>>, tensor<16xi32>, tensor<1xi32>
}

// -----

// ttg.convert_layout to the same type goes; of a splat, make_range or splat constant it is rebuilt in the new
// layout; a round trip through another layout goes.
// CHECK-LABEL: tt.func public @convert_layout
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.500000e+00> : tensor<256xf32, #blocked1>
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg0 : i32 -> tensor<256xi32, #blocked1>
// CHECK-NEXT: %[[R:.*]] = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked1>
// CHECK-NEXT: tt.return %arg1, %[[S]], %[[R]], %[[C]], %arg1
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @convert_layout(%x: i32, %t: tensor<256xf32, #blocked>) -> (tensor<256xf32, #blocked>, tensor<256xi32, #blocked1>, tensor<256xi32, #blocked1>, tensor<256xf32, #blocked1>, tensor<256xf32, #blocked>) {
    %0 = ttg.convert_layout %t : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked>
    %s = tt.splat %x : i32 -> tensor<256xi32, #blocked>
    %1 = ttg.convert_layout %s : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked1>
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %2 = ttg.convert_layout %r : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked1>
    %c = arith.constant dense<1.500000e+00> : tensor<256xf32, #blocked>
    %3 = ttg.convert_layout %c : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    %a = ttg.convert_layout %t : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    %4 = ttg.convert_layout %a : tensor<256xf32, #blocked1> -> tensor<256xf32, #blocked>
    tt.return %0, %1, %2, %3, %4 : tensor<256xf32, #blocked>, tensor<256xi32, #blocked1>, tensor<256xi32, #blocked1>, tensor<256xf32, #blocked1>, tensor<256xf32, #blocked>
  }
}

// -----

// A loop that never runs is its initial values, one that runs once is its body; iteration arguments that are
// forwarded unchanged go, but a value carried around the loop (%b, %d) stays.
// CHECK-LABEL: tt.func public @loops
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[M:.*]] = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT: %[[L:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %arg0 step %[[C1]] iter_args(%{{.*}} = %[[C0]], %{{.*}} = %arg1) -> (i32, i32)
// CHECK: tt.return %arg1, %[[M]], %arg1, %[[L]]#0
tt.func public @loops(%n: i32, %x: i32, %p: !tt.ptr<i32>) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %0 = scf.for %i = %c8 to %c0 step %c1 iter_args(%a = %x) -> (i32) : i32 {
    %y = arith.addi %a, %i : i32
    scf.yield %y : i32
  }
  %1 = scf.for %i = %c0 to %c8 step %c8 iter_args(%a = %x) -> (i32) : i32 {
    %y = arith.muli %a, %x : i32
    scf.yield %y : i32
  }
  %2:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %c0, %d = %x) -> (i32, i32, i32) : i32 {
    %y = arith.addi %b, %i : i32
    tt.store %p, %y : !tt.ptr<i32>
    %z = arith.addi %d, %c1 : i32
    scf.yield %a, %y, %z : i32, i32, i32
  }
  tt.return %0, %1, %2#0, %2#1 : i32, i32, i32, i32
}

// -----

// A kept iteration argument that yields a dropped one (%a yields %b, which is always 2 as the pipeliner's
// carried buffer counts are) yields the dropped one's replacement: the constant, which the loop then
// forwards unchanged, so %a goes too.
// CHECK-LABEL: tt.func public @for_yields_dropped_arg
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: scf.for %{{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (i32)
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[S]], %[[C2]] : i32
// CHECK-NEXT: scf.yield %[[T]] : i32
tt.func public @for_yields_dropped_arg(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0, %a = %c2, %b = %c2) -> (i32, i32, i32) : i32 {
    %c2b = arith.constant 2 : i32
    %t = arith.addi %s, %a : i32
    scf.yield %t, %b, %c2b : i32, i32, i32
  }
  tt.return %r#0 : i32
}

// -----

// An scf.if on a constant is the region it takes; results yielding values from outside become selects;
// unused results go.
// CHECK-LABEL: tt.func public @ifs
// CHECK-NEXT: %[[A:.*]] = arith.addi %arg1, %arg2 : i32
// CHECK-NEXT: %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT: %[[I:.*]] = scf.if %arg0 -> (i32) {
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg2 : i32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[A]], %[[S]], %[[I]]
tt.func public @ifs(%c: i1, %x: i32, %y: i32, %p: !tt.ptr<i32>) -> (i32, i32, i32) {
  %true = arith.constant true
  %0 = scf.if %true -> (i32) {
    %s = arith.addi %x, %y : i32
    scf.yield %s : i32
  } else {
    scf.yield %y : i32
  }
  %1 = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %y : i32
  }
  %2:2 = scf.if %c -> (i32, i32) {
    %m = arith.muli %x, %y : i32
    tt.store %p, %m : !tt.ptr<i32>
    scf.yield %m, %x : i32, i32
  } else {
    scf.yield %y, %y : i32, i32
  }
  tt.return %0, %1, %2#0 : i32, i32, i32
}

// -----

// cf.cond_br on a constant becomes cf.br, the unreachable block goes, blocks with one predecessor merge, and
// the remaining diamond becomes a select.
// CHECK-LABEL: tt.func public @branches
// CHECK-NEXT: %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT: tt.return %[[S]] : i32
// CHECK-NOT: cf.
tt.func public @branches(%c: i1, %x: i32, %y: i32) -> i32 {
  %false = arith.constant false
  cf.cond_br %false, ^bb1, ^bb2
^bb1:
  tt.return %x : i32
^bb2:
  cf.cond_br %c, ^bb3, ^bb4(%y : i32)
^bb3:
  cf.br ^bb4(%x : i32)
^bb4(%r: i32):
  tt.return %r : i32
}

// -----

// select(not(c), a, b) swaps to select(c, b, a) when the `not` is a scalar xori with true; MLIR's pattern does
// not match a tensor `not` (its constant is a dense attribute), which stays (Triton's float atomic_max select).
// CHECK-LABEL: tt.func public @select_of_not
// CHECK: %[[S:.*]] = arith.select %arg0, %arg2, %arg1 : i32
// CHECK: %[[N:.*]] = arith.xori %arg3, %cst : tensor<4xi1>
// CHECK-NEXT: %[[T:.*]] = arith.select %[[N]], %arg4, %arg5 : tensor<4xi1>, tensor<4xi32>
// CHECK-NEXT: tt.return %[[S]], %[[T]]
tt.func public @select_of_not(%c: i1, %a: i32, %b: i32, %tc: tensor<4xi1>, %ta: tensor<4xi32>, %tb: tensor<4xi32>) -> (i32, tensor<4xi32>) {
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  %s = arith.select %n, %a, %b : i32
  %all = arith.constant dense<true> : tensor<4xi1>
  %tn = arith.xori %tc, %all : tensor<4xi1>
  %t = arith.select %tn, %ta, %tb : tensor<4xi1>, tensor<4xi32>
  tt.return %s, %t : i32, tensor<4xi32>
}

// -----

// trunci(shrsi(x, c)) keeps none of the sign copies when c is the truncated width: it becomes a logical shift
// (MLIR's TruncIShrSIToTrunciShrUI; randint4x's high offset word). Other shift amounts stay arithmetic. A
// same-type tt.bitcast stays, as in Triton (uint_to_uniform_float's u32 -> i32).
// CHECK-LABEL: tt.func public @trunc_of_shift
// CHECK-DAG: %[[C32:.*]] = arith.constant dense<32> : tensor<64xi64>
// CHECK-DAG: %[[C31:.*]] = arith.constant dense<31> : tensor<64xi64>
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i16
// CHECK: %[[U:.*]] = arith.shrui %arg0, %[[C32]] : tensor<64xi64>
// CHECK-NEXT: %[[HI:.*]] = arith.trunci %[[U]] : tensor<64xi64> to tensor<64xi32>
// CHECK-NEXT: %[[S:.*]] = arith.shrsi %arg0, %[[C31]] : tensor<64xi64>
// CHECK-NEXT: %[[MID:.*]] = arith.trunci %[[S]] : tensor<64xi64> to tensor<64xi32>
// CHECK-NEXT: %[[U16:.*]] = arith.shrui %arg1, %[[C8]] : i16
// CHECK-NEXT: %[[B:.*]] = arith.trunci %[[U16]] : i16 to i8
// CHECK-NEXT: %[[SAME:.*]] = tt.bitcast %[[HI]] : tensor<64xi32> -> tensor<64xi32>
// CHECK-NEXT: tt.return %[[SAME]], %[[MID]], %[[B]]
tt.func public @trunc_of_shift(%x: tensor<64xi64>, %h: i16) -> (tensor<64xi32>, tensor<64xi32>, i8) {
  %c32 = arith.constant dense<32> : tensor<64xi64>
  %c31 = arith.constant dense<31> : tensor<64xi64>
  %c8 = arith.constant 8 : i16
  %0 = arith.shrsi %x, %c32 : tensor<64xi64>
  %1 = arith.trunci %0 : tensor<64xi64> to tensor<64xi32>
  %2 = arith.shrsi %x, %c31 : tensor<64xi64>
  %3 = arith.trunci %2 : tensor<64xi64> to tensor<64xi32>
  %4 = arith.shrsi %h, %c8 : i16
  %5 = arith.trunci %4 : i16 to i8
  %6 = tt.bitcast %1 : tensor<64xi32> -> tensor<64xi32>
  tt.return %6, %3, %5 : tensor<64xi32>, tensor<64xi32>, i8
}

// -----

// An fp8 load's `other=0.0` (the matmul tutorials in fp8): tt.fp_to_fp of +0.0 folds to an fp8 constant (Triton's
// FpToFpOp::fold) and its splat to a dense fp8 constant, printed as MLIR prints it; other values are left alone.
// CHECK-LABEL: tt.func @fp8_zero
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8xf8E4M3FN>
// CHECK-DAG: %[[H:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: tt.load %arg0, %arg1, %[[Z]] : tensor<8x!tt.ptr<f8E4M3FN>>
// CHECK: tt.fp_to_fp %[[H]], rounding = rtne : f32 -> f8E5M2
tt.func @fp8_zero(%p: tensor<8x!tt.ptr<f8E4M3FN>>, %m: tensor<8xi1>) -> (tensor<8xf8E4M3FN>, f8E5M2) {
  %zero = arith.constant 0.000000e+00 : f32
  %half = arith.constant 1.500000e+00 : f32
  %z8 = tt.fp_to_fp %zero, rounding = rtne : f32 -> f8E4M3FN
  %s = tt.splat %z8 : f8E4M3FN -> tensor<8xf8E4M3FN>
  %x = tt.load %p, %m, %s : tensor<8x!tt.ptr<f8E4M3FN>>
  %h8 = tt.fp_to_fp %half, rounding = rtne : f32 -> f8E5M2
  tt.return %x, %h8 : tensor<8xf8E4M3FN>, f8E5M2
}

// -----

// An unused `ttng.warp_group_dot_wait` stays: like Triton's, it declares no memory effects, so it is never dead
// (a fused persistent loop's wait after the loop has no user).
// CHECK-LABEL: tt.func public @unused_dot_wait
// CHECK-NEXT: ttng.warp_group_dot_wait %arg0 {pendings = 0 : i32}
// CHECK-NEXT: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unused_dot_wait(%acc: tensor<64x64xf32, #mma>) {
    %w = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// tt.advance by all-zero offsets is its pointer (Triton's AdvanceOp::fold); a non-zero offset stays.
// CHECK-LABEL: tt.func @advance_by_zero
// CHECK-NEXT: %[[C:.*]] = arith.constant 16 : i32
// CHECK-NEXT: %[[A:.*]] = tt.advance %arg0, [%[[C]], %[[C]]] : <tensor<32x16xf32>>
// CHECK-NEXT: tt.return %arg0, %[[A]]
tt.func @advance_by_zero(%p: !tt.ptr<tensor<32x16xf32>>) -> (!tt.ptr<tensor<32x16xf32>>, !tt.ptr<tensor<32x16xf32>>) {
  %zero = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %0 = tt.advance %p, [%zero, %zero] : <tensor<32x16xf32>>
  %1 = tt.advance %p, [%c16, %c16] : <tensor<32x16xf32>>
  tt.return %0, %1 : !tt.ptr<tensor<32x16xf32>>, !tt.ptr<tensor<32x16xf32>>
}

// -----

// expand_dims(broadcast(x)) becomes broadcast(expand_dims(x)) with layouts too: the new expand_dims of the slice
// gets its parent layout, the broadcast the old result type.
// CHECK-LABEL: tt.func @expand_dims_of_broadcast
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<1xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x1xi32, #blocked>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xi32, #blocked> -> tensor<1x64xi32, #blocked>
// CHECK-NEXT: tt.return %[[B]]
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  tt.func @expand_dims_of_broadcast(%x: tensor<1xi32, #ttg.slice<{dim = 0, parent = #blocked}>>) -> tensor<1x64xi32, #blocked> {
    %0 = tt.broadcast %x : tensor<1xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    tt.return %1 : tensor<1x64xi32, #blocked>
  }
}

// -----

// tt.fp_to_fp of -0.0 folds to -0.0 in formats that have it, to +0.0 in the fnuz fp8 formats, which have none.
// CHECK-LABEL: tt.func @fp8_negative_zero
// CHECK-DAG: %[[FN:.*]] = arith.constant -0.000000e+00 : f8E5M2
// CHECK-DAG: %[[UZ:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf8E5M2FNUZ>
// CHECK: tt.return %[[FN]], %[[UZ]]
tt.func @fp8_negative_zero() -> (f8E5M2, tensor<4xf8E5M2FNUZ>) {
  %s = arith.constant -0.000000e+00 : f32
  %t = arith.constant dense<-0.000000e+00> : tensor<4xf32>
  %0 = tt.fp_to_fp %s, rounding = rtne : f32 -> f8E5M2
  %1 = tt.fp_to_fp %t, rounding = rtne : tensor<4xf32> -> tensor<4xf8E5M2FNUZ>
  tt.return %0, %1 : f8E5M2, tensor<4xf8E5M2FNUZ>
}

// -----

// Shared memory does not care about the register layout: `local_store` of a `convert_layout` stores its source
// (Triton's CanonicalizeConvertFromLocalStore); the conversion, now unused, goes.
// CHECK-LABEL: tt.func @local_store_of_convert
// CHECK-NEXT: ttg.local_store %arg0, %arg1 : tensor<32x32xf16, #[[MMA:.*]]> -> !ttg.memdesc
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_store_of_convert(%x: tensor<32x32xf16, #mma>, %buf: !ttg.memdesc<32x32xf16, #shared, #smem, mutable>) {
    %c = ttg.convert_layout %x : tensor<32x32xf16, #mma> -> tensor<32x32xf16, #blocked>
    ttg.local_store %c, %buf : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// An op of an unregistered dialect has unknown effects: it is never dead, nor is the scf.if holding it.
// CHECK-LABEL: tt.func @unregistered_op_stays
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: "test.keep"(%arg1) : (i32) -> ()
// CHECK-NEXT: }
tt.func @unregistered_op_stays(%c: i1, %x: i32) {
  scf.if %c {
    "test.keep"(%x) : (i32) -> ()
  }
  tt.return
}

// -----

// histogram(convert(x), mask) reads x directly (its result layout does not depend on x's), the mask converted
// to x's layout (Triton's CanonicalizeConvertFromHistogram); the mask's own conversion chain collapses.
// CHECK-LABEL: tt.func @histogram_mask
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %arg1 : tensor<512xi1, #blocked1> -> tensor<512xi1, #blocked>
// CHECK-NEXT: %[[H:.*]] = tt.histogram %arg0, %[[M]] : tensor<512xi32, #blocked> -> tensor<64xi32, #blocked2>
// CHECK-NEXT: tt.return %[[H]]
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @histogram_mask(%x: tensor<512xi32, #b4>, %m: tensor<512xi1, #b2>) -> tensor<64xi32, #b1> {
    %0 = ttg.convert_layout %x : tensor<512xi32, #b4> -> tensor<512xi32, #b1>
    %1 = ttg.convert_layout %m : tensor<512xi1, #b2> -> tensor<512xi1, #b1>
    %2 = tt.histogram %0, %1 : tensor<512xi32, #b1> -> tensor<64xi32, #b1>
    tt.return %2 : tensor<64xi32, #b1>
  }
}


// -----

// A reordering reshape of a conversion reads the conversion's source when the view from that layout moves no
// data (Triton's isExpensiveView: the same replicated hardware bits and elements per thread); not from a layout
// whose warps replicate the tensor.
// CHECK-LABEL: tt.func @reshape_free_view
// CHECK-NEXT: tt.reshape %arg0 allow_reorder
// CHECK-LABEL: tt.func @reshape_expensive_view
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg0
// CHECK-NEXT: tt.reshape %[[C]] allow_reorder
#r = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#f = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#w = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape_free_view(%x: tensor<32x32xf32, #r>) -> tensor<1024xf32, #f> {
    %0 = ttg.convert_layout %x : tensor<32x32xf32, #r> -> tensor<32x32xf32, #c>
    %1 = tt.reshape %0 allow_reorder : tensor<32x32xf32, #c> -> tensor<1024xf32, #f>
    tt.return %1 : tensor<1024xf32, #f>
  }
  tt.func @reshape_expensive_view(%x: tensor<32x32xf32, #w>) -> tensor<1024xf32, #f> {
    %0 = ttg.convert_layout %x : tensor<32x32xf32, #w> -> tensor<32x32xf32, #c>
    %1 = tt.reshape %0 allow_reorder : tensor<32x32xf32, #c> -> tensor<1024xf32, #f>
    tt.return %1 : tensor<1024xf32, #f>
  }
}


// -----

// local_alloc(local_load(b)) is b when of b's type and immutable (Triton's LocalAllocOp::fold), else it stays.
// CHECK-LABEL: tt.func @local_alloc_of_load
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %arg0
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[A]]
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc %[[L]] : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared1, #smem>
// CHECK-NEXT: tt.return %[[A]], %[[B]]
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sh2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @local_alloc_of_load(%x: tensor<32x32xf16, #b>) -> (!ttg.memdesc<32x32xf16, #sh, #smem>, !ttg.memdesc<32x32xf16, #sh2, #smem>) {
    %0 = ttg.local_alloc %x : (tensor<32x32xf16, #b>) -> !ttg.memdesc<32x32xf16, #sh, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<32x32xf16, #sh, #smem> -> tensor<32x32xf16, #b>
    %2 = ttg.local_alloc %1 : (tensor<32x32xf16, #b>) -> !ttg.memdesc<32x32xf16, #sh, #smem>
    %3 = ttg.local_alloc %1 : (tensor<32x32xf16, #b>) -> !ttg.memdesc<32x32xf16, #sh2, #smem>
    tt.return %2, %3 : !ttg.memdesc<32x32xf16, #sh, #smem>, !ttg.memdesc<32x32xf16, #sh2, #smem>
  }
}


// -----

// A subslice of a subslice is one subslice at the summed offsets; a transpose of a transpose back to the
// original order is the buffer itself.
// CHECK-LABEL: tt.func @memdesc_views
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc
// CHECK-NEXT: %[[S:.*]] = ttg.memdesc_subslice %[[A]][40, 40] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x8xf32, #shared, #smem, mutable, 64x64>
// CHECK-NEXT: ttg.local_store %arg0, %[[S]]
// CHECK-NEXT: "test.use"(%[[A]])
#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#sht = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @memdesc_views(%v: tensor<8x8xf32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf32, #sh, #smem, mutable>
    %s1 = ttg.memdesc_subslice %a[32, 32] : !ttg.memdesc<64x64xf32, #sh, #smem, mutable> -> !ttg.memdesc<32x32xf32, #sh, #smem, mutable, 64x64>
    %s2 = ttg.memdesc_subslice %s1[8, 8] : !ttg.memdesc<32x32xf32, #sh, #smem, mutable, 64x64> -> !ttg.memdesc<8x8xf32, #sh, #smem, mutable, 64x64>
    ttg.local_store %v, %s2 : tensor<8x8xf32> -> !ttg.memdesc<8x8xf32, #sh, #smem, mutable, 64x64>
    %t1 = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf32, #sh, #smem, mutable> -> !ttg.memdesc<64x64xf32, #sht, #smem, mutable>
    %t2 = ttg.memdesc_trans %t1 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf32, #sht, #smem, mutable> -> !ttg.memdesc<64x64xf32, #sh, #smem, mutable>
    "test.use"(%t2) : (!ttg.memdesc<64x64xf32, #sh, #smem, mutable>) -> ()
    tt.return
  }
}


// -----

// trans(trans(x)) composes its orders; the identity transpose to another (equivalent) layout becomes a conversion
// (Triton's TransOp::fold and CanonicalizeConvertFromTranspose).
// CHECK-LABEL: tt.func @trans_of_trans
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg0 : tensor<32x32xf32, #linear> -> tensor<32x32xf32, #blocked>
// CHECK-NEXT: tt.return %[[C]]
#l = #ttg.linear<{register = [[0, 1], [0, 2], [0, 16]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#lt = #ttg.linear<{register = [[1, 0], [2, 0], [16, 0]], lane = [[4, 0], [8, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 8], [0, 16]], block = []}>
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_of_trans(%x: tensor<32x32xf32, #l>) -> tensor<32x32xf32, #b> {
    %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x32xf32, #l> -> tensor<32x32xf32, #lt>
    %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<32x32xf32, #lt> -> tensor<32x32xf32, #b>
    tt.return %1 : tensor<32x32xf32, #b>
  }
}
