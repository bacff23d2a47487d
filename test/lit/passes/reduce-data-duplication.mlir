// RUN: tt-opt %s -split-input-file -tritongpu-reduce-data-duplication | FileCheck %s

// A conversion to a dot operand layout of a blocked (FMA) dot goes through shared memory, unswizzled, in the
// source's order.
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func public @operand_a
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[M:.*]] = ttg.local_alloc %arg0 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #[[SH]], #smem>
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[M]] : !ttg.memdesc<64x32xf16, #[[SH]], #smem> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
// CHECK-NEXT: tt.return %[[L]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @operand_a(%a: tensor<64x32xf16, #blocked>) -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> {
    %0 = ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    tt.return %0 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
  }
}

// -----

// The b operand, column-major source: the shared buffer is column-major too.
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
// CHECK-LABEL: tt.func public @operand_b_column_major
// CHECK: ttg.local_alloc %arg0 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #[[SH]], #smem>
// CHECK-NEXT: ttg.local_load {{.*}} -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @operand_b_column_major(%b: tensor<32x64xf16, #blocked>) -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> {
    %0 = ttg.convert_layout %b : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    tt.return %0 : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
  }
}

// -----

// 3-D (batched): the batch dimension goes last in the shared order.
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
// CHECK-LABEL: tt.func public @batched
// CHECK: ttg.local_alloc %arg0 : (tensor<2x32x32xf32, #blocked>) -> !ttg.memdesc<2x32x32xf32, #[[SH]], #smem>
// CHECK-NEXT: ttg.local_load
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 2, 1], order = [2, 0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @batched(%a: tensor<2x32x32xf32, #blocked>) -> tensor<2x32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> {
    %0 = ttg.convert_layout %a : tensor<2x32x32xf32, #blocked> -> tensor<2x32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    tt.return %0 : tensor<2x32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
  }
}

// -----

// Not changed: a conversion between blocked layouts.
// CHECK-LABEL: tt.func public @blocked_to_blocked
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout %arg0 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #blocked1>
// CHECK-NOT: ttg.local_load
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @blocked_to_blocked(%a: tensor<64x32xf16, #blocked>) -> tensor<64x32xf16, #blocked1> {
    %0 = ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #blocked1>
    tt.return %0 : tensor<64x32xf16, #blocked1>
  }
}

// -----

// Not changed: a conversion to a slice layout.
// CHECK-LABEL: tt.func public @blocked_to_slice
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout %arg0 : tensor<128xf32, #blocked> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @blocked_to_slice(%a: tensor<128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> {
    %0 = ttg.convert_layout %a : tensor<128xf32, #blocked> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    tt.return %0 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
  }
}

// -----

// The b operand of an MMA v2 dot: the shared buffer is swizzled for it (Triton's layout for MMA operands: 8-element
// vectors along N, the row-major source's contiguous dimension, over 8 phases of one row each).
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func public @mma_operand_b
// CHECK: %[[M:.*]] = ttg.local_alloc %arg0 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #[[SH]], #smem>
// CHECK-NEXT: ttg.local_load %[[M]] : !ttg.memdesc<32x64xf16, #[[SH]], #smem> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_operand_b(%b: tensor<32x64xf16, #blocked>) -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> {
    %0 = ttg.convert_layout %b : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    tt.return %0 : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
  }
}

// -----

// The buffer takes the source's thread order when the layout's lanes run down a dimension of which a thread holds
// one element (Triton's getOrderForMemory): lanes along M here, registers along K, so column-major.
// CHECK: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
// CHECK-LABEL: tt.func public @lanes_down_columns
// CHECK: ttg.local_alloc %arg0 : (tensor<32x16xf32, #blocked>) -> !ttg.memdesc<32x16xf32, #[[SH]], #smem>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @lanes_down_columns(%a: tensor<32x16xf32, #blocked>) -> tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> {
    %0 = ttg.convert_layout %a : tensor<32x16xf32, #blocked> -> tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    tt.return %0 : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
  }
}

// -----

// Not changed: each thread already holds the whole K extent of its rows (the dot operand layout of its own
// layout), so the conversion only renames registers (Triton's cvtReordersRegisters).
// CHECK-LABEL: tt.func public @rows_in_registers
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout %arg0 : tensor<128x16xf16, #blocked> -> tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rows_in_registers(%a: tensor<128x16xf16, #blocked>) -> tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> {
    %0 = ttg.convert_layout %a : tensor<128x16xf16, #blocked> -> tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    tt.return %0 : tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
  }
}
