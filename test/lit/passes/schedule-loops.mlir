// RUN: tt-opt %s -split-input-file -tritongpu-assign-latencies=num-stages=3 -allow-unregistered-dialect -tritongpu-schedule-loops | FileCheck %s

// A matmul loop, A masked along K: the loads (latency 2) take stage 0 with the mask computation that feeds A's
// load (from the induction variable), in the last cluster; the conversions and the dot stage 2, cluster 0. The
// pointer increments feed the stage-0 loads through the loop-carried pointers (a distance-one dependency): they
// run one stage later (1), in a cluster of their own right before the loads'. A loop-carried counter nothing
// staged needs goes to the last stage, in the first cluster. The latencies are consumed; the loop records its
// last stage.
// CHECK-LABEL: tt.func public @matmul
// CHECK: scf.for
// CHECK-NEXT: arith.muli %{{[^ ]+}}, %c32_i32 {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: arith.subi {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.splat {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: arith.cmpi slt, {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.broadcast {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.load {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.load {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: ttg.convert_layout {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: ttg.convert_layout {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.dot {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.addptr {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.addptr {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: arith.addi {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {tt.scheduled_max_stage = 2 : i32}
// CHECK-NOT: tt.latency
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %K: i32 {tt.divisibility = 16 : i32}) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32i = arith.constant 32 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %zf = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #bl>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<32> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a0 = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b0 = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:4 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a0, %bp = %b0, %cnt = %c0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>, i32) : i32 {
      %kk = arith.muli %k, %c32i : i32
      %rem = arith.subi %K, %kk : i32
      %rems = tt.splat %rem : i32 -> tensor<1x32xi32, #bl>
      %m = arith.cmpi slt, %c2, %rems : tensor<1x32xi32, #bl>
      %mb = tt.broadcast %m : tensor<1x32xi1, #bl> -> tensor<32x32xi1, #bl>
      %x = tt.load %ap, %mb, %zf : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #b>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %cnt2 = arith.addi %cnt, %c1 : i32
      scf.yield %d, %ap2, %bp2, %cnt2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>, i32
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// An indirect load: the index load (latency 1) at stage 0, A's load that uses the indices and B's (latency 1) at
// stage 1 with the index arithmetic between them, the dot at stage 2. The index pointer's increment feeds the
// stage-0 load: stage 1, in a new cluster before stage 0's; B's pointer increment feeds a stage-1 load: stage 2,
// in a new cluster before stage 1's. The level-2 load (no latency) goes with the index load it feeds.
// CHECK-LABEL: tt.func public @indirect
// CHECK: scf.for
// CHECK-NEXT: tt.load {{.*}} {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<32x1x!tt.ptr<i32>
// CHECK-NEXT: arith.muli {{.*}} {loop.cluster = 4 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.addptr {{.*}} {loop.cluster = 4 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.load {{.*}} {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<32x1x!tt.ptr<i32>
// CHECK-NEXT: arith.muli {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.broadcast {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: arith.addi {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.addptr {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.load {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x32x!tt.ptr<f16>
// CHECK-NEXT: tt.load {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x32x!tt.ptr<f16>
// CHECK-NEXT: ttg.convert_layout {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: ttg.convert_layout {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.dot {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.addptr {{.*}} {loop.cluster = 3 : i32, loop.stage = 1 : i32} : tensor<32x1x!tt.ptr<i32>
// CHECK-NEXT: tt.addptr {{.*}} {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<32x32x!tt.ptr<f16>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {tt.scheduled_max_stage = 2 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @indirect(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pi: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<32> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %is = tt.splat %pi : !tt.ptr<i32> -> tensor<32x1x!tt.ptr<i32>, #bl>
    %i0 = tt.addptr %is, %r2 : tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x1xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b0 = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ip = %i0, %bp = %b0) -> (tensor<32x32xf32, #mma>, tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>) : i32 {
      %ii = tt.load %ip : tensor<32x1x!tt.ptr<i32>, #bl>
      %io = arith.muli %ii, %c32 : tensor<32x1xi32, #bl>
      %ip1 = tt.addptr %is, %io : tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x1xi32, #bl>
      %idx = tt.load %ip1 : tensor<32x1x!tt.ptr<i32>, #bl>
      %ro = arith.muli %idx, %c32 : tensor<32x1xi32, #bl>
      %rob = tt.broadcast %ro : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
      %aoff = arith.addi %rob, %cb : tensor<32x32xi32, #bl>
      %ptrs = tt.addptr %as, %aoff : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %x = tt.load %ptrs : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #b>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
      %ip2 = tt.addptr %ip, %c32 : tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x1xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ip2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x1x!tt.ptr<i32>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A loop with a gpu.barrier is not scheduled (its latencies are consumed all the same).
// CHECK-LABEL: tt.func public @barrier
// CHECK-NOT: {{loop.stage|loop.cluster|tt.latency|tt.scheduled_max_stage}}
// CHECK: tt.return
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @barrier(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<32> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a0 = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b0 = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a0, %bp = %b0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #b>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
      gpu.barrier
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// scf.ifs: one that computes A's pointers (in the backward slice of the stage-0 load) goes to a new cluster at
// the front, at stage 0, its condition with it; A's pointer increment, which it reads loop-carried, then runs at
// stage 1 in a cluster before that one. One that stores the result on the last iteration, after the dot with no
// staged op after it, goes to an epilogue cluster at the back, in the last stage.
// CHECK-LABEL: tt.func public @if_ptr
// CHECK: scf.for
// CHECK-NEXT: arith.andi {{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: arith.cmpi ne, {{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: %[[P:.*]] = scf.if
// CHECK: } {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.load %[[P]] {loop.cluster = 5 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.load {{.*}} {loop.cluster = 5 : i32, loop.stage = 0 : i32}
// CHECK: tt.dot {{.*}} {loop.cluster = 2 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.addptr {{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.addptr {{.*}} {loop.cluster = 4 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: arith.subi {{.*}} {loop.cluster = 6 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: arith.cmpi eq, {{.*}} {loop.cluster = 6 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: scf.if
// CHECK: tt.store
// CHECK-NEXT: } {loop.cluster = 6 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {tt.scheduled_max_stage = 2 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @if_ptr(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %c32 = arith.constant dense<32> : tensor<32x1xi32, #bl>
    %step = arith.constant dense<1024> : tensor<32x32xi32, #bl>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #bl}>> -> tensor<32x1xi32, #bl>
    %rs = arith.muli %r2, %c32 : tensor<32x1xi32, #bl>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #bl> -> tensor<32x32xi32, #bl>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x32xi32, #bl>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #bl> -> tensor<32x32xi32, #bl>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #bl>
    %as = tt.splat %pa : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %a = tt.addptr %as, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %bs = tt.splat %pb : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #bl>
    %b = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a, %bp = %b) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>)  : i32 {
      %odd = arith.andi %k, %c1 : i32
      %isodd = arith.cmpi ne, %odd, %c0 : i32
      %xp = scf.if %isodd -> (tensor<32x32x!tt.ptr<f16>, #bl>) {
        scf.yield %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      } else {
        %alt = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
        scf.yield %alt : tensor<32x32x!tt.ptr<f16>, #bl>
      }
      %x = tt.load %xp : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc, inputPrecision = tf32 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %last = arith.subi %n, %c1 : i32
      %islast = arith.cmpi eq, %k, %last : i32
      scf.if %islast {
        %h = arith.truncf %d : tensor<32x32xf32, #mma> to tensor<32x32xf16, #mma>
        %hb = ttg.convert_layout %h : tensor<32x32xf16, #mma> -> tensor<32x32xf16, #bl>
        tt.store %bp, %hb : tensor<32x32x!tt.ptr<f16>, #bl>
      }
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A loop partitioned from a warp-specialized one (tt.warp_specialize, its schedule already written, no latency):
// its latency ops (the load and the local_load here) all sit in stage 3, so everything goes to stage 0 and one
// cluster; the loop's tt.scheduled_max_stage is never lowered.
// CHECK-LABEL: tt.func public @ws_one_stage
// CHECK: tt.load {{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK: ttg.local_alloc {{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK: ttg.local_load {{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK: "use"(%{{.*}}) {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK: } {tt.scheduled_max_stage = 3 : i32, tt.warp_specialize}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ws_one_stage(%n: i32, %p: tensor<128x4x!tt.ptr<i8>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p {loop.cluster = 2 : i32, loop.stage = 3 : i32} : tensor<128x4x!tt.ptr<i8>, #blocked>
      %s = ttg.local_alloc %v : (tensor<128x4xi8, #blocked>) -> !ttg.memdesc<128x4xi8, #shared, #smem>
      %w = ttg.local_load %s : !ttg.memdesc<128x4xi8, #shared, #smem> -> tensor<128x4xi8, #blocked>
      "use"(%w) {loop.cluster = 2 : i32, loop.stage = 3 : i32} : (tensor<128x4xi8, #blocked>) -> ()
    } {tt.scheduled_max_stage = 3 : i32, tt.warp_specialize}
    tt.return
  }
}

// -----

// The same with latency ops in stages 1 and 3: the schedule is kept, its stages shifted to start at 0; the
// dependencies and the rest are scheduled as usual.
// CHECK-LABEL: tt.func public @ws_shifted
// CHECK: tt.load {{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK: ttg.local_load {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ws_shifted(%n: i32, %p: tensor<128x4x!tt.ptr<i8>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<128x4x!tt.ptr<i8>, #blocked>
      %s = ttg.local_alloc %v {loop.cluster = 0 : i32, loop.stage = 3 : i32} : (tensor<128x4xi8, #blocked>) -> !ttg.memdesc<128x4xi8, #shared, #smem>
      %w = ttg.local_load %s {loop.cluster = 0 : i32, loop.stage = 3 : i32} : !ttg.memdesc<128x4xi8, #shared, #smem> -> tensor<128x4xi8, #blocked>
      "use"(%w) {loop.cluster = 0 : i32, loop.stage = 3 : i32} : (tensor<128x4xi8, #blocked>) -> ()
    } {tt.scheduled_max_stage = 3 : i32, tt.warp_specialize}
    tt.return
  }
}

// -----

// A producer already scheduled at a later stage than an op that uses it moves up to that op's stage and cluster
// (the comparison, read by the scf.if of stage 1), so no op runs before its operands; the operands of the ops
// nested in an op count too (the sum, read only by the store inside the scf.if).
// CHECK-LABEL: tt.func public @ws_later_producers
// CHECK: arith.cmpi eq, {{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: arith.addf {{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
// CHECK: } {loop.cluster = 1 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.store {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ws_later_producers(%lb: i32, %ub: i32, %p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %r: !tt.ptr<f32>) {
    %c1 = arith.constant 1 : i32
    scf.for %i = %lb to %ub step %c1 : i32 {
      %x = tt.load %p {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %z = tt.load %r {loop.cluster = 1 : i32, loop.stage = 1 : i32} : !tt.ptr<f32>
      %first = arith.cmpi eq, %i, %lb {loop.cluster = 0 : i32, loop.stage = 2 : i32} : i32
      %sum = arith.addf %x, %z {loop.cluster = 0 : i32, loop.stage = 2 : i32} : f32
      scf.if %first {
        tt.store %q, %sum : !tt.ptr<f32>
      } {loop.cluster = 1 : i32, loop.stage = 1 : i32}
      tt.store %q, %z {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !tt.ptr<f32>
    } {tt.scheduled_max_stage = 2 : i32, tt.warp_specialize}
    tt.return
  }
}
