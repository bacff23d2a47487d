// RUN: tt-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: tt-opt %s -split-input-file -cse | FileCheck %s --check-prefix=CSE
// RUN: tt-opt %s -split-input-file -loop-invariant-code-motion | FileCheck %s --check-prefix=LICM
// RUN: tt-opt %s -split-input-file -convert-triton-to-tritongpu="target=cuda:90 num-warps=4" | FileCheck %s --check-prefix=TTG

// Spin locks and barriers through the passes: canonicalize erases a gpu.barrier right before another one
// (as MLIR's pattern does: the later one stays), nothing else; identical atomics are not merged by CSE; the
// lock's atomic_cas and the barrier stay in their loops; the conversion to TTGIR keeps them, the scalar
// atomics unchanged, sem and scope printed as written.

// CANON-LABEL: tt.func public @barriers
// CANON: %c0_i32 = arith.constant 0 : i32
// CANON-NEXT: gpu.barrier {tag = 1 : i32}
// CANON-NEXT: tt.load
// CANON-NEXT: gpu.barrier {tag = 2 : i32}
// CANON-NEXT: tt.store
// CANON-NEXT: tt.atomic_rmw exch, release, gpu
// CANON-NEXT: tt.atomic_rmw exch, release, gpu
// CANON-NEXT: gpu.barrier {tag = 4 : i32}
// CANON-NEXT: tt.return
// CSE-LABEL: tt.func public @barriers
// CSE-COUNT-3: gpu.barrier
// CSE: tt.atomic_rmw exch, release, gpu, %arg0, %c0_i32, %true
// CSE-NEXT: tt.atomic_rmw exch, release, gpu, %arg0, %c0_i32, %true
// CSE-NEXT: gpu.barrier {tag = 3 : i32}
// CSE-NEXT: gpu.barrier {tag = 4 : i32}
tt.func public @barriers(%p: !tt.ptr<i32>, %q: !tt.ptr<i32>) {
  gpu.barrier {tag = 0 : i32}
  gpu.barrier {tag = 1 : i32}
  %x = tt.load %p : !tt.ptr<i32>
  gpu.barrier {tag = 2 : i32}
  tt.store %q, %x : !tt.ptr<i32>
  %c0_i32 = arith.constant 0 : i32
  %true = arith.constant true
  %a = tt.atomic_rmw exch, release, gpu, %p, %c0_i32, %true : (!tt.ptr<i32>, i32, i1) -> i32
  %c0_i32_0 = arith.constant 0 : i32
  %true_1 = arith.constant true
  %b = tt.atomic_rmw exch, release, gpu, %p, %c0_i32_0, %true_1 : (!tt.ptr<i32>, i32, i1) -> i32
  gpu.barrier {tag = 3 : i32}
  gpu.barrier {tag = 4 : i32}
  tt.return
}

// -----

// LICM-LABEL: tt.func public @spin
// LICM: scf.while : () -> () {
// LICM-NEXT: gpu.barrier
// LICM-NEXT: %[[OLD:.*]] = tt.atomic_cas acquire, cta, %arg0, %c0_i32, %c1_i32 : (!tt.ptr<i32>, i32, i32) -> i32
// LICM-NEXT: %[[HELD:.*]] = arith.cmpi eq, %[[OLD]], %c1_i32 : i32
// LICM-NEXT: scf.condition(%[[HELD]])
// LICM: scf.for
// LICM-NEXT: tt.atomic_rmw add, relaxed, sys, %arg1, %c1_i32, %true
// TTG-LABEL: tt.func public @spin
// TTG: tt.atomic_cas acquire, cta, %arg0, %c0_i32, %c1_i32 : (!tt.ptr<i32>, i32, i32) -> i32
// TTG: tt.atomic_rmw add, relaxed, sys, %arg1, %c1_i32, %true : (!tt.ptr<i32>, i32, i1) -> i32
// TTG: gpu.barrier
// TTG: tt.atomic_rmw exch, acq_rel, gpu, %arg0, %c0_i32, %true : (!tt.ptr<i32>, i32, i1) -> i32
tt.func public @spin(%lock: !tt.ptr<i32>, %count: !tt.ptr<i32>, %n: i32) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %true = arith.constant true
  scf.while : () -> () {
    gpu.barrier
    %old = tt.atomic_cas acquire, cta, %lock, %c0_i32, %c1_i32 : (!tt.ptr<i32>, i32, i32) -> i32
    %held = arith.cmpi eq, %old, %c1_i32 : i32
    scf.condition(%held)
  } do {
    scf.yield
  }
  scf.for %i = %c0_i32 to %n step %c1_i32  : i32 {
    %r = tt.atomic_rmw add, relaxed, sys, %count, %c1_i32, %true : (!tt.ptr<i32>, i32, i1) -> i32
  }
  gpu.barrier
  %x = tt.atomic_rmw exch, acq_rel, gpu, %lock, %c0_i32, %true : (!tt.ptr<i32>, i32, i1) -> i32
  tt.return
}
