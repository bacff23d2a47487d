// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s | tt-opt | FileCheck %s

// Blackwell's tensor memory ops round-trip as triton-opt prints them: the TMEM encodings under their #tmem /
// #tmem_scales aliases (parameters at their defaults left out), `[%tok]` / `[]` async tokens, tc_gen5_mma's
// `%barrier[%pred]` list, the scaled MMA's `lhs = .. rhs = ..`, and the results of tmem_alloc / tmem_load named
// after their ODS results (%result, %token) as MLIR names ops with several results.

// CHECK-DAG: #linear = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
// CHECK-DAG: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-DAG: #tmem1 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitM = 2, twoCTAs = true>
// CHECK-DAG: #tmem2 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 2>
// CHECK-DAG: #tmem_scales = #ttng.tensor_memory_scales_encoding<CTASplitN = 2>
// CHECK-DAG: #tmem_scales1 = #ttng.tensor_memory_scales_encoding<>
// CHECK-LABEL: tt.func @tmem(
// CHECK: %result = ttng.tmem_alloc %arg0 : (tensor<128x64xf32, #blocked>) -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory>
// CHECK: %result_0, %token = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK: %0 = ttng.tmem_store %arg0, %result_0[%token], %arg1 : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK: %1 = ttng.tmem_store %arg0, %result_0[], %arg1 : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK: ttng.tmem_store %arg0, %result_0, %arg1 : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK: %result_1, %token_2 = ttng.tmem_load %result_0[%0] : !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #blocked>
// CHECK: %result_3 = ttng.tmem_load %result : !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory> -> tensor<128x64xf32, #blocked>
// CHECK: %2 = ttng.tmem_subslice %result_0 {N = 32 : i32} : !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x32xf32, #tmem, #ttng.tensor_memory, mutable, 128x64>
// CHECK: %result_4 = ttng.tmem_alloc : () -> !ttg.memdesc<2x128x64xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK: %result_5 = ttng.tmem_alloc : () -> !ttg.memdesc<256x64xf32, #tmem1, #ttng.tensor_memory, mutable>
// CHECK: %result_6 = ttng.tmem_alloc : () -> !ttg.memdesc<128x8xi8, #tmem_scales, #ttng.tensor_memory, mutable>
// CHECK-LABEL: tt.func @copies(
// CHECK: ttng.tmem_copy %arg0, %arg1 : !ttg.memdesc<128x64xf32, #shared, #smem>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK: ttng.tmem_copy %arg2, %arg3, %arg4 : !ttg.memdesc<128x4xi8, #shared1, #smem>, !ttg.memdesc<128x4xi8, #tmem_scales1, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %result = ttng.tmem_alloc %arg5 : (tensor<128x4xi8, #linear>) -> !ttg.memdesc<128x4xi8, #tmem_scales1, #ttng.tensor_memory>
// CHECK-LABEL: tt.func @mma(
// CHECK: ttng.tc_gen5_mma %arg0, %arg1, %arg3, %arg6, %arg7 : !ttg.memdesc<128x64xf16, #shared3, #smem>, !ttg.memdesc<64x64xf16, #shared4, #smem>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK: %0 = ttng.tc_gen5_mma %arg0, %arg1, %arg3[%arg5], %arg6, %arg7, %arg8[%arg6], %arg8[%arg7] {is_async} : !ttg.memdesc<128x64xf16, #shared3, #smem>, !ttg.memdesc<64x64xf16, #shared4, #smem>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared2, #smem, mutable>, !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %1 = ttng.tc_gen5_mma %arg2, %arg1, %arg4[], %arg6, %arg7 {is_async} : !ttg.memdesc<128x64xf16, #tmem, #ttng.tensor_memory>, !ttg.memdesc<64x64xf16, #shared4, #smem>, !ttg.memdesc<128x64xf16, #tmem2, #ttng.tensor_memory, mutable>
// CHECK: ttng.tc_gen5_commit %arg8 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.tc_gen5_commit %arg8, %arg6 {two_ctas} : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK-LABEL: tt.func @mma_scaled(
// CHECK: %0 = ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2[%arg4], %arg3, %arg3, %arg5, %arg5 lhs = e2m1 rhs = e4m3, %arg6[%arg5] {is_async} : !ttg.memdesc<128x64xi8, #shared5, #smem>, !ttg.memdesc<128x64xf8E4M3FN, #shared6, #smem>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales1, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales1, #ttng.tensor_memory>, !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2, %arg3, %arg3, %arg5, %arg5 lhs = e2m1 rhs = e4m3 : !ttg.memdesc<128x64xi8, #shared5, #smem>, !ttg.memdesc<128x64xf8E4M3FN, #shared6, #smem>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales1, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales1, #ttng.tensor_memory>
// CHECK-LABEL: tt.func @barriers(
// CHECK: ttng.arrive_barrier %arg0, 1 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.arrive_barrier %arg0, 2, %arg1 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.async_copy_mbarrier_arrive %arg0 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.async_copy_mbarrier_arrive %arg0 {noIncrement} : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.cluster_arrive {relaxed = false}
// CHECK: ttng.cluster_arrive {relaxed = true}
// CHECK: ttng.cluster_wait
// CHECK: %0 = ttg.memdesc_reinterpret %arg0 : !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<2xi32, #shared2, #smem, mutable>

#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#scales = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#nvmma8 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#nvmma8_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#nvmma32 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#acc = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#acc16 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 2>
#split = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitM = 2, twoCTAs = true>
#sc = #ttng.tensor_memory_scales_encoding<>
#sc2 = #ttng.tensor_memory_scales_encoding<CTASplitN = 2>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @tmem(%t: tensor<128x64xf32, #blocked>, %p: i1) -> tensor<128x64xf32, #blocked> {
    %a0 = ttng.tmem_alloc %t : (tensor<128x64xf32, #blocked>) -> !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory>
    %a, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %tok1 = ttng.tmem_store %t, %a[%tok], %p : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>
    %tok2 = ttng.tmem_store %t, %a[], %p : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>
    ttng.tmem_store %t, %a, %p : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>
    %v, %tok3 = ttng.tmem_load %a[%tok1] : !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #blocked>
    %w = ttng.tmem_load %a0 : !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory> -> tensor<128x64xf32, #blocked>
    %s = ttng.tmem_subslice %a {N = 32 : i32} : !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x32xf32, #acc, #ttng.tensor_memory, mutable, 128x64>
    %m = ttng.tmem_alloc : () -> !ttg.memdesc<2x128x64xf32, #acc, #ttng.tensor_memory, mutable>
    %x = ttng.tmem_alloc : () -> !ttg.memdesc<256x64xf32, #split, #ttng.tensor_memory, mutable>
    %y = ttng.tmem_alloc : () -> !ttg.memdesc<128x8xi8, #sc2, #ttng.tensor_memory, mutable>
    tt.return %v : tensor<128x64xf32, #blocked>
  }
  tt.func @copies(%src: !ttg.memdesc<128x64xf32, #nvmma32, #ttg.shared_memory>, %dst: !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>,
                  %ssrc: !ttg.memdesc<128x4xi8, #plain, #ttg.shared_memory>, %sdst: !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory, mutable>,
                  %bar: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>, %sc: tensor<128x4xi8, #scales>) {
    ttng.tmem_copy %src, %dst : !ttg.memdesc<128x64xf32, #nvmma32, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>
    ttng.tmem_copy %ssrc, %sdst, %bar : !ttg.memdesc<128x4xi8, #plain, #ttg.shared_memory>, !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    %0 = ttng.tmem_alloc %sc : (tensor<128x4xi8, #scales>) -> !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory>
    tt.return
  }
  tt.func @mma(%a: !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>, %b: !ttg.memdesc<64x64xf16, #nvmma_t, #ttg.shared_memory>,
               %ta: !ttg.memdesc<128x64xf16, #acc, #ttng.tensor_memory>,
               %d: !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>, %d16: !ttg.memdesc<128x64xf16, #acc16, #ttng.tensor_memory, mutable>,
               %tok: !ttg.async.token, %p: i1, %q: i1, %bar: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>) {
    ttng.tc_gen5_mma %a, %b, %d, %p, %q : !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nvmma_t, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>
    %t1 = ttng.tc_gen5_mma %a, %b, %d[%tok], %p, %q, %bar[%p], %bar[%q] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #nvmma_t, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>, !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    %t2 = ttng.tc_gen5_mma %ta, %b, %d16[], %p, %q {is_async} : !ttg.memdesc<128x64xf16, #acc, #ttng.tensor_memory>, !ttg.memdesc<64x64xf16, #nvmma_t, #ttg.shared_memory>, !ttg.memdesc<128x64xf16, #acc16, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    ttng.tc_gen5_commit %bar, %p {two_ctas} : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    tt.return
  }
  tt.func @mma_scaled(%a: !ttg.memdesc<128x64xi8, #nvmma8, #ttg.shared_memory>, %b: !ttg.memdesc<128x64xf8E4M3FN, #nvmma8_t, #ttg.shared_memory>,
                      %d: !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory>,
                      %tok: !ttg.async.token, %p: i1, %bar: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>) {
    %t = ttng.tc_gen5_mma_scaled %a, %b, %d[%tok], %s, %s, %p, %p lhs = e2m1 rhs = e4m3, %bar[%p] {is_async} : !ttg.memdesc<128x64xi8, #nvmma8, #ttg.shared_memory>, !ttg.memdesc<128x64xf8E4M3FN, #nvmma8_t, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory>, !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = e2m1 rhs = e4m3 : !ttg.memdesc<128x64xi8, #nvmma8, #ttg.shared_memory>, !ttg.memdesc<128x64xf8E4M3FN, #nvmma8_t, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #acc, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #sc, #ttng.tensor_memory>
    tt.return
  }
  tt.func @barriers(%bar: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>, %p: i1) {
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    ttng.arrive_barrier %bar, 2, %p : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
    ttng.cluster_arrive {relaxed = false}
    ttng.cluster_arrive {relaxed = true}
    ttng.cluster_wait
    %0 = ttg.memdesc_reinterpret %bar : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable> -> !ttg.memdesc<2xi32, #bar, #ttg.shared_memory, mutable>
    tt.return
  }
}
