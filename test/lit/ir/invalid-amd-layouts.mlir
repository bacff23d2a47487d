// RUN: tt-opt %s -split-input-file -verify-diagnostics

// Triton's verifiers of the AMD layouts, with its messages, and its kWidth rules for dot operands of them.

// expected-error @below {{version must be in the [0, 4] range}}
#m = #ttg.amd_mfma<{version = 5, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>

// -----

// expected-error @below {{invalid (mDim, nDim) combination: (32, 16)}}
#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 16, 8], isTransposed = true}>

// -----

// expected-error @below {{elementBitWidth must be 32 or 64}}
#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = false, elementBitWidth = 8}>

// -----

// expected-error @below {{expected a bool type in isTransposed}}
#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = 1}>

// -----

// expected-error @below {{'CGALayout' entry length does not match rank 2}}
#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = false, CGALayout = [[1]]}>

// -----

// expected-error @below {{WMMA version must be in the [1, 3] range}}
#w = #ttg.amd_wmma<{version = 4, ctaLayout = {warp = []}}>

// -----

// expected-error @below {{invalid WMMA v2 instruction shape}}
#w = #ttg.amd_wmma<{version = 2, ctaLayout = {warp = []}, instrShape = [16, 16, 8]}>

// -----

// expected-error @below {{expected dictionary value for 'ctaLayout'}}
#w = #ttg.amd_wmma<{version = 2, ctaLayout = [[0, 1]]}>

// -----

// expected-error @below {{Expected basis of 'warp' not found}}
#w = #ttg.amd_wmma<{version = 2, ctaLayout = {register = [[0, 1]]}}>

// -----

// expected-error @below {{Serialized rank and rank deduced from LL need to match}}
#w = #ttg.amd_wmma<{version = 2, rank = 3, ctaLayout = {warp = [[0, 1]]}}>

// -----

#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
// expected-error @below {{ttg.dot_op kWidth parameter is mandatory for MFMA parent}}
#d = #ttg.dot_op<{opIdx = 1, parent = #m}>

// -----

#w = #ttg.amd_wmma<{version = 1, ctaLayout = {warp = [[1, 0]]}}>
// expected-error @below {{ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed cases for `scaled_dot`)}}
#d = #ttg.dot_op<{opIdx = 0, parent = #w, kWidth = 4}>

// -----

#w = #ttg.amd_wmma<{version = 2, ctaLayout = {warp = [[1, 0]]}}>
// expected-error @below {{ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including packed cases for `scaled_dot`)}}
#d = #ttg.dot_op<{opIdx = 0, parent = #w, kWidth = 2}>

// -----

#w = #ttg.amd_wmma<{version = 3, ctaLayout = {warp = [[1, 0]]}, instrShape = [16, 16, 32]}>
// expected-error @below {{ttg.dot_op kWidth parameter is mandatory for WMMA v3}}
#d = #ttg.dot_op<{opIdx = 0, parent = #w}>

// -----

// MFMA runs on 64-lane warps: a tensor with an MFMA layout needs a module of 64 threads per warp.
#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @lanes(%x: tensor<32x32xf32, #m>) {
    // expected-error @below {{Layout has 64 threads per warp, but the module specifies 32 threads per warp}}
    %y = ttg.convert_layout %x : tensor<32x32xf32, #m> -> tensor<32x32xf32, #m>
    tt.return
  }
}

// -----

// WMMA's warps are its ctaLayout's: two warp bases make 4 warps.
#w = #ttg.amd_wmma<{version = 2, ctaLayout = {warp = [[1, 0], [0, 1]]}}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @warps(%x: tensor<32x32xf32, #w>) {
    // expected-error @below {{Layout has 4 warps per CTA, but the context requires 8 warps per CTA}}
    %y = ttg.convert_layout %x : tensor<32x32xf32, #w> -> tensor<32x32xf32, #w>
    tt.return
  }
}
