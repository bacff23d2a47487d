// RUN: tt-opt %s -split-input-file -triton-nvidia-tma-lowering | FileCheck %s

// A descriptor load becomes a TMA copy into a shared buffer of the descriptor's layout, completed through an
// mbarrier that expects the block's bytes (64x64 f16: 8192); a store or reduce copies the value out of a shared
// buffer after a proxy fence and waits for it. As Triton's pattern driver does, a local_alloc of the loaded value
// in the buffer's layout reads the buffer itself (here the store's and the reduce's, lowered first), and the
// constants are hoisted to the top of the function.
// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 8]
// CHECK: #[[S:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #[[SW:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-LABEL: tt.func public @copy
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[T:.*]] = arith.constant true
// CHECK-NEXT: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[S]], #smem, mutable>
// CHECK-NEXT: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: ttng.init_barrier %[[BAR]], 1 : !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: ttng.barrier_expect %[[BAR]], 8192, %[[T]] : !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg2, %arg2] %[[BUF]], %[[BAR]], %[[T]] cacheModifier = cg : !tt.tensordesc<tensor<64x64xf16, #[[S]]>>, !ttg.memdesc<1xi64, #[[SW]], #smem, mutable> -> !ttg.memdesc<64x64xf16, #[[S]], #smem, mutable>
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[Z]] : !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: ttng.inval_barrier %[[BAR]] : !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x64xf16, #[[S]], #smem, mutable> -> tensor<64x64xf16, #[[B]]>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg1[%arg2, %arg2] %[[BUF]] : !tt.tensordesc<tensor<64x64xf16, #[[S]]>>, !ttg.memdesc<64x64xf16, #[[S]], #smem, mutable>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_reduce add, %arg1[%arg2, %arg2] %[[BUF]] : !tt.tensordesc<tensor<64x64xf16, #[[S]]>>, !ttg.memdesc<64x64xf16, #[[S]], #smem, mutable>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: tt.return %[[V]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy(%a: !tt.tensordesc<tensor<64x64xf16, #shared>>, %b: !tt.tensordesc<tensor<64x64xf16, #shared>>, %i: i32) -> tensor<64x64xf16, #blocked> {
    %0 = tt.descriptor_load %a[%i, %i] cacheModifier = cg : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %b[%i, %i], %0 : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf16, #blocked>
    tt.descriptor_reduce add, %b[%i, %i], %0 : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf16, #blocked>
    tt.return %0 : tensor<64x64xf16, #blocked>
  }
}

// -----

// A descriptor made in the kernel becomes a tensormap written to 128 bytes of global scratch (box and global
// dimensions innermost first, byte strides, f32 = PTX type 7, 128-byte swizzle = 3, NaN fill = 1). The pattern
// driver merges equal constants (one 1 for both element strides) and erases dead ops (the unused constant).
// CHECK: #[[S32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-LABEL: tt.func public @make
// CHECK-NOT: arith.constant 7
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK: %[[SCR:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: %[[ST:.*]] = arith.muli %arg3, %[[C4]] : i64
// CHECK-NEXT: ttng.tensormap_create %[[SCR]], %arg0, [%[[C32]], %[[C16]]], [%arg2, %arg1], [%[[ST]]], [%[[ONE]], %[[ONE]]] {elem_type = 7 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[SCR]] : !tt.ptr<i8>
// CHECK-NEXT: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[SCR]] : !tt.ptr<i8> to !tt.tensordesc<tensor<16x32xf32, #[[S32]]>>
// CHECK: ttng.async_tma_copy_global_to_local %[[D]]
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @make(%p: !tt.ptr<f32>, %m: i32, %n: i32, %s: i64) -> tensor<16x32xf32, #blocked1> {
    %c1 = arith.constant 1 : i64
    %unused = arith.constant 7 : i32
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] {padding = 2 : i32} : <f32>, <tensor<16x32xf32, #shared1>>
    %0 = tt.descriptor_load %d[%m, %m] : !tt.tensordesc<tensor<16x32xf32, #shared1>> -> tensor<16x32xf32, #blocked1>
    tt.return %0 : tensor<16x32xf32, #blocked1>
  }
}

// -----

// One-byte elements: the byte stride is the stride itself (the multiplication by 1 folds away). A load nothing
// uses is dead and goes, with the descriptor made for it.
// CHECK-LABEL: tt.func public @bytes
// CHECK: ttng.tensormap_create %{{.*}}, %arg0, [%{{.*}}, %{{.*}}], [%arg1, %arg1], [%arg2], [%{{.*}}, %{{.*}}] {elem_type = 0 : i32
// CHECK-LABEL: tt.func public @dead
// CHECK-NEXT: tt.return
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bytes(%p: !tt.ptr<i8>, %m: i32, %s: i64) -> !tt.tensordesc<tensor<8x32xi8, #shared2>> {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %c1] : <i8>, <tensor<8x32xi8, #shared2>>
    tt.return %d : !tt.tensordesc<tensor<8x32xi8, #shared2>>
  }
  tt.func public @dead(%p: !tt.ptr<i8>, %m: i32, %s: i64) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %c1] : <i8>, <tensor<8x32xi8, #shared2>>
    %0 = tt.descriptor_load %d[%m, %m] : !tt.tensordesc<tensor<8x32xi8, #shared2>> -> tensor<8x32xi8, #blocked1>
    tt.return
  }
}

// -----

// A gather is a TMA gather of its rows into a buffer of the result's shape (32 rows of 64 bf16: 4096 bytes) through
// an mbarrier; a scatter a TMA scatter out of a buffer holding the rows, then a store wait.
// CHECK: #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @gather
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<32x64xbf16, #[[NV]], #smem, mutable>
// CHECK-NEXT: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64
// CHECK-NEXT: ttng.init_barrier %[[BAR]], 1
// CHECK-NEXT: ttng.barrier_expect %[[BAR]], 4096, %true
// CHECK-NEXT: ttng.async_tma_gather %arg0[%arg1, %arg2] %[[BUF]], %[[BAR]], %true : !tt.tensordesc<tensor<1x64xbf16, #[[NV]]>>, tensor<32xi32, #{{.*}}>, i32, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>, !ttg.memdesc<32x64xbf16, #[[NV]], #smem, mutable>, i1
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %c0_i32
// CHECK-NEXT: ttng.inval_barrier %[[BAR]]
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]]
// CHECK-NEXT: tt.return %[[V]]
// CHECK-LABEL: tt.func public @scatter
// CHECK-NEXT: %[[SRC:.*]] = ttg.local_alloc %arg3 : (tensor<32x64xbf16, #{{.*}}>) -> !ttg.memdesc<32x64xbf16, #[[NV]], #smem>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_scatter %arg0[%arg1, %arg2] %[[SRC]] : !tt.tensordesc<tensor<1x64xbf16, #[[NV]]>>, tensor<32xi32, #{{.*}}>, i32, !ttg.memdesc<32x64xbf16, #[[NV]], #smem>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
#rows = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gather(%d: !tt.tensordesc<tensor<1x64xbf16, #nv>>, %x: tensor<32xi32, #rows>, %y: i32) -> tensor<32x64xbf16, #blocked2> {
    %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xbf16, #nv>>, tensor<32xi32, #rows>, i32) -> tensor<32x64xbf16, #blocked2>
    tt.return %0 : tensor<32x64xbf16, #blocked2>
  }
  tt.func public @scatter(%d: !tt.tensordesc<tensor<1x64xbf16, #nv>>, %x: tensor<32xi32, #rows>, %y: i32, %v: tensor<32x64xbf16, #blocked2>) {
    tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x64xbf16, #nv>>, tensor<32xi32, #rows>, i32, tensor<32x64xbf16, #blocked2>
    tt.return
  }
}

// -----

// A rank-reducing load (a 1x64x32 block read as 64x32) copies into a buffer of the result's shape, its layout the
// descriptor's at that rank; a local_alloc of the value in another layout keeps a local_load and its own buffer.
// CHECK-DAG: #[[R3:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, rank = 3}>
// CHECK-DAG: #[[R2:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-LABEL: tt.func public @rank_reducing
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32, #[[R2]], #smem, mutable>
// CHECK: ttng.barrier_expect %{{.*}}, 8192,
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg1, %arg1] %[[BUF]], %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<1x64x32xf32, #[[R3]]>>, {{.*}} -> !ttg.memdesc<64x32xf32, #[[R2]], #smem, mutable>
// CHECK: %[[V:.*]] = ttg.local_load %[[BUF]]
// CHECK-NEXT: ttg.local_alloc %[[V]] : (tensor<64x32xf32, #{{.*}}>) -> !ttg.memdesc<64x32xf32, #{{.*}}, #smem>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, rank = 3}>
#sw = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rank_reducing(%d: !tt.tensordesc<tensor<1x64x32xf32, #nv3>>, %i: i32) -> !ttg.memdesc<64x32xf32, #sw, #smem> {
    %0 = tt.descriptor_load %d[%i, %i, %i] : !tt.tensordesc<tensor<1x64x32xf32, #nv3>> -> tensor<64x32xf32, #blocked3>
    %1 = ttg.local_alloc %0 : (tensor<64x32xf32, #blocked3>) -> !ttg.memdesc<64x32xf32, #sw, #smem>
    tt.return %1 : !ttg.memdesc<64x32xf32, #sw, #smem>
  }
}
