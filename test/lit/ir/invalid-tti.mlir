// RUN: tt-opt %s -split-input-file -verify-diagnostics

// The tti ops check their ODS type constraints, with MLIR's words (Triton writes no verifier of its own for them).

tt.func @assert_not_i1(%x: i32) {
  // expected-error @+1 {{'tti.experimental_assert_in_thread' op operand #0 must be 1-bit signless integer or tensor of 1-bit signless integer values, but got 'i32'}}
  tti.experimental_assert_in_thread %x, "m" {check_any = false} : i32
  tt.return
}

// -----

tt.func @assert_tensor_not_i1(%x: tensor<4xi8>) {
  // expected-error @+1 {{'tti.experimental_assert_in_thread' op operand #0 must be 1-bit signless integer or tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  tti.experimental_assert_in_thread %x, "m" {check_any = false} : tensor<4xi8>
  tt.return
}

// -----

tt.func @descriptors_not_tensor() {
  // expected-error @+1 {{'tti.experimental_buffer_descriptors' op result #0 must be ranked tensor of floating-point or integer or ptr values, but got 'i64'}}
  %0 = tti.experimental_buffer_descriptors [0], [8], shared_mem : i64
  tt.return
}

// -----

tt.func @descriptors_bad_kind() {
  // expected-error @+1 {{Expected one of 'shared_mem', 'tensor_mem' for 'memType'}}
  %0 = tti.experimental_buffer_descriptors [0], [8], "global_mem" : tensor<1xi64>
  tt.return
}

// -----

tt.func @address_of_value(%x: i32) {
  // expected-error @+1 {{'tti.experimental_memdesc_to_i32' op operand #0 must be memory descriptor type (`::mlir::triton::gpu::MemDescType`) in Triton IR type system, but got 'i32'}}
  %0 = tti.experimental_memdesc_to_i32 %x : i32
  tt.return
}

// -----

tt.func @lock_not_pointer(%x: i32) {
  // expected-error @+1 {{'tti.experimental_lock_acquire' op operand #0 must be ptr or ranked tensor of ptr values, but got 'i32'}}
  tti.experimental_lock_acquire %x : i32
  tt.return
}
