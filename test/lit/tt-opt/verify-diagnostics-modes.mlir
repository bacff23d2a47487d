// RUN: tt-opt %s -split-input-file -verify-diagnostics=only-expected -tritongpu-coalesce -o /dev/null
// RUN: not tt-opt %s -split-input-file -verify-diagnostics=all -tritongpu-coalesce -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: not tt-opt %s -split-input-file -verify-diagnostics -tritongpu-coalesce -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: not tt-opt %s -verify-diagnostics=some 2>&1 | FileCheck %s --check-prefix=BADVALUE

// -verify-diagnostics=only-expected checks that every expected-* comment is
// met and lets other diagnostics through; =all (the default for the bare
// flag) also fails on a diagnostic no comment expects. The coalesce pass
// remarks on both accesses below; only the load's remark is expected.

// ALL: verify-diagnostics-modes.mlir:[[# @LINE + 11]]:5: error: unexpected remark: tt.store: 4 x f32 (128 bits) per access, 2 accesses per thread
// BADVALUE: tt-opt: error: invalid value 'some' for --verify-diagnostics: expected 'all' or 'only-expected'
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %in_base = tt.splat %in : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %in_ptrs = tt.addptr %in_base, %range : tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>, tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    // expected-remark @+1 {{tt.load: 4 x f32 (128 bits) per access, 2 accesses per thread}}
    %x = tt.load %in_ptrs : tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %out_ptrs = tt.addptr %out_base, %range : tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>, tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    tt.store %out_ptrs, %x : tensor<1024x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    tt.return
  }
}
