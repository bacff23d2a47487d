// Tensor descriptor and TMA ops print as Triton 3.6 prints them, and read back (custom and generic forms).
// RUN: tt-opt %s | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// CHECK-LABEL: tt.func public @ttir(%arg0: !tt.ptr<f32>, %arg1: !tt.tensordesc<tensor<64xsi32>>, %arg2: i32, %arg3: i64, %arg4: i32)
// CHECK: %[[D:.*]] = tt.make_tensor_descriptor %arg0, [%arg4], [%c1_i64] {padding = 2 : i32} : <f32>, <tensor<64xf32>>
// CHECK-NEXT: %[[V:.*]] = tt.descriptor_load %[[D]][%c0_i32] cacheModifier = cg : !tt.tensordesc<tensor<64xf32>> -> tensor<64xf32>
// CHECK: tt.descriptor_store %arg1[%c0_i32], %[[I:.*]] : !tt.tensordesc<tensor<64xsi32>>, tensor<64xi32>
// CHECK-NEXT: tt.descriptor_reduce xor, %arg1[%c0_i32], %[[I]] : !tt.tensordesc<tensor<64xsi32>>, tensor<64xi32>
tt.func public @ttir(%x: !tt.ptr<f32>, %d: !tt.tensordesc<tensor<64xsi32>>, %d0: i32, %d1: i64, %M: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %a = tt.make_tensor_descriptor %x, [%M], [%c1] {padding = 2 : i32} : <f32>, <tensor<64xf32>>
  %v = tt.descriptor_load %a[%c0] cacheModifier = cg : !tt.tensordesc<tensor<64xf32>> -> tensor<64xf32>
  %i = arith.fptosi %v : tensor<64xf32> to tensor<64xi32>
  tt.descriptor_store %d[%c0], %i : !tt.tensordesc<tensor<64xsi32>>, tensor<64xi32>
  tt.descriptor_reduce xor, %d[%c0], %i : !tt.tensordesc<tensor<64xsi32>>, tensor<64xi32>
  tt.return
}

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: tt.func public @ttgir(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>, %arg1: !tt.ptr<f16>, %arg2: i32)
// CHECK: %[[S:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: ttng.tensormap_create %[[S]], %arg1, [%c64_i32, %c64_i32], [%arg2, %arg2], [%c128_i64], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[S]] : !tt.ptr<i8>
// CHECK-NEXT: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[S]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
// CHECK: ttng.init_barrier %[[B:.*]], 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.barrier_expect %[[B]], 8192, %true : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%c0_i32, %c0_i32] %[[M:.*]], %[[B]], %true : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: ttng.wait_barrier %[[B]], %c0_i32 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.inval_barrier %[[B]] : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[D]][%c0_i32, %c0_i32] %[[M]] : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: ttng.async_tma_reduce add, %[[D]][%c0_i32, %c0_i32] %[[M]] : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
tt.func public @ttgir(%desc: !tt.tensordesc<tensor<64x64xf16, #shared>>, %p: !tt.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i64
  %true = arith.constant true
  %s = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
  ttng.tensormap_create %s, %p, [%c64, %c64], [%n, %n], [%c128], [%c1, %c1] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
  ttng.tensormap_fenceproxy_acquire %s : !tt.ptr<i8>
  %d = ttng.reinterpret_tensor_descriptor %s : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
  %m = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  ttng.barrier_expect %b, 8192, %true : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  ttng.async_tma_copy_global_to_local %desc[%c0, %c0] %m, %b, %true : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  ttng.inval_barrier %b : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
  ttng.async_tma_copy_local_to_global %d[%c0, %c0] %m : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  ttng.async_tma_reduce add, %d[%c0, %c0] %m : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  ttng.async_tma_store_wait {pendings = 0 : i32}
  tt.return
}
