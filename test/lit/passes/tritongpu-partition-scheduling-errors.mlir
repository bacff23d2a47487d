// RUN: not tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-partition-scheduling 2>&1 | FileCheck %s

// A loop's given partition stages must be non-negative integers.
// CHECK: tritongpu-partition-scheduling-errors.mlir:[[# @LINE + 4]]:3: error: partition stages attribute 'ttg.partition.stages' has invalid element -1 : i32
tt.func @negative_stage(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    "work"() {ttg.partition = array<i32: 0>} : () -> ()
  } {tt.warp_specialize, ttg.partition.stages = [0 : i32, -1 : i32], ttg.warp_specialize.tag = 0 : i32}
  tt.return
}

// -----

// An op's partition must be one of the loop's.
// CHECK: tritongpu-partition-scheduling-errors.mlir:[[# @LINE + 5]]:5: error: invalid partition index 2
tt.func @unknown_partition(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    "work"() {ttg.partition = array<i32: 2>} : () -> ()
  } {tt.warp_specialize, ttg.partition.stages = [0 : i32, 0 : i32], ttg.warp_specialize.tag = 0 : i32}
  tt.return
}
