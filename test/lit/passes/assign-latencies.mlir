// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-assign-latencies=num-stages=3 | FileCheck %s
// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-assign-latencies=num-stages=1 | FileCheck %s --check-prefix=S1

// Two loads feeding a dot's A and B (indirection level 0) get the latency num-stages - 1 = 2; the loop is
// left as it is otherwise. With num-stages=1 nothing is pipelined: no latency.
// CHECK-LABEL: tt.func public @two_loads
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 2 : i32} : tensor<32x32x!tt.ptr<f16>
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 2 : i32} : tensor<32x32x!tt.ptr<f16>
// CHECK-NOT: tt.latency
// CHECK: scf.yield
// CHECK-NEXT: }{{$}}
// S1-LABEL: tt.func public @two_loads
// S1-NOT: tt.latency
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_loads(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
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
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// An indirect load: A's rows come from a loaded index tensor. The index load is at indirection level 1, the
// loads of A and B at level 0; with 3 stages each gets (3 - 1) / (1 + 1) = 1, so the index load is issued two
// stages before the dot. A level-2 load (the index of the index) is at num-stages - 1 or deeper: left out.
// CHECK-LABEL: tt.func public @indirect
// CHECK: scf.for
// CHECK-NEXT: %[[II:.*]] = tt.load %{{[^ ]+}} : tensor<32x1x!tt.ptr<i32>
// CHECK-NEXT: arith.muli %[[II]]
// CHECK-NEXT: %[[IP:.*]] = tt.addptr
// CHECK-NEXT: %[[IDX:.*]] = tt.load %[[IP]] {tt.latency = 1 : i32} : tensor<32x1x!tt.ptr<i32>
// CHECK-NEXT: arith.muli %[[IDX]]
// CHECK: %[[P:.*]] = tt.addptr
// CHECK-NEXT: tt.load %[[P]] {tt.latency = 1 : i32} : tensor<32x32x!tt.ptr<f16>
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 1 : i32} : tensor<32x32x!tt.ptr<f16>
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

// A load of under 4 bytes per access (B's pointers come in as a tensor argument: nothing known about their
// contiguity, one f16 each) is not worth a cp.async: no latency; A still gets 2. A load feeding only the
// accumulator is not a dot operand: no latency either.
// CHECK-LABEL: tt.func public @small_load
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 2 : i32} : tensor<32x32x!tt.ptr<f16>
// CHECK-NEXT: tt.load %arg1 : tensor<32x32x!tt.ptr<f16>
// CHECK-NEXT: tt.load %{{[^ ]+}} : tensor<32x32x!tt.ptr<f32>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @small_load(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: tensor<32x32x!tt.ptr<f16>, #bl>, %pc: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
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
    %cs = tt.splat %pc : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #bl>
    %cp = tt.addptr %cs, %off : tensor<32x32x!tt.ptr<f32>, #bl>, tensor<32x32xi32, #bl>
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ap = %a0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>) : i32 {
      %x = tt.load %ap : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %b : tensor<32x32x!tt.ptr<f16>, #bl>
      %z = tt.load %cp : tensor<32x32x!tt.ptr<f32>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #b>
      %zc = ttg.convert_layout %z : tensor<32x32xf32, #bl> -> tensor<32x32xf32, #mma>
      %acc2 = arith.addf %acc, %zc : tensor<32x32xf32, #mma>
      %d = tt.dot %xd, %yd, %acc2 : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A loop with its own tt.num_stages and no dot (tl.range(num_stages=3) over plain loads): all its loads worth a
// copy get num-stages - 1 = 2, also with the option at 1 (the loop's own count wins). The same loop without the
// attribute has no dot to pipeline for: no latency. With tt.num_stages = 1, none either.
// CHECK-LABEL: tt.func public @no_dot
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 2 : i32}
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 2 : i32}
// CHECK: } {tt.num_stages = 3 : i32}
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{[^ ]+}} :
// CHECK-NEXT: tt.load %{{[^ ]+}} :
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{[^ ]+}} :
// CHECK-NEXT: tt.load %{{[^ ]+}} :
// CHECK: } {tt.num_stages = 1 : i32}
// S1-LABEL: tt.func public @no_dot
// S1: scf.for
// S1-NEXT: tt.load %{{[^ ]+}} {tt.latency = 2 : i32}
// S1-NEXT: tt.load %{{[^ ]+}} {tt.latency = 2 : i32}
// S1: } {tt.num_stages = 3 : i32}
// S1-NOT: tt.latency
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_dot(%px: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %py: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pz: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #bl>
    %xs = tt.splat %px : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #bl>
    %x0 = tt.addptr %xs, %r : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
    %ys = tt.splat %py : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #bl>
    %y0 = tt.addptr %ys, %r : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
    %zs = tt.splat %pz : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #bl>
    %z0 = tt.addptr %zs, %r : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
    %step = arith.constant dense<512> : tensor<512xi32, #bl>
    %l1:3 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %x0, %y = %y0, %z = %z0) -> (tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>) : i32 {
      %a = tt.load %x : tensor<512x!tt.ptr<f32>, #bl>
      %b = tt.load %y : tensor<512x!tt.ptr<f32>, #bl>
      %s = arith.addf %a, %b : tensor<512xf32, #bl>
      tt.store %z, %s : tensor<512x!tt.ptr<f32>, #bl>
      %x2 = tt.addptr %x, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      %y2 = tt.addptr %y, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      %z2 = tt.addptr %z, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      scf.yield %x2, %y2, %z2 : tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>
    } {tt.num_stages = 3 : i32}
    %l2:3 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %x0, %y = %y0, %z = %z0) -> (tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>) : i32 {
      %a = tt.load %x : tensor<512x!tt.ptr<f32>, #bl>
      %b = tt.load %y : tensor<512x!tt.ptr<f32>, #bl>
      %s = arith.addf %a, %b : tensor<512xf32, #bl>
      tt.store %z, %s : tensor<512x!tt.ptr<f32>, #bl>
      %x2 = tt.addptr %x, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      %y2 = tt.addptr %y, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      %z2 = tt.addptr %z, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      scf.yield %x2, %y2, %z2 : tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>
    }
    %l3:3 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %x0, %y = %y0, %z = %z0) -> (tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>) : i32 {
      %a = tt.load %x : tensor<512x!tt.ptr<f32>, #bl>
      %b = tt.load %y : tensor<512x!tt.ptr<f32>, #bl>
      %s = arith.addf %a, %b : tensor<512xf32, #bl>
      tt.store %z, %s : tensor<512x!tt.ptr<f32>, #bl>
      %x2 = tt.addptr %x, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      %y2 = tt.addptr %y, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      %z2 = tt.addptr %z, %step : tensor<512x!tt.ptr<f32>, #bl>, tensor<512xi32, #bl>
      scf.yield %x2, %y2, %z2 : tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>, tensor<512x!tt.ptr<f32>, #bl>
    } {tt.num_stages = 1 : i32}
    tt.return
  }
}

// -----

// A loop where the user gave a load its latency keeps it as it is, and no other load gets one.
// CHECK-LABEL: tt.func public @user_latency
// S1-LABEL: tt.func public @user_latency
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 1 : i32} : tensor<32x32x!tt.ptr<f16>
// CHECK-NEXT: tt.load %{{[^ ]+}} : tensor<32x32x!tt.ptr<f16>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @user_latency(%pa: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pb: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<32x32xf32, #mma> {
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
      %x = tt.load %ap {tt.latency = 1 : i32} : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %bp : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #b>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
      %ap2 = tt.addptr %ap, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      %bp2 = tt.addptr %bp, %step : tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32xi32, #bl>
      scf.yield %d, %ap2, %bp2 : tensor<32x32xf32, #mma>, tensor<32x32x!tt.ptr<f16>, #bl>, tensor<32x32x!tt.ptr<f16>, #bl>
    }
    tt.return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A loop with its own tt.num_stages and a dot: besides the dot's operand loads, every other load worth pipelining
// gets a latency too (here one whose result only a store reads), all (4 - 1) / 1 = 3. (An integer tt.divisibility
// on a tensor argument holds for each of its dimensions, as in Triton.)
// CHECK-LABEL: tt.func public @dot_and_other_load
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 3 : i32}
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 3 : i32}
// CHECK-NEXT: tt.load %{{[^ ]+}} {tt.latency = 3 : i32}
// CHECK: } {tt.num_stages = 4 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dot_and_other_load(%pa: tensor<32x32x!tt.ptr<f16>, #bl> {tt.divisibility = 16 : i32, tt.contiguity = dense<[1, 32]> : tensor<2xi32>}, %pc: tensor<32x32x!tt.ptr<f16>, #bl> {tt.divisibility = 16 : i32, tt.contiguity = dense<[1, 32]> : tensor<2xi32>}, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32, #mma>) : i32 {
      %x = tt.load %pa : tensor<32x32x!tt.ptr<f16>, #bl>
      %y = tt.load %pa : tensor<32x32x!tt.ptr<f16>, #bl>
      %z = tt.load %pc : tensor<32x32x!tt.ptr<f16>, #bl>
      tt.store %pc, %z : tensor<32x32x!tt.ptr<f16>, #bl>
      %xd = ttg.convert_layout %x : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %y : tensor<32x32xf16, #bl> -> tensor<32x32xf16, #b>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #mma>
      scf.yield %d : tensor<32x32xf32, #mma>
    } {tt.num_stages = 4 : i32}
    tt.return %res : tensor<32x32xf32, #mma>
  }
}

// -----

// MMAv5 (Triton's AssignMMALatencies): a tc_gen5_mma is a root like a dot (its operand loads get latencies). One
// whose operands are pipelined overlaps with itself (tt.self_latency = 1) and its users go one stage later
// (tt.latency = 1) when its accumulator (a tmem_alloc outside the loop) is not read in the loop; read in the
// loop, the accumulator must be multi-buffered, which needs it reset in the loop (a use-accumulator flag of
// false, or computed in the loop): with a flag from outside, self latency only.
// CHECK-LABEL: tt.func public @mma_acc_not_read
// CHECK: tt.load {{.*}} {tt.latency = 2 : i32}
// CHECK: ttng.tc_gen5_mma {{.*}} {tt.latency = 1 : i32, tt.self_latency = 1 : i32}
// CHECK-LABEL: tt.func public @mma_acc_read
// CHECK: tt.load {{.*}} {tt.latency = 2 : i32}
// CHECK: ttng.tc_gen5_mma {{.*}} {tt.self_latency = 1 : i32}
// CHECK-LABEL: tt.func public @mma_acc_reset
// CHECK: ttng.tc_gen5_mma {{.*}} {tt.latency = 1 : i32, tt.self_latency = 1 : i32}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_acc_not_read(%pa: tensor<128x128x!tt.ptr<f16>, #bl> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = tt.load %pa : tensor<128x128x!tt.ptr<f16>, #bl>
      %as = ttg.local_alloc %a : (tensor<128x128xf16, #bl>) -> !ttg.memdesc<128x128xf16, #s, #smem>
      ttng.tc_gen5_mma %as, %as, %acc, %true, %true : !ttg.memdesc<128x128xf16, #s, #smem>, !ttg.memdesc<128x128xf16, #s, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    }
    tt.return
  }
  tt.func public @mma_acc_read(%pa: tensor<128x128x!tt.ptr<f16>, #bl> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>}, %n: i32, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = tt.load %pa : tensor<128x128x!tt.ptr<f16>, #bl>
      %as = ttg.local_alloc %a : (tensor<128x128xf16, #bl>) -> !ttg.memdesc<128x128xf16, #s, #smem>
      ttng.tc_gen5_mma %as, %as, %acc, %flag, %true : !ttg.memdesc<128x128xf16, #s, #smem>, !ttg.memdesc<128x128xf16, #s, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %r = ttng.tmem_load %acc : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      "use"(%r) : (tensor<128x128xf32, #acc>) -> ()
    }
    tt.return
  }
  tt.func public @mma_acc_reset(%pa: tensor<128x128x!tt.ptr<f16>, #bl> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %false = arith.constant false
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = tt.load %pa : tensor<128x128x!tt.ptr<f16>, #bl>
      %as = ttg.local_alloc %a : (tensor<128x128xf16, #bl>) -> !ttg.memdesc<128x128xf16, #s, #smem>
      ttng.tc_gen5_mma %as, %as, %acc, %false, %true : !ttg.memdesc<128x128xf16, #s, #smem>, !ttg.memdesc<128x128xf16, #s, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %r = ttng.tmem_load %acc : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      "use"(%r) : (tensor<128x128xf32, #acc>) -> ()
    }
    tt.return
  }
}

