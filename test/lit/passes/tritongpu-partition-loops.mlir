// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-partition-loops -verify-diagnostics | FileCheck %s

// The unswizzled shared layout of the buffer in @tensor_through_smem.
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#bl = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

module attributes {"ttg.num-warps" = 4 : i32} {

// A loop with a single partition stays as it is, attributes and all.
// CHECK-LABEL: @single
// CHECK-NEXT: scf.for
// CHECK-NEXT: "work"() {ttg.partition = array<i32: 0>}
// CHECK-NEXT: } {ttg.partition = array<i32: 0>, ttg.partition.stages = [0], ttg.warp_specialize.tag = 3 : i32}
tt.func @single(%n: i32, %one: i32) {
  scf.for %i = %one to %n step %one : i32 {
    "work"() {ttg.partition = array<i32: 0>} : () -> ()
  } {ttg.partition.stages = [0], ttg.warp_specialize.tag = 3 : i32, ttg.partition = array<i32: 0>}
  tt.return
}

// Each partition gets its own loop with the iteration arguments it computes;
// the first yields its results from the warp group (which replace the loop's
// results where an op outside the partitions uses them), the others return.
// Inside the copies `ttg.partition` and `ttg.partition.stages` are gone; ops in
// two partitions are copied into both.
// CHECK-LABEL: @split
// CHECK-NEXT: %[[WG:.*]] = nvws.warp_group
// CHECK-NEXT: partition0 num_warps(4) {
// CHECK-NEXT:   %[[R0:.*]] = scf.for %[[I:.*]] = %arg1 to %arg0 step %arg1 iter_args(%[[X:.*]] = %arg1) -> (i32)  : i32 {
// CHECK-NEXT:     %[[S:.*]] = arith.addi %[[I]], %[[I]] : i32
// CHECK-NEXT:     %[[X1:.*]] = "step_x"(%[[X]], %[[S]]) : (i32, i32) -> i32
// CHECK-NEXT:     scf.yield %[[X1]] : i32
// CHECK-NEXT:   } {ttg.warp_specialize.tag = 0 : i32}
// CHECK-NEXT:   nvws.warp_group.yield %[[R0]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: partition1 num_warps(4) {
// CHECK-NEXT:   scf.for %[[J:.*]] = %arg1 to %arg0 step %arg1 iter_args(%[[Y:.*]] = %arg0) -> (i32)  : i32 {
// CHECK-NEXT:     %[[T:.*]] = arith.addi %[[J]], %[[J]] : i32
// CHECK-NEXT:     %[[Y1:.*]] = "step_y"(%[[Y]], %[[T]]) : (i32, i32) -> i32
// CHECK-NEXT:     scf.yield %[[Y1]] : i32
// CHECK-NEXT:   } {ttg.warp_specialize.tag = 0 : i32}
// CHECK-NEXT:   nvws.warp_group.return
// CHECK-NEXT: }
// CHECK-NEXT: "consume"(%[[WG]]) : (i32) -> ()
tt.func @split(%n: i32, %one: i32) {
  %r:2 = scf.for %i = %one to %n step %one iter_args(%x = %one, %y = %n) -> (i32, i32) : i32 {
    %s = arith.addi %i, %i {ttg.partition = array<i32: 0, 1>} : i32
    %x1 = "step_x"(%x, %s) {ttg.partition = array<i32: 0>} : (i32, i32) -> i32
    %y1 = "step_y"(%y, %s) {ttg.partition = array<i32: 1>} : (i32, i32) -> i32
    scf.yield {ttg.partition = array<i32: 0, 1>} %x1, %y1 : i32, i32
  } {ttg.partition.stages = [0, 1], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 0>, array<i32: 1>]}
  "consume"(%r#0) : (i32) -> ()
  tt.return
}

// Ops beside the loop that carry its tag (whatever the integer type) and
// partitions move into the warp group, in their partitions; untagged ops, and
// ops of another tag, stay where they are.
// CHECK-LABEL: @tagged_neighbours
// CHECK-NEXT: "before_other"() {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 9 : i32}
// CHECK-NEXT: "stays"()
// CHECK-NEXT: nvws.warp_group
// CHECK-NEXT: partition0 num_warps(4) {
// CHECK-NEXT:   "before"() {ttg.partition = array<i32: 0, 1>, ttg.warp_specialize.tag = 5 : i64}
// CHECK-NEXT:   scf.for
// CHECK-NEXT:     "a"()
// CHECK-NEXT:   }
// CHECK-NEXT:   nvws.warp_group.yield
// CHECK-NEXT: }
// CHECK-NEXT: partition1 num_warps(4) {
// CHECK-NEXT:   "before"()
// CHECK-NEXT:   scf.for
// CHECK-NEXT:     "b"()
// CHECK-NEXT:   }
// CHECK-NEXT:   "after"()
// CHECK-NEXT:   nvws.warp_group.return
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func @tagged_neighbours(%n: i32, %one: i32) {
  "before_other"() {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 9 : i32} : () -> ()
  "before"() {ttg.partition = array<i32: 0, 1>, ttg.warp_specialize.tag = 5} : () -> ()
  "stays"() : () -> ()
  scf.for %i = %one to %n step %one : i32 {
    "a"() {ttg.partition = array<i32: 0>} : () -> ()
    "b"() {ttg.partition = array<i32: 1>} : () -> ()
  } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 5 : i32, ttg.partition = array<i32: 0, 1>}
  "after"() {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 5 : i32} : () -> ()
  tt.return
}

// A tensor result that only another partition computes comes back through
// shared memory: allocated before the warp group, stored at the end of its
// partition, loaded and freed after.
// CHECK-LABEL: @tensor_through_smem
// CHECK-NEXT: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #[[SH]], #smem, mutable>
// CHECK-NEXT: nvws.warp_group
// CHECK-NEXT: partition0 num_warps(4) {
// CHECK-NEXT:   scf.for
// CHECK-NEXT:     "tick"
// CHECK-NEXT:   }
// CHECK-NEXT:   nvws.warp_group.yield
// CHECK-NEXT: }
// CHECK-NEXT: partition1 num_warps(4) {
// CHECK-NEXT:   %[[OUT:.*]] = scf.for
// CHECK-NEXT:     "acc"
// CHECK-NEXT:     scf.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   ttg.local_store %[[OUT]], %[[BUF]]
// CHECK-NEXT:   nvws.warp_group.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]]
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
// CHECK-NEXT: tt.return %[[V]]
tt.func @tensor_through_smem(%n: i32, %one: i32, %init: tensor<64xf32, #bl>) -> tensor<64xf32, #bl> {
  %r = scf.for %i = %one to %n step %one iter_args(%acc = %init) -> (tensor<64xf32, #bl>) : i32 {
    "tick"(%i) {ttg.partition = array<i32: 0>} : (i32) -> ()
    %a = "acc"(%acc) {ttg.partition = array<i32: 1>} : (tensor<64xf32, #bl>) -> tensor<64xf32, #bl>
    scf.yield {ttg.partition = array<i32: 0, 1>} %a : tensor<64xf32, #bl>
  } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 1>]}
  tt.return %r : tensor<64xf32, #bl>
}

// scf.if and tt.reduce are copied into each of their partitions, with the
// results (and yielded values) their outputs give that partition; a partition
// left with no results gets empty yields.
// CHECK-LABEL: @nested_regions
// CHECK: partition0 num_warps(4) {
// CHECK-NEXT: scf.for
// CHECK-NEXT:   %[[C:.*]] = "cond"
// CHECK-NEXT:   %[[P:.*]] = scf.if %[[C]] -> (i32) {
// CHECK-NEXT:     %[[A:.*]] = "p"()
// CHECK-NEXT:     scf.yield %[[A]] : i32
// CHECK-NEXT:   } else {
// CHECK-NEXT:     scf.yield %arg1 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   "use_p"(%[[P]])
// CHECK-NEXT: }
// CHECK: partition1 num_warps(4) {
// CHECK-NEXT: scf.for
// CHECK-NEXT:   %[[C1:.*]] = "cond"
// CHECK-NEXT:   scf.if %[[C1]] {
// CHECK-NEXT:     "side"()
// CHECK-NEXT:   } else {
// CHECK-NEXT:   }
// CHECK-NEXT:   %[[T:.*]] = "t"()
// CHECK-NEXT:   %[[S:.*]] = "tt.reduce"(%[[T]]) <{axis = 0 : i32}> ({
// CHECK-NEXT:   ^bb0(%[[L:.*]]: i32, %[[R:.*]]: i32):
// CHECK-NEXT:     %[[M:.*]] = arith.addi %[[L]], %[[R]] : i32
// CHECK-NEXT:     tt.reduce.return %[[M]] : i32
// CHECK-NEXT:   }) : (tensor<64xi32, #{{.*}}>) -> i32
// CHECK-NEXT:   "use_s"(%[[S]])
// CHECK-NEXT: }
tt.func @nested_regions(%n: i32, %one: i32) {
  scf.for %i = %one to %n step %one : i32 {
    %c = "cond"() {ttg.partition = array<i32: 0, 1>} : () -> i1
    %p = scf.if %c -> (i32) {
      %a = "p"() {ttg.partition = array<i32: 0>} : () -> i32
      "side"() {ttg.partition = array<i32: 1>} : () -> ()
      scf.yield {ttg.partition = array<i32: 0, 1>} %a : i32
    } else {
      scf.yield {ttg.partition = array<i32: 0, 1>} %one : i32
    } {ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 0>]}
    "use_p"(%p) {ttg.partition = array<i32: 0>} : (i32) -> ()
    %t = "t"() {ttg.partition = array<i32: 1>} : () -> tensor<64xi32, #bl>
    %s = "tt.reduce"(%t) <{axis = 0 : i32}> ({
    ^bb0(%l: i32, %r: i32):
      %m = arith.addi %l, %r {ttg.partition = array<i32: 1>} : i32
      tt.reduce.return %m {ttg.partition = array<i32: 1>} : i32
    }) {ttg.partition = array<i32: 1>, ttg.partition.outputs = [array<i32: 1>]} : (tensor<64xi32, #bl>) -> i32
    "use_s"(%s) {ttg.partition = array<i32: 1>} : (i32) -> ()
  } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>}
  tt.return
}

// A value made by partitions 0 and 1 may feed partition 1 (a subset).
// CHECK-LABEL: @subset_consumer
// CHECK: nvws.warp_group
tt.func @subset_consumer(%n: i32, %one: i32) {
  scf.for %i = %one to %n step %one : i32 {
    %v = "make"() {ttg.partition = array<i32: 0, 1>} : () -> i32
    "take"(%v) {ttg.partition = array<i32: 1>} : (i32) -> ()
  } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>}
  tt.return
}

}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
// A value passed straight to another partition (here one iteration later,
// through an iteration argument) is an error of the scheduling: the pass warns
// and fails.
tt.func @direct_consumer(%n: i32, %one: i32) {
  scf.for %i = %one to %n step %one iter_args(%c = %one) -> (i32) : i32 {
    // expected-warning @below {{non-root partition #1 has direct SSA consumer}}
    %v = "make"() {ttg.partition = array<i32: 1>} : () -> i32
    // expected-note @below {{use at distance 1 in partition #0 here}}
    "take"(%c) {ttg.partition = array<i32: 0>} : (i32) -> ()
    scf.yield {ttg.partition = array<i32: 0, 1>} %v : i32
  } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 0, 1>]}
  tt.return
}
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @bad_index(%n: i32, %one: i32) {
  scf.for %i = %one to %n step %one : i32 {
    // expected-error @below {{invalid partition index 2}}
    "a"() {ttg.partition = array<i32: 2>} : () -> ()
  } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>}
  tt.return
}
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @bad_stage(%n: i32, %one: i32) {
  // expected-error @below {{partition stages attribute 'ttg.partition.stages' has invalid element -1 : i64}}
  scf.for %i = %one to %n step %one : i32 {
    "a"() {ttg.partition = array<i32: 0>} : () -> ()
  } {ttg.partition.stages = [0, -1], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0>}
  tt.return
}
}
