// RUN: tt-opt %s -split-input-file -tritongpu-coalesce-async-copy | FileCheck %s

// A copy whose threads hold 16 contiguous i8 into a buffer swizzled in vectors of 8 takes a layout clipped to
// 8 (lanes and warps spread again): its pointers and mask are converted to it right before it, and the copy is
// rebuilt on them without the pipeliner's `contiguity` (as Triton's rewriter rebuilds it).
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
// CHECK: #[[CLIP:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @clipped
// CHECK: %[[P:.*]] = ttg.convert_layout %arg0 : tensor<64x64x!tt.ptr<i8>, #blocked> -> tensor<64x64x!tt.ptr<i8>, #[[CLIP]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %arg1 : tensor<64x64xi1, #blocked> -> tensor<64x64xi1, #[[CLIP]]>
// CHECK-NEXT: %[[T:.*]] = ttg.async_copy_global_to_local %[[P]], %{{.*}} mask %[[M]] : tensor<64x64x!tt.ptr<i8>, #[[CLIP]]> -> <64x64xi8, #shared, #smem, mutable>
// CHECK-NEXT: ttg.async_commit_group tokens %[[T]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @clipped(%p: tensor<64x64x!tt.ptr<i8>, #blocked>, %m: tensor<64x64xi1, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xi8, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf mask %m {contiguity = 16 : i32} : tensor<64x64x!tt.ptr<i8>, #blocked> -> <64x64xi8, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// Unswizzled buffers in the copy's order keep a thread's whole run contiguous: nothing changes.
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @unswizzled
// CHECK-NOT: ttg.convert_layout
// CHECK: ttg.async_copy_global_to_local %arg0, %{{.*}} mask %arg1 {contiguity = 16 : i32} : tensor<64x64x!tt.ptr<i8>, #blocked>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unswizzled(%p: tensor<64x64x!tt.ptr<i8>, #blocked>, %m: tensor<64x64xi1, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xi8, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf mask %m {contiguity = 16 : i32} : tensor<64x64x!tt.ptr<i8>, #blocked> -> <64x64xi8, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}
