// RUN: tt-opt %s -split-input-file -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 -canonicalize | FileCheck %s

// A loop whose TMA stores use descriptors made in the kernel gets two tensormaps per tt.make_tensor_descriptor in
// global scratch (Triton's lowerTMADescriptors from pipelineTMAStores), picked by a loop-carried counter stepped
// modulo 2; each output equals Triton 3.6's for the same passes.

// In an scf.if: the counter's new value leaves the if as an extra result (the else branch keeps it).
// CHECK-LABEL: tt.func public @desc_in_if
// CHECK: %[[SCRATCH:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32}
// CHECK: scf.for {{.*}} iter_args(%[[CTR:[^ ]*]] = %c0_i32) -> (i32)
// CHECK: %[[NEXT:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[CTR]], %c128_i32
// CHECK-NEXT: %[[MAP:.*]] = tt.addptr %[[SCRATCH]], %[[OFF]]
// CHECK-NEXT: ttng.tensormap_create %[[MAP]], %arg0, [%c32_i32, %c64_i32], [%arg2, %arg3], [%c128_i64]
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[MAP]]
// CHECK-NEXT: %[[DESC:.*]] = ttng.reinterpret_tensor_descriptor %[[MAP]]
// CHECK-NEXT: %[[INC:.*]] = arith.addi %[[CTR]], %c1_i32
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi sge, %[[INC]], %c2_i32
// CHECK-NEXT: %[[STEP:.*]] = arith.select %[[WRAP]], %c0_i32, %[[INC]]
// CHECK: ttng.async_tma_copy_local_to_global %[[DESC]]
// CHECK-NEXT: scf.yield %[[STEP]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[CTR]]
// CHECK: scf.yield %[[NEXT]]
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @desc_in_if(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %x: tensor<64x32xf16, #bl>, %n: i32, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_64 = arith.constant 1 : i64
    %c64_64 = arith.constant 64 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = arith.cmpi slt, %i, %m : i32
      scf.if %p {
        %d = tt.make_tensor_descriptor %base, [%m, %n], [%c64_64, %c1_64] : <f16>, <tensor<64x32xf16, #s>>
        tt.descriptor_store %d[%i, %c0], %x : !tt.tensordesc<tensor<64x32xf16, #s>>, tensor<64x32xf16, #bl>
      }
    }
    tt.return
  }
}

// -----

// Two descriptors, one per counter; the one two scf.ifs deep is carried out of both.
// CHECK-LABEL: tt.func public @two_descs
// CHECK: %[[S0:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32}
// CHECK: %[[S1:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32}
// CHECK: scf.for {{.*}} iter_args(%[[C0:[^ ]*]] = %c0_i32, %[[C1:[^ ]*]] = %c0_i32) -> (i32, i32)
// CHECK: arith.muli %[[C0]], %c128_i32
// CHECK: %[[STEP0:.*]] = arith.select
// CHECK: %[[OUT:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: %[[IN:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[C1]], %c128_i32
// CHECK-NEXT: tt.addptr %[[S1]], %[[OFF]]
// CHECK: %[[STEP1:.*]] = arith.select
// CHECK: scf.yield %[[STEP1]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[C1]]
// CHECK: scf.yield %[[IN]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[C1]]
// CHECK: scf.yield %[[STEP0]], %[[OUT]]
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_descs(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %x: tensor<64x32xf16, #bl>, %n: i32, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_64 = arith.constant 1 : i64
    %c64_64 = arith.constant 64 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %d = tt.make_tensor_descriptor %base, [%m, %n], [%c64_64, %c1_64] : <f16>, <tensor<64x32xf16, #s>>
      tt.descriptor_store %d[%i, %c0], %x : !tt.tensordesc<tensor<64x32xf16, #s>>, tensor<64x32xf16, #bl>
      %p = arith.cmpi slt, %i, %m : i32
      scf.if %p {
        %q = arith.cmpi sgt, %i, %c1 : i32
        scf.if %q {
          %e = tt.make_tensor_descriptor %base, [%n, %m], [%c64_64, %c1_64] : <f16>, <tensor<64x32xf16, #s>>
          tt.descriptor_store %e[%c0, %i], %x : !tt.tensordesc<tensor<64x32xf16, #s>>, tensor<64x32xf16, #bl>
        }
      }
    }
    tt.return
  }
}
