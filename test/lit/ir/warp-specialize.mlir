// RUN: tt-opt %s -split-input-file | FileCheck %s
// RUN: tt-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tt-opt %s -split-input-file --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// ttg.warp_specialize in Triton 3.6's syntax: the default region, then each partition with its arguments (the
// explicit captures) and its warp count, then the function type of captures and results.

// CHECK-LABEL: tt.func @two_partitions
// CHECK-NEXT: %0 = ttg.warp_specialize(%arg0, %arg1)
// CHECK-NEXT: default {
// CHECK-NEXT:   ttg.warp_yield %arg1 : f32
// CHECK-NEXT: }
// CHECK-NEXT: partition0(%arg2: i64, %arg3: f32) num_warps(2) {
// CHECK-NEXT:   %1 = arith.addf %arg3, %arg3 : f32
// CHECK-NEXT:   ttg.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1(%arg2: i64, %arg3: f32) num_warps(1) {
// CHECK-NEXT:   ttg.warp_return
// CHECK-NEXT: } : (i64, f32) -> f32
// CHECK-NEXT: tt.return %0 : f32
// GENERIC: "ttg.warp_specialize"(%arg0, %arg1) <{partitionNumWarps = array<i32: 2, 1>}> ({
// GENERIC: "ttg.warp_specialize.partitions"() ({
// GENERIC-NEXT: ^bb0(%arg2: i64, %arg3: f32):
// LOC: partition0(%arg2: i64 loc({{.*}}), %arg3: f32 loc({{.*}})) num_warps(2) {
tt.func @two_partitions(%n: i64, %x: f32) -> f32 {
  %r = ttg.warp_specialize(%n, %x)
  default {
    ttg.warp_yield %x : f32
  }
  partition0(%a: i64, %b: f32) num_warps(2) {
    %s = arith.addf %b, %b : f32
    ttg.warp_return
  }
  partition1(%a: i64, %b: f32) num_warps(1) {
    ttg.warp_return
  } : (i64, f32) -> f32
  tt.return %r : f32
}

// -----

// No partitions and no captures; several results are named %0:2. The optional arrays (warpGroupStartIds,
// requestedRegisters, actualRegisters) print with the discardable attributes after `attributes`, sorted.

// CHECK-LABEL: tt.func @default_only
// CHECK-NEXT: %0:2 = ttg.warp_specialize() attributes {allocation.offset = 0 : i32, requestedRegisters = array<i32>}
// CHECK-NEXT: default {
// CHECK-NEXT:   ttg.warp_yield %arg0, %arg0 : i32, i32
// CHECK-NEXT: } : () -> (i32, i32)
// CHECK-NEXT: tt.return %0#0, %0#1 : i32, i32
tt.func @default_only(%v: i32) -> (i32, i32) {
  %r:2 = ttg.warp_specialize() attributes {requestedRegisters = array<i32>, allocation.offset = 0 : i32}
  default {
    ttg.warp_yield %v, %v : i32, i32
  } : () -> (i32, i32)
  tt.return %r#0, %r#1 : i32, i32
}

// -----

// The default region may use values from above; a partition sees only its arguments.

// CHECK-LABEL: tt.func @captures
// CHECK: default {
// CHECK-NEXT:   %1 = arith.muli %arg0, %arg0 : i32
// CHECK: partition0(%arg1: i32) num_warps(4) {
// CHECK-NEXT:   %1 = arith.muli %arg1, %arg1 : i32
tt.func @captures(%v: i32) -> i32 {
  %r = ttg.warp_specialize(%v)
  default {
    %m = arith.muli %v, %v : i32
    ttg.warp_yield %m : i32
  }
  partition0(%a: i32) num_warps(4) {
    %m = arith.muli %a, %a : i32
    ttg.warp_return
  } : (i32) -> i32
  tt.return %r : i32
}

// -----

// A partition is a layout domain of its own: its tensors are checked against its num_warps, not the module's.

#two = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#eight = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK: [[TWO:#[a-z0-9]+]] = #ttg.blocked<{{.*}}warpsPerCTA = [2]
// CHECK-LABEL: tt.func @partition_warps
// CHECK: partition0() num_warps(2) {
// CHECK-NEXT: tt.make_range {{.*}} : tensor<64xi32, [[TWO]]>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @partition_warps() {
    %x = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #eight>
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(2) {
      %y = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #two>
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}
