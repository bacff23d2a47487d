// RUN: tt-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// Which register layouts ttng.tmem_load / tmem_store / tmem_alloc take: those that split into one of the
// tcgen05.ld/st messages (32x32b, 16x64b, 16x128b, 16x256b, or 16x32bx2 with a second-half offset), repeated over
// registers; warps 1 and 2 must read TMEM lanes 32 and 64. 16-bit elements go packed (two a column) or unpacked
// (colStride = 2), 8-bit ones packed four a column.

// 32x32b: a thread holds one row; 64 columns in registers.
#r = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @row_per_thread
tt.func @row_per_thread(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) -> tensor<128x64xf32, #r> {
  // CHECK: ttng.tmem_load
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #r>
  tt.return %0 : tensor<128x64xf32, #r>
}
}

// -----

// 16x64b: lane 0 goes 8 rows down, lane 1 one column across; the 16 upper rows come from a register.
#r = #ttg.linear<{register = [[0, 2], [0, 4], [0, 8], [16, 0]], lane = [[8, 0], [0, 1], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @msg_16x64b
tt.func @msg_16x64b(%m: !ttg.memdesc<128x16xf32, #tm, #ttng.tensor_memory, mutable>, %t: tensor<128x16xf32, #r>, %p: i1) {
  // CHECK: ttng.tmem_store
  ttng.tmem_store %t, %m, %p : tensor<128x16xf32, #r> -> !ttg.memdesc<128x16xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

// 16x128b: four lanes across columns, eight down rows, a register for row 8.
#r = #ttg.linear<{register = [[8, 0], [0, 4], [0, 8], [16, 0]], lane = [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @msg_16x128b
tt.func @msg_16x128b(%m: !ttg.memdesc<128x16xf32, #tm, #ttng.tensor_memory, mutable>) {
  // CHECK: ttng.tmem_load
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x16xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x16xf32, #r>
  tt.return
}
}

// -----

// 16x256b: two adjacent columns per register pair, as wgmma's accumulator fragment.
#r = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [16, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @msg_16x256b
tt.func @msg_16x256b(%m: !ttg.memdesc<128x16xf32, #tm, #ttng.tensor_memory, mutable>) {
  // CHECK: ttng.tmem_load
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x16xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x16xf32, #r>
  tt.return
}
}

// -----

// 16x32bx2: blockM = 64 buffers use 16 rows per warp; lane 16 reads the second half (columns 8..) instead.
#r = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], warp = [[16, 0], [32, 0]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 64, blockN = 16, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @msg_16x32bx2
tt.func @msg_16x32bx2(%m: !ttg.memdesc<64x16xf32, #tm, #ttng.tensor_memory, mutable>) {
  // CHECK: ttng.tmem_load
  %0 = ttng.tmem_load %m : !ttg.memdesc<64x16xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<64x16xf32, #r>
  tt.return
}
}

// -----

// f16 in an unpacked buffer (colStride = 2: one element a 32-bit column) and in a packed one.
#r = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#unpacked = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 2>
#packed = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @half_precision
tt.func @half_precision(%t: tensor<128x32xf16, #r>) {
  // CHECK: ttng.tmem_alloc
  // CHECK: ttng.tmem_alloc
  %0 = ttng.tmem_alloc %t : (tensor<128x32xf16, #r>) -> !ttg.memdesc<128x32xf16, #unpacked, #ttng.tensor_memory>
  %1 = ttng.tmem_alloc %t : (tensor<128x32xf16, #r>) -> !ttg.memdesc<128x32xf16, #packed, #ttng.tensor_memory>
  tt.return
}
}

// -----

// Eight warps: warps 0-3 cover the 128 TMEM lanes, the fifth warp the second half of the columns.
#r = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 8 : i32} {
// CHECK-LABEL: @eight_warps
tt.func @eight_warps(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) {
  // CHECK: ttng.tmem_load
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #r>
  tt.return
}
}

// -----

// Scales: 32 rows a warp, repeated over the four warps' lane quarters (the encoding's broadcast).
#r = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-LABEL: @scales
tt.func @scales(%t: tensor<128x4xi8, #r>) {
  // CHECK: ttng.tmem_alloc
  %0 = ttng.tmem_alloc %t : (tensor<128x4xi8, #r>) -> !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>
  tt.return
}
}

// -----

// The 16x64b message but with lanes 0 and 1 swapped: no message reads it.
#r = #ttg.linear<{register = [[0, 2], [0, 4], [0, 8], [16, 0]], lane = [[0, 1], [8, 0], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @no_message(%m: !ttg.memdesc<128x16xf32, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_load' op result}}
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x16xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x16xf32, #r>
  tt.return
}
}

// -----

// 16x32bx2 reading the same columns twice (lane 16 repeats lane 0) is only for scales, whose allocation is padded.
#r = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]], warp = [[16, 0], [32, 0]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 64, blockN = 8, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @repeated_half(%m: !ttg.memdesc<64x8xf32, #tm, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_load' op result}}
  %0 = ttng.tmem_load %m : !ttg.memdesc<64x8xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<64x8xf32, #r>
  tt.return
}
}

// -----

// 8-bit elements must come four adjacent columns to a register (packed); one column a register is neither.
#r = #ttg.linear<{register = [[0, 2], [0, 1], [0, 4], [0, 8]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 16, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @bytes_out_of_order(%t: tensor<128x16xi8, #r>) {
  // expected-error @+1 {{'ttng.tmem_alloc' op source}}
  %0 = ttng.tmem_alloc %t : (tensor<128x16xi8, #r>) -> !ttg.memdesc<128x16xi8, #tm, #ttng.tensor_memory>
  tt.return
}
}
