// RUN: tt-opt %s -make-ttgir='target=cuda:90 num-warps=4' 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: env MLIR_ENABLE_DIAGNOSTICS=warnings tt-opt %s -make-ttgir='target=cuda:90 num-warps=4' -o %t 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: env MLIR_ENABLE_DIAGNOSTICS=remarks tt-opt %s -make-ttgir='target=cuda:90 num-warps=4' -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: env MLIR_ENABLE_DIAGNOSTICS=Warnings,operations tt-opt %s -make-ttgir='target=cuda:90 num-warps=4' -o %t 2>&1 | FileCheck %s --check-prefix=OPS
// RUN: env MLIR_ENABLE_DIAGNOSTICS=warnings,stacktraces tt-opt %s -make-ttgir='target=cuda:90 num-warps=4' -o %t 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: env MLIR_ENABLE_DIAGNOSTICS=remarks tt-opt %s -make-ttgir='target=cuda:75 num-warps=4' -o %t 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: env MLIR_ENABLE_DIAGNOSTICS=remarks tt-opt %s -convert-triton-to-tritongpu='target=cuda:90 num-warps=4' -o %t 2>&1 | FileCheck %s --check-prefix=CONVERT --allow-empty
// RUN: tt-opt %s -convert-triton-to-tritongpu='target=cuda:90 num-warps=4' --mlir-print-debuginfo -o %t
// RUN: env MLIR_ENABLE_DIAGNOSTICS=remarks tt-opt %t -tritongpu-coalesce -o %t.out 2>&1 | FileCheck %s --check-prefix=COALESCE
// RUN: env MLIR_ENABLE_DIAGNOSTICS=warnings tt-opt %t -tritongpu-coalesce -o %t.out 2>&1 | FileCheck %s --check-prefix=NONE --allow-empty
// RUN: echo 'tt.func @k(%%a: tensor<4xf32>, %%c: tensor<4x4xf32>) -> tensor<4x4xf32> { %%0 = tt.dot %%a, %%a, %%c : tensor<4xf32> * tensor<4xf32> -> tensor<4x4xf32> tt.return %%0 : tensor<4x4xf32> }' > %t.bad
// RUN: not tt-opt %t.bad 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: env MLIR_ENABLE_DIAGNOSTICS=operations not tt-opt %t.bad 2>&1 | FileCheck %s --check-prefix=ERROR-OPS

// MLIR_ENABLE_DIAGNOSTICS, as Triton reads it: a comma-separated list. By default only errors are shown;
// `warnings` shows warnings, `remarks` warnings and remarks, `operations` attaches the op a diagnostic is about
// (printed generically: MLIR's printOpOnDiagnostic), `stacktraces` where in ttc it was emitted.
//
// make-ttgir warns once at each tt.dot that Triton would put on tensor cores and ttc keeps on FMA (the tf32x3
// one; not the f16 one, which gets an MMA v2 layout, nor the ieee f32 one, which Triton also runs on FMA),
// after its passes; tritongpu-coalesce remarks the
// vector width it picked for each global access. Targets before sm80 use FMA in Triton too: no warning there.

// DEFAULT-NOT: {{warning|remark|note}}:
// DEFAULT:     tt.func public @kernel
// DEFAULT-NOT: {{warning|remark|note}}:

// WARN-NOT: {{remark:|\(f16 x f16 -> f32\)}}
// WARN:     diagnostics-env.mlir:[[# @LINE + 55]]:5: warning: tt.dot 16x16x16 (f32 x f32 -> f32, tf32x3) runs on FMA units: Triton splits an f32 dot of tf32x3 precision into several tf32/bf16 tensor-core dots (its f32-dot-tc pass), which ttc does not do, so make-ttgir keeps it on a blocked layout
// WARN-NEXT: {{^}}    %x3 = tt.dot %ieee, %ieee, %zero
// WARN-NEXT: {{^}}    ^
// (no warning for the f16 dot, which gets an MMA v2 layout, nor for the ieee f32 one)
// WARN-NOT: {{warning|remark|note}}:

// REMARK:      diagnostics-env.mlir:[[# @LINE + 42]]:5: remark: tt.load: 2 x f16 (32 bits) per access, 1 access per thread (limited by the tensor's size: 256 elements for 128 threads)
// REMARK:      diagnostics-env.mlir:[[# @LINE + 44]]:5: remark: tt.load: 1 x f16 (16 bits) per access, 2 accesses per thread (limited by the pointer divisibility: 1 byte)
// REMARK:      diagnostics-env.mlir:[[# @LINE + 50]]:5: remark: tt.store: 2 x f32 (64 bits) per access, 1 access per thread (limited by the tensor's size: 256 elements for 128 threads)
// REMARK-NOT: warning: tt.dot 16x16x16 (f16 x f16 -> f32)
// REMARK:      diagnostics-env.mlir:[[# @LINE + 45]]:5: warning: tt.dot 16x16x16 (f32 x f32 -> f32, tf32x3)
// REMARK-NOT:  {{warning|remark|note}}:

// The note follows its diagnostic, at the same location (so without the source line again).
// OPS:      diagnostics-env.mlir:[[# @LINE + 41]]:5: warning: tt.dot 16x16x16 (f32 x f32 -> f32, tf32x3)
// OPS-NEXT: {{^}}    %x3 = tt.dot
// OPS-NEXT: {{^}}    ^
// OPS-NEXT: diagnostics-env.mlir:[[# @LINE + 38]]:5: note: see current operation: %{{[0-9]+}} = "tt.dot"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) <{inputPrecision = 1 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{{.*}}>}>>, {{.*}}) -> tensor<16x16xf32, #ttg.blocked<{{.*}}>>
// OPS-NOT:  warning:
// OPS-NOT:  note:
// OPS-NOT:  remark:

// TRACE:      diagnostics-env.mlir:[[# @LINE + 33]]:5: warning: tt.dot 16x16x16 (f32 x f32 -> f32, tf32x3)
// TRACE:      diagnostics-env.mlir:[[# @LINE + 32]]:5: note: diagnostic emitted with trace:
// TRACE-NEXT: {{^}} #0 {{.*}}make_ttgir.py:{{[0-9]+}} in MakeTTGIR.apply
// TRACE-NEXT: {{^}} #1 {{.*}}passmanager.py:{{[0-9]+}} in PassManager.run

// SM75-NOT: warning:
// SM75:     remark: tt.load
// SM75-NOT: warning:

// CONVERT-NOT: {{warning|remark}}:

// Through a file printed with locations, diagnostics point back at this file.
// COALESCE: diagnostics-env.mlir:[[# @LINE + 14]]:5: remark: tt.load: 2 x f16 (32 bits) per access
// NONE-NOT: remark:
module {
  tt.func public @kernel(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16>, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %rows = tt.expand_dims %range {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %c16 = arith.constant dense<16> : tensor<16x1xi32>
    %row_offs = arith.muli %rows, %c16 : tensor<16x1xi32>
    %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %row_b = tt.broadcast %row_offs : tensor<16x1xi32> -> tensor<16x16xi32>
    %col_b = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
    %offs = arith.addi %row_b, %col_b : tensor<16x16xi32>
    %a_base = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %a_ptrs = tt.addptr %a_base, %offs : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %a_tile = tt.load %a_ptrs : tensor<16x16x!tt.ptr<f16>>
    %b_base = tt.splat %b : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %b_ptrs = tt.addptr %b_base, %offs : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %b_tile = tt.load %b_ptrs : tensor<16x16x!tt.ptr<f16>>
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %ab = tt.dot %a_tile, %b_tile, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %ieee = tt.dot %ab, %ab, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %x3 = tt.dot %ieee, %ieee, %zero, inputPrecision = tf32x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %c_base = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %c_ptrs = tt.addptr %c_base, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    tt.store %c_ptrs, %x3 : tensor<16x16x!tt.ptr<f32>>
    tt.return
  }
}

// Errors always show; with `operations` they get the note too.
// ERROR:      diagnostics-env.mlir.tmp.bad:1:{{[0-9]+}}: error: 'tt.dot' op expected operands to be 2d or 3d
// ERROR-NOT:  note:
// ERROR-OPS:  diagnostics-env.mlir.tmp.bad:1:{{[0-9]+}}: error: 'tt.dot' op expected operands to be 2d or 3d
// ERROR-OPS-NEXT: {{^}}tt.func @k
// ERROR-OPS-NEXT: {{^ *}}^
// ERROR-OPS-NEXT: diagnostics-env.mlir.tmp.bad:1:{{[0-9]+}}: note: see current operation: %0 = "tt.dot"(%arg0, %arg0, %arg1) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
