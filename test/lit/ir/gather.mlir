// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// tt.gather prints as Triton does: `%src[%indices] {axis, efficient_layout}` and a functional type.

// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: tt.func @gather_rows
// CHECK: %[[G:.*]] = tt.gather %arg0[%arg1] {axis = 0 : i32} : (tensor<32x16xf32>, tensor<64x16xi32>) -> tensor<64x16xf32>
// CHECK: tt.return %[[G]]
tt.func @gather_rows(%src: tensor<32x16xf32>, %idx: tensor<64x16xi32>) -> tensor<64x16xf32> {
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32x16xf32>, tensor<64x16xi32>) -> tensor<64x16xf32>
  tt.return %0 : tensor<64x16xf32>
}

// CHECK-LABEL: tt.func @gather_cols
// CHECK: tt.gather %arg0[%arg1] {axis = 1 : i32, efficient_layout} : (tensor<32x32xf16, #[[B]]>, tensor<32x8xi64, #[[B]]>) -> tensor<32x8xf16, #[[B]]>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @gather_cols(%src: tensor<32x32xf16, #b>, %idx: tensor<32x8xi64, #b>) -> tensor<32x8xf16, #b> {
  %0 = tt.gather %src[%idx] {axis = 1 : i32, efficient_layout} : (tensor<32x32xf16, #b>, tensor<32x8xi64, #b>) -> tensor<32x8xf16, #b>
  tt.return %0 : tensor<32x8xf16, #b>
}
}
