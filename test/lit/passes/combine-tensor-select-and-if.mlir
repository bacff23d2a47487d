// RUN: tt-opt %s -split-input-file -tritongpu-combine-tensor-select-and-if | FileCheck %s

// The select becomes a second result of the if on the same condition: the then branch yields its true value,
// the else branch its false value.
// CHECK-LABEL: tt.func public @select_into_if
// CHECK-NOT: arith.select
// CHECK: %[[IF:.*]]:2 = scf.if %arg0 -> (tensor<512xf32, #blocked>, tensor<512xf32, #blocked>)
// CHECK: %[[X:.*]] = arith.addf %arg1, %arg1
// CHECK-NEXT: scf.yield %[[X]], %arg1
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg2, %arg2
// CHECK: arith.mulf %[[IF]]#1, %[[IF]]#0
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @select_into_if(%c: i1, %a: tensor<512xf32, #blocked>, %b: tensor<512xf32, #blocked>, %p: tensor<512x!tt.ptr<f32>, #blocked>) {
    %s = arith.select %c, %a, %b : tensor<512xf32, #blocked>
    %r = scf.if %c -> (tensor<512xf32, #blocked>) {
      %x = arith.addf %a, %a : tensor<512xf32, #blocked>
      scf.yield %x : tensor<512xf32, #blocked>
    } else {
      scf.yield %b : tensor<512xf32, #blocked>
    }
    %y = arith.mulf %s, %r : tensor<512xf32, #blocked>
    tt.store %p, %y : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// An if without an else gets one.
// CHECK-LABEL: tt.func public @if_without_else
// CHECK-NOT: arith.select
// CHECK: %[[IF:.*]] = scf.if %arg0 -> (tensor<512xf32, #blocked>)
// CHECK: tt.store %arg3, %arg1
// CHECK-NEXT: scf.yield %arg1
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg2
// CHECK: tt.store %arg3, %[[IF]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @if_without_else(%c: i1, %a: tensor<512xf32, #blocked>, %b: tensor<512xf32, #blocked>, %p: tensor<512x!tt.ptr<f32>, #blocked>) {
    %s = arith.select %c, %a, %b : tensor<512xf32, #blocked>
    scf.if %c {
      tt.store %p, %a : tensor<512x!tt.ptr<f32>, #blocked>
    }
    tt.store %p, %s : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A use inside the then branch takes the select's true value.
// CHECK-LABEL: tt.func public @used_inside_if
// CHECK-NOT: arith.select
// CHECK: scf.if %arg0
// CHECK-NEXT: tt.store %arg3, %arg1
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @used_inside_if(%c: i1, %a: tensor<512xf32, #blocked>, %b: tensor<512xf32, #blocked>, %p: tensor<512x!tt.ptr<f32>, #blocked>) {
    %s = arith.select %c, %a, %b : tensor<512xf32, #blocked>
    scf.if %c {
      tt.store %p, %s : tensor<512x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}

// -----

// Not changed: the if tests another condition.
// CHECK-LABEL: tt.func public @other_condition
// CHECK: %[[S:.*]] = arith.select %arg0, %arg2, %arg3
// CHECK-NEXT: scf.if %arg1 {
// CHECK: tt.store %arg4, %[[S]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @other_condition(%c: i1, %d: i1, %a: tensor<512xf32, #blocked>, %b: tensor<512xf32, #blocked>, %p: tensor<512x!tt.ptr<f32>, #blocked>) {
    %s = arith.select %c, %a, %b : tensor<512xf32, #blocked>
    scf.if %d {
      tt.store %p, %a : tensor<512x!tt.ptr<f32>, #blocked>
    }
    tt.store %p, %s : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Not changed: the select comes after the if.
// CHECK-LABEL: tt.func public @select_after_if
// CHECK: scf.if %arg0 {
// CHECK: %[[S:.*]] = arith.select %arg0, %arg1, %arg2
// CHECK-NEXT: tt.store %arg3, %[[S]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @select_after_if(%c: i1, %a: tensor<512xf32, #blocked>, %b: tensor<512xf32, #blocked>, %p: tensor<512x!tt.ptr<f32>, #blocked>) {
    scf.if %c {
      tt.store %p, %a : tensor<512x!tt.ptr<f32>, #blocked>
    }
    %s = arith.select %c, %a, %b : tensor<512xf32, #blocked>
    tt.store %p, %s : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Two selects on the condition both join the same if.
// CHECK-LABEL: tt.func public @two_selects
// CHECK-NOT: arith.select
// CHECK: %[[IF:.*]]:2 = scf.if %arg0
// CHECK: scf.yield %arg1, %arg2
// CHECK: scf.yield %arg2, %arg1
// CHECK: arith.addf %[[IF]]#0, %[[IF]]#1
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_selects(%c: i1, %a: tensor<512xf32, #blocked>, %b: tensor<512xf32, #blocked>, %p: tensor<512x!tt.ptr<f32>, #blocked>) {
    %s = arith.select %c, %a, %b : tensor<512xf32, #blocked>
    %t = arith.select %c, %b, %a : tensor<512xf32, #blocked>
    scf.if %c {
      tt.store %p, %a : tensor<512x!tt.ptr<f32>, #blocked>
    }
    %y = arith.addf %s, %t : tensor<512xf32, #blocked>
    tt.store %p, %y : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A scalar select stays a select (Triton 3.6 combines tensor selects only).
// CHECK-LABEL: tt.func public @scalar_select_stays
// CHECK: %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT: scf.if %arg0 -> (i32) {
// CHECK: tt.store %arg3, %[[S]]
module {
  tt.func public @scalar_select_stays(%c: i1, %a: i32, %b: i32, %p: !tt.ptr<i32>) {
    %s = arith.select %c, %a, %b : i32
    %r = scf.if %c -> (i32) {
      %x = arith.addi %a, %a : i32
      scf.yield %x : i32
    } else {
      scf.yield %b : i32
    }
    %y = arith.muli %s, %r : i32
    tt.store %p, %s : !tt.ptr<i32>
    tt.store %p, %y : !tt.ptr<i32>
    tt.return
  }
}
