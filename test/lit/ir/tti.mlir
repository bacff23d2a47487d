// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// The tti (TritonInstrument) dialect's ops in Triton 3.6's syntax: buffer descriptors with their offsets and
// lengths as bare arrays and the memory kind as a keyword, a memdesc's address as i32, in-thread asserts on i1 or
// i1 tensors, and the critical-section lock with an optional predicate.

#lin = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 2 : i32} {
  // CHECK-LABEL: tt.func @descriptors
  // CHECK: tti.experimental_buffer_descriptors [0, 1024, 2048, 0], [512, 512, 64, 0], shared_mem : tensor<4xi64, #blocked>
  // CHECK: tti.experimental_buffer_descriptors [64], [32], tensor_mem : tensor<1xi64>
  // CHECK: tti.experimental_buffer_descriptors [], [], shared_mem : tensor<4xi64, #blocked>
  // GENERIC: "tti.experimental_buffer_descriptors"() <{lengths = array<i32: 512, 512, 64, 0>, memType = 0 : i32, offsets = array<i32: 0, 1024, 2048, 0>}> : () -> tensor<4xi64, #blocked>
  // GENERIC: "tti.experimental_buffer_descriptors"() <{lengths = array<i32: 32>, memType = 1 : i32, offsets = array<i32: 64>}> : () -> tensor<1xi64>
  tt.func @descriptors() {
    %a = tti.experimental_buffer_descriptors [0, 1024, 2048, 0], [512, 512, 64, 0], shared_mem : tensor<4xi64, #lin>
    %b = tti.experimental_buffer_descriptors [64], [32], tensor_mem : tensor<1xi64>
    %c = tti.experimental_buffer_descriptors [], [], shared_mem : tensor<4xi64, #lin>
    tt.return
  }

  // CHECK-LABEL: tt.func @address
  // CHECK: %0 = tti.experimental_memdesc_to_i32 %arg0 : !ttg.memdesc<16xf32, #shared, #smem, mutable>
  // GENERIC: "tti.experimental_memdesc_to_i32"(%arg0) : (!ttg.memdesc<16xf32, #shared, #smem, mutable>) -> i32
  tt.func @address(%buf: !ttg.memdesc<16xf32, #sw, #smem, mutable>) -> i32 {
    %a = tti.experimental_memdesc_to_i32 %buf : !ttg.memdesc<16xf32, #sw, #smem, mutable>
    tt.return %a : i32
  }

  // CHECK-LABEL: tt.func @asserts
  // CHECK: tti.experimental_assert_in_thread %cst, "no \"writes\"" {check_any = false} : tensor<4xi1, #blocked>
  // CHECK: tti.experimental_assert_in_thread %arg0, "any" {check_any = true} : i1
  // GENERIC: "tti.experimental_assert_in_thread"(%0) <{check_any = false, message = "no \"writes\""}> : (tensor<4xi1, #blocked>) -> ()
  tt.func @asserts(%p: i1) {
    %ok = arith.constant dense<true> : tensor<4xi1, #lin>
    tti.experimental_assert_in_thread %ok, "no \"writes\"" {check_any = false} : tensor<4xi1, #lin>
    tti.experimental_assert_in_thread %p, "any" {check_any = true} : i1
    tt.return
  }

  // CHECK-LABEL: tt.func @lock
  // CHECK: tti.experimental_lock_acquire %arg0 : !tt.ptr<i32>
  // CHECK: tti.experimental_lock_release %arg0, %arg1 : !tt.ptr<i32>
  // GENERIC: "tti.experimental_lock_release"(%arg0, %arg1) : (!tt.ptr<i32>, i1) -> ()
  tt.func @lock(%lock: !tt.ptr<i32>, %p: i1) {
    tti.experimental_lock_acquire %lock : !tt.ptr<i32>
    tti.experimental_lock_release %lock, %p : !tt.ptr<i32>
    tt.return
  }
}
