// RUN: tt-opt %s -split-input-file -canonicalize -allow-unregistered-dialect | FileCheck %s

// -canonicalize on ttg.warp_specialize (Triton's WarpSpecializeOp::canonicalize and MLIR's dead-op rule).

// Captures no partition uses are dropped with the partitions' arguments; a capture passed twice is passed once,
// its second argument's uses moved to the first.
// CHECK-LABEL: tt.func @captures
// CHECK-NEXT: ttg.warp_specialize(%arg0, %arg2)
// CHECK: partition0(%arg3: i32, %arg4: i32) num_warps(4) {
// CHECK-NEXT: "sink"(%arg3, %arg4, %arg3) : (i32, i32, i32) -> ()
// CHECK: partition1(%arg3: i32, %arg4: i32) num_warps(4) {
// CHECK-NEXT: "sink"(%arg4) : (i32) -> ()
// CHECK: } : (i32, i32) -> ()
tt.func @captures(%a: i32, %b: i32, %c: i32) {
  ttg.warp_specialize(%a, %b, %c, %a)
  default {
    ttg.warp_yield
  }
  partition0(%x: i32, %y: i32, %z: i32, %w: i32) num_warps(4) {
    "sink"(%x, %z, %w) : (i32, i32, i32) -> ()
    ttg.warp_return
  }
  partition1(%x: i32, %y: i32, %z: i32, %w: i32) num_warps(4) {
    "sink"(%z) : (i32) -> ()
    ttg.warp_return
  } : (i32, i32, i32, i32) -> ()
  tt.return
}

// -----

// Results nobody uses are dropped, with what ttg.warp_yield passes them.
// CHECK-LABEL: tt.func @results
// CHECK-NEXT: %0 = ttg.warp_specialize()
// CHECK-NEXT: default {
// CHECK-NEXT:   "sink"() : () -> ()
// CHECK-NEXT:   ttg.warp_yield %arg1 : f32
// CHECK-NEXT: } : () -> f32
// CHECK-NEXT: tt.return %0 : f32
tt.func @results(%a: i32, %b: f32) -> f32 {
  %r:3 = ttg.warp_specialize()
  default {
    "sink"() : () -> ()
    ttg.warp_yield %a, %b, %a : i32, f32, i32
  } : () -> (i32, f32, i32)
  tt.return %r#1 : f32
}

// -----

// A warp_specialize whose regions have no effects and whose results are unused is erased; one whose
// partitions have effects stays.
// CHECK-LABEL: tt.func @dead
// CHECK-NEXT: tt.return
// CHECK-LABEL: tt.func @alive
// CHECK-NEXT: ttg.warp_specialize()
tt.func @dead(%a: i32) {
  %r = ttg.warp_specialize(%a)
  default {
    %s = arith.muli %a, %a : i32
    ttg.warp_yield %s : i32
  }
  partition0(%x: i32) num_warps(1) {
    %t = arith.addi %x, %x : i32
    ttg.warp_return
  } : (i32) -> i32
  tt.return
}
tt.func @alive() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    "sink"() : () -> ()
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

// Each partition is a region of its own for constants: a folded constant stays in the partition.
// CHECK-LABEL: tt.func @partition_constants
// CHECK: partition0(%arg1: i32) num_warps(1) {
// CHECK-NEXT: %c6_i32 = arith.constant 6 : i32
// CHECK-NEXT: "sink"(%c6_i32, %arg1) : (i32, i32) -> ()
tt.func @partition_constants(%a: i32) {
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  partition0(%x: i32) num_warps(1) {
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %m = arith.muli %c2, %c3 : i32
    "sink"(%m, %x) : (i32, i32) -> ()
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}
