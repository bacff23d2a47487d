// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Descriptor ops check their indices and their block against the descriptor's type.

tt.func @load_rank(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op expected 2 indices (the descriptor's rank), got 1}}
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @load_type(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op result type tensor<16x16xf16> does not match the descriptor's block tensor<16x16xf32>}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf16>
  tt.return
}

// -----

tt.func @store_shape(%d: !tt.tensordesc<tensor<16x16xf32>>, %i: i32, %v: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.descriptor_store' op source type tensor<16x32xf32> does not match the descriptor's block tensor<16x16xf32>}}
  tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x32xf32>
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
