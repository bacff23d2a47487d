// RUN: tt-opt %s -split-input-file -tritongpu-fuse-nested-loops -canonicalize | FileCheck %s

// Each case's output equals Triton 3.6's for `-tritongpu-fuse-nested-loops -canonicalize` on the same input.

// A tt.flatten nest: `scf.if (len_inner == 0)` runs the nest without its inner loop (here nothing is left), else
// one loop of len_outer * max(1, len_inner) iterations carries T (0 first), the outer induction variable
// (lb - step first) and the inner one; the prologue `scf.if T == 0` steps the outer variable, the inner body runs
// every iteration (its length was speculated), T wraps around at the end.
// CHECK-LABEL: tt.func public @basic
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %arg1, %c0_i32
// CHECK: scf.if %[[EMPTY]] {
// CHECK-NEXT: } else {
// CHECK: %[[LEN:.*]] = arith.maxsi %arg1, %c1_i32
// CHECK: %[[TOTAL:.*]] = arith.muli %arg1, %[[LEN]]
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[TOTAL]] step %c1_i32 iter_args(%[[T:[^ ]*]] = %c0_i32, %[[I:[^ ]*]] = %c-1_i32, %[[J:[^ ]*]] = %c0_i32)
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %c0_i32
// CHECK: %[[JK:.*]] = arith.select %[[FIRST]], %c0_i32, %[[J]]
// CHECK: %[[NEWI:.*]] = scf.if %[[FIRST]] -> (i32) {
// CHECK-NEXT: arith.addi %[[I]], %c1_i32
// CHECK: %[[V:.*]] = arith.addi %[[NEWI]], %[[JK]]
// CHECK-NEXT: tt.store %arg0, %[[V]]
// CHECK-NEXT: %[[NEXTJ:.*]] = arith.addi %[[JK]], %c1_i32
// CHECK-NEXT: %[[T1:.*]] = arith.addi %[[T]], %c1_i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[LEN]], %c1_i32
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[T]], %[[LAST]]
// CHECK-NEXT: %[[NEXTT:.*]] = arith.select %[[WRAP]], %c0_i32, %[[T1]]
// CHECK-NEXT: scf.yield %[[NEXTT]], %[[NEWI]], %[[NEXTJ]]
// CHECK-NOT: tt.flatten
module {
  tt.func public @basic(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        %v = arith.addi %i, %j : i32
        tt.store %p, %v : !tt.ptr<i32>
      }
    } {tt.flatten}
    tt.return
  }
}

// -----

// Without tt.flatten the nest stays.
// CHECK-LABEL: tt.func public @no_attr
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: scf.for
module {
  tt.func public @no_attr(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        %v = arith.addi %i, %j : i32
        tt.store %p, %v : !tt.ptr<i32>
      }
    }
    tt.return
  }
}

// -----

// Only a nest of one outer and one inner loop is fused.
// CHECK-LABEL: tt.func public @two_inner
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: } {tt.flatten}
module {
  tt.func public @two_inner(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %i : !tt.ptr<i32>
      }
    } {tt.flatten}
    tt.return
  }
}

// -----

// Inner bounds that vary with the outer loop: not fused.
// CHECK-LABEL: tt.func public @variant_bound
// CHECK-NOT: scf.if
// CHECK: scf.for %[[I:.*]] = %c0_i32
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[I]]
// CHECK: } {tt.flatten}
module {
  tt.func public @variant_bound(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %i step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
    } {tt.flatten}
    tt.return
  }
}

// -----

// An inner bound computed in the outer body from invariant values by scalar pure ops moves before the nest;
// the prologue's load runs in the prologue `scf.if`, its value carried.
// CHECK-LABEL: tt.func public @hoisted_bound
// CHECK: %[[UB:.*]] = arith.addi %arg2, %c7_i32
// CHECK-NEXT: %[[EMPTY:.*]] = arith.cmpi eq, %[[UB]], %c0_i32
// CHECK-NEXT: scf.if %[[EMPTY]] {
// CHECK: arith.maxsi %[[UB]], %c1_i32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %c0_i32, %[[I:[^ ]*]] = %c-1_i32, %{{.*}} = %c0_i32, %[[Q:[^ ]*]] = %c0_i32)
// CHECK: %[[P:.*]]:2 = scf.if
// CHECK-NEXT: arith.addi %[[I]], %c1_i32
// CHECK-NEXT: %[[LOAD:.*]] = tt.load %arg0
// CHECK: scf.yield %[[Q]], %[[I]]
// CHECK: arith.addi %[[P]]#0
module {
  tt.func public @hoisted_bound(%p: !tt.ptr<i32>, %n: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c7 = arith.constant 7 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %q = tt.load %p : !tt.ptr<i32>
      %ub = arith.addi %k, %c7 : i32
      scf.for %j = %c0 to %ub step %c1 : i32 {
        %v = arith.addi %q, %j : i32
        tt.store %p, %v : !tt.ptr<i32>
      }
    } {tt.flatten}
    tt.return
  }
}

// -----

// Outer and inner iteration arguments: the inner loop's init (defined outside the nest) initializes the fused
// loop and is reset by the epilogue `scf.if T == inner_len - 1` (folded to a select here), which runs the
// epilogue and yields the outer loop's next value; the nest without its inner loop uses the init instead of the
// inner loop's result. The outer step is 4 (lb - step = -4), the inner loop starts at 1.
// CHECK-LABEL: tt.func public @iter_args
// CHECK: %[[LEN:.*]] = arith.subi %arg2, %c1_i32
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[LEN]], %c0_i32
// CHECK: %[[R:.*]] = scf.if %[[EMPTY]] -> (f32) {
// CHECK: scf.for {{.*}} iter_args(%[[A:[^ ]*]] = %cst) -> (f32)
// CHECK-NEXT: %[[U:.*]] = arith.addf %[[A]], %cst
// CHECK: } {tt.flatten}
// CHECK: } else {
// CHECK: %[[OUTER:.*]] = arith.ceildivsi %arg1, %c4_i32
// CHECK: %[[F:[^ ]*]]:6 = scf.for {{.*}} iter_args(%[[T:[^ ]*]] = %c0_i32, %{{.*}} = %c-4_i32, %[[ACC:[^ ]*]] = %cst, %{{.*}} = %c0_i32, %[[S:[^ ]*]] = %cst, %{{.*}} = %cst)
// CHECK: arith.select %{{.*}}, %c1_i32
// CHECK: %[[Y:.*]] = arith.addf %[[S]], %{{.*}}#0
// CHECK: %[[END:.*]] = arith.cmpi eq, %[[T]]
// CHECK-NEXT: %[[RESET:.*]] = arith.select %[[END]], %cst, %[[Y]]
// CHECK-NEXT: %[[NEXT:.*]] = scf.if %[[END]] -> (f32) {
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[Y]]
// CHECK-NEXT: tt.store %arg0, %[[SUM]]
// CHECK-NEXT: scf.yield %[[SUM]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ACC]]
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[NEXT]], %{{.*}}, %[[RESET]],
// CHECK: scf.yield %[[F]]#2
// CHECK: tt.return %[[R]]
module {
  tt.func public @iter_args(%p: !tt.ptr<f32>, %n: i32, %k: i32) -> f32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %z = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %n step %c4 iter_args(%t = %z) -> (f32) : i32 {
      %x = tt.load %p : !tt.ptr<f32>
      %s = scf.for %j = %c1 to %k step %c1 iter_args(%a = %z) -> (f32) : i32 {
        %y = arith.addf %a, %x : f32
        scf.yield %y : f32
      }
      %u = arith.addf %t, %s : f32
      tt.store %p, %u : !tt.ptr<f32>
      scf.yield %u : f32
    } {tt.flatten}
    tt.return %r : f32
  }
}

// -----

// An inner loop init defined in the prologue stays a result of the prologue `scf.if`.
// CHECK-LABEL: tt.func public @init_in_prologue
// CHECK: } else {
// CHECK: %[[P:.*]]:3 = scf.if
// CHECK: %[[X:.*]] = tt.load %arg0
// CHECK-NEXT: scf.yield %[[X]], %[[X]], %{{.*}}
// CHECK: arith.addf %[[P]]#1, %[[P]]#1
module {
  tt.func public @init_in_prologue(%p: !tt.ptr<f32>, %n: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %p : !tt.ptr<f32>
      %s = scf.for %j = %c0 to %k step %c1 iter_args(%a = %x) -> (f32) : i32 {
        %y = arith.addf %a, %a : f32
        scf.yield %y : f32
      }
      tt.store %p, %s : !tt.ptr<f32>
    } {tt.flatten}
    tt.return
  }
}

// -----

// A pure op before the inner loop whose users all come after it sinks into the epilogue; one the inner loop
// uses stays in the prologue.
// CHECK-LABEL: tt.func public @sink
// CHECK: } else {
// CHECK: %[[P:.*]]:2 = scf.if
// CHECK: arith.addi %{{.*}}, %c2_i32
// CHECK-NOT: arith.muli
// CHECK: } else {
// CHECK: tt.store %arg0, %[[P]]#0
// CHECK: scf.if
// CHECK-NEXT: %[[LATE:.*]] = arith.muli %[[P]]#1, %[[P]]#1
// CHECK-NEXT: tt.store %arg0, %[[LATE]]
module {
  tt.func public @sink(%p: !tt.ptr<i32>, %n: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %late = arith.muli %i, %i : i32
      %early = arith.addi %i, %c1 : i32
      scf.for %j = %c0 to %k step %c1 : i32 {
        tt.store %p, %early : !tt.ptr<i32>
      }
      tt.store %p, %late : !tt.ptr<i32>
    } {tt.flatten}
    tt.return
  }
}

// -----

// An scf.if between the loops separates them: no nest, nothing fused.
// CHECK-LABEL: tt.func public @if_between
// CHECK: scf.for
// CHECK-NEXT: scf.if %arg2 {
// CHECK-NEXT: scf.for
// CHECK: } {tt.flatten}
module {
  tt.func public @if_between(%p: !tt.ptr<i32>, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.if %c {
        scf.for %j = %c0 to %n step %c1 : i32 {
          tt.store %p, %j : !tt.ptr<i32>
        }
      }
    } {tt.flatten}
    tt.return
  }
}

// -----

// A nest inside an scf.if is fused there.
// CHECK-LABEL: tt.func public @nest_in_if
// CHECK: scf.if %arg2 {
// CHECK-NEXT: %[[EMPTY:.*]] = arith.cmpi eq, %arg1, %c0_i32
// CHECK-NEXT: scf.if %[[EMPTY]] {
// CHECK: scf.for {{.*}} iter_args(
// CHECK-NOT: tt.flatten
module {
  tt.func public @nest_in_if(%p: !tt.ptr<i32>, %n: i32, %c: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.if %c {
      scf.for %i = %c0 to %n step %c1 : i32 {
        scf.for %j = %c0 to %n step %c1 : i32 {
          tt.store %p, %j : !tt.ptr<i32>
        }
      } {tt.flatten}
    }
    tt.return
  }
}

// -----

// The fused loop gets the larger tt.num_stages of the two loops and the outer loop's tt.warp_specialize.
// CHECK-LABEL: tt.func public @stages
// CHECK: scf.for {{.*}} iter_args(
// CHECK: } {tt.num_stages = 4 : i32, tt.warp_specialize}
module {
  tt.func public @stages(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      } {tt.num_stages = 4 : i32}
    } {tt.flatten, tt.num_stages = 2 : i32, tt.warp_specialize}
    tt.return
  }
}

// -----

// ttg.always-fuse (for testing) fuses any nest without speculating: two inner loops, one of i64 bounds (the
// lengths are computed in i64), each body under `T in [start, start + len)`, the second prologue at
// T == max(1, len_j0) - 1, the epilogue at T == inner_len - 1.
// CHECK-LABEL: tt.func public @always_two_inner
// CHECK-NOT: scf.if %{{.*}} {
// CHECK: %[[L0:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK-NEXT: %[[M0:.*]] = arith.maxsi %[[L0]], %c1_i64
// CHECK-NEXT: %[[M1:.*]] = arith.maxsi %arg2, %c1_i64
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[M0]], %[[M1]]
// CHECK: scf.for %{{.*}} = %c0_i64 to %{{.*}} step %c1_i64 iter_args(%[[T:[^ ]*]] = %c0_i64
// CHECK: arith.cmpi slt, %[[T]], %[[L0]] : i64
// CHECK: %[[B0:.*]] = scf.if
// CHECK: %[[M:.*]] = arith.maxsi %[[L0]], %c1_i64
// CHECK-NEXT: %[[S1:.*]] = arith.subi %[[M]], %c1_i64
// CHECK-NEXT: arith.cmpi eq, %[[T]], %[[S1]]
// CHECK: %[[E1:.*]] = arith.addi %[[S1]], %arg2 : i64
// CHECK: arith.cmpi slt, %[[T]], %[[E1]]
// CHECK: %[[LASTT:.*]] = arith.subi %[[SUM]], %c2_i64
// CHECK-NEXT: %[[EPI:.*]] = arith.cmpi eq, %[[T]], %[[LASTT]]
// CHECK-NEXT: scf.if %[[EPI]] {
module {
  tt.func public @always_two_inner(%p: !tt.ptr<i32>, %n: i32, %m: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c0_64 = arith.constant 0 : i64
    %c1_64 = arith.constant 1 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = arith.addi %i, %c1 : i32
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %a : !tt.ptr<i32>
      }
      %b = arith.muli %i, %c1 : i32
      scf.for %j = %c0_64 to %m step %c1_64 : i64 {
        tt.store %p, %b : !tt.ptr<i32>
      }
      tt.store %p, %a : !tt.ptr<i32>
    } {"ttg.always-fuse"}
    tt.return
  }
}

// -----

// Inner bounds computed from the outer induction variable (here ub = i + 1), fused anyway (ttg.always-fuse): a
// copy of the outer loop sums max(1, len_inner) over its iterations for the fused loop's length, and the first
// prologue recomputes the inner length for the new i (the bound's computation cloned there) and yields it with
// the per-iteration inner_len, both carried by the fused loop.
// CHECK-LABEL: tt.func public @always_variant
// CHECK: %[[TOTAL:.*]] = scf.for %[[PI:[^ ]+]] = %c0_i32 to %arg1 step %c1_i32 iter_args(%[[ACC:[^ ]+]] = %c0_i32) -> (i32)
// CHECK-NEXT: %[[PUB:.*]] = arith.addi %[[PI]], %c1_i32
// CHECK-NEXT: %[[PM:.*]] = arith.maxsi %[[PUB]], %c1_i32
// CHECK-NEXT: %[[PS:.*]] = arith.addi %[[ACC]], %[[PM]]
// CHECK-NEXT: scf.yield %[[PS]] : i32
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[TOTAL]] step %c1_i32 iter_args(%[[T:[^ ]+]] = %c0_i32, %[[I:[^ ]+]] = %c-1_i32, %[[LEN:[^ ]+]] = %c0_i32, %[[ILEN:[^ ]+]] = %c0_i32,
// CHECK: %[[P:.*]]:4 = scf.if
// CHECK-NEXT: %[[NI:.*]] = arith.addi %[[I]], %c1_i32
// CHECK-NEXT: %[[NLEN:.*]] = arith.addi %[[I]], %c2_i32
// CHECK-NEXT: %[[NILEN:.*]] = arith.maxsi %[[NLEN]], %c1_i32
// CHECK: scf.yield %{{.*}}, %[[NI]], %[[NLEN]], %[[NILEN]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}}, %[[I]], %[[LEN]], %[[ILEN]]
// CHECK: arith.cmpi slt, %[[T]], %[[P]]#2
// CHECK: arith.subi %[[P]]#3, %c1_i32
// CHECK: scf.yield %{{.*}}, %[[P]]#1, %[[P]]#2, %[[P]]#3,
module {
  tt.func public @always_variant(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %ub = arith.addi %i, %c1 : i32
      scf.for %j = %c0 to %ub step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
    } {"ttg.always-fuse"}
    tt.return
  }
}

// -----

// An `llvm.intr.assume(ub > lb)` of the inner loop's bounds says it runs: no `len_inner == 0` speculation, the
// body runs on every fused iteration. The outer loop's tt.warp_specialize goes to the fused loop.
// CHECK-LABEL: tt.func public @assumed_trip
// CHECK-NOT: scf.if %{{.*}} {
// CHECK: scf.for
// CHECK: scf.if
// CHECK: llvm.intr.assume
// CHECK: } else {
// CHECK: }
// CHECK-NEXT: tt.store %arg0
// CHECK: } {tt.warp_specialize}
module {
  tt.func public @assumed_trip(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %pos = arith.cmpi sgt, %n, %c0 : i32
      llvm.intr.assume %pos : i1
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
    } {tt.flatten, tt.warp_specialize}
    tt.return
  }
}

// -----

// The inner loop's tt.warp_specialize marks the fused loop; the copy that runs when the inner loop is empty has
// none.
// CHECK-LABEL: tt.func public @speculated_ws
// CHECK: scf.if
// CHECK-NEXT: scf.for
// CHECK: } {tt.flatten}
// CHECK: } else {
// CHECK: scf.for
// CHECK: } {tt.warp_specialize}
module {
  tt.func public @speculated_ws(%p: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p, %i : !tt.ptr<i32>
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      } {tt.warp_specialize}
    } {tt.flatten}
    tt.return
  }
}
