// RUN: tt-opt %s -split-input-file -verify-diagnostics
// RUN: not tt-opt %s -split-input-file 2>&1 | FileCheck %s --strict-whitespace

// Layouts are checked as Triton 3.6 checks them, with its messages: each attribute's parser and verifier
// when it is parsed (the error is at the attribute), and, at every tt/ttg/ttng op, the layouts of its
// operands and results against the module (threads per warp, warps per CTA, CTAs per CGA). #ttg.nvidia_mma
// has no verifier: what the back end cannot lower is reported by tt-translate (tt-translate/mma-layout-errors.test).

// CHECK:      {{^}}{{.*}}invalid-layouts.mlir:[[# @LINE + 4]]:12: error: Every element in threadsPerWarp must be a power of two.{{$}}
// CHECK-NEXT: {{^}}#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [24], warpsPerCTA = [4], order = [0]}>{{$}}
// CHECK-NEXT: {{^}}           ^{{$}}
// expected-error @below {{Every element in threadsPerWarp must be a power of two.}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [24], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @below {{sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have the same rank.}}
#blocked = #ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @below {{Every element in sizePerThread must be a power of two.}}
#blocked = #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @below {{Every element in warpsPerCTA must be a power of two.}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [3], order = [0]}>

// -----

// expected-error @below {{order must be a permutation of 0..(rank-1), but was [1, 1]}}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>

// -----

// expected-error @below {{unexpected key: CTAsPerCGA}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAsPerCGA = [1]}>

// -----

// expected-error @below {{expected an array for number of warps per CTA}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = 4, order = [0]}>

// -----

// expected-error @below {{expected an integer type in order}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [true]}>

// -----

// CGALayout: one basis per power of two of CTAs, each of the layout's rank.

// expected-error @below {{expected array value for 'CGALayout'}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = 2}>

// -----

// expected-error @below {{expected an array for CGALayout entry}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [1, 0]}>

// -----

// expected-error @below {{'CGALayout' entry length does not match rank 2}}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0, 0]]}>

// -----

// An nvmma_shared layout has rank 2 unless it says otherwise.
// expected-error @below {{'CGALayout' entry length does not match rank 2}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1, 0]]}>

// -----

// expected-error @below {{order must be a permutation of 0..(rank-1), but was [0, 2]}}
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 2]}>

// -----

// expected-error @below {{swizzlingByteWidth must be 0, 32, 64, or 128}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>

// -----

// expected-error @below {{elementBitWidth must be non-zero}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 0}>

// -----

// expected-error @below {{expected a bool type in transposed}}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = 1, elementBitWidth = 16}>

// -----

// expected-error @below {{parent layout must have at least rank >= 2}}
#slice = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>

// -----

// expected-error @below {{slice dim=2 must be less than the parent rank=2}}
#slice = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @below {{ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent}}
#a = #ttg.dot_op<{opIdx = 0, parent = #mma}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @below {{ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent}}
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @below {{ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers}}
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout}}
#a = #ttg.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{ttg.dot_op opIdx parameter can be 0 or 1, got: 2}}
#a = #ttg.dot_op<{opIdx = 2, parent = #blocked}>

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// expected-error @below {{ttg.dot_op unexpected parent layout: #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>}}
#a = #ttg.dot_op<{opIdx = 0, parent = #ttg.slice<{dim = 0, parent = #blocked}>}>

// -----

// expected-error @below {{In a distributed layout, each base must move in at most one dimension.}}
#linear = #ttg.linear<{register = [[1, 1]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [], block = []}>

// -----

// expected-error @below {{Expected basis of 'block' not found}}
#linear = #ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = []}>

// -----

// #ttg.nvidia_mma is taken as written, whatever the instruction shape or version.
#mma = #ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 16]}>
#mma2 = #ttg.nvidia_mma<{versionMajor = 4, warpsPerCTA = [4, 1], instrShape = [16, 128, 64]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>

// -----

// Against the module (Triton's tensor-layout trait, on every tt, ttg and ttng op): operands first, then results.
#rank2 = #ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rank() {
    // expected-error @below {{Result has an invalid layout: Layout has rank 2, but the tensor it's attached to has rank 1.}}
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #rank2>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @shape(%arg0: tensor<96xi32, #blocked>) {
    // expected-error @below {{Operand 0 (<block argument> of type 'tensor<96xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' at index: 0) has an invalid layout: Layout has shape 96, but the tensor it's attached to has shape 96 which is not a power of two.}}
    %0 = ttg.convert_layout %arg0 : tensor<96xi32, #blocked> -> tensor<96xi32, #blocked>
    tt.return
  }
}

// -----

#threads16 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @threads() {
    // expected-error @below {{Layout has 16 threads per warp, but the module specifies 32 threads per warp.}}
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #threads16>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @warps(%arg0: f32) {
    // expected-error @below {{Result has an invalid layout: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>.}}
    %0 = tt.splat %arg0 : f32 -> tensor<32x32xf32, #mma>
    tt.return
  }
}

// -----

// A function's own ttg.num-warps is the context of its layouts.
#warps4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @function_scope() attributes {"ttg.num-warps" = 8 : i32} {
    // expected-error @below {{Layout has 4 warps per CTA, but the context requires 8 warps per CTA.}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #warps4>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @no_num_warps() {
  // expected-error @below {{Could not determine the number of warps per CTA. Operation is not in a context with `ttg.num-warps`.}}
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1], CGALayout = [[0, 1]]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @ctas(%arg0: i32) {
    // expected-error @below {{Layout has 2 CTAs per CGA, but the context requires 1 CTAs per CGA.}}
    %0 = tt.splat %arg0 : i32 -> tensor<32x2xi32, #blocked>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @not_distributed(%arg0: f32) {
    // expected-error @below {{Result has an invalid layout: Non-distributed layout is not allowed in tensor type.}}
    %0 = tt.splat %arg0 : f32 -> tensor<32xf32, #shared>
    tt.return
  }
}

// -----

// Buffers: their layout's CTAs against the module's, and its extent against the buffer's.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @memdesc_ctas() {
    // expected-error @below {{Result has an invalid layout: #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>.}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<8x16xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[16, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 2 : i32} {
  tt.func @memdesc_extent() {
    // expected-error @below {{Layout has tensor size at least 32, but the memdesc type has 16 elements.}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<8x2xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// ttng.warp_group_dot: Triton's rules (what the back end cannot lower it reports: tt-translate/mma-layout-errors.test).
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_result(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @below {{'ttng.warp_group_dot' op WGMMA result layout must be Hopper NVMMA}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#swizzled = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_b_layout(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #swizzled, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @below {{'ttng.warp_group_dot' op WGMMA B operand must have NVMMA shared layout}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #swizzled, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_m(%a: !ttg.memdesc<32x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<32x64xf32, #mma>) {
    // expected-error @below {{'ttng.warp_group_dot' op WGMMA result M dimension must be divisible by 64}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<32x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<32x64xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_fp8_f32(%a: !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem>, %b: !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @below {{'ttng.warp_group_dot' op Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_k_width(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @below {{'ttng.warp_group_dot' op in-register LHS operand must have a kWidth of 2 but got 4}}
    %d = ttng.warp_group_dot %a, %b, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// What Triton takes and the back end may not (an instruction K that does not match the operands, buffers whose
// elementBitWidth is not their elements'): no error here.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_taken(%a: !ttg.memdesc<64x64xi8, #shared, #smem>, %b: !ttg.memdesc<64x64xi8, #shared, #smem>, %c: tensor<64x64xi32, #mma>) {
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xi8, #shared, #smem> * !ttg.memdesc<64x64xi8, #shared, #smem> -> tensor<64x64xi32, #mma>
    tt.return
  }
}
