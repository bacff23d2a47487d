// RUN: tt-opt %s -split-input-file -tritongpu-assign-latencies=num-stages=3 -tritongpu-schedule-loops -tritongpu-pipeline=num-stages=3 -canonicalize | FileCheck %s

// The waits tritongpu-pipeline puts in a loop for a wgmma that stays in flight across iterations and reads its A
// operand from registers computed in the loop (here A is scaled by 0.5 after its load). The dot is split along K
// into two one-instruction dots, each followed by a wait that lets the other stay in flight (pendings = 1); the
// second dot takes the first's result as its accumulator, which needs no wait of its own.
// Its result is also read under an scf.if: that block starts with a wait for all dots (pendings = 0), carrying
// the accumulator to the read (Triton #8997: Triton 3.6.0 put none there, and the read raced with the dot). The
// wait goes at the start of the block, before the unrelated integer add, where Triton 3.6.0 puts such waits for
// its other dots (Triton 3.7 puts it just before the read). The else block, which only yields, gets no wait.

// CHECK-LABEL: tt.func @scaled_lhs_read_under_if
// CHECK: scf.for
// CHECK: ttng.warp_group_dot
// CHECK-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// CHECK-NOT: pendings = 0
// CHECK: ttng.warp_group_dot
// CHECK-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// CHECK: scf.if
// CHECK-NEXT: %[[Z:.*]]:2 = ttng.warp_group_dot_wait %[[W]]#0, {{.*}} {pendings = 0 : i32}
// CHECK-NEXT: arith.addi
// CHECK: arith.addf %[[Z]]#0
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[W]]#0
// CHECK: }
// CHECK: ttng.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#acc = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #acc, kWidth = 2}>
#bsh = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scaled_lhs_read_under_if(%a_base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_base: !tt.ptr<f16> {tt.divisibility = 16 : i32},
                                    %n: i32, %flag: i1) -> tensor<64x32xf32, #acc> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #acc>
    %half = arith.constant dense<5.000000e-01> : tensor<64x32xf16, #opA>
    %a_step = arith.constant dense<32> : tensor<64x32xi32, #rows>
    %b_step = arith.constant dense<1024> : tensor<32x32xi32, #cols>
    %ka = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #rows}>>
    %ka2 = tt.expand_dims %ka {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #rows}>> -> tensor<1x32xi32, #rows>
    %ka3 = tt.broadcast %ka2 : tensor<1x32xi32, #rows> -> tensor<64x32xi32, #rows>
    %pa0 = tt.splat %a_base : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #rows>
    %pa = tt.addptr %pa0, %ka3 : tensor<64x32x!tt.ptr<f16>, #rows>, tensor<64x32xi32, #rows>
    %kb = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #cols}>>
    %kb2 = tt.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #cols}>> -> tensor<32x1xi32, #cols>
    %kb3 = tt.broadcast %kb2 : tensor<32x1xi32, #cols> -> tensor<32x32xi32, #cols>
    %pb0 = tt.splat %b_base : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>, #cols>
    %pb = tt.addptr %pb0, %kb3 : tensor<32x32x!tt.ptr<f16>, #cols>, tensor<32x32xi32, #cols>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%c = %zero, %p = %pa, %q = %pb) -> (tensor<64x32xf32, #acc>, tensor<64x32x!tt.ptr<f16>, #rows>, tensor<32x32x!tt.ptr<f16>, #cols>) : i32 {
      %a = tt.load %p : tensor<64x32x!tt.ptr<f16>, #rows>
      %b = tt.load %q : tensor<32x32x!tt.ptr<f16>, #cols>
      %a_op = ttg.convert_layout %a : tensor<64x32xf16, #rows> -> tensor<64x32xf16, #opA>
      %a_half = arith.mulf %a_op, %half : tensor<64x32xf16, #opA>
      %b_sh = ttg.local_alloc %b : (tensor<32x32xf16, #cols>) -> !ttg.memdesc<32x32xf16, #bsh, #smem>
      %d = ttng.warp_group_dot %a_half, %b_sh, %c : tensor<64x32xf16, #opA> * !ttg.memdesc<32x32xf16, #bsh, #smem> -> tensor<64x32xf32, #acc>
      %p2 = tt.addptr %p, %a_step : tensor<64x32x!tt.ptr<f16>, #rows>, tensor<64x32xi32, #rows>
      %q2 = tt.addptr %q, %b_step : tensor<32x32x!tt.ptr<f16>, #cols>, tensor<32x32xi32, #cols>
      %next = scf.if %flag -> (tensor<64x32xf32, #acc>) {
        %j = arith.addi %i, %c1 : i32
        %jf = arith.sitofp %j : i32 to f32
        %js = tt.splat %jf : f32 -> tensor<64x32xf32, #acc>
        %dd = arith.addf %d, %js : tensor<64x32xf32, #acc>
        scf.yield %dd : tensor<64x32xf32, #acc>
      } else {
        scf.yield %d : tensor<64x32xf32, #acc>
      }
      scf.yield %next, %p2, %q2 : tensor<64x32xf32, #acc>, tensor<64x32x!tt.ptr<f16>, #rows>, tensor<32x32x!tt.ptr<f16>, #cols>
    }
    tt.return %r#0 : tensor<64x32xf32, #acc>
  }
}
