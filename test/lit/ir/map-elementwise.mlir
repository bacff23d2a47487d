// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// tt.map_elementwise prints in generic form, as Triton does (it has no custom syntax): its region takes `pack`
// elements of each operand in turn and returns `pack` elements of each result through tt.map_elementwise.return.
// tt.unsplat reads the element of a one-element tensor; its result type is the element type.

// CHECK-LABEL: tt.func @mapped
// CHECK: %[[M:.*]]:2 = "tt.map_elementwise"(%arg0, %arg1) <{pack = 2 : i32}> ({
// CHECK-NEXT: ^bb0(%[[A0:.*]]: i32, %[[A1:.*]]: i32, %[[B0:.*]]: f32, %[[B1:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.sitofp %[[A1]] : i32 to f32
// CHECK-NEXT: tt.map_elementwise.return %[[S]], %[[B0]], %[[A0]], %[[A1]] : f32, f32, i32, i32
// CHECK-NEXT: }) : (tensor<64xi32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xi32>)
// CHECK: %[[U:.*]] = tt.unsplat %{{.*}} : tensor<1x1xf32>
// CHECK-NEXT: tt.return %[[M]]#0, %[[U]] : tensor<64xf32>, f32
tt.func @mapped(%a: tensor<64xi32>, %b: tensor<64xf32>, %one: tensor<1x1xf32>) -> (tensor<64xf32>, f32) {
  %0:2 = "tt.map_elementwise"(%a, %b) <{pack = 2 : i32}> ({
  ^bb0(%a0: i32, %a1: i32, %b0: f32, %b1: f32):
    %s = arith.sitofp %a1 : i32 to f32
    tt.map_elementwise.return %s, %b0, %a0, %a1 : f32, f32, i32, i32
  }) : (tensor<64xi32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xi32>)
  %1 = tt.unsplat %one : tensor<1x1xf32>
  tt.return %0#0, %1 : tensor<64xf32>, f32
}

// CHECK-LABEL: tt.func @loads_inside
// CHECK: tt.load %{{.*}} : !tt.ptr<f32>
tt.func @loads_inside(%p: tensor<64x!tt.ptr<f32>>) -> tensor<64xf32> {
  %0 = "tt.map_elementwise"(%p) <{pack = 1 : i32}> ({
  ^bb0(%q: !tt.ptr<f32>):
    %v = tt.load %q : !tt.ptr<f32>
    tt.map_elementwise.return %v : f32
  }) : (tensor<64x!tt.ptr<f32>>) -> tensor<64xf32>
  tt.return %0 : tensor<64xf32>
}
