// RUN: tt-opt %s -split-input-file -verify-diagnostics -tritongpu-accelerate-matmul | FileCheck %s

// wgmma reads i8, fp8 and tf32 operands K-major only: where accelerate-matmul stores such an operand in the
// other order than its registers', it warns at the dot (as Triton does), since the store transposes registers
// and the load cannot be pipelined with full-width copies (Triton's words). Operands already K-major, and f16/bf16
// operands (stored in their register order), get no warning.

// CHECK-LABEL: tt.func public @i8_row_major_b
// CHECK: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#la = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#lb = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @i8_row_major_b(%pa: tensor<64x32x!tt.ptr<i8>, #la>, %pb: tensor<32x64x!tt.ptr<i8>, #lb>, %c: tensor<64x64xi32, #blocked>) -> tensor<64x64xi32, #blocked> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<i8>, #la>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<i8>, #lb>
    %a1 = ttg.convert_layout %a : tensor<64x32xi8, #la> -> tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b1 = ttg.convert_layout %b : tensor<32x64xi8, #lb> -> tensor<32x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    // expected-warning @+1 {{Warning: Forcing a different order [0, 1] on SMEM than the register order for the operand 1. Registers will be transposed before SMEM store and the pipelined load for this operand will be disabled, so poor performance is expected. Recommendation: consider transposing the operand in global memory to remove the need to transpose the tensor in registers.}}
    %d = tt.dot %a1, %b1, %c : tensor<64x32xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xi32, #blocked>
    tt.return %d : tensor<64x64xi32, #blocked>
  }
}

// -----

// fp8: a column-major A is forced row-major (operand 0); B loaded N x K and transposed is K-major already.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#lat = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#lbn = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#lbt = #ttg.blocked<{sizePerThread = [16, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_column_major_a(%pa: tensor<64x32x!tt.ptr<f8E4M3FN>, #lat>, %pb: tensor<64x32x!tt.ptr<f8E4M3FN>, #lbn>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f8E4M3FN>, #lat>
    %a1 = ttg.convert_layout %a : tensor<64x32xf8E4M3FN, #lat> -> tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = tt.load %pb : tensor<64x32x!tt.ptr<f8E4M3FN>, #lbn>
    %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<64x32xf8E4M3FN, #lbn> -> tensor<32x64xf8E4M3FN, #lbt>
    %b1 = ttg.convert_layout %bt : tensor<32x64xf8E4M3FN, #lbt> -> tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    // expected-warning @+1 {{Forcing a different order [1, 0] on SMEM than the register order for the operand 0}}
    %d = tt.dot %a1, %b1, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// f16 keeps each operand's register order (wgmma transposes 16-bit operands): a column-major A and a row-major B,
// neither K-major, are stored as they are, with no warning.
// CHECK-LABEL: tt.func public @f16_not_k_major
// CHECK: ttg.local_alloc {{.*}} -> !ttg.memdesc<64x32xf16, #{{.*}}, #smem>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#la = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#lb = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f16_not_k_major(%pa: tensor<64x32x!tt.ptr<f16>, #la>, %pb: tensor<32x64x!tt.ptr<f16>, #lb>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #la>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #lb>
    %a1 = ttg.convert_layout %a : tensor<64x32xf16, #la> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b1 = ttg.convert_layout %b : tensor<32x64xf16, #lb> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %a1, %b1, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// The register order of an operand is Triton's getOrderForMemory of its layout: a B operand already in a dot operand
// layout of a row-major parent holds its rows along N in registers, so storing it K-major ([0, 1]) is forced.
// CHECK-LABEL: tt.func public @fp8_b_in_dot_operand_layout
// CHECK: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_b_in_dot_operand_layout(%a: tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    // expected-warning @+1 {{Forcing a different order [0, 1] on SMEM than the register order for the operand 1}}
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// sm100, block-scaled: an e2m1 operand packed along K is stored K-major (B: [0, 1]); a row-major one warns. A
// plain MMA v5 dot never warns: tf32 operands are forced K-major silently (Triton passes no op to warn at).
// CHECK-LABEL: tt.func public @fp4_row_major_b
// CHECK: ttng.tc_gen5_mma_scaled
// CHECK-LABEL: tt.func public @tf32_row_major_b_v5
// CHECK: ttng.tc_gen5_mma
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bs = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp4_row_major_b(%a: tensor<128x64xi8, #bl>, %sa: tensor<128x4xi8, #bs>, %b: tensor<64x64xi8, #bl>, %sb: tensor<64x4xi8, #bs>, %c: tensor<128x64xf32, #bl>) -> tensor<128x64xf32, #bl> {
    // expected-warning @+1 {{Forcing a different order [0, 1] on SMEM than the register order for the operand 1}}
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<128x64xi8, #bl>, tensor<128x4xi8, #bs> * tensor<64x64xi8, #bl>, tensor<64x4xi8, #bs> -> tensor<128x64xf32, #bl>
    tt.return %d : tensor<128x64xf32, #bl>
  }
  tt.func public @tf32_row_major_b_v5(%a: tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #bl}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #bl}>>, %c: tensor<128x64xf32, #bl>) -> tensor<128x64xf32, #bl> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #bl}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #bl}>> -> tensor<128x64xf32, #bl>
    tt.return %d : tensor<128x64xf32, #bl>
  }
}
