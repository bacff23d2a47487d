// RUN: tt-opt %s -split-input-file -make-ttgir='target=cuda:90 num-warps=4 num-stages=3' | FileCheck %s
// RUN: tt-opt %s -split-input-file -make-ttgir='target=cuda:90 num-warps=8' | FileCheck %s --check-prefix=W8
// RUN: tt-opt %S/../../fixtures/triton/layer_norm.nodebug.ttir -make-ttgir='target=cuda:90 num-warps=4 num-stages=3' | head -n -1 | diff - %S/../../fixtures/triton/layer_norm.nodebug.ttgir
// RUN: not tt-opt %s -make-ttgir='target=hip:gfx942' 2>&1 | FileCheck %s --check-prefix=HIP
// RUN: not tt-opt %s -make-ttgir='target=cuda:90 num-warps=6' 2>&1 | FileCheck %s --check-prefix=WARPS
// HIP: error: pass 'make-ttgir': 'make-ttgir' supports cuda targets only, got 'hip:gfx942'
// WARPS: error: pass 'make-ttgir': option 'num-warps' must be a positive power of two, got 6

// Vector add: 16-byte aligned, contiguous: 4 f32 per thread everywhere, no conversion.
// CHECK: #[[L:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK-LABEL: tt.func public @add_kernel
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[L]]>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[L]]>
// W8: #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8: "ttg.num-warps" = 8 : i32
module {
  tt.func public @add_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32) attributes {noinline = false} {
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %8 = tt.addptr %7, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %9 = tt.load %8, %6 : tensor<1024x!tt.ptr<f32>>
    %10 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %11 = tt.addptr %10, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %12 = tt.load %11, %6 : tensor<1024x!tt.ptr<f32>>
    %13 = arith.addf %9, %12 : tensor<1024xf32>
    %14 = tt.splat %arg2 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %15 = tt.addptr %14, %4 : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %15, %13, %6 : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Softmax: the row start is only 4-byte aligned (row stride unknown), so one element per thread.
// CHECK: #[[L:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @softmax_kernel
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load {{.*}} : tensor<256x!tt.ptr<f32>, #[[L]]>
// CHECK: "tt.reduce"
// CHECK: tt.store {{.*}} : tensor<256x!tt.ptr<f32>, #[[L]]>
module {
  tt.func public @softmax_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0xFF800000> : tensor<256xf32>
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %arg2 : i32
    %2 = tt.addptr %arg1, %1 : !tt.ptr<f32>, i32
    %3 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %4 = tt.splat %2 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %5 = tt.addptr %4, %3 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %6 = tt.splat %arg4 : i32 -> tensor<256xi32>
    %7 = arith.cmpi slt, %3, %6 : tensor<256xi32>
    %8 = tt.load %5, %7, %cst : tensor<256x!tt.ptr<f32>>
    %9 = "tt.reduce"(%8) <{axis = 0 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %20 = arith.maxnumf %arg5, %arg6 : f32
      tt.reduce.return %20 : f32
    }) : (tensor<256xf32>) -> f32
    %10 = tt.splat %9 : f32 -> tensor<256xf32>
    %11 = arith.subf %8, %10 : tensor<256xf32>
    %12 = math.exp %11 : tensor<256xf32>
    %13 = "tt.reduce"(%12) <{axis = 0 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %20 = arith.addf %arg5, %arg6 : f32
      tt.reduce.return %20 : f32
    }) : (tensor<256xf32>) -> f32
    %14 = tt.splat %13 : f32 -> tensor<256xf32>
    %15 = arith.divf %12, %14 : tensor<256xf32>
    %16 = arith.muli %0, %arg3 : i32
    %17 = tt.addptr %arg0, %16 : !tt.ptr<f32>, i32
    %18 = tt.splat %17 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %19 = tt.addptr %18, %3 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %19, %15, %7 : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Transpose: load and store row-major; the transposed tile is converted once, right before the store.
// CHECK: #[[ROW:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[COL:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @transpose_kernel
// CHECK: %[[X:.*]] = tt.load {{.*}} : tensor<32x32x!tt.ptr<f32>, #[[ROW]]>
// CHECK-NEXT: %[[T:.*]] = tt.trans %[[X]] {order = array<i32: 1, 0>} : tensor<32x32xf32, #[[ROW]]> -> tensor<32x32xf32, #[[COL]]>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[T]] : tensor<32x32xf32, #[[COL]]> -> tensor<32x32xf32, #[[ROW]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[C]], %{{.*}} : tensor<32x32x!tt.ptr<f32>, #[[ROW]]>
module {
  tt.func public @transpose_kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %c32_i32 = arith.constant 32 : i32
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c32_i32 : i32
    %3 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %4 = tt.splat %2 : i32 -> tensor<32xi32>
    %5 = arith.addi %4, %3 : tensor<32xi32>
    %6 = arith.muli %1, %c32_i32 : i32
    %7 = tt.splat %6 : i32 -> tensor<32xi32>
    %8 = arith.addi %7, %3 : tensor<32xi32>
    %9 = tt.expand_dims %5 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %10 = tt.splat %arg4 : i32 -> tensor<32x1xi32>
    %11 = arith.muli %9, %10 : tensor<32x1xi32>
    %12 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %13 = tt.addptr %12, %11 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %14 = tt.expand_dims %8 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %15 = tt.broadcast %13 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %16 = tt.broadcast %14 : tensor<1x32xi32> -> tensor<32x32xi32>
    %17 = tt.addptr %15, %16 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    %18 = tt.splat %arg2 : i32 -> tensor<32x1xi32>
    %19 = arith.cmpi slt, %9, %18 : tensor<32x1xi32>
    %20 = tt.splat %arg3 : i32 -> tensor<1x32xi32>
    %21 = arith.cmpi slt, %14, %20 : tensor<1x32xi32>
    %22 = tt.broadcast %19 : tensor<32x1xi1> -> tensor<32x32xi1>
    %23 = tt.broadcast %21 : tensor<1x32xi1> -> tensor<32x32xi1>
    %24 = arith.andi %22, %23 : tensor<32x32xi1>
    %25 = tt.load %17, %24, %cst : tensor<32x32x!tt.ptr<f32>>
    %26 = tt.trans %25 {order = array<i32: 1, 0>} : tensor<32x32xf32> -> tensor<32x32xf32>
    %27 = tt.expand_dims %8 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %28 = tt.splat %arg5 : i32 -> tensor<32x1xi32>
    %29 = arith.muli %27, %28 : tensor<32x1xi32>
    %30 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<32x1x!tt.ptr<f32>>
    %31 = tt.addptr %30, %29 : tensor<32x1x!tt.ptr<f32>>, tensor<32x1xi32>
    %32 = tt.expand_dims %5 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %33 = tt.broadcast %31 : tensor<32x1x!tt.ptr<f32>> -> tensor<32x32x!tt.ptr<f32>>
    %34 = tt.broadcast %32 : tensor<1x32xi32> -> tensor<32x32xi32>
    %35 = tt.addptr %33, %34 : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
    %36 = tt.splat %arg3 : i32 -> tensor<32x1xi32>
    %37 = arith.cmpi slt, %27, %36 : tensor<32x1xi32>
    %38 = tt.splat %arg2 : i32 -> tensor<1x32xi32>
    %39 = arith.cmpi slt, %32, %38 : tensor<1x32xi32>
    %40 = tt.broadcast %37 : tensor<32x1xi1> -> tensor<32x32xi1>
    %41 = tt.broadcast %39 : tensor<1x32xi1> -> tensor<32x32xi1>
    %42 = arith.andi %40, %41 : tensor<32x32xi1>
    tt.store %35, %26, %42 : tensor<32x32x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A while loop carries the coalesced layout (2 i32 per thread: 256 elements over 128 threads).
// CHECK: #[[L:.*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @collatz_kernel
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.while {{.*}} : (tensor<256xi32, #[[L]]>, tensor<256xi32, #[[L]]>) -> (tensor<256xi32, #[[L]]>, tensor<256xi32, #[[L]]>)
module {
  tt.func public @collatz_kernel(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0> : tensor<256xi32>
    %cst_0 = arith.constant dense<3> : tensor<256xi32>
    %cst_1 = arith.constant dense<2> : tensor<256xi32>
    %cst_2 = arith.constant dense<1> : tensor<256xi32>
    %c1_i32 = arith.constant 1 : i32
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %3 = tt.splat %1 : i32 -> tensor<256xi32>
    %4 = arith.addi %3, %2 : tensor<256xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    %9 = tt.load %8, %6, %cst_2 : tensor<256x!tt.ptr<i32>>
    %10:2 = scf.while (%arg3 = %9, %arg4 = %cst) : (tensor<256xi32>, tensor<256xi32>) -> (tensor<256xi32>, tensor<256xi32>) {
      %13 = "tt.reduce"(%arg3) <{axis = 0 : i32}> ({
      ^bb0(%arg5: i32, %arg6: i32):
        %15 = arith.maxsi %arg5, %arg6 : i32
        tt.reduce.return %15 : i32
      }) : (tensor<256xi32>) -> i32
      %14 = arith.cmpi sgt, %13, %c1_i32 : i32
      scf.condition(%14) %arg3, %arg4 : tensor<256xi32>, tensor<256xi32>
    } do {
    ^bb0(%arg3: tensor<256xi32>, %arg4: tensor<256xi32>):
      %13 = arith.cmpi sgt, %arg3, %cst_2 : tensor<256xi32>
      %14 = arith.remsi %arg3, %cst_1 : tensor<256xi32>
      %15 = arith.cmpi eq, %14, %cst_2 : tensor<256xi32>
      %16 = arith.muli %arg3, %cst_0 : tensor<256xi32>
      %17 = arith.addi %16, %cst_2 : tensor<256xi32>
      %18 = arith.divsi %arg3, %cst_1 : tensor<256xi32>
      %19 = arith.select %15, %17, %18 : tensor<256xi1>, tensor<256xi32>
      %20 = arith.select %13, %19, %arg3 : tensor<256xi1>, tensor<256xi32>
      %21 = arith.extui %13 : tensor<256xi1> to tensor<256xi32>
      %22 = arith.addi %arg4, %21 : tensor<256xi32>
      scf.yield %20, %22 : tensor<256xi32>, tensor<256xi32>
    }
    %11 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>>
    %12 = tt.addptr %11, %4 : tensor<256x!tt.ptr<i32>>, tensor<256xi32>
    tt.store %12, %10#1, %6 : tensor<256x!tt.ptr<i32>>
    tt.return
  }
}

// -----

// Histogram: the load is vectorized (4 per thread); the scattered atomic keeps 1, with its operands converted.
// CHECK: #[[V:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[S:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func public @histogram_kernel
// CHECK: tt.load {{.*}} : tensor<1024x!tt.ptr<i32>, #[[V]]>
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<i32>, #[[V]]> -> tensor<1024x!tt.ptr<i32>, #[[S]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %{{.*}} : tensor<1024xi1, #[[V]]> -> tensor<1024xi1, #[[S]]>
// CHECK-NEXT: tt.atomic_rmw add, acq_rel, gpu, %[[P]], %{{.*}}, %[[M]]
module {
  tt.func public @histogram_kernel(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg2: i32, %arg3: i32) attributes {noinline = false} {
    %cst = arith.constant dense<1> : tensor<1024xi32>
    %cst_0 = arith.constant dense<0> : tensor<1024xi32>
    %c1024_i32 = arith.constant 1024 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %3 = tt.splat %1 : i32 -> tensor<1024xi32>
    %4 = arith.addi %3, %2 : tensor<1024xi32>
    %5 = tt.splat %arg2 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>>
    %8 = tt.addptr %7, %4 : tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>
    %9 = tt.load %8, %6, %cst_0 : tensor<1024x!tt.ptr<i32>>
    %10 = arith.cmpi sge, %9, %cst_0 : tensor<1024xi32>
    %11 = arith.andi %6, %10 : tensor<1024xi1>
    %12 = tt.splat %arg3 : i32 -> tensor<1024xi32>
    %13 = arith.cmpi slt, %9, %12 : tensor<1024xi32>
    %14 = arith.andi %11, %13 : tensor<1024xi1>
    %15 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>>
    %16 = tt.addptr %15, %9 : tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>
    %17 = tt.atomic_rmw add, acq_rel, gpu, %16, %cst, %14 : (tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>, tensor<1024xi1>) -> tensor<1024xi32>
    tt.return
  }
}
