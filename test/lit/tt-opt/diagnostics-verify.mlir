// RUN: tt-opt %s -split-input-file -verify-diagnostics -make-ttgir='target=cuda:90 num-warps=4' | FileCheck %s
// RUN: env MLIR_ENABLE_DIAGNOSTICS=remarks,operations,stacktraces tt-opt %s -split-input-file -verify-diagnostics -make-ttgir='target=cuda:90 num-warps=4' | FileCheck %s
// RUN: not tt-opt %s -split-input-file -verify-diagnostics -make-ttgir='target=cuda:80 num-warps=8' 2>&1 | FileCheck %s --check-prefix=W8
// RUN: tt-opt %s -split-input-file -convert-triton-to-tritongpu='target=cuda:90 num-warps=4' | env MLIR_ENABLE_DIAGNOSTICS=stacktraces not tt-opt -split-input-file -verify-diagnostics -tritongpu-coalesce 2>&1 | FileCheck %s --check-prefix=UNEXPECTED

// --verify-diagnostics collects the warnings and remarks passes emit, whatever MLIR_ENABLE_DIAGNOSTICS says,
// and checks them against the expected-* comments, as mlir-opt does. `operations` attaches no note in this
// mode (as mlir-opt, which turns printOpOnDiagnostic off for it); a stack trace is not checked, but shown
// with an unexpected diagnostic, to tell where it came from.

// With 8 warps the 1024-element accesses get 4 elements per thread, not 8: the expectations fail.
// W8: diagnostics-verify.mlir:[[# @LINE + 10]]:5: error: unexpected remark: tt.load: 4 x f32 (128 bits) per access, 1 access per thread
// W8: diagnostics-verify.mlir:[[# @LINE + 8]]:8: error: expected remark "tt.load: 4 x f32 (128 bits) per access, 2 accesses per thread" was not produced

// CHECK-LABEL: tt.func public @copy
module {
  tt.func public @copy(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %in_base = tt.splat %in : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %in_ptrs = tt.addptr %in_base, %range : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    // expected-remark @+1 {{tt.load: 4 x f32 (128 bits) per access, 2 accesses per thread}}
    %x = tt.load %in_ptrs : tensor<1024x!tt.ptr<f32>>
    %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %out_ptrs = tt.addptr %out_base, %range : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    // expected-remark @below {{tt.store: 4 x f32 (128 bits) per access, 2 accesses per thread}}
    tt.store %out_ptrs, %x : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// One warning per tt.dot that Triton would run on tensor cores and ttc does not (the tf32x3 one, which Triton splits into tf32 dots), however many
// passes make-ttgir runs; none for the f16 dot (MMA v2) nor for an f32 dot with ieee precision (Triton uses FMA
// for it too). Unaligned pointers: scalar accesses.
// CHECK-LABEL: tt.func public @dots
// UNEXPECTED: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: unexpected remark: tt.load: 1 x f16 (16 bits) per access
// UNEXPECTED-NEXT: <stdin>:{{[0-9]+}}:{{[0-9]+}}: note: diagnostic emitted with trace:
// UNEXPECTED-NEXT: {{^}} #0 {{.*}}coalesce.py:{{[0-9]+}} in Coalesce.apply
module {
  tt.func public @dots(%a: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
    %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %rows = tt.expand_dims %range {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %c16 = arith.constant dense<16> : tensor<16x1xi32>
    %row_offs = arith.muli %rows, %c16 : tensor<16x1xi32>
    %row_b = tt.broadcast %row_offs : tensor<16x1xi32> -> tensor<16x16xi32>
    %col_b = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
    %offs = arith.addi %row_b, %col_b : tensor<16x16xi32>
    %a_base = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %a_ptrs = tt.addptr %a_base, %offs : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    // expected-remark @+1 {{tt.load: 1 x f16 (16 bits) per access, 2 accesses per thread (limited by the pointer divisibility: 1 byte)}}
    %tile = tt.load %a_ptrs : tensor<16x16x!tt.ptr<f16>>
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %ab = tt.dot %tile, %tile, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %ieee = tt.dot %ab, %ab, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    // expected-warning @+1 {{tt.dot 16x16x16 (f32 x f32 -> f32, tf32x3) runs on FMA units: Triton splits an f32 dot of tf32x3 precision into several tf32/bf16 tensor-core dots (its f32-dot-tc pass), which ttc does not do}}
    %x3 = tt.dot %ieee, %ieee, %zero, inputPrecision = tf32x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %c_base = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %c_ptrs = tt.addptr %c_base, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    // expected-remark @+1 {{tt.store: 1 x f32 (32 bits) per access, 2 accesses per thread (limited by the pointer divisibility: 1 byte)}}
    tt.store %c_ptrs, %x3 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}
