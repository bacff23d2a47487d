// RUN: tt-opt %s --dump-pass-pipeline -canonicalize -cse -o /dev/null 2>&1 | FileCheck %s
// RUN: tt-opt %s --dump-pass-pipeline --pass-pipeline='builtin.module(triton-loop-unroll,cse)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE

// --dump-pass-pipeline prints the pipeline about to run, with every option
// of each pass, as mlir-opt does.
// CHECK: Pass Manager with 2 passes:
// CHECK-NEXT: builtin.module(canonicalize{max-iterations=10 region-simplify=normal},cse)
// PIPE: Pass Manager with 2 passes:
// PIPE-NEXT: builtin.module(triton-loop-unroll,cse)
tt.func @f() {
  tt.return
}
