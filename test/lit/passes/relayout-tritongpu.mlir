// RUN: tt-opt %s -split-input-file -relayout-tritongpu -allow-unregistered-dialect | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The 32x32b layout for the module's 8 warps (the second warp group takes the upper half of the columns).
  // CHECK-DAG: #[[TM:.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16{{]]}}, lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0{{]]}}, warp = {{\[\[}}32, 0], [64, 0], [0, 32{{]]}}, block = []}>
  // CHECK-DAG: #[[DEF:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>

  // A layout-less load gets the TMEM layout, converted to the default layout for its users.
  // CHECK-LABEL: tt.func @load
  // CHECK: %[[L:.*]] = ttng.tmem_load %arg0 : {{.*}} -> tensor<128x64xf32, #[[TM]]>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<128x64xf32, #[[TM]]> -> tensor<128x64xf32, #[[DEF]]>
  // CHECK-NEXT: "user"(%[[C]])
  tt.func @load(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) {
    %0 = ttng.tmem_load %m : !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x64xf32>
    "user"(%0) : (tensor<128x64xf32>) -> ()
    tt.return
  }

  // A store's source, reached through the cast from its converted type (the cast is then dropped), is
  // converted to the TMEM layout.
  // CHECK-LABEL: tt.func @store
  // CHECK-NOT: unrealized_conversion_cast
  // CHECK: %[[C:.*]] = ttg.convert_layout %arg1 : tensor<128x64xf32, #[[DEF]]> -> tensor<128x64xf32, #[[TM]]>
  // CHECK-NEXT: ttng.tmem_store %[[C]], %arg0, %arg2 : tensor<128x64xf32, #[[TM]]>
  tt.func @store(%m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %v: tensor<128x64xf32, #blocked>, %p: i1) {
    %0 = builtin.unrealized_conversion_cast %v : tensor<128x64xf32, #blocked> to tensor<128x64xf32>
    ttng.tmem_store %0, %m, %p : tensor<128x64xf32> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }

  // An allocation's source with no cast to look through (made by an op of another dialect, left alone): converted
  // to the default layout first.
  // CHECK-LABEL: tt.func @alloc
  // CHECK: %[[V:.*]] = "producer"() : () -> tensor<128x64xf32>
  // CHECK-NEXT: %[[D:.*]] = ttg.convert_layout %[[V]] : tensor<128x64xf32> -> tensor<128x64xf32, #[[DEF]]>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[D]] : tensor<128x64xf32, #[[DEF]]> -> tensor<128x64xf32, #[[TM]]>
  // CHECK-NEXT: ttng.tmem_alloc %[[C]] : (tensor<128x64xf32, #[[TM]]>)
  tt.func @alloc() {
    %v = "producer"() : () -> tensor<128x64xf32>
    %0 = ttng.tmem_alloc %v : (tensor<128x64xf32>) -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#rows = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // Gathered rows: each thread holds 4 consecutive row offsets, every warp all of them.
  // CHECK: #[[P:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
  // CHECK-LABEL: tt.func @gather
  // CHECK: %[[X:.*]] = ttg.convert_layout %arg1 : tensor<64xi32, #{{.*}}> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #[[P]]}>>
  // CHECK-NEXT: ttng.async_tma_gather %arg0[%[[X]], %arg2]
  tt.func @gather(%d: !tt.tensordesc<tensor<1x64xf16, #shared>>, %x: tensor<64xi32, #rows>, %y: i32, %b: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>, %r: !ttg.memdesc<64x64xf16, #shared, #ttg.shared_memory, mutable>, %p: i1) {
    %0 = builtin.unrealized_conversion_cast %x : tensor<64xi32, #rows> to tensor<64xi32>
    ttng.async_tma_gather %d[%0, %y] %r, %b, %p : !tt.tensordesc<tensor<1x64xf16, #shared>>, tensor<64xi32>, i32, !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xf16, #shared, #ttg.shared_memory, mutable>, i1
    tt.return
  }
}
