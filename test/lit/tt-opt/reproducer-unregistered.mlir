// A pass that fails on input read with -allow-unregistered-dialect still reports its own error and leaves a
// reproducer (the input is re-read with the same flag); the replay needs the flag too, as in mlir-opt.

// RUN: rm -rf %t && mkdir -p %t
// RUN: env TRITON_REPRODUCER_PATH=%t/repro.mlir not tt-opt %s -allow-unregistered-dialect --tritongpu-global-scratch-memory-allocation 2> %t/err.txt
// RUN: FileCheck %s --check-prefix=ERR < %t/err.txt
// RUN: FileCheck %s --check-prefix=REPRO < %t/repro.mlir
// RUN: not tt-opt -allow-unregistered-dialect --run-reproducer %t/repro.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: global scratch allocation: call cycle detected
// ERR-NOT: is unknown
// REPRO: "keep"(%{{.*}}) : (i32) -> ()
// REPRO: pipeline: "builtin.module(tritongpu-global-scratch-memory-allocation)"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%x: i32) {
    "keep"(%x) : (i32) -> ()
    tt.call @a() : () -> ()
    tt.return
  }
  tt.func private @a() {
    tt.call @a() : () -> ()
    tt.return
  }
}
