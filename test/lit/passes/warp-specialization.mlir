// RUN: tt-opt %s -split-input-file -verify-diagnostics -nvgpu-warp-specialization | FileCheck %s

// A tt.warp_specialize loop with a loop nested in it: every loop of the function gets tt.num_stages = 0
// (replacing a loop's own stage count), as in Triton 3.6's output; the other attributes stay.
// CHECK-LABEL: tt.func @nest
// CHECK: scf.for
// CHECK: scf.for
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK: } {tt.disallow_acc_multi_buffer, tt.num_stages = 0 : i32, tt.warp_specialize}
// CHECK: scf.for
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK: scf.for
// CHECK: } {tt.flatten, tt.num_stages = 0 : i32}
module {
  tt.func @nest(%n: i32, %p: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop not warp-specialized (ttc does not partition loops into warp groups): it has loops nested in it: software pipelining is off for every loop of the function (tt.num_stages = 0)}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
    } {tt.disallow_acc_multi_buffer, tt.num_stages = 1 : i32, tt.warp_specialize}
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p, %i : !tt.ptr<i32>
    } {tt.num_stages = 3 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p, %i : !tt.ptr<i32>
    } {tt.flatten}
    tt.return
  }
}

// -----

// Without a nested loop the loop and its neighbours keep their attributes.
// CHECK-LABEL: tt.func @single
// CHECK: } {tt.warp_specialize}
// CHECK: } {tt.num_stages = 2 : i32}
module {
  tt.func @single(%n: i32, %p: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop not warp-specialized (ttc does not partition loops into warp groups): it is pipelined as an ordinary loop}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p, %i : !tt.ptr<i32>
    } {tt.warp_specialize}
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p, %i : !tt.ptr<i32>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
}

// -----

// Loops without the attribute: nothing changes, nothing is said.
// CHECK-LABEL: tt.func @none
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK: } {tt.num_stages = 4 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
module {
  tt.func @none(%n: i32, %p: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      } {tt.num_stages = 4 : i32}
    }
    tt.return
  }
}
