// A failing pass leaves a reproducer (the input with its locations, the pipeline in MLIR's file metadata),
// named on stderr; `tt-opt --run-reproducer` replays it to the same error.

// RUN: rm -rf %t && mkdir -p %t
// RUN: env TRITON_REPRODUCER_PATH=%t/repro.mlir not tt-opt %s -canonicalize -triton-rewrite-tensor-pointer -o %t/out.mlir 2> %t/err.txt
// RUN: FileCheck %s --check-prefix=ERR < %t/err.txt
// RUN: not ls %t/out.mlir
// ERR: reproducer.mlir:[[# @LINE + 21]]:5: error: 'tt.load' op uses a block pointer whose tt.make_tensor_ptr was not rewritten
// ERR: reproducer.mlir: note: pipeline failed while executing 'triton-rewrite-tensor-pointer': reproducer generated at '{{.*}}repro.mlir' (replay: tt-opt --run-reproducer {{.*}}repro.mlir)

// RUN: FileCheck %s --check-prefix=REPRO < %t/repro.mlir
// REPRO: tt.func public @blocked_argument
// REPRO: tt.load {{.*}} loc([[LOAD:#loc[0-9]*]])
// REPRO: [[LOAD]] = loc("{{.*}}reproducer.mlir":[[# @LINE + 15]]:5)
// REPRO: {-#
// REPRO-NEXT: external_resources: {
// REPRO-NEXT: mlir_reproducer: {
// REPRO-NEXT: pipeline: "builtin.module(canonicalize{max-iterations=10 region-simplify=normal},triton-rewrite-tensor-pointer)",
// REPRO-NEXT: disable_threading: true,
// REPRO-NEXT: verify_each: true
// REPRO: #-}

// RUN: not tt-opt --run-reproducer %t/repro.mlir 2> %t/replay.txt
// RUN: grep -v "note: pipeline failed" %t/err.txt > %t/error-only.txt
// RUN: diff %t/error-only.txt %t/replay.txt

module {
  tt.func public @blocked_argument(%arg0: !tt.ptr<tensor<128xf32>>, %out: !tt.ptr<f32>) {
    %0 = tt.load %arg0 : !tt.ptr<tensor<128xf32>>
    %1 = "tt.reduce"(%0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<128xf32>) -> f32
    tt.store %out, %1 : !tt.ptr<f32>
    tt.return
  }
}

// A file without the pipeline is not a reproducer; passes and an input file do not go with --run-reproducer.
// RUN: not tt-opt --run-reproducer %s 2>&1 | FileCheck %s --check-prefix=NOTREPRO
// NOTREPRO: tt-opt: error: '{{.*}}reproducer.mlir' is not a reproducer: it has no '{-# external_resources: { mlir_reproducer: { pipeline: "..." } } #-}'
// RUN: not tt-opt --run-reproducer %t/repro.mlir -cse 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: tt-opt: error: --run-reproducer takes the input and the pipeline from the reproducer file; give neither

// A reproducer file is still a module: tt-opt reads it like any input and ignores its metadata.
// RUN: tt-opt %t/repro.mlir | FileCheck %s --check-prefix=PLAIN
// PLAIN: tt.func public @blocked_argument
// PLAIN-NOT: {-#
