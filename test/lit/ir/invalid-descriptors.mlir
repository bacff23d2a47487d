// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Descriptor loads and stores check their value against the descriptor's block as Triton does: the same
// element type and shape, or the shape without leading unit dimensions (rank-reducing). Indices are not counted.

tt.func @load_rank_reducing(%d: !tt.tensordesc<tensor<1x16x8xf32>>, %i: i32) -> tensor<16x8xf32> {
  %0 = tt.descriptor_load %d[%i, %i, %i] : !tt.tensordesc<tensor<1x16x8xf32>> -> tensor<16x8xf32>
  tt.return %0 : tensor<16x8xf32>
}

// -----

tt.func @load_reduce_non_unit(%d: !tt.tensordesc<tensor<2x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op ranked reduce load only allowed for unit dimension leading dim.}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<2x16xf32>> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @load_type(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op tensor descriptor block and tensor types must match}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf16>
  tt.return
}

// -----

tt.func @store_shape(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32, %v: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.descriptor_store' op tensor descriptor block and tensor types must match}}
  tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x32xf32>
  tt.return
}

// -----

tt.func @reduce_shape(%d: !tt.tensordesc<tensor<16xi32>>, %i: i32, %v: tensor<8xi32>) {
  // expected-error @+1 {{'tt.descriptor_reduce' op tensor descriptor block and tensor types must match}}
  tt.descriptor_reduce add, %d[%i], %v : !tt.tensordesc<tensor<16xi32>>, tensor<8xi32>
  tt.return
}

// -----

tt.func @make_rank(%p: !tt.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op expected 2 shape and stride operands (the block's rank)}}
  %0 = tt.make_tensor_descriptor %p, [%n], [%s] : <f32>, <tensor<16x16xf32>>
  tt.return
}

// -----

tt.func @make_element(%p: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op the block's element type must be the pointee type of the base}}
  %0 = tt.make_tensor_descriptor %p, [%n], [%s] : <f16>, <tensor<16xf32>>
  tt.return
}

// -----

tt.func @signed_ok(%d: !tt.tensordesc<tensor<16xsi32>>, %i: i32, %v: tensor<16xi32>) {
  tt.descriptor_reduce min, %d[%i], %v : !tt.tensordesc<tensor<16xsi32>>, tensor<16xi32>
  tt.return
}
