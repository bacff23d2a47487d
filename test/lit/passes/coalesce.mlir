// RUN: tt-opt %s -split-input-file -tritongpu-coalesce | FileCheck %s

// Contiguous, 16-byte aligned f32 accesses: 4 elements (128 bits) per thread; operands are converted to the
// new layout and the loaded value back.
// CHECK: #[[DEF:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @vector_f32
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[DEF]]> -> tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK-NEXT: %[[B:.*]] = ttg.convert_layout %[[L]] : tensor<1024xf32, #[[V4]]> -> tensor<1024xf32, #[[DEF]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @vector_f32(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = tt.load %2 : tensor<1024x!tt.ptr<f32>, #blocked>
    %4 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %5 = tt.addptr %4, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %5, %3 : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// f16: 8 per thread. The unaligned load shares a def-use slice with an aligned store of the same shape and
// order, so it takes the store's vector width (loads may; stores stay within their own).
// CHECK: #[[V8:.*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @unaligned_f16
// CHECK: tt.load %{{.*}} : tensor<2048x!tt.ptr<f16>, #[[V8]]>
// CHECK: tt.store %{{.*}} : tensor<2048x!tt.ptr<f16>, #[[V8]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unaligned_f16(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
    %3 = tt.load %2 : tensor<2048x!tt.ptr<f16>, #blocked>
    %4 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %5 = tt.addptr %4, %0 : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
    tt.store %5, %3 : tensor<2048x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Contiguous along dimension 0 (column-major): order [0, 1], 4 rows per thread, lanes along the columns first.
// CHECK: #[[CM:.*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @column_major
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[CM]]>
// CHECK: tt.store %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[CM]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @column_major(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32 {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = ttg.convert_layout %0 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %3 = ttg.convert_layout %2 : tensor<64x1xi32, #blocked1> -> tensor<64x1xi32, #blocked2>
    %4 = ttg.convert_layout %0 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
    %5 = tt.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x64xi32, #blocked3>
    %6 = ttg.convert_layout %5 : tensor<1x64xi32, #blocked3> -> tensor<1x64xi32, #blocked4>
    %7 = tt.splat %arg1 : i32 -> tensor<1x64xi32, #blocked4>
    %8 = arith.muli %6, %7 : tensor<1x64xi32, #blocked4>
    %9 = tt.broadcast %3 : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %10 = ttg.convert_layout %9 : tensor<64x64xi32, #blocked2> -> tensor<64x64xi32, #blocked4>
    %11 = tt.broadcast %8 : tensor<1x64xi32, #blocked4> -> tensor<64x64xi32, #blocked4>
    %12 = arith.addi %10, %11 : tensor<64x64xi32, #blocked4>
    %13 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked4>
    %14 = tt.addptr %13, %12 : tensor<64x64x!tt.ptr<f32>, #blocked4>, tensor<64x64xi32, #blocked4>
    %15 = tt.load %14 : tensor<64x64x!tt.ptr<f32>, #blocked4>
    %16 = arith.addf %15, %15 : tensor<64x64xf32, #blocked4>
    tt.store %14, %16 : tensor<64x64x!tt.ptr<f32>, #blocked4>
    tt.return
  }
}

// -----

// A tt.divisibility hint on an offset (tl.multiple_of) makes the load aligned: 4 per thread; the store through
// an unaligned pointer keeps 1.
// CHECK: #[[DEF:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @hints
// CHECK: tt.load %{{.*}} : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK: tt.store %{{.*}} : tensor<512x!tt.ptr<f32>, #[[DEF]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hints(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32>, %arg2: i32) {
    %0 = arith.muli %arg2, %arg2 {tt.divisibility = dense<16> : tensor<1xi32>} : i32
    %1 = tt.addptr %arg0, %0 : !tt.ptr<f32>, i32
    %2 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %3 = tt.splat %1 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %5 = tt.load %4 : tensor<512x!tt.ptr<f32>, #blocked>
    %6 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %7 = tt.addptr %6, %2 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %7, %5 : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Scattered addresses (loaded indices): the atomic keeps one element per thread; the contiguous index load
// gets 4.
// CHECK: #[[DEF:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @scattered_atomic
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<i32>, #[[V4]]>
// CHECK: tt.atomic_rmw add, relaxed, gpu, {{.*}} : (tensor<1024x!tt.ptr<i32>, #[[DEF]]>, tensor<1024xi32, #[[DEF]]>) -> tensor<1024xi32, #[[DEF]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scattered_atomic(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = tt.load %2 : tensor<1024x!tt.ptr<i32>, #blocked>
    %cst = arith.constant dense<1> : tensor<1024xi32, #blocked>
    %4 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %5 = tt.addptr %4, %3 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %6 = tt.atomic_rmw add, relaxed, gpu, %5, %cst : (tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked>
    tt.return
  }
}

// -----

// Not changed: scalar accesses.
// CHECK-LABEL: tt.func public @scalar_only
// CHECK-NEXT: %[[V:.*]] = tt.load %arg0 : !tt.ptr<f32>
// CHECK-NEXT: tt.store %arg1, %[[V]] : !tt.ptr<f32>
// CHECK-NEXT: tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar_only(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>) {
    %0 = tt.load %arg0 : !tt.ptr<f32>
    tt.store %arg1, %0 : !tt.ptr<f32>
    tt.return
  }
}
