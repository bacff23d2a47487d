// RUN: tt-opt %s -split-input-file --triton-nvidia-gpu-fence-insertion | FileCheck %s

// tcgen05 MMAs read their shared-memory operands through the async proxy, as wgmma does: a register-to-shared
// write feeding A or B (a local_alloc of a tensor, a local_store) gets a fence_async_shared before the MMA,
// hoisted out of loops that do not write; operands in tensor memory or never written from registers need none.

#r = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rt = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
// CHECK-LABEL: @operand_from_registers
// CHECK: ttg.local_alloc %arg0
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.tc_gen5_mma
tt.func @operand_from_registers(%x: tensor<128x64xf16, #r>, %b: !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  %a = ttg.local_alloc %x : (tensor<128x64xf16, #r>) -> !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}

// CHECK-LABEL: @hoisted
// CHECK: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: scf.for
// CHECK-NEXT: ttng.tc_gen5_mma
tt.func @hoisted(%x: tensor<128x64xf16, #r>, %b: !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory, mutable>
  ttg.local_store %x, %a : tensor<128x64xf16, #r> -> !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory, mutable>
  scf.for %i = %c0 to %c8 step %c1 : i32 {
    ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  }
  tt.return
}

// CHECK-LABEL: @no_register_writes
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
tt.func @no_register_writes(%x: tensor<128x64xf16, #rt>, %b: !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  %a = ttng.tmem_alloc %x : (tensor<128x64xf16, #rt>) -> !ttg.memdesc<128x64xf16, #tm, #ttng.tensor_memory>
  %bb = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory, mutable>
  ttng.tc_gen5_mma %a, %bb, %d, %p, %p : !ttg.memdesc<128x64xf16, #tm, #ttng.tensor_memory>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory, mutable>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}

// An argument of the function may have been written from registers: fenced, as Triton does.
// CHECK-LABEL: @argument
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.tc_gen5_mma
tt.func @argument(%a: !ttg.memdesc<128x64xf16, #tm, #ttng.tensor_memory>, %b: !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %p: i1) {
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #tm, #ttng.tensor_memory>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#r = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
// CHECK-LABEL: @scaled
// CHECK: ttg.local_alloc %arg0
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.tc_gen5_mma_scaled
tt.func @scaled(%x: tensor<128x64xf8E4M3FN, #r>, %a: !ttg.memdesc<128x128xf8E4M3FN, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>, %p: i1) {
  %b = ttg.local_alloc %x : (tensor<128x64xf8E4M3FN, #r>) -> !ttg.memdesc<128x64xf8E4M3FN, #b, #ttg.shared_memory>
  ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #a, #ttg.shared_memory>, !ttg.memdesc<128x64xf8E4M3FN, #b, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>
  tt.return
}
}

// -----

// A warp_specialize partition's argument is its capture: fenced when the captured buffer was written from
// registers, not when it never was.
#r = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
// CHECK-LABEL: @partitions
// CHECK: partition0
// CHECK-NEXT: %[[T:.*]] = arith.constant true
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.tc_gen5_mma
// CHECK: partition1
// CHECK-NEXT: %[[T:.*]] = arith.constant true
// CHECK-NEXT: ttng.tc_gen5_mma
tt.func @partitions(%x: tensor<128x64xf16, #r>) {
  %a = ttg.local_alloc %x : (tensor<128x64xf16, #r>) -> !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>
  %e = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory, mutable>
  %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory, mutable>
  %d = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
  ttg.warp_specialize(%a, %e, %b, %d)
  default {
    ttg.warp_yield
  }
  partition0(%pa: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %pe: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory, mutable>, %pb: !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory, mutable>, %pd: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) num_warps(4) {
    %true = arith.constant true
    ttng.tc_gen5_mma %pa, %pb, %pd, %true, %true : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory, mutable>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    ttg.warp_return
  }
  partition1(%pa: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %pe: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory, mutable>, %pb: !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory, mutable>, %pd: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) num_warps(4) {
    %true = arith.constant true
    ttng.tc_gen5_mma %pe, %pb, %pd, %true, %true : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory, mutable>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    ttg.warp_return
  } : (!ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xf16, #b, #ttg.shared_memory, mutable>, !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) -> ()
  tt.return
}
}
