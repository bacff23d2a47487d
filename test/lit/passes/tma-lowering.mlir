// RUN: tt-opt %s -triton-nvidia-tma-lowering | FileCheck %s

// A descriptor load becomes a TMA copy into a shared buffer of the descriptor's layout, completed through an
// mbarrier that expects the block's bytes (64x64 f16: 8192); a store or reduce copies the value out of a shared
// buffer after a proxy fence and waits for it; a descriptor made in the kernel becomes a tensormap written to
// 128 bytes of global scratch (box and global dimensions innermost first, byte strides, f32 = PTX type 7,
// 128-byte swizzle = 3, NaN fill = 1).
// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 8]
// CHECK: #[[S:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #[[SW:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK: #[[S32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK: tt.func public @copy
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[S]], #smem, mutable>
// CHECK-NEXT: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: ttng.init_barrier %[[BAR]], 1 : !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: %[[T:.*]] = arith.constant true
// CHECK-NEXT: ttng.barrier_expect %[[BAR]], 8192, %[[T]] : !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg2, %arg2] %[[BUF]], %[[BAR]], %[[T]] cacheModifier = cg : !tt.tensordesc<tensor<64x64xf16, #[[S]]>>, !ttg.memdesc<1xi64, #[[SW]], #smem, mutable> -> !ttg.memdesc<64x64xf16, #[[S]], #smem, mutable>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[Z]] : !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: ttng.inval_barrier %[[BAR]] : !ttg.memdesc<1xi64, #[[SW]], #smem, mutable>
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x64xf16, #[[S]], #smem, mutable> -> tensor<64x64xf16, #[[B]]>
// CHECK-NEXT: %[[OUT:.*]] = ttg.local_alloc %[[V]] : (tensor<64x64xf16, #[[B]]>) -> !ttg.memdesc<64x64xf16, #[[S]], #smem>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg1[%arg2, %arg2] %[[OUT]] : !tt.tensordesc<tensor<64x64xf16, #[[S]]>>, !ttg.memdesc<64x64xf16, #[[S]], #smem>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_reduce add, %arg1[%arg2, %arg2] %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[S]]>>, !ttg.memdesc<64x64xf16, #[[S]], #smem>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: tt.func public @make
// CHECK: %[[SCR:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[ST:.*]] = arith.muli %arg3, %[[C4]] : i64
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[ONE2:.*]] = arith.constant 1 : i32
// CHECK-NEXT: ttng.tensormap_create %[[SCR]], %arg0, [%[[C32]], %[[C16]]], [%arg2, %arg1], [%[[ST]]], [%[[ONE]], %[[ONE2]]] {elem_type = 7 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[SCR]] : !tt.ptr<i8>
// CHECK-NEXT: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[SCR]] : !tt.ptr<i8> to !tt.tensordesc<tensor<16x32xf32, #[[S32]]>>
// CHECK: ttng.async_tma_copy_global_to_local %[[D]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy(%a: !tt.tensordesc<tensor<64x64xf16, #shared>>, %b: !tt.tensordesc<tensor<64x64xf16, #shared>>, %i: i32) {
    %0 = tt.descriptor_load %a[%i, %i] cacheModifier = cg : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %b[%i, %i], %0 : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf16, #blocked>
    tt.descriptor_reduce add, %b[%i, %i], %0 : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf16, #blocked>
    tt.return
  }
  tt.func public @make(%p: !tt.ptr<f32>, %m: i32, %n: i32, %s: i64) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] {padding = 2 : i32} : <f32>, <tensor<16x32xf32, #shared1>>
    %0 = tt.descriptor_load %d[%m, %m] : !tt.tensordesc<tensor<16x32xf32, #shared1>> -> tensor<16x32xf32, #blocked1>
    tt.return
  }
}
