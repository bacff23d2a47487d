// RUN: tt-opt %s -split-input-file -triton-nvidia-mma-lowering | FileCheck %s

#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // A synchronous MMA gets its own barrier: initialized before, waited on (phase 0, under the MMA's predicate)
  // and invalidated after.
  // CHECK-LABEL: tt.func @sync_mma
  // CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[TRUE:.*]] = arith.constant true
  // CHECK: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
  // CHECK-NEXT: ttng.init_barrier %[[BAR]], 1
  // CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %arg2, %arg3, %arg4, %[[BAR]][%[[TRUE]]] {is_async}
  // CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[ZERO]], %arg4
  // CHECK-NEXT: ttng.inval_barrier %[[BAR]]
  tt.func @sync_mma(%a: !ttg.memdesc<128x64xf16, #sa, #smem>, %b: !ttg.memdesc<64x32xf16, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1, %p: i1) {
    ttng.tc_gen5_mma %a, %b, %d, %c, %p : !ttg.memdesc<128x64xf16, #sa, #smem>, !ttg.memdesc<64x32xf16, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }

  // A commit after an MMA with a true predicate joins its barriers; the pure op making its barrier moves above
  // the MMA, and a commit without predicate gets `true`.
  // CHECK-LABEL: tt.func @merge_commit
  // CHECK: %[[SLOT:.*]] = ttg.memdesc_index
  // CHECK-NEXT: ttng.tc_gen5_mma {{.*}}, %arg5[%arg6], %[[SLOT]][%true] {is_async}
  // CHECK-NOT: ttng.tc_gen5_commit
  // CHECK: tt.return
  tt.func @merge_commit(%a: !ttg.memdesc<128x64xf16, #sa, #smem>, %b: !ttg.memdesc<64x32xf16, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1, %p: i1, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %q: i1, %bars: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>) {
    %true = arith.constant true
    %c1 = arith.constant 1 : i32
    ttng.tc_gen5_mma %a, %b, %d, %c, %true {is_async} : !ttg.memdesc<128x64xf16, #sa, #smem>, !ttg.memdesc<64x32xf16, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_commit %bar, %q : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %slot = ttg.memdesc_index %bars[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %slot : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  // With a predicate that is not constant true, only a commit under the same predicate joins the MMA; the first
  // other one stops the merging.
  // CHECK-LABEL: tt.func @same_predicate
  // CHECK: ttng.tc_gen5_mma {{.*}}, %arg5[%arg4] {is_async}
  // CHECK-NEXT: ttng.tc_gen5_commit %arg5, %arg6
  // CHECK-NEXT: ttng.tc_gen5_commit %arg5, %arg4
  tt.func @same_predicate(%a: !ttg.memdesc<128x64xf16, #sa, #smem>, %b: !ttg.memdesc<64x32xf16, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1, %p: i1, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %q: i1) {
    ttng.tc_gen5_mma %a, %b, %d, %c, %p {is_async} : !ttg.memdesc<128x64xf16, #sa, #smem>, !ttg.memdesc<64x32xf16, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_commit %bar, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %bar, %q : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %bar, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  // An op with side effects between the MMA and the commit keeps them apart.
  // CHECK-LABEL: tt.func @impure_between
  // CHECK: ttng.tc_gen5_mma {{.*}} {is_async} :
  // CHECK-NEXT: ttng.arrive_barrier
  // CHECK-NEXT: ttng.tc_gen5_commit
  tt.func @impure_between(%a: !ttg.memdesc<128x64xf16, #sa, #smem>, %b: !ttg.memdesc<64x32xf16, #sb, #smem>, %d: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>, %c: i1, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
    %true = arith.constant true
    ttng.tc_gen5_mma %a, %b, %d, %c, %true {is_async} : !ttg.memdesc<128x64xf16, #sa, #smem>, !ttg.memdesc<64x32xf16, #sb, #smem>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#sc = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Scales in shared memory are copied to tensor memory: rows = M for A (A is K-major: its 128 rows), N for B
  // (twice B's 64 columns: e2m1 packs two values per byte and B is not K-major).
  // CHECK-LABEL: tt.func @scales
  // CHECK: %[[SA:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory, mutable>
  // CHECK-NEXT: ttng.tmem_copy %arg3, %[[SA]]
  // CHECK-NEXT: %[[SB:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory, mutable>
  // CHECK-NEXT: ttng.tmem_copy %arg4, %[[SB]]
  // CHECK-NEXT: ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2, %[[SA]], %[[SB]],
  tt.func @scales(%a: !ttg.memdesc<128x64xi8, #sa, #smem>, %b: !ttg.memdesc<128x64xi8, #sb, #smem>, %d: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %as: !ttg.memdesc<128x4xi8, #sc, #smem>, %bs: !ttg.memdesc<128x4xi8, #sc, #smem>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
    %true = arith.constant true
    ttng.tc_gen5_mma_scaled %a, %b, %d, %as, %bs, %true, %true lhs = e2m1 rhs = e2m1, %bar[%true] {is_async} : !ttg.memdesc<128x64xi8, #sa, #smem>, !ttg.memdesc<128x64xi8, #sb, #smem>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #sc, #smem>, !ttg.memdesc<128x4xi8, #sc, #smem>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}
