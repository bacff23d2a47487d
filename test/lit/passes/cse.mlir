// RUN: tt-opt %s -split-input-file -cse | FileCheck %s

// MLIR's CSE compares the operands of a commutative op in any order: `andi %a, %b` and `andi %b, %a` are one
// expression; a non-commutative op (subi) keeps both orders.
// CHECK-LABEL: tt.func @commutative
// CHECK: %[[A:.*]] = arith.andi %arg0, %arg1
// CHECK-NOT: arith.andi
// CHECK: %[[F:.*]] = arith.addf %arg2, %arg3
// CHECK-NOT: arith.addf
// CHECK: %[[S0:.*]] = arith.subi %arg0, %arg1
// CHECK: %[[S1:.*]] = arith.subi %arg1, %arg0
// CHECK: tt.return %[[A]], %[[A]], %[[F]], %[[F]], %[[S0]], %[[S1]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @commutative(%arg0: tensor<128xi32, #blocked>, %arg1: tensor<128xi32, #blocked>, %arg2: f32, %arg3: f32)
      -> (tensor<128xi32, #blocked>, tensor<128xi32, #blocked>, f32, f32, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) {
    %0 = arith.andi %arg0, %arg1 : tensor<128xi32, #blocked>
    %1 = arith.andi %arg1, %arg0 : tensor<128xi32, #blocked>
    %2 = arith.addf %arg2, %arg3 : f32
    %3 = arith.addf %arg3, %arg2 : f32
    %4 = arith.subi %arg0, %arg1 : tensor<128xi32, #blocked>
    %5 = arith.subi %arg1, %arg0 : tensor<128xi32, #blocked>
    tt.return %0, %1, %2, %3, %4, %5 : tensor<128xi32, #blocked>, tensor<128xi32, #blocked>, f32, f32, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>
  }
}

// -----

// Across regions: the loop body's `andi %b, %a` is the `andi %a, %b` defined above the loop.
// CHECK-LABEL: tt.func @commutative_in_loop
// CHECK: %[[A:.*]] = arith.andi %arg0, %arg1
// CHECK: scf.for
// CHECK-NOT: arith.andi
// CHECK: tt.store {{.*}}, %[[A]]
module {
  tt.func @commutative_in_loop(%arg0: i1, %arg1: i1, %p: !tt.ptr<i1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %0 = arith.andi %arg0, %arg1 : i1
    tt.store %p, %0 : !tt.ptr<i1>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %1 = arith.andi %arg1, %arg0 : i1
      tt.store %p, %1 : !tt.ptr<i1>
    }
    tt.return
  }
}
