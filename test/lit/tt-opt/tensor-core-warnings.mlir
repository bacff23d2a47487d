// RUN: tt-opt %s -split-input-file -verify-diagnostics -make-ttgir='target=cuda:80 num-warps=4' | FileCheck %s

// make-ttgir warns at each tt.dot that Triton would run on tensor cores and ttc keeps on FMA units, saying why;
// the ones ttc gives MMA v2 layouts (tf32, i8, f16 accumulators; fp8 before sm89, upcast to f16) get none.

// CHECK-LABEL: tt.func public @accelerated
// CHECK-COUNT-3: tt.dot {{.*}} -> tensor<64x64x{{(f32|i32|f16)}}, #mma>
module {
  tt.func public @accelerated(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>, %a8: tensor<64x32xi8>, %b8: tensor<32x64xi8>, %c32: tensor<64x64xi32>, %a16: tensor<64x32xf16>, %b16: tensor<32x64xf16>, %c16: tensor<64x64xf16>) -> (tensor<64x64xf32>, tensor<64x64xi32>, tensor<64x64xf16>) {
    %tf32 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %i8 = tt.dot %a8, %b8, %c32 : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
    %h = tt.dot %a16, %b16, %c16 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf16>
    tt.return %tf32, %i8, %h : tensor<64x64xf32>, tensor<64x64xi32>, tensor<64x64xf16>
  }
}

// -----

module {
  tt.func public @too_small(%a8: tensor<64x16xi8>, %b8: tensor<16x64xi8>, %c32: tensor<64x64xi32>) -> tensor<64x64xi32> {
    // expected-warning @+1 {{tt.dot 64x64x16 (i8 x i8 -> i32) runs on FMA units: the dot's 64x64x16 is not a whole number of m16n8k32 tiles (16x8x32), so make-ttgir keeps it on a blocked layout}}
    %i8 = tt.dot %a8, %b8, %c32 : tensor<64x16xi8> * tensor<16x64xi8> -> tensor<64x64xi32>
    tt.return %i8 : tensor<64x64xi32>
  }
}

// -----

// e4m3 before sm89 is upcast to f16 as e5m2 is (Triton's decomposition of fp8 dots off sm89 / sm120)
// CHECK-LABEL: tt.func public @fp8_before_sm89
// CHECK: tt.fp_to_fp
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #mma>
module {
  tt.func public @fp8_before_sm89(%a: tensor<64x32xf8E4M3FN>, %b: tensor<32x64xf8E4M3FN>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
    tt.return %d : tensor<64x64xf32>
  }
}

// -----

module {
  tt.func public @tf32x3(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-warning @+1 {{tt.dot 64x64x32 (f32 x f32 -> f32, tf32x3) runs on FMA units: Triton splits an f32 dot of tf32x3 precision into several tf32/bf16 tensor-core dots (its f32-dot-tc pass), which ttc does not do, so make-ttgir keeps it on a blocked layout}}
    %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    tt.return %d : tensor<64x64xf32>
  }
}

// -----

// CHECK-LABEL: tt.func public @e5m2_upcast
// CHECK: tt.fp_to_fp
// CHECK: tt.dot {{.*}} -> tensor<64x64xf32, #mma>
module {
  tt.func public @e5m2_upcast(%a: tensor<64x32xf8E5M2>, %b: tensor<32x64xf8E5M2>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf8E5M2> * tensor<32x64xf8E5M2> -> tensor<64x64xf32>
    tt.return %d : tensor<64x64xf32>
  }
}
