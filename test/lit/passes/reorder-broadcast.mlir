// RUN: tt-opt %s -split-input-file -triton-reorder-broadcast | FileCheck %s

// elementwise(splat, splat, splat constant) -> splat(elementwise) on scalars; the constant becomes a scalar.
// CHECK-LABEL: tt.func public @splat_elementwise
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[C]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[M]], %[[B]] : f32
// CHECK-NEXT: %[[S:.*]] = tt.splat %[[R]] : f32 -> tensor<128xf32>
// CHECK-NEXT: tt.return %[[S]] : tensor<128xf32>
tt.func public @splat_elementwise(%a: f32, %b: f32) -> tensor<128xf32> {
  %sa = tt.splat %a : f32 -> tensor<128xf32>
  %sb = tt.splat %b : f32 -> tensor<128xf32>
  %c = arith.constant dense<2.000000e+00> : tensor<128xf32>
  %m = arith.mulf %sa, %c : tensor<128xf32>
  %r = arith.addf %m, %sb : tensor<128xf32>
  tt.return %r : tensor<128xf32>
}

// -----

// elementwise(broadcast(a), splat-like...) -> broadcast(elementwise(a, ...)): a chain of three ops computes
// on 128x1 and is broadcast once at the end.
// CHECK-LABEL: tt.func public @broadcast_elementwise
// CHECK-SAME: (%[[A:.*]]: tensor<128x1xf32>, %[[B:.*]]: f32)
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<128x1xf32>
// CHECK-NEXT: %[[E:.*]] = math.exp %[[A]] : tensor<128x1xf32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[E]], %[[C]] : tensor<128x1xf32>
// CHECK-NEXT: %[[S:.*]] = tt.splat %[[B]] : f32 -> tensor<128x1xf32>
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[M]], %[[S]] : tensor<128x1xf32>
// CHECK-NEXT: %[[BR:.*]] = tt.broadcast %[[R]] : tensor<128x1xf32> -> tensor<128x32xf32>
// CHECK-NEXT: tt.return %[[BR]] : tensor<128x32xf32>
tt.func public @broadcast_elementwise(%a: tensor<128x1xf32>, %b: f32) -> tensor<128x32xf32> {
  %ba = tt.broadcast %a : tensor<128x1xf32> -> tensor<128x32xf32>
  %sb = tt.splat %b : f32 -> tensor<128x32xf32>
  %c = arith.constant dense<2.000000e+00> : tensor<128x32xf32>
  %e = math.exp %ba : tensor<128x32xf32>
  %m = arith.mulf %e, %c : tensor<128x32xf32>
  %r = arith.addf %m, %sb : tensor<128x32xf32>
  tt.return %r : tensor<128x32xf32>
}

// -----

// With layouts, the new splats and constants take the broadcast source's layout; select takes two
// broadcasts of the same shape.
// CHECK-LABEL: tt.func public @with_layout
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<128x1xf32, #blocked>
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg1 : i32 -> tensor<128x1xi32, #blocked>
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %arg0, %[[S]] : tensor<128x1xi32, #blocked>
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[C]], %arg2, %[[Z]] : tensor<128x1xi1, #blocked>, tensor<128x1xf32, #blocked>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[SEL]] : tensor<128x1xf32, #blocked> -> tensor<128x32xf32, #blocked>
// CHECK-NEXT: tt.return %[[B]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @with_layout(%a: tensor<128x1xi32, #blocked>, %b: i32, %x: tensor<128x1xf32, #blocked>) -> tensor<128x32xf32, #blocked> {
    %ba = tt.broadcast %a : tensor<128x1xi32, #blocked> -> tensor<128x32xi32, #blocked>
    %sb = tt.splat %b : i32 -> tensor<128x32xi32, #blocked>
    %c = arith.cmpi slt, %ba, %sb : tensor<128x32xi32, #blocked>
    %bx = tt.broadcast %x : tensor<128x1xf32, #blocked> -> tensor<128x32xf32, #blocked>
    %z = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #blocked>
    %s = arith.select %c, %bx, %z : tensor<128x32xi1, #blocked>, tensor<128x32xf32, #blocked>
    tt.return %s : tensor<128x32xf32, #blocked>
  }
}

// -----

// Triton's tt.expand_dims canonicalizations run too: expand_dims(broadcast(x)) -> broadcast(expand_dims(x)),
// expand_dims(splat(x)) -> splat(x).
// CHECK-LABEL: tt.func public @expand_dims
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
// CHECK-NEXT: %[[E2:.*]] = tt.expand_dims %[[E]] {axis = 0 : i32} : tensor<128x1xf32> -> tensor<1x128x1xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E2]] : tensor<1x128x1xf32> -> tensor<1x128x32xf32>
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg1 : f32 -> tensor<128x1xf32>
// CHECK-NEXT: tt.return %[[B]], %[[S]]
tt.func public @expand_dims(%a: tensor<128xf32>, %b: f32) -> (tensor<1x128x32xf32>, tensor<128x1xf32>) {
  %e = tt.expand_dims %a {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
  %ba = tt.broadcast %e : tensor<128x1xf32> -> tensor<128x32xf32>
  %ee = tt.expand_dims %ba {axis = 0 : i32} : tensor<128x32xf32> -> tensor<1x128x32xf32>
  %sb = tt.splat %b : f32 -> tensor<128xf32>
  %es = tt.expand_dims %sb {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
  tt.return %ee, %es : tensor<1x128x32xf32>, tensor<128x1xf32>
}

// -----

// No change: broadcasts from different shapes, an operand that is neither a broadcast nor a splat (a load),
// an elementwise op with memory effects (impure tt.extern_elementwise).
// CHECK-LABEL: tt.func public @unchanged
// CHECK-NEXT: %[[BA:.*]] = tt.broadcast %arg0 : tensor<128x1xf32> -> tensor<128x32xf32>
// CHECK-NEXT: %[[BB:.*]] = tt.broadcast %arg1 : tensor<1x32xf32> -> tensor<128x32xf32>
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[BA]], %[[BB]] : tensor<128x32xf32>
// CHECK-NEXT: %[[L:.*]] = tt.load %arg2
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[BA]], %[[L]] : tensor<128x32xf32>
// CHECK-NEXT: %[[E:.*]] = tt.extern_elementwise %[[BA]] {{.*}}pure = false{{.*}} : (tensor<128x32xf32>) -> tensor<128x32xf32>
// CHECK-NEXT: tt.return %[[R]], %[[S]], %[[E]]
tt.func public @unchanged(%a: tensor<128x1xf32>, %b: tensor<1x32xf32>, %p: tensor<128x32x!tt.ptr<f32>>) -> (tensor<128x32xf32>, tensor<128x32xf32>, tensor<128x32xf32>) {
  %ba = tt.broadcast %a : tensor<128x1xf32> -> tensor<128x32xf32>
  %bb = tt.broadcast %b : tensor<1x32xf32> -> tensor<128x32xf32>
  %r = arith.addf %ba, %bb : tensor<128x32xf32>
  %l = tt.load %p : tensor<128x32x!tt.ptr<f32>>
  %s = arith.mulf %ba, %l : tensor<128x32xf32>
  %e = tt.extern_elementwise %ba {libname = "", libpath = "", pure = false, symbol = "foo"} : (tensor<128x32xf32>) -> tensor<128x32xf32>
  tt.return %r, %s, %e : tensor<128x32xf32>, tensor<128x32xf32>, tensor<128x32xf32>
}

// -----

// Triton's elementwise ops move too: a two-result inline asm on splats, an addptr of a broadcast pointer.
// CHECK-LABEL: tt.func public @inline_asm_and_addptr
// CHECK-NEXT: %[[ASM:.*]]:2 = tt.elementwise_inline_asm "asm" {{.*}} %arg0 : i32 -> i16, i16
// CHECK-NEXT: %[[S0:.*]] = tt.splat %[[ASM]]#0 : i16 -> tensor<16xi16>
// CHECK-NEXT: %[[S1:.*]] = tt.splat %[[ASM]]#1 : i16 -> tensor<16xi16>
// CHECK-NEXT: %[[O:.*]] = tt.splat %arg2 : i32 -> tensor<64x1xi32>
// CHECK-NEXT: %[[P:.*]] = tt.addptr %arg1, %[[O]] : tensor<64x1x!tt.ptr<f32>>, tensor<64x1xi32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[P]] : tensor<64x1x!tt.ptr<f32>> -> tensor<64x64x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[S0]], %[[S1]], %[[B]]
tt.func public @inline_asm_and_addptr(%a: i32, %q: tensor<64x1x!tt.ptr<f32>>, %off: i32) -> (tensor<16xi16>, tensor<16xi16>, tensor<64x64x!tt.ptr<f32>>) {
  %sa = tt.splat %a : i32 -> tensor<16xi32>
  %r:2 = tt.elementwise_inline_asm "asm" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = true} %sa : tensor<16xi32> -> tensor<16xi16>, tensor<16xi16>
  %bq = tt.broadcast %q : tensor<64x1x!tt.ptr<f32>> -> tensor<64x64x!tt.ptr<f32>>
  %so = tt.splat %off : i32 -> tensor<64x64xi32>
  %ap = tt.addptr %bq, %so : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
  tt.return %r#0, %r#1, %ap : tensor<16xi16>, tensor<16xi16>, tensor<64x64x!tt.ptr<f32>>
}
