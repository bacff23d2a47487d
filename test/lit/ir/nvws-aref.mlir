// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect | filecheck %s
// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect | tt-opt -split-input-file -allow-unregistered-dialect | filecheck %s

// NVWS asynchronous references: the aref type (printed stripped where the op names it), its enter/exit ops with
// and without a slot and phase, the ODS result names of the enter ops, async-op lists and nvws.descriptor_load.

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @two_buffers
  tt.func @two_buffers(%x: !ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, %y: !ttg.memdesc<2x16x32xf16, #nv, #smem, mutable>, %s: i32) {
    // CHECK: %0 = nvws.aref.create %arg0, %arg1 : <[!ttg.memdesc<2x32x32xf16, #shared, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #shared, #smem, mutable>]>
    %r = nvws.aref.create %x, %y : !nvws.aref<[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #nv, #smem, mutable>]>
    // CHECK: %buffers:2, %token = nvws.aref.put.enter %0[%arg2, %arg2] {ttg.partition = array<i32: 0>} : <[{{.*}}]> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, !ttg.memdesc<16x32xf16, #shared, #smem, mutable>, !ttg.async.token
    %p:3 = nvws.aref.put.enter %r[%s, %s] {ttg.partition = array<i32: 0>} : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<16x32xf16, #nv, #smem, mutable>, !ttg.async.token
    // CHECK: nvws.aref.put.exit %0[%arg2], %token [#nvws.async_op<none>, #nvws.async_op<tma_load>] : <[{{.*}}]>, !ttg.async.token
    nvws.aref.put.exit %r[%s], %p#2 [#nvws.async_op<none>, #nvws.async_op<tma_load>] : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
    // CHECK: %buffers_0:2, %token_1 = nvws.aref.get.enter %0 : <[{{.*}}]> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, !ttg.memdesc<16x32xf16, #shared, #smem, mutable>, !ttg.async.token
    %g:3 = nvws.aref.get.enter %r : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<16x32xf16, #nv, #smem, mutable>, !ttg.async.token
    // CHECK: %1:2 = nvws.aref.buffer %0[%arg2], %token_1 : <[{{.*}}]>, !ttg.async.token -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
    %b:2 = nvws.aref.buffer %r[%s], %g#2 : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #nv, #smem, mutable>]>, !ttg.async.token -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<16x32xf16, #nv, #smem, mutable>
    // CHECK: "keep"(%buffers_0#1, %1#0)
    "keep"(%g#1, %b#0) : (!ttg.memdesc<16x32xf16, #nv, #smem, mutable>, !ttg.memdesc<32x32xf16, #nv, #smem, mutable>) -> ()
    // CHECK: nvws.aref.get.exit %0, %token_1 [#nvws.async_op<tc5mma>] : <[{{.*}}]>, !ttg.async.token
    nvws.aref.get.exit %r, %g#2 [#nvws.async_op<tc5mma>] : <[!ttg.memdesc<2x32x32xf16, #nv, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
    tt.return
  }
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @one_buffer_tma
  tt.func @one_buffer_tma(%x: !ttg.memdesc<3x32x32xf16, #nv, #smem, mutable>, %d: !tt.tensordesc<tensor<32x32xf16, #nv>>, %i: i32) {
    %r = nvws.aref.create %x : <[!ttg.memdesc<3x32x32xf16, #nv, #smem, mutable>]>
    // CHECK: %buffers, %token = nvws.aref.put.enter %0 :
    %p:2 = nvws.aref.put.enter %r : <[!ttg.memdesc<3x32x32xf16, #nv, #smem, mutable>]> -> !ttg.memdesc<32x32xf16, #nv, #smem, mutable>, !ttg.async.token
    // CHECK: nvws.descriptor_load %arg1[%arg2, %arg2] 2048 %buffers evictionPolicy = evict_first : !tt.tensordesc<tensor<32x32xf16, #shared>>, i32, i32, !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    nvws.descriptor_load %d[%i, %i] 2048 %p#0 evictionPolicy = evict_first : !tt.tensordesc<tensor<32x32xf16, #nv>>, i32, i32, !ttg.memdesc<32x32xf16, #nv, #smem, mutable>
    // CHECK: nvws.aref.put.exit %0, %token [#nvws.async_op<tma_load>]
    nvws.aref.put.exit %r, %p#1 [#nvws.async_op<tma_load>] : <[!ttg.memdesc<3x32x32xf16, #nv, #smem, mutable>]>, !ttg.async.token
    tt.return
  }
}
