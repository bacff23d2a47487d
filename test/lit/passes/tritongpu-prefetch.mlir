// RUN: tt-opt %s -split-input-file -tritongpu-prefetch | FileCheck %s

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
#dA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // K = 32, kWidth 2: slices of 16. The first slices of the initial buffers are loaded before the loop and
  // carried; in the body the dot on them is followed by one on the second slices (loaded before it), an op
  // using the dot comes after both, and the next iteration's first slices are loaded last and yielded.
  // CHECK-LABEL: tt.func public @two_slices
  // CHECK: %[[A0:.*]] = ttg.memdesc_subslice %arg0[0, 0] : !ttg.memdesc<64x32xf16, #shared, #smem> -> !ttg.memdesc<64x16xf16, #shared, #smem, 64x32>
  // CHECK-NEXT: %[[LA0:.*]] = ttg.local_load %[[A0]] : !ttg.memdesc<64x16xf16, #shared, #smem, 64x32> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  // CHECK-NEXT: %[[B0:.*]] = ttg.memdesc_subslice %arg1[0, 0] : !ttg.memdesc<32x64xf16, #shared, #smem> -> !ttg.memdesc<16x64xf16, #shared, #smem, 32x64>
  // CHECK-NEXT: %[[LB0:.*]] = ttg.local_load %[[B0]] : !ttg.memdesc<16x64xf16, #shared, #smem, 32x64> -> tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
  // CHECK-NEXT: %[[FOR:.*]]:5 = scf.for {{.*}} iter_args(%[[A:.*]] = %arg0, %[[B:.*]] = %arg1, %[[ACC:.*]] = %cst, %[[PA:.*]] = %[[LA0]], %[[PB:.*]] = %[[LB0]])
  // CHECK-NEXT: ttg.local_load %[[A]] : !ttg.memdesc<64x32xf16
  // CHECK-NEXT: ttg.local_load %[[B]] : !ttg.memdesc<32x64xf16
  // CHECK-NEXT: tt.dot
  // CHECK-NEXT: %[[A1:.*]] = ttg.memdesc_subslice %[[A]][0, 16]
  // CHECK-NEXT: %[[LA1:.*]] = ttg.local_load %[[A1]]
  // CHECK-NEXT: %[[B1:.*]] = ttg.memdesc_subslice %[[B]][16, 0]
  // CHECK-NEXT: %[[LB1:.*]] = ttg.local_load %[[B1]]
  // CHECK-NEXT: %[[D0:.*]] = tt.dot %[[PA]], %[[PB]], %[[ACC]] : tensor<64x16xf16
  // CHECK-NEXT: %[[D1:.*]] = tt.dot %[[LA1]], %[[LB1]], %[[D0]] : tensor<64x16xf16
  // CHECK-NEXT: %[[E:.*]] = arith.addf %[[D1]], %[[D1]]
  // CHECK-NEXT: %[[AN:.*]] = ttg.local_alloc %arg3
  // CHECK-NEXT: %[[NA:.*]] = ttg.memdesc_subslice %[[AN]][0, 0] : !ttg.memdesc<64x32xf16, #shared, #smem> -> !ttg.memdesc<64x16xf16
  // CHECK-NEXT: %[[NLA:.*]] = ttg.local_load %[[NA]]
  // CHECK-NEXT: %[[NB:.*]] = ttg.memdesc_subslice %[[B]][0, 0] : !ttg.memdesc<32x64xf16, #shared, #smem> -> !ttg.memdesc<16x64xf16
  // CHECK-NEXT: %[[NLB:.*]] = ttg.local_load %[[NB]]
  // CHECK-NEXT: scf.yield %[[AN]], %[[B]], %[[E]], %[[NLA]], %[[NLB]]
  // CHECK: tt.return %[[FOR]]#2
  tt.func public @two_slices(%a0: !ttg.memdesc<64x32xf16, #sh, #smem>, %b0: !ttg.memdesc<32x64xf16, #sh, #smem>, %n: i32, %ta: tensor<64x32xf16, #bl>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %z) -> (!ttg.memdesc<64x32xf16, #sh, #smem>, !ttg.memdesc<32x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>)  : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<64x32xf16, #sh, #smem> -> tensor<64x32xf16, #dA>
      %y = ttg.local_load %b : !ttg.memdesc<32x64xf16, #sh, #smem> -> tensor<32x64xf16, #dB>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %e = arith.addf %d, %d : tensor<64x64xf32, #mma>
      %an = ttg.local_alloc %ta : (tensor<64x32xf16, #bl>) -> !ttg.memdesc<64x32xf16, #sh, #smem>
      scf.yield %an, %b, %e : !ttg.memdesc<64x32xf16, #sh, #smem>, !ttg.memdesc<32x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>
    }
    tt.return %r#2 : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
#dA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // K equal to the width: the dot runs on the prefetched slices only, issued last; the chain from the
  // local_load (an fp8 upcast) is cloned onto each slice. The original dot's clone is left unused.
  // CHECK-LABEL: tt.func public @one_slice_chain
  // CHECK: %[[S:.*]] = ttg.memdesc_subslice %arg0[0, 0] : !ttg.memdesc<64x16xf8E5M2, #shared, #smem> -> !ttg.memdesc<64x16xf8E5M2, #shared, #smem>
  // CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[S]]
  // CHECK-NEXT: %[[PA:.*]] = tt.fp_to_fp %[[L]] : tensor<64x16xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  // CHECK-NEXT: ttg.memdesc_subslice %arg1[0, 0]
  // CHECK-NEXT: %[[PB:.*]] = ttg.local_load
  // CHECK-NEXT: scf.for {{.*}} iter_args(%[[A:.*]] = %arg0, %[[B:.*]] = %arg1, %[[ACC:.*]] = %cst, %[[XA:.*]] = %[[PA]], %[[XB:.*]] = %[[PB]])
  // CHECK-NEXT: ttg.local_load %[[A]]
  // CHECK-NEXT: tt.fp_to_fp
  // CHECK-NEXT: ttg.local_load %[[B]]
  // CHECK-NEXT: tt.dot %{{.*}}, %{{.*}}, %[[ACC]] :
  // CHECK-NEXT: ttg.memdesc_subslice %[[A]][0, 0]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: %[[NA:.*]] = tt.fp_to_fp
  // CHECK-NEXT: ttg.memdesc_subslice %[[B]][0, 0]
  // CHECK-NEXT: %[[NB:.*]] = ttg.local_load
  // CHECK-NEXT: %[[D:.*]] = tt.dot %[[XA]], %[[XB]], %[[ACC]] :
  // CHECK-NEXT: scf.yield %[[A]], %[[B]], %[[D]], %[[NA]], %[[NB]]
  tt.func public @one_slice_chain(%a0: !ttg.memdesc<64x16xf8E5M2, #sh, #smem>, %b0: !ttg.memdesc<16x64xf16, #sh, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %z) -> (!ttg.memdesc<64x16xf8E5M2, #sh, #smem>, !ttg.memdesc<16x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>)  : i32 {
      %x8 = ttg.local_load %a : !ttg.memdesc<64x16xf8E5M2, #sh, #smem> -> tensor<64x16xf8E5M2, #dA>
      %x = tt.fp_to_fp %x8 : tensor<64x16xf8E5M2, #dA> -> tensor<64x16xf16, #dA>
      %y = ttg.local_load %b : !ttg.memdesc<16x64xf16, #sh, #smem> -> tensor<16x64xf16, #dB>
      %d = tt.dot %x, %y, %acc : tensor<64x16xf16, #dA> * tensor<16x64xf16, #dB> -> tensor<64x64xf32, #mma>
      scf.yield %a, %b, %d : !ttg.memdesc<64x16xf8E5M2, #sh, #smem>, !ttg.memdesc<16x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>
    }
    tt.return %r#2 : tensor<64x64xf32, #mma>
  }

  // K = 64: four dots; each further slice is loaded just before the previous dot, the next iteration's
  // slices before the last dot.
  // CHECK-LABEL: tt.func public @four_slices
  // CHECK: scf.for
  // CHECK: tt.dot {{.*}} : tensor<64x64xf16
  // CHECK-NEXT: ttg.memdesc_subslice %{{.*}}[0, 16]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.memdesc_subslice %{{.*}}[16, 0]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: %[[D0:.*]] = tt.dot %arg7, %arg8, %arg6
  // CHECK-NEXT: ttg.memdesc_subslice %{{.*}}[0, 32]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.memdesc_subslice %{{.*}}[32, 0]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: %[[D1:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[D0]]
  // CHECK-NEXT: ttg.memdesc_subslice %{{.*}}[0, 48]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.memdesc_subslice %{{.*}}[48, 0]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: %[[D2:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[D1]]
  // CHECK-NEXT: ttg.memdesc_subslice %{{.*}}[0, 0]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttg.memdesc_subslice %{{.*}}[0, 0]
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: %[[D3:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[D2]]
  // CHECK-NEXT: scf.yield %arg5, %arg4, %[[D3]]
  tt.func public @four_slices(%a0: !ttg.memdesc<64x64xf16, #sh, #smem>, %b0: !ttg.memdesc<64x64xf16, #sh, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %z) -> (!ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>)  : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf16, #dA>
      %y = ttg.local_load %b : !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf16, #dB>
      %d = tt.dot %x, %y, %acc : tensor<64x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<64x64xf32, #mma>
      scf.yield %b, %a, %d : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>
    }
    tt.return %r#2 : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
#dA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#fA = #ttg.dot_op<{opIdx = 0, parent = #bl}>
#fB = #ttg.dot_op<{opIdx = 1, parent = #bl}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // A dot without an MMA v2 layout: the loop is left as it is (its attributes too).
  // CHECK-LABEL: tt.func public @fma_dot
  // CHECK-NOT: ttg.memdesc_subslice
  // CHECK: } {tt.num_stages = 2 : i32}
  tt.func public @fma_dot(%a0: !ttg.memdesc<64x32xf16, #sh, #smem>, %b0: !ttg.memdesc<32x64xf16, #sh, #smem>, %n: i32) -> tensor<64x64xf32, #bl> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #bl>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #bl>)  : i32 {
      %x = ttg.local_load %a0 : !ttg.memdesc<64x32xf16, #sh, #smem> -> tensor<64x32xf16, #fA>
      %y = ttg.local_load %b0 : !ttg.memdesc<32x64xf16, #sh, #smem> -> tensor<32x64xf16, #fB>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #fA> * tensor<32x64xf16, #fB> -> tensor<64x64xf32, #bl>
      scf.yield %d : tensor<64x64xf32, #bl>
    } {tt.num_stages = 2 : i32}
    tt.return %r : tensor<64x64xf32, #bl>
  }

  // Two dots in the loop: left as it is.
  // CHECK-LABEL: tt.func public @two_dots
  // CHECK-NOT: ttg.memdesc_subslice
  // CHECK: } {tt.num_stages = 2 : i32}
  tt.func public @two_dots(%a0: !ttg.memdesc<64x32xf16, #sh, #smem>, %b0: !ttg.memdesc<32x64xf16, #sh, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %z) -> (!ttg.memdesc<64x32xf16, #sh, #smem>, !ttg.memdesc<32x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>)  : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<64x32xf16, #sh, #smem> -> tensor<64x32xf16, #dA>
      %y = ttg.local_load %b : !ttg.memdesc<32x64xf16, #sh, #smem> -> tensor<32x64xf16, #dB>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      %e = tt.dot %x, %y, %d : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      scf.yield %a, %b, %e : !ttg.memdesc<64x32xf16, #sh, #smem>, !ttg.memdesc<32x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>
    } {tt.num_stages = 2 : i32}
    tt.return %r#2 : tensor<64x64xf32, #mma>
  }

  // One MMA v2 dot whose buffers are not carried by the loop: not prefetched, but the loop is rebuilt as
  // Triton rebuilds it, without its attributes.
  // CHECK-LABEL: tt.func public @invariant_buffers
  // CHECK-NOT: ttg.memdesc_subslice
  // CHECK: scf.for
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tt.return
  tt.func public @invariant_buffers(%a0: !ttg.memdesc<64x32xf16, #sh, #smem>, %b0: !ttg.memdesc<32x64xf16, #sh, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>)  : i32 {
      %x = ttg.local_load %a0 : !ttg.memdesc<64x32xf16, #sh, #smem> -> tensor<64x32xf16, #dA>
      %y = ttg.local_load %b0 : !ttg.memdesc<32x64xf16, #sh, #smem> -> tensor<32x64xf16, #dB>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.num_stages = 2 : i32}
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // Operands that do not come from a local_load (here a convert_layout) are not prefetched either.
  // CHECK-LABEL: tt.func public @not_from_shared
  // CHECK-NOT: ttg.memdesc_subslice
  // CHECK: tt.return
  tt.func public @not_from_shared(%x0: tensor<64x32xf16, #bl>, %y0: tensor<32x64xf16, #bl>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%xa = %x0, %yb = %y0, %acc = %z) -> (tensor<64x32xf16, #bl>, tensor<32x64xf16, #bl>, tensor<64x64xf32, #mma>)  : i32 {
      %x = ttg.convert_layout %xa : tensor<64x32xf16, #bl> -> tensor<64x32xf16, #dA>
      %y = ttg.convert_layout %yb : tensor<32x64xf16, #bl> -> tensor<32x64xf16, #dB>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #dA> * tensor<32x64xf16, #dB> -> tensor<64x64xf32, #mma>
      scf.yield %xa, %yb, %d : tensor<64x32xf16, #bl>, tensor<32x64xf16, #bl>, tensor<64x64xf32, #mma>
    }
    tt.return %r#2 : tensor<64x64xf32, #mma>
  }

  // K smaller than the width (8 < 16): not prefetched.
  // CHECK-LABEL: tt.func public @small_k
  // CHECK-NOT: ttg.memdesc_subslice
  // CHECK: tt.return
  tt.func public @small_k(%a0: !ttg.memdesc<64x8xf16, #sh, #smem>, %b0: !ttg.memdesc<8x64xf16, #sh, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %z) -> (!ttg.memdesc<64x8xf16, #sh, #smem>, !ttg.memdesc<8x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>)  : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<64x8xf16, #sh, #smem> -> tensor<64x8xf16, #dA>
      %y = ttg.local_load %b : !ttg.memdesc<8x64xf16, #sh, #smem> -> tensor<8x64xf16, #dB>
      %d = tt.dot %x, %y, %acc : tensor<64x8xf16, #dA> * tensor<8x64xf16, #dB> -> tensor<64x64xf32, #mma>
      scf.yield %a, %b, %d : !ttg.memdesc<64x8xf16, #sh, #smem>, !ttg.memdesc<8x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>
    }
    tt.return %r#2 : tensor<64x64xf32, #mma>
  }
}

// -----

// An AMD MFMA dot qualifies as well.
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
#dA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>
#dB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func public @mfma
  // CHECK: ttg.memdesc_subslice %arg0[0, 0] : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf16, #shared, #smem, 64x64>
  // CHECK-NEXT: ttg.local_load {{.*}} -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
  // CHECK: scf.for
  // CHECK: ttg.memdesc_subslice %{{.*}}[0, 32]
  tt.func public @mfma(%a0: !ttg.memdesc<64x64xf16, #sh, #smem>, %b0: !ttg.memdesc<64x64xf16, #sh, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %z) -> (!ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>)  : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf16, #dA>
      %y = ttg.local_load %b : !ttg.memdesc<64x64xf16, #sh, #smem> -> tensor<64x64xf16, #dB>
      %d = tt.dot %x, %y, %acc : tensor<64x64xf16, #dA> * tensor<64x64xf16, #dB> -> tensor<64x64xf32, #mma>
      scf.yield %b, %a, %d : !ttg.memdesc<64x64xf16, #sh, #smem>, !ttg.memdesc<64x64xf16, #sh, #smem>, tensor<64x64xf32, #mma>
    }
    tt.return %r#2 : tensor<64x64xf32, #mma>
  }
}
