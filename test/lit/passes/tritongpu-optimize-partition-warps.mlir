// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-optimize-partition-warps | FileCheck %s
// RUN: not tt-opt %S/Inputs/optimize-partition-warps-no-target.mlir -tritongpu-optimize-partition-warps 2>&1 | FileCheck %S/Inputs/optimize-partition-warps-no-target.mlir

// A partition without tensors goes down to 1 warp and asks for 24 registers;
// one with tensors asks for 88.
// CHECK-LABEL: @scalars_only
// CHECK: ttg.warp_specialize(%arg0) attributes {requestedRegisters = array<i32: 24, 88>}
// CHECK: partition0(%arg1: i32) num_warps(1)
// CHECK: partition1(%arg1: i32) num_warps(4)
#big = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  tt.func @scalars_only(%arg0: i32) {
    ttg.warp_specialize(%arg0)
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(2) {
      %m = arith.muli %a, %a : i32
      ttg.warp_return
    }
    partition1(%a: i32) num_warps(4) {
      %t = arith.constant dense<1.0> : tensor<256x256xf32, #big>
      "keep"(%t) : (tensor<256x256xf32, #big>) -> ()
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// A small tensor lets the partition halve down to 1 warp; its body is laid out
// again for 1 warp.
// CHECK-DAG: #[[ONE:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: @small_tensor
// CHECK: partition0(%arg1: i32, %arg2: !ttg.memdesc<64xi32, #{{.*}}, #smem, mutable>) num_warps(1)
// CHECK-NEXT: tt.splat %arg1 : i32 -> tensor<64xi32, #[[ONE]]>
// CHECK-NEXT: ttg.local_store {{.*}} : tensor<64xi32, #[[ONE]]> ->
#l8 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  tt.func @small_tensor(%arg0: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64xi32, #flat, #smem, mutable>
    ttg.warp_specialize(%arg0, %buf)
    default {
      ttg.warp_yield
    }
    partition0(%a: i32, %b: !ttg.memdesc<64xi32, #flat, #smem, mutable>) num_warps(8) {
      %s = tt.splat %a : i32 -> tensor<64xi32, #l8>
      ttg.local_store %s, %b : tensor<64xi32, #l8> -> !ttg.memdesc<64xi32, #flat, #smem, mutable>
      ttg.warp_return
    } : (i32, !ttg.memdesc<64xi32, #flat, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

// 256x128 f32 over 8 warps takes 128 registers a thread, doubled 256 (the
// guess: the largest tensor is half of what a partition uses); 4 warps would
// need 512 while 64K over 4 + 4 warps gives each thread 256: it stays.
// CHECK-LABEL: @does_not_fit
// CHECK: partition0() num_warps(8)
#w8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  tt.func @does_not_fit() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(8) {
      %t = arith.constant dense<1.0> : tensor<256x128xf32, #w8>
      "keep"(%t) : (tensor<256x128xf32, #w8>) -> ()
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// 128x128 f32 needs 256 a thread at 4 warps, and 4 + 4 warps give 256: it
// halves once; at 2 warps it would need 512 where 4 + 2 warps give 341.
// CHECK-LABEL: @halves_once
// CHECK: partition0() num_warps(4)
#w8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  tt.func @halves_once() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(8) {
      %t = arith.constant dense<1.0> : tensor<128x128xf32, #w8>
      "keep"(%t) : (tensor<128x128xf32, #w8>) -> ()
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Partitions shrink one step at a time, the first that can, then all are
// tried again: 128x64 f32 needs 128 a thread at 4 warps, which 8 + 4 + 8 warps
// do not give (102) but 8 + 4 + 4 do (128), once the empty partition has
// halved; the empty one goes on down to 1 warp.
// CHECK-LABEL: @in_turns
// CHECK: partition0() num_warps(4)
// CHECK: partition1() num_warps(1)
#w8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 8 : i32} {
  tt.func @in_turns() {
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    }
    partition0() num_warps(8) {
      %t = arith.constant dense<1.0> : tensor<128x64xf32, #w8>
      "keep"(%t) : (tensor<128x64xf32, #w8>) -> ()
      ttg.warp_return
    }
    partition1() num_warps(8) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Pointers count 64 bits: 128x64 pointers weigh as much as 128x128 f32 and
// stop at 4 warps (128x64 i32 would go on to 2).
// CHECK-LABEL: @pointer_tensor
// CHECK: partition0({{.*}}) num_warps(4)
#p8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  tt.func @pointer_tensor(%p: !tt.ptr<f32>) {
    ttg.warp_specialize(%p)
    default {
      ttg.warp_yield
    }
    partition0(%q: !tt.ptr<f32>) num_warps(8) {
      %t = tt.splat %q : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #p8>
      "keep"(%t) : (tensor<128x64x!tt.ptr<f32>, #p8>) -> ()
      ttg.warp_return
    } : (!tt.ptr<f32>) -> ()
    tt.return
  }
}

// -----

// A TMA copy keeps at least 2 warps; a TMEM load keeps 4 and, laid out again,
// reads TMEM in Triton's default TMEM layout and converts from it.
// CHECK-DAG: #[[TM:.*]] = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
// CHECK-LABEL: @floors
// CHECK: partition0({{.*}}) num_warps(2)
// CHECK: partition1({{.*}}) num_warps(4)
// CHECK-NEXT: %[[V:.*]] = ttng.tmem_load %arg{{.*}} -> tensor<128x32xf32, #[[TM]]>
// CHECK-NEXT: ttg.convert_layout %[[V]] : tensor<128x32xf32, #[[TM]]> -> tensor<128x32xf32, #
#t8 = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>
#smem = #ttg.shared_memory
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  tt.func @floors(%d: !tt.tensordesc<tensor<64x32xf16, #nv>>, %s: !ttg.memdesc<64x32xf16, #nv, #smem, mutable>,
                  %b: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %m: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) {
    ttg.warp_specialize(%d, %s, %b, %m)
    default {
      ttg.warp_yield
    }
    partition0(%d0: !tt.tensordesc<tensor<64x32xf16, #nv>>, %s0: !ttg.memdesc<64x32xf16, #nv, #smem, mutable>,
               %b0: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %m0: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) num_warps(8) {
      %c0 = arith.constant 0 : i32
      %true = arith.constant true
      ttng.async_tma_copy_global_to_local %d0[%c0, %c0] %s0, %b0, %true : !tt.tensordesc<tensor<64x32xf16, #nv>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x32xf16, #nv, #smem, mutable>
      ttg.warp_return
    }
    partition1(%d0: !tt.tensordesc<tensor<64x32xf16, #nv>>, %s0: !ttg.memdesc<64x32xf16, #nv, #smem, mutable>,
               %b0: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %m0: !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) num_warps(8) {
      %v = ttng.tmem_load %m0 : !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x32xf32, #t8>
      "keep"(%v) : (tensor<128x32xf32, #t8>) -> ()
      ttg.warp_return
    } : (!tt.tensordesc<tensor<64x32xf16, #nv>>, !ttg.memdesc<64x32xf16, #nv, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<128x32xf32, #tm, #ttng.tensor_memory, mutable>) -> ()
    tt.return
  }
}
