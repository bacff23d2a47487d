// RUN: tt-opt %s -split-input-file -tritongpu-remove-layout-conversions | filecheck %s
// RUN: tt-opt %s -split-input-file | filecheck %s --check-prefix=VERIFY

// Remove-layout-conversions on AMD MFMA dot operands: the conversion to a #ttg.dot_op of an #ttg.amd_mfma
// layout is hoisted through elementwise ops and ttg.fp4_to_fp to the loads (Triton's hoistConvertDotOperand
// takes every MMA parent), which needs the linear layout of MFMA dot operands (fp4_to_fp halves kWidth going
// backwards).

#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: @mfma_fp4_operand
  //       CHECK: scf.for
  //       CHECK:   tt.load
  //  CHECK-NEXT:   tt.load
  //  CHECK-NEXT:   ttg.convert_layout {{.*}} -> tensor<64x128xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
  //  CHECK-NEXT:   ttg.fp4_to_fp {{.*}} -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
  //  CHECK-NEXT:   arith.mulf {{.*}} : tensor<128x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
  //  CHECK-NEXT:   ttg.convert_layout {{.*}} -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
  //  CHECK-NEXT:   tt.dot
  //       CHECK:   scf.yield
  tt.func public @mfma_fp4_operand(%n: i32, %pa: tensor<128x128x!tt.ptr<bf16>, #blocked>, %pb: tensor<64x128x!tt.ptr<i8>, #blocked>) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<128x128xf32, #mma>) : i32 {
      %a = tt.load %pa : tensor<128x128x!tt.ptr<bf16>, #blocked>
      %b = tt.load %pb : tensor<64x128x!tt.ptr<i8>, #blocked>
      %b1 = ttg.convert_layout %b : tensor<64x128xi8, #blocked> -> tensor<64x128xi8, #blocked1>
      %bf = ttg.fp4_to_fp %b1 {axis = 0 : i32} : tensor<64x128xi8, #blocked1> -> tensor<128x128xbf16, #blocked1>
      %bs = arith.mulf %bf, %bf : tensor<128x128xbf16, #blocked1>
      %ad = ttg.convert_layout %a : tensor<128x128xbf16, #blocked> -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %bd = ttg.convert_layout %bs : tensor<128x128xbf16, #blocked1> -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
      %d = tt.dot %ad, %bd, %acc : tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<128x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    }
    tt.return %r : tensor<128x128xf32, #mma>
  }
}

// -----

// tt.reshape's verifier compares layouts through their linear layouts: an MFMA dot operand's (kWidth registers
// along K, 32 lanes along N then 2 along K, warps along K replicas), and a #ttg.linear one whose register bases
// beyond the tensor are dropped, as LinearEncodingAttr::toLinearLayout does.

#lin3 = #ttg.linear<{register = [[0, 1, 0], [0, 2, 0], [0, 8, 0], [0, 16, 0], [1, 0, 0], [2, 0, 0], [0, 0, 64]], lane = [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 4, 0]], warp = [[0, 0, 32], [0, 0, 0]], block = []}>
#lin2 = #ttg.linear<{register = [[1, 0], [2, 0], [8, 0], [16, 0], [32, 0], [64, 0], [0, 64], [128, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], warp = [[0, 32], [0, 0]], block = []}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // VERIFY-LABEL: @mfma_reshape
  //       VERIFY: tt.reshape {{.*}} -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
  //       VERIFY: tt.reshape {{.*}} -> tensor<128x128xbf16, #linear1>
  tt.func public @mfma_reshape(%x: tensor<4x32x128xbf16, #lin3>) -> tensor<128x128xbf16, #lin2> {
    %y = tt.reshape %x : tensor<4x32x128xbf16, #lin3> -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %z = tt.reshape %x : tensor<4x32x128xbf16, #lin3> -> tensor<128x128xbf16, #lin2>
    tt.return %z : tensor<128x128xbf16, #lin2>
  }
}
