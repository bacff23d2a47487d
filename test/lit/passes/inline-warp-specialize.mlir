// RUN: tt-opt %s -split-input-file -inline | FileCheck %s
// RUN: tt-opt %s -split-input-file -inline='default-pipeline=' | FileCheck %s --check-prefix=CFG

// -inline into the regions of a ttg.warp_specialize: a partition is isolated from above, so what the inlined
// body needs (its constants too) lands in the partition; its regions may hold several blocks.

// CHECK-LABEL: tt.func @into_partition
// CHECK: partition0(%arg1: !tt.ptr<i32>) num_warps(4) {
// CHECK-NEXT:   %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:   tt.store %arg1, %c7_i32 : !tt.ptr<i32>
// CHECK-NEXT:   ttg.warp_return
tt.func @into_partition(%p: !tt.ptr<i32>) {
  ttg.warp_specialize(%p)
  default {
    ttg.warp_yield
  }
  partition0(%q: !tt.ptr<i32>) num_warps(4) {
    tt.call @store_seven(%q) : (!tt.ptr<i32>) -> ()
    ttg.warp_return
  } : (!tt.ptr<i32>) -> ()
  tt.return
}
tt.func private @store_seven(%q: !tt.ptr<i32>) {
  %c7 = arith.constant 7 : i32
  tt.store %q, %c7 : !tt.ptr<i32>
  tt.return
}

// -----

// A callee of several blocks is inlined into the default region too: the region is split at the call, the
// callee's returns branch to the continuation, which takes the result (without the default pipeline, which
// would first turn the callee into an arith.select).
// CFG-LABEL: tt.func @multi_block
// CFG: default {
// CFG-NEXT:   cf.cond_br %arg0, ^bb1, ^bb2
// CFG-NEXT: ^bb1:  // pred: ^bb0
// CFG-NEXT:   cf.br ^bb3(%arg1 : i32)
// CFG-NEXT: ^bb2:  // pred: ^bb0
// CFG-NEXT:   cf.br ^bb3(%arg2 : i32)
// CFG-NEXT: ^bb3(%1: i32):  // 2 preds: ^bb1, ^bb2
// CFG-NEXT:   ttg.warp_yield %1 : i32
// CFG-NEXT: } : () -> i32
tt.func @multi_block(%c: i1, %a: i32, %b: i32) -> i32 {
  %r = ttg.warp_specialize()
  default {
    %s = tt.call @choose(%c, %a, %b) : (i1, i32, i32) -> i32
    ttg.warp_yield %s : i32
  } : () -> i32
  tt.return %r : i32
}
tt.func private @choose(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^yes, ^no
^yes:
  tt.return %a : i32
^no:
  tt.return %b : i32
}
