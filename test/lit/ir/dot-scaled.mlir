// RUN: tt-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// tt.dot_scaled and ttg.fp4_to_fp: Triton's syntax round-trips (optional scales, element types as keywords,
// fastMath always printed, a false k_pack printed); the verifier checks shapes as Triton's does.

// CHECK-LABEL: tt.func @valid
// CHECK: tt.dot_scaled %arg0 scale %arg1, %arg2, %arg3 lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<64x32xi8>, tensor<64x2xi8> * tensor<64x64xbf16> -> tensor<64x64xf32>
// CHECK: tt.dot_scaled %arg2, %arg0, %arg3 lhs = bf16 rhs = e2m1 {fastMath = true, rhs_k_pack = false} : tensor<64x64xbf16> * tensor<64x32xi8> -> tensor<64x64xf32>
// CHECK: ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<64x32xi8> -> tensor<64x64xbf16>
tt.func @valid(%a: tensor<64x32xi8>, %s: tensor<64x2xi8>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) {
  %0 = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<64x32xi8>, tensor<64x2xi8> * tensor<64x64xbf16> -> tensor<64x64xf32>
  %1 = tt.dot_scaled %b, %a, %c lhs = bf16 rhs = e2m1 {fastMath = true, rhs_k_pack = false} : tensor<64x64xbf16> * tensor<64x32xi8> -> tensor<64x64xf32>
  %2 = ttg.fp4_to_fp %a {axis = 1 : i32} : tensor<64x32xi8> -> tensor<64x64xbf16>
  tt.return
}

// -----

tt.func @k_mismatch(%a: tensor<64x64xi8>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tt.dot_scaled' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<64x64xi8> * tensor<64x64xbf16> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @scale_shape(%a: tensor<64x64xf8E4M3FN>, %s: tensor<64x4xi8>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{scales K dimension must match the operand K divided by the scale factor}}
  %0 = tt.dot_scaled %a, %a scale %s, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E4M3FN>, tensor<64x4xi8> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @scale_rows(%a: tensor<64x64xf8E4M3FN>, %s: tensor<32x2xi8>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{scales N dimension must match the operand N dimension}}
  %0 = tt.dot_scaled %a, %a scale %s, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E4M3FN>, tensor<32x2xi8> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @output_shape(%a: tensor<64x32xi8>, %b: tensor<64x64xbf16>, %c: tensor<32x64xf32>) {
  // expected-error @+1 {{'tt.dot_scaled' op expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<64x32xi8> * tensor<64x64xbf16> -> tensor<32x64xf32>
  tt.return
}

// -----

// f8E4M3FN scales (one per 16 elements of K), as Triton takes them.
// CHECK-LABEL: tt.func @e4m3_scales
tt.func @e4m3_scales(%a: tensor<64x64xf8E4M3FN>, %s: tensor<64x4xf8E4M3FN>, %c: tensor<64x64xf32>) {
  %0 = tt.dot_scaled %a scale %s, %a, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<64x64xf8E4M3FN>, tensor<64x4xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @fp4_shape(%a: tensor<64x32xi8>) {
  // expected-error @+1 {{'ttg.fp4_to_fp' op result must be the source's shape with the axis doubled}}
  %0 = ttg.fp4_to_fp %a {axis = 0 : i32} : tensor<64x32xi8> -> tensor<64x64xbf16>
  tt.return
}
