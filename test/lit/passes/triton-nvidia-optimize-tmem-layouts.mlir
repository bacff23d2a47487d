// RUN: tt-opt %s -split-input-file -triton-nvidia-optimize-tmem-layouts | FileCheck %s

#row = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#r3 = #ttg.blocked<{sizePerThread = [1, 2, 32], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#t3 = #ttg.blocked<{sizePerThread = [1, 32, 2], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [1, 2, 0]}>
#half = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Splitting a loaded accumulator in halves along N loads each half from its own subslice.
  // CHECK-LABEL: tt.func @split_load
  // CHECK: %[[S0:.*]] = ttng.tmem_subslice %arg0 {N = 0 : i32} : {{.*}} -> !ttg.memdesc<128x32xf32, #tmem, #ttng.tensor_memory, mutable, 128x64>
  // CHECK-NEXT: %[[L0:.*]] = ttng.tmem_load %[[S0]]
  // CHECK-NEXT: %[[C0:.*]] = ttg.convert_layout %[[L0]]
  // CHECK-NEXT: %[[S1:.*]] = ttng.tmem_subslice %arg0 {N = 32 : i32}
  // CHECK-NEXT: %[[L1:.*]] = ttng.tmem_load %[[S1]]
  // CHECK-NEXT: %[[C1:.*]] = ttg.convert_layout %[[L1]]
  // CHECK-NOT: tt.split
  // CHECK: tt.return %[[C0]], %[[C1]]
  tt.func @split_load(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) -> (tensor<128x32xf32, #half>, tensor<128x32xf32, #half>) {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #row>
    %1 = tt.reshape %0 : tensor<128x64xf32, #row> -> tensor<128x2x32xf32, #r3>
    %2 = tt.trans %1 {order = array<i32: 0, 2, 1>} : tensor<128x2x32xf32, #r3> -> tensor<128x32x2xf32, #t3>
    %lo, %hi = tt.split %2 : tensor<128x32x2xf32, #t3> -> tensor<128x32xf32, #half>
    tt.return %lo, %hi : tensor<128x32xf32, #half>, tensor<128x32xf32, #half>
  }

  // Joined halves are stored to their own subslices, each in the default TMEM layout.
  // CHECK-LABEL: tt.func @join_store
  // CHECK: %[[S0:.*]] = ttng.tmem_subslice %arg0 {N = 0 : i32}
  // CHECK-NEXT: %[[V0:.*]] = ttg.convert_layout %arg1
  // CHECK-NEXT: ttng.tmem_store %[[V0]], %[[S0]], %true
  // CHECK-NEXT: %[[S1:.*]] = ttng.tmem_subslice %arg0 {N = 32 : i32}
  // CHECK-NEXT: %[[V1:.*]] = ttg.convert_layout %arg2
  // CHECK-NEXT: ttng.tmem_store %[[V1]], %[[S1]], %true
  // CHECK-NEXT: tt.return
  tt.func @join_store(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %lo: tensor<128x32xf32, #half>, %hi: tensor<128x32xf32, #half>, %p: i1) {
    %0 = tt.join %lo, %hi : tensor<128x32xf32, #half> -> tensor<128x32x2xf32, #t3>
    %1 = tt.trans %0 {order = array<i32: 0, 2, 1>} : tensor<128x32x2xf32, #t3> -> tensor<128x2x32xf32, #r3>
    %2 = tt.reshape %1 : tensor<128x2x32xf32, #r3> -> tensor<128x64xf32, #row>
    ttng.tmem_store %2, %m, %p : tensor<128x64xf32, #row> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#r3 = #ttg.blocked<{sizePerThread = [1, 2, 4], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#t3 = #ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [1, 2, 0]}>
#half = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 8, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Halves narrower than 8 columns stay one load.
  // CHECK-LABEL: tt.func @narrow_split
  // CHECK-NOT: ttng.tmem_subslice
  // CHECK: tt.split
  tt.func @narrow_split(%m: !ttg.memdesc<128x8xf32, #tm, #ttng.tensor_memory, mutable>) -> (tensor<128x4xf32, #half>, tensor<128x4xf32, #half>) {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x8xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x8xf32, #row>
    %1 = tt.reshape %0 : tensor<128x8xf32, #row> -> tensor<128x2x4xf32, #r3>
    %2 = tt.trans %1 {order = array<i32: 0, 2, 1>} : tensor<128x2x4xf32, #r3> -> tensor<128x4x2xf32, #t3>
    %lo, %hi = tt.split %2 : tensor<128x4x2xf32, #t3> -> tensor<128x4xf32, #half>
    tt.return %lo, %hi : tensor<128x4xf32, #half>, tensor<128x4xf32, #half>
  }
}

// -----

#acc = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0], [0, 32]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // With 8 warps and a reduction along N, the second warp group takes rows 16-31 of each 32 (warp 4 and
  // lane 16 swap places) instead of the other half of the columns.
  // CHECK{LITERAL}: #linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 32]], warp = [[32, 0], [64, 0], [16, 0]], block = []}>
  // CHECK-LABEL: tt.func @reduce_rows
  // CHECK: %[[L:.*]] = ttng.tmem_load %arg0 : {{.*}} -> tensor<128x64xf32, #linear1>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<128x64xf32, #linear1> -> tensor<128x64xf32, #linear>
  // CHECK-NEXT: arith.mulf %[[C]], %[[C]]
  tt.func @reduce_rows(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #acc}>> {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    %1 = arith.mulf %0, %0 : tensor<128x64xf32, #acc>
    %2 = "tt.reduce"(%1) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<128x64xf32, #acc>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #acc}>>
    tt.return %2 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #acc}>>
  }

  // A reduction along M keeps the load as it is.
  // CHECK-LABEL: tt.func @reduce_cols
  // CHECK: ttng.tmem_load %arg0 : {{.*}} -> tensor<128x64xf32, #linear>
  tt.func @reduce_cols(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #acc}>> {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #acc>
    %1 = "tt.reduce"(%0) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<128x64xf32, #acc>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #acc}>>
    tt.return %1 : tensor<64xf32, #ttg.slice<{dim = 0, parent = #acc}>>
  }
}

// -----

#row = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [64, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#rowT = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The 16x256b message layout, for stores fed by 16-bit shared-memory loads and loads feeding 16-bit stores
  // that move one element at a time.
  // CHECK{LITERAL}: #linear = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [16, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>

  // CHECK-LABEL: tt.func @store_from_scalar_load
  // CHECK: %[[T:.*]] = tt.trans
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[T]] : tensor<128x64xf32, #blocked{{.*}}> -> tensor<128x64xf32, #linear>
  // CHECK-NEXT: ttng.tmem_store %[[C]], %arg1
  tt.func @store_from_scalar_load(%s: !ttg.memdesc<64x128xf16, #sh, #smem, mutable>, %m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
    %0 = ttg.local_load %s : !ttg.memdesc<64x128xf16, #sh, #smem, mutable> -> tensor<64x128xf16, #cols>
    %1 = arith.negf %0 : tensor<64x128xf16, #cols>
    %2 = arith.extf %1 : tensor<64x128xf16, #cols> to tensor<64x128xf32, #cols>
    %3 = tt.trans %2 {order = array<i32: 1, 0>} : tensor<64x128xf32, #cols> -> tensor<128x64xf32, #rowT>
    ttng.tmem_store %3, %m, %p : tensor<128x64xf32, #rowT> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }

  // When shared memory holds the columns contiguously, the same load moves 64 elements at a time: no change.
  // CHECK-LABEL: tt.func @store_from_vector_load
  // CHECK: %[[T:.*]] = tt.trans
  // CHECK-NEXT: ttng.tmem_store %[[T]], %arg1
  tt.func @store_from_vector_load(%s: !ttg.memdesc<64x128xf16, #shT, #smem, mutable>, %m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
    %0 = ttg.local_load %s : !ttg.memdesc<64x128xf16, #shT, #smem, mutable> -> tensor<64x128xf16, #cols>
    %1 = arith.negf %0 : tensor<64x128xf16, #cols>
    %2 = arith.extf %1 : tensor<64x128xf16, #cols> to tensor<64x128xf32, #cols>
    %3 = tt.trans %2 {order = array<i32: 1, 0>} : tensor<64x128xf32, #cols> -> tensor<128x64xf32, #rowT>
    ttng.tmem_store %3, %m, %p : tensor<128x64xf32, #rowT> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }

  // Rows in registers, columns contiguous in shared memory: one element per store.
  // CHECK-LABEL: tt.func @load_to_transposed_store
  // CHECK: %[[L:.*]] = ttng.tmem_load %arg0 : {{.*}} -> tensor<128x64xf32, #linear>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<128x64xf32, #linear> -> tensor<128x64xf32, #blocked1>
  // CHECK-NEXT: arith.truncf %[[C]]
  tt.func @load_to_transposed_store(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x64xf16, #shT, #smem, mutable>) {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #row>
    %1 = arith.truncf %0 : tensor<128x64xf32, #row> to tensor<128x64xf16, #row>
    ttg.local_store %1, %s : tensor<128x64xf16, #row> -> !ttg.memdesc<128x64xf16, #shT, #smem, mutable>
    tt.return
  }

  // 32-bit stores keep the load's layout.
  // CHECK-LABEL: tt.func @load_to_f32_store
  // CHECK: ttng.tmem_load %arg0 : {{.*}} -> tensor<128x64xf32, #blocked{{.*}}>
  // CHECK-NEXT: ttg.local_store
  tt.func @load_to_f32_store(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x64xf32, #shT, #smem, mutable>) {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #row>
    ttg.local_store %0, %s : tensor<128x64xf32, #row> -> !ttg.memdesc<128x64xf32, #shT, #smem, mutable>
    tt.return
  }
}
